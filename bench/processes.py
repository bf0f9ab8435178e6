"""The bot's processes under a load benchmark (``bench.load``, chat or Mini App): start
them, read what CPU they and this process used, and record where it went with py-spy."""

from __future__ import annotations

import contextlib
import os
import platform
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.harness import BotProcess, free_port

WEBHOOK_SECRET = "load-secret"
STARTUP = 120.0  # seconds a bot process may take to start, on a machine shared with others


def workers(
    fake: FakeTelegram, url: str, prefix: str, workdir: Path, count: int, env: dict[str, str]
) -> tuple[list[BotProcess], list[str]]:
    """The bot's processes (one polling, or several behind the fake's webhook "proxy", as
    ``tests/e2e/test_workers.py`` runs them) and the addresses of their ``/metrics``."""
    bots, metrics, hooks = [], [], []
    for index in range(count):
        metrics.append(f"127.0.0.1:{free_port()}")
        own = {"METRICS_LISTEN": metrics[-1]}
        if count > 1:
            port = free_port()
            hooks.append(f"http://127.0.0.1:{port}/tg-hook")
            own |= {
                "BOT_MODE": "webhook",
                # What Telegram is told; the fake sends to the workers' own addresses.
                "WEBHOOK_URL": "http://127.0.0.1:8443/tg-hook",
                "WEBHOOK_SECRET": WEBHOOK_SECRET,
                "WEBHOOK_LISTEN": f"127.0.0.1:{port}",
            }
        folder = workdir / f"worker{index}"
        folder.mkdir()
        bots.append(BotProcess(fake, url, prefix, folder, **{**own, **env}))
    fake.webhook.targets = hooks
    return bots, metrics


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_by_pid(pids: list[int]) -> dict[int, float]:
    """The CPU time of each of ``pids`` still running."""
    found = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            found[pid] = cpu_seconds(pid)
    return found


def descendants(pids: list[int]) -> list[int]:
    """The processes started by ``pids`` and by those (Linux ``/proc``): the bot's pool of
    computer players."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(stat.parent.name))
    found, todo = [], list(pids)
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def interpreter() -> str:
    """The Python the bot runs (``harness.BotProcess`` starts it with this process's): its
    build moves every CPU figure: one built without profile-guided optimisation costs the bot
    more CPU a move than one built with it, as the official image's is."""
    built = os.path.realpath(sys.executable)  # the interpreter a venv links to
    return f"{platform.python_implementation()} {platform.python_version()} ({built})"


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def start_py_spy(pid: int, out: Path) -> subprocess.Popen[bytes]:
    """py-spy recording process ``pid`` into ``out`` (raw stacks, ``bench.cpu_profile``
    reads them) until ``stop_py_spy``, without pausing it for each sample (``--nonblocking``:
    a paused bot would answer late, and the figures would measure py-spy). The py-spy on
    PATH, or the one beside this Python (a virtual environment not activated)."""
    beside = Path(sys.executable).with_name("py-spy")
    binary = shutil.which("py-spy") or (str(beside) if beside.exists() else None)
    if binary is None:
        raise SystemExit("--py-spy: no py-spy on PATH (pip install py-spy)")
    return subprocess.Popen(
        [binary, "record", "--pid", str(pid), "--rate", "200", "--format", "raw", "--nonblocking",
         "--output", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip


def stop_py_spy(spy: subprocess.Popen[bytes]) -> None:
    spy.send_signal(signal.SIGINT)
    try:
        spy.wait(30)
    except subprocess.TimeoutExpired:
        spy.kill()
        spy.wait()
