"""``durak-bot`` / ``python -m bot``: check the settings and Redis, then poll Telegram.

Every failure at start is one line on stderr (``durak-bot: ...``), never a traceback, and
one of two exit codes (0 is the stop after SIGTERM/SIGINT):

- 2, the configuration is wrong and restarting cannot help: a missing or malformed
  setting, a token Telegram refuses, or a Redis that refuses ``REDIS_URL`` (a wrong
  password or user, a user without the rights the bot needs, a db number it does not have);
- 1, Redis or the Bot API cannot serve the bot now and may later: unreachable, a Redis that
  is full (``maxmemory`` with ``noeviction``) or read-only (a replica), or any other Redis
  error before the bot serves. A supervisor may start it again (compose: ``on-failure``).

Settings and Redis (reached, logged into, and written to: ``check_usable``) are checked
before aiogram is imported (seconds of start-up), so a misconfigured bot fails at once; a
Redis error in the start-up work after that (``bot.app.start_up``) ends the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.config import CONFIG_ERROR_EXIT, Settings, load_settings
from bot.storage.connect import check_usable, misconfigured, redact, redis_client
from bot.storage.keys import Keys

STARTUP_ERROR_EXIT = 1


def _fail(message: str, code: int = STARTUP_ERROR_EXIT) -> SystemExit:
    one_line = " ".join(message.split())  # an error's own text may run over several lines
    print(f"durak-bot: {one_line}", file=sys.stderr)
    return SystemExit(code)


def _redis_failure(url: str, error: Exception) -> SystemExit:
    """The line and exit code for a Redis that cannot serve the bot (module docstring)."""
    where = redact(url)
    if misconfigured(error):
        return _fail(
            f"Redis at {where} refuses the bot (check REDIS_URL's password, user and db): {error}",
            CONFIG_ERROR_EXIT,
        )
    if isinstance(error, RedisConnectionError | RedisTimeoutError | OSError):
        return _fail(f"cannot reach Redis at {where}: {error}")
    return _fail(f"Redis at {where} cannot serve the bot: {error}")


async def _connect_redis(settings: Settings) -> Redis:
    try:
        redis = redis_client(settings.redis_url, max_connections=settings.redis_connections)
    except ValueError as error:
        raise _fail(f"REDIS_URL is not a Redis URL: {error}", CONFIG_ERROR_EXIT) from None
    try:
        await check_usable(redis, Keys(settings.redis_prefix).probe())
    except (RedisError, OSError) as error:
        await redis.aclose()
        raise _redis_failure(settings.redis_url, error) from None
    return redis


async def _main() -> None:
    settings = load_settings()
    redis = await _connect_redis(settings)

    # Deliberately late: importing aiogram takes seconds (see the module docstring).
    from aiogram.exceptions import (  # noqa: PLC0415
        TelegramNetworkError,
        TelegramUnauthorizedError,
    )

    from bot.app import build, run, setup_logging, start_up  # noqa: PLC0415

    setup_logging(settings)
    app = build(settings, redis=redis)
    try:
        await app.bot.me()
        games = await start_up(app)
    except RedisError as error:
        await app.close()
        raise _redis_failure(settings.redis_url, error) from None
    except TelegramUnauthorizedError:
        await app.close()
        raise _fail(
            "Telegram refused BOT_TOKEN (check it with @BotFather)", CONFIG_ERROR_EXIT
        ) from None
    except TelegramNetworkError as error:
        await app.close()
        raise _fail(f"cannot reach the Telegram Bot API: {error}") from None
    # What start-up built (aiogram's routers and types, pydantic's models, the Fluent
    # bundles, the compiled engine's tables) lives as long as the process: out of the
    # collector's sight, a full collection under load does not walk it again each time.
    gc.freeze()
    await run(app, games)


def new_event_loop() -> asyncio.AbstractEventLoop:
    """uvloop's event loop where it is installed (Linux and macOS: a dependency there),
    asyncio's own elsewhere. Much of the bot's CPU goes to round trips (to Redis, to the
    pages' sockets, to Telegram), and uvloop makes each of them cheaper."""
    try:
        import uvloop  # noqa: PLC0415
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def main() -> None:
    with (
        contextlib.suppress(KeyboardInterrupt),
        asyncio.Runner(loop_factory=new_event_loop) as runner,
    ):
        runner.run(_main())


if __name__ == "__main__":
    main()
