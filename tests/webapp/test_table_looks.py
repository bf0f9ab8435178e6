"""How the table page looks in a real browser (docs/WEBAPP.md): Debian's chromium driven by
Playwright against the Mini App's server in-process over a real Redis, Anna's page opened
with a signed ``initData``. A hand of twenty cards fits a 360-pixel-wide phone, every card
of it showing a strip a finger can touch; the table of two, four and six players, held
upright on a small and a tall phone and sideways, in the light and the dark theme, keeps
every seat on the screen, no opponent's seat over another's, the felt in view, everything
named and nothing scrolling sideways. With DURAK_WEBAPP_SCREENSHOTS set to a folder, some
of these tables are kept there as pictures, every size, theme and number of players among
them (the README's come from docs/)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from bot.model import GameRecord
from bot.services import Player
from engine import Action, Attack, Defend, Pass, Take, Throw, legal_actions

from .conftest import ANNA, BORIS, CHAT, GLEB, TOKEN, VERA, Site, site_of_module
from .games import deal, play
from .pages import TablePage, open_page
from .signing import sign_init_data
from .test_pages import readable

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

DIMA, ZHENYA = Player(7, "Дима"), Player(8, "Женя")
PLAYERS = (ANNA, BORIS, VERA, GLEB, DIMA, ZHENYA)
# A chat of its own for each table: a chat holds one game at a time.
HAND_CHAT = CHAT - 10
TABLE_CHATS = {2: CHAT - 12, 4: CHAT - 14, 6: CHAT - 16}
BIG_HAND = 20  # cards: what table.js promises still fit 360 pixels wide
STRIP = 12  # pixels: the least of a card in the fanned hand a finger can be sure to touch
SIZES = ((360, 640), (390, 844), (844, 390))  # a small phone, a tall one, a phone sideways
SCHEMES = ("light", "dark")
# Set to a folder to keep the pictures there (the README's come from docs/), as test_pages.
SCREENSHOTS = os.environ.get("DURAK_WEBAPP_SCREENSHOTS")
PICTURES = {
    (2, (390, 844), "light"), (2, (390, 844), "dark"), (4, (360, 640), "light"),
    (4, (844, 390), "dark"), (6, (390, 844), "dark"), (6, (844, 390), "light"),
    (6, (360, 640), "light"),
}  # fmt: skip

# The widest run of pixels in one row where each card of the hand shows (where
# ``document.elementFromPoint`` finds it or what is inside it), with its box.
HAND_STRIPS = """() => [...document.querySelectorAll("#hand button[data-card]")].map((node) => {
  const box = node.getBoundingClientRect();
  let strip = 0;
  for (let y = Math.ceil(box.top) + 1; y < box.bottom; y += 3) {
    let run = 0;
    for (let x = Math.floor(box.left); x <= box.right; x += 1) {
      const hit = document.elementFromPoint(x, y);
      run = hit && (hit === node || node.contains(hit)) ? run + 1 : 0;
      strip = Math.max(strip, run);
    }
  }
  return { card: node.dataset.card, left: box.left, right: box.right, strip };
})"""

SEAT_BOXES = """() => [...document.querySelectorAll("#seats .seat")].map((node) => {
  const box = node.getBoundingClientRect();
  return { seat: node.dataset.seat, other: node.classList.contains("other"),
           left: box.left, top: box.top, right: box.right, bottom: box.bottom };
})"""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def site(redis_url: str) -> AsyncIterator[Site]:
    async with site_of_module(redis_url) as opened:
        yield opened


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def tables(site: Site) -> dict[int, GameRecord]:
    """A table of two, of four and of six, each with cards lying on it: moves played,
    covering where one can and throwing in where one can, until the bout has two pairs."""
    dealt = {}
    for count, chat in TABLE_CHATS.items():
        record = await deal(site.service, chat, *PLAYERS[:count])
        for _ in range(60):
            if pairs(record) >= 2:
                break
            state = record.game.state
            assert state is not None and not state.finished
            actions = legal_actions(state, state.acting[0])
            record = await play(
                site.service, record, first_of(actions, Defend, Attack, Throw, Pass, Take)
            )
        else:
            raise AssertionError(f"no two pairs on a table of {count} in 60 moves")
        dealt[count] = record
    return dealt


def pairs(record: GameRecord) -> int:
    """How many pairs (an attack card, covered or not) lie on ``record``'s table."""
    state = record.game.state
    bout = None if state is None else state.bout
    return 0 if bout is None else len(bout.pairs)


def first_of(actions: Sequence[Action], *kinds: type) -> Action:
    """The first action of the first of ``kinds`` that ``actions`` has."""
    return next(a for kind in kinds for a in actions if isinstance(a, kind))


def borises(actions: Sequence[Action]) -> Action:
    """Boris lays as many cards as he may, beats Anna's attack when he can, else passes."""
    laying = [a for a in actions if isinstance(a, (Attack, Throw))]
    if laying:
        return max(laying, key=lambda a: len(a.cards))
    return first_of(actions, Defend, Pass, Take)


def annas(actions: Sequence[Action]) -> Action:
    """Anna takes whatever she is given, adds nothing, and opens a bout with one card."""
    attacks = sorted((a for a in actions if isinstance(a, Attack)), key=lambda a: len(a.cards))
    return first_of(actions, Take, Pass) if not attacks else attacks[0]


async def annas_hand_grows(site: Site, chat: int, cards: int) -> GameRecord:
    """A game of two in ``chat`` played until Anna holds ``cards`` cards, Anna taking every
    bout Boris opens, Boris getting rid of as many cards as he may."""
    record = await deal(site.service, chat, ANNA, BORIS)
    anna = record.game.seat_of(ANNA.user_id)
    assert anna is not None
    for _ in range(300):
        state = record.game.state
        assert state is not None and state.bout is not None, "the game ended first"
        if len(state.hand(anna)) >= cards:
            return record
        seat = state.acting[0]
        actions = legal_actions(state, seat)
        record = await play(
            site.service, record, annas(actions) if seat == anna else borises(actions)
        )
    raise AssertionError(f"Anna holds fewer than {cards} cards after 300 moves")


async def open_annas(site: Site, browser: Browser, chat: int, scheme: str = "light") -> TablePage:
    """Anna's page of ``chat``'s table, as Telegram opens it for her."""
    url = str(site.client.make_url("/").with_query(chat=str(chat)))
    init = sign_init_data(TOKEN, ANNA.user_id, first_name=ANNA.name, language_code=ANNA.language)
    telegram = {"id": ANNA.user_id, "first_name": ANNA.name, "language_code": ANNA.language}
    return await open_page(browser, url, init, telegram, scheme=scheme)


async def drawn_at(page: TablePage, size: tuple[int, int], version: int) -> None:
    """Until ``page``, held at ``size``, shows ``version`` drawn for that size, still."""
    width, height = size
    await page.page.set_viewport_size({"width": width, "height": height})
    # The resize event is handled before the next frame's callbacks: after two frames the
    # page has drawn itself again for the new size.
    await page.page.evaluate(
        "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    await page.wait_version(version)
    await page.still()


async def test_twenty_cards_fit_a_narrow_phone(site: Site, browser: Browser) -> None:
    record = await annas_hand_grows(site, HAND_CHAT, BIG_HAND)
    state = record.game.state
    assert state is not None
    anna = record.game.seat_of(ANNA.user_id)
    assert anna is not None
    hand = {str(card) for card in state.hand(anna)}
    assert len(hand) >= BIG_HAND
    page = await open_annas(site, browser, HAND_CHAT)
    try:
        await drawn_at(page, (360, 640), record.game.version)
        strips: list[dict[str, Any]] = await page.page.evaluate(HAND_STRIPS)
        assert sorted(strip["card"] for strip in strips) == sorted(hand)
        for card in hand:
            await page.point(f'#hand button[data-card="{card}"]')
        narrow = [s for s in strips if s["strip"] < STRIP]
        assert not narrow, f"cards show less than {STRIP} pixels: {narrow}"
        assert await page.page.evaluate("document.documentElement.scrollWidth") <= 360
        outside = [s for s in strips if s["left"] < 0 or s["right"] > 360]
        assert not outside, f"{len(hand)} cards at 360 pixels wide, past the sides: {outside}"
    finally:
        await page.page.context.close()


def overlaps(seats: list[dict[str, Any]]) -> list[str]:
    """Each two opponents' seats whose boxes overlap, and by how many pixels each way."""
    others = [seat for seat in seats if seat["other"]]
    found = []
    for index, one in enumerate(others):
        for two in others[index + 1 :]:
            across = min(one["right"], two["right"]) - max(one["left"], two["left"])
            down = min(one["bottom"], two["bottom"]) - max(one["top"], two["top"])
            if across > 0 and down > 0:
                found.append(f"seats {one['seat']} and {two['seat']} by {across:.0f}x{down:.0f} px")
    return found


async def looks(page: TablePage, size: tuple[int, int]) -> list[str]:
    """What is wrong with the table ``page`` draws at ``size``."""
    width, height = size
    wrong = []
    scrolled = await page.page.evaluate("document.documentElement.scrollWidth")
    if scrolled > width:
        wrong.append(f"scrolls sideways ({scrolled} px wide)")
    seats: list[dict[str, Any]] = await page.page.evaluate(SEAT_BOXES)
    for seat in seats:
        box = seat["left"], seat["top"], seat["right"], seat["bottom"]
        if box[0] < 0 or box[1] < 0 or box[2] > width or box[3] > height:
            wrong.append(f"seat {seat['seat']} off the screen: {tuple(round(x) for x in box)}")
    wrong.extend(overlaps(seats))
    felt = page.page.locator("#felt")
    if not await felt.is_visible():
        wrong.append("the felt is not shown")
    return wrong


@pytest.mark.parametrize(
    ("players", "size"),
    [(players, size) for players in TABLE_CHATS for size in SIZES],
    ids=lambda value: f"{value}p" if isinstance(value, int) else "{}x{}".format(*value),
)
async def test_the_table_at_three_sizes_two_themes_and_two_four_six_players(
    site: Site, browser: Browser, tables: dict[int, GameRecord], players: int, size: tuple[int, int]
) -> None:
    record = tables[players]
    wrong: list[str] = []
    for scheme in SCHEMES:
        page = await open_annas(site, browser, TABLE_CHATS[players], scheme)
        try:
            await drawn_at(page, size, record.game.version)
            assert await page.page.locator("#table .pair").count() >= 2
            wrong.extend(f"{scheme}: {what}" for what in await looks(page, size))
            await readable(page)
            if SCREENSHOTS and (players, size, scheme) in PICTURES:
                folder = Path(SCREENSHOTS)
                folder.mkdir(parents=True, exist_ok=True)
                name = f"webapp-{players}p-{size[0]}x{size[1]}-{scheme}.png"
                await page.page.screenshot(path=str(folder / name))
        finally:
            await page.page.context.close()
    assert not wrong, f"{players} players at {size[0]}x{size[1]}: " + "; ".join(wrong)
