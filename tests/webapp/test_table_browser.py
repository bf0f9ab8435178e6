"""The table page played by hand in a real browser: Debian's chromium driven by Playwright
against the Mini App's server in-process over a real Redis, each page with a stand-in for
Telegram's script and a signed ``initData``.

A whole 2-player game (with transfers) is played by drags on one page and by taps on the
other, a whole 4-player game likewise with a member of the group watching; after every move
each page, once its cards stopped moving, draws exactly the engine's position (its hand, the
pairs, the counts) and neither its DOM nor its socket ever held a card hidden from it. A
drop where a card may not go is felt as a refusal and changes nothing; the finished game
shows its result and «Сыграть ещё» makes the next lobby. A page hidden for three moves, or
sent three at once, shows the newest position with nothing left flying; a reader who asked
for less motion gets no animation. With a newer Telegram the page asks for full screen,
keeps inside the safe areas, puts take and pass on Telegram's own bottom buttons, reads and
keeps the player's options in CloudStorage, closes its options with the back button, and
turns vertical swipes off while a card is dragged."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from bot.i18n import translator
from bot.model import ChatSettings, GameRecord, Phase
from bot.services import Player
from engine import (
    Action,
    Believe,
    Blind,
    Doubt,
    GameState,
    HouseRules,
    Pass,
    Take,
    Transfer,
    apply,
    legal_actions,
)

from .conftest import ANNA, BORIS, CHAT, GLEB, MEMBER, TOKEN, VERA, Site, site_of_module
from .games import deal, play, play_a_move
from .pages import TablePage, open_page
from .signing import sign_init_data
from .taps import by_hand, play_by_drag, play_by_taps, source
from .test_pages import Privacy, readable

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

WAIT = 10.0  # seconds: a deadline for what should take milliseconds
MAX_MOVES = 500
TRANSFERS = HouseRules(transfer=True)

# What a newer Telegram client adds to the stand-in: its full screen, safe areas, bottom
# and back buttons, CloudStorage (``window.__cloud``, seeded by the test) and vertical
# swipes; every call kept in ``window.__telegram``.
NEWER_TELEGRAM = """
(() => {
  const app = window.Telegram.WebApp;
  const calls = (window.__telegram = []);
  const store = (window.__cloud = %(cloud)s);
  const button = (name) => ({
    handlers: [], params: {},
    setParams(params) { Object.assign(this.params, params); calls.push([name, params.text]); },
    onClick(handler) { this.handlers.push(handler); },
    offClick(handler) { this.handlers = this.handlers.filter((h) => h !== handler); },
    show() { this.params.is_visible = true; },
    hide() { this.params.is_visible = false; },
    press() { for (const handler of [...this.handlers]) handler(); },
  });
  Object.assign(app, {
    platform: "android",
    isVersionAtLeast: () => true,
    requestFullscreen() { calls.push(["fullscreen"]); },
    disableVerticalSwipes() { calls.push(["swipes", false]); },
    enableVerticalSwipes() { calls.push(["swipes", true]); },
    safeAreaInset: { top: 24, bottom: 16, left: 0, right: 0 },
    contentSafeAreaInset: { top: 40, bottom: 0, left: 0, right: 0 },
    MainButton: button("main"), SecondaryButton: button("secondary"), BackButton: button("back"),
    CloudStorage: {
      getItems(keys, done) {
        const found = {};
        for (const key of keys) found[key] = store[key] || "";
        setTimeout(() => done(null, found));
      },
      setItem(key, value) { store[key] = value; },
    },
  });
  app.HapticFeedback.selectionChanged = () => window.__haptics.push("selection");
})();
"""
# Counts the page's animations (a wrapper of Element.animate, run before the page).
COUNTED = """
window.__animations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__animations += 1;
  return animate.apply(this, args);
};
"""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def site(redis_url: str) -> AsyncIterator[Site]:
    async with site_of_module(redis_url) as opened:
        yield opened


async def open_as(
    site: Site, browser: Browser, user: Player | int, chat: int, **options: Any
) -> TablePage:
    """The table of ``chat`` opened by ``user`` (a player, or a member's id) in Telegram."""
    person = user if isinstance(user, Player) else Player(user, "Маша")
    init = sign_init_data(
        TOKEN, person.user_id, first_name=person.name, language_code=person.language or "ru"
    )
    who = {"id": person.user_id, "first_name": person.name, "language_code": person.language}
    url = f"{site.client.make_url('/')}?chat={chat}"
    return await open_page(browser, url, init, who, **options)


async def seated(site: Site, chat: int, players: list[Player], rules: HouseRules) -> GameRecord:
    await site.service.storage.settings.set(chat, ChatSettings(rules=rules, turn_timeout=0))
    return await deal(site.service, chat, *players)


async def newer(site: Site, chat: int, version: int, page: TablePage) -> GameRecord:
    """The chat's game once it is past ``version``: ``page`` draws a position only after
    it was saved."""
    await page.wait_version(version + 1, timeout=WAIT)
    record = await site.service.games.get(chat)
    assert record is not None and record.game.version > version
    return record


async def draws(page: TablePage, record: GameRecord, seat: int | None) -> None:
    """Once its cards stopped moving, ``page`` draws ``record``'s position as ``seat`` sees
    it: its own hand, the pairs on the felt, every other seat's count, nothing flying."""
    await page.wait_version(record.game.version)
    await page.still()
    state = record.game.state
    assert state is not None
    hand = await page.page.eval_on_selector_all(
        "#hand [data-card]", "ns => ns.map(n => n.dataset.card)"
    )
    assert (
        sorted(hand) == sorted(str(c) for c in state.hand(seat)) if seat is not None else not hand
    )
    pairs = await page.page.eval_on_selector_all(
        "#table .pair",
        "ps => ps.map(p => [...p.querySelectorAll('[data-card]')].map(n => n.dataset.card))",
    )
    bout = state.bout.pairs if state.bout is not None else ()
    assert pairs == [[str(a)] + ([str(c)] if c is not None else []) for a, c in bout]
    for other in range(state.players):
        if other == seat or state.finished:
            continue
        count = page.page.locator(f'#seats .seat[data-seat="{other}"] .count')
        if other not in state.out:
            assert await count.inner_text() == str(len(state.hand(other)))
    assert await page.page.locator("#flying > *").count() == 0


async def hand_cards(page: TablePage) -> list[str]:
    """The hand's cards, left to right."""
    found = await page.page.eval_on_selector_all(
        "#hand [data-card]", "ns => ns.map(n => n.dataset.card)"
    )
    return list(found)


def transfer_target(state: GameState, action: Action) -> int | None:
    """The seat a transfer passes the attack to (the engine's next defender)."""
    if not isinstance(action, Transfer):
        return None
    bout = apply(state, action)[0].bout
    return None if bout is None else bout.defender


def choose(rng: random.Random, state: GameState, seat: int) -> Action:
    """A random legal move, a transfer whenever there is one, taking now and then less."""
    actions = legal_actions(state, seat)
    transfers = [a for a in actions if isinstance(a, Transfer)]
    if transfers:
        return rng.choice(transfers)
    by_card = [a for a in actions if by_hand(a)]
    if by_card and rng.random() < 0.7:
        return rng.choice(by_card)
    return rng.choice(actions)


async def play_whole_game(
    site: Site, chat: int, record: GameRecord, pages: dict[int | None, TablePage], seed: int
) -> tuple[GameRecord, dict[str, int]]:
    """Whoever must act plays on their page, by drags at even seats and by taps at odd ones,
    until the game ends; every page checked after every move."""
    privacy = Privacy(pages)  # type: ignore[arg-type]
    privacy.note(record)
    for seat, page in pages.items():
        await draws(page, record, seat)
    rng = random.Random(seed)
    made = {"drags": 0, "taps": 0, "transfers dragged onto a seat": 0}
    for _ in range(MAX_MOVES):
        state = record.game.state
        assert state is not None
        if state.finished:
            return record, made
        seat = rng.choice([s for s in state.acting if legal_actions(state, s)])
        action = choose(rng, state, seat)
        if seat % 2 == 0:
            target = transfer_target(state, action)
            await play_by_drag(pages[seat], action, target)
            made["drags"] += by_hand(action)
            made["transfers dragged onto a seat"] += target is not None
        else:
            await play_by_taps(pages[seat], state, action)
            made["taps"] += by_hand(action)
        record = await newer(site, chat, record.game.version, pages[seat])
        played = record.game.state
        assert played is not None and played.moves == state.moves + 1
        privacy.note(record)
        for viewer, page in pages.items():
            await draws(page, record, viewer)
        await privacy.check(record)
    raise AssertionError(f"the game did not end in {MAX_MOVES} moves")


async def finished_shows_result_and_again(
    site: Site, chat: int, record: GameRecord, pages: dict[int | None, TablePage]
) -> None:
    state = record.game.state
    assert state is not None
    for page in pages.values():
        await page.wait_version(record.game.version)
        rows = page.page.locator("#result li")
        assert await rows.count() == len(state.out) + (state.durak is not None)
        if state.durak is not None:
            durak = page.page.locator("#result li.durak")
            assert await durak.get_attribute("data-seat") == str(state.durak)
        await readable(page)
    await pages[0].tap("#controls button.again")
    lobby = await newer(site, chat, record.game.version, pages[0])
    assert lobby.game.phase is Phase.LOBBY
    assert [p.user_id for p in lobby.game.players] == [p.user_id for p in record.game.players]
    for page in pages.values():
        await page.wait_version(lobby.game.version)


async def test_two_players_play_a_whole_game_by_drags_and_taps(
    site: Site, browser: Browser
) -> None:
    chat = CHAT - 20
    record = await seated(site, chat, [ANNA, BORIS], TRANSFERS)
    seats = {p.user_id: seat for seat, p in enumerate(record.game.players)}
    people = {seats[ANNA.user_id]: ANNA, seats[BORIS.user_id]: BORIS}
    pages: dict[int | None, TablePage] = {
        seat: await open_as(site, browser, person, chat) for seat, person in people.items()
    }
    for seat, page in pages.items():
        await draws(page, record, seat)
    # A card dropped where it may not go (the player's own seat): felt, and nothing moves.
    state = record.game.state
    assert state is not None
    mover = state.acting[0]
    card = next(a for a in legal_actions(state, mover) if by_hand(a))
    await pages[mover].drag(source(card), "#seats .seat.you")
    await pages[mover].still()
    assert "error" in await pages[mover].haptics()
    unchanged = await site.service.games.get(chat)
    assert unchanged is not None and unchanged.game.version == record.game.version
    assert await pages[mover].version() == record.game.version
    finished, made = await play_whole_game(site, chat, record, pages, seed=47)
    assert made["drags"] >= 10 and made["taps"] >= 10, made
    assert made["transfers dragged onto a seat"] >= 1, made
    assert "light" in [*await pages[0].haptics(), *await pages[1].haptics()]  # a move, felt
    await finished_shows_result_and_again(site, chat, finished, pages)
    for page in pages.values():
        await page.page.context.close()


async def test_four_players_play_while_a_member_watches(site: Site, browser: Browser) -> None:
    record = await seated(site, CHAT, [ANNA, BORIS, VERA, GLEB], HouseRules())
    by_id = {p.user_id: p for p in (ANNA, BORIS, VERA, GLEB)}
    pages: dict[int | None, TablePage] = {
        seat: await open_as(site, browser, by_id[p.user_id], CHAT)
        for seat, p in enumerate(record.game.players)
    }
    pages[None] = await open_as(site, browser, MEMBER, CHAT)
    watcher = pages[None].page
    await pages[None].wait_version(record.game.version)
    assert await watcher.locator("#seats .seat").count() == 4
    assert await watcher.locator("#seats .seat.you").count() == 0
    tr = translator("ru")
    assert await watcher.inner_text("#hand") == tr.t("webapp-watching")
    finished, made = await play_whole_game(site, CHAT, record, pages, seed=4)
    assert made["drags"] >= 5 and made["taps"] >= 5, made
    await finished_shows_result_and_again(site, CHAT, finished, pages)
    for page in pages.values():
        await page.page.context.close()


async def test_a_page_behind_or_hidden_shows_the_newest_position(
    site: Site, browser: Browser
) -> None:
    chat = CHAT - 21
    record = await seated(site, chat, [ANNA, BORIS], HouseRules())
    seat = record.game.seat_of(ANNA.user_id)
    page = await open_as(site, browser, ANNA, chat, telegram_more=COUNTED)
    await draws(page, record, seat)
    animations = "window.__animations"
    # One move at a time, the page visible: the cards move.
    before = await page.page.evaluate(animations)
    record = await play_a_move(site.service, record)
    await draws(page, record, seat)
    assert await page.page.evaluate(animations) > before
    # Three moves while the page is hidden: drawn at once, nothing animated.
    await page.hidden(True)
    before = await page.page.evaluate(animations)
    for _ in range(3):
        record = await play_a_move(site.service, record)
        await page.wait_version(record.game.version)
    assert await page.page.evaluate(animations) == before
    await page.hidden(False)
    await draws(page, record, seat)
    # Three moves at once: the page skips to the newest and nothing is left flying.
    for _ in range(3):
        record = await play_a_move(site.service, record)
    await draws(page, record, seat)
    await page.page.context.close()
    # A reader who asked for less motion: the same positions, no animation at all.
    calm = await open_as(site, browser, ANNA, chat, telegram_more=COUNTED, reduced_motion=True)
    await draws(calm, record, seat)
    for _ in range(2):
        record = await play_a_move(site.service, record)
        await draws(calm, record, seat)
    assert await calm.page.evaluate(animations) == 0
    await calm.page.context.close()


async def test_a_newer_telegram_frames_the_table(site: Site, browser: Browser) -> None:
    chat = CHAT - 22
    record = await seated(site, chat, [ANNA, BORIS], HouseRules())
    anna = record.game.seat_of(ANNA.user_id)
    assert anna is not None
    cloud = '{"table_order": "rank", "table_deck": "four"}'
    page = await open_as(site, browser, ANNA, chat, telegram_more=NEWER_TELEGRAM % {"cloud": cloud})
    await draws(page, record, anna)
    calls = "window.__telegram"
    assert ["fullscreen"] in await page.page.evaluate(calls)
    root = "document.documentElement"
    assert await page.page.evaluate(f"{root}.style.getPropertyValue('--safe-top')") == "64px"
    # The options kept in CloudStorage: the hand by rank (trumps last), four colours.
    assert await page.page.evaluate(f"{root}.dataset.deck") == "four"
    state = record.game.state
    assert state is not None
    trump = "SHDC"[state.trump]
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    suits = "SHCD"
    by_rank = sorted(
        (str(c) for c in state.hand(anna)),
        key=lambda c: (c[-1] == trump, ranks.index(c[:-1]), suits.index(c[-1])),
    )
    assert await hand_cards(page) == by_rank
    # The options: opened, the back button shows; large cards kept; the back button closes.
    await page.tap("#options-open")
    back = "window.Telegram.WebApp.BackButton"
    assert await page.page.evaluate(f"{back}.params.is_visible") is True
    await page.page.locator('#options input[value="large"]').click()
    assert await page.page.evaluate("window.__cloud.table_size") == "large"
    assert await page.page.evaluate(f"{root}.dataset.size") == "large"
    await page.page.evaluate(f"{back}.press()")
    assert await page.page.locator("#options").is_hidden()
    assert await page.page.evaluate(f"{back}.params.is_visible") is False
    # Dragging a card turns Telegram's vertical swipes off, and on again after.
    record = await until(site, chat, record, anna, lambda actions: any(map(by_hand, actions)))
    await draws(page, record, anna)
    state = record.game.state
    assert state is not None
    card = next(a for a in legal_actions(state, anna) if by_hand(a))
    await page.drag(source(card), "#hand")
    swipes = [c for c in await page.page.evaluate(calls) if c[0] == "swipes"]
    assert swipes[-2:] == [["swipes", False], ["swipes", True]]
    # Take and pass on Telegram's own bottom button, not on the page.
    record = await until(
        site, chat, record, anna, lambda actions: any(isinstance(a, Take | Pass) for a in actions)
    )
    await draws(page, record, anna)
    state = record.game.state
    assert state is not None
    tr = translator("ru")
    main = "window.Telegram.WebApp.MainButton"
    words = {tr.t(key) for key in ("btn-take", "btn-pass", "btn-pass-beaten", "btn-pass-taking")}
    assert await page.page.evaluate(f"{main}.params.text") in words
    assert await page.page.evaluate(f"{main}.params.is_visible") is True
    assert await page.page.locator("#controls button.take, #controls button.pass").count() == 0
    await page.page.evaluate(f"{main}.press()")
    record = await newer(site, chat, record.game.version, page)
    played = record.game.state
    assert played is not None and played.moves == state.moves + 1
    await draws(page, record, anna)
    await page.page.context.close()


async def test_r_doubt_3_the_judgment_on_telegrams_two_bottom_buttons(
    site: Site, browser: Browser
) -> None:
    """In ``doubt`` the attacker judges the covers laid face down (R-DOUBT-3): «Верю» on
    Telegram's main bottom button, «Не верю» on its second one; a press plays it."""
    chat = CHAT - 23
    record = await seated(site, chat, [ANNA, BORIS], HouseRules(blind=Blind.DOUBT))
    anna = record.game.seat_of(ANNA.user_id)
    assert anna is not None
    page = await open_as(site, browser, ANNA, chat, telegram_more=NEWER_TELEGRAM % {"cloud": "{}"})
    record = await until(site, chat, record, anna, judging)
    await page.wait_version(record.game.version)  # the covers lie face down: no ``draws``
    tr = translator("ru")
    buttons = "window.Telegram.WebApp"
    assert await page.page.evaluate(f"{buttons}.MainButton.params.text") == tr.t("btn-believe")
    assert await page.page.evaluate(f"{buttons}.SecondaryButton.params.text") == tr.t("btn-doubt")
    assert await page.page.locator("#controls button.believe, #controls button.doubt").count() == 0
    state = record.game.state
    assert state is not None
    await page.page.evaluate(f"{buttons}.SecondaryButton.press()")
    record = await newer(site, chat, record.game.version, page)
    played = record.game.state
    assert played is not None and played.moves == state.moves + 1
    assert not judging(legal_actions(played, anna))  # judged
    await page.wait_version(record.game.version)
    await page.page.context.close()


def judging(actions: list[Action]) -> bool:
    """Whether the attacker is to judge the covers laid face down (R-DOUBT-3)."""
    return any(isinstance(a, Believe | Doubt) for a in actions)


async def until(
    site: Site, chat: int, record: GameRecord, seat: int, wanted: Callable[[list[Action]], bool]
) -> GameRecord:
    """Moves through the service, whoever must act playing a card where they can, until
    ``seat`` must act and its moves are ``wanted``."""
    for _ in range(MAX_MOVES):
        state = record.game.state
        assert state is not None and not state.finished
        if seat in state.acting and wanted(legal_actions(state, seat)):
            return record
        actions = legal_actions(state, state.acting[0])
        record = await play(
            site.service, record, next((a for a in actions if by_hand(a)), actions[0])
        )
    raise AssertionError("never came")
