"""``scripts/private-redis``, which ``scripts/run-bot`` runs the bot with: no REDIS_URL (in
the environment or in ``.env``) gets the command a redis-server of its own on a Unix socket
in ``.data/`` with an append-only file, stopped after the command, also when the command is
stopped by SIGTERM or Ctrl-C; a REDIS_URL set is used and nothing else is started.

The command here is a small Python program in place of the bot (which needs Telegram): it
reports what it got and, when stopped by a signal, writes to that Redis once more, as the
bot does while it stops gracefully."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "private-redis"

pytestmark = pytest.mark.skipif(
    not (shutil.which("redis-server") and shutil.which("redis-cli")),
    reason="needs redis-server and redis-cli (scripts/test installs Debian's redis-server)",
)

# What the command reports: the REDIS_URL it was given and, when there is one, how that
# server is set up; it stores a mark, and exits with code 3.
REPORT = """
import json, os, sys, redis
url = os.environ.get("REDIS_URL")
found = {"url": url}
if url:
    client = redis.Redis.from_url(url, decode_responses=True)
    for name in ("port", "appendonly", "dir"):
        found[name] = client.config_get(name)[name]
    found["mark before"] = client.get("mark")
    client.set("mark", "kept")
print(json.dumps(found))
sys.exit(3)
"""

# Waits to be stopped; stopping, it writes to its Redis (as the bot sends what is pending).
STOPPABLE = """
import os, signal, sys, time, redis
client = redis.Redis.from_url(os.environ["REDIS_URL"])
def stop(number, frame):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    time.sleep(0.5)
    client.set("stopped by", signal.Signals(number).name)
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
print("ready", flush=True)
time.sleep(60)
sys.exit(1)
"""

ECHO = """
import os, sys
print(os.environ.get("REDIS_URL") or os.environ.get("redis_url"))
sys.exit(3)
"""

STOPPED_BY = """
import os, sys, redis
print(redis.Redis.from_url(os.environ["REDIS_URL"]).get("stopped by").decode())
sys.exit(3)
"""


def environment(**ours: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if k.upper() != "REDIS_URL"}
    return {**clean, **ours}


def run(folder: Path, program: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SCRIPT, sys.executable, "-c", program],
        cwd=folder,
        env=environment(**env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def report(result: subprocess.CompletedProcess[str]) -> dict[str, str | None]:
    assert result.returncode == 3, result.stderr
    found: dict[str, str | None] = json.loads(result.stdout)
    return found


def test_without_redis_url_the_command_gets_a_private_redis_that_keeps_its_data(
    tmp_path: Path,
) -> None:
    socket_path = tmp_path / ".data" / "redis.sock"
    first = run(tmp_path, REPORT)
    found = report(first)
    assert found["url"] == f"unix://{socket_path}?db=0"
    assert found["port"] == "0"  # no TCP port: the socket only
    assert found["appendonly"] == "yes"
    assert found["dir"] == str(tmp_path / ".data")
    assert found["mark before"] is None
    assert "starting a private redis-server" in first.stderr
    assert len(first.stderr.strip().splitlines()) == 1, first.stderr
    assert not socket_path.exists()  # stopped with the command

    again = report(run(tmp_path, REPORT))
    assert again["mark before"] == "kept"  # the append-only file brought it back


@pytest.mark.parametrize("dotenv", ["", "REDIS_URL=\n", "# REDIS_URL=redis://localhost:6379/0\n"])
def test_an_empty_or_commented_redis_url_counts_as_unset(tmp_path: Path, dotenv: str) -> None:
    (tmp_path / ".env").write_text(dotenv)
    found = report(run(tmp_path, REPORT, REDIS_URL=""))
    assert found["url"] == f"unix://{tmp_path / '.data' / 'redis.sock'}?db=0"


@pytest.mark.parametrize("name", ["REDIS_URL", "redis_url"])
def test_a_redis_url_in_the_environment_is_used_and_nothing_else(tmp_path: Path, name: str) -> None:
    # Not reachable, and not tried: the command gets it as it is.
    result = run(tmp_path, ECHO, **{name: "redis://127.0.0.1:1/0"})
    assert result.returncode == 3, result.stderr
    assert result.stdout == "redis://127.0.0.1:1/0\n"
    assert result.stderr == ""
    assert not (tmp_path / ".data").exists()


@pytest.mark.parametrize("line", ["REDIS_URL=redis://127.0.0.1:1/0", 'redis_url="unix:///x.sock"'])
def test_a_redis_url_in_dotenv_is_left_to_the_bot(tmp_path: Path, line: str) -> None:
    """The bot reads ``.env`` itself: the command gets no REDIS_URL of the script's."""
    (tmp_path / ".env").write_text(f"BOT_TOKEN=x\n{line}\n")
    found = report(run(tmp_path, REPORT))
    assert found == {"url": None}
    assert not (tmp_path / ".data").exists()


@pytest.mark.parametrize("how", ["SIGTERM to the script", "Ctrl-C"])
def test_a_stop_reaches_the_command_first_and_the_private_redis_after_it(
    tmp_path: Path, how: str
) -> None:
    """Ctrl-C in a terminal sends SIGINT to its whole foreground process group (the script
    and the command, never the server, in a session of its own)."""
    with subprocess.Popen(
        [SCRIPT, sys.executable, "-c", STOPPABLE],
        cwd=tmp_path,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    ) as process:
        try:
            assert process.stdout is not None
            assert process.stdout.readline() == "ready\n"
            if how == "Ctrl-C":
                os.killpg(process.pid, signal.SIGINT)
            else:
                process.send_signal(signal.SIGTERM)
            assert process.wait(30) == 0
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    socket_path = tmp_path / ".data" / "redis.sock"
    assert not socket_path.exists()
    client = redis.Redis(unix_socket_path=str(socket_path))
    with pytest.raises(redis.ConnectionError):
        client.ping()
    client.close()
    # What the command wrote while it stopped reached the server before it stopped.
    kept = run(tmp_path, STOPPED_BY)
    assert kept.returncode == 3, kept.stderr
    assert kept.stdout.strip() in ("SIGTERM", "SIGINT")
