"""Small helpers for engine tests: cards from text, positions by seat, scripted and random play.

    state = position("8H 9S", "9H JD 6C", trump="D")       # seat 0 attacks seat 1
    state, events = play(state, "0: attack 8H", "1: cover 8H with 9H")
    assert refused(state, "1: take") == "nothing_to_take"

Actions are written the way ``str(action)`` prints them: ``"0: attack 7H 7S"``,
``"0: throw 7H"``, ``"1: cover 7H with 9H"``, ``"1: take"``, ``"2: pass"``,
``"1: transfer with 7D"``, ``"0: exchange"``. Only the engine's public API is used.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Any, Literal

from engine import (
    Action,
    Attack,
    Card,
    Defend,
    Event,
    Exchange,
    GameState,
    HouseRules,
    IllegalAction,
    Pass,
    Suit,
    Take,
    Throw,
    Transfer,
    apply,
    from_position,
    legal_actions,
    new_game,
    to_act,
)
from engine.cards import deck_cards

Step = Action | str

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # low to high


def cards(text: str) -> tuple[Card, ...]:
    """``cards("6S 10H")`` -> (Card('6S'), Card('10H')); an empty text gives ()."""
    return tuple(Card.parse(t) for t in text.split())


def card(text: str) -> Card:
    return Card.parse(text)


def house(**values: Any) -> HouseRules:
    """House rules from RULES.md keys and values (``house(deck=24, throw_in="all")``);
    ``max_players`` follows the deck unless given."""
    return HouseRules.from_dict(values)


def deck(size: int = 36) -> tuple[Card, ...]:
    return tuple(deck_cards(size))


def lowest_trump(state: GameState) -> tuple[int, Card] | None:
    """The seat holding the lowest trump of all hands and that card (R-START-1), or None."""
    for rank in RANKS:
        wanted = card(f"{rank}{state.trump.letter}")
        for seat in range(state.players):
            if wanted in state.hand(seat):
                return seat, wanted
    return None


def position(
    *hands: str,
    trump: str | None = None,
    stock: str = "",
    discard: str | None = None,
    rest: Literal["discard", "stock"] = "discard",
    rules: HouseRules | None = None,
    attacker: int | None = 0,
    dealer: int | None = None,
    bouts_played: int = 0,
    seed: int = 0,
    game_number: int = 1,
) -> GameState:
    """A position between bouts, one hand per seat (clockwise), seat 0 attacking by default.

    ``stock`` is top card first, its last card face up (the trump card). Every card of the
    deck that is named nowhere goes to ``rest``: the discard (default), or the top of the
    stock (a card of the ``trump`` suit is put at the bottom when no stock is given), so
    the position always holds the whole deck exactly once.
    """
    rules = rules or HouseRules()
    named_hands = [cards(h) for h in hands]
    stock_cards = list(cards(stock))
    discard_cards = list(cards(discard or ""))
    named = {c for h in named_hands for c in h} | set(stock_cards) | set(discard_cards)
    remaining = [c for c in deck(rules.deck) if c not in named]
    if rest == "discard":
        discard_cards += remaining
    else:
        if not stock_cards:
            if trump is None:
                raise ValueError("name the trump suit when the stock is built from the rest")
            suit = Suit.parse(trump)
            bottom = next(c for c in remaining if c.suit == suit)
            remaining.remove(bottom)
            stock_cards = [bottom]
        stock_cards = remaining + stock_cards
    return from_position(
        named_hands,
        rules=rules,
        stock=stock_cards,
        trump=None if trump is None else Suit.parse(trump),
        discard=discard_cards,
        dealer=dealer,
        attacker=attacker,
        bouts_played=bouts_played,
        seed=seed,
        game_number=game_number,
    )


def action(step: Step) -> Action:
    """An action from its printed form, e.g. ``"1: cover 7H with 9H"``; actions pass through."""
    if not isinstance(step, str):
        return step
    seat_text, _, rest = step.partition(":")
    seat = int(seat_text)
    verb, *words = rest.split()
    if verb == "attack":
        return Attack(seat, cards(" ".join(words)))
    if verb == "throw":
        return Throw(seat, cards(" ".join(words)))
    if verb == "cover":
        on, with_, by = words
        assert with_ == "with", step
        return Defend(seat, card(by), card(on))
    if verb == "take":
        return Take(seat)
    if verb == "pass":
        return Pass(seat)
    if verb == "transfer":
        return Transfer(seat, card(words[-1]))
    if verb == "exchange":
        return Exchange(seat)
    raise ValueError(f"unknown action {step!r}")


def play(state: GameState, *steps: Step) -> tuple[GameState, list[Event]]:
    """Apply every step in order; the final state and every event, in order."""
    events: list[Event] = []
    for step in steps:
        state, happened = apply(state, action(step))
        events.extend(happened)
    return state, events


def refused(state: GameState, step: Step) -> str:
    """The ``IllegalAction.code`` the step is refused with; fails if it is accepted or if
    the refusal changed the state."""
    before = state.to_dict()
    try:
        apply(state, action(step))
    except IllegalAction as error:
        assert state.to_dict() == before, "a refused action changed the state"
        return error.code
    raise AssertionError(f"{step} was accepted")


def of_type(events: Iterable[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if type(e) is kind]


def all_cards(state: GameState) -> list[Card]:
    """Every card of the position: hands, stock, table, discard (duplicates kept)."""
    found: list[Card] = []
    for seat in range(state.players):
        found += state.hand(seat)
    found += state.stock
    found += [c for c in deck(52) if state.discard >> c & 1]
    if state.bout is not None:
        for attack, cover in state.bout.pairs:
            found.append(attack)
            if cover is not None:
                found.append(cover)
    return found


def random_steps(
    state: GameState, rng: random.Random, max_moves: int = 10_000
) -> Iterator[tuple[GameState, Action, GameState, tuple[Event, ...]]]:
    """Uniformly random legal play: a random seat of ``to_act``, a random action of its
    ``legal_actions``. Yields (before, action, after, events) until the game is over."""
    for _ in range(max_moves):
        if state.bout is None:
            return
        seats = to_act(state)
        seat = seats[rng.randrange(len(seats))]
        choices = legal_actions(state, seat)
        chosen = choices[rng.randrange(len(choices))]
        after, events = apply(state, chosen)
        yield state, chosen, after, events
        state = after
    raise AssertionError(f"the game did not end within {max_moves} moves")


def random_game(
    players: int, rules: HouseRules | None = None, seed: int = 0
) -> tuple[GameState, list[Event]]:
    """A whole game of random legal play from ``new_game(players, rules, seed)``."""
    state = new_game(players, rules=rules, seed=seed)
    events: list[Event] = []
    for _, _, after, happened in random_steps(state, random.Random(seed)):
        events.extend(happened)
        state = after
    return state, events
