"""Settings: a missing or malformed setting is one clear line and exit code 2; an
unreachable Redis is one line and a non-zero exit; no traceback either way."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.config import Settings, load_settings

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
