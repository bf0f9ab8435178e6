"""``durak-bot`` and ``python -m bot`` as a person meets them: ``--help`` and ``--version``
answer without starting the bot (no token, no Redis needed), any other argument is an
error, and a bot that runs says ``starting`` (with no secret in it) and ``stopped``."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.config import Settings
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.harness import BotProcess, free_port

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "123456789:AAFakeTokenForDurakBotEndToEndTests"
OURS = {name.upper() for name in Settings.model_fields}


def environment(**ours: str) -> dict[str, str]:
    """This process's environment without any of the bot's settings, then ``ours``."""
    clean = {k: v for k, v in os.environ.items() if k.upper() not in OURS}
    return {**clean, "PYTHONPATH": str(ROOT), **ours}


def bot(folder: Path, *args: str, **ours: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=folder,
        env=environment(**ours),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def unreachable_redis() -> str:
    return f"redis://127.0.0.1:{free_port()}/0"


def test_help_lists_every_setting_with_its_default_and_starts_nothing(tmp_path: Path) -> None:
    # A token and an unreachable Redis: a bot that started would fail with exit code 1.
    result = bot(tmp_path, "--help", BOT_TOKEN=TOKEN, REDIS_URL=unreachable_redis())
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.startswith("usage: durak-bot")
    listed = {
        line.split()[0]: line.split(maxsplit=1)[1]
        for line in result.stdout.partition("settings (environment variable, default):")[2]
        .strip()
        .splitlines()
    }
    assert set(listed) == OURS
    assert listed["BOT_TOKEN"] == "(required)"
    assert listed["REDIS_URL"] == "redis://localhost:6379/0"
    assert listed["AI_PAUSE"] == "1.5"
    assert listed["WEBHOOK_LISTEN"] == "0.0.0.0:8080"
    assert listed["METRICS_LISTEN"] == "(unset)"
    assert listed["BOT_MODE"] == "polling  (one of: polling, webhook)"


def test_help_needs_no_settings_at_all(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("BOT_TOKEN=not-a-token\nREDIS_URL=nonsense\n")
    result = bot(tmp_path, "-h")
    assert result.returncode == 0, result.stderr
    assert "BOT_TOKEN" in result.stdout


def test_version_is_the_installed_one_and_starts_nothing(tmp_path: Path) -> None:
    result = bot(tmp_path, "--version", BOT_TOKEN=TOKEN, REDIS_URL=unreachable_redis())
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"durak-bot {importlib.metadata.version('durak-bot')}\n"


def test_the_installed_command_answers_version_too(tmp_path: Path) -> None:
    command = Path(sys.executable).parent / "durak-bot"
    result = subprocess.run(
        [command, "--version"],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("durak-bot ")


@pytest.mark.parametrize("args", [["start"], ["--token", TOKEN], ["-v"]])
def test_an_unknown_argument_is_an_error_and_starts_nothing(
    tmp_path: Path, args: list[str]
) -> None:
    result = bot(tmp_path, *args, BOT_TOKEN=TOKEN, REDIS_URL=unreachable_redis())
    assert result.returncode == 2
    assert "unrecognized arguments" in result.stderr
    assert "Redis" not in result.stderr


def test_an_unreachable_redis_says_what_to_do(tmp_path: Path) -> None:
    result = bot(tmp_path, BOT_TOKEN=TOKEN, REDIS_URL=unreachable_redis())
    assert result.returncode == 1
    assert "unset REDIS_URL" in result.stderr
    assert "README.md, section Redis" in result.stderr
    assert "\n### Redis\n" in (ROOT / "README.md").read_text()


def with_password(url: str, user: str, password: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=f"{user}:{password}@{parts.netloc}"))


async def test_the_starting_line_names_where_the_bot_talks_without_secrets(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    """Redis's default user takes any password (it has none), so the bot runs with one in
    REDIS_URL; the Bot API's address carries one too. Neither, nor the token, is logged."""
    redis_password = "redis-hunter2"
    api_password = "api-hunter2"
    async with FakeTelegram() as fake:
        api = with_password(fake.base_url, "operator", api_password)
        redis_with_password = with_password(redis_url, "default", redis_password)
        running = BotProcess(
            fake, redis_with_password, redis_prefix, tmp_path, TELEGRAM_API_URL=api
        )
        await running.start()  # until it polls
        assert await running.stop() == 0
        output = running.log()
    [starting] = [line for line in output.splitlines() if " starting " in line]
    version = importlib.metadata.version("durak-bot")
    redis_shown = with_password(redis_url, "default", "***")
    api_shown = with_password(fake.base_url, "operator", "***")
    assert starting.endswith(
        f" starting version={version} mode=polling redis={redis_shown} bot_api={api_shown}"
    ), starting
    assert output.splitlines()[-1].endswith(" stopped"), output
    for secret in (fake.token, fake.token.partition(":")[2], redis_password, api_password):
        assert secret not in output
