"""Statistics records: what a finished game adds (``GameResult``), and a player's counts
(``PlayerStats``). ``bot.services.stats`` makes results and ranks players,
``bot.storage.stats`` keeps the counts, ``bot.ui.stats`` shows them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's part in a finished game. ``place``: 1 = first out; the durak is last.
    ``epaulettes``: the durak "with epaulettes" (R-POG)."""

    user_id: int
    name: str
    place: int
    durak: bool
    epaulettes: bool = False


@dataclass(frozen=True, slots=True)
class GameResult:
    """What a finished game adds to the statistics. ``draw``: nobody was the durak."""

    players: tuple[PlayerResult, ...]
    draw: bool


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's counts (in one chat, or over all of them)."""

    user_id: int
    name: str = ""
    games: int = 0
    durak: int = 0
    draws: int = 0
    epaulettes: int = 0  # times the durak with epaulettes (R-POG), among ``durak``
    places: Mapping[int, int] = field(default_factory=dict)  # place -> games

    @property
    def wins(self) -> int:
        """Games finished first out."""
        return self.places.get(1, 0)

    @property
    def durak_rate(self) -> float:
        return self.durak / self.games if self.games else 0.0
