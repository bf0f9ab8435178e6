"""A person's review of a finished game («Разбор», ``engine.ai.review``) as it is kept
(``bot.storage.finished.ReviewStore``), shown in chat (``bot.ui.review``) and marked on the
replay's timeline (``bot.webapp.replay``): the costliest moments, each move in record form
(GAME-RECORD.md: ``{"p": "Аня", "a": "take"}``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Moment:
    """A move that cost: ``index`` among the game's actions (from 0), the move ``played``
    and the one ``preferred``, and the chance of not being the durak after each (0..1)."""

    index: int
    played: dict[str, Any]
    preferred: dict[str, Any]
    before: float
    after: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "played": self.played,
            "preferred": self.preferred,
            "before": self.before,
            "after": self.after,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Moment:
        return cls(
            int(data["index"]),
            dict(data["played"]),
            dict(data["preferred"]),
            float(data["before"]),
            float(data["after"]),
        )


@dataclass(frozen=True, slots=True)
class Review:
    """The review of ``game_id`` for one seat: how many ``decisions`` it judged, and the
    costliest ``moments``, costliest first."""

    game_id: str
    decisions: int
    moments: tuple[Moment, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "decisions": self.decisions,
            "moments": [moment.to_dict() for moment in self.moments],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        return cls(
            str(data["game"]),
            int(data["decisions"]),
            tuple(Moment.from_dict(moment) for moment in data["moments"]),
        )
