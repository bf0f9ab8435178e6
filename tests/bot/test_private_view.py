"""The private message is a whole table for its player: every player's card count
and role, whose decision it is and until when, the last moves, the player's own hand; drawn
from what that seat may know, so that no other hand can show in it."""

from __future__ import annotations

import html
import random
from collections.abc import Iterable

import pytest
from views import NAMES, cards, chat_game, check_html, position, random_game

from bot.i18n import SUPPORTED, Translator, translator
from bot.model import ChatGame, ChatSettings, GameRecord, append_log
from bot.turn_clock import started_deadline
from bot.ui.board import narrate, turn_line
from bot.ui.render import deadline_line, hand_scene, hand_view, table_scene, table_view
from engine import (
    Attack,
    DeclaredTake,
    GameState,
    HouseRules,
    Passed,
    Suit,
    ThrowIn,
    apply,
    legal_actions,
    new_game,
    public_view,
)
from engine.cards import CARDS


def escaped(seat: int) -> str:
    return html.escape(NAMES[seat], quote=False)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_player_with_count_and_role_and_whose_decision(lang: str) -> None:
    tr = translator(lang)
    state = new_game(3, rules=HouseRules(throw_in=ThrowIn.ALL), seed=5)
    attacker = state.acting[0]
    state, _ = apply(state, legal_actions(state, attacker)[0])
    game = chat_game(state, 3, lang)
    public = table_scene(game).view
    assert public.defender is not None
    for seat in range(3):
        text = hand_view(hand_scene(game, seat), tr).text
        check_html(text)
        lines = text.splitlines()
        for other in range(3):
            count = tr.t("cards-count", count=state.hands[other].bit_count())
            line = next(line for line in lines if escaped(other) in line and count in line)
            mark = "👉" if other in state.acting else "▫️"
            assert line.startswith(mark), line
            if other == public.defender:
                assert tr.t("role-defender") in line
            if other == seat:
                assert tr.t("player-you", name=escaped(seat)) in line
        assert turn_line(game, public, tr) in text  # the same sentence as the group's


@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_deadline_shows_as_a_time_in_each_players_app(lang: str) -> None:
    tr = translator(lang)
    game = chat_game(new_game(2, seed=3), 2, lang)
    at = 1_800_000_030.7
    text = hand_view(hand_scene(game, 0, deadline=at), tr).text
    check_html(text)
    assert deadline_line(at, tr) in text
    # Rounded down, so the time shown is never later than the real deadline.
    assert '<tg-time unix="1800000030" format="T">08:00:30 UTC</tg-time>' in text
    assert "tg-time" not in hand_view(hand_scene(game, 0), tr).text  # no timer, no line


def test_the_deadline_shown_is_the_turn_time_from_delivery_at_the_latest() -> None:
    """A hand rendered at ``now`` shows the deadline its clock gets when it arrives."""
    game = chat_game(new_game(2, seed=3), 2)
    game.settings = ChatSettings(turn_timeout=60)
    record = GameRecord(game)
    assert started_deadline(record, 1000.0) is None  # no timer running
    record.deadline = 1000.0 + 5 + 60  # set at the move: the clock starts at delivery
    assert started_deadline(record, 1001.0) == 1061.0
    record.deadline = 1030.0  # the clock started long ago: its deadline stands
    assert started_deadline(record, 1010.0) == 1030.0


@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_last_moves_are_told_in_private_as_in_the_group(lang: str) -> None:
    tr = translator(lang)
    games = list(random_game(3, 11, HouseRules()))
    game = games[len(games) // 2]
    assert game.log
    group = table_view(table_scene(game), tr).text
    for seat in range(3):
        private = hand_view(hand_scene(game, seat), tr).text
        for entry in game.log:
            line = narrate(entry, game, tr)
            assert line in group and line in private


def shuffle_hidden(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """``state`` with the cards hidden from ``seat`` dealt again at random among the places
    they can be (the unseen cards of the other hands, the stock below its face-up trump), in
    a way the table cannot tell from ``state``: who may act follows from the hands (a thrower
    with nothing to add is passed for), so a deal that changes it is no world ``seat`` could
    be in. None if a few tries found none."""
    for _ in range(30):
        other = _dealt_anew(state, seat, rng)
        if public_view(other) == public_view(state):
            return other
    return None


def _dealt_anew(state: GameState, seat: int, rng: random.Random) -> GameState:
    masks = [
        hand & ~known if s != seat else 0
        for s, (hand, known) in enumerate(zip(state.hands, state.known, strict=True))
    ]
    in_stock = [c for c in state.stock if c != state.trump_card]
    pool = [CARDS[c] for mask in masks for c in range(52) if mask >> c & 1] + in_stock
    rng.shuffle(pool)
    hands = list(state.hands)
    for s, mask in enumerate(masks):
        take, pool = pool[: mask.bit_count()], pool[mask.bit_count() :]
        hands[s] = (hands[s] & ~mask) | sum(1 << c for c in take)
    stock = tuple(c if c == state.trump_card else pool.pop() for c in state.stock)
    assert not pool
    return state._replace(hands=tuple(hands), stock=stock)


@pytest.mark.parametrize("seed", range(6))
def test_what_is_hidden_from_a_seat_never_changes_its_message(seed: int) -> None:
    """Privacy by construction: the private message is drawn from the seat's view, so
    dealing the cards it cannot see differently changes nothing in it."""
    rng = random.Random(seed)
    players = 2 + seed % 4
    tr = translator(SUPPORTED[seed % 2])
    games = random_game(players, seed, HouseRules(transfer=seed % 2 == 0))
    compared, moved = compare_with_hidden_dealt_anew(games, players, tr, rng, every=7)
    assert compared >= 10 and moved >= 5  # hidden cards really went elsewhere


def compare_with_hidden_dealt_anew(
    games: Iterable[ChatGame], players: int, tr: Translator, rng: random.Random, every: int
) -> tuple[int, int]:
    """Every ``every``-th position of ``games``: each seat's message is the same with the
    cards hidden from it dealt anew. How many messages were compared, and in how many the
    hidden cards went elsewhere."""
    compared = moved = 0
    for index, game in enumerate(games):
        if index % every:
            continue
        state = game.state
        assert state is not None
        for seat in range(players):
            shuffled = shuffle_hidden(state, seat, rng)
            if shuffled is None:
                continue
            other = chat_game(shuffled, players)
            other.log = game.log
            assert hand_view(hand_scene(other, seat), tr) == hand_view(hand_scene(game, seat), tr)
            compared += 1
            moved += shuffled.hands != state.hands
    return compared, moved


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_move_the_timer_made_says_so_in_the_log_and_to_its_player(lang: str) -> None:
    tr = translator(lang)
    state = position("7S 8H", "6S 9H", trump=Suit.CLUBS)
    state, events = apply(state, Attack(0, cards("7S")))
    game = chat_game(state, 2, lang)
    game.log = append_log([], events)
    state, events = apply(state, legal_actions(state, 1)[-1])  # the defender takes
    assert any(isinstance(e, DeclaredTake) for e in events)
    game.state = state
    game.log = append_log(game.log, events, timed_out=(1,), moves=state.moves)
    assert [e["e"] for e in game.log if e.get("timeout")] == ["DeclaredTake"]
    told = tr.t("event-timed-out", name=escaped(1), kind="take", cards="")
    assert told in table_view(table_scene(game), tr).text
    mine = hand_view(hand_scene(game, 1), tr).text
    assert told in mine and tr.t("hand-timed-out", kind="take") in mine
    # Only the player it happened to is told "your time ran out"; and only until the next move.
    assert tr.t("hand-timed-out", kind="take") not in hand_view(hand_scene(game, 0), tr).text
    state, events = apply(state, legal_actions(state, 0)[-1])
    game.state = state
    game.log = append_log(game.log, events)
    assert tr.t("hand-timed-out", kind="take") not in hand_view(hand_scene(game, 1), tr).text


def test_passes_the_timer_made_are_told_other_passes_are_not() -> None:
    log = append_log([], [Passed(0)])
    assert log == []
    log = append_log([], [Passed(0), Passed(2)], timed_out=(2,), moves=9)
    assert log == [{"e": "Passed", "player": 2, "timeout": True, "moves": 9}]


@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_end_names_the_durak_once_with_the_finishing_order(lang: str) -> None:
    tr = translator(lang)
    game = list(random_game(3, 21, HouseRules()))[-1]
    state = game.state
    assert state is not None and state.finished
    durak = state.durak
    assert durak is not None
    durak_name = escaped(durak)
    table = table_view(table_scene(game), tr).text
    assert table.count(tr.t("table-order-durak", name=durak_name, why="none")) == 1
    for number, seat in enumerate(state.out, start=1):
        assert tr.t("table-order-line", place=number, name=escaped(seat)) in table
    for seat in range(3):
        private = hand_view(hand_scene(game, seat), tr).text
        check_html(private)
        assert private.count("🤡") == 1
        assert tr.t("player-you", name=escaped(seat)) in private
