"""The blind games (RULES.md section 14) in the settings, as an admin meets them in a chat:
``/set blind …`` in Russian and Ukrainian, answered with what the game is; the refusal of
R-BLIND-1 in either order (by command and by button); the «Вслепую» button opening the
games with what each is, and a game pressed there said in a short pop-up. The
Dispatcher that ``bot.app.build`` makes, fed Telegram's updates, its Bot answered by a
mocked session (``telegram_mock``), Redis real."""

from __future__ import annotations

import pytest
from aiogram.methods import AnswerCallbackQuery, EditMessageText
from aiogram.types import InlineKeyboardMarkup
from telegram_mock import GROUP, Telegram, user

from bot.i18n import translator
from bot.model import ChatSettings
from bot.ui.callbacks import SettingsPress
from bot.ui.settings import settings_menu, value_about
from engine import Blind, HouseRules

ANNA = user(1, "Аня")
CHAT: int = GROUP["id"]

REFUSED = {
    "ru": "так нельзя — вслепую играют без перевода, команд, обмена козырной шестёрки и погон."
    " Выключи их или выбери «Вслепую: нет». Ничего не изменилось.",
    "uk": "так не можна — наосліп грають без переведення, команд, обміну козирної шістки й"
    " погонів. Вимкни їх або вибери «Наосліп: ні». Нічого не змінилося.",
}


@pytest.fixture
def telegram(telegram: Telegram) -> Telegram:
    """The bot of ``conftest``, Аня the group's creator."""
    telegram.session.statuses[ANNA["id"]] = "creator"
    return telegram


async def replies(telegram: Telegram, *commands: str) -> list[str]:
    """Аня sends ``commands`` in the group: the bot's replies to them, in order."""
    before = len(telegram.session.posts(CHAT))
    for command in commands:
        await telegram.send(ANNA, command)
    await telegram.delivered()
    return [message.text for message, _ in telegram.session.posts(CHAT)[before:]]


async def settings(telegram: Telegram) -> ChatSettings:
    return await telegram.app.service.chat_settings(CHAT)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "ru",
            [
                "✅ Вслепую: оборотный дурак — ",
                "✅ Вслепую: китайский дурак — ",
                "✅ Вслепую: неверный дурень — ",
                "✅ Вслепую: нет — ",
            ],
        ),
        (
            "uk",
            [
                "✅ Наосліп: оборотний дурень — ",
                "✅ Наосліп: китайський дурень — ",
                "✅ Наосліп: невірний дурень — ",
                "✅ Наосліп: ні — ",
            ],
        ),
    ],
)
async def test_set_blind_chooses_each_game_in_the_chats_language_and_says_what_it_is(
    telegram: Telegram, lang: str, said: list[str]
) -> None:
    """The answer names the game and says what it is, in the sentence /settings shows for
    it (``setting-blind-*-about``); set again, the same sentence."""
    tr = translator(lang)
    await replies(telegram, f"/set language {lang}")
    games = ("reversed", "chinese", "doubt", "off")
    for game, text in zip(games, said, strict=True):
        about = value_about("blind", game, tr)
        assert about is not None
        assert await replies(telegram, f"/set blind {game}") == [f"{text}{about}."]
        assert (await settings(telegram)).rules.blind is Blind(game)
    # Typed loosely, like every key.
    assert await replies(telegram, "/set Blind Reversed") == [
        f"{said[0]}{value_about('blind', 'reversed', tr)}."
    ]
    again = {
        "ru": "Вслепую — и так оборотный дурак — ",
        "uk": "Наосліп — і так оборотний дурень — ",
    }
    assert await replies(telegram, "/set blind reversed") == [
        f"{again[lang]}{value_about('blind', 'reversed', tr)}."
    ]


@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_set_blind_with_transfer_on_is_refused_and_changes_nothing(
    telegram: Telegram, lang: str
) -> None:
    tr = translator(lang)
    await replies(telegram, f"/set language {lang}", "/set transfer on")
    before = await settings(telegram)
    for game in ("reversed", "chinese", "doubt"):
        said = await replies(telegram, f"/set blind {game}")
        assert said == [f"{tr.t('setting-blind')}: {REFUSED[lang]}"]
    assert await settings(telegram) == before
    assert before.rules.transfer and before.rules.blind is Blind.OFF


@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_transfer_on_while_a_blind_game_is_set_is_refused_and_changes_nothing(
    telegram: Telegram, lang: str
) -> None:
    tr = translator(lang)
    await replies(telegram, f"/set language {lang}", "/set blind chinese")
    before = await settings(telegram)
    said = await replies(
        telegram,
        "/set transfer on",
        "/set teams pairs",
        "/set trump_six_exchange on",
        "/set pogony title",
    )
    keys = ("transfer", "teams", "trump-six-exchange", "pogony")
    assert said == [f"{tr.t(f'setting-{key}')}: {REFUSED[lang]}" for key in keys]
    assert await settings(telegram) == before
    assert before.rules == HouseRules(blind=Blind.CHINESE)


async def test_a_refused_button_says_why_in_a_pop_up(telegram: Telegram) -> None:
    """On the /settings message: «Вслепую» opens the games with what each is; a game
    pressed while transfer is on is refused in an alert, and the message shows the rules
    as they stayed."""
    session = telegram.session
    await replies(telegram, "/set transfer on")
    await telegram.send(ANNA, "/settings")
    await telegram.delivered()
    *_, (message, message_id) = session.posts(CHAT)
    markup = message.reply_markup
    assert isinstance(markup, InlineKeyboardMarkup)
    data = [b.callback_data for row in markup.inline_keyboard for b in row]
    assert SettingsPress(op="open", key="blind").pack() in data

    await telegram.press(ANNA, SettingsPress(op="open", key="blind").pack(), message_id)
    [menu] = session.sent(EditMessageText, chat_id=CHAT, message_id=message_id)
    ru = translator("ru")
    current = await settings(telegram)
    assert menu.text == settings_menu(current, "blind", ru).text
    for game in Blind:
        about = value_about("blind", game.value, ru)
        assert about is not None and about in menu.text

    await telegram.press(ANNA, SettingsPress(op="set", key="blind", value="doubt").pack(), 77)
    answer = session.sent(AnswerCallbackQuery)[-1]
    assert (answer.text, answer.show_alert) == (f"Вслепую: {REFUSED['ru']}", True)
    assert await settings(telegram) == current


async def test_a_game_pressed_in_the_menu_is_said_in_a_short_pop_up(telegram: Telegram) -> None:
    """The menu a game is pressed in shows what each game is: the pop-up only says what
    changed, within Telegram's 200 characters (the /set answer adds the sentence)."""
    session = telegram.session
    await telegram.send(ANNA, "/settings")
    await telegram.delivered()
    *_, (_, message_id) = session.posts(CHAT)
    await telegram.press(
        ANNA, SettingsPress(op="set", key="blind", value="doubt").pack(), message_id
    )
    answer = session.sent(AnswerCallbackQuery)[-1]
    assert answer.text == "✅ Вслепую: неверный дурень." and not answer.show_alert
    assert (await settings(telegram)).rules.blind is Blind.DOUBT
