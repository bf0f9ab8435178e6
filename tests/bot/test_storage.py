"""Redis storage: every change is a compare-and-set, so concurrent updates are each applied
exactly once; what follows from a game (user index, deadline, TTL) is written with it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
import redis as redis_sync
from kit import spoiled
from redis.asyncio import Redis

from bot.model import ChatGame, ChatSettings, GameRecord, Phase, Seat
from bot.storage import KEEP, AlreadyApplied, Storage, StorageBusy, tx
from bot.storage.games import decode, encode
from bot.storage.outbox import Shown
from bot.storage.tx import Writes
from tests.counted import counted_client

CHAT = -100_123


def make_storage(redis: Redis, prefix: str) -> Storage:
    return Storage.create(
        redis, prefix, default_settings=ChatSettings(), finished_ttl=100, idle_ttl=1000
    )


def lobby(*user_ids: int) -> GameRecord:
    game = ChatGame(CHAT, "g1", user_ids[0] if user_ids else 1, ChatSettings())
    game.players = [Seat(u, f"user{u}") for u in user_ids]
    return GameRecord(game)


def logger(
    attempts: list[int],
) -> Callable[[int], Callable[[GameRecord | None], tuple[GameRecord, int]]]:
    """Decisions that add ``n`` to the game's log, noting every time one runs."""

    def add(n: int) -> Callable[[GameRecord | None], tuple[GameRecord, int]]:
        def decide(record: GameRecord | None) -> tuple[GameRecord, int]:
            assert record is not None
            attempts.append(n)
            record.game.log = [*record.game.log, {"n": n}]
            return record, n

        return decide

    return add


async def test_concurrent_updates_are_each_applied_exactly_once(
    redis: Redis, redis_prefix: str
) -> None:
    storage = make_storage(redis, redis_prefix)
    await storage.games.update(CHAT, lambda _: (lobby(1), None))
    attempts: list[int] = []
    add = logger(attempts)
    count = 60
    # Two stores stand for two bot processes; within one and between them alike, writers
    # that collide retry their compare-and-set.
    other = make_storage(redis, redis_prefix)
    stores = (storage, other)
    results = await asyncio.gather(
        *(stores[n % 2].games.update(CHAT, add(n)) for n in range(count))
    )
    assert sorted(results) == list(range(count))
    record = await storage.games.get(CHAT)
    assert record is not None
    assert sorted(entry["n"] for entry in record.game.log) == list(range(count))
    assert record.game.version == count + 1
    assert len(attempts) > count  # there were conflicts, and they were retried


async def test_keep_writes_nothing_and_none_deletes(redis: Redis, redis_prefix: str) -> None:
    storage = make_storage(redis, redis_prefix)
    assert await storage.games.update(CHAT, lambda _: (KEEP, "nothing")) == "nothing"
    assert await storage.games.get(CHAT) is None
    await storage.games.update(CHAT, lambda _: (lobby(1, 2), None))
    assert await storage.users.games_of(2) == {CHAT: "g1"}
    await storage.games.update(CHAT, lambda r: (KEEP, None))
    record = await storage.games.get(CHAT)
    assert record is not None and record.game.version == 1
    await storage.games.update(CHAT, lambda r: (None, None))
    assert await storage.games.get(CHAT) is None
    assert await storage.users.games_of(2) == {}


async def test_user_index_deadline_and_ttl_follow_the_game(redis: Redis, redis_prefix: str) -> None:
    storage = make_storage(redis, redis_prefix)
    keys = storage.keys
    await storage.games.update(CHAT, lambda _: (lobby(1), None))

    def join(record: GameRecord | None) -> tuple[GameRecord, None]:
        assert record is not None
        record.game.players.append(Seat(2, "two"))
        record.deadline = 1234.5
        return record, None

    await storage.games.update(CHAT, join)
    assert await storage.users.games_of(1) == {CHAT: "g1"}
    assert await storage.users.games_of(2) == {CHAT: "g1"}
    assert await storage.deadlines.due(2000) == [CHAT]
    assert await storage.deadlines.due(1000) == []
    assert 900 < await redis.ttl(keys.game(CHAT)) <= 1000

    def finish(record: GameRecord | None) -> tuple[GameRecord, None]:
        assert record is not None
        record.game.phase = Phase.FINISHED
        record.deadline = None
        return record, None

    await storage.games.update(CHAT, finish)
    assert await storage.users.games_of(1) == {}
    assert await storage.deadlines.due(2000) == []
    assert 0 < await redis.ttl(keys.game(CHAT)) <= 100


async def test_a_key_that_keeps_changing_gives_up_after_bounded_tries(
    redis: Redis, redis_prefix: str, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tx, "MAX_ATTEMPTS", 5)
    storage = make_storage(redis, redis_prefix)
    await storage.games.update(CHAT, lambda _: (lobby(1), None))
    meddler = redis_sync.Redis.from_url(redis_url)
    calls = 0

    def decide(record: GameRecord | None) -> tuple[GameRecord, None]:
        nonlocal calls
        calls += 1
        assert record is not None
        meddler.set(storage.keys.game(CHAT), encode(spoiled(record)))  # somebody else writes
        return record, None

    try:
        with pytest.raises(StorageBusy):
            await storage.games.update(CHAT, decide)
    finally:
        meddler.close()
    assert calls == 5


def noted(record: GameRecord | None) -> tuple[GameRecord, None]:
    """A change that every write makes anew (a real move moves the bout on or the log)."""
    assert record is not None
    record.bout_from += 1
    return record, None


async def test_a_change_on_values_changed_meanwhile_is_made_on_the_new_ones(
    redis: Redis, redis_prefix: str
) -> None:
    """Two processes write the game in turn, then the clock lowers its deadline: each change
    is decided on what is stored (none lost), with the deadline in force."""
    storage = make_storage(redis, redis_prefix)
    other = make_storage(redis, redis_prefix)
    await storage.games.update(CHAT, lambda _: (lobby(1), None))
    await other.games.update(CHAT, noted)
    await storage.games.update(CHAT, noted)
    record = await other.games.get(CHAT)
    assert record is not None and record.bout_from == 2
    assert record.game.version == 3

    def with_deadline(record: GameRecord | None) -> tuple[GameRecord, None]:
        assert record is not None
        record.deadline = 2000.0
        return record, None

    await storage.games.update(CHAT, with_deadline)
    await redis.zadd(storage.keys.deadlines(), {str(CHAT): 1500.0})  # the clock started
    seen: list[float | None] = []

    def look(record: GameRecord | None) -> tuple[GameRecord, None]:
        assert record is not None
        seen.append(record.deadline)
        return noted(record)

    await storage.games.update(CHAT, look)
    assert seen == [1500.0]


async def test_a_change_under_a_claim_is_saved_once(redis: Redis, redis_prefix: str) -> None:
    """A change saved under a claim marks it done in the same write; another delivery's
    claim on the same key then saves nothing (``AlreadyApplied``), and neither does a
    decision that ran."""
    storage = make_storage(redis, redis_prefix)
    await storage.games.update(CHAT, lambda _: (lobby(1), None))
    first = storage.updates.page_press(1, "tap")
    await storage.games.update(CHAT, noted, once=first)
    assert await redis.get(first.key) == first.done.encode()
    with pytest.raises(AlreadyApplied):
        await storage.games.update(CHAT, noted, once=storage.updates.page_press(1, "tap"))
    record = await storage.games.get(CHAT)
    assert record is not None and record.bout_from == 1 and record.game.version == 2


async def test_a_decision_that_changes_nothing_marks_no_claim(
    redis: Redis, redis_prefix: str
) -> None:
    """A refusal saves nothing, so its claim stays free: the same press sent again (say, once
    the position allows it) is decided anew."""
    storage = make_storage(redis, redis_prefix)
    await storage.games.update(CHAT, lambda _: (lobby(1), None))
    claim = storage.updates.page_press(1, "tap")
    assert await storage.games.update(CHAT, lambda _: (KEEP, "no"), once=claim) == "no"
    assert await redis.get(claim.key) is None


def test_record_round_trip_and_plain_chat_game_json() -> None:
    record = lobby(1, 2)
    record.bout_from = 7
    record.deadline = 12.5
    record.stopped_by = "Аня"
    again = decode(encode(record))
    assert again == record
    plain = decode(encode(lobby(3)).replace(',"x":', ',"ignored":'))
    assert plain.bout_from == 0 and plain.deadline is None


async def test_settings_users_and_sent(redis: Redis, redis_prefix: str) -> None:
    storage = make_storage(redis, redis_prefix)
    assert await storage.settings.get(CHAT) == ChatSettings()
    await storage.settings.set(CHAT, ChatSettings(turn_timeout=5, language="uk"))
    assert await storage.settings.get(CHAT) == ChatSettings(turn_timeout=5, language="uk")
    assert not await storage.users.has_started(7)
    await storage.users.mark_started(7)
    assert await storage.users.has_started(7)
    await storage.users.mark_unreachable(7)
    assert not await storage.users.has_started(7)
    await storage.sent.save(CHAT, {"t:g1": Shown(42, "abc", "7:10H")})
    assert await storage.sent.load(CHAT) == {"t:g1": Shown(42, "abc", "7:10H")}
    await storage.sent.forget(CHAT, "t:g1")
    assert await storage.sent.load(CHAT) == {}


async def test_workers_share_the_budget_over_all_chats_by_the_roll(
    redis: Redis, redis_prefix: str
) -> None:
    """Each worker alive says what it has waiting and learns every other's (its share of
    MESSAGES_PER_SECOND follows: ``bot.delivery.budget.share``); one that stops answering
    (killed) drops off the roll, demand and all, and its share goes back to the others."""
    storage = Storage.create(redis, redis_prefix, default_settings=ChatSettings())
    roll = storage.workers
    assert await roll.present("a", (3, 0)) == {"a": (3, 0)}
    assert await roll.present("b", (0, 4)) == {"a": (3, 0), "b": (0, 4)}
    assert await roll.present("a", (1, 2)) == {"a": (1, 2), "b": (0, 4)}  # said again: once
    # "b" was last seen long ago (its score is Redis's time then): it is off the roll.
    await redis.zadd(storage.keys.workers(), {"b": 1.0})
    assert await roll.present("a", (1, 2)) == {"a": (1, 2)}
    await roll.leave("a")
    assert await redis.zcard(storage.keys.workers()) == 0
    assert await redis.hlen(roll.demands) == 0


async def test_a_lease_belongs_to_one_worker_until_it_lets_go_or_lapses(
    redis: Redis, redis_prefix: str
) -> None:
    storage = Storage.create(redis, redis_prefix, default_settings=ChatSettings())
    key = storage.keys.startup()
    assert await storage.leases.take(key, "a", 30)
    assert not await storage.leases.take(key, "b", 30)
    assert await storage.leases.take(key, "a", 30)  # renewed by its owner
    await storage.leases.release(key, "b")  # not b's to let go
    assert not await storage.leases.take(key, "b", 30)
    await storage.leases.release(key, "a")
    assert await storage.leases.take(key, "b", 0.05)
    async with asyncio.timeout(5):  # b was killed: the lease lapses
        while await redis.exists(key):
            await asyncio.sleep(0.01)
    assert await storage.leases.take(key, "a", 30)


@pytest.mark.parametrize("protocol", [2, 3])
async def test_work_list_since_gives_only_the_chats_changed_from_then_on(
    redis_url: str, redis_prefix: str, protocol: int
) -> None:
    """The outbox reads the whole work list now and then, and in between only what changed
    (``Outbox._due``): ``since`` leaves out the chats that wait from before. Its raw reply
    is read in either protocol an operator's ``REDIS_URL`` may ask for."""
    client = Redis.from_url(redis_url, protocol=protocol)
    try:
        delivery = make_storage(client, redis_prefix).delivery
        await delivery.mark(CHAT, 1000.0)
        await delivery.mark(CHAT - 1, 2000.5)
        assert await delivery.due_with_times(3000.0) == {CHAT: 1000.0, CHAT - 1: 2000.5}
        assert await delivery.due_with_times(3000.0, since=1500.0) == {CHAT - 1: 2000.5}
        assert await delivery.due_with_times(1500.0, since=500.0) == {CHAT: 1000.0}
        assert await delivery.due_with_times(500.0) == {}
    finally:
        await client.delete(make_storage(client, redis_prefix).keys.outbox())
        await client.aclose()


async def test_delivery_load_reads_replies_and_started_players_in_the_same_round_trip(
    redis: Redis, redis_prefix: str
) -> None:
    storage = make_storage(redis, redis_prefix)
    await storage.games.update(CHAT, lambda _: (lobby(1, 2), None))
    await storage.users.mark_started(1)
    loaded = await storage.delivery.load(CHAT, [1, 2])
    assert loaded.game is not None
    assert loaded.started == {1: True, 2: False}
    assert loaded.replies_since is None
    await storage.notes.push(CHAT, "reply", 1234.5)
    loaded = await storage.delivery.load(CHAT)
    assert loaded.replies_since == 1234.5
    assert loaded.started == {}
    assert loaded.sent is None


async def test_delivery_load_reads_what_the_messages_show_when_asked(
    redis: Redis, redis_prefix: str
) -> None:
    storage = make_storage(redis, redis_prefix)
    await storage.games.update(CHAT, lambda _: (lobby(1, 2), None))
    assert (await storage.delivery.load(CHAT, sent=True)).sent == {}
    await storage.sent.save(CHAT, {"t:g1": Shown(42, "abc", "7:10H")})
    loaded = await storage.delivery.load(CHAT, [1], sent=True)
    assert loaded.sent == await storage.sent.load(CHAT) == {"t:g1": Shown(42, "abc", "7:10H")}


async def test_settling_a_chat_lets_go_of_its_lease_only_when_settled_and_held(
    redis: Redis, redis_prefix: str
) -> None:
    delivery = make_storage(redis, redis_prefix).delivery
    await delivery.mark(CHAT, 1000.0)
    change = (await delivery.load(CHAT)).change
    assert await delivery.lease(CHAT, "w1", 15)
    await delivery.mark(CHAT, 1001.0)  # a newer change: the chat is not settled
    assert not await delivery.settle(CHAT, change, release="w1")
    assert not await delivery.lease(CHAT, "w2", 15)  # still w1's
    change = (await delivery.load(CHAT)).change
    assert await delivery.settle(CHAT, change, release="w2")  # not w2's to let go
    assert not await delivery.lease(CHAT, "w2", 15)
    await delivery.mark(CHAT, 1002.0)
    change = (await delivery.load(CHAT)).change
    assert await delivery.settle(CHAT, change, release="w1")
    assert await delivery.lease(CHAT, "w2", 15)  # free now


async def test_a_worker_s_load_takes_the_chat_s_lease_or_reads_nothing(
    redis: Redis, redis_prefix: str
) -> None:
    storage = make_storage(redis, redis_prefix)
    delivery, lease = storage.delivery, storage.keys.outbox_lease(CHAT)
    await storage.games.update(CHAT, lambda _: (lobby(1, 2), None))
    loaded = await delivery.load(CHAT, [1], owner="w1", lease_seconds=15)
    assert loaded is not None and loaded.game is not None
    assert await redis.get(lease) == b"w1" and 14_000 < await redis.pttl(lease) <= 15_000
    await redis.pexpire(lease, 500)
    assert await delivery.load(CHAT, owner="w1", lease_seconds=15) is not None  # renewed
    assert await redis.pttl(lease) > 14_000
    assert await delivery.load(CHAT, [1], sent=True, owner="w2", lease_seconds=15) is None
    assert await redis.get(lease) == b"w1"


async def test_a_table_s_budget_and_its_newest_position_in_one_round_trip(
    redis: Redis, redis_prefix: str
) -> None:
    storage = make_storage(redis, redis_prefix)
    delivery = storage.delivery
    await storage.games.update(CHAT, lambda _: (lobby(1, 2), None))
    await storage.users.mark_started(2)
    taken = await delivery.take_and_load(CHAT, 10.0, 0.0, "w1", 15, [1, 2])
    assert taken is not None and taken.wait == 0
    assert taken.loaded is not None and taken.loaded.game is not None
    assert taken.loaded.started == {1: False, 2: True} and taken.loaded.sent is None
    assert await redis.get(storage.keys.outbox_lease(CHAT)) == b"w1"
    # The budget spent: the next one waits, and nothing is read.
    taken = await delivery.take_and_load(CHAT, 10.0, 0.0, "w1", 15, [1, 2])
    assert taken is not None and 9.0 < taken.wait <= 10.0 and taken.loaded is None
    # Another worker's lease: nothing spent, nothing read.
    other = CHAT - 1
    assert await delivery.lease(other, "w2", 15)
    assert await delivery.take_and_load(other, 10.0, 0.0, "w1", 15) is None
    assert await delivery.take(other, 10.0, 0.0) == 0  # its budget was untouched
    taken = await delivery.take_and_load(CHAT - 2, 10.0, 0.0, "w1", 15, load=False)
    assert taken is not None and taken.wait == 0 and taken.loaded is None


async def test_settling_saves_what_the_messages_show_settled_or_not(
    redis: Redis, redis_prefix: str
) -> None:
    storage = make_storage(redis, redis_prefix)
    delivery = storage.delivery
    await delivery.mark(CHAT, 1000.0)
    change = (await delivery.load(CHAT)).change
    await delivery.mark(CHAT, 1001.0)  # a newer change: not settled, but saved
    table = Shown(42, "abc", "7")
    assert not await delivery.settle(CHAT, change, shown={"t:g1": table})
    assert await storage.sent.load(CHAT) == {"t:g1": table}
    change = (await delivery.load(CHAT)).change
    hand = Shown(43, "def", "8")
    assert await delivery.settle(CHAT, change, shown={"h:g1:1": hand})
    assert await storage.sent.load(CHAT) == {"t:g1": table, "h:g1:1": hand}
    assert await redis.ttl(storage.keys.sent(CHAT)) > 0


async def test_leases_are_renewed_together_only_where_still_held(
    redis: Redis, redis_prefix: str
) -> None:
    leases = make_storage(redis, redis_prefix).leases
    keys = [f"{redis_prefix}:lease:{n}" for n in range(3)]
    assert await leases.take(keys[0], "w1", 1)
    assert await leases.take(keys[1], "w2", 1)
    assert await leases.renew(keys, "w1", 15) == [True, False, False]
    assert await redis.pttl(keys[0]) > 14_000
    assert await redis.pttl(keys[1]) <= 1000  # another's: untouched
    assert await redis.get(keys[2]) is None  # nobody's: not taken
    assert await leases.renew([], "w1", 15) == []


def test_writes_queue_the_words_redis_py_s_pipeline_would(redis: Redis) -> None:
    """``Writes`` (a compare-and-set's writes) queues each command as redis-py's pipeline
    queues it: the same words Redis is sent."""
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
        ("set", ("k", "v"), {}),
        ("set", ("k", b"v"), {"ex": 60}),
        ("delete", ("k", "l"), {}),
        ("expire", ("k", 60), {}),
        ("hset", ("h", "f", "v"), {}),
        ("hset", ("h",), {"items": ["f", "v", "g", "w"]}),
        ("hsetnx", ("h", "f", "v"), {}),
        ("hdel", ("h", "f", "g"), {}),
        ("hincrby", ("h", "f"), {}),
        ("hincrby", ("h", "f", 3), {}),
        ("sadd", ("s", "a"), {}),
        ("srem", ("s", "a"), {}),
        ("zadd", ("z", {"a": 1.5, "b": 2.0}), {}),
        ("zrem", ("z", "a"), {}),
        ("publish", ("c", "m"), {}),
    ]
    for name, args, options in calls:
        writes, pipe = Writes(), redis.pipeline(transaction=False)
        getattr(writes, name)(*args, **options)
        getattr(pipe, name)(*args, **options)
        assert [tuple(map(str, c)) for c in writes.commands] == [
            tuple(map(str, words)) for words, _options in pipe.command_stack
        ], name


async def test_writes_sent_alone_are_applied_in_order_in_one_round_trip(
    redis_url: str, redis_prefix: str
) -> None:
    """``Writes.send``: the queued commands go as one script call, each applied in turn."""
    counted = counted_client(redis_url)
    key, hash_key, zset = (f"{redis_prefix}:{name}" for name in ("k", "h", "z"))
    writes = Writes()
    writes.set(key, "one")
    writes.set(key, "two", ex=60)
    writes.hset(hash_key, items=["a", 1.5, "b", "x"])
    writes.hdel(hash_key, "b")
    writes.expire(hash_key, 30)
    writes.zadd(zset, {"m": 2.25})
    try:
        await writes.send(counted)
        await Writes().send(counted)  # nothing queued: nothing sent
        assert counted.round_trips == 1
        assert await counted.get(key) == b"two" and 0 < await counted.ttl(key) <= 60
        assert await counted.hgetall(hash_key) == {b"a": b"1.5"}
        assert 0 < await counted.ttl(hash_key) <= 30
        assert await counted.zscore(zset, "m") == 2.25
    finally:
        await counted.delete(key, hash_key, zset)
        await counted.aclose()
