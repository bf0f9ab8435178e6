"""``hard``'s search on the fast core: worlds as positions, the greedy playout on codes.

The worlds must be deals the seat cannot tell from the real table (every card once, the
seat's own hand, the cards seen taken, the face-up trump in its place, the same seats
acting); the playout policy must play only legal codes and end every kind of game.
"""

from __future__ import annotations

import random
from dataclasses import replace

from test_ai import COMBOS, POSITIONS, random_positions, start

from engine import (
    Attack,
    Defend,
    GameState,
    HouseRules,
    Take,
    apply,
    from_position,
    legal_actions,
    view_for,
)
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


# --- the playout policy: ``normal``'s choices, on codes ----------------------------------


def early_game(hands: list[str], trump_card: str = "6S") -> tuple[list[list[Card]], list[Card]]:
    """Hands as given, the rest in the stock under ``trump_card`` (a large stock: early)."""
    dealt = [cards(text) for text in hands]
    used = {c for hand in dealt for c in hand} | {Card.parse(trump_card)}
    stock = [c for c in deck_cards(36) if c not in used] + [Card.parse(trump_card)]
    return dealt, stock


def policy_choice(state: GameState, seed: int = 1) -> str:
    position = position_of(state)
    seat = mover(position)
    return str(decode(greedy_code(position, seat, position.legal(seat), random.Random(seed))))


def test_the_playout_takes_cheap_cards_early_rather_than_spend_a_high_trump() -> None:
    """Trumps spades, a large stock: 7C covered only by the ace of trumps is taken; with a
    cheap plain cover it is covered; two cheap cards that need two trumps are taken."""
    hands, stock = early_game(["7C 7D 9H 10H JH QH", "AS 6D 8H KD KH 6C"])
    state = from_position(hands, stock=stock, attacker=0)
    state, _ = apply(state, Attack(0, (Card.parse("7C"),)))
    assert policy_choice(state) == "1: take"
    hands, stock = early_game(["7C 7D 9H 10H JH QH", "AS 8C 8H KD KH 6C"])
    state = from_position(hands, stock=stock, attacker=0)
    state, _ = apply(state, Attack(0, (Card.parse("7C"),)))
    assert policy_choice(state) == "1: cover 7C with 8C"
    hands, stock = early_game(["7C 7D 9H 10H JH QH", "7S 8S 8H 6D KH 6C"])
    state = from_position(hands, stock=stock, attacker=0)
    state, _ = apply(state, Attack(0, (Card.parse("7C"), Card.parse("7D"))))
    assert policy_choice(state) == "1: take"


def test_the_playout_covers_late_and_throws_cheap_cards_in_together() -> None:
    """With the stock small the ace of trumps covers; a taker gets every cheap card of the
    table's ranks the thrower holds, at once."""
    hands = [cards("7C 7D 7H 9H"), cards("AS 6D 8H KD")]
    stock = cards("8C 9C 6S")  # trumps spades, the stock nearly gone
    used = {*hands[0], *hands[1], *stock}
    discard = [c for c in deck_cards(36) if c not in used]
    state = from_position(hands, stock=stock, discard=discard, attacker=0)
    state, _ = apply(state, Attack(0, (Card.parse("7C"),)))
    assert policy_choice(state) == "1: cover 7C with AS"
    hands, stock = early_game(["7C 7D 7H 9H 10H JH", "AS 6D 8H KD KH 6C"])
    state = from_position(hands, stock=stock, attacker=0)
    state, _ = apply(state, Attack(0, (Card.parse("7C"),)))
    state, _ = apply(state, Take(1))
    assert sorted(policy_choice(state).removeprefix("0: throw ").split()) == ["7D", "7H"]


def test_the_playout_leads_a_pair_of_sevens_before_a_single_six() -> None:
    """``heuristics.leads``: two cards at once are worth more than a rank's step (noise
    aside: a random single card one time in ten)."""
    hands, stock = early_game(["6C 7D 7H 9H 10H JH", "AS 6D 8H KD KH 6H"])
    state = from_position(hands, stock=stock, attacker=0)
    choices = [policy_choice(state, seed) for seed in range(40)]
    assert sum(choice == "0: attack 7H 7D" for choice in choices) >= 30, choices


def test_the_playout_keeps_a_card_nobody_can_beat_for_last() -> None:
    """Stock empty, trumps spades: nobody holds a heart above 6H or a trump, so 6H wins
    whenever it is led; 9C goes first, though dearer."""
    hands = [cards("6H 9C"), cards("10C 7D 8D")]
    used = {*hands[0], *hands[1]}
    discard = [c for c in deck_cards(36) if c not in used]
    state = from_position(hands, discard=discard, trump=Card.parse("AS").suit, attacker=0)
    choices = [policy_choice(state, seed) for seed in range(40)]
    assert sum(choice == "0: attack 9C" for choice in choices) >= 30, choices
