"""Where a process's CPU went, from py-spy's ``--format raw`` output (one line per distinct
stack: ``frame;frame;...;leaf COUNT``, a frame being ``function (path/file.py:line)``):

    .venv/bin/python -m bench.cpu_profile profile.txt

Two views of the same samples:

* **buckets**, which add up to 100 %: each sample goes to the innermost frame of the stack
  that belongs to a part of the program (``BUCKETS``); frames of general-purpose libraries
  (pydantic, json, typing, enum, re, ...) count for their caller, so pydantic validating a
  Bot API response counts for aiogram's response check and ``json.loads`` of a game counts
  for the storage;
* **inclusive**: the share of samples with at least one frame of a part anywhere in the
  stack (these overlap: Fluent is inside rendering).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable

_FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^()]*?)(?::\d+)?\)$")

Frame = tuple[str, str]  # function, file
Rule = tuple[str, Callable[[str, str], bool]]


def _under(*prefixes: str) -> Callable[[str, str], bool]:
    return lambda _func, file: file.startswith(prefixes)


# Fluent's files show as ``runtime/...`` (``fluent`` is a namespace package); Babel is its
# plural rules and number formatting.
_FLUENT = ("fluent/", "runtime/", "babel/", "<attrs generated methods fluent.")

# The first rule a frame matches names its part; a frame no rule matches is transparent:
# asyncio's streams, transports, timeouts and tasks count for whoever uses them, only the
# loop itself (running callbacks, polling sockets, timers) is the event loop.
BUCKETS: tuple[Rule, ...] = (
    ("render: Fluent", _under(*_FLUENT)),
    ("render: views", _under("bot/ui/", "bot/delivery/drafts.py", "bot/i18n.py")),
    ("aiogram: check_response", lambda func, file: "check_response" in func),
    ("aiogram: dispatch, types", _under("aiogram/", "magic_filter/")),
    ("http client (aiohttp)", _under("aiohttp/", "yarl/", "multidict/")),
    ("redis client", _under("redis/")),
    ("bot: storage (CAS, JSON)", _under("bot/storage/")),
    ("bot: outbox", _under("bot/delivery/")),
    ("bot: services", _under("bot/services/")),
    ("bot: handlers", _under("bot/handlers/", "bot/app.py", "bot/telegram_session.py")),
    ("engine", _under("engine/")),
    ("logging", _under("logging/")),
    ("asyncio event loop", _under("asyncio/base_events.py", "asyncio/events.py", "selectors.py")),
)

INCLUSIVE: tuple[Rule, ...] = (
    ("rendering (bot/ui, drafts, Fluent)", _under("bot/ui/", "bot/delivery/drafts.py")),
    ("Fluent", _under(*_FLUENT)),
    ("aiogram check_response", lambda func, file: "check_response" in func),
    ("pydantic", _under("pydantic/", "pydantic_core/")),
    ("redis client", _under("redis/")),
    ("bot/storage", _under("bot/storage/")),
    ("json", _under("json/")),
    ("engine", _under("engine/")),
    ("aiohttp", _under("aiohttp/")),
)


def _idle(frames: list[Frame]) -> bool:
    """A pool thread waiting for work (py-spy does not always see it is idle)."""
    func, file = frames[-1]
    return func == "_worker" and file == "concurrent/futures/thread.py"


def parse(text: str) -> list[tuple[list[Frame], int]]:
    """Stacks (root first) and their sample counts; idle pool threads left out."""
    stacks = []
    for line in text.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = []
        for raw in stack.split(";"):
            match = _FRAME.match(raw)
            frames.append((match["func"], match["file"]) if match else (raw, ""))
        if frames and not _idle(frames):
            stacks.append((frames, int(count)))
    return stacks


def bucket(frames: list[Frame]) -> str:
    for func, file in reversed(frames):
        for name, rule in BUCKETS:
            if rule(func, file):
                return name
    return "other"


def summary(text: str) -> str:
    stacks = parse(text)
    total = sum(count for _, count in stacks)
    if not total:
        return "profile: no samples"
    buckets: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    for frames, count in stacks:
        buckets[bucket(frames)] += count
        for name, rule in INCLUSIVE:
            if any(rule(func, file) for func, file in frames):
                inclusive[name] += count
    lines = [f"profile: {total} samples", "  buckets (add up to 100%):"]
    lines += [f"    {share / total:6.1%}  {name}" for name, share in buckets.most_common()]
    lines.append("  inclusive (anywhere in the stack):")
    lines += [
        f"    {inclusive[name] / total:6.1%}  {name}" for name, _ in INCLUSIVE if inclusive[name]
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as file:
        print(summary(file.read()))
