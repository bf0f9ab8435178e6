"""Cards, suits, ranks and decks (R-DECK-1).

A card is an ``int`` from 0 to 51: ``suit * 13 + rank``, with rank 0 for a two and 12 for an
ace. That makes a hand a bitmask (bit ``card`` set when the card is held), so the rules work
on whole hands with a few integer operations. ``Card`` is an ``int`` subclass with one
interned instance per card, so it costs nothing to pass around and prints as ``10H``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final


class Suit(IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return cls(SUIT_LETTERS.index(text.upper()))
        except ValueError:
            raise ValueError(f"unknown suit {text!r}: use one of S H D C") from None


SUIT_LETTERS: Final = "SHDC"
# By number: indexing this is several times cheaper than ``Suit(n)`` (the enum's lookup),
# and ``Card.suit`` is on the path of every hand sorted for a person.
SUITS: Final = tuple(Suit)
RANK_NAMES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANKS_PER_SUIT: Final = 13
CARD_COUNT: Final = 52

# Lowest rank in each deck size, as a rank index: 2 for 52 cards, 6 for 36, 9 for 24.
LOWEST_RANK_BY_DECK: Final = {52: 0, 36: 4, 24: 7}
DECK_SIZES: Final = tuple(sorted(LOWEST_RANK_BY_DECK))


class Card(int):
    """One playing card; ``Card.parse("10H")`` and ``str(card)`` convert to and from text."""

    __slots__ = ()

    @property
    def suit(self) -> Suit:
        return SUITS[self // RANKS_PER_SUIT]

    @property
    def rank(self) -> int:
        """0 for a two ... 12 for an ace."""
        return self % RANKS_PER_SUIT

    @property
    def rank_name(self) -> str:
        return RANK_NAMES[self % RANKS_PER_SUIT]

    def __str__(self) -> str:
        return CARD_NAMES[self]

    def __repr__(self) -> str:
        return f"Card({CARD_NAMES[self]!r})"

    @staticmethod
    def of(rank: int, suit: Suit) -> Card:
        return CARDS[suit * RANKS_PER_SUIT + rank]

    @staticmethod
    def parse(text: str) -> Card:
        # Stored games hold their cards as exact names: those need no cleaning first.
        card = _CARD_BY_NAME.get(text)
        if card is None:
            card = _CARD_BY_NAME.get(text.strip().upper())
        if card is None:
            raise ValueError(
                f"unknown card {text!r}: write a rank 2..10, J, Q, K, A and a suit S H D C"
            )
        return card


CARD_NAMES: Final = tuple(f"{RANK_NAMES[c % 13]}{SUIT_LETTERS[c // 13]}" for c in range(CARD_COUNT))
CARDS: Final = tuple(int.__new__(Card, c) for c in range(CARD_COUNT))
_CARD_BY_NAME: Final = {name: CARDS[c] for c, name in enumerate(CARD_NAMES)}

SUIT_MASKS: Final = tuple(((1 << RANKS_PER_SUIT) - 1) << (s * RANKS_PER_SUIT) for s in range(4))
RANK_MASKS: Final = tuple(
    sum(1 << (s * RANKS_PER_SUIT + r) for s in range(4)) for r in range(RANKS_PER_SUIT)
)
_RANK_BITS: Final = (1 << RANKS_PER_SUIT) - 1


def deck_mask(deck_size: int) -> int:
    """Every card of a 24-, 36- or 52-card deck as a bitmask."""
    low = LOWEST_RANK_BY_DECK[deck_size]
    suit_bits = _RANK_BITS & ~((1 << low) - 1)
    return suit_bits | suit_bits << 13 | suit_bits << 26 | suit_bits << 39


def deck_cards(deck_size: int) -> list[Card]:
    return cards_of(deck_mask(deck_size))


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def iter_mask(mask: int) -> Iterator[Card]:
    """The cards of a mask, by suit (S H D C) then rank."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def cards_of(mask: int) -> list[Card]:
    return list(iter_mask(mask))


def ranks_on(mask: int) -> int:
    """A mask of every card sharing a rank with some card of ``mask`` (R-BOUT-4)."""
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & _RANK_BITS
    return ranks | ranks << 13 | ranks << 26 | ranks << 39


def _build_beaters(trump: int) -> tuple[int, ...]:
    table = []
    for card in range(CARD_COUNT):
        suit, rank = divmod(card, RANKS_PER_SUIT)
        higher_same_suit = (_RANK_BITS & ~((2 << rank) - 1)) << (suit * RANKS_PER_SUIT)
        table.append(higher_same_suit if suit == trump else higher_same_suit | SUIT_MASKS[trump])
    return tuple(table)


# BEATERS[trump][card]: every card that beats ``card`` when ``trump`` is the trump suit, as a
# mask (R-BOUT-2).
BEATERS: Final = tuple(_build_beaters(trump) for trump in range(4))


def sort_key(card: Card, trump: Suit | None = None) -> tuple[int, int, int]:
    """Hand order for people: by suit, trumps last, low to high."""
    suit = card // RANKS_PER_SUIT
    return (suit == trump, suit, card % RANKS_PER_SUIT)


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(CARD_NAMES[c] for c in cards)
