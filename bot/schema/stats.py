"""Statistics records: what a finished game adds (``GameResult``, made by ``game_result``),
a player's counts (``PlayerStats``), and the rows of ratings /top and /stats show
(``Rated``, ``MyRating``). ``bot.storage.players`` keeps the counts,
``bot.services.people`` ranks players, ``bot.ui.stats`` shows them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.model import ChatGame


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


def game_result(game: ChatGame) -> GameResult | None:
    """The result of ``game``'s finished engine state, or None if it is not finished.
    Places follow the order of leaving (R-OUT-6); the durak takes the last place."""
    state = game.state
    if state is None or not state.finished or len(game.players) != state.players:
        return None
    players = []
    for seat, seat_player in enumerate(game.players):
        # The durak has no place in ``out``: theirs is the last.
        place = state.out.index(seat) + 1 if seat in state.out else state.players
        durak = seat == state.durak
        epaulettes = durak and state.epaulettes  # R-POG
        players.append(
            PlayerResult(seat_player.user_id, seat_player.name, place, durak, bool(epaulettes))
        )
    return GameResult(tuple(players), draw=state.durak is None)


@dataclass(frozen=True, slots=True)
class Rated:
    """A row of /top: a person of the group (``place``, ``games`` rated there) or, as a
    reference, a computer level (``level``, no place)."""

    name: str
    points: int
    place: int | None = None
    games: int = 0
    level: str | None = None


@dataclass(frozen=True, slots=True)
class MyRating:
    """A person's rating and their place: among the group's rated players (in a group), or
    among everybody rated (in private)."""

    points: int
    games: int
    place: int
    of: int
