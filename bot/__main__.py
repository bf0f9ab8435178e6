"""``durak-bot`` / ``python -m bot``: check the settings and Redis, then poll Telegram.

Its only arguments are ``--help`` (the settings with their defaults, read from ``Settings``)
and ``--version``; neither starts the bot, and any other argument is an error (exit code 2).
The bot's settings come from the environment and ``.env``, never from arguments.

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
Once all that passed, a ``starting`` line says what this process is and where it talks
to (version, mode, Redis, the Bot API; passwords masked, the token never named), and a
``stopped`` line ends its run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import importlib.metadata
import logging
import sys
import typing
from collections.abc import Sequence
from typing import Final

from pydantic.fields import FieldInfo
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.config import CONFIG_ERROR_EXIT, Settings, load_settings
from bot.storage.connect import check_usable, misconfigured, redact, redis_client
from bot.storage.keys import Keys, adopt_keys

STARTUP_ERROR_EXIT = 1
DISTRIBUTION: Final = "durak-bot"
# Where aiogram sends requests when TELEGRAM_API_URL is unset.
TELEGRAM_API: Final = "https://api.telegram.org"
# What to do about a Redis out of reach (README.md has the section).
REDIS_HELP: Final = (
    "start a Redis there, or unset REDIS_URL and let scripts/run-bot start one of its own "
    "(README.md, section Redis)"
)

log = logging.getLogger("bot")


def version() -> str:
    """The installed distribution's version (an editable install counts)."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed)"


def _default(field: FieldInfo) -> str:
    if field.is_required():
        return "(required)"
    if field.default is None:
        return "(unset)"
    return str(field.default)


def settings_help() -> str:
    """Every setting of ``Settings``, its environment name and its default, a line each
    (and a Literal's choices): what ``--help`` shows after the options."""
    fields = Settings.model_fields
    width = max(len(name) for name in fields) + 2
    lines = ["settings (environment variable, default):"]
    for name, field in fields.items():
        line = f"  {name.upper():<{width}}{_default(field)}"
        if typing.get_origin(field.annotation) is typing.Literal:
            line += f"  (one of: {', '.join(map(str, typing.get_args(field.annotation)))})"
        lines.append(line)
    return "\n".join(lines)


def parse_arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """``--help`` and ``--version`` print and exit 0; anything else given exits 2."""
    parser = argparse.ArgumentParser(
        prog="durak-bot",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "Podkidnoy Durak in Telegram group chats. Runs the bot (long polling, or a\n"
            "webhook with BOT_MODE=webhook) until SIGTERM or Ctrl-C. It takes no other\n"
            "arguments: settings come from the environment or from .env in the working\n"
            "folder (an empty value means the default; see .env.example and README.md)."
        ),
        epilog=settings_help(),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    return parser.parse_args(argv)


def starting_line(settings: Settings) -> tuple[str, dict[str, str]]:
    """The ``starting`` log line's message and extras: nothing secret (the token is in no
    address the bot logs; a password in REDIS_URL or TELEGRAM_API_URL is masked)."""
    return "starting", {
        "version": version(),
        "mode": settings.bot_mode,
        "redis": redact(settings.redis_url),
        "bot_api": redact(settings.telegram_api_url or TELEGRAM_API),
    }


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
        return _fail(f"cannot reach Redis at {where} ({str(error).rstrip('.')}): {REDIS_HELP}")
    return _fail(f"Redis at {where} cannot serve the bot: {error}")


async def _connect_redis(settings: Settings) -> Redis:
    try:
        redis = redis_client(settings.redis_url, max_connections=settings.redis_connections)
    except ValueError as error:
        raise _fail(f"REDIS_URL is not a Redis URL: {error}", CONFIG_ERROR_EXIT) from None
    try:
        await check_usable(redis, Keys(settings.redis_namespace).probe())
        await adopt_keys(redis, settings.redis_prefix, settings.bot_id)
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
    # Only now: a failure before this point is its one line (the module docstring).
    message, extras = starting_line(settings)
    log.info(message, extra=extras)
    try:
        await run(app, games)
    finally:
        log.info("stopped")


def new_event_loop() -> asyncio.AbstractEventLoop:
    """uvloop's event loop where it is installed (Linux and macOS: a dependency there),
    asyncio's own elsewhere. Much of the bot's CPU goes to round trips (to Redis, to the
    pages' sockets, to Telegram), and uvloop makes each of them cheaper."""
    try:
        import uvloop  # noqa: PLC0415
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def main(argv: Sequence[str] | None = None) -> None:
    parse_arguments(argv)
    with (
        contextlib.suppress(KeyboardInterrupt),
        asyncio.Runner(loop_factory=new_event_loop) as runner,
    ):
        runner.run(_main())


if __name__ == "__main__":
    main()
