"""Failures of the fake Telegram as a real aiogram Bot sees them: injected faults, deleted
messages, upgraded groups, a removed bot."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest
from aiogram import Bot
from aiogram.exceptions import (
    RestartingTelegram,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import ChatMemberBanned, ChatMemberLeft, ChatMemberMember, ChatMemberOwner

from .conftest import make_bot
from .fake_telegram import (
    QUERY_TOO_OLD,
    FakeChat,
    FakeTelegram,
    FakeUser,
    ImpossibleUserAction,
    bad_request,
    forbidden,
)
from .test_fake_telegram import keyboard

pytestmark = pytest.mark.e2e


@pytest.fixture
def alice(fake: FakeTelegram) -> FakeUser:
    return fake.add_user("Alice", username="alice", language_code="en", started=True)


@pytest.fixture
def boris(fake: FakeTelegram) -> FakeUser:
    return fake.add_user("Борис", language_code="ru", started=True)


@pytest.fixture
def group(fake: FakeTelegram, alice: FakeUser, boris: FakeUser) -> FakeChat:
    return fake.add_group("Durak night", creator=alice, members=[boris])


# -- injected errors -----------------------------------------------------------------------------


async def test_server_error_fails_once_without_effect(
    fake: FakeTelegram, bot: Bot, group: FakeChat
) -> None:
    fault = fake.server_error("sendMessage")
    with pytest.raises(TelegramServerError) as raised:
        await bot.send_message(group.id, "lost")
    assert type(raised.value) is TelegramServerError
    assert raised.value.message == "Internal Server Error"
    assert fake.bot_messages(group) == []
    assert (fault.fired, fault.remaining, fake.faults()) == (1, 0, [])

    sent = await bot.send_message(group.id, "delivered")
    assert sent.message_id == 1  # the failed call used no message id
    failed, ok = fake.calls("sendMessage")
    assert (failed.ok, failed.error_code, failed.description) == (
        False,
        500,
        "Internal Server Error",
    )
    assert failed.fault is fault
    assert failed.params["text"] == "lost"
    assert ok.ok
    assert ok.fault is None
    assert fake.errors() == [failed]

    fake.server_error("sendMessage", code=502)
    with pytest.raises(TelegramServerError, match="Bad Gateway"):
        await bot.send_message(group.id, "lost")
    fake.server_error("getMe", description="Internal Server Error: restart")
    with pytest.raises(RestartingTelegram):
        await bot.get_me()


async def test_too_many_requests_times_and_chat_filter(
    fake: FakeTelegram, bot: Bot, group: FakeChat, alice: FakeUser
) -> None:
    fault = fake.too_many_requests("sendMessage", 7, times=2, chat=group)
    await bot.send_message(alice.id, "private chats are not affected")
    for _ in range(2):
        with pytest.raises(TelegramRetryAfter) as raised:
            await bot.send_message(group.id, "flood")
        assert raised.value.retry_after == 7
        assert "Too Many Requests: retry after 7" in str(raised.value)
    assert fault.fired == 2
    await bot.send_message(group.id, "third time lucky")
    assert [m.text for m in fake.bot_messages(group)] == ["third time lucky"]
    assert [c.error_code for c in fake.calls("sendMessage", chat=group)] == [429, 429, None]


async def test_fault_until_removed_and_clear_faults(
    fake: FakeTelegram, bot: Bot, group: FakeChat
) -> None:
    forever = fake.inject("getChat", error=forbidden("bot was kicked"), times=None)
    for _ in range(3):
        with pytest.raises(TelegramForbiddenError):
            await bot.get_chat(group.id)
    assert (forever.fired, forever.remaining) == (3, None)
    forever.remove()
    assert (await bot.get_chat(group.id)).id == group.id

    fake.inject("getChat", error=bad_request("chat not found"), times=None)
    fake.slow("getMe", 5)
    assert len(fake.faults()) == 2
    fake.clear_faults()
    assert fake.faults() == []
    await bot.get_chat(group.id)
    await bot.get_me()


async def test_first_matching_fault_wins_and_message_filter(
    fake: FakeTelegram, bot: Bot, group: FakeChat
) -> None:
    first = await bot.send_message(group.id, "one")
    second = await bot.send_message(group.id, "two")
    target = fake.message(group, second.message_id)
    fault = fake.inject("editMessageText", error=bad_request("message to edit not found"))
    fake.inject("editMessageText", error=bad_request("never reached"), message=target)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("x", chat_id=group.id, message_id=first.message_id)
    assert fault.fired == 1
    await bot.edit_message_text("one!", chat_id=group.id, message_id=first.message_id)
    with pytest.raises(TelegramBadRequest, match="never reached"):
        await bot.edit_message_text("two!", chat_id=group.id, message_id=second.message_id)
    assert target.text == "two"


async def test_errors_are_real_telegram_json(fake: FakeTelegram, group: FakeChat) -> None:
    fake.too_many_requests("sendMessage", 3)
    fake.server_error("sendMessage")
    base = f"{fake.base_url}/bot{fake.token}"
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{base}/sendMessage", json={"chat_id": group.id}) as resp:
            assert resp.status == 429
            assert await resp.json() == {
                "ok": False,
                "error_code": 429,
                "description": "Too Many Requests: retry after 3",
                "parameters": {"retry_after": 3},
            }
        async with session.post(f"{base}/sendMessage", json={"chat_id": group.id}) as resp:
            assert resp.status == 500
            assert await resp.json() == {
                "ok": False,
                "error_code": 500,
                "description": "Internal Server Error",
            }


def test_inject_rejects_mistakes(fake: FakeTelegram) -> None:
    with pytest.raises(ValueError, match="does not implement"):
        fake.server_error("sendMesage")
    with pytest.raises(ValueError, match="needs an error"):
        fake.inject("sendMessage")
    with pytest.raises(ValueError, match="times"):
        fake.server_error("sendMessage", times=0)
    assert fake.inject("sendmessage", delay=1).method == "sendMessage"


# -- slow calls and lost connections ---------------------------------------------------------------


async def test_slow_call_takes_effect_after_the_delay(
    fake: FakeTelegram, bot: Bot, group: FakeChat
) -> None:
    fault = fake.slow("sendMessage", 0.5, chat=group)
    started = time.monotonic()
    sending = asyncio.create_task(bot.send_message(group.id, "late"))
    await fake.wait_for(lambda: fault.fired == 1)
    assert fake.bot_messages(group) == []  # not yet
    sent = await sending
    assert time.monotonic() - started >= 0.5
    assert sent.text == "late"
    assert [m.text for m in fake.bot_messages(group)] == ["late"]
    call = fake.calls("sendMessage")[0]
    assert call.ok
    assert call.fault is fault

    await bot.send_message(group.id, "fast again")
    assert fault.remaining == 0


async def test_slow_call_still_lands_when_the_client_gives_up(
    fake: FakeTelegram, bot: Bot, group: FakeChat
) -> None:
    fake.slow("sendMessage", 1.5)
    with pytest.raises(TelegramNetworkError, match="Request timeout"):
        await bot.send_message(group.id, "did it arrive?", request_timeout=1)
    message = await fake.wait_for_bot_message(group, "did it arrive?")
    assert message.message_id == 1


async def test_network_failure_drops_the_connection_without_effect(
    fake: FakeTelegram, bot: Bot, group: FakeChat
) -> None:
    fault = fake.network_failure("sendMessage", times=2)
    for _ in range(2):
        with pytest.raises(TelegramNetworkError):
            await bot.send_message(group.id, "into the void")
    assert fault.fired == 2
    assert fake.bot_messages(group) == []
    dropped = fake.errors()
    assert [(c.dropped, c.error_code, c.fault) for c in dropped] == [(True, None, fault)] * 2
    sent = await bot.send_message(group.id, "back online")
    assert sent.message_id == 1

    started = time.monotonic()
    fake.network_failure("getMe", after=0.3)
    with pytest.raises(TelegramNetworkError):
        await bot.get_me()
    assert time.monotonic() - started >= 0.3


async def test_failed_get_updates_loses_no_update(
    fake: FakeTelegram, bot: Bot, group: FakeChat, boris: FakeUser
) -> None:
    fake.user_sends(boris, group, "/newgame")
    fake.network_failure("getUpdates")
    with pytest.raises(TelegramNetworkError):
        await bot.get_updates()
    fake.server_error("getUpdates", code=502)
    with pytest.raises(TelegramServerError):
        await bot.get_updates()
    updates = await bot.get_updates()
    assert [u.message.text for u in updates if u.message] == ["/newgame"]


async def test_stop_with_a_stalled_call() -> None:
    fake = FakeTelegram()
    await fake.start()
    fake.add_user("Vera", started=True, user_id=42)
    bot = make_bot(fake)
    try:
        fault = fake.slow("sendMessage", 60)
        sending = asyncio.create_task(bot.send_message(42, "never"))
        await fake.wait_for(lambda: fault.fired == 1)
        await asyncio.wait_for(fake.stop(), 5)
        with pytest.raises(TelegramNetworkError):
            await sending
    finally:
        await bot.session.close()


# -- callback queries ----------------------------------------------------------------------------


async def test_one_callback_answer_fails_as_too_old(
    fake: FakeTelegram, bot: Bot, group: FakeChat, alice: FakeUser, boris: FakeUser
) -> None:
    sent = await bot.send_message(group.id, "Lobby", reply_markup=keyboard([("Join", "join")]))
    lobby = fake.message(group, sent.message_id)
    late = fake.user_presses(boris, lobby, "Join")
    fine = fake.user_presses(alice, lobby, "Join")
    fault = fake.inject(
        "answerCallbackQuery", error=bad_request(QUERY_TOO_OLD), callback_query_id=late
    )
    with pytest.raises(TelegramBadRequest) as raised:
        await bot.answer_callback_query(late, text="joined")
    assert raised.value.message == (
        "Bad Request: query is too old and response timeout expired or query ID is invalid"
    )
    assert fault.fired == 1
    assert not fake.callback_query(late).answered
    assert await bot.answer_callback_query(fine, text="joined")
    with pytest.raises(TelegramBadRequest, match="query is too old"):  # answered already
        await bot.answer_callback_query(fine, text="joined")

    expired = fake.user_presses(boris, lobby, "Join")
    fake.expire_callback_query(expired)
    for _ in range(2):
        with pytest.raises(TelegramBadRequest, match="query is too old"):
            await bot.answer_callback_query(expired)


async def test_chat_filter_applies_to_answers_by_the_pressed_message(
    fake: FakeTelegram, bot: Bot, group: FakeChat, boris: FakeUser
) -> None:
    other = fake.add_group("Other", creator=boris)
    here = await bot.send_message(group.id, "Here", reply_markup=keyboard([("Go", "go")]))
    there = await bot.send_message(other.id, "There", reply_markup=keyboard([("Go", "go")]))
    fake.server_error("answerCallbackQuery", chat=other)
    ok = fake.user_presses(boris, fake.message(group, here.message_id), "go")
    failing = fake.user_presses(boris, fake.message(other, there.message_id), "go")
    assert await bot.answer_callback_query(ok)
    with pytest.raises(TelegramServerError):
        await bot.answer_callback_query(failing)
    assert await bot.answer_callback_query(failing)


# -- users delete messages -------------------------------------------------------------------------


async def test_user_deletes_bot_message_in_private(
    fake: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    sent = await bot.send_message(alice.id, "Your hand", reply_markup=keyboard([("6♠", "c:6s")]))
    message = fake.message(fake.private_chat(alice), sent.message_id)
    mark = fake.mark()
    fake.user_deletes_message(alice, message)
    assert message.deleted
    assert fake.bot_messages(fake.private_chat(alice)) == []
    assert fake.pending_updates == []  # Telegram does not tell the bot
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("Your hand: 7♠", chat_id=alice.id, message_id=sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_reply_markup(
            chat_id=alice.id, message_id=sent.message_id, reply_markup=keyboard([("7", "7")])
        )
    with pytest.raises(ImpossibleUserAction):
        fake.user_presses(alice, message, "c:6s")
    with pytest.raises(ImpossibleUserAction):
        fake.user_deletes_message(alice, message)
    assert [c.error_code for c in fake.calls(since=mark)] == [400, 400]


async def test_user_deletes_messages_in_a_group(
    fake: FakeTelegram, bot: Bot, group: FakeChat, alice: FakeUser, boris: FakeUser
) -> None:
    fake.set_bot_status(group, "administrator")
    sent = await bot.send_message(group.id, "Lobby")
    await bot.pin_chat_message(group.id, sent.message_id)
    lobby = fake.message(group, sent.message_id)
    with pytest.raises(ImpossibleUserAction, match="not an admin"):
        fake.user_deletes_message(boris, lobby)
    own = fake.user_sends(boris, group, "/newgame")
    fake.user_deletes_message(boris, own)
    fake.user_deletes_message(alice, lobby)  # the creator may delete anything
    assert fake.pinned_message(group) is None
    assert fake.messages(group) == []
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("Game", chat_id=group.id, message_id=sent.message_id)


# -- a group upgraded to a supergroup -------------------------------------------------------------


async def test_group_upgraded_to_supergroup(
    fake: FakeTelegram, bot: Bot, alice: FakeUser, boris: FakeUser
) -> None:
    old = fake.add_group("Basic", creator=alice, members=[boris], chat_type="group")
    assert str(old.id).startswith("-4")
    fake.user_sends(boris, old, "/newgame")
    sent = await bot.send_message(old.id, "Lobby", reply_markup=keyboard([("Join", "join")]))
    assert sent.message_id == 2
    first = await bot.get_updates()
    assert len(first) == 1

    new = fake.migrate_to_supergroup(old)
    assert (new.type, new.title, str(new.id)[:4]) == ("supergroup", "Basic", "-100")
    assert old.migrated_to is new
    assert new.migrated_from is old
    assert new.status_of(alice) == "creator"
    assert new.status_of(boris) == "member"
    assert new.status_of(fake.bot) == "member"

    updates = await bot.get_updates(offset=first[-1].update_id + 1)
    assert [u.event_type for u in updates] == ["message", "my_chat_member", "message"]
    moved, joined, welcome = (updates[0].message, updates[1].my_chat_member, updates[2].message)
    assert moved is not None
    assert (moved.chat.id, moved.chat.type, moved.migrate_to_chat_id) == (old.id, "group", new.id)
    assert moved.from_user is not None
    assert moved.from_user.id == alice.id
    assert joined is not None
    assert joined.chat.id == new.id
    assert isinstance(joined.old_chat_member, ChatMemberLeft)
    assert isinstance(joined.new_chat_member, ChatMemberMember)
    assert welcome is not None
    assert (welcome.chat.id, welcome.message_id, welcome.migrate_from_chat_id) == (
        new.id,
        1,
        old.id,
    )
    assert welcome.sender_chat is not None
    assert welcome.sender_chat.id == new.id

    # Every call about the old group now points to the supergroup.
    with pytest.raises(TelegramMigrateToChat) as raised:
        await bot.send_message(old.id, "Anyone?")
    assert raised.value.migrate_to_chat_id == new.id
    upgraded = "Bad Request: group chat was upgraded to a supergroup chat"
    assert fake.errors()[-1].description == upgraded
    assert upgraded in raised.value.message  # aiogram prefixes its own explanation
    with pytest.raises(TelegramMigrateToChat):
        await bot.edit_message_text("Game", chat_id=old.id, message_id=sent.message_id)
    with pytest.raises(TelegramMigrateToChat):
        await bot.get_chat_member(old.id, alice.id)
    with pytest.raises(TelegramMigrateToChat):
        await bot.delete_message(old.id, sent.message_id)
    assert fake.errors()[-1].chat_id == old.id

    # The old messages did not move: the bot has to send new ones.
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("Game", chat_id=new.id, message_id=sent.message_id)
    assert isinstance(await bot.get_chat_member(new.id, alice.id), ChatMemberOwner)
    fresh = await bot.send_message(new.id, "Lobby", reply_markup=keyboard([("Join", "join")]))
    assert fresh.message_id == 2
    with pytest.raises(ImpossibleUserAction, match="upgraded"):
        fake.user_sends(boris, old, "/newgame")
    fake.user_sends(boris, new, "/newgame")
    query_id = fake.user_presses(boris, fake.message(new, fresh.message_id), "join")
    # Old buttons can still be pressed (the old messages are the supergroup's history).
    stale_id = fake.user_presses(boris, fake.message(old, sent.message_id), "join")
    updates = await bot.get_updates(offset=updates[-1].update_id + 1)
    assert [u.event_type for u in updates] == ["message", "callback_query", "callback_query"]
    assert updates[0].message is not None
    assert updates[0].message.chat.id == new.id
    pressed, stale = updates[1].callback_query, updates[2].callback_query
    assert pressed is not None
    assert stale is not None
    assert pressed.id == query_id
    assert stale.id == stale_id
    assert stale.message is not None
    assert stale.message.chat.id == old.id
    assert await bot.answer_callback_query(stale_id)

    with pytest.raises(ValueError, match="already upgraded"):
        fake.migrate_to_supergroup(old)
    with pytest.raises(ValueError, match="not a basic group"):
        fake.migrate_to_supergroup(new)


async def test_upgrade_of_a_group_without_the_bot_sends_nothing(
    fake: FakeTelegram, bot: Bot, alice: FakeUser, boris: FakeUser
) -> None:
    old = fake.add_group("No bot", creator=alice, chat_type="group", bot_status=None)
    with pytest.raises(ImpossibleUserAction):
        fake.migrate_to_supergroup(old, by=boris)
    new = fake.migrate_to_supergroup(old, by=alice)
    assert await bot.get_updates() == []
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.send_message(new.id, "hi")


# -- the bot removed from a group ------------------------------------------------------------------


async def test_bot_kicked_from_group(
    fake: FakeTelegram, bot: Bot, group: FakeChat, alice: FakeUser, boris: FakeUser
) -> None:
    sent = await bot.send_message(group.id, "Lobby", reply_markup=keyboard([("Join", "join")]))
    fake.bot_removed_from_group(group, by=alice)
    updates = await bot.get_updates()
    assert [u.event_type for u in updates] == ["my_chat_member"]
    change = updates[0].my_chat_member
    assert change is not None
    assert isinstance(change.new_chat_member, ChatMemberBanned)

    kicked = "Forbidden: bot was kicked from the supergroup chat"
    with pytest.raises(TelegramForbiddenError) as raised:
        await bot.send_message(group.id, "Still here?")
    assert raised.value.message == kicked
    with pytest.raises(TelegramForbiddenError, match=kicked):
        await bot.edit_message_text("Game", chat_id=group.id, message_id=sent.message_id)
    with pytest.raises(TelegramForbiddenError, match=kicked):
        await bot.edit_message_reply_markup(chat_id=group.id, message_id=sent.message_id)
    with pytest.raises(TelegramForbiddenError, match=kicked):
        await bot.get_chat_member(group.id, boris.id)
    with pytest.raises(TelegramForbiddenError, match=kicked):
        await bot.delete_message(group.id, sent.message_id)

    # Users still see the old message and may press its button; the bot gets the press.
    fake.user_sends(boris, group, "/newgame")  # not delivered: the bot is not in the chat
    query_id = fake.user_presses(boris, fake.message(group, sent.message_id), "join")
    updates = await bot.get_updates(offset=updates[-1].update_id + 1)
    assert [u.event_type for u in updates] == ["callback_query"]
    assert await bot.answer_callback_query(query_id, text="The bot left this group")


async def test_bot_removed_without_ban_and_from_basic_groups(
    fake: FakeTelegram, bot: Bot, group: FakeChat, alice: FakeUser
) -> None:
    fake.bot_removed_from_group(group, by=alice, ban=False)
    with pytest.raises(TelegramForbiddenError) as raised:
        await bot.send_message(group.id, "hi")
    assert raised.value.message == "Forbidden: bot is not a member of the supergroup chat"
    updates = await bot.get_updates()
    assert updates[0].my_chat_member is not None
    assert isinstance(updates[0].my_chat_member.new_chat_member, ChatMemberLeft)

    basic = fake.add_group("Basic", creator=alice, chat_type="group")
    fake.bot_removed_from_group(basic, by=alice)
    with pytest.raises(TelegramForbiddenError, match="bot was kicked from the group chat"):
        await bot.send_message(basic.id, "hi")
    other = fake.add_group("Basic 2", creator=alice, chat_type="group")
    fake.bot_removed_from_group(other, by=alice, ban=False)
    with pytest.raises(TelegramForbiddenError, match="bot is not a member of the group chat"):
        await bot.get_chat(other.id)


# -- members seen through a join link --------------------------------------------------------------


async def test_get_chat_member_of_strangers_and_banned_users(
    fake: FakeTelegram, bot: Bot, group: FakeChat, boris: FakeUser
) -> None:
    stranger = fake.add_user("Stranger")
    left = await bot.get_chat_member(group.id, stranger.id)
    assert isinstance(left, ChatMemberLeft)
    assert left.user.id == stranger.id
    fake.user_removed(boris, group)
    banned = await bot.get_chat_member(group.id, boris.id)
    assert isinstance(banned, ChatMemberBanned)
    fake.user_joins(stranger, group)
    assert isinstance(await bot.get_chat_member(group.id, stranger.id), ChatMemberMember)
