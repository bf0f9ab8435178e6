"""The computer players' ratings on the people's scale (``engine.rating``), as shipped.

``ladder.json`` beside this module is the output of ``python -m engine.arena ladder --out``
at the bot's budget of thinking (the exact command is in the file, under ``command``):
each level's ``mu`` and ``sigma`` of the Plackett-Luce model, its displayed rating and
interval, and the games it was rated on. A computer at a table is rated so and never
re-rated: it does not learn, so a game it plays tells nothing new about it.

Only the standard library here, as everywhere in the engine: openskill is the bot's.

>>> ladder_rating("hard")[0] > ladder_rating("normal")[0] > ladder_rating("random")[0]
True
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

from . import LEVELS

__all__ = ["ladder", "ladder_rating"]

LADDER_FILE = "ladder.json"


@cache
def ladder() -> dict[str, Any]:
    """The shipped ladder: ``ladder.json`` as a dict (read once)."""
    text = files(__package__).joinpath(LADDER_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def ladder_rating(level: str) -> tuple[float, float]:
    """``(mu, sigma)`` of the computer player ``level``, one of ``engine.ai.LEVELS``."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: use one of {', '.join(LEVELS)}")
    rating = ladder()["ratings"][level]
    return float(rating["mu"]), float(rating["sigma"])
