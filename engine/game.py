"""Starting games: a fresh table, the next game at the same table, or any given position."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .cards import CARDS, Card, Suit, deck_mask, mask_of
from .core import Position
from .dealing import deal, first_attacker
from .rules import HouseRules, NextGameStart, Problem, TrumpChoice
from .state import GameState

Seed = int | str | bytes | None


class SetupError(ValueError):
    """A table or position that cannot be played (wrong player count, cards missing...);
    ``problem`` is a stable ``rules.Problem`` code when a house-rule combination is why."""

    def __init__(self, message: str, problem: Problem | None = None) -> None:
        super().__init__(message)
        self.problem = problem


def check_table(rules: HouseRules, players: int, trump: Suit | None) -> None:
    """Raise ``SetupError`` unless ``rules`` can start a game of ``players`` with the
    dealer's named ``trump`` (R-VAR-1, R-TEAM-1, R-TRUMP-1)."""
    if not 2 <= players <= rules.max_players:
        raise SetupError(f"this table seats 2..{rules.max_players} players, not {players}")
    problem = rules.player_problem(players)
    if problem is not None:
        raise SetupError(problem, Problem.TEAMS_PLAYER_COUNT)
    if rules.trump is TrumpChoice.DEALER and trump is None:
        raise SetupError("trump: dealer needs the suit the dealer named", Problem.TRUMP_NOT_NAMED)
    if rules.trump is not TrumpChoice.DEALER and trump is not None:
        raise SetupError(
            "only the dealer names a trump (trump: dealer)", Problem.TRUMP_NAMED_NOT_DEALER
        )


def new_game(
    players: int,
    *,
    rules: HouseRules | None = None,
    seed: Seed = None,
    dealer: int | None = None,
    attacker: int | None = None,
    trump: Suit | None = None,
    game_number: int = 1,
    order: Sequence[Card] | None = None,
) -> GameState:
    """Shuffle, deal and turn the trump (R-DEAL-1..4), and pick the first attacker.

    ``dealer`` None: chosen by lot (R-DEAL-1). ``attacker`` None: the lowest trump, or
    ``no_trump_start`` when nobody holds one (R-START-1, R-START-2). ``trump``: the suit
    the dealer named, required with ``trump: dealer`` and refused otherwise (R-TRUMP-1):
    the dealer names it before the deal, so it is an argument of the deal, not a step of
    the game (ask ``next_dealer`` who names it for a next game). ``game_number``: which
    game at the table this is, from 1 (``pogony: strict``, R-POG-2). ``order``: the deck
    already shuffled, top first (``engine.deck_seed.shuffled_deck``: a deal anyone can
    check); None: ``seed`` shuffles it too. A table the rules cannot play raises
    ``SetupError`` with its ``problem`` (R-VAR-1).
    """
    rules = rules or HouseRules()
    check_table(rules, players, trump)
    if game_number < 1:
        raise SetupError(f"game_number counts from 1, not {game_number}")
    if order is not None and (
        len(order) != len(set(order)) or mask_of(order) != deck_mask(rules.deck)
    ):
        raise SetupError(f"the order must hold each card of a {rules.deck}-card deck once")
    position = deal(
        rules,
        players,
        random.Random(seed),
        -1 if dealer is None else dealer,
        -1 if attacker is None else attacker,
        -1 if trump is None else int(trump),
        game_number,
        None if order is None else [int(card) for card in order],
    )
    return GameState(position)


def next_dealer(previous: GameState, remaining: Sequence[int] | None = None) -> int | None:
    """The seat (of the next game) that deals the next game, as ``next_game`` deals it:
    the loser, or the same dealer after a draw (R-DEAL-1); None when that player is gone
    and the dealer is drawn by lot. Under ``trump: dealer`` this player names the trump."""
    seats = list(range(previous.players)) if remaining is None else list(remaining)
    anchor = previous.durak if previous.durak is not None else previous.dealer
    return {old: new for new, old in enumerate(seats)}.get(anchor)


def next_game(
    previous: GameState,
    *,
    seed: Seed = None,
    remaining: Sequence[int] | None = None,
    rules: HouseRules | None = None,
    trump: Suit | None = None,
    order: Sequence[Card] | None = None,
) -> GameState:
    """The next game at the same table (R-DEAL-1, R-START-3).

    ``remaining``: seats of ``previous`` still at the table, in their clockwise order (by
    default everybody); seat i of the new game is ``remaining[i]``. The loser deals, or the
    same dealer after a draw; whoever is gone is replaced by the first-game rule. ``rules``:
    the table's rules from now on (a chat may change them between games); by default the
    previous game's. ``trump``: the suit the dealer (``next_dealer``) named under
    ``trump: dealer``. The new game's ``game_number`` is one more than the previous one's;
    with teams the loser is the durak R-TEAM-4 names, so the team that lost deals.
    ``order``: the shuffled deck, as for ``new_game``.
    """
    if not previous.finished:
        raise SetupError("the previous game is still being played")
    seats = list(range(previous.players)) if remaining is None else list(remaining)
    if len(set(seats)) != len(seats) or any(not 0 <= s < previous.players for s in seats):
        raise SetupError("remaining must name distinct seats of the previous game")
    new_seat = {old: new for new, old in enumerate(seats)}
    anchor = previous.durak if previous.durak is not None else previous.dealer
    dealer = new_seat.get(anchor)
    attacker = None
    rules = rules or previous.rules
    if dealer is not None and len(seats) >= 2:
        rule = rules.next_game_start
        if rule is NextGameStart.FROM_UNDER_FOOL:
            attacker = (dealer + 1) % len(seats)
        elif rule is NextGameStart.UNDER_FOOL:
            attacker = (dealer - 1) % len(seats)
    return new_game(
        len(seats),
        rules=rules,
        seed=seed,
        dealer=dealer,
        attacker=attacker,
        trump=trump,
        game_number=previous.game_number + 1,
        order=order,
    )


def _opening_state(
    rules: HouseRules,
    dealer: int,
    trump: Suit,
    trump_card: Card | None,
    hands: list[int],
    known: list[int],
    stock: tuple[Card, ...],
    discard: int,
    out: tuple[int, ...],
    attacker: int,
    bouts_played: int,
    game_number: int,
    rows: list[list[int]],
) -> GameState:
    position = Position.new(
        rules,
        dealer,
        int(trump),
        -1 if trump_card is None else int(trump_card),
        list(hands),
        list(known),
        [int(c) for c in stock],
        discard,
        list(out),
        bouts_played,
        game_number,
        rows=rows,
    )
    position.begin(attacker)
    return GameState(position)


def from_position(
    hands: Sequence[Iterable[Card]],
    *,
    rules: HouseRules | None = None,
    stock: Sequence[Card] = (),
    trump: Suit | None = None,
    discard: Iterable[Card] = (),
    dealer: int | None = None,
    attacker: int | None = None,
    bouts_played: int = 0,
    seed: Seed = 0,
    game_number: int = 1,
) -> GameState:
    """A game from any position between bouts, as a game record gives it (GAME-RECORD.md).

    Every card of the deck must be in exactly one place. With an empty stock, players
    without cards have already left (R-OUT-2), in seat order. The stock's last card is
    the face-up trump card (``trump: turned``), an ordinary one (``dealer``, ``japanese``:
    then ``trump`` is required), or the face-down bottom card under the face-up one
    (``northern``). In the blind family (R-BLIND-2) each hand is given in slot order.
    """
    rules = rules or HouseRules()
    players = len(hands)
    check_table(rules, players, trump if rules.trump is TrumpChoice.DEALER else None)
    if game_number < 1:
        raise SetupError(f"game_number counts from 1, not {game_number}")
    given = [list(hand) for hand in hands]
    masks = [_exact_mask(hand, "a hand") for hand in given]
    rows = [[int(card) for card in hand] for hand in given]
    stock = tuple(stock)
    discard_mask = _exact_mask(discard, "the discard")
    places = [*masks, _exact_mask(stock, "the stock"), discard_mask]
    seen = 0
    for mask in places:
        if seen & mask:
            raise SetupError(f"{CARDS[(seen & mask).bit_length() - 1]} is in two places")
        seen |= mask
    full = deck_mask(rules.deck)
    if seen & ~full:
        raise SetupError(
            f"{CARDS[(seen & ~full).bit_length() - 1]} is not in a {rules.deck}-card deck"
        )
    if seen != full:
        raise SetupError(f"{CARDS[(full & ~seen).bit_length() - 1]} is missing")
    trump_card, trump = _face_up(rules, stock, trump)
    dealer = players - 1 if dealer is None else dealer
    for seat in (dealer, attacker):
        if seat is not None and not 0 <= seat < players:
            raise SetupError(f"there is no seat {seat}")
    if stock and not all(masks):
        # R-OUT-1, R-DRAW-1: everyone draws after every bout, so between bouts nobody is
        # empty-handed while the stock has cards; such a position could not go on.
        raise SetupError("a player holds no cards while the stock is not empty")
    out = tuple(s for s in range(players) if not masks[s])
    known = [0] * players
    if attacker is None:
        attacker, shown = first_attacker(rules, masks, int(trump), dealer, random.Random(seed))
        if shown >= 0:
            known[attacker] |= 1 << shown
    return _opening_state(
        rules, dealer, trump, trump_card, masks, known, stock, discard_mask, out, attacker,
        bouts_played, game_number, rows,
    )  # fmt: skip


def _face_up(
    rules: HouseRules, stock: tuple[Card, ...], trump: Suit | None
) -> tuple[Card | None, Suit]:
    """The face-up trump card of a given stock (top first) and the trump suit."""
    choice = rules.trump
    if choice is TrumpChoice.JAPANESE and trump is not None and trump is not Suit.DIAMONDS:
        raise SetupError("trump: japanese is always diamonds", Problem.JAPANESE_TRUMP_IS_DIAMONDS)
    if choice is TrumpChoice.DEALER or choice is TrumpChoice.JAPANESE:
        if trump is None:
            raise SetupError(f"trump: {choice} needs the trump suit given", Problem.TRUMP_NOT_NAMED)
        return None, trump
    if choice is TrumpChoice.NORTHERN:
        trump_card = stock[-2] if len(stock) >= 2 else None  # the last card lies face down
    else:
        trump_card = stock[-1] if stock else None
    if trump_card is not None:
        if trump is not None and trump != trump_card.suit:
            raise SetupError("the trump suit must be the suit of the face-up trump card")
        return trump_card, trump_card.suit
    if trump is None:
        raise SetupError("with no face-up trump card the trump suit must be given")
    return None, trump


def _exact_mask(cards: Iterable[Card], where: str) -> int:
    cards = list(cards)
    mask = mask_of(cards)
    if mask.bit_count() != len(cards):
        raise SetupError(f"a card is named twice in {where}")
    return mask
