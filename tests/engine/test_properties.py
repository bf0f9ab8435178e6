"""Property tests: many random games under every combination of house rules.

Every combination of ``throw_in`` x ``first_bout_limit`` x ``no_trump_start`` x ``transfer``
x ``deck`` (108 in all) plays random games, cycling through every player count
2..``max_players``; so do the 40 combinations of the section 13 variants that
``engine.rules.variant_combinations`` samples (every value of every new key at least once,
the rest drawn with a fixed seed, each with random older keys), cycling through the player
counts their teams allow, each with half the games of a plain combination (so that CI
stays within its budget). Two kinds of games:

* volume games check cheap invariants after every action: every card of the deck exactly
  once across hands, stock, table and discard; attack cards never over the bout's limit
  (frozen at the bout's start, R-LIMIT-1..3, R-TR-3) and never over six; ``to_act`` is
  exactly the players with legal actions; the chosen legal action is accepted; hands
  refilled while the stock lasts (R-DRAW-1); nobody active without cards between bouts
  (R-OUT-2); every game ends within ``MAX_MOVES`` with one ``GameOver``, places 1, 2, 3...
  covering everybody but the durak. A random 1 in ``1 / SPOT_CHECKS`` positions of these
  games is also checked fully.
* fully checked games add, before every action: every legal action of every player is
  accepted; random candidate actions are accepted exactly when legal and otherwise refused
  with ``IllegalAction``, the state unchanged; JSON round trip; every seat's view holds
  only its own hand, public cards and cards it saw taken, and does not change when unknown
  cards trade places between other hands and the stock.

Sizes: ``DURAK_PROPERTY_GAMES`` volume games per rules combination (default 50, about 15 s
on two idle cores with the default full games; ``scripts/test`` plays 2,000 in CI) and
``DURAK_PROPERTY_FULL_GAMES`` fully checked games per combination (default 2);
``DURAK_PROPERTY_WORKERS`` processes (default: every CPU; games are forked out to them). A
volume game costs about 4 ms of CPU and a fully checked one about 65 ms, so a CI budget of
about three minutes allows ``DURAK_PROPERTY_GAMES=600 DURAK_PROPERTY_FULL_GAMES=8`` on two
cores and twice that on four. A failure names the rules, player count and seed:
``replay_game(rules, players, seed)`` plays that game again in one process.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import random
import traceback
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from engine import (
    Action,
    Attack,
    Card,
    Defend,
    Drew,
    Event,
    Exchange,
    Exchanged,
    GameOver,
    GameState,
    HouseRules,
    IllegalAction,
    Pass,
    PlayerOut,
    SeatView,
    Take,
    Throw,
    Took,
    Transfer,
    Transferred,
    TrumpChanged,
    apply,
    legal_actions,
    new_game,
    to_act,
    view_for,
)
from engine.cards import CARDS, Suit, cards_of, deck_mask
from engine.rules import TrumpChoice, all_combinations, player_counts, variant_combinations

GAMES = int(os.environ.get("DURAK_PROPERTY_GAMES", "50"))
FULL_GAMES = int(os.environ.get("DURAK_PROPERTY_FULL_GAMES", "2"))
WORKERS = int(os.environ.get("DURAK_PROPERTY_WORKERS", "0")) or (
    len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
)
MAX_MOVES = 5_000  # the longest of some 100,000 random games took under 500 actions
CANDIDATES = 6  # random candidate actions tried per fully checked position
SPOT_CHECKS = 1 / 300  # share of positions of volume games checked fully as well
EXAMPLES = 2  # hypothesis examples per test; the games are split between them

BASE_COMBOS: tuple[HouseRules, ...] = all_combinations()
VARIANT_COMBOS: tuple[HouseRules, ...] = variant_combinations()
COMBOS: tuple[HouseRules, ...] = BASE_COMBOS + VARIANT_COMBOS


def start_game(rules: HouseRules, players: int, seed: int) -> GameState:
    """``new_game``, the dealer naming a suit (by the seed) under ``trump: dealer``."""
    named = Suit(seed % 4) if rules.trump is TrumpChoice.DEALER else None
    return new_game(players, rules=rules, seed=seed, trump=named)


# --- invariants ----------------------------------------------------------------------------


def ceiling(state: GameState) -> int:
    """R-LIMIT-3, computed here from the rules text rather than taken from the engine."""
    rule = state.rules.first_bout_limit
    if rule == "first_bout" and state.bouts_played == 0:
        return 5
    if rule == "until_first_beaten" and state.discard == 0:
        return 5
    return 6


def check_cards(state: GameState, full_deck: int, size: int) -> None:
    """Every card of the deck exactly once across hands, stock, table and discard."""
    seen = state.discard
    count = state.discard.bit_count() + len(state.stock)
    for hand in state.hands:
        seen |= hand
        count += hand.bit_count()
    for card in state.stock:
        seen |= 1 << card
    bout = state.bout
    if bout is not None:
        table = 0
        for attack, cover in zip(bout.attacks, bout.covers, strict=True):
            table |= 1 << attack
            count += 1
            if cover is not None:
                table |= 1 << cover
                count += 1
        assert table == bout.table, "the table mask does not match the table's cards"
        seen |= table
    assert seen == full_deck, "a card of the deck is missing or a foreign card appeared"
    assert count == size, "a card is in two places"


def check_bout(state: GameState, lists: Sequence[list[Action]]) -> None:
    bout = state.bout
    assert bout is not None
    assert len(bout.attacks) == len(bout.covers)
    assert len(bout.attacks) <= bout.limit <= 6, "attack cards over the limit"
    acting = to_act(state)
    assert len(set(acting)) == len(acting)
    assert set(acting) == {p for p, actions in enumerate(lists) if actions}, (
        "to_act is not the set of players with legal actions"
    )
    for seat in state.out:
        assert state.hands[seat] == 0 and not lists[seat], "a player who left holds cards or acts"
    assert bout.attacker not in state.out and bout.defender not in state.out


def check_bout_start(state: GameState) -> None:
    """Between bouts: R-DRAW-1 (hands refilled while the stock lasts), R-OUT-2 (nobody
    active without cards once the stock is empty), R-LIMIT-1/3 (the limit)."""
    bout = state.bout
    assert bout is not None and bout.attacks == ()
    for seat in state.active():
        size = state.hands[seat].bit_count()
        assert size > 0, "an active player without cards at the start of a bout"
        if state.stock:
            assert size >= 6, "a player short of six cards while the stock has cards"
    defender_cards = state.hands[bout.defender].bit_count()
    assert bout.limit == min(ceiling(state), defender_cards), "wrong limit at the bout start"


def check_game_over(state: GameState, events: list[Event], players: int) -> None:
    overs = [e for e in events if type(e) is GameOver]
    assert overs == [GameOver(state.durak)], "not exactly one GameOver naming the durak"
    outs = [e for e in events if type(e) is PlayerOut]
    assert [e.place for e in outs] == list(range(1, len(outs) + 1))
    assert tuple(e.player for e in outs) == state.out
    assert state.stock == () and state.bout is None and to_act(state) == ()
    if state.durak is None:
        assert sorted(state.out) == list(range(players))
        assert not any(state.hands)
    elif state.teams:  # R-TEAM-4: the losing team's players still holding cards stay
        holders = [s for s in range(players) if state.hands[s]]
        assert state.losing_team is not None and state.durak in holders
        assert set(holders) <= set(state.losing_team), "a winner still holds cards"
        assert sorted([*state.out, *holders]) == list(range(players))
    else:
        assert sorted([*state.out, state.durak]) == list(range(players))
        assert state.hands[state.durak] != 0
        assert sum(1 for h in state.hands if h) == 1
    assert all(legal_actions(state, p) == [] for p in range(players))


# --- fully checked positions ---------------------------------------------------------------


def action_key(action: Action) -> tuple[Any, ...]:
    """Actions that name the same cards in another order count as the same action here (see
    test_card_order_of_an_action_does_not_matter for the engine's side of that)."""
    if isinstance(action, Attack | Throw):
        return (type(action), action.player, frozenset(action.cards), len(action.cards))
    if isinstance(action, Defend):
        return (Defend, action.player, action.card, action.on)
    if isinstance(action, Transfer):
        return (Transfer, action.player, action.card)
    return (type(action), action.player)  # Take, Pass, Exchange


def random_candidate(state: GameState, rng: random.Random, deck: Sequence[Card]) -> Action:
    """A random action: mostly plausible (own cards, cards on the table), sometimes absurd."""
    players = state.players
    player = rng.randrange(players) if rng.random() < 0.97 else rng.choice((-1, players))
    hand = state.hand(player) if 0 <= player < players else []
    bout = state.bout
    attacks = list(bout.attacks) if bout is not None else []
    table = attacks + [c for c in (bout.covers if bout else ()) if c is not None]

    def some_card() -> Card:
        roll = rng.random()
        if hand and roll < 0.7:
            return rng.choice(hand)
        if table and roll < 0.8:
            return rng.choice(table)
        return rng.choice(deck) if roll < 0.95 else rng.choice(CARDS)

    kind = rng.randrange(7)
    if kind == 6:
        return Exchange(player)
    if kind in (0, 1):
        count = rng.choice((1, 1, 1, 2, 2, 3, 4))
        chosen = [some_card() for _ in range(count)]
        if rng.random() < 0.9:
            chosen = list(dict.fromkeys(chosen))
        return (Attack if kind == 0 else Throw)(player, tuple(chosen))
    if kind == 2:
        on = rng.choice(attacks) if attacks and rng.random() < 0.8 else some_card()
        return Defend(player, some_card(), on)
    if kind == 3:
        return Transfer(player, some_card())
    return Take(player) if kind == 4 else Pass(player)


def swapped(data: dict[str, Any], a: Card, b: Card) -> GameState:
    """The position of ``data`` (a ``to_dict``) with cards a and b trading places."""
    names = {str(a): str(b), str(b): str(a)}

    def swap(text: str) -> str:
        return " ".join(names.get(t, t) for t in text.split())

    hands = [swap(h) for h in data["hands"]]
    return GameState.from_dict({**data, "hands": hands, "stock": swap(data["stock"])})


def cards_in(value: object) -> Iterable[Card]:
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from cards_in(item)


VIEW_FIELDS = tuple(f.name for f in dataclasses.fields(SeatView))


def check_view(state: GameState, seat: int, seen: list[int]) -> SeatView:
    """The view holds the seat's own hand, public cards and cards seen taken, nothing else."""
    view = view_for(state, seat)
    assert sorted(view.hand) == state.hand(seat)
    assert view.hand_sizes == tuple(h.bit_count() for h in state.hands)
    assert view.stock_size == len(state.stock)
    assert view.discard_size == state.discard.bit_count()
    assert view.trump == state.trump and view.trump_card == state.trump_card
    for other in range(state.players):
        if other != seat:
            expected = cards_of(seen[other] & state.hands[other])
            assert sorted(view.seen_in_hands[other]) == expected, "seen cards of another hand"
    public = {c for pair in view.table for c in pair if c is not None}
    if state.trump_card is not None:
        public.add(state.trump_card)
    # ``declined`` names cards a seat did not play (every card of a rank, every cover),
    # wherever they are: it says where no card is, and is the same in every seat's view.
    assert view.declined == view_for(state, (seat + 1) % state.players).declined
    for name in VIEW_FIELDS:
        if name not in ("hand", "seen_in_hands", "declined"):
            leaked = set(cards_in(getattr(view, name))) - public
            assert not leaked, f"view field {name} shows {leaked}"
    return view


def check_view_hides(
    state: GameState, data: dict[str, Any], seat: int, seen: list[int], rng: random.Random
) -> None:
    """Cards the seat cannot know (other hands minus cards seen taken; the stock but for its
    face-up bottom card) may trade places without changing the seat's view."""
    unknown: list[tuple[Card, int]] = []
    for other in range(state.players):
        if other != seat:
            unknown += [(c, other) for c in cards_of(state.hands[other] & ~seen[other])]
    # The stock but its face-up card (the last, or the one above a Northern bottom card).
    unknown += [(c, -1) for c in state.stock if c != state.trump_card]
    if len(unknown) < 2:
        return
    (a, where_a), (b, where_b) = rng.sample(unknown, 2)
    if where_a == where_b and where_a != -1:
        return  # the same hand: nothing moves
    view = view_for(state, seat)
    other_view = view_for(swapped(data, a, b), seat)
    if other_view.to_act != view.to_act:
        # R-BOUT-8 passes a thrower without a legal card automatically, so who is asked
        # may depend on the hidden cards; everything else must stay the same.
        other_view = dataclasses.replace(other_view, to_act=view.to_act)
    assert other_view == view, f"the view of seat {seat} depends on where {a} and {b} are"


def check_position(
    state: GameState, lists: Sequence[list[Action]], seen: list[int], rng: random.Random
) -> None:
    before = state.to_dict()
    full_deck, size = deck_mask(state.rules.deck), state.rules.deck
    legal: set[tuple[Any, ...]] = set()
    for player, actions in enumerate(lists):
        assert len(set(actions)) == len(actions), "legal_actions lists an action twice"
        for action in actions:
            assert action.player == player
            after, _ = apply(state, action)  # must not raise
            check_cards(after, full_deck, size)
            legal.add(action_key(action))
    deck = [c for c in CARDS if full_deck >> c & 1]
    for _ in range(CANDIDATES):
        candidate = random_candidate(state, rng, deck)
        try:
            apply(state, candidate)
        except IllegalAction as error:
            assert action_key(candidate) not in legal, f"legal {candidate} refused: {error.code}"
            assert error.code and error.code == error.code.lower() and " " not in error.code
        else:
            assert action_key(candidate) in legal, f"{candidate} accepted but not listed"
    data = json.loads(json.dumps(before))
    copy = GameState.from_dict(data)
    # One comparison for two properties: the JSON form loses nothing, and the state is
    # still the one ``before`` was taken from, after every apply and refusal above.
    assert copy == state, "apply changed its input, or to_dict/from_dict lost something"
    for seat in range(state.players):
        check_view(state, seat, seen)
    check_view_hides(state, data, rng.randrange(state.players), seen, rng)


# --- one game --------------------------------------------------------------------------------


def initially_seen(state: GameState) -> list[int]:
    """Cards everybody saw go into a hand at the deal: the shown lowest trump (R-START-1) and
    the dealer's trump card when the deal used the whole deck (R-DEAL-4)."""
    seen = [0] * state.players
    if not state.stock and state.trump_card is not None:
        seen[state.dealer] |= 1 << state.trump_card  # R-DEAL-4
    for rank in range(13):
        card = CARDS[state.trump * 13 + rank]
        holders = [s for s in range(state.players) if state.hands[s] >> card & 1]
        if holders:
            assert state.bout is not None and state.bout.attacker == holders[0], "R-START-1"
            seen[holders[0]] |= 1 << card
            break
    return seen


def drawer_of(state: GameState, happened: tuple[Event, ...], index: int) -> int:
    """Who drew ``state.stock[index]`` (top first) in the drawing of ``happened``."""
    count = 0
    for event in happened:
        if type(event) is Drew:
            count += event.drawn
            if count > index:
                return event.player
    raise AssertionError(f"nobody drew stock card {index}")


def track(state: GameState, after: GameState, happened: tuple[Event, ...], seen: list[int]) -> None:
    """Check the events that close a bout or transfer it, and note what everybody saw."""
    drawn = sum(e[1] for e in happened if type(e) is Drew)  # (player, how many)
    assert drawn == len(state.stock) - len(after.stock), "Drew events miscount the stock"
    face_up_card = state.trump_card  # the card lying face up under the stock
    for event in happened:
        if type(event) is Exchanged:  # R-SIX-1: everybody saw the face-up card go
            seen[event.player] |= 1 << event.took
            face_up_card = event.card  # the low trump lies face up in its place (R-VAR-4:
            # an exchange can close the bout, and the drawing after it can reach that card)
        elif type(event) is TrumpChanged:  # R-TRUMP-3: the bottom card is shown
            assert after.trump == event.card.suit and not after.bottom_card_hidden
            assert event.player == drawer_of(state, happened, len(state.stock) - 1)
            seen[event.player] |= 1 << event.card
        elif type(event) is Took:
            seen[event.player] |= sum(1 << c for c in event.cards)
        elif type(event) is Transferred:
            assert after.bout is not None
            assert after.bout.limit == min(
                ceiling(after), after.hands[after.bout.defender].bit_count()
            ), "R-TR-3: limit after a transfer"
    if state.trump_card is not None and state.trump_card_in_stock and not after.trump_card_in_stock:
        face_up = len(state.stock) - (2 if state.bottom_card_hidden else 1)
        drawer = drawer_of(state, happened, face_up)
        assert face_up_card is not None
        seen[drawer] |= 1 << face_up_card  # R-DRAW-4: everybody saw it
    if state.bottom_card_hidden and not after.stock:
        assert any(type(e) is TrumpChanged for e in happened), "R-VAR-5: no TrumpChanged"


def play_game(rules: HouseRules, players: int, seed: int, full: bool) -> int:
    """One random game with every check; returns the number of actions."""
    rng = random.Random(seed)
    state = start_game(rules, players, seed)
    full_deck, size = deck_mask(rules.deck), rules.deck
    seen = initially_seen(state)
    events: list[Event] = []
    check_cards(state, full_deck, size)
    check_bout_start(state)
    for move in range(MAX_MOVES):
        lists = [legal_actions(state, p) for p in range(players)]
        check_bout(state, lists)
        if full or rng.random() < SPOT_CHECKS:
            check_position(state, lists, seen, rng)
        acting = to_act(state)
        actions = lists[acting[int(rng.random() * len(acting))]]
        action = actions[int(rng.random() * len(actions))]
        try:
            after, happened = apply(state, action)
        except IllegalAction as error:
            raise AssertionError(f"move {move}: legal {action} refused: {error.code}") from None
        check_cards(after, full_deck, size)
        if len(happened) == 1 and type(happened[0]) is not Transferred:
            assert len(after.stock) == len(state.stock), "the stock changed within a bout"
            events.append(happened[0])
            if type(happened[0]) is Exchanged:
                seen[happened[0].player] |= 1 << happened[0].took
        else:
            events += happened
            track(state, after, happened, seen)
        state = after
        if state.bout is None:
            check_game_over(state, events, players)
            return move + 1
        if state.bout.attacks == ():
            check_bout_start(state)
    raise AssertionError(f"the game did not end within {MAX_MOVES} moves")


def replay_game(rules: dict[str, Any], players: int, seed: int, full: bool = True) -> int:
    """Play one reported game again: ``replay_game(rules_dict, players, seed)``."""
    return play_game(HouseRules.from_dict(rules), players, seed, full)


Task = tuple[int, int, int, bool]  # combination index, players, seed, fully checked


def run_tasks(tasks: Sequence[Task]) -> tuple[int, int, int, list[str]]:
    """Play the games; (games, moves, longest game, failures as readable reports)."""
    games = moves = longest = 0
    failures: list[str] = []
    for combo, players, seed, full in tasks:
        rules = COMBOS[combo]
        try:
            count = play_game(rules, players, seed, full)
        except Exception:
            failures.append(
                f"replay_game({rules.to_dict()!r}, {players}, {seed}, full={full}):\n"
                + traceback.format_exc(limit=-3)
            )
            continue
        games += 1
        moves += count
        longest = max(longest, count)
    return games, moves, longest, failures


def run_everywhere(tasks: list[Task]) -> tuple[int, int, int, list[str]]:
    """Split the games between ``WORKERS`` processes (forked: no re-import)."""
    if WORKERS <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return run_tasks(tasks)
    chunks = [tasks[i :: WORKERS * 4] for i in range(WORKERS * 4)]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=WORKERS, mp_context=context) as pool:
        results = list(pool.map(run_tasks, chunks))
    failures = [f for r in results for f in r[3]]
    return (
        sum(r[0] for r in results),
        sum(r[1] for r in results),
        max(r[2] for r in results),
        failures,
    )


def games_for(base: int, per_combo: int, full: bool) -> list[Task]:
    """``per_combo`` games for every combination, player counts 2..max_players in turn."""
    tasks = []
    for combo, rules in enumerate(COMBOS):
        counts = player_counts(rules)
        # A sampled variant combination plays half as many games as a plain one: the 40
        # of them then cost CI about a fifth more time, not two fifths.
        games = per_combo if combo < len(BASE_COMBOS) else max(1, per_combo // 2)
        for game in range(games):
            seed = (base * 1_000_003 + combo * 100_003 + game) % 2**63
            tasks.append((combo, counts[game % len(counts)], seed, full))
    return tasks


def assert_all_passed(tasks: list[Task]) -> None:
    games, moves, longest, failures = run_everywhere(tasks)
    report = "\n\n".join(failures[:5])
    assert not failures, f"{len(failures)} of {len(tasks)} games failed, first:\n{report}"
    assert games == len(tasks)
    assert longest < MAX_MOVES
    assert moves >= 10 * games


# --- the tests -------------------------------------------------------------------------------

NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]


@settings(max_examples=EXAMPLES, deadline=None, phases=NO_SHRINK, database=None)
@given(base=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_keep_every_invariant(base: int) -> None:
    """GAMES random games per house-rule combination (cheap checks after every action)."""
    assert_all_passed(games_for(base, max(1, GAMES // EXAMPLES), full=False))


@settings(max_examples=EXAMPLES, deadline=None, phases=NO_SHRINK, database=None)
@given(base=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_fully_checked(base: int) -> None:
    """FULL_GAMES fully checked random games per house-rule combination: legal actions all
    accepted, random others refused without change, JSON round trip, private views."""
    assert_all_passed(games_for(base, max(1, FULL_GAMES // EXAMPLES), full=True))


@settings(max_examples=20, deadline=None)
@given(
    combo=st.integers(min_value=0, max_value=len(COMBOS) - 1),
    players=st.integers(min_value=2, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_one_random_game_fully_checked(combo: int, players: int, seed: int) -> None:
    """Hypothesis picks the rules, the table size and the seed of one fully checked game
    (in this process, so a failure shrinks and shows its own traceback)."""
    rules = COMBOS[combo]
    counts = player_counts(rules)
    play_game(rules, counts[players % len(counts)], seed, full=True)


def test_combinations_cover_every_house_rule_value() -> None:
    """The 108 combinations hold every value of every play-changing house rule."""
    assert len(BASE_COMBOS) == 3 * 3 * 2 * 2 * 3 == len(set(BASE_COMBOS))
    assert {r.deck for r in BASE_COMBOS} == {24, 36, 52}
    assert {r.max_players for r in BASE_COMBOS} == {4, 6, 8}
    assert {str(r.throw_in) for r in BASE_COMBOS} == {"neighbors", "all", "neighbors_first_rank"}
    assert {str(r.first_bout_limit) for r in BASE_COMBOS} == {
        "none",
        "first_bout",
        "until_first_beaten",
    }
    assert {str(r.no_trump_start) for r in BASE_COMBOS} == {"dealer_left", "random"}
    assert {r.transfer for r in BASE_COMBOS} == {False, True}
    # The sample of section 13: every value of every new key, with the older keys varied.
    assert len(VARIANT_COMBOS) == 40 == len(set(VARIANT_COMBOS))
    assert {str(r.teams) for r in VARIANT_COMBOS} == {"off", "pairs", "triples"}
    assert {str(r.trump) for r in VARIANT_COMBOS} == {"turned", "dealer", "japanese", "northern"}
    assert {str(r.top_card) for r in VARIANT_COMBOS} == {
        "off",
        "queen_of_spades",
        "queen_of_hearts",
    }
    assert {str(r.pogony) for r in VARIANT_COMBOS} == {"off", "title", "strict"}
    assert {r.trump_six_exchange for r in VARIANT_COMBOS} == {False, True}
    assert {(r.transfer, r.transfer_first_bout) for r in VARIANT_COMBOS} >= {(True, False)}
    assert {r.deck for r in VARIANT_COMBOS} == {24, 36, 52}
    assert variant_combinations() == VARIANT_COMBOS, "the sample is fixed"


def test_card_order_of_an_action_does_not_matter() -> None:
    """legal_actions lists an opening of 7H 7D once, its cards in ascending order. ``apply``
    accepts them named in another order as the same action: the same state and events."""
    pairs: list[Attack] = []
    for seed in range(200):
        state = new_game(2, seed=seed)
        assert state.bout is not None
        actions = legal_actions(state, state.bout.attacker)
        pairs = [a for a in actions if isinstance(a, Attack) and len(a.cards) == 2]
        if pairs:
            break
    listed = pairs[0]
    assert list(listed.cards) == sorted(listed.cards)
    reordered = Attack(listed.player, tuple(reversed(listed.cards)))
    assert reordered not in legal_actions(state, listed.player)
    assert apply(state, reordered) == apply(state, listed)
