"""The Mini App in a real browser: Debian's chromium driven by Playwright, each page with
a stand-in for Telegram's script (``window.Telegram.WebApp`` with a signed ``initData``),
and everything the page received over its socket kept for the test to read."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Browser, Page, WebSocket

TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"
CHROMIUM = "/usr/bin/chromium"  # Debian's (scripts/test installs it); nothing is downloaded
PHONE = {"width": 390, "height": 844}

# What Telegram's own script gives the page, as far as the page uses it.
STUB = """
window.__haptics = [];
window.Telegram = { WebApp: {
  initData: %(init)s,
  initDataUnsafe: %(unsafe)s,
  colorScheme: %(scheme)s,
  themeParams: %(theme)s,
  isStub: true,
  ready() {}, expand() {}, onEvent() {}, showAlert() {},
  HapticFeedback: {
    impactOccurred(style) { window.__haptics.push(style); },
    notificationOccurred(kind) { window.__haptics.push(kind); },
  },
} };
"""

THEMES = {
    "light": {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#707579",
              "button_color": "#3390ec", "button_text_color": "#ffffff",
              "secondary_bg_color": "#f4f4f5"},
    "dark": {"bg_color": "#212121", "text_color": "#ffffff", "hint_color": "#aaaaaa",
             "button_color": "#8774e1", "button_text_color": "#ffffff",
             "secondary_bg_color": "#181818"},
}  # fmt: skip


# The point of an element nearest its middle that the element itself shows at (what
# ``document.elementFromPoint`` finds there is it or inside it), or null.
VISIBLE_POINT = """selector => {
  const node = document.querySelector(selector);
  if (!node) return null;
  const box = node.getBoundingClientRect();
  const middle = { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  let best = null;
  for (let i = 1; i < 12; i += 1) {
    for (let j = 1; j < 12; j += 1) {
      const x = box.left + (box.width * i) / 12, y = box.top + (box.height * j) / 12;
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === node || node.contains(hit))) continue;
      const far = Math.hypot(x - middle.x, y - middle.y);
      if (!best || far < best.far) best = { x, y, far };
    }
  }
  return best && { x: best.x, y: best.y };
}"""


@dataclass
class TablePage:
    """One user's open Mini App."""

    page: Page
    frames: list[dict[str, Any]] = field(default_factory=list)  # every message received
    sockets: list[WebSocket] = field(default_factory=list)

    async def version(self) -> int:
        raw = await self.page.evaluate("document.getElementById('app').dataset.version || '-1'")
        return int(raw)

    async def wait_version(self, version: int, timeout: float = 10.0) -> None:
        """Until the page draws ``version`` (or a newer one)."""
        await self.page.wait_for_function(
            "v => Number(document.getElementById('app').dataset.version || -1) >= v",
            arg=version,
            timeout=timeout * 1000,
        )

    async def hidden(self, hidden: bool) -> None:
        """The player leaves the page for the chat (hidden), or comes back: what the browser
        says then (``document.hidden`` and a ``visibilitychange`` event), which Playwright
        does not switch by itself for a page in the foreground."""
        await self.page.evaluate(
            """h => {
              Object.defineProperty(document, "hidden", { value: h, configurable: true });
              Object.defineProperty(document, "visibilityState",
                                    { value: h ? "hidden" : "visible", configurable: true });
              document.dispatchEvent(new Event("visibilitychange"));
            }""",
            hidden,
        )

    async def still(self) -> None:
        """Until no card moves on the page (its animations ended). The stylesheet's own
        transitions (a raised card, the turn clock's ring ticking each second) move no card
        from place to place: they are not waited for."""
        await self.page.wait_for_function(
            "() => document.getAnimations().every((a) => a instanceof CSSTransition)"
        )

    async def point(self, selector: str) -> tuple[float, float]:
        """Where a finger touches ``selector``'s element: the point nearest its middle where
        it shows (not under another card), once nothing moves."""
        await self.page.wait_for_selector(selector)
        await self.still()
        return await self._point_now(selector)

    async def tap(self, selector: str) -> None:
        x, y = await self.point(selector)
        await self.page.mouse.click(x, y)

    async def drag(self, selector: str, target: str) -> None:
        """Drag ``selector``'s element onto ``target``'s, as a finger does."""
        x, y = await self.point(selector)
        await self.page.mouse.move(x, y)
        await self.page.mouse.down()
        await self.page.mouse.move(x, y - 20, steps=4)  # lifted: the places light up
        to_x, to_y = await self._point_now(target)
        await self.page.mouse.move(to_x, to_y, steps=8)
        await self.page.mouse.up()

    async def _point_now(self, selector: str) -> tuple[float, float]:
        found = await self.page.evaluate(VISIBLE_POINT, selector)
        assert found is not None, f"{selector} shows nowhere"
        return found["x"], found["y"]

    async def html(self) -> str:
        return str(await self.page.evaluate("document.documentElement.outerHTML"))

    async def haptics(self) -> list[str]:
        return list(await self.page.evaluate("window.__haptics"))


async def open_page(
    browser: Browser,
    url: str,
    init_data: str,
    user: dict[str, Any],
    *,
    scheme: str = "light",
    start_param: str | None = None,
    telegram_more: str = "",
    reduced_motion: bool = False,
) -> TablePage:
    """``url`` in a phone-sized window of its own, as Telegram would open it for ``user``;
    ``telegram_more``: a script run after the stand-in for Telegram's (what a newer client
    adds to it); ``reduced_motion``: the reader asked their system for less motion."""
    context = await browser.new_context(
        viewport=PHONE,  # type: ignore[arg-type]
        color_scheme=scheme,  # type: ignore[arg-type]
        reduced_motion="reduce" if reduced_motion else "no-preference",
    )
    stub = STUB % {
        "init": json.dumps(init_data),
        "unsafe": json.dumps({"user": user, "start_param": start_param}),
        "scheme": json.dumps(scheme),
        "theme": json.dumps(THEMES[scheme]),
    }
    stub += telegram_more

    async def telegram(route: Any) -> None:
        await route.fulfill(status=200, content_type="application/javascript", body=stub)

    await context.route(TELEGRAM_SCRIPT, telegram)
    page = await context.new_page()
    opened = TablePage(page)

    def on_socket(ws: WebSocket) -> None:
        opened.sockets.append(ws)

        def received(payload: str | bytes) -> None:
            text = payload.decode() if isinstance(payload, bytes) else payload
            opened.frames.append(json.loads(text))

        ws.on("framereceived", received)

    page.on("websocket", on_socket)
    await page.goto(url)
    return opened
