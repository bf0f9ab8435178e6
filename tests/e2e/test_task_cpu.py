"""The load benchmark's CPU count per task (``tests.e2e.task_cpu``): a task's CPU is
charged to it, and nothing is counted before SIGUSR1's ``start`` or after the dump."""

from __future__ import annotations

import asyncio
import gc
import json
import time
from pathlib import Path

from tests.e2e.task_cpu import Counter, install, report


async def _busy(seconds: float) -> None:
    await asyncio.sleep(0)
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


async def _idle() -> None:
    await asyncio.sleep(0.05)


def test_a_tasks_cpu_is_charged_to_it(tmp_path: Path) -> None:
    counter = Counter()
    uninstall = install(counter)
    try:

        async def main() -> None:
            await asyncio.gather(_busy(0.01), _idle())  # before ``start``: not counted
            counter.start()
            await asyncio.gather(_busy(0.05), _idle())
            gc.collect()
            counter.dump(tmp_path / "cpu.json")
            await _busy(0.02)  # after the dump: not counted

        asyncio.run(main())
    finally:
        uninstall()
    spent = json.loads((tmp_path / "cpu.json").read_text())["spent"]
    busy = spent["task _busy | -"]
    assert 0.05 <= busy[0] < 0.07
    assert busy[1] == 2  # its two steps: up to ``sleep(0)``, and the busy one
    assert spent["task _idle | -"][0] < 0.01
    assert any(key.startswith("gc generation 2") for key in spent)
    table = report(tmp_path / "cpu.json", moves=10)
    tasks = [line for line in table.splitlines()[2:] if "  task " in line]
    assert tasks[0].endswith("task _busy | -")  # the tasks ranked by their CPU
