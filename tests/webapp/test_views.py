"""What a page is sent (``bot.webapp.views.page_state``), over random games under every
house-rule combination (engine.rules.all_combinations) and the sample of the regional
variants (engine.rules.variant_combinations; RULES.md section 13): a player gets their own hand and
exactly their legal actions (the chat keyboard's codes); no page ever holds a card hidden
from its viewer (RULES.md §11; public: the trump card, R-DEAL-3 and R-DEAL-4, and the cards
seen taken, R-END-2)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bot.i18n import SUPPORTED, translator
from bot.model import ChatGame, ChatSettings, GameRecord, Phase, Seat
from bot.ui.board import TEAM_MARKS, result_lines
from bot.ui.callbacks import TRUMP_SUITS, encode_action
from bot.ui.lobby import lobby_view
from bot.ui.scene import hand_scene, table_scene
from bot.webapp.views import page_state
from engine import GameState, HouseRules, Suit, Teams, apply, legal_actions, new_game
from engine.rules import TrumpChoice, all_combinations, variant_combinations
from tests.e2e.harness import plain

from .hidden import cards_in, hidden_from

COMBINATIONS = all_combinations() + variant_combinations()
WATCHER = 999


def record_of(state: GameState | None, players: int = 0) -> GameRecord:
    game = ChatGame(
        chat_id=-100,
        game_id="g",
        creator_id=1,
        settings=ChatSettings(rules=HouseRules() if state is None else state.rules),
        phase=Phase.LOBBY if state is None else Phase.FINISHED if state.finished else Phase.PLAYING,
        players=[Seat(1 + s, f"P{s}") for s in range(players if state is None else state.players)],
        state=state,
    )
    return GameRecord(game)


def played(state: GameState, seed: int, moves: int) -> GameState:
    """``state`` after up to ``moves`` moves chosen from ``seed`` (fewer if it ends)."""
    pick = seed
    for _ in range(moves):
        if state.finished:
            break
        acting = [s for s in range(state.players) if legal_actions(state, s)]
        seat = acting[pick % len(acting)]
        options = legal_actions(state, seat)
        state, _ = apply(state, options[(pick // 7) % len(options)])
        pick = pick * 1_103_515_245 + 12_345
    return state


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_seat_shows_its_rating_where_it_has_one(lang: str) -> None:
    record, tr = record_of(new_game(3, seed=7)), translator(lang)
    record.game.players[0].rating = 1565
    record.game.players[2].rating = 2043
    seats = page_state(record, WATCHER, tr)["players"]
    assert [p.get("rating") for p in seats] == [1565, None, 2043]
    assert seats[0]["rating_text"] == tr.t("webapp-rating", rating=1565)
    assert "1\xa0565" in seats[0]["rating_text"]
    assert "rating_text" not in seats[1]


@settings(max_examples=60, deadline=None)
@given(
    rules=st.sampled_from(COMBINATIONS),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 80),
    lang=st.sampled_from(["ru", "uk"]),
)
def test_a_page_holds_its_viewers_cards_and_no_hidden_one(
    rules: HouseRules, players: int, seed: int, moves: int, lang: str
) -> None:
    players = min(players, rules.max_players)
    assume(rules.player_problem(players) is None)  # teams are played by 4 or 6 (R-TEAM-1)
    trump = Suit(seed % 4) if rules.trump is TrumpChoice.DEALER else None  # R-TRUMP-1
    state = played(new_game(players, rules=rules, seed=seed, trump=trump), seed, moves)
    record = record_of(state)
    tr = translator(lang)
    for seat in range(state.players):
        sent = page_state(record, 1 + seat, tr)
        assert set(sent["hand"]) == {str(c) for c in state.hand(seat)}
        assert not cards_in(sent) & hidden_from(state, seat)
        legal = [encode_action(a) for a in legal_actions(state, seat)]
        assert sorted(a["act"] for a in sent["actions"]) == sorted(legal)
    watched = page_state(record, WATCHER, tr)
    assert watched["hand"] == [] and watched["actions"] == []
    assert not cards_in(watched) & hidden_from(state, None)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_r_team_1_every_seat_shows_its_team_and_a_player_sees_their_partner(lang: str) -> None:
    state = new_game(4, rules=HouseRules(teams=Teams.PAIRS), seed=7)
    assert state.teams == ((0, 2), (1, 3))  # partners sit across (R-TEAM-1)
    record, tr = record_of(state), translator(lang)
    red, blue = TEAM_MARKS[0], TEAM_MARKS[1]
    seats = page_state(record, 1, tr)["players"]  # seat 0's page
    assert [p["team"] for p in seats] == [0, 1, 0, 1]
    assert seats[0]["team_text"] == tr.t("webapp-team-yours", mark=red)
    assert seats[2]["team_text"] == tr.t("webapp-team-partner", mark=red)
    assert seats[1]["team_text"] == seats[3]["team_text"] == tr.t("webapp-team", mark=blue)
    partner = page_state(record, 4, tr)["players"]  # seat 3's page: seat 1 is the partner
    assert partner[1]["team_text"] == tr.t("webapp-team-partner", mark=blue)
    watched = page_state(record, WATCHER, tr)["players"]  # nobody is the watcher's partner
    assert [p["team_text"] for p in watched] == [
        tr.t("webapp-team", mark=mark) for mark in (red, blue, red, blue)
    ]
    alone = page_state(record_of(new_game(4, seed=7)), 1, tr)["players"]
    assert {(p["team"], p["team_text"]) for p in alone} == {(None, None)}


def test_r_team_4_the_end_names_the_losing_team_as_the_chat_does() -> None:
    rules = HouseRules(teams=Teams.PAIRS)
    state = next(
        s
        for s in (played(new_game(4, rules=rules, seed=seed), seed, 400) for seed in range(40))
        if s.finished and s.losing_team is not None
    )
    record, game = record_of(state), record_of(state).game
    lost = state.losing_team
    assert lost is not None and len(lost) == 2
    for lang in SUPPORTED:
        tr = translator(lang)
        for seat in (lost[0], 1 - lost[0] % 2):  # a loser, and a player of the other team
            said = page_state(record, 1 + seat, tr)["team_lost"]
            chat = result_lines(game, hand_scene(game, seat).view, tr, seat)[-1]
            assert said == plain(chat)  # «your team lost» for a loser, as in their chat
        watched = page_state(record, WATCHER, tr)["team_lost"]
        assert watched == plain(result_lines(game, table_scene(game).view, tr)[-1])
    running = record_of(played(new_game(4, rules=rules, seed=1), 1, 3))
    assert page_state(running, 1, translator("ru"))["team_lost"] is None


@pytest.mark.parametrize("lang", SUPPORTED)
def test_r_trump_1_the_dealer_alone_gets_the_chats_suit_buttons(lang: str) -> None:
    record = record_of(None, players=3)
    record.game.settings = ChatSettings(rules=HouseRules(trump=TrumpChoice.DEALER))
    record.game.naming = 2  # P1 deals
    record.deadline = 1234.0
    tr = translator(lang)
    dealer = page_state(record, 2, tr)
    chat_buttons = lobby_view(record.game, tr).markup
    assert chat_buttons is not None
    words = [b.text for row in chat_buttons.inline_keyboard for b in row]
    assert [s["label"] for s in dealer["suits"]] == words
    assert [s["op"] for s in dealer["suits"]] == [op.value for op in TRUMP_SUITS]
    assert dealer["naming"] == {"seat": 1, "text": tr.t("webapp-naming-yours")}
    assert [p["acting"] for p in dealer["players"]] == [False, True, False]
    # What the dealer's seat says it does: naming the trump, not «moving now».
    assert dealer["players"][1]["acting_text"] == tr.t("webapp-naming-now")
    assert dealer["deadline"] == 1234.0
    for other in (1, WATCHER):
        sent = page_state(record, other, tr)
        assert sent["suits"] == [] and sent["naming"]["text"] == tr.t("webapp-naming", name="P1")
    record.game.naming = None  # a lobby that is not naming the trump: no word of it
    assert "naming" not in page_state(record, 2, tr) and "suits" not in page_state(record, 2, tr)
