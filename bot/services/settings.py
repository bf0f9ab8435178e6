"""House rules chosen by a group's admins (RULES.md section 2): what ``/set <key> <value>``
and the /settings buttons may change, and the change itself.

The decisions are pure functions of ``ChatSettings`` (``changed``, ``choices``, ``token``);
``SettingsService`` saves a change in the chat's settings (compare-and-set) and applies it to
the open lobby's snapshot, so the lobby deals by the new rules. A running game keeps its
rules (RULES.md section 10: no variant is mixed into a running game) and the new ones apply
from the next game; only its language follows at once. Nothing here talks to Telegram.

``deck`` and ``max_players``: a ``max_players`` at the deck's maximum ("as many as the deck
allows") follows the deck up and down; a smaller one is kept, clamped to the new deck's
maximum. A lobby already holding more players than the new maximum refuses the change.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from bot.i18n import SUPPORTED
from bot.model import ChatSettings, Phase
from bot.storage import KEEP, GameRecord, Storage
from engine import FirstBoutLimit, HouseRules, NextGameStart, NoTrumpStart, ThrowIn
from engine.cards import DECK_SIZES

KEYS: Final = (
    "deck",
    "max_players",
    "throw_in",
    "first_bout_limit",
    "no_trump_start",
    "next_game_start",
    "transfer",
    "turn_timeout",
    "series",
    "language",
)
ENUMS: Final[dict[str, type[StrEnum]]] = {
    "throw_in": ThrowIn,
    "first_bout_limit": FirstBoutLimit,
    "no_trump_start": NoTrumpStart,
    "next_game_start": NextGameStart,
}
MIN_PLAYERS: Final = 2
TURN_TIMEOUTS: Final = (0, 15, 30, 60, 90, 120)  # what the buttons offer; 0 = no timer
TURN_TIMEOUT_RANGE: Final = (10, 600)  # /set also takes any whole number of seconds in here
SERIES: Final = (1, 3, 5, 10)
ON: Final = "on"
OFF: Final = "off"
_YES: Final = frozenset({ON, "true", "yes", "1"})
_NO: Final = frozenset({OFF, "false", "no", "0"})
_DIGITS: Final = re.compile(r"[0-9]{1,4}")


class SettingError(ValueError):
    """A key or value that does not exist. ``code``: ``unknown_key`` or ``bad_value``;
    ``key`` and ``value`` as typed (normalized)."""

    def __init__(self, code: str, key: str, value: str = "") -> None:
        super().__init__(f"{code}: {key} {value}".strip())
        self.code = code
        self.key = key
        self.value = value


def normalize(text: str) -> str:
    """``Throw-In`` -> ``throw_in``: keys and values as /set takes them."""
    return text.strip().lower().replace("-", "_")


def token(settings: ChatSettings, key: str) -> str:
    """The current value of ``key`` as /set writes it: ``36``, ``all``, ``on``, ``uk``."""
    if key == "transfer":
        return ON if settings.rules.transfer else OFF
    if key in ("turn_timeout", "series", "language"):
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
    if key == "transfer":
        return (OFF, ON)
    if key == "turn_timeout":
        return tuple(map(str, TURN_TIMEOUTS))
    if key == "series":
        return tuple(map(str, SERIES))
    if key == "language":
        return SUPPORTED
    raise SettingError("unknown_key", key)


def changed(settings: ChatSettings, key: str, value: str) -> ChatSettings:
    """``settings`` with ``key`` set to ``value`` (both as typed after /set); SettingError
    if either does not exist. See the module docstring for ``deck`` and ``max_players``."""
    key, text = normalize(key), normalize(value)
    if key not in KEYS:
        raise SettingError("unknown_key", key)
    rules = settings.rules
    bad = SettingError("bad_value", key, value.strip())  # echoed as typed: "-5", not "_5"
    if key in ENUMS:
        try:
            member = ENUMS[key](text)
        except ValueError:
            raise bad from None
        return _with_rules(settings, **{key: member})
    if key == "transfer":
        if text not in _YES | _NO:
            raise bad
        return _with_rules(settings, transfer=text in _YES)
    if key == "language":
        if text not in SUPPORTED:
            raise bad
        return dataclasses.replace(settings, language=text)
    number = 0 if key == "turn_timeout" and text == OFF else _whole(text)
    if number is None:
        raise bad
    if key == "turn_timeout":
        low, high = TURN_TIMEOUT_RANGE
        if not (number == 0 or low <= number <= high):
            raise bad
        return dataclasses.replace(settings, turn_timeout=number)
    if key == "series":
        if number not in SERIES:
            raise bad
        return dataclasses.replace(settings, series=number)
    if key == "deck":
        if number not in DECK_SIZES:
            raise bad
        return _with_rules(settings, deck=number, max_players=_max_players(rules, number))
    if not MIN_PLAYERS <= number <= rules.deck // 6:  # max_players
        raise bad
    return _with_rules(settings, max_players=number)


def _whole(text: str) -> int | None:
    """A number of at most four ASCII digits (``str.isdigit`` also takes "²⁰", which
    ``int`` refuses, and "٢٠" or "２０", which nobody means as a setting)."""
    return int(text) if _DIGITS.fullmatch(text) else None


def _max_players(rules: HouseRules, deck: int) -> int:
    """``max_players`` with a new deck: at the old deck's maximum, the new maximum; else
    the same, clamped to the new maximum."""
    if rules.max_players >= rules.deck // 6:
        return deck // 6
    return min(rules.max_players, deck // 6)


def _with_rules(settings: ChatSettings, **changes: Any) -> ChatSettings:
    return dataclasses.replace(settings, rules=dataclasses.replace(settings.rules, **changes))


# -- the service ------------------------------------------------------------------------------


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
class SettingChange:
    """What ``SettingsService.change`` did. ``settings``: the chat's settings now (unchanged
    if refused). ``record``: a lobby or game whose messages must show the change.
    ``seated``: with TOO_MANY_SEATED, how many sit in the lobby; ``limit`` the refused
    maximum."""

    result: ChangeResult
    key: str
    settings: ChatSettings
    applies: Applies = Applies.NEXT_GAME
    record: GameRecord | None = None
    seated: int = 0
    limit: int = 0


class SettingsService:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def get(self, chat_id: int) -> ChatSettings:
        return await self.storage.settings.get(chat_id)

    async def change(self, chat_id: int, key: str, value: str) -> SettingChange:
        """Set ``key`` to ``value`` for the chat (the caller has checked that the user is an
        admin); SettingError for a key or value that does not exist. The settings and the
        open lobby change in one transaction: a lobby opened at the same moment is dealt by
        the settings the admin is told about, never by the ones just replaced."""
        key = normalize(key)

        def decide(
            record: GameRecord | None, current: ChatSettings
        ) -> tuple[Any, Any, SettingChange]:
            new = changed(current, key, value)
            if new == current:
                return KEEP, KEEP, SettingChange(ChangeResult.SAME, key, current)
            if record is None or record.game.phase is Phase.FINISHED:
                return KEEP, new, SettingChange(ChangeResult.CHANGED, key, new)
            game = record.game
            if game.phase is Phase.PLAYING:
                if key != "language":
                    return (
                        KEEP,
                        new,
                        SettingChange(ChangeResult.CHANGED, key, new, Applies.AFTER_THIS_GAME),
                    )
                game.settings = dataclasses.replace(game.settings, language=new.language)
                change = SettingChange(ChangeResult.CHANGED, key, new, Applies.NOW, record)
                return record, new, change
            try:  # the lobby's own snapshot, changed the same way
                snapshot = changed(game.settings, key, value)
            except SettingError:  # it no longer matches the chat's settings: take those
                snapshot = new
            limit = snapshot.rules.max_players
            if len(game.players) > limit:
                return (
                    KEEP,
                    KEEP,
                    SettingChange(
                        ChangeResult.TOO_MANY_SEATED,
                        key,
                        current,
                        seated=len(game.players),
                        limit=limit,
                    ),
                )
            game.settings = snapshot
            return record, new, SettingChange(ChangeResult.CHANGED, key, new, Applies.NOW, record)

        return await self.storage.games.update_with_settings(chat_id, decide)
