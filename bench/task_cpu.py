"""Where the bot's CPU goes, step by step of its event loop, in CPU time (the load
benchmark's ``--task-cpu OUT``).

Sampling profilers mislead here: py-spy counts a stack waiting for a core as busy, and cProfile
triples the CPU of the many small calls it times. This counts exactly what the process
spends: every callback the event loop runs is timed with the thread's CPU clock, and
charged to

* for a task's step: the task (its coroutine), the place in the bot's own code where the
  task had waited (the innermost frame under ``bot/`` in its chain of awaits) and the
  place where it waits next (``done`` if it ended), so ``task Lane._deliver |
  telegram_session.py:TelegramSession.make_request -> storage/outbox.py:SentStore.save`` is
  the work a table's delivery does once Telegram answered, up to its next wait;
* any other callback (a socket ready to read, a timer): the callback;
* the garbage collector (by generation) and the wait for sockets (``selector select``),
  which run outside callbacks, each on its own line.

Run as ``python -m bench.task_cpu`` in place of ``python -m bot``: it runs the bot on
asyncio's own event loop (uvloop's callbacks are C and cannot be timed one by one, so the
loop's own lines here cost more than under uvloop; the bot's code costs the same),
counts from SIGUSR1 and writes what it counted to ``$TASK_CPU_OUT`` (JSON) on SIGUSR2.
``report`` turns that into a table per move.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import selectors
import signal
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

OUT_ENV = "TASK_CPU_OUT"
BOT_CODE = f"{os.sep}bot{os.sep}"


class Tally:
    """CPU seconds and occurrences by what spent them, while ``on``."""

    def __init__(self, clock: Callable[[], float] = time.thread_time) -> None:
        self.clock = clock
        self.on = False
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.counts: defaultdict[str, int] = defaultdict(int)
        self.started_cpu = 0.0

    def start(self) -> None:
        self.seconds.clear()
        self.counts.clear()
        self.started_cpu = time.process_time()
        self.on = True

    def add(self, key: str, seconds: float) -> None:
        self.seconds[key] += seconds
        self.counts[key] += 1

    def dump(self, path: Path) -> None:
        self.on = False
        spent = {key: [self.seconds[key], self.counts[key]] for key in self.seconds}
        data = {"process_cpu": time.process_time() - self.started_cpu, "spent": spent}
        path.write_text(json.dumps(data))


def callback_key(handle: asyncio.Handle) -> tuple[str, asyncio.Task[Any] | None]:
    """What a callback's CPU is charged to (see the module's docstring), and its task if it
    is a task's step (whose next wait completes the key: ``step_end``)."""
    callback = handle._callback  # type: ignore[attr-defined]
    task = getattr(callback, "__self__", None)
    if isinstance(task, asyncio.Task):
        coro = task.get_coro()
        name = getattr(coro, "__qualname__", type(coro).__name__)
        return f"task {name} | {_waited_in(coro)}", task
    name = getattr(callback, "__qualname__", None) or type(callback).__qualname__
    return f"callback {getattr(callback, '__module__', '')}.{name}", None


def step_end(task: asyncio.Task[Any]) -> str:
    """Where a task's step ended: the place it waits at now, or ``done``."""
    return "done" if task.done() else _waited_in(task.get_coro())


def _waited_in(coro: Any) -> str:
    """The innermost frame of the bot's own code in a coroutine's chain of awaits."""
    found = "-"
    while coro is not None:
        frame: FrameType | None = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is not None and BOT_CODE in frame.f_code.co_filename:
            path = frame.f_code.co_filename.rsplit(BOT_CODE, 1)[1]
            found = f"{path}:{frame.f_code.co_qualname}"
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return found


def install(tally: Tally) -> Callable[[], None]:
    """Time every callback of asyncio's loop, the collector and the selector's waits; the
    function returned puts them back as they were."""
    run = asyncio.events.Handle._run
    clock = tally.clock

    def timed_run(handle: asyncio.Handle) -> None:
        if not tally.on:
            return run(handle)
        key, task = callback_key(handle)
        started = clock()
        try:
            return run(handle)
        finally:
            spent = clock() - started
            tally.add(key if task is None else f"{key} -> {step_end(task)}", spent)

    asyncio.events.Handle._run = timed_run  # type: ignore[method-assign,assignment]

    select = selectors.EpollSelector.select

    def timed_select(selector: selectors.EpollSelector, timeout: float | None = None) -> Any:
        started = clock()
        try:
            return select(selector, timeout)
        finally:
            if tally.on:
                tally.add("selector select", clock() - started)

    selectors.EpollSelector.select = timed_select  # type: ignore[method-assign,assignment]

    collecting = [0.0]

    def timed_collection(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting[0] = clock()
        elif tally.on:
            tally.add(f"gc generation {info['generation']}", clock() - collecting[0])

    gc.callbacks.append(timed_collection)

    def uninstall() -> None:
        asyncio.events.Handle._run = run  # type: ignore[method-assign]
        selectors.EpollSelector.select = select  # type: ignore[method-assign]
        gc.callbacks.remove(timed_collection)

    return uninstall


def report(path: Path, moves: int, top: int = 30) -> str:
    """The table of what ``path`` counted, per move. A collection during a callback is
    counted in both, so the lines add up to a little more than the process's CPU."""
    data = json.loads(path.read_text())
    spent: dict[str, list[float]] = data["spent"]
    process = data["process_cpu"]
    per = max(moves, 1)
    outside = sum(s for key, (s, _) in spent.items() if key.startswith(("gc ", "selector")))
    inside = sum(s for key, (s, _) in spent.items() if key.startswith(("task ", "callback ")))
    lines = [
        f"bot CPU {process:.2f} s over {moves} moves: {process * 1000 / per:.3f} ms a move; "
        f"callbacks {inside / process:.0%}, collector and selector {outside / process:.0%}, "
        f"the rest (the loop between callbacks, other threads) "
        f"{(process - inside - outside) / process:.0%} (collections inside callbacks count twice)",
        f"{'ms/move':>8} {'share':>6} {'n/move':>7} {'µs each':>8}  charged to",
    ]
    ranked = sorted(spent.items(), key=lambda item: -item[1][0])
    for key, (seconds, count) in ranked[:top]:
        lines.append(
            f"{seconds * 1000 / per:8.3f} {seconds / process:6.1%} {count / per:7.2f} "
            f"{seconds / max(count, 1) * 1e6:8.0f}  {key}"
        )
    return "\n".join(lines)


def main() -> None:
    sys.modules["uvloop"] = None  # type: ignore[assignment]  # asyncio's loop: see above
    out = Path(os.environ[OUT_ENV])
    tally = Tally()
    install(tally)
    signal.signal(signal.SIGUSR1, lambda *_: tally.start())
    signal.signal(signal.SIGUSR2, lambda *_: tally.dump(out))
    from bot.__main__ import main as run_bot  # noqa: PLC0415 (after uvloop is set aside)

    run_bot()


if __name__ == "__main__":
    main()
