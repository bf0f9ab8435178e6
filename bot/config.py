"""The bot's settings, read from the environment and ``.env`` (see ``.env.example``).

``load_settings()`` turns a missing or malformed setting into one line on stderr and exit
code 2, so a misconfigured container says what is wrong instead of printing a traceback.
"""

from __future__ import annotations

import re
import sys
from typing import Literal
from urllib.parse import unquote, urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.storage.connect import check_redis_url
from bot.storage.keys import namespace

CONFIG_ERROR_EXIT = 2

_TOKEN_RE = re.compile(r"\A\d{3,20}:[A-Za-z0-9_-]{30,50}\Z")
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_SECRET_RE = re.compile(r"\A[A-Za-z0-9_-]{1,256}\Z")
_DB_RE = re.compile(r"\A/?(?:[0-9]{1,5}/?)?\Z")


class Settings(BaseSettings):
    """Every setting of the bot; environment names are the field names in upper case."""

    # An empty value (``METRICS_LISTEN=``, as ``.env.example`` leaves the optional ones)
    # means the default, whether it comes from the environment or from ``.env``.
    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
        env_ignore_empty=True,
    )

    bot_token: SecretStr
    redis_url: str = "redis://localhost:6379/0"
    redis_prefix: str = Field(default="durak", pattern=r"^[A-Za-z0-9_.:-]{1,64}$")
    telegram_api_url: str | None = None
    default_language: Literal["ru", "uk"] = "ru"
    log_level: str = "INFO"
    log_format: Literal["text", "json"] = "text"
    # Seconds a player has per decision in chats that did not choose (RULES.md §2); 0 = off.
    default_turn_timeout: int = Field(default=60, ge=0, le=3600)
    # Finished games are kept this long (seconds) for "Play again", then expire.
    finished_game_ttl: int = Field(default=86_400, ge=60)
    # A lobby or game nobody touches for this long (seconds) expires.
    idle_game_ttl: int = Field(default=7 * 86_400, ge=600)
    # A finished game's record (its seed, replay and reviews) is kept this many days.
    records_days: int = Field(default=30, ge=1, le=3650)
    # Sends + edits the bot allows itself per group and minute (Telegram allows about 20).
    group_messages_per_minute: int = Field(default=19, ge=2, le=60)
    # Sends + edits the bot allows itself per second over all chats (Telegram: about 30).
    messages_per_second: float = Field(default=25.0, gt=0)
    # Updates handled at once; more wait in Telegram's queue (Redis connections: twice this).
    max_concurrent_updates: int = Field(default=100, ge=1, le=10_000)
    # Computer players: the pause before each move (seconds, so people can follow), the
    # time a "hard" one thinks (ms; less when many wait), decisions started per second at
    # most (tables in turn; more wait), and processes for the "hard" search (0: a thread
    # of this process).
    ai_pause: float = Field(default=1.5, ge=0, le=30)
    ai_budget_ms: int = Field(default=300, ge=20, le=10_000)
    ai_decisions_per_second: float = Field(default=50.0, gt=0)
    ai_processes: int = Field(default=1, ge=0, le=64)
    # Processes that make the reviews of finished games («Разбор»), at the lowest CPU
    # priority, after the computers' waiting moves (0: a thread of this process).
    review_processes: int = Field(default=1, ge=0, le=16)
    # How updates arrive: long polling (one process per token), or a webhook that Telegram
    # calls at WEBHOOK_URL (HTTPS on 443, 80, 88 or 8443, usually through a reverse proxy)
    # with WEBHOOK_SECRET in a header; the bot listens on WEBHOOK_LISTEN (host:port).
    bot_mode: Literal["polling", "webhook"] = "polling"
    webhook_url: str | None = None
    webhook_secret: SecretStr | None = None
    webhook_listen: str | None = "0.0.0.0:8080"
    # Prometheus metrics at /metrics and a health check at /healthz, on this host:port;
    # empty: off.
    metrics_listen: str | None = None
    # The Mini App (a drawn table in Telegram, bot/webapp): served on WEBAPP_LISTEN
    # (host:port), public at WEBAPP_URL (HTTPS, through the operator's proxy); empty: off.
    # WEBAPP_SHORT_NAME: the app's short name registered with @BotFather (/newapp), for the
    # link button under a group's table. A page's Telegram sign-in (initData) is accepted
    # for WEBAPP_INIT_MAX_AGE seconds after Telegram issued it. A page silent for
    # WEBAPP_IDLE_SECONDS counts as idle: its player's hand message in private catches up
    # (a visible page says «here» three times as often; less idle time, more «here»s).
    webapp_url: str | None = None
    webapp_listen: str | None = None
    webapp_short_name: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_]{3,30}$")
    webapp_init_max_age: int = Field(default=86_400, ge=60, le=30 * 86_400)
    webapp_idle_seconds: int = Field(default=60, ge=1, le=3600)

    @property
    def bot_id(self) -> int:
        """The bot's id: the number before the colon in its token."""
        return int(self.bot_token.get_secret_value().split(":", 1)[0])

    @property
    def redis_namespace(self) -> str:
        """The bot's own part of Redis: ``REDIS_PREFIX`` and its id (``bot.storage.keys``)."""
        return namespace(self.redis_prefix, self.bot_id)

    @property
    def redis_connections(self) -> int:
        """Every update being handled, plus the outbox and the turn clock, may hold one."""
        return 2 * self.max_concurrent_updates + 20

    @field_validator("bot_token")
    @classmethod
    def _token_format(cls, value: SecretStr) -> SecretStr:
        if not value.get_secret_value().strip():
            raise ValueError("BOT_TOKEN is empty: put the token from @BotFather in it")
        if not _TOKEN_RE.match(value.get_secret_value().strip()):
            raise ValueError(
                "BOT_TOKEN does not look like a bot token (digits, a colon, about 35 "
                "characters; get one from @BotFather)"
            )
        return SecretStr(value.get_secret_value().strip())

    @field_validator("redis_url")
    @classmethod
    def _redis_url(cls, value: str) -> str:
        value = value.strip()
        check_redis_url(value)  # its ValueError never repeats a password
        _check_database(value)
        return value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in _LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}")
        return level

    @field_validator("webhook_listen", "metrics_listen", "webapp_listen")
    @classmethod
    def _host_port(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        host, sep, port = value.strip().rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"{value!r} is not host:port (for example 0.0.0.0:8080)")
        return value.strip()

    @field_validator("webhook_secret")
    @classmethod
    def _secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value():
            return None
        if not _SECRET_RE.match(value.get_secret_value()):
            raise ValueError(
                "WEBHOOK_SECRET must be 1 to 256 characters of A-Z, a-z, 0-9, _ and - "
                "(Telegram's rule for the secret token)"
            )
        return value

    @model_validator(mode="after")
    def _webhook_complete(self) -> Settings:
        if self.bot_mode == "webhook":
            # Telegram calls only https://; a local Bot API server (TELEGRAM_API_URL) also http.
            schemes = ("https://", "http://") if self.telegram_api_url else ("https://",)
            if not self.webhook_url or not self.webhook_url.startswith(schemes):
                raise ValueError("BOT_MODE=webhook needs WEBHOOK_URL, an https:// address")
            if self.webhook_secret is None:
                raise ValueError("BOT_MODE=webhook needs WEBHOOK_SECRET (Telegram sends it back)")
            if self.webhook_listen is None:
                raise ValueError("BOT_MODE=webhook needs WEBHOOK_LISTEN (host:port)")
        if self.webapp_url is not None:
            # Telegram opens only https:// pages; a local Bot API server (tests) also http.
            schemes = ("https://", "http://") if self.telegram_api_url else ("https://",)
            if not self.webapp_url.startswith(schemes):
                raise ValueError("WEBAPP_URL must be an https:// address")
            if self.webapp_listen is None:
                raise ValueError("WEBAPP_URL needs WEBAPP_LISTEN (host:port to serve it on)")
        return self

    @field_validator("telegram_api_url")
    @classmethod
    def _api_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")):
            raise ValueError("TELEGRAM_API_URL must start with http:// or https://")
        return value


def _check_database(url: str) -> None:
    """ValueError unless the database a ``redis://`` or ``rediss://`` URL names (its path)
    is a number or absent: redis-py would silently use database 0 for ``/abc``."""
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("redis", "rediss"):
        return  # unix:// has a socket path; Sentinel URLs are checked by check_redis_url
    if not _DB_RE.match(unquote(parts.path)):
        raise ValueError(
            f"the database must be a number after the host, as in redis://localhost:6379/0 "
            f"(not {parts.path!r})"
        )


def describe_error(error: ValidationError) -> str:
    """The first problem of ``error`` as one line naming the environment variable."""
    first = error.errors()[0]
    name = str(first["loc"][0]).upper() if first["loc"] else "settings"
    if first["type"] == "missing":
        return f"{name} is not set: put it in the environment or in .env"
    message = str(first["msg"]).removeprefix("Value error, ")
    if name in message:
        return message
    return f"{name}: {message}"


def load_settings() -> Settings:
    """The settings, or one line on stderr and ``SystemExit(2)``."""
    try:
        return Settings()
    except ValidationError as error:
        print(f"durak-bot: configuration error: {describe_error(error)}", file=sys.stderr)
        raise SystemExit(CONFIG_ERROR_EXIT) from None
