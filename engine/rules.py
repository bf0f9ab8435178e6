"""House rules: the points the sources disagree on (RULES.md section 2), defaults in place."""

from __future__ import annotations

import argparse
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from itertools import product
from typing import Any, Final

from .cards import DECK_SIZES

FULL_CEILING: Final = 6
FIRST_BOUT_CEILING: Final = 5


class ThrowIn(StrEnum):
    NEIGHBORS = "neighbors"
    ALL = "all"
    NEIGHBORS_FIRST_RANK = "neighbors_first_rank"


class FirstBoutLimit(StrEnum):
    NONE = "none"
    FIRST_BOUT = "first_bout"
    UNTIL_FIRST_BEATEN = "until_first_beaten"


class NoTrumpStart(StrEnum):
    DEALER_LEFT = "dealer_left"
    RANDOM = "random"


class NextGameStart(StrEnum):
    FROM_UNDER_FOOL = "from_under_fool"
    UNDER_FOOL = "under_fool"
    LOWEST_TRUMP = "lowest_trump"


class RulesError(ValueError):
    """A house-rule key or value that does not exist, or a combination that cannot be played."""


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The rules that change play. Bot-only settings (turn timeout, series, language) live
    with the bot; ``from_dict`` accepts and ignores them so one settings dict serves both."""

    deck: int = 36
    max_players: int = 0  # 0: as many as the deck allows, deck / 6
    throw_in: ThrowIn = ThrowIn.NEIGHBORS
    first_bout_limit: FirstBoutLimit = FirstBoutLimit.NONE
    no_trump_start: NoTrumpStart = NoTrumpStart.DEALER_LEFT
    next_game_start: NextGameStart = NextGameStart.FROM_UNDER_FOOL
    transfer: bool = False

    def __post_init__(self) -> None:
        if self.deck not in DECK_SIZES:
            raise RulesError(f"deck must be one of {', '.join(map(str, DECK_SIZES))}")
        if self.max_players == 0:
            object.__setattr__(self, "max_players", self.deck // 6)
        if not 2 <= self.max_players <= self.deck // 6:
            raise RulesError(
                f"max_players must be 2..{self.deck // 6} with a {self.deck}-card deck"
            )

    def to_dict(self) -> dict[str, Any]:
        return {key: (str(v) if isinstance(v, StrEnum) else v) for key, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HouseRules:
        """Rules from JSON-ish values; missing keys take their defaults (RULES.md section 2).

        When ``deck`` is given without ``max_players``, the maximum follows the deck.
        """
        values: dict[str, Any] = {}
        for field in fields(cls):
            if field.name not in data:
                continue
            values[field.name] = _parse_value(field.name, data[field.name])
        unknown = set(data) - {f.name for f in fields(cls)} - BOT_ONLY_KEYS
        if unknown:
            raise RulesError(f"unknown house rule {sorted(unknown)[0]!r}")
        return cls(**values)


BOT_ONLY_KEYS: Final = frozenset({"turn_timeout", "series", "language"})

_ENUMS: Final[dict[str, type[StrEnum]]] = {
    "throw_in": ThrowIn,
    "first_bout_limit": FirstBoutLimit,
    "no_trump_start": NoTrumpStart,
    "next_game_start": NextGameStart,
}


def _parse_value(key: str, value: Any) -> Any:
    if key in _ENUMS:
        enum = _ENUMS[key]
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(m.value for m in enum)
            raise RulesError(f"{key} must be one of {allowed}, not {value!r}") from None
    if key == "transfer":
        if not isinstance(value, bool):
            raise RulesError(f"transfer must be true or false, not {value!r}")
        return value
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{key} must be a whole number, not {value!r}")
    return value


def all_combinations() -> tuple[HouseRules, ...]:
    """Every combination of the rules that change how a hand is played: ``throw_in`` x
    ``first_bout_limit`` x ``no_trump_start`` x ``transfer`` x ``deck`` (108 in all), each
    with as many players as its deck allows. The property tests and the computer players'
    tests play each; ``next_game_start`` is left at its default (it only picks who opens
    the next game of a series). A new house rule that changes play belongs here."""
    return tuple(
        HouseRules(
            deck=deck,
            throw_in=throw_in,
            first_bout_limit=first_bout_limit,
            no_trump_start=no_trump_start,
            transfer=transfer,
        )
        for throw_in, first_bout_limit, no_trump_start, transfer, deck in product(
            ThrowIn, FirstBoutLimit, NoTrumpStart, (False, True), DECK_SIZES
        )
    )


def parse_rule(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` of a house rule on a command line (``--rules``), the value as JSON-ish
    (numbers, true/false/on/off); ``HouseRules.from_dict`` then checks the pairs."""
    key, _, value = text.partition("=")
    if not key or not value:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    parsed: Any = value
    if value.isdigit():
        parsed = int(value)
    elif value.lower() in ("true", "false", "on", "off"):
        parsed = value.lower() in ("true", "on")
    return key, parsed
