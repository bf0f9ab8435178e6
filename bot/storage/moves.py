"""A group that becomes a supergroup gets a new chat id (Telegram's ``migrate_to_chat_id``).

``move_chat`` moves what the bot keeps under the old id to the new one in one transaction:
the game (with the user index and the turn deadline that follow it), the settings (unless
the new chat already has its own: they are newer) and the statistics (added to any the new
chat has); it leaves ``{p}:moved:{old}`` pointing to the new id, so a press on a keyboard
drawn for the old id still finds the game. The admin cache follows after it (a cache: best
effort). A second call finds nothing left under the old id and changes nothing.

Which game ends up where is the caller's decision (``decide``, pure, may run again):
``bot.services.games.GameService.migrate_chat``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from bot.model import GameRecord

from .admins import AnswerCache
from .chats import SettingsStore
from .games import Footprint, GameStore, Keep, Saved
from .schema import UnreadableRecord
from .stats import StatsStore
from .tx import Seen, Writes, transact

T = TypeVar("T")

MoveDecide = Callable[[GameRecord | None, GameRecord | None], tuple[Saved, Saved, T]]
"""``decide(old chat's record, new chat's record)`` -> (what the old chat's key holds
afterwards, what the new chat's key holds, a result): a record, None (deleted) or KEEP."""


async def move_chat(
    games: GameStore,
    settings: SettingsStore,
    stats: StatsStore,
    admins: AnswerCache,
    old_chat: int,
    new_chat: int,
    decide: MoveDecide[T],
) -> T:
    keys = games.keys
    # The old chat's statistics are read but not compared: they change only with a write of
    # its game (the finishing move's ``GameRecord.also``), which is compared.
    compared = [
        keys.game(old_chat),
        keys.game(new_chat),
        settings.key(old_chat),
        settings.key(new_chat),
    ]
    reads = [
        games.deadline_read(old_chat),
        games.deadline_read(new_chat),
        ("HGETALL", keys.chat_stats(old_chat)),
        ("HGETALL", keys.sent(old_chat)),
    ]
    warnings: list[tuple[int, UnreadableRecord]] = []  # of the attempt that went through

    async def attempt(seen: Seen, pipe: Writes) -> T:
        warnings.clear()
        raws = [seen.values[keys.game(old_chat)], seen.values[keys.game(new_chat)]]
        in_force, counts, shown = seen.reads[:2], seen.reads[2], seen.reads[3]
        (old, old_error), (new, new_error) = map(games.read, raws, in_force)
        old_settings = seen.values[settings.key(old_chat)]
        new_settings = seen.values[settings.key(new_chat)]
        old_before, new_before = Footprint.of(old), Footprint.of(new)
        old_after, new_after, result = decide(old, new)
        unreadable: list[tuple[int, bytes | str, UnreadableRecord, Saved]] = [
            (chat, raw, error, after)
            for chat, raw, error, after in (
                (old_chat, raws[0], old_error, old_after),
                (new_chat, raws[1], new_error, new_after),
            )
            if error is not None and raw is not None
        ]
        games_change = not (isinstance(old_after, Keep) and isinstance(new_after, Keep))
        if not (games_change or unreadable or old_settings is not None or counts):
            return result
        for chat, raw, _error, after in unreadable:
            games.queue_quarantine(pipe, chat, raw)
            if isinstance(after, Keep):
                pipe.delete(keys.game(chat))
        if not isinstance(old_after, Keep):
            games.queue_write(pipe, old_chat, old_before, old_after)
        if not isinstance(new_after, Keep):
            # The moved game keeps counting its versions up (the outbox drops older ones).
            games.queue_write(pipe, new_chat, new_before.at_least(old_before.version), new_after)
            # The players' private hands stay the same messages (the outbox edits them);
            # the table is posted anew, as the old group's messages cannot be edited.
            for slot, value in _hand_messages(shown, new_after).items():
                pipe.hset(keys.sent(new_chat), slot, value)
                pipe.expire(keys.sent(new_chat), games.idle_ttl)
        if old_settings is not None:
            settings.queue_move(pipe, old_chat, new_chat, old_settings, new_settings)
        if counts:
            stats.queue_move(pipe, old_chat, new_chat, counts)
        pipe.set(keys.moved(old_chat), str(new_chat), ex=games.idle_ttl)
        warnings.extend((chat, error) for chat, _raw, error, _after in unreadable)
        return result

    what = f"chat {old_chat} moving"
    result = await transact(games.redis, compared, attempt, what=what, reads=reads)
    for chat, error in warnings:
        games.warn_unreadable(chat, error)
    await admins.move(old_chat, new_chat)
    return result


async def moved_to(games: GameStore, chat_id: int) -> int | None:
    """The new id of a group that became a supergroup, if it did (lately)."""
    raw = await games.redis.get(games.keys.moved(chat_id))
    return None if raw is None else int(raw)


def _hand_messages(shown: dict[Any, Any], record: GameRecord | None) -> dict[str, bytes]:
    """The outbox's record of the hand messages of ``record``'s game, from ``shown``."""
    if record is None:
        return {}
    prefix = f"h:{record.game.game_id}:"
    return {
        name: value
        for slot, value in shown.items()
        if (name := slot.decode() if isinstance(slot, bytes) else str(slot)).startswith(prefix)
    }
