"""The load benchmark's CPU count per task (``bench.task_cpu``): a task's CPU is
charged to it, and nothing is counted before SIGUSR1's ``start`` or after the dump."""

from __future__ import annotations

import asyncio
import gc
import json
import time
from pathlib import Path

from bench.task_cpu import Tally, install, report


async def _busy(go: asyncio.Event, done: asyncio.Event, seconds: float) -> None:
    """Waits for ``go`` (its first step), then spends ``seconds`` of CPU (its second)."""
    await go.wait()
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass
    done.set()


async def _idle(go: asyncio.Event, done: asyncio.Event) -> None:
    """Lets ``_busy`` go (it runs after ``_busy``'s first step) and waits for it to finish:
    two steps with next to no CPU."""
    go.set()
    await done.wait()


async def _both(seconds: float) -> None:
    go, done = asyncio.Event(), asyncio.Event()
    await asyncio.gather(_busy(go, done, seconds), _idle(go, done))


async def _alone(seconds: float) -> None:
    go = asyncio.Event()
    go.set()
    await _busy(go, asyncio.Event(), seconds)


def test_a_tasks_cpu_is_charged_to_it(tmp_path: Path) -> None:
    tally = Tally()
    uninstall = install(tally)
    try:

        async def main() -> None:
            await _both(0.01)  # before ``start``: not counted
            tally.start()
            await _both(0.05)
            gc.collect()
            tally.dump(tmp_path / "cpu.json")
            await _alone(0.02)  # after the dump: not counted

        asyncio.run(main())
    finally:
        uninstall()
    spent = json.loads((tmp_path / "cpu.json").read_text())["spent"]
    # Its two steps: up to ``go``, and the busy one, to its end.
    assert spent["task _busy | - -> -"][1] == 1
    busy = spent["task _busy | - -> done"]
    assert 0.05 <= busy[0] < 0.07 and busy[1] == 1
    assert spent["task _idle | - -> -"][0] + spent["task _idle | - -> done"][0] < 0.01
    assert any(key.startswith("gc generation 2") for key in spent)
    table = report(tmp_path / "cpu.json", moves=10)
    tasks = [line for line in table.splitlines()[2:] if "  task " in line]
    assert tasks[0].endswith("task _busy | - -> done")  # the steps ranked by their CPU
