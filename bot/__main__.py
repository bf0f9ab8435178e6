"""``durak-bot`` / ``python -m bot``: check the settings and Redis, then poll Telegram.

Exit codes: 0 after SIGTERM/SIGINT; 2 for a missing or malformed setting, or a token
Telegram refuses; 1 when Redis or the Bot API cannot be reached at start. Every failure at
start is one line on stderr. Settings and Redis are checked before aiogram is imported
(seconds of start-up), so a misconfigured bot fails at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys

from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.config import CONFIG_ERROR_EXIT, Settings, load_settings
from bot.storage.connect import redact, redis_client

STARTUP_ERROR_EXIT = 1


def _fail(message: str, code: int = STARTUP_ERROR_EXIT) -> SystemExit:
    print(f"durak-bot: {message}", file=sys.stderr)
    return SystemExit(code)


async def _connect_redis(settings: Settings) -> Redis:
    try:
        redis = redis_client(settings.redis_url, max_connections=settings.redis_connections)
    except ValueError as error:
        raise _fail(f"REDIS_URL is not a Redis URL: {error}", CONFIG_ERROR_EXIT) from None
    try:
        await redis.ping()
    except (RedisError, OSError) as error:
        await redis.aclose()
        raise _fail(f"cannot reach Redis at {redact(settings.redis_url)}: {error}") from None
    return redis


async def _main() -> None:
    settings = load_settings()
    redis = await _connect_redis(settings)

    # Deliberately late: importing aiogram takes seconds (see the module docstring).
    from aiogram.exceptions import (  # noqa: PLC0415
        TelegramNetworkError,
        TelegramUnauthorizedError,
    )

    from bot.app import build, run, setup_logging  # noqa: PLC0415

    setup_logging(settings)
    app = build(settings, redis=redis)
    try:
        await app.bot.me()
    except TelegramUnauthorizedError:
        await app.close()
        raise _fail(
            "Telegram refused BOT_TOKEN (check it with @BotFather)", CONFIG_ERROR_EXIT
        ) from None
    except TelegramNetworkError as error:
        await app.close()
        raise _fail(f"cannot reach the Telegram Bot API: {error}") from None
    await run(app)


def main() -> None:
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_main())


if __name__ == "__main__":
    main()
