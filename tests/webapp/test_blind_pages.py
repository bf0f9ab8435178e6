"""The blind family (RULES.md section 14) in a real browser, as ``test_pages`` plays the open
game: the bot as a process against the fake Telegram and a real Redis, two users (ru, uk)
playing in two pages of Debian's chromium. A whole ``reversed`` game is played by tapping
backs (an opening or a throw-in at once; a cover: the back, then the attack card when there
are several), and a whole ``doubt`` game with its judgments by the «Верю» and «Не верю»
buttons. After every move, neither page's DOM (its cards, its accessible names) nor any
socket message it received, of any type, holds a card hidden from its seat, by its code or
written for people: in ``reversed`` its own hand, in ``doubt`` the other hand, the covers
lying face down but the defender's own, and the covers discarded unseen."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from functools import partial
from types import SimpleNamespace
from typing import Any, cast

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from bot.i18n import SUPPORTED, translator
from bot.model import ChatSettings, GameRecord, Phase
from bot.storage import SettingsStore
from bot.ui.callbacks import encode_action
from bot.ui.common import card_label
from engine import (
    Action,
    AttackSlot,
    Believe,
    Blind,
    Card,
    Defend,
    DefendSlot,
    Doubt,
    GameState,
    HouseRules,
    Take,
    ThrowSlot,
    legal_actions,
    new_game,
)
from tests.e2e.fake_telegram import FakeUser
from tests.e2e.harness import Table

from .bot_site import Site, open_bot_site
from .hidden import strings
from .pages import TablePage
from .taps import play_by_taps
from .test_pages import (
    Privacy,
    fits_a_narrow_phone,
    frame_cards,
    newer,
    open_for,
    readable,
    table_button,
)

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

MAX_MOVES = 500


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def site(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Site]:
    async for opened in open_bot_site(redis_url, lambda: tmp_path_factory.mktemp("bot")):
        yield opened


class BlindPrivacy(Privacy):
    """``Privacy`` (the cards drawn), and besides: no hidden card is named anywhere in the
    page's words (an accessible name, a text), nor in any socket message the page received,
    whatever its type (the page's words sent first, a state, a refusal's pop-up): neither by
    its code ("7H") nor written as people read it («7♥», «Т♠»). A message that carries no version
    is held to the position the page was last sent (before the first: the first)."""

    def __init__(self, pages: dict[int, TablePage]) -> None:
        super().__init__(pages)
        self.words: dict[tuple[int, int], set[str]] = {}
        self.shown: dict[int, int | None] = dict.fromkeys(pages)  # seat -> version last sent

    def note(self, record: GameRecord) -> None:
        super().note(record)
        for seat in self.pages:
            hidden = self.hidden[seat, record.game.version]
            self.words[seat, record.game.version] = {w for card in hidden for w in written(card)}

    async def check(self, record: GameRecord) -> None:
        for seat, page in self.pages.items():
            self.check_frames(seat, page.frames[self.checked[seat] :], record.game.version)
        await super().check(record)
        for seat, page in self.pages.items():
            leaked = written_in([await page.html()], self.words[seat, record.game.version])
            assert not leaked, f"seat {seat}'s page names {leaked}"

    def check_frames(self, seat: int, frames: list[dict[str, Any]], now: int) -> None:
        """Every message of ``frames`` against what was hidden from ``seat`` when it was
        sent; ``now``: the version being checked, for a page that was sent no state yet."""
        version = self.shown[seat]
        if version is None:
            version = next((f["version"] for f in frames if f.get("type") == "state"), now)
        for frame in frames:
            if frame.get("type") == "state":
                version = frame["version"]
            codes = frame_cards(frame) & self.hidden[seat, version]
            assert not codes, f"seat {seat} was sent {codes} in a {frame.get('type')} message"
            words = written_in(strings(frame), self.words[seat, version])
            assert not words, f"seat {seat} was sent {words} in a {frame.get('type')} message"
        self.shown[seat] = version


def written(card: str) -> set[str]:
    """``card`` ("7H") as the bot writes it for people, in every language it speaks."""
    return {card_label(Card.parse(card), translator(lang)) for lang in SUPPORTED}


def written_in(texts: Iterable[str], words: set[str]) -> set[str]:
    """The ``words`` (cards as people read them) found anywhere in ``texts``, inside a
    longer text too: no label is part of another («10♥» holds no «0♥» label)."""
    texts = list(texts)
    return {word for word in words if any(word in text for text in texts)}


async def test_the_privacy_check_finds_a_hidden_card_in_any_message() -> None:
    """The check above can fail: a card of a ``reversed`` seat's own row, sent to it in a
    message of any type, by its code or in words, is caught; a card it may see is not."""
    state = new_game(2, rules=HouseRules(blind=Blind.REVERSED), seed=3)
    record = cast(GameRecord, SimpleNamespace(game=SimpleNamespace(state=state, version=1)))
    privacy = BlindPrivacy({0: cast(TablePage, None)})
    privacy.note(record)
    own = next(card for card in state.rows[0] if card != state.trump_card)
    seen = state.rows[1][0]  # R-REV-1: the other seat's faces
    word = card_label(own, translator("ru"))
    leaks: list[dict[str, Any]] = [
        {"type": "hello", "texts": {"webapp-hint": f"слот 1: {word}"}},
        {"type": "answer", "id": 7, "text": f"{word}?"},
        {"type": "tip", "card": str(own)},
        {"type": "state", "version": 1, "log": [f"Аня: {word}"]},
    ]
    for leak in leaks:
        with pytest.raises(AssertionError, match="was sent"):
            privacy.check_frames(0, [leak], 1)
    public: list[dict[str, Any]] = [
        {"type": "state", "version": 1, "seen": str(seen)},
        {"type": "answer", "id": 7, "text": card_label(seen, translator("uk"))},
    ]
    privacy.check_frames(0, public, 1)


async def blind_table(site: Site, blind: Blind) -> tuple[Table, GameRecord, dict[int, FakeUser]]:
    """Two players at a table set to ``blind`` (the chat's rules, in storage), dealt."""
    world = site.world
    table = world.table(2)
    settings = ChatSettings(rules=HouseRules(blind=blind), turn_timeout=0)
    await SettingsStore(world.redis, world.keys, ChatSettings()).set(table.group.id, settings)
    await table.start_game()
    record = await table.settled()
    state = record.game.state
    assert state is not None and state.rules.blind is blind
    users = {user.id: user for user in table.players}
    seat_of = {seat: users[player.user_id] for seat, player in enumerate(record.game.players)}
    return table, record, seat_of


async def open_pages(
    site: Site, browser: Browser, table: Table, record: GameRecord, seat_of: dict[int, FakeUser]
) -> tuple[dict[int, TablePage], BlindPrivacy]:
    pages = {
        seat: await open_for(site, browser, user, table_button(table, record, user))
        for seat, user in seat_of.items()
    }
    privacy = BlindPrivacy(pages)
    privacy.note(record)
    for page in pages.values():
        await page.wait_version(record.game.version)
    await privacy.check(record)
    return pages, privacy


def sound(state: GameState, action: Action) -> bool:
    """A slot play that the open game would allow (no misplay, R-REV-3): what a player
    with a good guess plays; the others are misplays."""
    if isinstance(action, ThrowSlot):
        card = state.rows[action.player][action.slot - 1]
        bout = state.bout
        assert bout is not None
        return any(c is not None and c.rank == card.rank for pair in bout.pairs for c in pair)
    if isinstance(action, DefendSlot) and action.on is not None:
        card = state.rows[action.player][action.slot - 1]
        if card.suit == action.on.suit:
            return card.rank > action.on.rank
        return card.suit == state.trump
    return True


def choose(state: GameState, seat: int, rng: random.Random, judgments: int) -> Action:
    """Mostly a sound play (so that the game ends), now and then a random one (a misplay, a
    take); a judge doubts and believes in turn (``judgments``: how many were made)."""
    actions = legal_actions(state, seat)
    judges = [a for a in actions if isinstance(a, Believe | Doubt)]
    if judges:
        doubt = judgments % 2 == 0
        return next(a for a in judges if isinstance(a, Doubt) is doubt)
    good = [a for a in actions if sound(state, a)]
    if good and rng.random() < 0.85:
        return rng.choice(good)
    return rng.choice(actions)


async def draws_reversed(pages: dict[int, TablePage], state: GameState) -> None:
    """R-REV-1: each page draws its own hand as backs, one a slot, and the other's face up in
    its seat, in slot order (R-BLIND-2)."""
    for seat, page in pages.items():
        backs = page.page.locator("#hand button[data-slot]")
        assert await backs.count() == len(state.rows[seat])
        assert await page.page.locator("#hand [data-card]").count() == 0
        other = 1 - seat
        row = page.page.locator(f'#seats [data-seat="{other}"] .row [data-card]')
        shown = [await row.nth(i).get_attribute("data-card") for i in range(await row.count())]
        assert shown == [str(card) for card in state.rows[other]]
        assert await page.page.locator(f'#seats [data-seat="{seat}"] .row').count() == 0


async def play_through_pages(
    table: Table,
    record: GameRecord,
    pages: dict[int, TablePage],
    privacy: BlindPrivacy,
    rng: random.Random,
    after_each: Callable[[GameRecord], Awaitable[None]] | None = None,
) -> list[Action]:
    """Everybody plays in their page until the game ends; every page checked after each
    move. The actions played."""
    played: list[Action] = []
    for _ in range(MAX_MOVES):
        record = await table.wait_record(partial(newer, version=record.game.version - 1))
        if record.game.phase is Phase.FINISHED:
            return played
        state = record.game.state
        assert state is not None
        privacy.note(record)
        seat = rng.choice(sorted(s for s in state.acting if legal_actions(state, s)))
        judgments = sum(isinstance(a, Believe | Doubt) for a in played)
        action = choose(state, seat, rng, judgments)
        await play_by_taps(pages[seat], state, action)
        played.append(action)
        after = await table.wait_record(partial(newer, version=record.game.version))
        privacy.note(after)
        for page in pages.values():
            await page.wait_version(after.game.version)
        await privacy.check(after)
        if after_each is not None:
            await after_each(after)
        record = after
    raise AssertionError(f"the game did not end in {MAX_MOVES} moves")


async def test_r_rev_a_whole_reversed_game_is_played_by_tapping_backs(
    site: Site, browser: Browser
) -> None:
    table, record, seat_of = await blind_table(site, Blind.REVERSED)
    pages, privacy = await open_pages(site, browser, table, record, seat_of)
    state = record.game.state
    assert state is not None
    await draws_reversed(pages, state)
    for seat, page in pages.items():  # a back is named by its slot, in its reader's words
        tr = translator(seat_of[seat].language_code or "ru")
        first = page.page.locator('#hand button[data-slot="1"]')
        assert await first.get_attribute("aria-label") == tr.t("webapp-slot-back", slot=1)
    await fits_a_narrow_phone(pages[0])

    async def drawn(after: GameRecord) -> None:
        if after.game.phase is Phase.PLAYING and after.game.state is not None:
            await draws_reversed(pages, after.game.state)

    played = await play_through_pages(
        table, record, pages, privacy, random.Random(14), after_each=drawn
    )
    await table.says_game_over()
    assert sum(isinstance(a, AttackSlot) for a in played) >= 3
    assert any(isinstance(a, ThrowSlot) for a in played)
    assert sum(isinstance(a, DefendSlot) for a in played) >= 3
    final = await table.record()
    assert final is not None and final.game.state is not None
    assert final.game.state.misplays >= 1  # a wrong guess was played, and punished
    for seat, page in pages.items():
        await readable(page)
        language = seat_of[seat].language_code or "ru"
        assert await page.page.inner_text("#status") == translator(language).t("webapp-finished")
        await page.page.context.close()


async def test_r_doubt_a_whole_doubt_game_is_judged_by_the_pages_buttons(
    site: Site, browser: Browser
) -> None:
    table, record, seat_of = await blind_table(site, Blind.DOUBT)
    pages, privacy = await open_pages(site, browser, table, record, seat_of)
    judged: list[str] = []

    async def covers_drawn(after: GameRecord) -> None:
        """While covers lie face down: the defender's page shows them (marked), the
        attacker's shows backs and, once all are laid, the chat's two judge buttons."""
        state = after.game.state
        if after.game.phase is not Phase.PLAYING or state is None or state.bout is None:
            return
        bout = state.bout
        down = [c for c in bout.covers if c is not None and state.face_down >> c & 1]
        if not down:
            return
        defender, attacker = pages[bout.defender], pages[bout.attacker]
        shown = defender.page.locator("#table .cover.face-down")
        assert await shown.count() == len(down)
        assert await attacker.page.locator("#table .cover.back-card").count() == len(down)
        assert await attacker.page.locator("#table .cover[data-card]").count() == 0
        judges = [a for a in legal_actions(state, bout.attacker) if isinstance(a, Believe | Doubt)]
        if judges:
            tr = translator(seat_of[bout.attacker].language_code or "ru")
            for action, word in zip(judges, ("btn-believe", "btn-doubt"), strict=True):
                button = attacker.page.locator(f'#controls [data-act="{encode_action(action)}"]')
                assert await button.inner_text() == tr.t(word)
                assert await button.get_attribute("aria-label") == tr.t(word)
            judged.append("shown")
            await readable(attacker)
            await readable(defender)

    played = await play_through_pages(
        table, record, pages, privacy, random.Random(5), after_each=covers_drawn
    )
    await table.says_game_over()
    assert judged
    assert any(isinstance(a, Believe) for a in played) and any(isinstance(a, Doubt) for a in played)
    assert any(isinstance(a, Defend) for a in played) and any(isinstance(a, Take) for a in played)
    final = await table.record()
    assert final is not None and final.game.state is not None
    assert final.game.state.unseen  # covers went to the discard pile unseen (R-DOUBT-5)
    for page in pages.values():
        await page.page.context.close()


async def test_r_chi_a_whole_chinese_game_is_played_by_tapping_backs(
    site: Site, browser: Browser
) -> None:
    """R-CHI-1/2: no page ever draws the face of a hand, its own included; a face-down
    opening lies on every page's table as a back until the answer turns both cards up."""
    table, record, seat_of = await blind_table(site, Blind.CHINESE)
    pages, privacy = await open_pages(site, browser, table, record, seat_of)
    face_down_seen: list[int] = []

    async def backs_only(after: GameRecord) -> None:
        state = after.game.state
        if after.game.phase is not Phase.PLAYING or state is None:
            return
        for page in pages.values():
            assert await page.page.locator("#hand [data-card]").count() == 0
            assert await page.page.locator("#seats .row [data-card]").count() == 0
            opening = page.page.locator("#table .pair .back-card")
            assert await opening.count() == (1 if state.face_down else 0)
        if state.face_down:
            face_down_seen.append(after.game.version)

    played = await play_through_pages(
        table, record, pages, privacy, random.Random(7), after_each=backs_only
    )
    await table.says_game_over()
    assert sum(isinstance(a, AttackSlot) for a in played) >= 3
    assert sum(isinstance(a, DefendSlot) for a in played) >= 3
    assert len(face_down_seen) >= 3
    for page in pages.values():
        await page.page.context.close()
