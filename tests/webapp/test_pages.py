"""The Mini App end to end in a real browser ("Tests"): the bot runs as a process
against the fake Telegram and a real Redis, serving its Mini App; two users play a whole
2-player game in two pages of Debian's chromium. Neither page's DOM nor its socket ever
holds the other's hidden card; a move pressed in the chat keyboard shows in the pages, and
a move made in a page shows in the chat; a tampered ``initData`` sees nothing. In a teams
game a player's page labels their partner's seat; under ``trump: dealer`` the dealer names
the trump on the page."""

from __future__ import annotations

import asyncio
import html
import random
import re
import time
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from bot.i18n import translator
from bot.model import GameRecord, Phase
from bot.ui.board import TEAM_MARKS
from bot.ui.callbacks import LobbyOp
from bot.webapp.server import PageLimits
from engine import Suit, legal_actions
from engine.ai.ladder import ladder_rating
from engine.rating import displayed
from tests.e2e.fake_telegram import FakeUser
from tests.e2e.harness import Table

from .bot_site import Site, open_bot_site
from .hidden import hidden_from
from .pages import PHONE, TablePage, open_page
from .signing import sign_init_data
from .taps import play_by_taps

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

ROOT = Path(__file__).resolve().parents[2]
CHAT_EVERY = 4  # every fourth move is pressed in the chat keyboard, the rest in the pages


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def site(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Site]:
    async for opened in open_bot_site(redis_url, lambda: tmp_path_factory.mktemp("bot")):
        yield opened


def telegram_user(user: FakeUser) -> dict[str, Any]:
    return {"id": user.id, "first_name": user.first_name, "language_code": user.language_code}


async def open_for(
    site: Site, browser: Browser, user: FakeUser, url: str, *, scheme: str = "light"
) -> TablePage:
    """``url`` opened by ``user`` in Telegram: signed for them, in their theme."""
    init = sign_init_data(
        site.world.fake.token, user.id, first_name=user.first_name,
        language_code=user.language_code or "ru",
    )  # fmt: skip
    return await open_page(browser, url, init, telegram_user(user), scheme=scheme)


def table_button(table: Table, record: GameRecord, user: FakeUser) -> str:
    """The page the «🃏 Стол» button under ``user``'s hand message opens."""
    message = table.hand_message(record, user)
    assert message is not None
    buttons = [b for b in message.all_buttons() if b.web_app is not None]
    tr = translator(user.language_code or "ru")
    assert [b.text for b in buttons] == [tr.t("button-webapp")]
    assert buttons[0].web_app is not None
    return buttons[0].web_app


def hand_shows(table: Table, record: GameRecord, user: FakeUser) -> bool:
    """``user``'s hand message has buttons drawn for ``record``'s position, and only those."""
    state = record.game.state
    assert state is not None
    presses = table.hand_presses(table.hand_message(record, user))
    return bool(presses) and all(
        p.moves == state.moves and p.game == record.game.game_id for p in presses
    )


def newer(record: GameRecord, *, version: int) -> bool:
    return record.game.version > version


CARD_ATTRIBUTE = re.compile(r'data-card="([0-9JQKA]+[SHDC])"')


def frame_cards(value: object) -> set[str]:
    """Every card named in a socket message (a whole string such as "7H")."""
    if isinstance(value, str):
        return {value} if re.fullmatch(r"(?:[2-9]|10|[JQKA])[SHDC]", value) else set()
    if isinstance(value, dict):
        return set().union(*(frame_cards(k) | frame_cards(v) for k, v in value.items()))
    if isinstance(value, list):
        return set().union(*(frame_cards(v) for v in value))
    return set()


class Privacy:
    """What each seat may not see at each version of the game, and the check of every page
    against it: its DOM now, and every socket message it received (by the message's version)."""

    def __init__(self, pages: dict[int, TablePage]) -> None:
        self.pages = pages  # seat -> page
        self.hidden: dict[tuple[int, int], set[str]] = {}  # (seat, version) -> cards
        self.checked = dict.fromkeys(pages, 0)

    def note(self, record: GameRecord) -> None:
        state = record.game.state
        assert state is not None
        for seat in self.pages:
            self.hidden[seat, record.game.version] = hidden_from(state, seat)

    async def check(self, record: GameRecord) -> None:
        for seat, page in self.pages.items():
            await readable(page)
            shown = set(CARD_ATTRIBUTE.findall(await page.html()))
            leaked = shown & self.hidden[seat, record.game.version]
            assert not leaked, f"seat {seat}'s page shows {leaked}"
            for frame in page.frames[self.checked[seat] :]:
                if frame.get("type") != "state":
                    continue
                hidden = self.hidden[seat, frame["version"]]
                assert not frame_cards(frame) & hidden, f"seat {seat} was sent {hidden}"
            self.checked[seat] = len(page.frames)


async def readable(page: TablePage) -> None:
    """Every card and control has an accessible name (but what is hidden from a screen
    reader: a card flying, the stock's back), and no placeholder shows."""
    unnamed = await page.page.evaluate(
        """[...document.querySelectorAll("button, .card")].filter(
             (node) => !node.getAttribute("aria-label") && !node.closest("[aria-hidden=true]")
           ).length"""
    )
    assert unnamed == 0
    text = await page.page.inner_text("#app")
    assert "null" not in text and "undefined" not in text, text


async def fits_a_narrow_phone(page: TablePage) -> None:
    """At 360 pixels wide nothing sticks out sideways (no horizontal scrolling)."""
    await page.page.set_viewport_size({"width": 360, "height": 740})
    width = await page.page.evaluate("document.documentElement.scrollWidth")
    await page.page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    assert width <= 360


async def test_two_players_play_a_whole_game_in_two_pages(site: Site, browser: Browser) -> None:
    world = site.world
    table = world.table(2)
    await table.start_game()
    record = await table.settled()
    users = table.players
    seat_of = {seat: users[0] if player.user_id == users[0].id else users[1]
               for seat, player in enumerate(record.game.players)}  # fmt: skip
    urls = {seat: table_button(table, record, user) for seat, user in seat_of.items()}
    assert urls[0] == urls[1] == f"{site.url}?chat={table.group.id}"
    pages = {seat: await open_for(site, browser, seat_of[seat], urls[seat]) for seat in urls}
    privacy = Privacy(pages)
    privacy.note(record)
    for page in pages.values():
        await page.wait_version(record.game.version)
    await privacy.check(record)
    # The page's controls are the chat keyboard's: what is enabled is what is legal.
    rng = random.Random(22)
    moves_in_chat = moves_in_pages = 0
    for turn in range(400):
        # While the pages are open the hands in private wait ("fewer messages"):
        # the record is the position, the pages show it.
        record = await table.wait_record(partial(newer, version=record.game.version - 1))
        if record.game.phase is Phase.FINISHED:
            break
        state = record.game.state
        assert state is not None
        privacy.note(record)
        seat = rng.choice(sorted(s for s in state.acting if legal_actions(state, s)))
        action = rng.choice(legal_actions(state, seat))
        user = seat_of[seat]
        in_chat = turn % CHAT_EVERY == CHAT_EVERY - 1
        data = None
        if in_chat:
            # The player goes to the chat: the page is hidden, their hand catches up.
            await pages[seat].hidden(True)
            await world.fake.wait_for(partial(hand_shows, table, record, user), 10.0)
            try:  # a cover of one of several cards takes two presses in the chat: in a page
                data = table.button_for(record, user, action)
            except AssertionError:
                data = None
        if data is not None:
            message = table.hand_message(record, user)
            assert message is not None
            answer = await table.answer(world.fake.user_presses(user, message, data))
            assert answer.text is None
            moves_in_chat += 1
        else:
            await play_by_taps(pages[seat], state, action)
            moves_in_pages += 1
        after = await table.wait_record(partial(newer, version=record.game.version))
        if in_chat:
            await pages[seat].hidden(False)
        privacy.note(after)
        # Every page shows the move, wherever it was made ...
        for page in pages.values():
            await page.wait_version(after.game.version)
        await privacy.check(after)
        if turn == 3:
            await fits_a_narrow_phone(pages[1])
    else:
        raise AssertionError("the game did not end in 400 moves")
    # ... and the chat shows the moves made in the pages: the game ended there too.
    await table.says_game_over()
    assert moves_in_chat >= 3 and moves_in_pages >= 10
    for seat, page in pages.items():
        await page.wait_version(record.game.version)
        language = seat_of[seat].language_code or "ru"
        assert await page.page.inner_text("#status") == translator(language).t("webapp-finished")
    haptics = [await page.haptics() for page in pages.values()]
    assert "light" in haptics[0] + haptics[1]  # a tap that moves is felt
    for page in pages.values():
        await page.page.context.close()


async def test_a_tampered_init_data_sees_nothing(site: Site, browser: Browser) -> None:
    world = site.world
    table = world.table(2)
    record = await table.start_game()
    user = table.players[0]
    init = sign_init_data(world.fake.token, user.id, first_name=user.first_name)
    forged = init.replace(f"%22id%22%3A{user.id}", f"%22id%22%3A{table.players[1].id}")
    assert forged != init
    page = await open_page(
        browser, f"{site.url}?chat={table.group.id}", forged, telegram_user(user)
    )
    # The page tried: its socket was refused (the server's 401), and it tried again.
    deadline = time.monotonic() + 10
    while not (page.sockets and page.sockets[0].is_closed()):
        assert time.monotonic() < deadline, "the page never tried its socket"
        await asyncio.sleep(0.05)
    assert page.frames == []
    # Its initData went in the socket's protocols, not in its URL (which proxies log).
    assert "hash" not in page.sockets[0].url and "auth_date" not in page.sockets[0].url
    html = await page.html()
    assert not CARD_ATTRIBUTE.findall(html)
    assert record.game.state is not None
    await page.page.context.close()


async def test_a_page_replaced_by_the_persons_newer_one_says_so_and_comes_back_when_seen(
    site: Site, browser: Browser
) -> None:
    """A player opens the table once more than a worker keeps for one person: their oldest
    page says it is open elsewhere and stops, until it is left and looked at again."""
    table = site.world.table(2)
    await table.start_game()
    record = await table.settled()
    anna = table.players[0]
    url = table_button(table, record, anna)
    pages = []
    for _ in range(PageLimits().per_person + 1):
        pages.append(await open_for(site, browser, anna, url))
        await pages[-1].wait_version(record.game.version)
    oldest = pages[0]
    status = oldest.page.locator("#status")
    replaced = translator(anna.language_code or "ru").t("webapp-replaced")
    await status.filter(has_text=replaced).wait_for(timeout=10_000)
    assert len(oldest.sockets) == 1 and oldest.sockets[0].is_closed()
    await oldest.hidden(True)
    await oldest.hidden(False)
    deadline = time.monotonic() + 10
    while len(oldest.sockets) < 2 or oldest.sockets[1].is_closed():
        assert time.monotonic() < deadline, "the page did not come back once seen"
        await asyncio.sleep(0.05)
    await oldest.wait_version(record.game.version)
    assert await status.inner_text() != replaced
    for page in pages:
        await page.page.context.close()


def seat_label(user: FakeUser, record: GameRecord) -> str:
    seat = record.game.seat_of(user.id)
    assert seat is not None
    return f'#seats [data-seat="{seat}"]'


async def test_r_team_1_a_players_page_labels_their_partners_seat(
    site: Site, browser: Browser
) -> None:
    """Anna and Boris play together against two computers: Anna's page names Boris her
    partner and the computers the other team, in the words and marks of the chat."""
    table = site.world.table(2)
    anna, boris = table.players
    lobby, _added = await table.teams_with_two_computers()
    await table.press_lobby(boris, lobby, LobbyOp.TEAM)  # to Anna's team
    record = await table.deal()
    state = record.game.state
    assert state is not None and state.teams == ((0, 2), (1, 3))
    record = await table.settled()
    page = await open_for(site, browser, anna, table_button(table, record, anna))
    await page.wait_version(record.game.version)
    tr = translator(anna.language_code or "ru")
    ours = record.game.seat_of(anna.id)
    assert ours is not None
    mark, theirs = TEAM_MARKS[ours % 2], TEAM_MARKS[1 - ours % 2]
    partner = page.page.locator(seat_label(boris, record))
    words = tr.t("webapp-team-partner", mark=mark)
    assert words in (await partner.get_attribute("aria-label") or "")
    assert await partner.locator(".team-name").inner_text() == words
    for seat, player in enumerate(record.game.players):
        if player.computer:
            rival = page.page.locator(f'#seats [data-seat="{seat}"]')
            label = await rival.get_attribute("aria-label") or ""
            assert tr.t("webapp-team", mark=theirs) in label
            # A computer's seat shows its level's rating; a person with no rated game, none.
            assert player.level is not None
            rating = tr.t("webapp-rating", rating=displayed(*ladder_rating(player.level)))
            assert await rival.locator(".rating").inner_text() == rating
    assert await partner.locator(".rating").count() == 0
    await readable(page)
    await page.page.context.close()


async def test_r_trump_1_the_dealer_names_the_trump_on_the_page(
    site: Site, browser: Browser
) -> None:
    """Under ``trump: dealer``, after «Начать»: the dealer's page offers the chat's four
    suit buttons, the other player's page says who is choosing; the dealer's tap deals the
    game with that trump, on both pages and in the chat."""
    table = site.world.table(2)
    asking, lobby, dealer, other = await table.dealer_asked()
    url = f"{site.url}?chat={table.group.id}"
    pages = {user.id: await open_for(site, browser, user, url) for user in (dealer, other)}
    for page in pages.values():
        await page.wait_version(asking.game.version)
    mine = translator(dealer.language_code or "ru")
    theirs = translator(other.language_code or "ru")
    watching = pages[other.id].page
    assert await watching.inner_text("#status") == theirs.t("webapp-naming", name=dealer.first_name)
    assert await watching.locator("#controls button").count() == 0
    # The dealer's seat says what they do: they name the trump, they do not move.
    seat = asking.game.seat_of(dealer.id)
    label = await watching.locator(f'.seat[data-seat="{seat}"]').get_attribute("aria-label")
    assert label is not None and theirs.t("webapp-naming-now") in label
    assert theirs.t("webapp-acting") not in label
    choosing = pages[dealer.id].page
    assert await choosing.inner_text("#status") == mine.t("webapp-naming-yours")
    hearts = choosing.locator(f'#controls button[data-op="{LobbyOp.TRUMP_HEARTS.value}"]')
    assert await hearts.get_attribute("aria-label") == mine.t(
        "btn-trump", symbol="♥", suit=mine.t("suit-H")
    )
    assert await choosing.locator(".suits button").count() == 4
    await readable(pages[dealer.id])
    await hearts.click()
    dealt = await table.wait_record(lambda r: r.game.phase is Phase.PLAYING)
    state = dealt.game.state
    assert state is not None and state.trump is Suit.HEARTS
    for user, page in pages.items():
        await page.wait_version(dealt.game.version)
        tr = mine if user == dealer.id else theirs
        assert await page.page.get_attribute("#trump", "aria-label") == tr.t("webapp-trump") + " ♥"
        assert await page.page.locator(".suits").count() == 0
    # The chat tells it too: the group's table names who named which trump.
    named = translator("ru").t(
        "event-trump-named", name=dealer.first_name, symbol="♥", suit="черви", auto="no"
    )
    await table.says(lobby, html.escape(named))
    for page in pages.values():
        await page.page.context.close()
