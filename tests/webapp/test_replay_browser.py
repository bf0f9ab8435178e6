"""The replay page in a real browser ("Replay", docs/WEBAPP.md): Debian's chromium driven by
Playwright against the Mini App's server in-process over a real Redis, each page with a
stand-in for Telegram's script and a signed ``initData``. A whole finished game is stepped
through to the end and back with the buttons and the keys, its hand checked against the
engine's; a moment of the review is clicked; the page checks the deck itself (WebCrypto) and
says so, and its own derivation of the deck holds docs/FAIR-DEAL.md's test vector and agrees
with the engine's; with the hands not turned over it shows only the commitment; a replay's
direct link opens it from the table's page; anybody else sees only a refusal."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from bot.i18n import translator
from bot.model import FinishedGame
from bot.services import Player
from bot.services.replays import record_names, steps
from bot.ui.webapp import replay_start_param
from engine import Action, HouseRules, TrumpChoice, legal_actions, new_game
from engine.cards import cards_of
from engine.deck_seed import commitment, short, shuffled_deck
from engine.record import action_to_dict

from .conftest import ANNA, BORIS, CHAT, STRANGER, TOKEN, Site, site_of_module
from .pages import PHONE, TablePage, open_page
from .signing import sign_init_data
from .test_pages import fits_a_narrow_phone, readable
from .test_replay import finished_game, hand_codes

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

DOC = Path(__file__).resolve().parents[2] / "docs" / "FAIR-DEAL.md"
HIDDEN_CHAT = CHAT - 2  # a table that does not turn the cards over after the game
WAIT = 10_000  # milliseconds: a deadline for what should take a few
# Set to a folder to keep the screenshot there (the docs' comes from docs/), as test_pages.
SCREENSHOTS = os.environ.get("DURAK_WEBAPP_SCREENSHOTS")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def site(redis_url: str) -> AsyncIterator[Site]:
    async with site_of_module(redis_url) as opened:
        yield opened


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shown(site: Site) -> FinishedGame:
    """A whole game at a table that turns the cards over, with Anna's review of it."""
    finished = await finished_game(site)
    review = telling_review(finished, ANNA)
    await site.service.storage.reviews.save(CHAT, finished.game_id, ANNA.user_id, review)
    return finished


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def hidden(site: Site) -> FinishedGame:
    return await finished_game(site, show_hands_after=False, chat=HIDDEN_CHAT)


def telling_review(finished: FinishedGame, player: Player) -> dict[str, Any]:
    """A review of two of ``player``'s decisions, those with the most cards on the table
    after them, up to a row of four (a picture worth showing that fits a phone), each with
    another legal move preferred."""
    seat = finished.seat_of(player.user_id)
    names = record_names(finished.players)
    found: list[tuple[int, int, Action, Action]] = []
    previous = None
    for position in steps(finished):
        action, before = position.action, previous
        previous = position.state
        if action is None or before is None or action.player != seat:
            continue
        others = [a for a in legal_actions(before, seat) if a != action]
        if others:
            bout = position.state.bout
            pairs = 0 if bout is None else len(bout.pairs)
            found.append((-min(pairs, 4), position.index, action, others[0]))
    moments = [
        {"index": index, "played": action_to_dict(action, names),
         "preferred": action_to_dict(other, names), "before": 0.61, "after": 0.44}
        for _, index, action, other in sorted(found)[:2]
    ]  # fmt: skip
    assert len(moments) == 2
    return {"game": finished.game_id, "decisions": len(found), "moments": moments}


def replay_url(site: Site, chat: int, game: str) -> str:
    return str(site.client.make_url("/replay").with_query(chat=str(chat), game=game))


async def open_as(
    site: Site,
    browser: Browser,
    user: Player | int,
    url: str,
    *,
    start_param: str | None = None,
    scheme: str = "light",
) -> TablePage:
    """``url`` opened in Telegram by ``user`` (a player, or a user id of somebody else)."""
    user_id, name, language = (
        (user.user_id, user.name, user.language) if isinstance(user, Player) else (user, "X", "ru")
    )
    init = sign_init_data(TOKEN, user_id, first_name=name, language_code=language)
    telegram = {"id": user_id, "first_name": name, "language_code": language}
    return await open_page(browser, url, init, telegram, scheme=scheme, start_param=start_param)


async def step_shown(page: TablePage) -> int:
    return int(await page.page.evaluate("document.getElementById('app').dataset.step"))


async def hand_shown(page: TablePage) -> list[str]:
    cards = page.page.locator("#hand [data-card]")
    return [str(await card.get_attribute("data-card")) for card in await cards.all()]


@contextlib.asynccontextmanager
async def replay_page(
    site: Site, browser: Browser, user: Player | int, finished: FinishedGame
) -> AsyncIterator[TablePage]:
    page = await open_as(site, browser, user, replay_url(site, finished.chat_id, finished.game_id))
    try:
        yield page
    finally:
        await page.page.context.close()


async def test_a_whole_game_steps_to_the_end_and_back_with_the_buttons_and_keys(
    site: Site, browser: Browser, shown: FinishedGame
) -> None:
    positions = list(steps(shown))
    last = len(positions) - 1
    tr = translator(ANNA.language)
    seat = shown.seat_of(ANNA.user_id)
    assert seat is not None
    checked = {0, last // 3, 2 * last // 3, last}

    async with replay_page(site, browser, ANNA, shown) as page:
        await page.page.wait_for_selector('#app[data-step="0"]', timeout=WAIT)
        status = page.page.locator("#status")

        def title(step: int) -> str:
            if step == 0:
                return tr.t("replay-page-dealt-title")
            return tr.t("replay-page-step", move=step, moves=last)

        async def shows(step: int) -> None:
            assert await step_shown(page) == step
            assert await status.inner_text() == title(step)
            if step in checked:
                assert await hand_shown(page) == hand_codes(positions[step].state, seat)

        button = page.page.get_by_role
        first, back = button("button", name="⏮ В начало"), button("button", name="◀ Назад")
        forward, end = button("button", name="Вперёд ▶"), button("button", name="В конец ⏭")
        await shows(0)
        assert await back.is_disabled() and await first.is_disabled()
        # The others' hands turned over, each in its seat.
        other = 1 - seat
        row = page.page.locator(f'#seats [data-seat="{other}"] .row [data-card]')
        assert [await c.get_attribute("data-card") for c in await row.all()] == hand_codes(
            positions[0].state, other
        )
        await readable(page)
        for step in range(1, last + 1):
            await forward.click()
            await shows(step)
            if step == last // 2:
                await fits_a_narrow_phone(page)
        assert await forward.is_disabled() and await end.is_disabled()
        await readable(page)
        for step in range(last - 1, -1, -1):
            await back.click()
            await shows(step)
        await end.click()
        await shows(last)
        await first.click()
        await shows(0)
        await page.page.keyboard.press("ArrowRight")
        await shows(1)
        await page.page.keyboard.press("End")
        await shows(last)
        await page.page.keyboard.press("ArrowLeft")
        await shows(last - 1)
        await page.page.keyboard.press("Home")
        await shows(0)


async def test_a_moment_of_the_review_is_marked_and_goes_to_its_step(
    site: Site, browser: Browser, shown: FinishedGame
) -> None:
    review = await site.service.storage.reviews.get(CHAT, shown.game_id, ANNA.user_id)
    assert review is not None
    async with replay_page(site, browser, ANNA, shown) as page:
        await page.page.wait_for_selector('#app[data-step="0"]', timeout=WAIT)
        markers = page.page.locator("#timeline .marker")
        assert await markers.count() == 2
        assert await page.page.locator("#timeline .tick").count() == len(list(steps(shown)))
        for moment in review["moments"]:
            step = moment["index"] + 1
            marker = page.page.locator(f'#timeline .marker[data-step="{step}"]')
            words = await marker.get_attribute("aria-label")
            assert words is not None and words.startswith(f"Ход {step}: ")
            assert words.endswith("61% → 44%")
            await marker.click()
            assert await step_shown(page) == step
            assert await marker.get_attribute("aria-current") == "step"
            listed = page.page.locator(f'#moments .moment[data-step="{step}"]')
            assert await listed.get_attribute("aria-label") == words
            assert (await listed.inner_text()).endswith(words)
        await page.page.get_by_role("button", name="⏮ В начало").click()
        first = review["moments"][0]["index"] + 1
        await page.page.locator(f'#moments .moment[data-step="{first}"]').click()
        assert await step_shown(page) == first
        await readable(page)
        if SCREENSHOTS:
            await screenshot(page)


async def screenshot(page: TablePage) -> None:
    """The docs' picture: a phone, the light theme, a moment of the review shown."""
    assert page.page.viewport_size == PHONE
    folder = Path(SCREENSHOTS or ".")
    folder.mkdir(parents=True, exist_ok=True)
    await page.page.wait_for_selector("#deck[data-ok]", timeout=WAIT)
    await page.page.screenshot(path=str(folder / "webapp-replay.png"))


async def test_the_page_checks_the_deck_itself(
    site: Site, browser: Browser, shown: FinishedGame
) -> None:
    async with replay_page(site, browser, ANNA, shown) as page:
        deck = page.page.locator("#deck[data-ok]")
        await deck.wait_for(timeout=WAIT)
        assert await deck.get_attribute("data-ok") == "true"
        line = translator("ru").t("replay-page-deck-ok", commitment=short(shown.commitment))
        assert "Колода проверена: #" + short(shown.commitment) + " ✓" in line
        text = await deck.inner_text()
        assert line in text and shown.commitment in text
        # A record whose hands were changed is told apart: what differs, in words.
        tampered = await page.page.evaluate(
            """async () => {
              const replay = await (await fetch(location.href.replace("/replay", "/api/replay"),
                { headers: { Authorization: "tma " + Telegram.WebApp.initData } })).json();
              const deal = structuredClone(replay.deal);
              const [a, b] = deal.players;
              [deal.hands[a][0], deal.hands[b][0]] = [deal.hands[b][0], deal.hands[a][0]];
              // One digit changed: a fixed "00" would leave one commitment in 256 as it was.
              const first = replay.deal.commitment[0] === "0" ? "1" : "0";
              const other = { ...replay.deal, commitment: first + replay.deal.commitment.slice(1) };
              const rules = { ...replay.deal.rules, trump: "northern" };
              const northern = { ...replay.deal, rules };
              return [await DurakDeck.check(deal), await DurakDeck.check(other),
                      await DurakDeck.check(northern)];
            }"""
        )
        assert [found["what"] for found in tampered] == ["hand", "commitment", "variant"]
        assert not any(found["ok"] for found in tampered)


def documented_vector() -> dict[str, Any]:
    text = DOC.read_text(encoding="utf-8")
    decks = dict(re.findall(r"^- (\d\d) cards: `([^`]+)`", text, re.MULTILINE))
    full = re.search(r"commitment for the game `abc123`:\s+`([0-9a-f]{64})`", text)
    hands = re.search(r"first player holds\s+`([^`]+)`, the dealer `([^`]+)`", text)
    trump = re.search(r"the trump card is `(\w+)`", text)
    tail = re.search(r"the stock ends `… ([^`]+)`", text)
    assert set(decks) == {"24", "36", "52"} and full and hands and trump and tail
    return {
        "seed": bytes(range(32)).hex(),
        "decks": {size: cards.split() for size, cards in decks.items()},
        "commitment": full.group(1),
        "hands": [cards.split() for cards in hands.groups()],
        "trump_card": trump.group(1),
        "tail": tail.group(1).split(),
    }


DERIVE = """async ([seed, sizes, players, dealer]) => {
  const decks = {};
  for (const size of sizes) decks[size] = await DurakDeck.shuffledDeck(seed, size);
  const dealt = DurakDeck.dealTurned(decks[36], players, dealer);
  return { decks, dealt, commitment: await DurakDeck.commitment(seed, "abc123") };
}"""


async def test_the_pages_deck_holds_the_documented_test_vector_and_agrees_with_the_engine(
    site: Site, browser: Browser, hidden: FinishedGame
) -> None:
    """docs/FAIR-DEAL.md's test vector, run through the page's own derivation; then seeds
    of every kind of table, each against the engine's deck and deal."""
    vector = documented_vector()
    async with replay_page(site, browser, ANNA, hidden) as page:
        await page.page.wait_for_selector('#app[data-step="0"]', timeout=WAIT)
        found = await page.page.evaluate(DERIVE, [vector["seed"], [24, 36, 52], 2, 1])
        assert found["commitment"] == vector["commitment"]
        assert found["decks"] == vector["decks"]
        dealt = found["dealt"]
        assert [sorted(hand) for hand in dealt["hands"]] == [sorted(h) for h in vector["hands"]]
        assert dealt["stock"][-3:] == vector["tail"] and dealt["stock"][-1] == vector["trump_card"]
        for number in range(6):
            seed = bytes((number * 37 + i) % 256 for i in range(32)).hex()
            players = 2 + number % 5
            dealer = number % players
            page_deck = await page.page.evaluate(DERIVE, [seed, [24, 36, 52], players, dealer])
            for size in (24, 36, 52):
                assert page_deck["decks"][str(size)] == [str(c) for c in shuffled_deck(seed, size)]
            assert page_deck["commitment"] == commitment(seed, "abc123")
            engine = new_game(
                players,
                rules=HouseRules(trump=TrumpChoice.TURNED),
                seed=seed,
                dealer=dealer,
                order=shuffled_deck(seed, 36),
            )
            hands = page_deck["dealt"]["hands"]
            for seat in range(players):
                assert sorted(hands[seat]) == sorted(str(c) for c in cards_of(engine.hands[seat]))
            assert page_deck["dealt"]["stock"] == [str(c) for c in engine.stock]
            assert page_deck["dealt"]["trump"] == engine.trump.letter


async def test_with_hands_not_turned_over_the_page_shows_only_the_commitment(
    site: Site, browser: Browser, hidden: FinishedGame
) -> None:
    tr = translator(BORIS.language)
    seat = hidden.seat_of(BORIS.user_id)
    assert seat is not None
    first = next(iter(steps(hidden))).state
    async with replay_page(site, browser, BORIS, hidden) as page:
        await page.page.wait_for_selector('#app[data-step="0"]', timeout=WAIT)
        deck = await page.page.inner_text("#deck")
        assert tr.t("verify-hidden") in deck and f"#{short(hidden.commitment)}" in deck
        assert await page.page.locator("#seats .row").count() == 0
        assert await hand_shown(page) == hand_codes(first, seat)
        others = {str(c) for c in first.hand(1 - seat)}
        drawn = set(re.findall(r'data-card="([0-9JQKA]+[SHDC])"', await page.html()))
        assert not drawn & others
        assert hidden.deal.seed not in await page.html()
        assert await page.page.inner_text("#hands-note") == tr.t("replay-hands-hidden")
        await readable(page)


async def test_a_replays_direct_link_opens_it_from_the_tables_page(
    site: Site, browser: Browser, shown: FinishedGame
) -> None:
    """Telegram opens the app's page with the link's ``startapp``: the table's page goes on
    to the replay it names, the chat's minus sign restored."""
    index = str(site.client.make_url("/"))
    param = replay_start_param(shown.chat_id, shown.game_id)
    page = await open_as(site, browser, ANNA, index, start_param=param)
    try:
        await page.page.wait_for_selector('#app[data-step="0"]', timeout=WAIT)
        assert page.page.url == replay_url(site, shown.chat_id, shown.game_id)
        assert await page.page.title() == translator("ru").t("replay-page-title")
    finally:
        await page.page.context.close()


async def test_anybody_who_did_not_play_sees_only_the_refusal(
    site: Site, browser: Browser, shown: FinishedGame
) -> None:
    async with replay_page(site, browser, STRANGER, shown) as page:
        await page.page.wait_for_selector('#app[data-failed="404"]', timeout=WAIT)
        assert await page.page.inner_text("#status") == translator("ru").t("replay-page-not-found")
        assert await page.page.locator("[data-card]").count() == 0
