"""The regional variants end to end: the real bot, the fake Telegram and a real
Redis, every rule set with /set and every move made by pressing the buttons shown. A team
game of two people and two computer partners played to the end; a game with the trump six
exchanged; a game whose dealer names the trump; a Northern game whose trump changes: each
checks what the group's table and every private chat showed."""

from __future__ import annotations

import html
import random
from collections.abc import Callable
from functools import partial

import pytest

from bot.i18n import translator
from bot.model import GameRecord, LogKind, Phase
from bot.ui.board import narrate
from bot.ui.callbacks import HandPress, LobbyOp
from bot.ui.common import card_label, name
from engine import Card, Suit
from engine.cards import LOWEST_RANK_BY_DECK

from .conftest import World
from .fake_telegram import FakeUser
from .harness import STALE, Table, plain

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

RU = translator("ru")
EXCHANGE = "x"  # a hand button's action code for the exchange (``bot.ui.callbacks``)


def private_text(table: Table, record: GameRecord, user: FakeUser) -> str:
    message = table.hand_message(record, user)
    assert message is not None
    return message.text or ""


def shown_everywhere(table: Table, record: GameRecord) -> list[str]:
    """The group's table and every person's private message, as Telegram shows them."""
    texts = []
    message = table.table_message(record)
    assert message is not None
    texts.append(message.text or "")
    for player in record.game.players:
        if not player.computer:
            texts.append(private_text(table, record, table.by_id[player.user_id]))
    return texts


async def press_until(
    table: Table, rng: random.Random, done: Callable[[GameRecord], bool], *, avoid: str = ""
) -> GameRecord:
    """Press random shown hand buttons (never one whose action code starts with ``avoid``)
    until ``done(record)`` holds or the game is over; the settled record."""
    for _ in range(3000):
        record = await table.settled()
        if record.game.phase is Phase.FINISHED or done(record):
            return record
        buttons = [
            b
            for b in table.hand_buttons(record)
            if not (avoid and HandPress.unpack(b[2]).act.startswith(avoid))
        ]
        assert record.game.state is not None
        moves = record.game.state.moves
        if not buttons:  # only computer players may act
            await table.wait_record(partial(_moved_on, moves=moves))
            continue
        user, message, data = rng.choice(buttons)
        edits = message.edit_count
        answer = await table.answer(table.fake.user_presses(user, message, data), timeout=10)
        racing = bool(record.game.computers()) and answer.text in STALE
        assert answer.text is None or racing, f"unexpected pop-up {answer.text!r} for {data}"
        await table._after_press(message, edits, moves)
    raise AssertionError("the game went on too long")


def _moved_on(record: GameRecord, *, moves: int) -> bool:
    return record.game.state is not None and record.game.state.moves != moves


def _seat(record: GameRecord, user: FakeUser) -> int:
    seat = record.game.seat_of(user.id)
    assert seat is not None
    return seat


def _bottom_drawn(record: GameRecord) -> bool:
    return record.game.state is not None and not record.game.state.bottom_card_hidden


async def test_a_team_game_with_two_computer_partners_to_the_end(fast_world: World) -> None:
    """R-TEAM-1..5: two people choose to play together against two computer partners; the
    lobby shows the teams, every view marks the partners, and the end says which team
    lost, in the group and in each private chat."""
    world = fast_world
    table = world.table(2)
    anna, boris = table.players
    lobby, added = await table.teams_with_two_computers()
    assert added == [RU.t("answer-computer-added")] * 2
    # Join order makes Anna and the first computer partners; Boris moves to her team.
    await table.says(lobby, RU.t("lobby-teams"))
    own = translator(boris.language_code or "ru")
    assert await table.press_lobby(boris, lobby, LobbyOp.TEAM) == own.t("answer-team-switched")
    names = f"{html.escape(anna.first_name)}, {html.escape(boris.first_name)}"
    await table.says(lobby, RU.t("table-team", mark="🔴", names=names))
    dealt = await table.deal()
    game, state = dealt.game, dealt.game.state
    assert state is not None and state.teams == ((0, 2), (1, 3))
    assert (_seat(dealt, anna) - _seat(dealt, boris)) % 2 == 0  # partners, across
    settled = await table.settled()
    for user, partner in ((anna, boris), (boris, anna)):
        tr = translator(game.players[_seat(dealt, user)].language)
        seat = _seat(dealt, partner)
        mark = "🔴" if seat % 2 == 0 else "🔵"
        line = tr.t("player-partner", mark=mark, name=html.escape(partner.first_name))
        assert plain(line) in private_text(table, settled, user)
    group = table.table_message(settled)
    assert group is not None
    computers = ", ".join(name(game, seat) for seat in game.computers())
    await table.says(group, RU.t("table-team", mark="🔵", names=computers))
    finished = await table.play_to_end(random.Random(21))
    state = finished.game.state
    assert state is not None and state.finished
    if state.durak is None:
        await table.says_game_over()
        return
    assert state.losing_team is not None and len(state.losing_team) == 2
    lost = ", ".join(name(finished.game, seat) for seat in state.losing_team)
    mark = "🔴" if state.losing_team[0] % 2 == 0 else "🔵"
    message = table.table_message(finished)
    assert message is not None
    await table.says(message, RU.t("table-team-lost", mark=mark, names=lost))
    for user in (anna, boris):
        seat = _seat(finished, user)
        tr = translator(finished.game.players[seat].language)
        key = "table-team-lost-yours" if seat in state.losing_team else "table-team-lost"
        text = private_text(table, finished, user)
        assert plain(tr.t(key, mark=mark, names="")).strip().rstrip(":") in text


async def test_the_holder_exchanges_the_trump_six_by_its_button(fast_world: World) -> None:
    """R-SIX-1: «🔄 9♦ ↔ К♦» (a 24-card deck: the nine is the lowest trump) for whoever
    holds it while it is allowed; the group's log tells it and the face-up card shows in the
    exchanger's hand. The low trump is in a hand in about half the deals: games are dealt
    again until one is."""
    world = fast_world
    table = world.table(2)
    await table.all_start_bot()
    await table.set_rule("deck", "24")
    await table.set_rule("trump_six_exchange", "on")
    await table.gather()
    rng = random.Random(6)
    for _ in range(12):
        await table.deal()
        record = await press_until(table, rng, _exchange_shown, avoid=EXCHANGE)
        if record.game.phase is Phase.PLAYING:
            break
        await table.again(record)
        await table.wait_record(lambda r: r.game.phase is Phase.LOBBY)
    else:
        raise AssertionError("nobody held the lowest trump in twelve deals")
    state = record.game.state
    assert state is not None and state.trump_card is not None
    user, message, data = next(b for b in table.hand_buttons(record) if _is_exchange(b[2]))
    seat = record.game.seat_of(user.id)
    assert seat is not None
    tr = translator(record.game.players[seat].language)
    low = Card.of(LOWEST_RANK_BY_DECK[24], state.trump)
    took = state.trump_card
    label = tr.t("btn-exchange", card=card_label(low, tr), took=card_label(took, tr))
    assert message.find_button(data) is not None
    assert any(b.text == label for b in message.all_buttons())
    answer = await table.answer(table.fake.user_presses(user, message, data))
    assert answer.text is None
    after = await table.wait_record(lambda r: any(e["e"] == LogKind.EXCHANGED for e in r.game.log))
    after = await table.settled()
    entry = next(e for e in after.game.log if e["e"] == LogKind.EXCHANGED)
    assert entry["player"] == seat and Card.parse(entry["took"]) == took
    group = table.table_message(after)
    assert group is not None
    await table.says(group, narrate(entry, after.game, RU))
    assert after.game.state is not None and after.game.state.trump_card == low  # face up now
    for player in after.game.players:
        viewer = table.by_id[player.user_id]
        vtr = translator(player.language)
        text = private_text(table, after, viewer)
        assert plain(narrate(entry, after.game, vtr)) in text
        assert card_label(low, vtr) in text  # the low trump lies face up for everybody
    holder = translator(after.game.players[seat].language)
    assert after.game.state.hand(seat).count(took) == 1
    hand = after.game.state.hand(seat)
    prefix = plain(holder.t("hand-cards", count=len(hand), cards="")).strip()
    lines = private_text(table, after, user).splitlines()
    hand_line = next(line for line in lines if line.startswith(prefix))
    assert card_label(took, holder) in hand_line


def _is_exchange(data: str) -> bool:
    return HandPress.unpack(data).act == EXCHANGE


def _exchange_shown(record: GameRecord, table: Table | None = None) -> bool:
    return (
        record.game.state is not None
        and record.game.state.exchange_open
        and any(
            record.game.seat_of(player.user_id) in record.game.state.acting
            and Card.of(
                LOWEST_RANK_BY_DECK[record.game.settings.rules.deck], record.game.state.trump
            )
            in record.game.state.hand(record.game.seat_of(player.user_id) or 0)
            for player in record.game.players
        )
    )


async def test_the_dealer_names_the_trump_with_the_suit_buttons(fast_world: World) -> None:
    """R-TRUMP-1: at «Начать» the dealer gets four suit buttons (anybody else's press is
    refused), the game is dealt with the suit named, no card is turned up, and the group
    and both private chats say who named which trump."""
    world = fast_world
    table = world.table(2)
    _, lobby, dealer, other = await table.dealer_asked()
    await table.says(lobby, RU.t("lobby-naming", name=html.escape(dealer.first_name)))
    own = translator(other.language_code or "ru")
    assert await table.press_lobby(other, lobby, LobbyOp.TRUMP_CLUBS) == own.t("answer-not-dealer")
    mine = translator(dealer.language_code or "ru")
    assert await table.press_lobby(dealer, lobby, LobbyOp.TRUMP_HEARTS) == mine.t(
        "answer-trump-named"
    )
    dealt = await table.wait_record(lambda r: r.game.phase is Phase.PLAYING)
    state = dealt.game.state
    assert state is not None and state.trump is Suit.HEARTS and state.trump_card is None
    assert dealt.game.players[state.dealer].user_id == dealer.id
    settled = await table.settled()
    entry = settled.game.log[0]
    assert entry["e"] == LogKind.TRUMP_NAMED and entry["suit"] == "H"
    group = table.table_message(settled)
    assert group is not None
    await table.says(group, narrate(entry, settled.game, RU))
    for player in settled.game.players:
        tr = translator(player.language)
        text = private_text(table, settled, table.by_id[player.user_id])
        assert plain(narrate(entry, settled.game, tr)) in text
        assert f"♥ ({tr.t('suit-H')})" in text  # the trump, with no card shown
    finished = await table.play_to_end(random.Random(3))
    assert finished.game.phase is Phase.FINISHED


async def test_a_northern_game_shows_the_new_trump_everywhere_at_once(fast_world: World) -> None:
    """R-TRUMP-3: a face-down card lies under the face-up one; whoever draws it shows it
    and its suit is trump from then on: the log tells it, and the group and both private
    chats show the new trump with the same move."""
    world = fast_world
    table = world.table(2)
    await table.all_start_bot()
    await table.set_rule("trump", "northern")
    dealt = await table.start_game()
    first = dealt.game.state
    assert first is not None and first.bottom_card_hidden
    settled = await table.settled()
    for text in shown_everywhere(table, settled):
        assert (
            plain(RU.t("table-northern-pending"))[:20] in text
            or plain(translator("uk").t("table-northern-pending"))[:20] in text
        )
    changed = await press_until(table, random.Random(5), _bottom_drawn)
    state = changed.game.state
    assert state is not None and not state.bottom_card_hidden, "the game ended first"
    entry = next(e for e in reversed(changed.game.log) if e["e"] == LogKind.TRUMP_CHANGED)
    bottom = Card.parse(entry["card"])
    assert state.trump == bottom.suit
    group = table.table_message(changed)
    assert group is not None  # the group's table waits its turn in the group's budget
    await table.says(group, narrate(entry, changed.game, RU))
    changed = await table.settled()  # the hands show the same move (nobody pressed since)
    texts = shown_everywhere(table, changed)
    for text, reader in zip(texts, [None, *changed.game.players], strict=True):
        tr = RU if reader is None else translator(reader.language)
        assert plain(narrate(entry, changed.game, tr)) in text
        assert f"({tr.t(f'suit-{bottom.suit.letter}')})" in text  # the trump line
        assert plain(tr.t("table-northern-pending")) not in text
