"""The handlers in-process: the Dispatcher that ``bot.app.build`` makes, fed Telegram's
updates, its Bot answered by a mocked session (``telegram_mock``), Redis real. What a user
would see is read off the requests the bot made: press answers, messages, edits."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from aiogram.dispatcher.event.bases import UNHANDLED
from aiogram.methods import AnswerCallbackQuery, EditMessageText, GetChatMember, SendMessage
from aiogram.types import Update
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from telegram_mock import (
    ANONYMOUS_ADMIN,
    BOT_USER,
    GROUP,
    Telegram,
    member,
    private,
    user,
)

from bot.i18n import Translator, translator
from bot.model import ChatSettings, GameRecord, Phase
from bot.schema.stats import PlayerStats
from bot.services import GameService, StorageBusy
from bot.storage import SettingsStore
from bot.ui.callbacks import LobbyPress, SettingsPress
from bot.ui.render import hand_popup, hand_scene, rules_text
from bot.ui.settings import settings_done, settings_menu, settings_view
from bot.ui.stats import leaderboard_text, personal_text
from engine import HouseRules, ThrowIn

ANNA, BORIS, VERA = user(1, "Аня"), user(2, "Борис"), user(3, "Вера")
CHAT: int = GROUP["id"]
ru = translator("ru")


async def current(telegram: Telegram) -> GameRecord:
    record = await telegram.app.service.games.get(CHAT)
    assert record is not None
    return record


def lobby_press(record: GameRecord, op: str) -> str:
    return LobbyPress(game=record.game.game_id, op=op).pack()


def plain(text: str | None) -> str:
    """A message's text without its HTML tags."""
    return re.sub(r"<[^>]+>", "", text or "")


def buttons(method: SendMessage | EditMessageText) -> list[str]:
    markup: Any = method.reply_markup
    return [b.callback_data for row in markup.inline_keyboard for b in row if b.callback_data]


async def test_newgame_join_and_start_turn_the_lobby_into_a_table(telegram: Telegram) -> None:
    session = telegram.session
    await telegram.send(ANNA, "/newgame")
    await telegram.delivered()
    record = await current(telegram)
    assert [p.user_id for p in record.game.players] == [1]
    [(lobby, lobby_id)] = session.posts(CHAT)
    assert buttons(lobby) == [lobby_press(record, op) for op in ("join", "leave", "bot+", "start")]

    await telegram.press(BORIS, lobby_press(record, "join"), lobby_id)
    assert session.answers() == [ru.t("answer-joined")]
    assert [p.user_id for p in (await current(telegram)).game.players] == [1, 2]

    await telegram.press(ANNA, lobby_press(record, "start"), lobby_id)
    assert session.answers()[-1] == ru.t("answer-started")
    await telegram.delivered()
    assert (await current(telegram)).game.phase is Phase.PLAYING
    table = session.sent(EditMessageText, chat_id=CHAT, message_id=lobby_id)[-1]
    assert buttons(table) == [lobby_press(record, "cards")]
    for player in (ANNA, BORIS):  # each got their hand in private
        assert len(session.posts(player["id"])) == 1


async def test_a_press_on_an_older_lobby_or_an_unknown_button_changes_nothing(
    telegram: Telegram,
) -> None:
    await telegram.send(ANNA, "/newgame")
    record = await current(telegram)
    await telegram.press(BORIS, LobbyPress(game="old1", op="join").pack(), 10)
    await telegram.press(BORIS, f"l:{record.game.game_id}:deal", 10)  # no such button (now)
    await telegram.press(BORIS, f"l:{record.game.game_id}", 10)
    assert telegram.session.answers() == [
        ru.t("answer-stale-lobby"),
        ru.t("answer-malformed"),
        ru.t("answer-malformed"),
    ]
    assert (await current(telegram)).game.players == record.game.players


async def test_every_press_is_answered_once_by_the_answering_middleware(
    telegram: Telegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``AnswerMiddleware`` answers each press once, whatever happened within: a delivery of
    a press that was handled already is answered without a text (the first said what there
    was to say), and a handler that fails still stops the presser's spinner."""
    bot, dispatcher = telegram.app.bot, telegram.app.dispatcher
    message = {"message_id": 10, "date": 0, "chat": GROUP, "from": BOT_USER, "text": "…"}
    query = {"id": "q-again", "from": BORIS, "chat_instance": "42", "message": message}
    query["data"] = LobbyPress(game="old1", op="join").pack()
    update = Update.model_validate(
        {"update_id": 9000, "callback_query": query}, context={"bot": bot}
    )
    await dispatcher.feed_update(bot, update)
    await dispatcher.feed_update(bot, update)  # Telegram delivers it again
    assert telegram.session.answers() == [ru.t("answer-no-lobby"), None]

    async def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(GameService, "join", broken)
    with pytest.raises(RuntimeError):
        await telegram.press(BORIS, LobbyPress(game="g", op="join").pack(), 10)
    assert telegram.session.answers()[2:] == [None]


async def test_stop_by_a_member_who_is_not_an_admin_is_refused(telegram: Telegram) -> None:
    session = telegram.session
    await telegram.send(ANNA, "/newgame")
    await telegram.send(BORIS, "/stop")
    await telegram.send(BORIS, "/stop")
    await telegram.delivered()
    assert (await current(telegram)).game.phase is Phase.LOBBY
    replies = [m.text for m, _ in session.posts(CHAT) if m.reply_parameters is not None]
    assert replies == [ru.t("reply-not-allowed-stop")] * 2
    assert len(session.sent(GetChatMember, chat_id=CHAT, user_id=2)) == 1  # then remembered


CREATOR_OR_ADMIN = {
    "ru": "может только тот, кто собрал стол, или админ группы.",
    "uk": "може лише той, хто зібрав стіл, або адмін групи.",
}
REFUSED = {  # what a member was refused, as each refusal names it
    "ru": {"remove": "Убрать бота", "start": "Начать игру", "stop": "Остановить игру"},
    "uk": {"remove": "Прибрати бота", "start": "Почати гру", "stop": "Зупинити гру"},
}


@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_a_refusal_to_a_member_names_what_was_refused(telegram: Telegram, lang: str) -> None:
    """A member pressing «🤖 Убрать бота» was told «Начать может только тот, кто
    собрал стол, или админ группы.» Each button and command only the creator or an admin
    may use says which one it was: the reply in the group's language, the pop-up in the
    presser's (Борис's, Russian)."""
    await telegram.app.storage.settings.set(CHAT, ChatSettings(language=lang))
    await telegram.send(ANNA, "/newgame")
    await telegram.send(ANNA, "/addbot")
    record = await current(telegram)
    await telegram.press(BORIS, lobby_press(record, "bot-"), 10)
    await telegram.press(BORIS, lobby_press(record, "start"), 10)
    for command in ("/removebot", "/startgame", "/stop"):
        await telegram.send(BORIS, command)
    await telegram.delivered()
    said = {what: f"{action} {CREATOR_OR_ADMIN[lang]}" for what, action in REFUSED[lang].items()}
    popped = {what: f"{action} {CREATOR_OR_ADMIN['ru']}" for what, action in REFUSED["ru"].items()}
    assert telegram.session.answers() == [popped["remove"], popped["start"]]
    replies = [m.text for m, _ in telegram.session.posts(CHAT) if m.reply_parameters is not None]
    assert replies == [said["remove"], said["start"], said["stop"]]
    after = await current(telegram)
    assert after.game.phase is Phase.LOBBY and after.game.players == record.game.players


async def test_an_admin_and_an_anonymous_admin_may_stop(telegram: Telegram) -> None:
    session = telegram.session
    session.statuses[3] = "administrator"
    await telegram.send(ANNA, "/newgame")
    await telegram.send(VERA, "/stop")
    assert (await current(telegram)).game.phase is Phase.FINISHED
    await telegram.send(ANNA, "/newgame")
    await telegram.send(ANONYMOUS_ADMIN, "/stop", sender_chat=GROUP)
    await telegram.delivered()
    assert (await current(telegram)).game.phase is Phase.FINISHED
    assert [r.user_id for r in session.sent(GetChatMember)] == [3]  # nobody asked for anonymous
    replies = [m.text for m, _ in session.posts(CHAT) if m.reply_parameters is not None]
    assert replies == [
        ru.t("reply-stopped", name="Вера"),
        ru.t("reply-stopped", name=GROUP["title"]),
    ]


async def test_an_admin_flips_a_house_rule_from_the_settings_message(
    telegram: Telegram, redis: Redis, redis_prefix: str
) -> None:
    session = telegram.session
    session.statuses[1] = "creator"
    await telegram.send(ANNA, "/settings")
    await telegram.delivered()
    [(message, message_id)] = session.posts(CHAT)
    flip = SettingsPress(op="set", key="transfer", value="on").pack()
    assert flip in buttons(message)

    await telegram.press(BORIS, flip, message_id)  # not an admin
    [refused] = session.sent(AnswerCallbackQuery)
    assert (refused.text, refused.show_alert) == (ru.t("settings-not-admin"), True)
    assert not (await telegram.app.service.chat_settings(CHAT)).rules.transfer

    await telegram.press(ANNA, flip, message_id)
    assert (await telegram.app.service.chat_settings(CHAT)).rules.transfer
    [edit] = session.sent(EditMessageText, chat_id=CHAT, message_id=message_id)
    assert SettingsPress(op="set", key="transfer", value="off").pack() in buttons(edit)
    assert len(session.sent(AnswerCallbackQuery)) == 2


async def test_settings_of_a_member_show_no_buttons(telegram: Telegram) -> None:
    await telegram.send(BORIS, "/settings")
    await telegram.delivered()
    [(message, _)] = telegram.session.posts(CHAT)
    assert message.reply_markup is None


async def test_stats_in_a_group_and_in_private(telegram: Telegram) -> None:
    session = telegram.session
    await telegram.send(ANNA, "/stats")
    await telegram.send(ANNA, "/stats", private(ANNA))
    await telegram.delivered()
    [(board, _)] = session.posts(CHAT)
    assert board.text == leaderboard_text([], 0, 3, ru)
    [(mine, _)] = session.posts(ANNA["id"])
    assert mine.text == personal_text(PlayerStats(1), ru)


async def test_top_in_a_group_and_only_there(telegram: Telegram) -> None:
    """Before anybody has rated games here, /top says how ratings are made; in private it
    says it is a group's."""
    session = telegram.session
    await telegram.send(ANNA, "/top")
    await telegram.send(ANNA, "/top", private(ANNA))
    await telegram.delivered()
    [(top, _)] = session.posts(CHAT)
    assert top.text == plain(ru.t("top-empty", min=3))
    [(elsewhere, _)] = session.posts(ANNA["id"])
    assert elsewhere.text == ru.t("reply-group-only")


@pytest.mark.parametrize(
    ("person", "tr", "timer"),
    [
        (ANNA, ru, "Время на ход не ограничено."),
        (user(4, "Олена", "uk"), translator("uk"), "Час на хід не обмежено."),
    ],
)
async def test_rules_in_private_are_the_persons_own_then_those_of_their_tables(
    telegram: Telegram, person: dict[str, Any], tr: Translator, timer: str
) -> None:
    """/rules in private: the rules /play there deals by (the person's own, no turn timer:
    nobody waits for them), not a pointer to the groups; then, for a player at a group's
    table, that table's rules."""
    session = telegram.session
    chat = private(person)
    await telegram.send(person, "/set transfer on", chat)
    await telegram.send(person, "/rules", chat)
    await telegram.delivered()
    own = await telegram.app.service.chat_settings(person["id"])
    assert own.turn_timeout == 60  # the default: what a group would get
    [_changed, (rules, _)] = session.posts(person["id"])
    assert rules.text == rules_text(own, tr, private=True)
    assert tr.t("rules-transfer-on") in rules.text and timer in rules.text
    assert "/rules" not in rules.text
    group = ChatSettings(rules=HouseRules(throw_in=ThrowIn.ALL), turn_timeout=30)
    await telegram.app.service.storage.settings.set(CHAT, group)
    await telegram.send(person, "/newgame")
    await telegram.send(person, "/rules", chat)
    await telegram.delivered()
    [*_, (mine, _), (table, _)] = session.posts(person["id"])
    assert mine.text == rules.text
    assert table.text == rules_text(group, tr, game=True)


@pytest.mark.parametrize(
    ("person", "tr", "row"),
    [
        (ANNA, ru, "Время на ход: без таймера"),
        (user(4, "Олена", "uk"), translator("uk"), "Час на хід: без таймера"),
    ],
)
async def test_settings_in_private_are_the_persons_own(
    telegram: Telegram, person: dict[str, Any], tr: Translator, row: str
) -> None:
    """The rules of a person's games with computer players, in their private chat: theirs
    to change (no group admin to ask), shown as played: without a turn timer, and without
    a button or a /set for one; a group's rules stay as they were."""
    chat = private(person)
    await telegram.send(person, "/settings", chat)
    await telegram.send(person, "/set deck 24", chat)
    await telegram.send(person, "/set turn_timeout 30", chat)
    await telegram.send(person, "/set", chat)
    await telegram.delivered()
    [(shown, shown_id), _changed, (no_timer, _), (listed, _)] = telegram.session.posts(person["id"])
    assert SettingsPress(op="set", key="transfer", value="on").pack() in buttons(shown)
    assert not [b for b in buttons(shown) if "turn_timeout" in b]
    assert row in plain(shown.text)
    assert no_timer.text == tr.t("settings-private-no-timer")
    assert "turn_timeout" not in (listed.text or "") and "deck" in (listed.text or "")
    own = await telegram.app.service.chat_settings(person["id"])
    assert own.rules.deck == 24 and own.turn_timeout == 60
    assert (await telegram.app.service.chat_settings(CHAT)).rules.deck == 36
    # A forged button for the timer changes nothing either.
    forged = SettingsPress(op="set", key="turn_timeout", value="30").pack()
    await telegram.press(person, forged, shown_id, chat)
    await telegram.press(
        person, SettingsPress(op="open", key="turn_timeout").pack(), shown_id, chat
    )
    assert telegram.session.answers() == [
        tr.t("settings-private-no-timer"),
        tr.t("answer-malformed"),
    ]
    assert (await telegram.app.service.chat_settings(person["id"])).turn_timeout == 60
    [edit] = telegram.session.sent(EditMessageText, chat_id=person["id"], message_id=shown_id)
    assert row in plain(edit.text)


async def test_start_in_private_marks_the_user_reachable(telegram: Telegram) -> None:
    await telegram.send(BORIS, "/start", private(BORIS))
    await telegram.send(ANNA, "/newgame")
    await telegram.press(BORIS, lobby_press(await current(telegram), "join"), 10)
    await telegram.delivered()
    [(welcome, _)] = telegram.session.posts(BORIS["id"])
    assert welcome.text == ru.t("start-welcome", name="Борис")
    assert telegram.session.answers() == [ru.t("answer-joined")]
    # Known from /start: the bot did not have to ask Telegram whether it may write to him.
    assert not [r for r in telegram.session.requests if getattr(r, "chat_id", 0) == 2][1:]


async def test_a_member_who_leaves_the_group_stands_up_from_the_lobby(
    telegram: Telegram,
) -> None:
    await telegram.send(ANNA, "/newgame")
    await telegram.press(BORIS, lobby_press(await current(telegram), "join"), 10)
    # Restricted but still a member: nothing happens.
    restricted = member(BORIS, "restricted", is_member=True)
    await telegram.member_update(ANNA, member(BORIS, "member"), restricted)
    assert len((await current(telegram)).game.players) == 2
    await telegram.member_update(BORIS, restricted, member(BORIS, "restricted", is_member=False))
    assert [p.user_id for p in (await current(telegram)).game.players] == [1]
    # Told twice (left, then banned): the second changes nothing.
    await telegram.member_update(ANNA, member(BORIS, "left"), member(BORIS, "kicked"))
    assert [p.user_id for p in (await current(telegram)).game.players] == [1]


async def test_an_update_no_handler_wants_costs_no_redis_read(
    telegram: Telegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[int] = []
    real_get = SettingsStore.get

    async def counted(self: SettingsStore, chat_id: int) -> Any:
        reads.append(chat_id)
        return await real_get(self, chat_id)

    monkeypatch.setattr(SettingsStore, "get", counted)
    assert await telegram.send(ANNA, "привет всем") is UNHANDLED
    assert await telegram.send(ANNA, "/unknown") is UNHANDLED
    assert reads == []
    await telegram.send(ANNA, "/rules")
    assert reads


async def test_redis_unavailable_is_said_and_the_update_finishes(
    telegram: Telegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def down(self: SettingsStore, chat_id: int) -> Any:
        raise RedisConnectionError("Connection refused")

    monkeypatch.setattr(SettingsStore, "get", down)
    await telegram.send(ANNA, "/newgame")
    await telegram.press(ANNA, LobbyPress(game="g", op="join").pack(), 10)
    monkeypatch.undo()
    await telegram.delivered()
    [(reply, _)] = telegram.session.posts(CHAT)
    assert reply.text == ru.t("reply-unavailable")
    assert telegram.session.answers() == [ru.t("answer-unavailable")]
    assert telegram.app.context.active == 0


async def test_redis_too_busy_is_said_too(
    telegram: Telegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def busy(*_args: Any, **_kwargs: Any) -> Any:
        raise StorageBusy("still busy")

    monkeypatch.setattr(GameService, "join", busy)
    await telegram.press(BORIS, LobbyPress(game="g", op="join").pack(), 10)
    assert telegram.session.answers() == [ru.t("answer-busy")]


async def test_a_stopping_bot_lets_the_updates_being_handled_finish(
    telegram: Telegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    entered, release = asyncio.Event(), asyncio.Event()
    order: list[str] = []
    real_new_lobby = GameService.new_lobby

    async def slow(self: GameService, *args: Any, **kwargs: Any) -> Any:
        entered.set()
        await release.wait()
        result = await real_new_lobby(self, *args, **kwargs)
        order.append("handled")
        return result

    async def drain() -> None:
        await telegram.app.context.drain(timeout=5)
        order.append("drained")

    monkeypatch.setattr(GameService, "new_lobby", slow)
    update = asyncio.create_task(telegram.send(ANNA, "/newgame"))
    await asyncio.wait_for(entered.wait(), 5)  # the update is being handled
    assert telegram.app.context.active == 1
    drained = asyncio.create_task(drain())
    release.set()  # the lobby is saved over Redis while the drain, if it did not wait, ends
    await asyncio.wait_for(drained, 5)
    await update
    assert order == ["handled", "drained"]
    assert (await current(telegram)).game.players[0].user_id == 1


async def test_each_settings_button_redraws_the_message(telegram: Telegram) -> None:
    session = telegram.session
    session.statuses[1] = "administrator"
    settings = await telegram.app.service.chat_settings(CHAT)
    for op, key, view in [
        ("open", "deck", settings_menu(settings, "deck", ru)),
        ("back", "", settings_view(settings, ru)),
        ("done", "", settings_done(settings, ru)),
    ]:
        await telegram.press(ANNA, SettingsPress(op=op, key=key).pack(), 77)
        assert session.sent(EditMessageText)[-1].text == view.text
    await telegram.press(ANNA, SettingsPress(op="open", key="colour").pack(), 77)
    await telegram.press(ANNA, "cfg:reset::", 77)  # a button no /settings message has
    malformed = ru.t("answer-malformed")
    assert session.answers() == [None, None, None, malformed, malformed]
    assert len(session.sent(EditMessageText)) == 3


async def test_leave_and_my_cards_buttons(telegram: Telegram) -> None:
    await telegram.send(ANNA, "/newgame")
    record = await current(telegram)
    await telegram.press(BORIS, lobby_press(record, "join"), 10)
    await telegram.press(BORIS, lobby_press(record, "leave"), 10)
    await telegram.press(BORIS, lobby_press(record, "leave"), 10)
    await telegram.press(BORIS, lobby_press(record, "cards"), 10)  # not playing yet
    assert telegram.session.answers() == [
        ru.t("answer-joined"),
        ru.t("answer-left"),
        ru.t("answer-not-joined"),
        ru.t("answer-not-player"),
    ]
    await telegram.press(BORIS, lobby_press(record, "join"), 10)
    await telegram.press(ANNA, lobby_press(record, "start"), 10)
    await telegram.press(BORIS, lobby_press(record, "cards"), 10)
    [*_, cards] = telegram.session.sent(AnswerCallbackQuery)
    game = (await current(telegram)).game
    assert (cards.text, cards.show_alert) == (hand_popup(hand_scene(game, 1).view, ru), True)


async def test_a_post_on_behalf_of_a_channel_is_refused_where_a_person_is_needed(
    telegram: Telegram,
) -> None:
    channel = {"id": -100777, "type": "channel", "title": "Новости"}
    placeholder = {"id": 136817688, "is_bot": True, "first_name": "Channel"}
    for command in ("/newgame", "/settings", "/rules"):
        await telegram.send(placeholder, command, sender_chat=channel)
    await telegram.delivered()
    texts = [m.text for m, _ in telegram.session.posts(CHAT)]
    assert texts[:2] == [ru.t("reply-not-a-person")] * 2
    assert len(texts) == 3  # /rules needs nobody
    assert await telegram.app.service.games.get(CHAT) is None
    assert not telegram.session.sent(GetChatMember)


OLENA = user(4, "Олена", "uk")  # Ukrainian-speaking, in the Russian group
uk = translator("uk")


async def test_a_pop_up_is_in_the_pressers_language_the_group_keeps_its_own(
    telegram: Telegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What only the presser sees (every press's answer: done, refused, malformed, the
    hand, Redis too busy) is in their Telegram language, as their private chat is; what
    the group sees stays in the group's."""
    session = telegram.session
    await telegram.send(ANNA, "/newgame")
    record = await current(telegram)
    await telegram.press(OLENA, lobby_press(record, "join"), 10)
    await telegram.press(OLENA, lobby_press(record, "join"), 10)
    await telegram.press(OLENA, lobby_press(record, "start"), 10)  # not hers to start
    await telegram.press(OLENA, f"l:{record.game.game_id}", 10)  # no such button
    await telegram.press(ANNA, lobby_press(record, "start"), 10)
    await telegram.press(OLENA, lobby_press(record, "cards"), 10)
    game = (await current(telegram)).game
    assert session.answers() == [
        uk.t("answer-joined"),
        uk.t("answer-already-joined"),
        uk.t("answer-not-allowed-start"),
        uk.t("answer-malformed"),
        ru.t("answer-started"),  # Anna's own, in Russian
        hand_popup(hand_scene(game, 1).view, uk),
    ]
    assert uk.t("answer-joined") != ru.t("answer-joined")
    await telegram.delivered()
    [(lobby, lobby_id)] = session.posts(CHAT)
    assert ru.t("lobby-gathering") in (lobby.text or "")
    table = session.sent(EditMessageText, chat_id=CHAT, message_id=lobby_id)[-1].text
    assert ru.t("role-defender") in table and uk.t("role-defender") not in table

    async def busy(*_args: Any, **_kwargs: Any) -> Any:
        raise StorageBusy("still busy")

    monkeypatch.setattr(GameService, "join", busy)
    await telegram.press(OLENA, LobbyPress(game="g", op="join").pack(), 10)
    assert session.answers()[-1] == uk.t("answer-busy")


async def test_a_settings_pop_up_is_in_the_pressers_language(telegram: Telegram) -> None:
    """A member's refusal and an admin's change are told in their language; the /settings
    message, which the group sees, stays in the group's."""
    session = telegram.session
    session.statuses[5] = "administrator"
    taras = user(5, "Тарас", "uk")
    flip = SettingsPress(op="set", key="transfer", value="on").pack()
    await telegram.press(OLENA, flip, 77)
    await telegram.press(OLENA, SettingsPress(op="back").pack(), 77)
    await telegram.press(taras, flip, 77)
    settings = await telegram.app.service.chat_settings(CHAT)
    assert settings.rules.transfer
    [*_, change] = session.sent(AnswerCallbackQuery)
    assert session.answers()[:2] == [uk.t("settings-not-admin")] * 2
    assert change.text.startswith(f"✅ {uk.t('setting-transfer')}: {uk.t('setting-transfer-on')}")
    [edit] = session.sent(EditMessageText, chat_id=CHAT, message_id=77)
    assert edit.text == settings_view(settings, ru).text
