"""Failures at start: a missing or malformed setting, or a Redis that refuses the settings
(password, user, its rights, db number), is one clear line and exit code 2; a Redis that is
unreachable, full or read-only is one line and exit code 1; no traceback either way. The
Redis servers are real ones of the test's own; the Bot API is the fake, so that a bot that
got past Redis would find Telegram."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from pydantic import SecretStr
from redis.asyncio import Redis
from redis.exceptions import OutOfMemoryError

from bot.config import Settings, load_settings
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.harness import RedisServer, free_port

TOKEN = "123456789:AAFakeTokenForDurakBotEndToEndTests"
OUR_VARIABLES = (
    "BOT_TOKEN",
    "REDIS_URL",
    "REDIS_PREFIX",
    "TELEGRAM_API_URL",
    "DEFAULT_LANGUAGE",
    "LOG_LEVEL",
    "LOG_FORMAT",
    "DEFAULT_TURN_TIMEOUT",
)


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` in an empty folder (no .env) with only ``env`` of our settings."""
    clean = {k: v for k, v in os.environ.items() if k.upper() not in OUR_VARIABLES}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**clean, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def assert_one_line(result: subprocess.CompletedProcess[str], *words: str) -> None:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0]


def test_missing_token_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = run_bot(tmp_path)
    assert result.returncode == 2
    assert_one_line(result, "BOT_TOKEN", "not set")


@pytest.mark.parametrize(
    "token",
    ["abc", "123456789", "123456789:short", ":AAFakeTokenForDurakBotEndToEndTests", "x" * 50],
)
def test_malformed_token_is_one_line_and_exit_2(tmp_path: Path, token: str) -> None:
    result = run_bot(tmp_path, BOT_TOKEN=token)
    assert result.returncode == 2
    assert_one_line(result, "BOT_TOKEN")
    assert token not in result.stderr or len(token) < 10  # the secret is not echoed


def test_token_from_dotenv_is_checked_too(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("BOT_TOKEN=not-a-token\n")
    result = run_bot(tmp_path)
    assert result.returncode == 2
    assert_one_line(result, "BOT_TOKEN")


def test_other_malformed_setting_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = run_bot(tmp_path, BOT_TOKEN=TOKEN, DEFAULT_LANGUAGE="en")
    assert result.returncode == 2
    assert_one_line(result, "DEFAULT_LANGUAGE")


def test_unreachable_redis_is_one_line_and_a_non_zero_exit(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = run_bot(tmp_path, BOT_TOKEN=TOKEN, REDIS_URL=f"redis://127.0.0.1:{port}/0")
    assert result.returncode == 1
    assert_one_line(result, "Redis", str(port))


def test_defaults_and_normalisation(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    for name in OUR_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BOT_TOKEN", f" {TOKEN} ")
    monkeypatch.setenv("TELEGRAM_API_URL", "http://127.0.0.1:8081/")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    settings = load_settings()
    assert settings.bot_token == SecretStr(TOKEN)
    assert TOKEN not in repr(settings)
    assert settings.redis_url == "redis://localhost:6379/0"
    assert settings.redis_prefix == "durak"
    assert settings.telegram_api_url == "http://127.0.0.1:8081"
    assert settings.log_level == "DEBUG"
    assert settings.default_language == "ru"
    assert settings.default_turn_timeout == 60
    assert settings.finished_game_ttl == 86_400


def test_load_settings_exits_2_with_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("REDIS_PREFIX", "has space")
    with pytest.raises(SystemExit) as raised:
        load_settings()
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "REDIS_PREFIX" in err


def test_env_example_lists_every_setting() -> None:
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    names = {line.split("=", 1)[0].lstrip("# ") for line in example.splitlines() if "=" in line}
    assert {name.upper() for name in Settings.model_fields} <= names


def test_malformed_redis_url_is_one_line_and_exit_2(tmp_path: Path) -> None:
    url = "redis+sentinel://:hunter2@s1:26379,s2:port/durak/0"
    result = run_bot(tmp_path, BOT_TOKEN=TOKEN, REDIS_URL=url)
    assert result.returncode == 2
    assert_one_line(result, "REDIS_URL", "port")
    assert "hunter2" not in result.stderr


@pytest.mark.parametrize(
    "url",
    [
        "redis://localhost:6379/abc",
        "redis://:hunter2@localhost:6379/-1",
        "rediss://localhost/0/1",
        "redis://localhost:6379/1x",
    ],
)
def test_redis_url_with_a_bad_database_is_one_line_and_exit_2(tmp_path: Path, url: str) -> None:
    """redis-py reads ``/abc`` as no database at all (0): the bot would play in the wrong one."""
    result = run_bot(tmp_path, BOT_TOKEN=TOKEN, REDIS_URL=url)
    assert result.returncode == 2
    assert_one_line(result, "REDIS_URL", "database")
    assert "hunter2" not in result.stderr


@pytest.mark.parametrize(
    "url",
    ["redis://localhost:6379/0", "redis://localhost:6379/", "redis://localhost", "rediss://h/15"],
)
def test_redis_url_with_a_number_or_no_database_is_accepted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, url: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("REDIS_URL", url)
    assert load_settings().redis_url == url


StartRedis = Callable[..., Awaitable[RedisServer]]


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(token=TOKEN) as telegram:
        yield telegram


@pytest.fixture
async def start_redis(tmp_path: Path) -> AsyncIterator[StartRedis]:
    """Start a ``redis-server`` of the test's own with these arguments, once it answers."""
    servers: list[RedisServer] = []

    async def start(*args: str) -> RedisServer:
        workdir = tmp_path / f"redis-{len(servers)}"
        workdir.mkdir()
        server = RedisServer(workdir, args=args)
        servers.append(server)
        server.start()
        await server.wait_ready()
        return server

    try:
        yield start
    finally:
        for server in servers:
            server.stop()


async def start_bot(
    tmp_path: Path, fake: FakeTelegram, redis_url: str
) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` on ``redis_url`` and the fake Bot API, until it exits (in a thread:
    the fake answers on this loop)."""
    return await asyncio.to_thread(
        run_bot, tmp_path, BOT_TOKEN=TOKEN, REDIS_URL=redis_url, TELEGRAM_API_URL=fake.base_url
    )


async def test_a_full_redis_is_one_line_and_exit_1(
    tmp_path: Path, fake: FakeTelegram, start_redis: StartRedis
) -> None:
    server = await start_redis("--maxmemory", "1mb", "--maxmemory-policy", "noeviction")
    client = Redis.from_url(server.url)
    try:
        # Small values, so that what is left when a write is refused is less than any.
        with pytest.raises(OutOfMemoryError):
            for number in range(100_000):
                await client.set(f"filler:{number}", "x" * 100)
        result = await start_bot(tmp_path, fake, server.url)
    finally:
        await client.aclose()
    assert result.returncode == 1
    assert_one_line(result, "Redis", str(server.port), "maxmemory")
    assert fake.calls() == []  # found before Telegram was asked anything


async def test_a_read_only_replica_is_one_line_and_exit_1(
    tmp_path: Path, fake: FakeTelegram, start_redis: StartRedis
) -> None:
    # A replica answers (stale data) while its primary is away, and refuses every write.
    server = await start_redis("--replicaof", "127.0.0.1", str(free_port()))
    result = await start_bot(tmp_path, fake, server.url)
    assert result.returncode == 1
    assert_one_line(result, "Redis", str(server.port), "read only")
    assert fake.calls() == []


@pytest.mark.parametrize(
    ("userinfo", "db", "says"),
    [
        ("", 0, "authenticated"),
        (":wrong", 0, "invalid username-password"),
        ("nobody:s3cret", 0, "invalid username-password"),
        (":s3cret", 5, "DB index is out of range"),
    ],
    ids=["no password", "a wrong password", "an unknown user", "no such db"],
)
async def test_redis_refusing_the_settings_is_one_line_and_exit_2(
    tmp_path: Path,
    fake: FakeTelegram,
    start_redis: StartRedis,
    userinfo: str,
    db: int,
    says: str,
) -> None:
    server = await start_redis("--requirepass", "s3cret", "--databases", "2")
    at = f"{userinfo}@" if userinfo else ""
    result = await start_bot(tmp_path, fake, f"redis://{at}127.0.0.1:{server.port}/{db}")
    assert result.returncode == 2
    assert_one_line(result, "REDIS_URL", str(server.port), says)
    assert "s3cret" not in result.stderr and "wrong" not in result.stderr
    assert fake.calls() == []


async def test_a_redis_error_in_the_start_up_work_is_one_line_too(
    tmp_path: Path, fake: FakeTelegram, start_redis: StartRedis
) -> None:
    """A user that may write the bot's keys (the check at connecting passes) but not run
    scripts: the first script is the start-up lease, after Telegram was reached."""
    acl = ["--user", "durak", "on", ">pw", "~*", "&*", "+@all", "-@scripting"]
    server = await start_redis(*acl)
    result = await start_bot(tmp_path, fake, f"redis://durak:pw@127.0.0.1:{server.port}/0")
    assert result.returncode == 2
    assert_one_line(result, "REDIS_URL", "evalsha")
    assert fake.calls("getMe")  # it got as far as Telegram
    assert fake.calls("setMyCommands") == []
