"""What a page is sent in the blind family (RULES.md section 14; ``bot.webapp.views``): each
seat's row as its viewer sees it, the player's own unseen hand as backs in slot order, the
slot actions with their slot and the attack card covered, the judge's two buttons, and
never a card hidden from the page's seat: in ``reversed`` its own hand, in ``chinese`` every
hand, in ``doubt`` the others' hands and the covers lying face down (but the defender's
own), and the covers discarded unseen for the rest of the game."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import SUPPORTED, translator
from bot.ui.callbacks import encode_action
from bot.ui.hand import action_label
from bot.webapp.texts import page_texts
from bot.webapp.views import page_state
from engine import (
    Action,
    Attack,
    AttackSlot,
    Believe,
    Blind,
    Card,
    Defend,
    DefendSlot,
    Doubt,
    GameState,
    HouseRules,
    Suit,
    ThrowSlot,
    TrumpChoice,
    apply,
    from_position,
    legal_actions,
    new_game,
)
from engine.cards import deck_cards
from tests.blind_rules import BLIND_RULES

from .hidden import cards_in, hidden_from
from .test_views import WATCHER, played, record_of

SLOT_KINDS = {"attack_slot", "throw_slot", "defend_slot"}


def c(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(x) for x in text.split())


def position(blind: Blind, *hands: Sequence[Card]) -> GameState:
    """Ann (seat 0, attacking) and Bob with ``hands``, trumps ♠, the stock empty."""
    discard = [x for x in deck_cards(36) if not any(x in h for h in hands)]
    return from_position(
        hands, rules=HouseRules(blind=blind), trump=Suit.SPADES, discard=discard, attacker=0
    )


def check_page(state: GameState, sent: dict[str, object], seat: int | None) -> None:
    """``sent`` holds no card hidden from ``seat``, and draws what the seat sees."""
    leaked = cards_in(sent) & hidden_from(state, seat)
    assert not leaked, f"seat {seat} was sent {leaked}"
    blind = state.rules.blind
    players = sent["players"]
    assert isinstance(players, list)
    for other, player in enumerate(players):
        if blind is Blind.REVERSED and seat is not None and other != seat:
            row = [str(card) for card in state.rows[other]]  # R-REV-1, in slot order
            assert player.get("row", []) == row
        else:
            assert "row" not in player
    if seat is None:
        assert sent["hand"] == sent["hand_backs"] == sent["actions"] == []
        return
    if blind is Blind.DOUBT:  # R-DOUBT-1: the seat sees its own hand
        assert set(sent["hand"]) == {str(card) for card in state.hand(seat)}  # type: ignore[call-overload]
        assert sent["hand_backs"] == []
    else:  # a back for each slot, slot 1 first
        assert sent["hand"] == []
        backs = sent["hand_backs"]
        assert isinstance(backs, list) and len(backs) == len(state.rows[seat])
    actions = sent["actions"]
    assert isinstance(actions, list)
    legal = legal_actions(state, seat)
    assert [a["act"] for a in actions] == [encode_action(a) for a in legal]
    for action, sent_action in zip(legal, actions, strict=True):
        if sent_action["kind"] in SLOT_KINDS:
            assert isinstance(action, AttackSlot | ThrowSlot | DefendSlot)
            assert sent_action["slot"] == action.slot
            on = action.on if isinstance(action, DefendSlot) else None
            assert sent_action["cards"] == ([] if on is None else [str(on)])
        else:
            assert "slot" not in sent_action


@settings(max_examples=80, deadline=None)
@given(
    rules=BLIND_RULES,
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 150),
    lang=st.sampled_from(SUPPORTED),
    first=st.integers(0, 5),
)
def test_a_blind_page_holds_what_its_seat_sees_and_no_hidden_card(
    rules: HouseRules, players: int, seed: int, moves: int, lang: str, first: int
) -> None:
    players = min(players, rules.max_players)
    trump = Suit(seed % 4) if rules.trump is TrumpChoice.DEALER else None  # R-TRUMP-1
    state = played(new_game(players, rules=rules, seed=seed, trump=trump), seed, moves)
    record, tr = record_of(state), translator(lang)
    # Pages are built one after another for the same position (a move's pages), the
    # defender's among them: whichever comes first, none holds another seat's card.
    seats = list(range(state.players))
    seats = seats[first % len(seats) :] + seats[: first % len(seats)]
    for seat in seats:
        check_page(state, page_state(record, 1 + seat, tr), seat)
    check_page(state, page_state(record, WATCHER, tr), None)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_r_rev_1_a_seat_sees_the_others_hands_face_up_and_its_own_as_backs(lang: str) -> None:
    state = position(Blind.REVERSED, c("9H KS 6C"), c("10H 7D QC"))
    record, tr = record_of(state), translator(lang)
    ann = page_state(record, 1, tr)
    assert ann["blind"] == "reversed"
    assert ann["hand"] == [] and "row" not in ann["players"][0]
    assert ann["hand_backs"] == [tr.t("webapp-slot-back", slot=n) for n in (1, 2, 3)]
    assert ann["players"][1]["row"] == ["10H", "7D", "QC"]  # in slot order, not sorted
    assert ann["labels"]["7D"] == "7♦"  # each card drawn has its name
    assert not cards_in(ann) & {"9H", "KS", "6C"}
    assert ann["actions"] == [
        {"act": encode_action(AttackSlot(0, n)), "kind": "attack_slot", "cards": [], "slot": n}
        for n in (1, 2, 3)
    ]
    bob = page_state(record, 2, tr)
    assert bob["players"][0]["row"] == ["9H", "KS", "6C"] and "row" not in bob["players"][1]
    assert not cards_in(bob) & {"10H", "7D", "QC"}
    watched = page_state(record, WATCHER, tr)
    assert "row" not in watched["players"][0] and "row" not in watched["players"][1]
    assert not cards_in(watched) - {"QS"}  # nothing but what is public (no trump card here)
    # Ann opens with her first slot, the 9♥: Bob covers by slot, naming the card covered.
    state, _ = apply(state, AttackSlot(0, 1))
    bob = page_state(record_of(state), 2, tr)
    covers = [a for a in bob["actions"] if a["kind"] == "defend_slot"]
    assert [(a["slot"], a["cards"]) for a in covers] == [(n, ["9H"]) for n in (1, 2, 3)]
    assert [a["kind"] for a in bob["actions"]][-1] == "take"


def test_r_chi_2_the_opening_lies_face_down_and_the_answer_names_only_a_slot() -> None:
    state = position(Blind.CHINESE, c("9H KS 6C"), c("10H 7D QC"))
    state, _ = apply(state, AttackSlot(0, 2))  # the K♠, face down
    record, tr = record_of(state), translator("ru")
    for user, seat in ((1, 0), (2, 1), (WATCHER, None)):
        sent = page_state(record, user, tr)
        assert sent["table"] == [] and sent["face_down_attack"] is True
        assert sent["hand"] == [] and all("row" not in p for p in sent["players"])
        assert not cards_in(sent), f"seat {seat} was sent {cards_in(sent)}"
    bob = page_state(record, 2, tr)
    assert [(a["kind"], a["slot"], a["cards"]) for a in bob["actions"]] == [
        ("defend_slot", n, []) for n in (1, 2, 3)
    ]


@pytest.mark.parametrize("believed", [True, False])
def test_r_doubt_2_the_covers_lie_face_down_but_on_the_defenders_page(believed: bool) -> None:
    state = position(Blind.DOUBT, c("9H 9C KD"), c("6S 10H QD 7C"))
    state, _ = apply(state, Attack(0, c("9H 9C")))
    state, _ = apply(state, Defend(1, Card.parse("10H"), Card.parse("9H")))
    state, _ = apply(state, Defend(1, Card.parse("7C"), Card.parse("9C")))
    record, tr = record_of(state), translator("uk")
    # The defender's page first: what was built for it is not sent to anybody else.
    bob = page_state(record, 2, tr)
    assert bob["table"] == [["9H", "10H"], ["9C", "7C"]] and bob["face_down_covers"] == [0, 1]
    assert bob["labels"]["7C"] == "7♣"
    for user in (1, WATCHER):
        sent = page_state(record, user, tr)
        assert sent["table"] == [["9H", None], ["9C", None]]
        assert sent["face_down_covers"] == [0, 1]
        assert not cards_in(sent) & {"10H", "7C", "6S", "QD"}
    ann = page_state(record, 1, tr)
    assert ann["hand"] == ["KD"] and ann["hand_backs"] == []
    judge: list[Action] = [Believe(0), Doubt(0)]
    assert ann["actions"] == [
        {"act": encode_action(a), "kind": kind, "cards": []}
        for a, kind in zip(judge, ("believe", "doubt"), strict=True)
    ]
    # The page's words for the judge's buttons are the chat's (R-DOUBT-3).
    texts = page_texts(tr)
    assert [texts["btn-believe"], texts["btn-doubt"]] == [action_label(a, tr) for a in judge]
    state, _ = apply(state, Believe(0) if believed else Doubt(0))
    record = record_of(state)
    for user, seat in ((1, 0), (2, 1), (WATCHER, None)):
        sent = page_state(record, user, tr)
        check_page(state, sent, seat)
        if believed:  # R-DOUBT-5: discarded unseen, shown to nobody, the defender included
            assert not cards_in(sent) & {"10H", "7C"}


def test_a_page_is_told_the_words_of_its_backs_filled_in_and_the_rest_once() -> None:
    for lang in SUPPORTED:
        tr = translator(lang)
        texts = page_texts(tr)
        assert "webapp-slot-back" not in texts  # filled in with each state: its slot
        for key in ("webapp-face-down", "webapp-laid-face-down", "webapp-hand-unseen"):
            assert texts[key] and "{" not in texts[key]
        assert "3" in tr.t("webapp-slot-back", slot=3)
