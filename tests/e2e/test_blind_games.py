"""The blind family end to end (RULES.md section 14): the real bot, the fake Telegram and a
real Redis. For each of ``reversed``, ``chinese`` and ``doubt``, two people and a computer
play a whole game by pressing the buttons shown. At every step no message the bot sent a
person (privately or in the group) names a card that person's seat has not seen
(``blind_seen``); each private message shows what its seat sees, the group's table only
counts and backs; the group reads the misplays (``reversed``), the blind answers
(``chinese``) and the judgments (``doubt``); in ``doubt`` people judge with «✅ Верю» /
«❌ Не верю», and the covers believed are never shown to anybody but their defender."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import pytest

from bot.i18n import Translator, translator
from bot.model import ChatSettings, GameRecord, LogKind, Phase
from bot.schema.presses import Move, MoveKind, Pick
from bot.storage import SettingsStore
from bot.ui.board import narrate
from bot.ui.callbacks import HandPress, decode_press
from bot.ui.common import card_label, name
from bot.ui.render import hand_scene, hand_view
from engine import (
    Action,
    Believe,
    Blind,
    Card,
    GameState,
    HouseRules,
    IllegalAction,
    Misplayed,
    Take,
    apply,
)
from engine.cards import cards_of

from .blind_seen import Sight, named
from .conftest import World
from .fake_telegram import FakeMessage, FakeUser
from .harness import STALE, Table, plain

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

# What the group must read in each game: the misplays, the blind answers, the judgments.
TOLD = {
    Blind.REVERSED: {LogKind.MISPLAYED},
    Blind.CHINESE: {LogKind.ANSWERED},
    Blind.DOUBT: {LogKind.BELIEVED, LogKind.DOUBTED},
}
SENDS = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup"})


def texts_of(params: dict[str, Any]) -> list[str]:
    """A call's text and its buttons' labels."""
    markup = params.get("reply_markup")
    if isinstance(markup, str):
        markup = json.loads(markup) if markup else None
    rows = (markup or {}).get("inline_keyboard") or []
    return [str(params.get("text") or ""), *(str(b.get("text", "")) for r in rows for b in r)]


@dataclass
class Watch:
    """What the people were sent in one game, checked as it goes."""

    table: Table
    blind: Blind
    sight: Sight = field(default_factory=Sight)
    mark: int = 0  # the calls checked so far
    shown: defaultdict[int | None, set[Card]] = field(default_factory=lambda: defaultdict(set))
    told: set[str] = field(default_factory=set)  # log entries the group was seen to read
    judged: int = 0  # positions where a person was offered «Верю» / «Не верю»
    believed: int = 0  # «Верю» said by a person
    misplays: int = 0

    def seat_of_chat(self, record: GameRecord, chat_id: int | None) -> int | None:
        """The seat reading a chat: None for the group, a person's seat for their private
        chat (a private chat's id is its user's)."""
        if chat_id == self.table.group.id:
            return None
        seat = record.game.seat_of(chat_id or 0)
        assert seat is not None, f"a message to chat {chat_id}"
        return seat

    def check_sent(self, record: GameRecord, until: int) -> None:
        """Every message sent or edited since the last check, up to the call ``until``
        (made before ``record`` was read, so drawn from it or an earlier position), names
        only cards its reader has seen."""
        calls = self.table.fake.world.calls[self.mark : until]
        self.mark = until
        chats = {self.table.group.id, *(user.id for user in self.table.players)}
        for call in calls:
            if call.method not in SENDS or not call.ok or call.chat_id not in chats:
                continue
            seat = self.seat_of_chat(record, call.chat_id)
            texts = texts_of(call.params)
            leaked = self.sight.unseen_in(texts, seat)
            assert leaked == set(), f"seat {seat} was shown {leaked}: {texts}"
            self.shown[seat] |= {card for text in texts for card in named(text)}
            if seat is None:
                assert "🂠1" not in texts[0], texts[0]  # no row of any hand in the group

    def check_popup(self, text: str | None, seat: int) -> None:
        leaked = self.sight.unseen_in(text or "", seat)
        assert leaked == set(), f"seat {seat}'s pop-up shows {leaked}: {text}"


def moved_on(record: GameRecord, *, moves: int) -> bool:
    return record.game.state is not None and record.game.state.moves != moves


def person_seats(record: GameRecord) -> list[int]:
    return [seat for seat, p in enumerate(record.game.players) if not p.computer]


def expected_lines(record: GameRecord, seat: int) -> list[str]:
    """Lines the seat's message must show, worked out from the whole state: the other
    hands face up in slot order (``reversed``), the own as numbered backs (``reversed``,
    ``chinese``) or face up (``doubt``)."""
    game, state = record.game, record.game.state
    assert state is not None
    tr = translator(game.players[seat].language)
    blind = state.rules.blind
    lines: list[str] = []
    row = state.rows[seat]
    if blind is Blind.DOUBT or not row:
        return lines
    slots = " ".join(tr.t("btn-slot", slot=n) for n in range(1, len(row) + 1))
    lines.append(tr.t("hand-slots", count=len(row), slots=slots))
    if blind is Blind.REVERSED:
        for other, cards in enumerate(state.rows):
            if other != seat and cards:
                labels = " ".join(card_label(c, tr) for c in cards)
                lines.append(tr.t("hand-row", name=name(game, other), cards=labels))
    return [plain(line) for line in lines]


def shows_position(table: Table, record: GameRecord) -> bool:
    """Every person's message shows ``record`` as the bot renders it (with or without a
    card picked for the cover)."""
    game, state = record.game, record.game.state
    assert state is not None
    for seat in person_seats(record):
        message = table.hand_message(record, table.by_id[game.players[seat].user_id])
        if message is None:
            return False
        tr = translator(game.players[seat].language)
        scene = hand_scene(game, seat)
        picks: list[Card | None] = [None, *(a for a, _ in scene.view.table), *scene.view.hand]
        if all(hand_view(scene, tr, picked=p).text != message.raw_text for p in picks):
            return False
    return True


def misplays(state: GameState, action: Action) -> bool:
    """Whether ``action`` would be a misplay (the test's oracle, from the whole state)."""
    try:
        _, events = apply(state, action)
    except IllegalAction:
        return False
    return any(isinstance(e, Misplayed) for e in events)


def choose(
    watch: Watch,
    record: GameRecord,
    choices: list[tuple[FakeUser, FakeMessage, str]],
    rng: random.Random,
) -> tuple[FakeUser, FakeMessage, str]:
    """A button to press: at random, but «Беру» seldom (people cover, so the attacker has
    covers to judge), the first judgment «Верю», and in ``reversed`` after the first misplay
    mostly a play that is not one, so that the game ends."""
    state = record.game.state
    assert state is not None

    def step(choice: tuple[FakeUser, FakeMessage, str]) -> Action | Pick | None:
        user, _, data = choice
        press = decode_press(HandPress.unpack(data).act)
        seat = record.game.seat_of(user.id)
        assert seat is not None
        if isinstance(press, Move):
            return press.action(seat)
        return press if isinstance(press, Pick) else None

    steps = [(choice, step(choice)) for choice in choices]
    believe = [c for c, s in steps if isinstance(s, Believe)]
    if believe and not watch.believed:
        return believe[0]
    pool = [(c, s) for c, s in steps if not isinstance(s, Take)] or steps
    if rng.random() < 0.1:
        pool = steps
    if state.rules.blind is Blind.REVERSED and watch.misplays and rng.random() < 0.9:
        sound = [(c, s) for c, s in pool if not (isinstance(s, Action) and misplays(state, s))]
        pool = sound or pool
    return rng.choice(pool)[0]


async def blind_table(world: World, blind: Blind) -> Table:
    """Two people and a computer sat down under ``blind`` (set in storage), dealt."""
    table = world.table(2)
    settings = SettingsStore(world.redis, world.keys, ChatSettings())
    chosen = ChatSettings(rules=HouseRules(blind=blind), turn_timeout=0)
    await settings.set(table.group.id, chosen)
    await table.all_start_bot()
    await table.gather()
    lobby = await table.lobby_message()
    await table.press_lobby(table.players[0], lobby, "bot+")
    await table.wait_record(lambda r: len(r.game.players) == 3)
    dealt = await table.deal()
    assert dealt.game.settings.rules.blind is blind
    return table


async def group_reads(watch: Watch, record: GameRecord, enough: int = 3) -> None:
    """The group's table reads the new log entries of the kinds ``TOLD`` names (the first
    ``enough``: the group's table is edited about once a second, so waiting for each would
    slow the game to its pace)."""
    game, table = record.game, watch.table
    tr = translator(game.settings.language)
    for entry in game.log:
        key = json.dumps(entry, sort_keys=True)
        if entry.get("e") not in TOLD[watch.blind] or key in watch.told:
            continue
        watch.told.add(key)
        watch.misplays += entry.get("e") == LogKind.MISPLAYED
        if len(watch.told) > enough:
            continue
        message = table.table_message(record)
        assert message is not None
        await table.says(message, narrate(entry, game, tr), timeout=20)


async def play_blind_game(world: World, blind: Blind, seed: int) -> tuple[Watch, GameRecord]:
    fake = world.fake
    since = fake.mark()
    table = await blind_table(world, blind)
    watch = Watch(table, blind, mark=since)
    rng = random.Random(seed)
    asked_cards: set[int] = set()
    for _ in range(1500):
        until = fake.mark()
        record = await table.settled()
        state = record.game.state
        assert state is not None
        watch.sight.look(state)
        watch.check_sent(record, until)
        if record.game.phase is Phase.FINISHED:
            await fake.wait_idle()
            watch.check_sent(record, fake.mark())
            return watch, record
        await fake.wait_for(partial(shows_position, table, record), timeout=10)
        for seat in person_seats(record):
            user = table.by_id[record.game.players[seat].user_id]
            message = table.hand_message(record, user)
            assert message is not None
            text = message.text or ""
            for line in expected_lines(record, seat):
                assert line in text, f"{user.first_name} is not shown {line!r}:\n{text}"
            tr = translator(record.game.players[seat].language)
            labels = {b.text for b in message.all_buttons()}
            if {tr.t("btn-believe"), tr.t("btn-doubt")} <= labels:
                watch.judged += 1
            if seat not in asked_cards:  # «🃏 Мои карты» once each: the pop-up
                asked_cards.add(seat)
                group = table.table_message(record)
                assert group is not None
                watch.check_popup(await table.press_lobby(user, group, "cards"), seat)
        await group_reads(watch, record)
        choices = table.playable(record)
        moves = state.moves
        if not choices:  # only the computer may act: it will
            await table.wait_record(partial(moved_on, moves=moves))
            continue
        user, message, data = choose(watch, record, choices, rng)
        pressed = decode_press(HandPress.unpack(data).act)
        edits = message.edit_count
        answer = await table.answer(fake.user_presses(user, message, data), timeout=10)
        racing = answer.text in STALE  # the computer moved first
        assert answer.text is None or racing, f"unexpected pop-up {answer.text!r} for {data}"
        if not racing and isinstance(pressed, Move) and pressed.kind is MoveKind.BELIEVE:
            watch.believed += 1
        await table._after_press(message, edits, moves)
    raise AssertionError(f"the {blind} game went on too long")


def lowest_trump(state: GameState) -> tuple[int, Card]:
    """Who holds the lowest trump of a deal and which card it is (the test's oracle, from
    the whole state)."""
    card, seat = min(
        (card, seat)
        for seat in range(state.players)
        for card in state.hand(seat)
        if card.suit == state.trump
    )
    return seat, card


@pytest.mark.parametrize("blind", [Blind.REVERSED, Blind.CHINESE])
async def test_r_blind_5_a_reversed_deal_tells_everybody_the_lowest_trump_and_its_holder(
    fast_world: World, blind: Blind
) -> None:
    """R-BLIND-5: in ``reversed`` the group's table and each person's table read who holds
    the lowest trump and which card it is, and its holder's table which slot it went back
    to; in ``chinese`` (the first attacker drawn by lot) nobody reads any of it."""
    table = await blind_table(fast_world, blind)
    record = await table.settled()
    game = record.game
    assert game.deal is not None
    holder, low = lowest_trump(game.deal.start)
    group = table.table_message(record)
    assert group is not None
    readers: list[tuple[int | None, FakeMessage, Translator]] = [
        (None, group, translator(game.settings.language))
    ]
    for seat in person_seats(record):
        user = table.by_id[game.players[seat].user_id]
        message = table.hand_message(record, user)
        assert message is not None
        readers.append((seat, message, translator(game.players[seat].language)))
    if blind is Blind.CHINESE:
        assert all(entry["e"] != LogKind.LOWEST_TRUMP for entry in game.log)
        for _, message, tr in readers:
            told = tr.t("event-lowest-trump", name="\0", card="\0").split("\0")[0]
            assert told not in (message.text or "")
        return
    slot = f"🂠{game.deal.start.rows[holder].index(low) + 1}"
    for reader, message, tr in readers:
        card = card_label(low, tr)
        await table.says(message, tr.t("event-lowest-trump", name=name(game, holder), card=card))
        said = plain(tr.t("hand-lowest-trump-slot", slot=slot, card=card))
        if reader == holder:
            await table.says(message, said)
        else:
            assert said not in (message.text or "")


def believed_covers(watch: Watch, final: GameState) -> dict[Card, set[int | None]]:
    """Each cover discarded unseen after «верю» that nobody saw face up before, and the
    readers (seats, None for the group) who saw it: its defender at most."""
    hidden = set(cards_of(final.unseen)) - watch.sight.seen[None]
    return {
        card: {reader for reader, cards in watch.shown.items() if card in cards} for card in hidden
    }


def holders(watch: Watch, card: Card) -> set[int | None]:
    return {seat for seat, cards in watch.sight.seen.items() if card in cards}


@pytest.mark.parametrize(
    ("blind", "seed"), [(Blind.REVERSED, 1), (Blind.CHINESE, 2), (Blind.DOUBT, 3)]
)
async def test_a_whole_blind_game_shows_each_person_only_what_their_seat_sees(
    fast_world: World, blind: Blind, seed: int
) -> None:
    watch, record = await play_blind_game(fast_world, blind, seed)
    state = record.game.state
    assert state is not None and state.finished
    await watch.table.says_game_over()
    assert watch.told, f"the group read no {TOLD[blind]}"
    if blind is Blind.REVERSED:
        assert watch.misplays > 0 and state.misplays >= watch.misplays
    if blind is Blind.DOUBT:
        assert watch.judged > 0, "no person was asked «Верю» / «Не верю»"
        assert watch.believed > 0
        covers = believed_covers(watch, state)
        assert covers, "no cover went to the discard unseen"
        for card, readers in covers.items():
            # Only the seat that held it saw it (as its own card), and nobody else was told.
            assert len(holders(watch, card)) == 1, (card, holders(watch, card))
            assert readers <= holders(watch, card), (card, readers)
