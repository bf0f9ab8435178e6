"""Callback data: action codes round-trip, malformed codes are refused, payloads fit."""

from __future__ import annotations

import pytest
from aiogram.filters.callback_data import MAX_CALLBACK_LENGTH

from bot.schema.presses import Back, Move, MoveKind, Pick
from bot.ui.callbacks import (
    BACK,
    HandPress,
    LobbyOp,
    LobbyPress,
    SettingsOp,
    SettingsPress,
    decode_press,
    encode_action,
    encode_pick,
)
from engine import Action, Attack, Card, Defend, Pass, Take, Throw, Transfer
from engine.cards import CARDS


def c(*names: str) -> tuple[Card, ...]:
    return tuple(Card.parse(n) for n in names)


ACTIONS: list[Action] = [
    Attack(0, c("6S")),
    Attack(3, c("10H", "10D")),
    Attack(7, c("2S", "2H", "2D", "2C")),
    Throw(1, c("AC")),
    Throw(5, c("7S", "8H", "7D", "8C", "9S", "9H")),
    Defend(1, Card.parse("AS"), Card.parse("6S")),
    Defend(2, Card.parse("2S"), Card.parse("QC")),
    Take(4),
    Pass(6),
    Transfer(1, Card.parse("6D")),
    Transfer(0, Card.parse("2S")),
]


def played(code: str, seat: int) -> Action:
    """The action the button ``code`` plays when ``seat`` presses it."""
    press = decode_press(code)
    assert isinstance(press, Move), press
    return press.action(seat)


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_every_kind_of_action_round_trips(action: Action) -> None:
    code = encode_action(action)
    assert decode_press(code) == Move.of(action)
    assert played(code, action.player) == action
    assert encode_action(played(code, action.player)) == code


def test_the_seat_is_whoever_presses() -> None:
    code = encode_action(Take(2))
    assert played(code, 5) == Take(5)


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_every_card_round_trips_in_every_kind(card: Card) -> None:
    other = CARDS[(card + 1) % 52]
    for action in (
        Attack(0, (card,)),
        Throw(1, (card, other)),
        Defend(1, card, other),
        Transfer(1, card),
    ):
        assert played(encode_action(action), action.player) == action


@pytest.mark.parametrize(
    "code",
    [
        "",
        "q",  # "x" is the exchange
        "a",
        "a1",
        "a5",
        "a52",
        "a99",
        "a0a",
        "a-1",
        "t",
        "t012",
        "d01",
        "d010203",
        "d",
        "k1",
        "kk",
        "p0",
        "r",
        "r0102",
        "r52",
        "z00",
        " a01",
        "s",
        "s5",
        "s52",
        "sxx",
        "s0102",
        "bb",
        "b01",
    ],
)
def test_malformed_codes_raise_value_error(code: str) -> None:
    with pytest.raises(ValueError):
        decode_press(code)


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_pick_step_round_trips(card: Card) -> None:
    assert decode_press(encode_pick(card)) == Pick(card)


def test_back_is_a_ui_step_and_actions_are_not() -> None:
    assert decode_press(BACK) == Back()
    assert all(isinstance(decode_press(encode_action(a)), Move) for a in ACTIONS)


@pytest.mark.parametrize(
    ("kind", "count"),
    [
        (MoveKind.ATTACK, 0),
        (MoveKind.THROW, 0),
        (MoveKind.DEFEND, 1),
        (MoveKind.DEFEND, 3),
        (MoveKind.TAKE, 1),
        (MoveKind.PASS, 1),
        (MoveKind.TRANSFER, 0),
        (MoveKind.TRANSFER, 2),
    ],
)
def test_a_move_with_the_wrong_number_of_cards_is_refused(kind: MoveKind, count: int) -> None:
    with pytest.raises(ValueError):
        Move(kind, CARDS[:count])


def test_the_longest_hand_press_fits_in_64_bytes() -> None:
    longest = max((encode_action(a) for a in ACTIONS), key=len)
    press = HandPress(chat=-1009999999999, game="Ab-_9z", moves=99999, act=longest)
    data = press.pack()
    assert len(data.encode()) <= MAX_CALLBACK_LENGTH
    assert HandPress.unpack(data) == press


@pytest.mark.parametrize("op", list(LobbyOp), ids=str)
def test_lobby_press_round_trips(op: LobbyOp) -> None:
    press = LobbyPress(game="Ab-_9z", op=op)
    data = press.pack()
    assert len(data.encode()) <= MAX_CALLBACK_LENGTH
    assert LobbyPress.unpack(data) == press


def test_buttons_sent_before_the_ops_were_enums_still_unpack() -> None:
    """The packed strings did not change: buttons already in chats keep working."""
    for op in ("join", "leave", "start", "again", "next", "cards"):
        assert LobbyPress(game="Ab-_9z", op=LobbyOp(op)).pack() == f"l:Ab-_9z:{op}"
        assert LobbyPress.unpack(f"l:Ab-_9z:{op}").op is LobbyOp(op)
    assert SettingsPress(op=SettingsOp.SET, key="deck", value="52").pack() == "cfg:set:deck:52"
    for op in ("open", "set", "back", "done"):
        assert SettingsPress.unpack(f"cfg:{op}:deck:").op is SettingsOp(op)


@pytest.mark.parametrize("data", ["l:Ab-_9z:deal", "l:Ab-_9z:", "cfg:reset::", "cfg:::"])
def test_an_op_no_button_has_does_not_unpack(data: str) -> None:
    """Its press falls through to the catch-all handler (answered "malformed")."""
    press = LobbyPress if data.startswith("l:") else SettingsPress
    with pytest.raises(ValueError):
        press.unpack(data)
