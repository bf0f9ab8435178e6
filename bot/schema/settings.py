"""The house rules a group's admins may change (RULES.md section 2): their keys, the values
each one takes, and what a change did. Shared by ``bot.services.settings`` (which makes a
change) and ``bot.ui.settings`` (which shows the rules and the change).

Values are written as /set takes them (``token``): ``36``, ``all``, ``on``, ``uk``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from bot.i18n import SUPPORTED
from bot.model import ChatSettings
from engine import Problem
from engine.cards import DECK_SIZES
from engine.rules import ENUMS

# The rules that change the game itself, their values' meanings shown with them: the
# regional variants of RULES.md section 13, then the blind family of section 14.
VARIANT_KEYS: Final = (
    "transfer_first_bout",
    "teams",
    "trump",
    "top_card",
    "trump_six_exchange",
    "pogony",
    "blind",
)
KEYS: Final = (
    "deck",
    "max_players",
    "throw_in",
    "first_bout_limit",
    "no_trump_start",
    "next_game_start",
    "transfer",
    *VARIANT_KEYS,
    "turn_timeout",
    "series",
    "language",
    "ai_level",
    "show_hands_after",
)
# In a private chat the person sets the rules of their games with computer players, which
# have no turn timer (``ChatSettings.played``): every key but that one.
PRIVATE_KEYS: Final = tuple(key for key in KEYS if key != "turn_timeout")
# The house rules that are on or off (``HouseRules`` booleans).
SWITCHES: Final = ("transfer", "transfer_first_bout", "trump_six_exchange")
# The chat's own rules that are on or off (``ChatSettings`` booleans, not the engine's).
CHAT_SWITCHES: Final = ("show_hands_after",)
MIN_PLAYERS: Final = 2
TURN_TIMEOUTS: Final = (0, 15, 30, 60, 90, 120)  # what the buttons offer; 0 = no timer
TURN_TIMEOUT_RANGE: Final = (10, 600)  # /set also takes any whole number of seconds in here
SERIES: Final = (1, 3, 5, 10)
AI_LEVELS: Final = ("easy", "normal", "hard")  # computer players people may seat
ON: Final = "on"
OFF: Final = "off"


class SettingError(ValueError):
    """A key or value that does not exist. ``code``: ``unknown_key``, ``bad_value``,
    ``not_in_private`` (a key a private chat has no use for), or ``impossible`` (a value the
    engine refuses together with the chat's other rules, R-VAR-1 and R-BLIND-1: ``problem``
    says why);
    ``key`` and ``value`` as typed (normalized)."""

    def __init__(
        self, code: str, key: str, value: str = "", problem: Problem | None = None
    ) -> None:
        super().__init__(f"{code}: {key} {value}".strip())
        self.code = code
        self.key = key
        self.value = value
        self.problem = problem


def keys_of(*, private: bool) -> tuple[str, ...]:
    """The keys a chat may set: a group all, a private chat ``PRIVATE_KEYS``."""
    return PRIVATE_KEYS if private else KEYS


def token(settings: ChatSettings, key: str) -> str:
    """The current value of ``key`` as /set writes it: ``36``, ``all``, ``on``, ``uk``."""
    if key in SWITCHES:
        return ON if getattr(settings.rules, key) else OFF
    if key in CHAT_SWITCHES:
        return ON if getattr(settings, key) else OFF
    if key in ("turn_timeout", "series", "language", "ai_level"):
        return str(getattr(settings, key))
    return str(getattr(settings.rules, key))


def choices(settings: ChatSettings, key: str) -> tuple[str, ...]:
    """The values the buttons offer for ``key``, in order (``max_players`` depends on the
    deck)."""
    if key == "deck":
        return tuple(map(str, DECK_SIZES))
    if key == "max_players":
        return tuple(str(n) for n in range(MIN_PLAYERS, settings.rules.deck // 6 + 1))
    if key in ENUMS:
        return tuple(member.value for member in ENUMS[key])
    if key in SWITCHES or key in CHAT_SWITCHES:
        return (OFF, ON)
    if key == "turn_timeout":
        return tuple(map(str, TURN_TIMEOUTS))
    if key == "series":
        return tuple(map(str, SERIES))
    if key == "language":
        return SUPPORTED
    if key == "ai_level":
        return AI_LEVELS
    raise SettingError("unknown_key", key)


class Applies(StrEnum):
    """When a change is felt."""

    NEXT_GAME = "next_game"  # nothing is open: the next lobby takes it
    NOW = "now"  # the open lobby follows at once (or a running game's language)
    AFTER_THIS_GAME = "after_this_game"  # a game is being played: from the next one


class ChangeResult(StrEnum):
    CHANGED = "changed"
    SAME = "same"  # the value was already that
    TOO_MANY_SEATED = "too_many_seated"  # the open lobby holds more than the new maximum


@dataclass(frozen=True, slots=True)
class Change:
    """What a change of ``key`` did. ``settings``: the chat's settings now (unchanged if
    refused). ``seated``: with TOO_MANY_SEATED, how many sit in the lobby; ``limit`` the
    refused maximum."""

    result: ChangeResult
    key: str
    settings: ChatSettings
    applies: Applies = Applies.NEXT_GAME
    seated: int = 0
    limit: int = 0
