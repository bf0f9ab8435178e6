"""/mydata and /forget with the real bot process, the fake Telegram and a real Redis: in a
group both only say to use them in private; in private /mydata lists what is kept about the
person and nobody else's; a forged confirmation erases nothing and says so; a confirmed
/forget during a game leaves it playable to its end, and once it is over nothing of the
person is left but the finished game's own keys, which expire; the other player's data is
untouched."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.i18n import private_language, translator
from bot.model import ChatSettings
from bot.storage import Storage
from bot.ui.callbacks import ForgetOp, ForgetPress

from .conftest import World
from .fake_telegram import FakeMessage, FakeUser
from .harness import plain

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

RU = translator("ru")


async def ask(world: World, user: FakeUser, command: str, expected: str) -> FakeMessage:
    """``user`` sends ``command`` in private; the bot's reply that contains ``expected``."""
    chat = world.fake.private_chat(user)
    mark = world.fake.last_message_id(chat)
    world.fake.user_sends_private(user, command)
    return await world.fake.wait_for_bot_message(chat, plain(expected), since=mark, timeout=10)


async def confirm(world: World, user: FakeUser, question: FakeMessage) -> None:
    """``user`` presses «Удалить» under ``question``; it then says it is done."""
    tr = translator(private_language(user.language_code))
    answer = await world.fake.callback_answer(
        world.fake.user_presses(user, question, tr.t("button-forget-yes"))
    )
    assert answer.text is None
    done = plain(tr.t("forget-done"))
    await world.fake.wait_for(lambda: done in (question.text or ""), timeout=10)
    assert question.buttons == []


def _text(word: Any) -> str:
    return word.decode() if isinstance(word, bytes) else str(word)


async def left_of(world: World, user: FakeUser) -> dict[str, int]:
    """Every key under the bot's prefix that holds ``user``'s id or name (in its name, a
    string's value, a hash's field or value, a set's or list's member), with its TTL."""
    redis, marks = world.redis, (str(user.id), user.first_name)
    found: dict[str, int] = {}

    def holds(word: Any) -> bool:
        return any(mark in _text(word) for mark in marks)

    async for raw_key in redis.scan_iter(match=f"{world.prefix}:*", count=1000):
        key = raw_key.decode()
        kind = _text(await redis.type(key))
        words: list[Any]
        if kind == "string":
            words = [await redis.get(key) or b""]
        elif kind == "hash":
            words = [w for pair in (await redis.hgetall(key)).items() for w in pair]
        elif kind == "set":
            words = list(await redis.smembers(key))
        elif kind == "zset":
            words = list(await redis.zrange(key, 0, -1))
        elif kind == "list":
            words = list(await redis.lrange(key, 0, -1))
        else:
            words = []
        if holds(key) or any(holds(word) for word in words):
            found[key] = int(await redis.ttl(key))
    return found


async def test_mydata_and_forget_are_for_a_private_chat(fast_world: World) -> None:
    world = fast_world
    table = world.table(2)
    anna = table.players[0]
    await table.all_start_bot()
    for command in ("/mydata", "/forget"):
        mark = world.fake.last_message_id(table.group)
        world.fake.user_sends(anna, table.group, command)
        await world.fake.wait_for_bot_message(
            table.group, plain(RU.t("reply-private-only")), since=mark, timeout=10
        )
    # Nothing was asked: no confirmation waits for her.
    assert await world.redis.exists(world.keys.forget(anna.id)) == 0


async def test_forget_during_a_game_leaves_it_playable_and_then_nothing_of_her(
    fast_world: World,
) -> None:
    world = fast_world
    table = world.table(2)
    anna, boris = table.players
    tr = translator(private_language(anna.language_code))
    await table.start_game()
    record = await table.settled()
    group = table.group.id

    mine = await ask(world, anna, "/mydata", tr.t("mydata-title", id=anna.id))
    text = mine.text or ""
    assert plain(tr.t("mydata-started")) in text
    where = tr.t("mydata-group", chat=str(group))
    assert plain(tr.t("mydata-playing", where=where, name="Аня")) in text
    assert boris.first_name not in text and str(boris.id) not in text

    question = await ask(world, anna, "/forget", tr.t("forget-ask"))
    assert plain(tr.t("forget-ask-playing", count=1)) in (question.text or "")
    # A forged button (a token the bot never gave) erases nothing and says so.
    forged = ForgetPress(token="forged", op=ForgetOp.YES).pack()
    answer = await world.fake.callback_answer(world.fake.user_presses_data(anna, question, forged))
    assert answer.text == tr.t("answer-forget-stale")
    assert await world.redis.sismember(world.keys.started(), str(anna.id))
    await confirm(world, anna, question)

    # The game goes on: she still gets her hand and plays to the end under her name.
    over = await table.play_to_end(random.Random(9))
    assert over.game.game_id == record.game.game_id
    assert over.game.players[over.game.seat_of(anna.id) or 0].name == "Аня"
    await table.says_game_over()
    storage = Storage.create(world.redis, world.namespace, default_settings=ChatSettings())
    assert (await storage.stats.user(anna.id)).games == 1  # a game played after /forget
    boris_totals = await storage.stats.user(boris.id)
    boris_rows = [row for row in await storage.stats.chat(group) if row.user_id == boris.id]
    assert boris_totals.games == 1 and len(boris_rows) == 1

    # Her game is over: /forget again erases it too.
    question = await ask(world, anna, "/forget", tr.t("forget-ask"))
    assert plain(tr.t("forget-ask-playing", count=1)) not in (question.text or "")
    await confirm(world, anna, question)
    await table.drained()

    keys = world.keys
    kept = keys.finished(group, record.game.game_id)  # its record, under her seat's number
    finished_game = {
        keys.game(group),
        keys.sent(group),
        keys.picks(group),
        keys.pages(group),
        kept,
    }
    left = await left_of(world, anna)
    assert keys.game(group) in left and set(left) <= finished_game, left  # her seat, her hand ...
    assert all(ttl > 0 for ttl in left.values()), left  # ... which expires by itself
    finished = await table.record()
    assert finished is not None
    assert [p.name for p in finished.game.players if p.user_id == anna.id] == ["игрок"]
    record_kept = await storage.finished.get(group, record.game.game_id)
    assert record_kept is not None
    assert [p.name for p in record_kept.players if p.user_id == anna.id] == ["игрок"]
    assert await storage.stats.user(boris.id) == boris_totals
    assert [r for r in await storage.stats.chat(group) if r.user_id == boris.id] == boris_rows
    assert {r.user_id for r in await storage.stats.chat(group)} == {boris.id}

    mine = await ask(world, anna, "/mydata", tr.t("mydata-title", id=anna.id))
    assert plain(tr.t("mydata-finished", where=where, name="игрок")) in (mine.text or "")
    assert plain(tr.t("mydata-started")) not in (mine.text or "")
    # Борис's own list is untouched.
    his_tr = translator(private_language(boris.language_code))
    his = await ask(world, boris, "/mydata", his_tr.t("mydata-title", id=boris.id))
    assert "Борис" in (his.text or "")
