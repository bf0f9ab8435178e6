"""``hard``'s search on the fast core: worlds as positions, the greedy playout on codes.

The worlds must be deals the seat cannot tell from the real table (every card once, the
seat's own hand, the cards seen taken, the face-up trump in its place, the same seats
acting); the playout policy must play only legal codes and end every kind of game.
"""

from __future__ import annotations

import random
from dataclasses import replace

from test_ai import COMBOS, POSITIONS, random_positions, start

from engine import Attack, Defend, HouseRules, Take, apply, from_position, legal_actions, view_for
from engine.ai.knowledge import seat_knowledge
from engine.ai.sampling import determinize
from engine.ai.worlds import Worlds
from engine.cards import Card, deck_cards, deck_mask
from engine.rollout import greedy_code, mover, play_greedy, result_for
from engine.rules import player_counts
from engine.search import decode, new_position, position_of, state_of


def test_a_world_position_keeps_every_card_once_and_what_the_seat_knows() -> None:
    rng = random.Random(3)
    kept = 0
    for state, seat in random_positions(POSITIONS, seed=9):
        worlds = Worlds(seat_knowledge(state, seat), rng)
        for _ in range(3):
            position = worlds.sample()
            if position is None:
                continue
            kept += 1
            world = state_of(position)
            # (What others saw go into the seat's own hand is not dealt again: no rule
            # reads it, and so neither does the view's holder of the shown trump card.)
            seen_by_seat = replace(view_for(world, seat), trump_card_holder=None)
            assert seen_by_seat == replace(view_for(state, seat), trump_card_holder=None)
            assert world.acting == state.acting
            assert world.discard == state.discard and world.bout == state.bout
            assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in state.hands]
            assert len(world.stock) == len(state.stock)
            if state.trump_card_in_stock:
                at = state.stock.index(state.trump_card)
                assert world.stock[at] == state.trump_card, "the face-up trump stays in place"
            assert world.bottom_card_hidden == state.bottom_card_hidden
            for other in range(state.players):
                seen = state.known[other] & state.hands[other]
                assert world.hands[other] & seen == seen, "a card seen taken moved"
            everything = world.discard | (world.bout.table if world.bout else 0)
            for hand in world.hands:
                everything |= hand
            for card in world.stock:
                everything |= 1 << card
            assert everything == deck_mask(state.rules.deck)
    assert kept >= POSITIONS


def test_worlds_differ_in_the_hidden_cards() -> None:
    """The worlds are dealt anew: not one deal copied over and over."""
    state = start(HouseRules(), 2, 4)
    seat = state.acting[0]
    worlds = Worlds(seat_knowledge(state, seat), random.Random(1))
    deals = set()
    for _ in range(10):
        position = worlds.sample()
        assert position is not None
        deals.add(tuple(position.hands))
    assert len(deals) > 5


def test_the_greedy_playout_plays_legal_codes_to_the_end_under_every_rule() -> None:
    """Every combination of house rules (variants included): each code the policy picks is
    one of the mover's legal actions on the public API too, and the game ends."""
    rng = random.Random(5)
    for index, rules in enumerate(COMBOS):
        counts = player_counts(rules)
        state = start(rules, counts[index % len(counts)], index)
        position = position_of(state)
        while not position.finished:
            seat = mover(position)
            codes = position.legal(seat)
            code = greedy_code(position, seat, codes, rng)
            assert decode(code) in legal_actions(state, seat)
            position.apply(code)
            state, _ = apply(state, decode(code))
        assert state.finished and state.durak == (None if position.durak < 0 else position.durak)


def test_play_greedy_ends_and_scores_the_team_result() -> None:
    """R-TEAM-4: a seat whose partner is the durak scores 0 like the durak itself."""
    rules = HouseRules(teams="pairs")  # type: ignore[arg-type]
    rng = random.Random(2)
    for _ in range(10):
        position = new_position(4, rng, rules)
        durak = play_greedy(position, rng)
        assert position.finished
        for seat in range(4):
            lost = durak >= 0 and seat % 2 == durak % 2
            assert result_for(position, seat) == (0.0 if lost else 0.5 if durak < 0 else 1.0)


def test_a_taker_seldom_holds_a_plain_card_that_would_have_covered() -> None:
    """Inference: seat 1 took 7H; worlds in which it holds a plain heart above the seven
    are kept only now and then, so they are much rarer than in uniform deals."""
    hands = [cards("6C 7C 8C 9C 10C 7H"), cards("6D 7D 8D 9D 10D JD")]
    used = {*hands[0], *hands[1], Card.parse("6S")}
    stock = [c for c in deck_cards(36) if c not in used] + [Card.parse("6S")]
    state = from_position(hands, stock=stock, attacker=0)
    state, _ = apply(state, Attack(0, (Card.parse("7H"),)))
    state, _ = apply(state, Take(1))
    knowledge = seat_knowledge(state, 0)
    hearts = sum(1 << c for c in cards("8H 9H 10H JH QH KH AH"))
    rng = random.Random(4)
    worlds = Worlds(knowledge, rng)
    inferred = uniform = 0
    for _ in range(400):
        world = worlds.sample()
        assert world is not None
        inferred += bool(world.hands[1] & hearts)
        uniform += bool(determinize(knowledge, rng).hands[1] & hearts)
    # Kept with chance 0.25: about 0.57 of the worlds rather than 0.84 here.
    assert inferred < 0.8 * uniform, (inferred, uniform)


def test_a_thrower_who_let_a_bout_close_seldom_holds_a_plain_card_of_its_ranks() -> None:
    """Inference from an earlier bout: seat 0 let 8S-9S be beaten off with room on the
    table and drew nothing (a full hand); in the next bout, worlds in which it holds a
    plain eight or nine are kept only now and then. Trumps say nothing (kept back)."""
    hands = [cards("8S 6C 7C 10C JC QC KC"), cards("9S 6H 7H AS AC AH")]
    used = {*hands[0], *hands[1], Card.parse("6D")}
    stock = [c for c in deck_cards(36) if c not in used] + [Card.parse("6D")]
    state = from_position(hands, stock=stock, attacker=0)
    for action in (Attack(0, (Card.parse("8S"),)), Defend(1, Card.parse("9S"), Card.parse("8S"))):
        state, _ = apply(state, action)  # seat 0 has no other 8 or 9: passed (R-BOUT-8)
    assert state.bout is not None and state.bout.attacker == 1
    knowledge = seat_knowledge(state, 1)
    plain = sum(1 << c for c in cards("8C 8H 9C 9H"))
    trumps = sum(1 << c for c in cards("8D 9D"))
    rng = random.Random(5)
    worlds = Worlds(knowledge, rng)
    inferred = [0, 0]
    uniform = [0, 0]
    for _ in range(400):
        world = worlds.sample()
        assert world is not None
        dealt = determinize(knowledge, rng).hands[0]
        for index, mask in enumerate((plain, trumps)):
            inferred[index] += bool(world.hands[0] & mask)
            uniform[index] += bool(dealt & mask)
    assert inferred[0] < 0.7 * uniform[0], (inferred, uniform)
    assert inferred[1] > 0.7 * uniform[1], (inferred, uniform)


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]
