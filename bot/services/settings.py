"""House rules chosen by a group's admins (RULES.md section 2): what ``/set <key> <value>``
and the /settings buttons may change, and the change itself.

The keys and the values each one takes are ``bot.schema.settings`` (the ui shows them too).
The decision is a pure function of ``ChatSettings`` (``changed``); ``SettingsService``
saves a change in the chat's settings (compare-and-set) and applies it to the open lobby's
snapshot, so the lobby deals by the new rules. A running game keeps its
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
from typing import Any, Final

from bot.i18n import SUPPORTED
from bot.model import ChatSettings, GameRecord, Phase, is_private_chat
from bot.schema.settings import (
    AI_LEVELS,
    KEYS,
    MIN_PLAYERS,
    OFF,
    ON,
    SERIES,
    SWITCHES,
    TURN_TIMEOUT_RANGE,
    Applies,
    Change,
    ChangeResult,
    SettingError,
    keys_of,
)
from bot.storage import KEEP, Claim, Saved, SavedSettings, Storage
from engine import HouseRules, RulesError
from engine.cards import DECK_SIZES
from engine.rules import ENUMS

# KEYS, keys_of, ChangeResult and SettingError belong to ``bot.schema.settings``; they are
# named here too for callers that take them with the service.
__all__ = [
    "KEYS",
    "ChangeResult",
    "SettingChange",
    "SettingError",
    "SettingsService",
    "changed",
    "keys_of",
]

_YES: Final = frozenset({ON, "true", "yes", "1"})
_NO: Final = frozenset({OFF, "false", "no", "0"})
_DIGITS: Final = re.compile(r"[0-9]{1,4}")


def normalize(text: str) -> str:
    """``Throw-In`` -> ``throw_in``: keys and values as /set takes them."""
    return text.strip().lower().replace("-", "_")


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
        return _with_rules(settings, key, value, **{key: member})
    if key in SWITCHES:
        if text not in _YES | _NO:
            raise bad
        return _with_rules(settings, key, value, **{key: text in _YES})
    if key == "language":
        if text not in SUPPORTED:
            raise bad
        return dataclasses.replace(settings, language=text)
    if key == "ai_level":
        if text not in AI_LEVELS:
            raise bad
        return dataclasses.replace(settings, ai_level=text)
    if key == "show_hands_after":
        if text not in _YES | _NO:
            raise bad
        return dataclasses.replace(settings, show_hands_after=text in _YES)
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
        max_players = _max_players(rules, number)
        return _with_rules(settings, key, value, deck=number, max_players=max_players)
    if not MIN_PLAYERS <= number <= rules.deck // 6:  # max_players
        raise bad
    return _with_rules(settings, key, value, max_players=number)


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


def _with_rules(settings: ChatSettings, key: str, value: str, **changes: Any) -> ChatSettings:
    """``settings`` with the rules changed; a combination the engine can never play
    (R-VAR-1: teams at a table too small for them, the exchange with no face-up trump;
    R-BLIND-1: a blind game with teams, transfer, the exchange or epaulettes) is a
    SettingError ``impossible`` that names the engine's problem."""
    try:
        rules = dataclasses.replace(settings.rules, **changes)
    except RulesError as error:
        raise SettingError("impossible", key, value.strip(), error.problem) from None
    return dataclasses.replace(settings, rules=rules)


# -- the service ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SettingChange(Change):
    """What ``SettingsService.change`` did (see ``Change``), and ``record``: a lobby or game
    whose messages must show the change."""

    record: GameRecord | None = None


class SettingsService:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def get(self, chat_id: int) -> ChatSettings:
        return await self.storage.settings.get(chat_id)

    async def change(
        self, chat_id: int, key: str, value: str, *, once: Claim | None = None
    ) -> SettingChange:
        """Set ``key`` to ``value`` for the chat (the caller has checked that the user is an
        admin); SettingError for a key or value that does not exist. The settings and the
        open lobby change in one transaction: a lobby opened at the same moment is dealt by
        the settings the admin is told about, never by the ones just replaced."""
        key = normalize(key)
        if key in KEYS and key not in keys_of(private=is_private_chat(chat_id)):
            raise SettingError("not_in_private", key)

        def decide(
            record: GameRecord | None, current: ChatSettings
        ) -> tuple[Saved, SavedSettings, SettingChange]:
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
                change = SettingChange(ChangeResult.CHANGED, key, new, Applies.NOW, record=record)
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
            return (
                record,
                new,
                SettingChange(ChangeResult.CHANGED, key, new, Applies.NOW, record=record),
            )

        return await self.storage.games.update_with_settings(chat_id, decide, once=once)
