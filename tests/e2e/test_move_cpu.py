"""The move-path benchmark (``bench.move_cpu``) plays what it times: every move it
sends is played (a refusal fails it), and each costs some CPU."""

from __future__ import annotations

from redis.asyncio import Redis

from bench.move_cpu import measure


async def test_every_timed_move_is_played_and_its_keys_are_gone(
    redis_url: str, redis: Redis
) -> None:
    spent = await measure(redis_url, games=2, rounds=10, seed=3)
    assert spent.moves == 20  # no four-player game ends within ten moves
    assert spent.seconds > 0
    assert [key async for key in redis.scan_iter(match="movecpu*")] == []
