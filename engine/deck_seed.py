"""A shuffle anyone can check: the deck's order follows from a seed by SHA-256 alone.

The bot draws a fresh seed for every deal, shows a commitment to it when the game starts and
reveals the seed with the game's record when it ends; ``python -m engine.verify`` then
recomputes the deck and the deal (docs/FAIR-DEAL.md says how, precisely enough to check it in
any language, with a test vector).

- The seed: 32 bytes, written as 64 lowercase hexadecimal digits.
- The commitment: SHA-256 over the seed's 32 bytes followed by the game id's UTF-8 bytes,
  as 64 lowercase hexadecimal digits; the table shows its first ``SHORT`` of them.
- The deck: the cards in card order (♠ ♥ ♦ ♣, each from the deck's lowest rank to the ace)
  shuffled by Fisher-Yates, from the last place down, with numbers read from SHA-256 in
  counter mode: block ``k`` is SHA-256(seed bytes + ``b"deck"`` + ``k`` as 4 bytes big-endian),
  ``k`` from 0, and the blocks read in order as 8-byte big-endian unsigned numbers. Place ``i``
  swaps with place ``j = u mod (i + 1)`` for the first number ``u`` below the largest multiple
  of ``i + 1`` not above 2**64 (the numbers at or above it are skipped, so every ``j`` is
  equally likely). The first card of the result is the top of the deck: dealt first.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Final

from .cards import CARDS, LOWEST_RANK_BY_DECK, RANKS_PER_SUIT, Card

SEED_BYTES: Final = 32
SHORT: Final = 6  # hex digits of the commitment the table shows
_LABEL: Final = b"deck"
_SPAN: Final = 1 << 64


class SeedError(ValueError):
    """Not a seed: 64 hexadecimal digits are."""


def seed_bytes(seed: str) -> bytes:
    """The seed's 32 bytes; ``SeedError`` for anything but 64 hexadecimal digits."""
    if not isinstance(seed, str) or len(seed) != 2 * SEED_BYTES:
        raise SeedError(f"a seed is {2 * SEED_BYTES} hexadecimal digits")
    try:
        return bytes.fromhex(seed)
    except ValueError:
        raise SeedError(f"a seed is {2 * SEED_BYTES} hexadecimal digits") from None


def commitment(seed: str, game_id: str) -> str:
    """What the table shows before the first card is played: SHA-256 over the seed's bytes
    and the game id's UTF-8 bytes (so one seed commits to one game only)."""
    return hashlib.sha256(seed_bytes(seed) + game_id.encode("utf-8")).hexdigest()


def short(full: str) -> str:
    """The commitment as the table shows it: its first ``SHORT`` hex digits."""
    return full[:SHORT]


def in_card_order(deck: int) -> list[Card]:
    """A 24-, 36- or 52-card deck before the shuffle: ♠ ♥ ♦ ♣, each from its lowest rank."""
    low = LOWEST_RANK_BY_DECK[deck]
    return [CARDS[s * RANKS_PER_SUIT + r] for s in range(4) for r in range(low, RANKS_PER_SUIT)]


def shuffled_deck(seed: str, deck: int) -> list[Card]:
    """The deck ``seed`` shuffles, top card first (the module's docstring says how)."""
    cards = in_card_order(deck)
    numbers = _numbers(seed_bytes(seed))
    for i in range(len(cards) - 1, 0, -1):
        places = i + 1
        limit = _SPAN - _SPAN % places
        u = next(numbers)
        while u >= limit:
            u = next(numbers)
        j = u % places
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _numbers(key: bytes) -> Iterator[int]:
    """8-byte big-endian numbers from SHA-256 in counter mode."""
    counter = 0
    while True:
        block = hashlib.sha256(key + _LABEL + counter.to_bytes(4, "big")).digest()
        for at in range(0, len(block), 8):
            yield int.from_bytes(block[at : at + 8], "big")
        counter += 1


__all__ = [
    "SEED_BYTES",
    "SHORT",
    "SeedError",
    "commitment",
    "in_card_order",
    "seed_bytes",
    "short",
    "shuffled_deck",
]
