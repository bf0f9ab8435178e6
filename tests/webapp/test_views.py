"""What a page is sent (``bot.webapp.views.page_state``), over random games under every
house-rule combination (engine.rules.all_combinations) and the sample of the regional
variants (engine.rules.variant_combinations; RULES.md section 13): a player gets their own hand and
exactly their legal actions (the chat keyboard's codes); no page ever holds a card hidden
from its viewer (RULES.md §11; public: the trump card, R-DEAL-3 and R-DEAL-4, and the cards
seen taken, R-END-2)."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bot.i18n import translator
from bot.model import ChatGame, ChatSettings, Phase, Seat
from bot.storage import GameRecord
from bot.ui.callbacks import encode_action
from bot.webapp.views import page_state
from engine import GameState, HouseRules, Suit, apply, legal_actions, new_game
from engine.rules import TrumpChoice, all_combinations, variant_combinations

from .hidden import cards_in, hidden_from

COMBINATIONS = all_combinations() + variant_combinations()
WATCHER = 999


def record_of(state: GameState) -> GameRecord:
    game = ChatGame(
        chat_id=-100,
        game_id="g",
        creator_id=1,
        settings=ChatSettings(rules=state.rules),
        phase=Phase.FINISHED if state.finished else Phase.PLAYING,
        players=[Seat(1 + seat, f"P{seat}") for seat in range(state.players)],
        state=state,
    )
    return GameRecord(game)


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
    state = new_game(players, rules=rules, seed=seed, trump=trump)
    pick = seed
    for _ in range(moves):
        if state.finished:
            break
        acting = [s for s in range(state.players) if legal_actions(state, s)]
        seat = acting[pick % len(acting)]
        options = legal_actions(state, seat)
        state, _ = apply(state, options[(pick // 7) % len(options)])
        pick = pick * 1_103_515_245 + 12_345
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
