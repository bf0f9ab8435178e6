"""The Mini App page's weight in a real browser (Debian's chromium), as the page reports it
through the Performance API, on a CPU slowed down as a phone's:

    PYTHONPATH=. .venv/bin/python -m bench.webapp_timing [--runs 10] [--moves 30] \\
        [--players 2] [--throttle 4] [--json]

It starts its own ``redis-server`` and, in this process, the Mini App server over it (as
``tests/webapp/conftest.py``'s ``open_site``), deals a game to ``--players`` people (2 to
6) through the game service and opens the page as the first of them: 390x844, Telegram's
script replaced by the tests' stand-in (``tests/webapp/pages.py``), the CPU throttled
``--throttle`` times (CDP ``Emulation.setCPUThrottlingRate``; 1: not at all). A script
run before the page's own watches ``#app``'s ``data-version`` (set by the page whenever it
draws a state) and collects the long tasks: the page itself marks nothing.

The figures (``--json``: one JSON object on the last line), in ms:

* opening [``open_ms``: median and max over ``--runs`` opens, each in a fresh browser
  context (an empty HTTP cache, as a first open; the browser already running)], from the
  navigation's start: ``first_paint`` and ``first_contentful_paint`` (the browser's paint
  entries), ``dom_content_loaded`` (the page's deferred scripts have run),
  ``first_state`` (``data-version`` set for the first time: the first state, which comes
  over the socket, is in the DOM) and ``first_state_painted`` (a frame and a task later).
* moves [``moves``, ``longest_task_ms``, ``long_tasks``, ``blocking_ms``]: ``--moves``
  moves through the game service by whoever must act (``tests/webapp/games.py``
  ``play_a_move``, which takes when it may so that the game lasts; fewer if it ends), each
  awaited until the page has drawn it and ``SETTLE`` more for its animations. The page's
  long tasks (main-thread tasks over 50 ms) meanwhile: the longest (null: none), how many,
  and their time past 50 ms added up (the moves' "total blocking time").

Every request of the page passes through Playwright's interception (the route that serves
Telegram's stand-in), which adds a little to each: compare these figures with each other.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import statistics
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestServer
from playwright.async_api import Browser, Page, Route, async_playwright
from redis.asyncio import Redis

from bot.model import ChatSettings, GameRecord, Phase
from bot.services import GameService, Player
from bot.storage import Storage
from bot.web import RUNNER_OPTIONS
from bot.webapp.live import Live
from bot.webapp.server import Served, webapp_app
from tests.e2e.harness import RedisServer
from tests.webapp.games import deal, play_a_move
from tests.webapp.pages import CHROMIUM, PHONE, STUB, TELEGRAM_SCRIPT, THEMES
from tests.webapp.signing import sign_init_data

TOKEN = "123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
CHAT = -1001
PEOPLE = [Player(1, "Аня"), Player(2, "Борис", "uk"), Player(3, "Вера"),
          Player(4, "Гліб", "uk"), Player(5, "Даша"), Player(6, "Егор")]  # fmt: skip
IDLE = 60.0  # seconds: WEBAPP_IDLE_SECONDS's default
SETTLE = 0.4  # seconds after a state is drawn for its animations to end
WAIT = 30.0  # seconds a throttled page may take to draw a state

# Runs before the page's own scripts: the first state drawn as performance marks, the
# newest version drawn (``until`` waits for one without polling the page), the long tasks.
WATCH = """
(() => {
  const bench = window.__bench = { version: -1, waiting: [], longtasks: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.longtasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
  new MutationObserver(() => {
    const drawn = document.getElementById("app")?.dataset.version;
    const version = Number(drawn ?? -1);
    if (version <= bench.version) return;
    if (bench.version < 0) {
      performance.mark("first_state");
      requestAnimationFrame(() => setTimeout(() => performance.mark("first_state_painted")));
    }
    bench.version = version;
    const ready = bench.waiting.filter(([v]) => v <= version);
    bench.waiting = bench.waiting.filter(([v]) => v > version);
    for (const [, resolve] of ready) resolve();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-version"] });
  bench.until = (v) => new Promise((resolve) => {
    if (bench.version >= v) resolve(); else bench.waiting.push([v, resolve]);
  });
})();
"""

# The opening's figures, once the first state is painted and its paint entries are in.
OPENED = """
() => {
  const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
  const navigation = performance.getEntriesByType("navigation")[0];
  return { first_paint: at("first-paint"), first_contentful_paint: at("first-contentful-paint"),
           dom_content_loaded: navigation?.domContentLoadedEventEnd ?? null,
           first_state: at("first_state"), first_state_painted: at("first_state_painted") };
}
"""
PAINTED = """() => performance.getEntriesByName("first_state_painted").length > 0
  && performance.getEntriesByName("first-contentful-paint").length > 0"""
Opener = Callable[[], Awaitable[Page]]  # ``open_page`` with its arguments


async def _nobody_else(chat_id: int, user_id: int) -> bool:
    return False  # only the seated open the page here


@contextlib.asynccontextmanager
async def serving(workdir: Path) -> AsyncIterator[tuple[GameService, TestServer]]:
    """A ``redis-server`` of its own, and the Mini App server in this process over it, run
    as the bot runs it."""
    redis_server = RedisServer(workdir)
    redis_server.start()
    async with contextlib.AsyncExitStack() as stack:
        stack.callback(redis_server.stop)
        await redis_server.wait_ready()
        redis = Redis.from_url(redis_server.url)
        stack.push_async_callback(redis.aclose)
        storage = Storage.create(redis, "timing", default_settings=ChatSettings(turn_timeout=0))
        service = GameService(storage)
        live = Live(redis, storage.keys.live(), storage.games.get)
        served = Served(service, live, lambda record: None, TOKEN, 86_400.0, _nobody_else, IDLE)
        live.start()
        stack.push_async_callback(live.stop)
        await live.subscribed.wait()
        server = TestServer(webapp_app(served))
        await server.start_server(**RUNNER_OPTIONS)
        stack.push_async_callback(server.close)
        yield service, server


async def open_page(browser: Browser, url: str, throttle: float) -> Page:
    """``url`` opened by the first player as Telegram would open it, in a fresh context, on
    a throttled CPU, with ``WATCH`` in place before the page's scripts."""
    context = await browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    person = PEOPLE[0]
    init = sign_init_data(TOKEN, person.user_id, first_name=person.name,
                          language_code=person.language)  # fmt: skip
    user = {"id": person.user_id, "first_name": person.name, "language_code": person.language}
    stub = STUB % {"init": json.dumps(init), "unsafe": json.dumps({"user": user}),
                   "scheme": json.dumps("light"), "theme": json.dumps(THEMES["light"])}  # fmt: skip

    async def telegram(route: Route) -> None:
        await route.fulfill(status=200, content_type="application/javascript", body=stub)

    await context.route(TELEGRAM_SCRIPT, telegram)
    await context.add_init_script(WATCH)
    page = await context.new_page()
    if throttle != 1:
        cdp = await page.context.new_cdp_session(page)
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    await page.goto(url)
    return page


async def drawn(page: Page, version: int) -> None:
    """Until the page has drawn ``version`` (or a newer one)."""
    async with asyncio.timeout(WAIT):
        await page.evaluate("v => window.__bench.until(v)", version)


async def opening(opened: Opener) -> dict[str, Any]:
    page = await opened()
    try:
        await drawn(page, 0)  # not polled: the page's first frames are what is measured
        await page.wait_for_function(PAINTED, timeout=WAIT * 1000)
        return dict(await page.evaluate(OPENED))
    finally:
        await page.context.close()


async def moving(
    opened: Opener, service: GameService, record: GameRecord, moves: int
) -> dict[str, Any]:
    page = await opened()
    try:
        await drawn(page, record.game.version)
        await asyncio.sleep(SETTLE)
        since = await page.evaluate("performance.now()")
        made = 0
        while made < moves and record.game.phase is Phase.PLAYING:
            record = await play_a_move(service, record)
            made += 1
            await drawn(page, record.game.version)
            await asyncio.sleep(SETTLE)
        tasks: list[float] = await page.evaluate(
            "since => window.__bench.longtasks.filter(([at]) => at >= since).map(([, d]) => d)",
            since,
        )
    finally:
        await page.context.close()
    return {
        "moves": made,
        "longest_task_ms": round(max(tasks), 1) if tasks else None,
        "long_tasks": len(tasks),  # each over 50 ms: what a long task is
        "blocking_ms": round(sum((d - 50 for d in tasks), 0.0), 1),
    }


def summary(runs: list[dict[str, Any]]) -> dict[str, dict[str, float | None]]:
    """Each opening figure's median and max over the runs (None where a run lacked it)."""
    out: dict[str, dict[str, float | None]] = {}
    for name in runs[0]:
        values = [run[name] for run in runs]
        whole = None not in values
        out[name] = {
            "median": round(float(statistics.median(values)), 1) if whole else None,
            "max": round(float(max(values)), 1) if whole else None,
        }
    return out


async def timing(
    runs: int, moves: int, players: int, throttle: float, workdir: Path
) -> dict[str, Any]:
    async with serving(workdir) as (service, server), async_playwright() as playwright:
        record = await deal(service, CHAT, *PEOPLE[:players])
        url = str(server.make_url("/").with_query(chat=str(CHAT)))
        browser = await playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            opened = functools.partial(open_page, browser, url, throttle)
            opens = [await opening(opened) for _ in range(runs)]
            moved = await moving(opened, service, record, moves)
            version = browser.version
        finally:
            await browser.close()
    return {"chromium": version, "throttle": throttle, "players": players, "runs": runs,
            "open_ms": summary(opens), **moved}  # fmt: skip


def report(result: dict[str, Any]) -> str:
    lines = [
        f"Mini App page, {result['players']} players, CPU throttled {result['throttle']:g}x "
        f"(chromium {result['chromium']})",
        f"  opening, ms from navigation start ({result['runs']} runs, fresh context each):",
        f"    {'':<22}{'median':>8}{'max':>8}",
    ]
    for name, figures in result["open_ms"].items():
        median, most = (f"{v:.0f}" if v is not None else "-" for v in figures.values())
        lines.append(f"    {name:<22}{median:>8}{most:>8}")
    longest = result["longest_task_ms"]
    lines.append(
        f"  {result['moves']} moves: longest task "
        + (f"{longest} ms, " if longest is not None else "under 50 ms, ")
        + f"{result['long_tasks']} over 50 ms (blocking {result['blocking_ms']} ms in all)"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slowdown; 1: none")
    parser.add_argument("--json", action="store_true", help="one JSON object on the last line")
    args = parser.parse_args(argv)
    if not 2 <= args.players <= len(PEOPLE):
        parser.error(f"--players: 2 to {len(PEOPLE)}")
    if args.runs < 1 or args.moves < 0 or args.throttle < 1:
        parser.error("--runs at least 1, --moves at least 0, --throttle at least 1")
    with tempfile.TemporaryDirectory(prefix="durak-timing-") as workdir:
        result = asyncio.run(
            timing(args.runs, args.moves, args.players, args.throttle, Path(workdir))
        )
    print(report(result))
    if args.json:
        print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
