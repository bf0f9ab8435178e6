"""What easy and normal do in a few plain positions (the heuristics of engine/ai)."""

from __future__ import annotations

from engine import Attack, Card, Defend, GameState, Take, apply, from_position
from engine.ai import choose_action
from engine.cards import deck_cards


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def early(attacker_hand: str, defender_hand: str, trump_card: str = "6S") -> GameState:
    """Seat 0 attacks seat 1; every other card of the 36-card deck is in the stock, the face-up
    trump at its bottom: the very beginning of a game."""
    hands = [cards(attacker_hand), cards(defender_hand)]
    used = {*hands[0], *hands[1], Card.parse(trump_card)}
    stock = [c for c in deck_cards(36) if c not in used] + [Card.parse(trump_card)]
    return from_position(hands, stock=stock, attacker=0)


def test_normal_opens_with_its_cheapest_plain_pair() -> None:
    state = early("6C 6D 9H AS KS 10C", "7H 8H 9D JD QC KC")
    assert choose_action(state, 0, "normal") == Attack(0, (Card.parse("6D"), Card.parse("6C")))


def test_normal_covers_with_the_lowest_sufficient_card() -> None:
    state = early("7H 8C 9D JD QC KC", "8H 10H KS 6C 6D 9C")
    state, _ = apply(state, Attack(0, (Card.parse("7H"),)))
    assert choose_action(state, 1, "normal") == Defend(1, Card.parse("8H"), Card.parse("7H"))


def test_normal_takes_a_cheap_card_rather_than_spend_a_high_trump_early() -> None:
    state = early("7H 8C 9D JD QC KC", "AS 6C 6D 7C 8D 9C")
    state, _ = apply(state, Attack(0, (Card.parse("7H"),)))
    assert choose_action(state, 1, "normal") == Take(1)


def test_easy_never_takes_when_a_plain_card_covers() -> None:
    state = early("7H 8C 9D JD QC KC", "8H AS 6C 6D 7C 9C")
    state, _ = apply(state, Attack(0, (Card.parse("7H"),)))
    for seed in range(30):
        assert choose_action(state, 1, "easy", seed=seed) == Defend(
            1, Card.parse("8H"), Card.parse("7H")
        )


def test_easy_never_spends_the_ace_of_trumps_in_the_first_bout() -> None:
    state = early("7H 8C 9D JD QC KC", "AS 6C 6D 7C 8D 9C")
    state, _ = apply(state, Attack(0, (Card.parse("7H"),)))
    for seed in range(30):
        assert choose_action(state, 1, "easy", seed=seed) == Take(1)
