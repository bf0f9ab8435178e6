"""Every Redis key the bot uses, in one place. All live under ``{p}``, the bot's namespace:
``{REDIS_PREFIX}:{bot id}`` (``namespace``; the bot id is the number before the colon in its
token), so two bots on one Redis with the same prefix share nothing. The keys written
before namespaces were adopted by the first bot that starts (``adopt_keys``), under
``{REDIS_PREFIX}:layout``.

{p}:game:{chat}        string  one group's lobby or game (GameRecord JSON), with a TTL
{p}:settings:{chat}    string  the group's house rules (ChatSettings JSON)
{p}:user:{user}        hash    chat id -> game id of the lobbies and games a user sits in
{p}:started            set     users who have started the bot in private
{p}:deadlines          zset    chat id scored by the time its turn runs out (in force: the
                               turn clock's start lowers it, bot.turn_clock)
{p}:computers          zset    chat id scored by when a computer player there began to be due
{p}:computers:lease:{chat} string the worker (process) choosing a move for that chat's computer
{p}:startup            string  the worker doing the start-up work (commands, resynchronising)
{p}:probe              string  written and deleted at start: does Redis take the bot's writes?
{p}:workers            zset    worker (process) -> when it last said it is alive (.workers)
{p}:playing            set     chat ids with a game being played (for the operator's metrics)
{p}:sent:{chat}        hash    message slot -> "message id:hash:position" of what was last
                               sent: the only place that keeps the games' message ids
{p}:stats:chat:{chat}  hash    "<user>:<metric>" -> count of finished games (bot.storage.players)
{p}:stats:user:{user}  hash    "<metric>" -> count over every chat (bot.storage.players)
{p}:admin:{chat}:{user} string "1"/"0": is the user a group admin (getChatMember), for a minute
{p}:member:{chat}:{user} string "1"/"0": is the user a group member (getChatMember), for a
                               minute: may they watch its table in the Mini App
{p}:outbox             zset    chat id scored by when it changed: on the list while its messages
                               may differ from its game (bot.storage.outbox)
{p}:outbox:seq         hash    chat id -> count of changes to show; a worker that showed change N
                               takes the chat off the list only if no change N+1 came meanwhile
{p}:outbox:later      zset    chat id scored by when to put it on the work list again: a hand
                               waits for a Mini App page whose entry in {p}:pages runs out then
{p}:outbox:lease:{chat} string the worker (process) bringing that chat's messages up to date
{p}:outbox:rate:{chat} string  when the chat's send budget is next free (GCRA), ms
{p}:outbox:block:{chat} string Telegram's retry_after: nothing goes to the chat until it expires
{p}:notes             zset    chat id scored by when its oldest one-off message waiting came
{p}:notes:{chat}       list    one-off messages (replies, notices) waiting, as JSON (.notes)
{p}:notes:lease:{chat} string  the worker sending that chat's one-off messages
{p}:picks:{chat}       hash    user -> "moves:card": the card a player picked to cover with
{p}:broken:{chat}      string  a game record this version could not read, kept for an operator
{p}:moved:{chat}       string  the new id of a group that became a supergroup (bot.storage.chats)
{p}:live               channel chat ids whose game changed, published with each save to show
                               (the Mini App's pages: bot.webapp.live)
{p}:update:{id}        string  "run:<token>" while a worker handles Telegram's update, then
                               "done:<token>": every update is applied once (bot.storage.workers)
{p}:rating:{user}      string  a person's skill over every chat, JSON: mu, sigma, rated games
                               (bot.rating; bot.storage.players.RatingStore)
{p}:rated:{chat}       hash    user -> rated games played in that chat, "<user>:n" -> their
                               name (who /top lists there; taken off when they leave it)
{p}:ratings            zset    user scored by the rating shown: a person's rank, never a list
{p}:forget:{user}      string  the token of the person's /forget button, for ten minutes: only
                               that button erases what is kept about them (bot.storage.players)
{p}:finished:{chat}:{game} string a finished game kept for its record, replay and review, with
                               its seed (FinishedGame JSON; bot.storage.finished), RECORDS_DAYS
{p}:finished:{chat}    zset    game id scored by when it ended: the chat's latest kept games
{p}:finished:user:{user} set   "chat:game" of the kept games a person sat in (for /forget)
{p}:review:{chat}:{game}:{user} string a person's review of that game (JSON), kept as long

Reading the sorted sets of chats (the turn deadlines, the computers' turns, the outbox's
work list, the chats with replies waiting).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from redis.asyncio import Redis

log = logging.getLogger(__name__)

# How long one worker may move the keys into its bot's namespace before another may take
# over (the marker's time to live while moving, renewed as it goes).
ADOPTING_MS: Final = 30_000


@dataclass(frozen=True, slots=True)
class Keys:
    prefix: str

    def game(self, chat_id: int) -> str:
        return f"{self.prefix}:game:{chat_id}"

    def game_pattern(self) -> str:
        return f"{self.prefix}:game:*"

    def chat_of_game_key(self, key: str) -> int:
        return int(key.rsplit(":", 1)[1])

    def settings(self, chat_id: int) -> str:
        return f"{self.prefix}:settings:{chat_id}"

    def user_games(self, user_id: int) -> str:
        return f"{self.prefix}:user:{user_id}"

    def started(self) -> str:
        return f"{self.prefix}:started"

    def deadlines(self) -> str:
        return f"{self.prefix}:deadlines"

    def playing(self) -> str:
        return f"{self.prefix}:playing"

    def computers(self) -> str:
        return f"{self.prefix}:computers"

    def computers_lease(self, chat_id: int) -> str:
        return f"{self.prefix}:computers:lease:{chat_id}"

    def startup(self) -> str:
        return f"{self.prefix}:startup"

    def probe(self) -> str:
        return f"{self.prefix}:probe"

    def notes_chats(self) -> str:
        return f"{self.prefix}:notes"

    def notes(self, chat_id: int) -> str:
        return f"{self.prefix}:notes:{chat_id}"

    def notes_lease(self, chat_id: int) -> str:
        return f"{self.prefix}:notes:lease:{chat_id}"

    def workers(self) -> str:
        return f"{self.prefix}:workers"

    def sent(self, chat_id: int) -> str:
        return f"{self.prefix}:sent:{chat_id}"

    def admin(self, chat_id: int, user_id: int) -> str:
        return f"{self.prefix}:admin:{chat_id}:{user_id}"

    def admin_pattern(self, chat_id: int) -> str:
        return f"{self.prefix}:admin:{chat_id}:*"

    def member(self, chat_id: int, user_id: int) -> str:
        return f"{self.prefix}:member:{chat_id}:{user_id}"

    def member_pattern(self, chat_id: int) -> str:
        return f"{self.prefix}:member:{chat_id}:*"

    def broken(self, chat_id: int) -> str:
        return f"{self.prefix}:broken:{chat_id}"

    def moved(self, chat_id: int) -> str:
        return f"{self.prefix}:moved:{chat_id}"

    def chat_stats(self, chat_id: int) -> str:
        return f"{self.prefix}:stats:chat:{chat_id}"

    def versus_stats(self, user_id: int) -> str:
        return f"{self.prefix}:stats:vs:{user_id}"

    def user_stats(self, user_id: int) -> str:
        return f"{self.prefix}:stats:user:{user_id}"

    def outbox(self) -> str:
        return f"{self.prefix}:outbox"

    def outbox_seq(self) -> str:
        return f"{self.prefix}:outbox:seq"

    def outbox_later(self) -> str:
        return f"{self.prefix}:outbox:later"

    def outbox_lease(self, chat_id: int) -> str:
        return f"{self.prefix}:outbox:lease:{chat_id}"

    def outbox_rate(self, chat_id: int) -> str:
        return f"{self.prefix}:outbox:rate:{chat_id}"

    def outbox_block(self, chat_id: int) -> str:
        return f"{self.prefix}:outbox:block:{chat_id}"

    def live(self) -> str:
        return f"{self.prefix}:live"

    def live_listener(self, origin: str) -> str:
        """A channel nothing is published on: process ``origin`` listens to it beside
        ``live`` (``bot.webapp.live``), so that a save can tell whether anybody else does."""
        return f"{self.prefix}:live:{origin}"

    def pages(self, chat_id: int) -> str:
        """User -> until when their Mini App page counts as open (``DeliveryStore.pages_open``)."""
        return f"{self.prefix}:pages:{chat_id}"

    def picks(self, chat_id: int) -> str:
        return f"{self.prefix}:picks:{chat_id}"

    def update(self, update_id: int) -> str:
        return f"{self.prefix}:update:{update_id}"

    def page_press(self, user_id: int, press_id: str) -> str:
        """A Mini App page's tap ``press_id`` of ``user_id``, once its move was saved."""
        return f"{self.prefix}:press:{user_id}:{press_id}"

    def chat_stats_pattern(self) -> str:
        return f"{self.prefix}:stats:chat:*"

    def chat_of_stats_key(self, key: str) -> int:
        return int(key.rsplit(":", 1)[1])

    def rating(self, user_id: int) -> str:
        return f"{self.prefix}:rating:{user_id}"

    def rated(self, chat_id: int) -> str:
        return f"{self.prefix}:rated:{chat_id}"

    def rated_pattern(self) -> str:
        return f"{self.prefix}:rated:*"

    def ratings(self) -> str:
        return f"{self.prefix}:ratings"

    def forget(self, user_id: int) -> str:
        """The token of ``user_id``'s /forget confirmation button (``UserStore.ask_forget``)."""
        return f"{self.prefix}:forget:{user_id}"

    def finished(self, chat_id: int, game_id: str) -> str:
        return f"{self.prefix}:finished:{chat_id}:{game_id}"

    def finished_list(self, chat_id: int) -> str:
        return f"{self.prefix}:finished:{chat_id}"

    def finished_of(self, user_id: int) -> str:
        return f"{self.prefix}:finished:user:{user_id}"

    def review(self, chat_id: int, game_id: str, user_id: int) -> str:
        return f"{self.prefix}:review:{chat_id}:{game_id}:{user_id}"


def chat_ids(members: Iterable[Any]) -> list[int]:
    """A sorted set's members (chat ids, as redis-py returns them) as numbers."""
    return [int(text(m)) for m in members]


async def backlog(redis: Redis, key: str) -> tuple[int, float | None]:
    """How many members ``key`` holds, and the lowest score (when the oldest came)."""
    async with redis.pipeline(transaction=False) as pipe:
        pipe.zcard(key)
        pipe.zrange(key, 0, 0, withscores=True)
        count, first = await pipe.execute()
    return int(count), (float(first[0][1]) if first else None)


def text(value: bytes | str) -> str:
    """A key, member or value as Redis answers it (bytes), as text."""
    return value.decode() if isinstance(value, bytes) else str(value)


def namespace(prefix: str, bot_id: int) -> str:
    """The bot's own part of Redis (``{p}``) under ``REDIS_PREFIX``."""
    return f"{prefix}:{bot_id}"


async def adopt_keys(redis: Redis, prefix: str, bot_id: int) -> int:
    """Move the keys written under ``prefix`` before each bot had a namespace of its own
    (``{prefix}:game:…``) into bot ``bot_id``'s (``{prefix}:{bot}:game:…``), once: the
    first bot that starts on this prefix takes them (the operator starts the bot that ran
    before first). One worker moves them while the others wait; one that dies mid-way
    leaves the rest to the next start. The number of keys moved (0: nothing left to move,
    or another worker did it). Every worker of the version before must be stopped first:
    it would go on writing where nobody reads."""
    marker = f"{prefix}:layout"
    while not await redis.set(marker, f"moving:{bot_id}", nx=True, px=ADOPTING_MS):
        state = await redis.get(marker)
        if state is not None and text(state).startswith("done:"):
            return 0
        await asyncio.sleep(0.2)  # another worker moves them
    moved = 0
    async for raw in redis.scan_iter(match=f"{prefix}:*", count=1000):
        rest = text(raw)[len(prefix) + 1 :]
        head = rest.split(":", 1)[0]
        if rest == "layout" or head.lstrip("-").isdigit():
            continue  # the marker, or a key in a bot's namespace already
        if await redis.renamenx(raw, f"{namespace(prefix, bot_id)}:{rest}"):
            moved += 1
            if moved % 1000 == 0:
                await redis.pexpire(marker, ADOPTING_MS)
    await redis.set(marker, f"done:{bot_id}")
    if moved:
        log.info("moved %s keys under %s into bot %s's namespace", moved, prefix, bot_id)
    return moved
