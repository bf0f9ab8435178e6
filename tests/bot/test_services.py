"""The game service against a real Redis: the lobby, dealing, presses (stale, foreign,
illegal, repeated, at once), /stop, resigning, "Play again" and the turn timeout."""

from __future__ import annotations

import asyncio
import functools
from types import SimpleNamespace
from typing import Any, cast

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramNetworkError
from aiogram.methods import GetChatMember
from kit import (
    ANNA,
    BORIS,
    CHAT,
    GLEB,
    VERA,
    Clock,
    dealt,
    member,
    no,
    put_state,
    reason_of,
    seated,
    yes,
)

from bot.delivery.drafts import render
from bot.delivery.plan import slots_of
from bot.handlers.telegram import member_check
from bot.model import ChatSettings, GameRecord, Phase
from bot.schema.presses import Back, Move, Pick, Press
from bot.schema.refusals import Reason
from bot.services import Changed, GameService, Player, PressOutcome, Viewed, timeout_actions
from bot.services.computers import ComputerSeats
from bot.services.decisions import act_for_timed_out
from bot.services.games import join_payload, parse_join_payload
from bot.storage import AlreadyApplied, Claim, Storage
from bot.turn_clock import CLOCK_GRACE
from engine import (
    Action,
    Attack,
    Card,
    Code,
    Defend,
    HouseRules,
    Pass,
    Take,
    Throw,
    apply,
    from_position,
    legal_actions,
    lowest_opening_card,
    new_game,
)
from engine.cards import deck_cards
from engine.deck_seed import shuffled_deck

SEED = f"{42:064x}"  # the deals these tests expect


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def deck_but(text: str) -> list[Card]:
    """The rest of a 36-card deck."""
    named = set(cards(text))
    return [card for card in deck_cards(36) if card not in named]


@pytest.fixture
def service(storage: Storage, clock: Clock) -> GameService:
    return GameService(storage, clock=clock, seed=lambda: SEED)


async def press(
    service: GameService,
    record: GameRecord,
    player: Player,
    what: Press | Action,
    once: Claim | None = None,
) -> PressOutcome:
    """``player`` presses a button (an action's, or a UI step) on a keyboard drawn from
    ``record``; ``once``: the claim of the update it came in."""
    state = record.game.state
    assert state is not None
    request = what if isinstance(what, Move | Pick | Back) else Move.of(what)
    game_id = record.game.game_id
    return await service.play(CHAT, game_id, state.moves, request, player.user_id, once=once)


# -- the lobby ---------------------------------------------------------------------------------


async def test_one_lobby_per_chat_and_the_creator_is_seated(service: GameService) -> None:
    await service.storage.users.mark_started(ANNA.user_id)
    first = await service.new_lobby(CHAT, ANNA, can_message=no)
    assert isinstance(first, Changed)
    assert first.record is not None and [p.user_id for p in first.record.game.players] == [1]
    second = await service.new_lobby(CHAT, BORIS, can_message=no)
    assert reason_of(second) is Reason.EXISTS
    assert second.record is not None and second.record.game.game_id == first.record.game.game_id


async def test_who_never_started_the_bot_is_not_seated(service: GameService) -> None:
    created = await service.new_lobby(CHAT, ANNA, can_message=no)
    assert created.record is not None and created.record.game.players == []
    outcome = await service.join(CHAT, BORIS, can_message=no)
    assert reason_of(outcome) is Reason.NEED_START
    # Telegram says the bot can write to them after all: seated, and remembered.
    outcome = await service.join(CHAT, BORIS, can_message=yes)
    assert isinstance(outcome, Changed)
    assert await service.storage.users.has_started(BORIS.user_id)
    # The deep link seats who follows it.
    assert created.record is not None
    payload = join_payload(CHAT, created.record.game.game_id)
    assert parse_join_payload(payload) == (CHAT, created.record.game.game_id)
    outcome = await service.join_by_link(payload, VERA, is_member=member)
    assert isinstance(outcome, Changed)
    assert outcome.record is not None
    assert [p.user_id for p in outcome.record.game.players] == [2, 3]
    assert reason_of(await service.join_by_link("junk", GLEB, is_member=member)) is Reason.BAD_LINK
    other = join_payload(CHAT, "other")
    assert (
        reason_of(await service.join_by_link(other, GLEB, is_member=member)) is Reason.STALE_LOBBY
    )


async def test_join_leave_full_and_refusals(service: GameService, storage: Storage) -> None:
    await storage.settings.set(CHAT, ChatSettings(rules=HouseRules(deck=24, max_players=2)))
    assert reason_of(await service.join(CHAT, ANNA, can_message=yes)) is Reason.NO_LOBBY
    await seated(service, ANNA, BORIS)
    assert reason_of(await service.join(CHAT, BORIS, can_message=yes)) is Reason.ALREADY_JOINED
    assert reason_of(await service.join(CHAT, VERA, can_message=yes)) is Reason.LOBBY_FULL
    assert reason_of(await service.leave(CHAT, VERA.user_id)) is Reason.NOT_JOINED
    left = await service.leave(CHAT, BORIS.user_id)
    assert isinstance(left, Changed)
    assert await storage.users.games_of(BORIS.user_id) == {}
    assert isinstance(await service.join(CHAT, VERA, can_message=yes), Changed)


async def test_the_lobby_guard_refuses_before_telegram_is_asked(service: GameService) -> None:
    """One guard before every change to a lobby (``bot.services.decisions``): a change it
    refuses asks Telegram nothing (is this an admin? can the bot write to them?), and the
    last computer player can only be taken out by the creator or an admin."""
    asked: list[str] = []

    async def admin() -> bool:
        asked.append("admin")
        return False

    async def reachable() -> bool:
        asked.append("reachable")
        return True

    seats = ComputerSeats(service)
    assert reason_of(await service.start(CHAT, BORIS.user_id, is_admin=admin)) is Reason.NO_LOBBY
    assert reason_of(await seats.remove(CHAT, BORIS.user_id, is_admin=admin)) is Reason.NO_LOBBY
    record = await seated(service, ANNA, BORIS)
    stale = reason_of(await service.join(CHAT, VERA, game_id="other", can_message=reachable))
    assert stale is Reason.STALE_LOBBY
    assert asked == []
    assert isinstance(await seats.add(CHAT, BORIS, game_id=record.game.game_id), Changed)
    refused = await seats.remove(CHAT, BORIS.user_id, is_admin=admin)
    assert reason_of(refused) is Reason.NOT_ALLOWED_REMOVE_COMPUTER and asked == ["admin"]
    await dealt(service, ANNA, BORIS)
    assert (
        reason_of(await service.start(CHAT, BORIS.user_id, is_admin=admin)) is Reason.GAME_RUNNING
    )
    assert reason_of(await service.join(CHAT, VERA, can_message=reachable)) is Reason.GAME_RUNNING
    assert reason_of(await seats.add(CHAT, VERA)) is Reason.GAME_RUNNING
    assert asked == ["admin"]


async def test_start_needs_the_creator_or_an_admin_and_two_players(service: GameService) -> None:
    await seated(service, ANNA)
    assert (
        reason_of(await service.start(CHAT, BORIS.user_id, is_admin=no)) is Reason.NOT_ALLOWED_START
    )
    assert reason_of(await service.start(CHAT, ANNA.user_id, is_admin=no)) is Reason.TOO_FEW
    await service.join(CHAT, BORIS, can_message=yes)
    await service.join(CHAT, VERA, can_message=yes)
    outcome = await service.start(CHAT, GLEB.user_id, is_admin=yes)  # an admin
    assert isinstance(outcome, Changed) and outcome.record is not None
    game = outcome.record.game
    assert game.phase is Phase.PLAYING
    assert [p.user_id for p in game.players] == [1, 2, 3]  # join order
    assert game.state == new_game(
        3, rules=game.settings.rules, seed=SEED, order=shuffled_deck(SEED, 36)
    )
    assert outcome.record.deadline == 1000.0 + CLOCK_GRACE + 30
    assert reason_of(await service.start(CHAT, ANNA.user_id, is_admin=no)) is Reason.GAME_RUNNING
    assert reason_of(await service.join(CHAT, GLEB, can_message=yes)) is Reason.GAME_RUNNING


# -- presses ----------------------------------------------------------------------------------


async def test_a_legal_press_is_applied_and_logged(service: GameService, clock: Clock) -> None:
    record = await dealt(service, ANNA, BORIS)
    state = record.game.state
    assert state is not None
    seat = state.acting[0]
    action = legal_actions(state, seat)[0]
    clock.now += 5
    outcome = await press(service, record, (ANNA, BORIS)[seat], (action))
    assert isinstance(outcome, Changed) and outcome.record is not None
    after, events = apply(state, action)
    assert outcome.record.game.state == after
    assert outcome.events == events
    assert outcome.record.game.log[-1]["e"] == "Attacked"
    assert outcome.record.deadline == 1005.0 + CLOCK_GRACE + 30


async def test_refused_presses_change_nothing(service: GameService) -> None:
    record = await dealt(service, ANNA, BORIS)
    state = record.game.state
    assert state is not None
    seat = state.acting[0]
    players = (ANNA, BORIS)
    mover, other = players[seat], players[1 - seat]
    act = Move.of(legal_actions(state, seat)[0])
    assert reason_of(await press(service, record, GLEB, act)) is Reason.NOT_PLAYER
    illegal = await press(service, record, other, act)
    assert reason_of(illegal) is Code.NOT_YOUR_TURN
    wrong_game = await service.play(CHAT, "nogame", state.moves, act, mover.user_id)
    assert reason_of(wrong_game) is Reason.STALE
    future = await service.play(CHAT, record.game.game_id, 99, act, mover.user_id)
    assert reason_of(future) is Reason.STALE
    current = await service.games.get(CHAT)
    assert current is not None and current.game.version == record.game.version


async def test_the_same_press_delivered_twice_is_applied_once(
    service: GameService, storage: Storage
) -> None:
    """Two deliveries of one press hold two claims on its key: the second one's save finds
    the first one's mark and saves nothing."""
    record = await dealt(service, ANNA, BORIS)
    state = record.game.state
    assert state is not None
    seat = state.acting[0]
    mover = (ANNA, BORIS)[seat]
    act = Move.of(legal_actions(state, seat)[0])
    first = await press(service, record, mover, act, storage.updates.page_press(1, "same"))
    assert isinstance(first, Changed) and first.record is not None
    with pytest.raises(AlreadyApplied):
        await press(service, record, mover, act, storage.updates.page_press(1, "same"))
    again = await service.games.get(CHAT)
    assert again is not None and again.game.version == first.record.game.version


async def test_an_older_keyboard_of_this_bout_still_plays_a_legal_move(
    service: GameService,
) -> None:
    """Two players pressing at once: the second press was drawn one move earlier and is
    still legal, so it is applied; a keyboard from before this bout is stale."""
    state = from_position(
        [
            cards("6S 6H 7C 9D JD QS"),
            cards("7S 8H 10C KD AD QH"),
        ],
        stock=cards("9S 10S JS KS AS 7H 9H 10H JH KH AH 6D 7D 8D 10D QD 6C 8C 9C JC QC KC AC 8S"),
        attacker=0,
    )
    await dealt(service, ANNA, BORIS)
    record = await put_state(service, state)
    six = Card.parse("6S")
    opened = await press(service, record, ANNA, Attack(0, (six,)))
    assert isinstance(opened, Changed) and opened.record is not None
    drawn_at = opened.record  # both players see moves = 1
    throw = Throw(0, (Card.parse("6H"),))
    cover = Defend(1, Card.parse("7S"), six)
    results = await asyncio.gather(
        press(service, drawn_at, ANNA, throw), press(service, drawn_at, BORIS, cover)
    )
    assert all(isinstance(r, Changed) for r in results)
    final = await service.games.get(CHAT)
    assert final is not None and final.game.state is not None
    assert final.game.state.moves == 3
    # Borис covers the thrown six, Аня passes: beaten off, a new bout begins.
    covered = await press(service, final, BORIS, Defend(1, Card.parse("8H"), Card.parse("6H")))
    assert covered.record is not None
    done = await press(service, covered.record, ANNA, Pass(0))
    assert done.record is not None and done.record.bout_from == 5
    # A keyboard from before the current bout is stale, whatever it offers.
    stale = await service.play(CHAT, record.game.game_id, 3, Move.of(Pass(0)), ANNA.user_id)
    assert reason_of(stale) is Reason.STALE


async def test_a_pass_on_an_older_table_is_stale(service: GameService) -> None:
    """R-BOUT-7: a pass answers the table it was made on; pressed on a keyboard drawn before
    a card was added it is refused as stale, and nothing changes."""
    state = from_position(
        [cards("6S 6H 7C 9D JD QS"), cards("7S 8H 10C KD AD QH")],
        stock=cards("9S 10S JS KS AS 7H 9H 10H JH KH AH 6D 7D 8D 10D QD 6C 8C 9C JC QC KC AC 8S"),
        attacker=0,
    )
    await dealt(service, ANNA, BORIS)
    record = await put_state(service, state)
    six = Card.parse("6S")
    opened = await press(service, record, ANNA, Attack(0, (six,)))
    assert opened.record is not None
    covered = await press(service, opened.record, BORIS, Defend(1, Card.parse("7S"), six))
    assert isinstance(covered, Changed) and covered.record is not None
    late_pass = await press(service, opened.record, ANNA, Pass(0))
    assert reason_of(late_pass) is Reason.STALE
    now = await service.games.get(CHAT)
    assert now is not None and now.game.state == covered.record.game.state


async def test_pick_and_back_are_ui_steps(service: GameService) -> None:
    record = await dealt(service, ANNA, BORIS)
    state = record.game.state
    assert state is not None and state.bout is not None
    attacker = state.bout.attacker
    players = (ANNA, BORIS)
    first = legal_actions(state, attacker)[0]
    opened = await press(service, record, players[attacker], (first))
    assert opened.record is not None and opened.record.game.state is not None
    defender = 1 - attacker
    card = opened.record.game.state.hand(defender)[0]
    picked = await press(service, opened.record, players[defender], Pick(card))
    assert isinstance(picked, Viewed) and picked.card == card
    back = await press(service, opened.record, players[defender], Back())
    assert isinstance(back, Viewed)
    not_mine = opened.record.game.state.hand(attacker)[0]
    refused = await press(service, opened.record, players[defender], Pick(not_mine))
    assert reason_of(refused) is Reason.STALE


# -- the end of a game -------------------------------------------------------------------------


async def test_stop_by_the_creator_or_an_admin(service: GameService, storage: Storage) -> None:
    await dealt(service, ANNA, BORIS)
    assert (
        reason_of(await service.stop(CHAT, VERA.user_id, "Вера", is_admin=no))
        is Reason.NOT_ALLOWED_STOP
    )
    stopped = await service.stop(CHAT, VERA.user_id, "Вера", is_admin=yes)
    assert isinstance(stopped, Changed) and stopped.record is not None
    assert stopped.record.game.phase is Phase.FINISHED and stopped.record.stopped_by == "Вера"
    assert await storage.deadlines.due(10**10) == []
    assert await storage.users.games_of(ANNA.user_id) == {}
    assert reason_of(await service.stop(CHAT, ANNA.user_id, "Аня", is_admin=no)) is Reason.NO_GAME
    assert isinstance(await service.new_lobby(CHAT, ANNA, can_message=yes), Changed)


async def test_the_stopped_table_escapes_the_name_of_who_stopped_it(
    service: GameService,
) -> None:
    """«Tom <3» must not break the table's HTML (the edit would fail, the buttons stay)."""
    await dealt(service, ANNA, BORIS)
    stopped = await service.stop(CHAT, VERA.user_id, "Tom <3 & <b>", is_admin=yes)
    assert stopped.record is not None
    [table, *_hands] = slots_of(stopped.record, {})
    assert "Tom &lt;3 &amp; &lt;b&gt;" in render(stopped.record, table, {}, 0.0).text


async def test_leaving_a_running_game_resigns(service: GameService) -> None:
    await dealt(service, ANNA, BORIS, VERA)
    outcome = await service.leave(CHAT, BORIS.user_id)
    assert isinstance(outcome, Changed) and outcome.record is not None
    state = outcome.record.game.state
    assert state is not None and state.finished and state.durak == 1
    assert outcome.record.game.phase is Phase.FINISHED


async def test_play_again_does_not_seat_who_left(service: GameService) -> None:
    """Who left the game (/leave: resigned, the durak) is not seated again by «Play
    again»; the others are, and the next game deals."""
    record = await dealt(service, ANNA, BORIS, VERA)
    finished = await service.leave(CHAT, VERA.user_id)
    assert isinstance(finished, Changed)
    again = await service.again(CHAT, record.game.game_id, BORIS)
    assert isinstance(again, Changed) and again.record is not None
    assert again.previous is not None and again.previous.game.game_id == record.game.game_id
    lobby = again.record.game
    assert [p.user_id for p in lobby.players] == [1, 2] and lobby.creator_id == 2
    assert reason_of(await service.again(CHAT, record.game.game_id, BORIS)) is Reason.STALE_LOBBY
    started = await service.start(CHAT, BORIS.user_id, is_admin=no)
    assert isinstance(started, Changed) and started.record is not None
    assert [p.user_id for p in started.record.game.players] == [1, 2]


async def test_play_again_does_not_seat_who_left_the_group(service: GameService) -> None:
    record = await dealt(service, ANNA, BORIS, VERA)
    await service.member_left(CHAT, ANNA.user_id)
    again = await service.again(CHAT, record.game.game_id, BORIS)
    assert again.record is not None
    assert [p.user_id for p in again.record.game.players] == [2, 3]


# -- the turn timeout --------------------------------------------------------------------------


def test_timeout_actions_follow_rules_section_11() -> None:
    state = from_position(
        [
            cards("6D 9S 7S QH"),
            cards("8S 10S"),
        ],
        trump=Card.parse("6D").suit,
        discard=deck_but("6D 9S 7S QH 8S 10S"),
        attacker=0,
    )
    # The primary attacker opens with the lowest non-trump (7S, not the trump 6D).
    assert timeout_actions(state) == [Attack(0, (Card.parse("7S"),))]
    assert lowest_opening_card(state, 0) == Card.parse("7S")
    opened, _ = apply(state, Attack(0, (Card.parse("7S"),)))
    # The defender takes. The attacker holds no second 7, so cannot throw in and is not
    # asked: only the defender is to act, and nobody passes for them.
    assert opened.acting == (1,)
    assert timeout_actions(opened) == [Take(1)]
    after, events, _played = act_for_timed_out(opened, opened.acting)
    assert [type(e).__name__ for e in events][:2] == ["DeclaredTake", "Took"]
    assert after.hands[1].bit_count() == 3
    only_trumps = from_position(
        [[Card.parse("KD"), Card.parse("7D")], [Card.parse("8S")]],
        trump=Card.parse("6D").suit,
        discard=deck_but("KD 7D 8S"),
        attacker=0,
    )
    assert timeout_actions(only_trumps) == [Attack(0, (Card.parse("7D"),))]


async def test_the_turn_timeout_acts_once_the_deadline_passes(
    service: GameService, storage: Storage, clock: Clock
) -> None:
    record = await dealt(service, ANNA, BORIS)
    assert record.deadline == 1000 + CLOCK_GRACE + 30
    assert await storage.deadlines.due(1000 + CLOCK_GRACE + 29) == []
    clock.now = 1029 + CLOCK_GRACE
    assert reason_of(await service.expire_turn(CHAT)) is Reason.NOT_DUE
    clock.now = 1031 + CLOCK_GRACE
    assert await storage.deadlines.due(clock.now) == [CHAT]
    outcome = await service.expire_turn(CHAT)
    assert isinstance(outcome, Changed) and outcome.record is not None
    assert [type(e).__name__ for e in outcome.events] == ["Attacked"]
    assert outcome.record.deadline == clock.now + CLOCK_GRACE + 30
    clock.now += CLOCK_GRACE + 31
    outcome = await service.expire_turn(CHAT)
    assert isinstance(outcome, Changed)
    assert "Took" in [type(e).__name__ for e in outcome.events]
    # No game: the stray deadline is dropped.
    await service.stop(CHAT, ANNA.user_id, "Аня", is_admin=no)
    assert reason_of(await service.expire_turn(CHAT)) is Reason.NO_GAME
    assert await storage.deadlines.due(10**10) == []


async def test_the_turn_clock_starts_when_the_buttons_are_shown(
    service: GameService, storage: Storage, clock: Clock
) -> None:
    """A player's time runs from when their buttons arrived, not from the
    move (and at most ``CLOCK_GRACE`` later). Starting it writes the deadline
    alone, never the game, and never moves it later; a move made meanwhile wins."""
    record = await dealt(service, ANNA, BORIS)
    assert record.game.state is not None and record.deadline == 1000 + CLOCK_GRACE + 30
    moves, game_id = record.game.state.moves, record.game.game_id
    game_key = storage.keys.game(CHAT)
    saved = await storage.redis.get(game_key)
    start = functools.partial(storage.deadlines.start_clock, game_key, CHAT)
    # The outbox showed the buttons two seconds after the deal.
    assert await start(game_id, moves, 1032.0) == 1032.0
    assert await storage.redis.get(game_key) == saved  # the game is not written
    stored = await storage.games.get(CHAT)
    assert stored is not None and stored.deadline == 1032.0  # read as in force
    assert await storage.deadlines.due(1031.9) == []
    assert await storage.deadlines.due(1032.0) == [CHAT]
    assert await start(game_id, moves, 1034.0) == 1032.0  # shown again later: it stands
    assert await start(game_id, moves + 1, 1010.0) is None  # a later position
    assert await start("other", moves, 1010.0) is None  # another game
    clock.now = 1031.0
    assert reason_of(await service.expire_turn(CHAT)) is Reason.NOT_DUE
    clock.now = 1032.0
    outcome = await service.expire_turn(CHAT)
    assert isinstance(outcome, Changed) and outcome.timed_out
    # The move's own deadline now; a start for the position before it changes nothing.
    assert await start(game_id, moves, 1033.0) is None
    stored = await storage.games.get(CHAT)
    assert stored is not None and stored.deadline == 1032.0 + CLOCK_GRACE + 30
    await service.stop(CHAT, ANNA.user_id, "Аня", is_admin=no)
    assert await start(game_id, moves + 1, 1040.0) is None  # no turn clock running
    assert await storage.deadlines.due(10**10) == []


async def test_a_game_that_expired_leaves_no_deadline_behind(
    service: GameService, storage: Storage, clock: Clock
) -> None:
    await dealt(service, ANNA, BORIS)
    await storage.redis.delete(storage.keys.game(CHAT))  # its TTL ran out
    assert await storage.deadlines.due(10**10) == [CHAT]
    assert reason_of(await service.expire_turn(CHAT)) is Reason.NO_GAME
    assert await storage.deadlines.due(10**10) == []


# -- the join link ------------------------------------------------------------------------------


async def test_a_join_link_seats_only_members_of_the_group(service: GameService) -> None:
    """A link travels: who is not in the group (banned, never there) is not seated."""
    record = await seated(service, ANNA)
    asked: list[int] = []

    async def outsider(chat_id: int) -> bool:
        asked.append(chat_id)
        return False

    link = join_payload(CHAT, record.game.game_id)
    refused = await service.join_by_link(link, BORIS, is_member=outsider)
    assert reason_of(refused) is Reason.NOT_MEMBER and asked == [CHAT]
    current = await service.games.get(CHAT)
    assert current is not None and current.game.seat_of(BORIS.user_id) is None
    # A link to a lobby that is gone costs no question to Telegram.
    stale = await service.join_by_link(join_payload(CHAT, "gone"), BORIS, is_member=outsider)
    assert reason_of(stale) is Reason.STALE_LOBBY and asked == [CHAT]
    assert isinstance(await service.join_by_link(link, BORIS, is_member=member), Changed)
    # Only ASCII digits make a chat id (\d would take "١٠٠" for 100).
    assert parse_join_payload(f"j-١٠٠_{record.game.game_id}") is None


class Members:
    """Stands in for aiogram's ``Bot.get_chat_member``: Telegram's answer per user."""

    def __init__(self, answers: dict[int, Any]) -> None:
        self.answers = answers

    async def get_chat_member(self, chat_id: int, user_id: int) -> Any:
        answer = self.answers[user_id]
        if isinstance(answer, Exception):
            raise answer
        return answer


@pytest.mark.parametrize(
    ("answer", "seated"),
    [
        (SimpleNamespace(status="creator"), True),
        (SimpleNamespace(status="administrator"), True),
        (SimpleNamespace(status="member"), True),
        (SimpleNamespace(status="restricted", is_member=True), True),
        (SimpleNamespace(status="restricted", is_member=False), False),
        (SimpleNamespace(status="left"), False),
        (SimpleNamespace(status="kicked"), False),
        (TelegramBadRequest(GetChatMember(chat_id=CHAT, user_id=2), "user not found"), False),
        (TelegramForbiddenError(GetChatMember(chat_id=CHAT, user_id=2), "bot was kicked"), False),
        (TelegramNetworkError(GetChatMember(chat_id=CHAT, user_id=2), "timeout"), False),
    ],
)
async def test_membership_is_what_telegram_says(answer: Any, seated: bool) -> None:
    bot = cast(Bot, Members({2: answer}))
    assert await member_check(bot, 2)(CHAT) is seated
