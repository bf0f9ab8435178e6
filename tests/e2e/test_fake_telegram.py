"""Tests of the fake Telegram Bot API server, driven by a real aiogram Bot (no mocks)."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from aiogram import Bot, Dispatcher
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramConflictError,
    TelegramForbiddenError,
    TelegramRetryAfter,
    TelegramUnauthorizedError,
)
from aiogram.filters import Command, CommandObject
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    CallbackQuery,
    ChatMemberAdministrator,
    ChatMemberBanned,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberOwner,
    InaccessibleMessage,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
    WebAppInfo,
)

from .conftest import make_bot
from .fake_telegram import (
    ANONYMOUS_ADMIN_ID,
    EntityParseError,
    FakeChat,
    FakeTelegram,
    FakeUser,
    ImpossibleUserAction,
    parse_html,
)

pytestmark = pytest.mark.e2e


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=text, callback_data=data) for text, data in row]
            for row in rows
        ]
    )


@pytest.fixture
def alice(fake: FakeTelegram) -> FakeUser:
    return fake.add_user("Alice", username="alice", language_code="en", started=True)


@pytest.fixture
def boris(fake: FakeTelegram) -> FakeUser:
    return fake.add_user("Борис", last_name="Петров", language_code="ru")


@pytest.fixture
def group(fake: FakeTelegram, alice: FakeUser, boris: FakeUser) -> FakeChat:
    return fake.add_group("Durak night", creator=alice, members=[boris])


# -- basics ----------------------------------------------------------------------------------


async def test_get_me(fake: FakeTelegram, bot: Bot) -> None:
    me = await bot.get_me()
    assert me.id == fake.bot.id == bot.id
    assert me.is_bot
    assert me.username == "durak_test_bot"
    assert me.can_join_groups
    assert fake.calls("getMe")[0].ok


async def test_wrong_token_is_unauthorized(fake: FakeTelegram) -> None:
    other = make_bot(fake, token="42:not-the-right-token")
    try:
        with pytest.raises(TelegramUnauthorizedError):
            await other.get_me()
    finally:
        await other.session.close()
    assert fake.errors()[0].error_code == 401


async def test_raw_http_json_urlencoded_and_unknown_method(
    fake: FakeTelegram, alice: FakeUser
) -> None:
    base = f"{fake.base_url}/bot{fake.token}"
    async with aiohttp.ClientSession() as session:
        async with session.post(
            f"{base}/sendMessage", json={"chat_id": alice.id, "text": "json body"}
        ) as resp:
            body = await resp.json()
            assert resp.status == 200
            assert body["ok"] is True
            assert body["result"]["text"] == "json body"
        async with session.post(
            f"{base}/sendmessage", data={"chat_id": str(alice.id), "text": "form body"}
        ) as resp:
            assert (await resp.json())["result"]["message_id"] == 2
        async with session.post(f"{base}/sendSticker2", data={}) as resp:
            assert resp.status == 404
            assert await resp.json() == {
                "ok": False,
                "error_code": 404,
                "description": "Not Found: method not found",
            }
    texts = [m.text for m in fake.bot_messages(fake.private_chat(alice))]
    assert texts == ["json body", "form body"]


# -- sending and editing --------------------------------------------------------------------


async def test_send_edit_and_not_modified(fake: FakeTelegram, bot: Bot, group: FakeChat) -> None:
    markup = keyboard([("Join", "join:1"), ("Leave", "leave:1")])
    sent = await bot.send_message(
        group.id, "<b>New game</b> &amp; more", parse_mode="HTML", reply_markup=markup
    )
    assert sent.text == "New game & more"
    assert sent.entities is not None
    assert (sent.entities[0].type, sent.entities[0].offset, sent.entities[0].length) == (
        "bold",
        0,
        8,
    )
    assert isinstance(sent.reply_markup, InlineKeyboardMarkup)
    assert sent.reply_markup.model_dump(exclude_none=True) == markup.model_dump(exclude_none=True)

    message = fake.last_bot_message(group)
    assert message is not None
    assert message.message_id == sent.message_id
    assert message.raw_text == "<b>New game</b> &amp; more"
    assert message.button_rows() == [[("Join", "join:1"), ("Leave", "leave:1")]]

    edited = await bot.edit_message_text(
        "Game started", chat_id=group.id, message_id=sent.message_id, reply_markup=markup
    )
    assert isinstance(edited, Message)
    assert edited.edit_date is not None
    assert message.text == "Game started"
    assert message.edit_count == 1
    assert message.history[0].text == "New game & more"

    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text(
            "Game started", chat_id=group.id, message_id=sent.message_id, reply_markup=markup
        )
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_reply_markup(
            chat_id=group.id, message_id=sent.message_id, reply_markup=markup
        )

    # Telegram drops the inline keyboard when editMessageText comes without reply_markup.
    await bot.edit_message_text("Game over", chat_id=group.id, message_id=sent.message_id)
    assert message.buttons == []
    await bot.edit_message_reply_markup(
        chat_id=group.id, message_id=sent.message_id, reply_markup=keyboard([("Again", "again")])
    )
    assert message.button_rows() == [[("Again", "again")]]
    assert message.text == "Game over"

    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("x", chat_id=group.id, message_id=999)


async def test_delete_message(
    fake: FakeTelegram, bot: Bot, group: FakeChat, boris: FakeUser
) -> None:
    sent = await bot.send_message(group.id, "bye")
    assert await bot.delete_message(group.id, sent.message_id)
    assert fake.bot_messages(group) == []
    assert fake.bot_messages(group, include_deleted=True)[0].deleted
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(group.id, sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("again", chat_id=group.id, message_id=sent.message_id)
    users_message = fake.user_sends(boris, group, "/play")
    with pytest.raises(TelegramBadRequest, match="message can't be deleted"):
        await bot.delete_message(group.id, users_message.message_id)
    with pytest.raises(TelegramBadRequest, match="message can't be edited"):
        await bot.edit_message_text("hack", chat_id=group.id, message_id=users_message.message_id)


async def test_message_ids_increase_per_chat(
    fake: FakeTelegram, bot: Bot, group: FakeChat, alice: FakeUser
) -> None:
    first = await bot.send_message(group.id, "one")
    fake.user_sends(alice, group, "/ping")
    second = await bot.send_message(group.id, "two", reply_parameters=ReplyParameters(message_id=2))
    private = await bot.send_message(alice.id, "hi")
    assert (first.message_id, second.message_id, private.message_id) == (1, 3, 1)
    assert second.reply_to_message is not None
    assert second.reply_to_message.text == "/ping"
    with pytest.raises(TelegramBadRequest, match="message to be replied not found"):
        await bot.send_message(group.id, "x", reply_parameters=ReplyParameters(message_id=77))


async def test_forbidden_for_user_who_never_started(
    fake: FakeTelegram, bot: Bot, boris: FakeUser
) -> None:
    with pytest.raises(TelegramForbiddenError, match="bot can't initiate conversation"):
        await bot.send_message(boris.id, "Your cards")
    assert fake.errors()[-1].error_code == 403

    start = fake.user_starts_bot(boris, payload="join_g42")
    assert start.text == "/start join_g42"
    assert boris.started
    sent = await bot.send_message(boris.id, "Your cards")
    assert sent.chat.type == "private"
    assert sent.chat.first_name == "Борис"

    fake.user_blocks_bot(boris)
    with pytest.raises(TelegramForbiddenError, match="bot was blocked by the user"):
        await bot.send_message(boris.id, "Still there?")
    with pytest.raises(TelegramForbiddenError):
        await bot.edit_message_text("edited", chat_id=boris.id, message_id=sent.message_id)


async def test_deep_links(fake: FakeTelegram, boris: FakeUser) -> None:
    message = fake.user_follows_link(boris, "https://t.me/durak_test_bot?start=g-123_x")
    assert message.text == "/start g-123_x"
    assert [e["type"] for e in message.entities] == ["bot_command"]
    with pytest.raises(ImpossibleUserAction):
        fake.user_starts_bot(boris, payload="has space")
    with pytest.raises(ImpossibleUserAction):
        fake.user_follows_link(boris, "https://t.me/other_bot?start=abc")


async def test_chat_not_found_and_bot_removed(
    fake: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.send_message(-100123, "hello?")
    never_added = fake.add_group("No bot here", creator=alice, bot_status=None)
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.send_message(never_added.id, "hello?")
    kicked = fake.add_group("Kicked", creator=alice, bot_status="kicked")
    with pytest.raises(TelegramForbiddenError, match="bot was kicked from the supergroup chat"):
        await bot.send_message(kicked.id, "hello?")


# -- limits ------------------------------------------------------------------------------------


async def test_callback_data_limit(bot: Bot, group: FakeChat) -> None:
    await bot.send_message(group.id, "ok", reply_markup=keyboard([("64", "я" * 32)]))
    with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
        await bot.send_message(group.id, "bad", reply_markup=keyboard([("65", "x" * 65)]))
    with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
        await bot.send_message(group.id, "bad", reply_markup=keyboard([("66", "я" * 33)]))


async def test_web_app_buttons_only_in_private_chats_and_over_https(
    fake: FakeTelegram, bot: Bot, alice: FakeUser, group: FakeChat
) -> None:
    """As Telegram: a Mini App button in a group is BUTTON_TYPE_INVALID; its page must be
    https:// (http:// on this machine, for the Mini App's tests)."""

    def app(url: str) -> InlineKeyboardMarkup:
        button = InlineKeyboardButton(text="🃏", web_app=WebAppInfo(url=url))
        return InlineKeyboardMarkup(inline_keyboard=[[button]])

    private = fake.private_chat(alice)
    await bot.send_message(private.id, "ok", reply_markup=app("https://durak.example/?chat=1"))
    await bot.send_message(private.id, "ok", reply_markup=app("http://127.0.0.1:8081/?chat=1"))
    message = fake.last_bot_message(private)
    assert message is not None
    assert [b.web_app for b in message.all_buttons()] == ["http://127.0.0.1:8081/?chat=1"]
    with pytest.raises(TelegramBadRequest, match="BUTTON_URL_INVALID"):
        await bot.send_message(private.id, "bad", reply_markup=app("http://durak.example/"))
    with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
        await bot.send_message(group.id, "bad", reply_markup=app("https://durak.example/"))
    sent = await bot.send_message(group.id, "ok")
    with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
        await bot.edit_message_reply_markup(
            chat_id=group.id, message_id=sent.message_id, reply_markup=app("https://d.example/")
        )


async def test_text_limits_and_html(fake: FakeTelegram, bot: Bot, group: FakeChat) -> None:
    await bot.send_message(group.id, "a" * 4096)
    with pytest.raises(TelegramBadRequest, match="message is too long"):
        await bot.send_message(group.id, "a" * 4097)
    # The limit applies to the text after entity parsing.
    await bot.send_message(group.id, "<b>" + "&lt;" * 4096 + "</b>", parse_mode="HTML")
    assert fake.last_bot_message(group) is not None
    with pytest.raises(TelegramBadRequest, match="message text is empty"):
        await bot.send_message(group.id, "<b> </b>", parse_mode="HTML")
    with pytest.raises(TelegramBadRequest, match="can't parse entities: Unsupported start tag"):
        await bot.send_message(group.id, "<div>x</div>", parse_mode="HTML")
    with pytest.raises(TelegramBadRequest, match="can't parse entities: Can't find end tag"):
        await bot.send_message(group.id, "<b>x", parse_mode="HTML")
    with pytest.raises(TelegramBadRequest, match="can't parse entities: Unmatched end tag"):
        await bot.send_message(group.id, "<b>x</i>", parse_mode="HTML")


def test_parse_html_entities() -> None:
    text, entities = parse_html(
        '🂡 <b>Туз</b> <span class="tg-spoiler">s</span> <a href="https://t.me/x?a=1&amp;b=2">l</a>'
        '<pre><code class="language-python">p</code></pre>'
    )
    assert text == "🂡 Туз s lp"
    assert entities == [
        {"type": "bold", "offset": 3, "length": 3},  # the card emoji is 2 UTF-16 units
        {"type": "spoiler", "offset": 7, "length": 1},
        {"type": "text_link", "offset": 9, "length": 1, "url": "https://t.me/x?a=1&b=2"},
        {"type": "pre", "offset": 10, "length": 1, "language": "python"},
    ]


def test_parse_html_date_time() -> None:
    text, entities = parse_html('до <tg-time unix="1800000000" format="T">08:00:00 UTC</tg-time>')
    assert text == "до 08:00:00 UTC"
    assert entities == [
        {
            "type": "date_time",
            "offset": 3,
            "length": 12,
            "unix_time": 1800000000,
            "date_time_format": "T",
        }
    ]
    with pytest.raises(EntityParseError):
        parse_html('<tg-time unix="soon">x</tg-time>')


async def test_flood_control(fake: FakeTelegram, bot: Bot, group: FakeChat) -> None:
    fake.enable_flood_control(group_limit=3)
    for i in range(3):
        await bot.send_message(group.id, f"message {i}")
    with pytest.raises(TelegramRetryAfter) as raised:
        await bot.send_message(group.id, "one too many")
    assert 1 <= raised.value.retry_after <= 60
    assert len(fake.sends_and_edits(group)) == 4
    assert fake.max_sends_and_edits_in_window(group) == 4
    assert fake.errors()[-1].error_code == 429
    fake.disable_flood_control()
    await bot.send_message(group.id, "fine again")


# -- updates -----------------------------------------------------------------------------------


async def test_long_polling_delivers_message_and_callback(
    fake: FakeTelegram, bot: Bot, group: FakeChat, boris: FakeUser
) -> None:
    poll = asyncio.create_task(bot.get_updates(timeout=10))
    await fake.wait_for(lambda: fake.polls_started > 0)
    done, _ = await asyncio.wait({poll}, timeout=0.2)
    assert not done, "getUpdates must hold the request while there are no updates"

    fake.user_sends(boris, group, "/newgame@durak_test_bot 6")
    updates = await asyncio.wait_for(poll, timeout=5)
    assert len(updates) == 1
    message = updates[0].message
    assert isinstance(message, Message)
    assert message.text == "/newgame@durak_test_bot 6"
    assert message.entities is not None
    assert (message.entities[0].type, message.entities[0].offset) == ("bot_command", 0)
    assert message.entities[0].length == len("/newgame@durak_test_bot")
    assert message.from_user is not None
    assert message.from_user.id == boris.id
    assert message.from_user.language_code == "ru"
    assert (message.chat.id, message.chat.type, message.chat.title) == (
        group.id,
        "supergroup",
        "Durak night",
    )

    sent = await bot.send_message(group.id, "Lobby", reply_markup=keyboard([("Join", "join")]))
    lobby = fake.message(group, sent.message_id)
    with pytest.raises(ImpossibleUserAction):
        fake.user_presses(boris, lobby, "Start")
    query_id = fake.user_presses(boris, lobby, "Join")

    updates = await bot.get_updates(offset=updates[-1].update_id + 1, timeout=5)
    assert len(updates) == 1
    query = updates[0].callback_query
    assert isinstance(query, CallbackQuery)
    assert query.id == query_id
    assert query.data == "join"
    assert query.from_user.id == boris.id
    assert isinstance(query.message, Message)
    assert query.message.message_id == sent.message_id
    assert query.message.chat.id == group.id

    # Unconfirmed updates are delivered again; confirmed ones are gone; timeout gives [].
    again = await bot.get_updates(offset=updates[0].update_id)
    assert [u.update_id for u in again] == [updates[0].update_id]
    assert await bot.get_updates(offset=updates[0].update_id + 1, timeout=1) == []
    assert fake.pending_updates == []


async def test_answer_callback_query_once(
    fake: FakeTelegram, bot: Bot, group: FakeChat, boris: FakeUser
) -> None:
    sent = await bot.send_message(group.id, "Lobby", reply_markup=keyboard([("Join", "join")]))
    query_id = fake.user_presses(boris, fake.message(group, sent.message_id), "join")
    with pytest.raises(TelegramBadRequest, match="MESSAGE_TOO_LONG"):
        await bot.answer_callback_query(query_id, text="x" * 201)
    assert await bot.answer_callback_query(query_id, text="You joined", show_alert=True)
    answer = await fake.callback_answer(query_id, timeout=1)
    assert (answer.text, answer.show_alert) == ("You joined", True)
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_callback_query(query_id)
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_callback_query("123")


async def test_stale_press_on_deleted_message(
    fake: FakeTelegram, bot: Bot, group: FakeChat, boris: FakeUser
) -> None:
    sent = await bot.send_message(group.id, "Old", reply_markup=keyboard([("Go", "go")]))
    message = fake.message(group, sent.message_id)
    await bot.delete_message(group.id, sent.message_id)
    with pytest.raises(ImpossibleUserAction):
        fake.user_presses(boris, message, "go")
    fake.user_presses_data(boris, message, "go")
    updates = await bot.get_updates()
    assert updates[0].callback_query is not None
    assert isinstance(updates[0].callback_query.message, InaccessibleMessage)


async def test_anonymous_admin_and_privacy_mode(
    fake: FakeTelegram, bot: Bot, group: FakeChat, boris: FakeUser
) -> None:
    fake.user_sends(boris, group, "just chatting")  # privacy mode: not delivered
    fake.user_sends(boris, group, "/other@some_other_bot")  # not for us
    fake.anonymous_admin_sends(group, "/endgame")
    updates = await bot.get_updates()
    assert len(updates) == 1
    message = updates[0].message
    assert message is not None
    assert message.text == "/endgame"
    assert message.sender_chat is not None
    assert message.sender_chat.id == group.id
    assert message.from_user is not None
    assert message.from_user.id == ANONYMOUS_ADMIN_ID
    assert message.from_user.username == "GroupAnonymousBot"
    assert message.from_user.is_bot

    fake.privacy_mode = False
    fake.user_sends(boris, group, "just chatting")
    updates = await bot.get_updates(offset=updates[-1].update_id + 1)
    assert [u.message.text for u in updates if u.message] == ["just chatting"]


async def test_member_updates_and_allowed_updates(
    fake: FakeTelegram, bot: Bot, alice: FakeUser, boris: FakeUser
) -> None:
    group = fake.add_group("Admins", creator=alice, members=[boris], bot_status="administrator")
    fake.user_leaves(boris, group)
    updates = await bot.get_updates(allowed_updates=["message", "chat_member"])
    assert [u.event_type for u in updates] == ["chat_member", "message"]
    chat_member = updates[0].chat_member
    assert chat_member is not None
    assert isinstance(chat_member.new_chat_member, ChatMemberLeft)
    message = updates[1].message
    assert message is not None
    assert message.left_chat_member is not None
    assert message.left_chat_member.id == boris.id

    fake.user_joins(boris, group)
    updates = await bot.get_updates(offset=updates[-1].update_id + 1, allowed_updates=[])
    assert [u.event_type for u in updates] == ["message"]  # chat_member only when asked
    assert updates[0].message is not None
    assert updates[0].message.new_chat_members is not None


async def test_second_poller_conflicts(fake: FakeTelegram, bot: Bot) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=10))
    await fake.wait_for(lambda: fake.polls_started == 1)
    second = asyncio.create_task(bot.get_updates(timeout=1))
    with pytest.raises(TelegramConflictError, match="terminated by other getUpdates"):
        await first
    assert await second == []


# -- chats and members --------------------------------------------------------------------------


async def test_get_chat_member_statuses(
    fake: FakeTelegram, bot: Bot, alice: FakeUser, boris: FakeUser
) -> None:
    vera = fake.add_user("Vera")
    gleb = fake.add_user("Gleb")
    group = fake.add_group("Statuses", creator=alice, admins=[vera], members=[boris, gleb])
    fake.set_member_status(group, vera, "administrator", is_anonymous=True, custom_title="boss")

    owner = await bot.get_chat_member(group.id, alice.id)
    assert isinstance(owner, ChatMemberOwner)
    admin = await bot.get_chat_member(group.id, vera.id)
    assert isinstance(admin, ChatMemberAdministrator)
    assert admin.is_anonymous
    assert admin.custom_title == "boss"
    assert isinstance(await bot.get_chat_member(group.id, boris.id), ChatMemberMember)
    fake.user_leaves(boris, group)
    assert isinstance(await bot.get_chat_member(group.id, boris.id), ChatMemberLeft)
    fake.user_removed(gleb, group)
    assert isinstance(await bot.get_chat_member(group.id, gleb.id), ChatMemberBanned)
    assert isinstance(await bot.get_chat_member(group.id, bot.id), ChatMemberMember)
    with pytest.raises(TelegramBadRequest, match="user not found"):
        await bot.get_chat_member(group.id, 5)

    admins = await bot.get_chat_administrators(group.id)
    assert {member.user.id for member in admins} == {alice.id, vera.id}
    chat = await bot.get_chat(group.id)
    assert (chat.id, chat.type, chat.title) == (group.id, "supergroup", "Statuses")


async def test_pin_requires_rights(fake: FakeTelegram, bot: Bot, group: FakeChat) -> None:
    sent = await bot.send_message(group.id, "Scoreboard")
    with pytest.raises(TelegramBadRequest, match="not enough rights"):
        await bot.pin_chat_message(group.id, sent.message_id)
    fake.set_bot_status(group, "administrator")
    assert await bot.pin_chat_message(group.id, sent.message_id, disable_notification=True)
    pinned = fake.pinned_message(group)
    assert pinned is not None
    assert pinned.message_id == sent.message_id
    chat = await bot.get_chat(group.id)
    assert chat.pinned_message is not None
    assert chat.pinned_message.text == "Scoreboard"
    assert await bot.unpin_chat_message(group.id, message_id=sent.message_id)
    assert fake.pinned_message(group) is None
    assert await bot.send_chat_action(group.id, "typing")


async def test_set_my_commands_per_language(fake: FakeTelegram, bot: Bot) -> None:
    await bot.set_my_commands([BotCommand(command="newgame", description="New game")])
    await bot.set_my_commands(
        [BotCommand(command="newgame", description="Новая игра")], language_code="ru"
    )
    await bot.set_my_commands(
        [BotCommand(command="newgame", description="Нова гра")],
        scope=BotCommandScopeAllGroupChats(),
        language_code="uk",
    )
    ru = await bot.get_my_commands(language_code="ru")
    assert [(c.command, c.description) for c in ru] == [("newgame", "Новая игра")]
    assert fake.commands() == [("newgame", "New game")]
    assert fake.commands(scope={"type": "all_group_chats"}, language_code="uk") == [
        ("newgame", "Нова гра")
    ]
    assert await bot.get_my_commands(language_code="uk") == []
    with pytest.raises(TelegramBadRequest, match="BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand(command="New-Game", description="x")])
    await bot.delete_my_commands(language_code="ru")
    assert fake.commands(language_code="ru") == []


# -- a real dispatcher --------------------------------------------------------------------------


async def test_dispatcher_polling_round_trip(
    fake: FakeTelegram, bot: Bot, group: FakeChat, boris: FakeUser
) -> None:
    dp = Dispatcher()

    @dp.message(Command("ping"))
    async def ping(message: Message, command: CommandObject) -> None:
        await message.answer(f"pong {command.args}", reply_markup=keyboard([("Again", "again")]))

    @dp.callback_query()
    async def again(query: CallbackQuery) -> None:
        await query.answer("pressed")

    polling = asyncio.create_task(
        dp.start_polling(bot, handle_signals=False, close_bot_session=False, polling_timeout=1)
    )
    try:
        await fake.wait_for(lambda: fake.polls_started > 0)
        mark = fake.mark()
        fake.user_sends(boris, group, "/ping@durak_test_bot 7")
        reply = await fake.wait_for_bot_message(group, "pong")
        assert reply.text == "pong 7"
        query_id = fake.user_presses(boris, reply, "Again")
        answer = await fake.callback_answer(query_id)
        assert answer.text == "pressed"
        await fake.wait_idle(quiet=0.1)
        assert [c.method for c in fake.calls(since=mark)] == [
            "sendMessage",
            "answerCallbackQuery",
        ]
        assert fake.errors() == []
    finally:
        await dp.stop_polling()
        await polling
