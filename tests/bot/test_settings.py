"""House rules by admin command (RULES.md section 2): what /set and the /settings buttons
accept, the deck / max_players interplay, a change reaching the open lobby or waiting for
the next game (against a real Redis), the admin cache, the settings message, and the blind
games with the rules they are played without (RULES.md section 14, R-BLIND-1)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any, cast

import pytest
import redis as redis_sync
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters.callback_data import MAX_CALLBACK_LENGTH
from aiogram.methods import GetChatMember
from kit import ANNA, BORIS, CHAT, VERA, dealt, no, seated
from redis.asyncio import Redis

from bot.handlers.telegram import admin_check
from bot.i18n import SUPPORTED, translator
from bot.model import ChatGame, ChatSettings, GameRecord, Phase
from bot.schema.settings import (
    KEYS,
    Applies,
    Change,
    ChangeResult,
    SettingError,
    choices,
    token,
)
from bot.services import Changed, GameService, Player
from bot.services.people import AdminService
from bot.services.settings import SettingChange, SettingsService, changed
from bot.storage import KEEP, Storage
from bot.storage.chats import ADMIN_TTL
from bot.ui.callbacks import SettingsPress
from bot.ui.common import MAX_LABEL
from bot.ui.lobby import rules_line, rules_text
from bot.ui.settings import (
    change_text,
    error_text,
    set_list,
    setting_name,
    settings_done,
    settings_menu,
    settings_view,
    value_about,
    value_label,
    value_words,
)
from engine import (
    Blind,
    FirstBoutLimit,
    HouseRules,
    NextGameStart,
    NoTrumpStart,
    Problem,
    ThrowIn,
)

DEFAULT = ChatSettings()


@pytest.fixture
async def storage(redis: Redis, redis_prefix: str) -> AsyncIterator[Storage]:
    yield Storage.create(redis, redis_prefix, default_settings=ChatSettings())


@pytest.fixture
def service(storage: Storage) -> SettingsService:
    return SettingsService(storage)


@pytest.fixture
def games(storage: Storage) -> GameService:
    return GameService(storage, seed=lambda: f"{7:064x}")


# -- what /set accepts ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("deck", "24", ChatSettings(rules=HouseRules(deck=24))),
        ("deck", "52", ChatSettings(rules=HouseRules(deck=52))),
        ("max_players", "4", ChatSettings(rules=HouseRules(max_players=4))),
        ("throw_in", "all", ChatSettings(rules=HouseRules(throw_in=ThrowIn.ALL))),
        (
            "throw_in",
            "neighbors_first_rank",
            ChatSettings(rules=HouseRules(throw_in=ThrowIn.NEIGHBORS_FIRST_RANK)),
        ),
        (
            "first_bout_limit",
            "until_first_beaten",
            ChatSettings(rules=HouseRules(first_bout_limit=FirstBoutLimit.UNTIL_FIRST_BEATEN)),
        ),
        (
            "no_trump_start",
            "random",
            ChatSettings(rules=HouseRules(no_trump_start=NoTrumpStart.RANDOM)),
        ),
        (
            "next_game_start",
            "lowest_trump",
            ChatSettings(rules=HouseRules(next_game_start=NextGameStart.LOWEST_TRUMP)),
        ),
        ("transfer", "on", ChatSettings(rules=HouseRules(transfer=True))),
        ("turn_timeout", "30", ChatSettings(turn_timeout=30)),
        ("turn_timeout", "0", ChatSettings(turn_timeout=0)),
        ("turn_timeout", "off", ChatSettings(turn_timeout=0)),
        ("turn_timeout", "600", ChatSettings(turn_timeout=600)),
        ("turn_timeout", "45", ChatSettings(turn_timeout=45)),
        ("series", "5", ChatSettings(series=5)),
        ("language", "uk", ChatSettings(language="uk")),
        ("blind", "reversed", ChatSettings(rules=HouseRules(blind=Blind.REVERSED))),
        ("blind", "chinese", ChatSettings(rules=HouseRules(blind=Blind.CHINESE))),
        ("blind", "doubt", ChatSettings(rules=HouseRules(blind=Blind.DOUBT))),
        ("blind", "off", ChatSettings()),
        # Typed loosely: case and dashes do not matter.
        ("Throw-In", "ALL", ChatSettings(rules=HouseRules(throw_in=ThrowIn.ALL))),
        ("Blind", "Reversed", ChatSettings(rules=HouseRules(blind=Blind.REVERSED))),
        ("transfer", "true", ChatSettings(rules=HouseRules(transfer=True))),
    ],
)
def test_set_takes_every_valid_value(key: str, value: str, expected: ChatSettings) -> None:
    assert changed(DEFAULT, key, value) == expected


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("deck", "32"),
        ("deck", "many"),
        ("max_players", "1"),
        ("max_players", "7"),  # a 36-card deck seats at most 6
        ("throw_in", "everybody"),
        ("first_bout_limit", "5"),
        ("no_trump_start", "dealer"),
        ("next_game_start", "loser"),
        ("transfer", "maybe"),
        ("turn_timeout", "5"),
        ("turn_timeout", "601"),
        ("turn_timeout", "-1"),
        ("turn_timeout", "99999999"),
        ("series", "2"),
        ("language", "en"),
        ("blind", "on"),
        ("blind", "upside_down"),
    ],
)
def test_set_refuses_a_value_that_does_not_exist(key: str, value: str) -> None:
    with pytest.raises(SettingError) as raised:
        changed(DEFAULT, key, value)
    assert raised.value.code == "bad_value"
    assert raised.value.key == key


def test_set_refuses_a_key_that_does_not_exist() -> None:
    with pytest.raises(SettingError) as raised:
        changed(DEFAULT, "jokers", "2")
    assert (raised.value.code, raised.value.key) == ("unknown_key", "jokers")


def test_max_players_at_the_decks_maximum_follows_the_deck() -> None:
    """RULES.md §2: max_players is 2..deck/6."""
    at_52 = changed(DEFAULT, "deck", "52")
    assert at_52.rules.max_players == 8
    assert changed(at_52, "deck", "24").rules.max_players == 4
    assert changed(at_52, "deck", "36").rules.max_players == 6


def test_a_smaller_max_players_is_kept_or_clamped_to_the_new_deck() -> None:
    five = changed(DEFAULT, "max_players", "5")
    assert changed(five, "deck", "52").rules.max_players == 5
    assert changed(five, "deck", "24").rules.max_players == 4
    three = changed(DEFAULT, "max_players", "3")
    assert changed(three, "deck", "24").rules.max_players == 3


def test_every_key_offers_its_values_and_the_current_one_is_among_them() -> None:
    assert choices(DEFAULT, "deck") == ("24", "36", "52")
    assert choices(DEFAULT, "max_players") == ("2", "3", "4", "5", "6")
    assert choices(changed(DEFAULT, "deck", "24"), "max_players") == ("2", "3", "4")
    assert choices(DEFAULT, "turn_timeout") == ("0", "15", "30", "60", "90", "120")
    assert choices(DEFAULT, "series") == ("1", "3", "5", "10")
    for key in KEYS:
        assert token(DEFAULT, key) in choices(DEFAULT, key), key
        for value in choices(DEFAULT, key):
            assert token(changed(DEFAULT, key, value), key) == value


# -- the service against Redis ----------------------------------------------------------------


async def test_a_change_is_saved_for_the_chat_and_survives_a_new_store(
    service: SettingsService, redis: Redis, redis_prefix: str
) -> None:
    change = await service.change(CHAT, "throw_in", "all")
    assert change.result is ChangeResult.CHANGED
    assert change.applies is Applies.NEXT_GAME and change.record is None
    assert change.settings.rules.throw_in is ThrowIn.ALL
    again = await service.change(CHAT, "throw_in", "all")
    assert again.result is ChangeResult.SAME
    fresh = Storage.create(redis, redis_prefix, default_settings=ChatSettings())
    assert (await fresh.settings.get(CHAT)).rules.throw_in is ThrowIn.ALL
    assert (await fresh.settings.get(CHAT + 1)) == ChatSettings()  # other chats untouched


async def test_a_bad_key_or_value_changes_nothing(service: SettingsService) -> None:
    await service.change(CHAT, "deck", "24")
    with pytest.raises(SettingError):
        await service.change(CHAT, "max_players", "5")  # 24 cards seat at most 4
    with pytest.raises(SettingError):
        await service.change(CHAT, "colour", "red")
    assert await service.get(CHAT) == ChatSettings(rules=HouseRules(deck=24))


async def test_two_admins_changing_two_rules_at_once_both_count(
    service: SettingsService,
) -> None:
    await asyncio.gather(
        service.change(CHAT, "transfer", "on"),
        service.change(CHAT, "series", "3"),
        service.change(CHAT, "language", "uk"),
    )
    settings = await service.get(CHAT)
    assert (settings.rules.transfer, settings.series, settings.language) == (True, 3, "uk")


async def test_the_open_lobby_follows_a_change_at_once(
    service: SettingsService, games: GameService
) -> None:
    await seated(games, ANNA, BORIS)
    change = await service.change(CHAT, "deck", "52")
    assert change.applies is Applies.NOW
    assert change.record is not None
    assert change.record.game.settings.rules.deck == 52
    assert "52" in rules_line(change.record.game.settings, translator("ru"))
    stored = await games.games.get(CHAT)
    assert stored is not None and stored.game.settings.rules.deck == 52
    started = await games.start(CHAT, ANNA.user_id, is_admin=no)
    assert isinstance(started, Changed) and started.record is not None
    state = started.record.game.state
    assert state is not None and state.rules.deck == 52


async def test_a_lobby_holding_more_players_refuses_a_smaller_maximum(
    service: SettingsService, games: GameService
) -> None:
    record = await seated(games, ANNA, BORIS, VERA)
    change = await service.change(CHAT, "max_players", "2")
    assert change.result is ChangeResult.TOO_MANY_SEATED
    assert (change.seated, change.limit) == (3, 2)
    assert change.record is None
    assert await service.get(CHAT) == ChatSettings()
    after = await games.games.get(CHAT)
    assert after is not None and after.game.version == record.game.version
    text = change_text(change, translator("ru"))
    assert "3 игрока" in text and "2" in text
    # Down to 24 cards with five seated would clamp to four: refused the same way.
    await service.change(CHAT, "max_players", "6")
    for player in (Player(4, "Гена"), Player(5, "Даша")):
        await games.storage.users.mark_started(player.user_id)
        assert isinstance(await games.join(CHAT, player, can_message=no), Changed)
    deck = await service.change(CHAT, "deck", "24")
    assert deck.result is ChangeResult.TOO_MANY_SEATED and deck.limit == 4
    assert (await service.get(CHAT)).rules.deck == 36
    # Three seated may still go down to three.
    assert isinstance(await games.leave(CHAT, 4), Changed)
    assert isinstance(await games.leave(CHAT, 5), Changed)
    fits = await service.change(CHAT, "max_players", "3")
    assert fits.result is ChangeResult.CHANGED and fits.applies is Applies.NOW


async def test_a_running_game_keeps_its_rules_but_speaks_the_new_language(
    service: SettingsService, games: GameService
) -> None:
    await seated(games, ANNA, BORIS)
    started = await games.start(CHAT, ANNA.user_id, is_admin=no)
    assert started.record is not None
    change = await service.change(CHAT, "transfer", "on")
    assert change.applies is Applies.AFTER_THIS_GAME and change.record is None
    assert "со следующей" in change_text(change, translator("ru"))
    running = await games.games.get(CHAT)
    assert running is not None and running.game.settings.rules.transfer is False
    assert running.game.version == started.record.game.version
    language = await service.change(CHAT, "language", "uk")
    assert language.applies is Applies.NOW and language.record is not None
    assert language.record.game.phase is Phase.PLAYING
    assert language.record.game.settings.language == "uk"
    assert language.record.game.settings.rules.transfer is False
    assert (await service.get(CHAT)).rules.transfer is True


# -- the admin cache --------------------------------------------------------------------------


class FakeBot:
    """Answers getChatMember from ``statuses`` and counts the questions."""

    def __init__(self, statuses: dict[int, str]) -> None:
        self.statuses = statuses
        self.asked = 0

    async def get_chat_member(self, chat_id: int, user_id: int) -> Any:
        self.asked += 1
        if user_id not in self.statuses:
            method = GetChatMember(chat_id=chat_id, user_id=user_id)
            raise TelegramBadRequest(method=method, message="Bad Request: user not found")
        return SimpleNamespace(status=self.statuses[user_id])


async def test_admin_answers_are_cached_in_redis_for_a_minute(
    storage: Storage, redis: Redis
) -> None:
    fake = FakeBot({1: "creator", 2: "administrator", 3: "member", 4: "left"})
    bot = cast(Bot, fake)
    admins = AdminService(storage.admins)
    for user_id, expected in ((1, True), (2, True), (3, False), (4, False)):
        assert await admin_check(bot, admins, CHAT, user_id)() is expected
        assert await admin_check(bot, admins, CHAT, user_id)() is expected
    assert fake.asked == 4  # once each: the second answer came from the cache
    ttl = await redis.ttl(storage.keys.admin(CHAT, 3))
    assert 0 < ttl <= ADMIN_TTL == 60
    # A demotion shows once the cached answer is gone.
    fake.statuses[2] = "member"
    await redis.delete(storage.keys.admin(CHAT, 2))
    assert await admin_check(bot, admins, CHAT, 2)() is False
    # An error is a "no", asked again next time.
    assert await admin_check(bot, admins, CHAT, 9)() is False
    assert await storage.admins.get(CHAT, 9) is None


# -- the settings message ---------------------------------------------------------------------


def presses(rendered: Any) -> list[SettingsPress]:
    assert rendered.markup is not None
    return [
        SettingsPress.unpack(button.callback_data)
        for row in rendered.markup.inline_keyboard
        for button in row
    ]


@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_settings_message_has_a_row_per_rule_with_its_value(lang: str) -> None:
    tr = translator(lang)
    settings = changed(DEFAULT, "throw_in", "all")
    view = settings_view(settings, tr)
    for key in KEYS:
        assert value_words(key, token(settings, key), tr) in view.text
    assert tr.t("setting-throw-in-all") in view.text
    assert view.markup is not None
    labels = [row[0].text for row in view.markup.inline_keyboard]
    assert len(labels) == len(KEYS) + 1  # one per rule, then Done
    assert labels[-1] == tr.t("btn-settings-done")
    ops = {(p.op, p.key, p.value) for p in presses(view)}
    # Two-valued rules flip with one press; the others open a list.
    assert ("set", "transfer", "on") in ops
    assert ("set", "no_trump_start", "random") in ops
    assert ("set", "language", "uk" if settings.language == "ru" else "ru") in ops
    assert ("open", "deck", "") in ops and ("open", "throw_in", "") in ops
    assert ("done", "", "") in ops


def test_a_non_admin_sees_the_settings_without_buttons() -> None:
    tr = translator("ru")
    view = settings_view(DEFAULT, tr, editable=False)
    assert view.markup is None
    assert tr.t("settings-admins-only") in view.text


def test_a_sub_menu_ticks_the_current_value_and_goes_back() -> None:
    tr = translator("ru")
    menu = settings_menu(DEFAULT, "turn_timeout", tr)
    assert menu.markup is not None
    texts = [button.text for row in menu.markup.inline_keyboard for button in row]
    assert tr.t("btn-settings-chosen", value=value_words("turn_timeout", "60", tr)) in texts
    assert tr.t("setting-turn-timeout-off") in texts
    values = [p.value for p in presses(menu) if p.op == "set"]
    assert values == ["0", "15", "30", "60", "90", "120"]
    assert presses(menu)[-1].op == "back"
    with_24 = settings_menu(changed(DEFAULT, "deck", "24"), "max_players", tr)
    assert [p.value for p in presses(with_24) if p.op == "set"] == ["2", "3", "4"]


def test_done_keeps_the_final_settings_without_buttons() -> None:
    tr = translator("uk")
    done = settings_done(changed(DEFAULT, "deck", "52"), tr)
    assert done.markup is None
    assert tr.t("settings-title-done") in done.text
    assert value_words("deck", "52", tr) in done.text


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_value_has_words_and_every_button_fits_64_bytes(lang: str) -> None:
    tr = translator(lang)
    for deck in ("24", "36", "52"):
        settings = changed(DEFAULT, "deck", deck)
        for key in KEYS:
            for value in choices(settings, key):
                assert value_words(key, value, tr).strip()
            for view in (settings_view(settings, tr), settings_menu(settings, key, tr)):
                for press in presses(view):
                    assert len(press.pack().encode()) <= MAX_CALLBACK_LENGTH


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_settings_button_fits_a_phone(lang: str) -> None:
    """«Ни у кого нет козыря: ходит сосед сдающего» was cut on a phone. Over many random
    settings: the list and every rule's values have at most three buttons a row, each
    label at most ``MAX_LABEL`` characters."""
    tr = translator(lang)
    rng = random.Random(9)
    for _ in range(200):
        settings = DEFAULT
        for key in rng.sample(KEYS, len(KEYS)):
            try:
                settings = changed(settings, key, rng.choice(choices(settings, key)))
            except SettingError as error:  # a combination never played (R-VAR-1)
                assert error.code == "impossible"
        for view in (settings_view(settings, tr), *(settings_menu(settings, k, tr) for k in KEYS)):
            assert view.markup is not None
            for row in view.markup.inline_keyboard:
                assert 1 <= len(row) <= 3
                for button in row:
                    assert len(button.text) <= MAX_LABEL, button.text


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_rule_button_shows_the_rule_and_its_value(lang: str) -> None:
    """The Ukrainian «[Переведення]» showed no value where Russian showed
    «[Перевод: да, переводной]» (the label was too long for a phone, so the name stood
    alone). For every rule and every value, with every deck: its button says the rule, a
    colon and the value, and fits a phone."""
    tr = translator(lang)
    for deck in ("24", "36", "52"):
        base = changed(DEFAULT, "deck", deck)
        for row, key in enumerate(KEYS):
            for value in choices(base, key):
                try:
                    view = settings_view(changed(base, key, value), tr)
                except SettingError as error:  # triples with a 24-card deck (R-VAR-1)
                    assert error.code == "impossible"
                    continue
                assert view.markup is not None
                label = view.markup.inline_keyboard[row][0].text
                name, _, shown = label.partition(": ")
                assert shown == value_label(key, value, tr), (key, value, label)
                assert name, label
                assert len(label) <= MAX_LABEL, label


@pytest.mark.parametrize(
    ("lang", "labels"),
    [
        ("ru", ["Перевод: да, переводной", "Нет козыря: за сдающим", "Уровень бота: средний"]),
        ("uk", ["Переведення: так", "Нема козиря: за здавачем", "Рівень бота: середній"]),
    ],
)
def test_the_rule_buttons_read_in_each_language(lang: str, labels: list[str]) -> None:
    settings = changed(changed(DEFAULT, "transfer", "on"), "no_trump_start", "dealer_left")
    view = settings_view(settings, translator(lang))
    assert view.markup is not None
    shown = [row[0].text for row in view.markup.inline_keyboard]
    assert [shown[KEYS.index(k)] for k in ("transfer", "no_trump_start", "ai_level")] == labels


@pytest.mark.parametrize("lang", SUPPORTED)
def test_set_alone_lists_every_key_its_value_and_the_valid_ones(lang: str) -> None:
    tr = translator(lang)
    text = set_list(DEFAULT, tr)
    for key in KEYS:
        assert f"<code>{key} {token(DEFAULT, key)}</code>" in text
    assert "neighbors, all, neighbors_first_rank" in text
    assert "24, 36, 52" in text


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_bad_key_or_value_is_answered_with_the_valid_ones(lang: str) -> None:
    tr = translator(lang)
    with pytest.raises(SettingError) as key_error:
        changed(DEFAULT, "<b>jokers</b>", "2")
    text = error_text(key_error.value, DEFAULT, tr)
    assert "&lt;b&gt;jokers&lt;/b&gt;" in text  # the typed word, escaped
    assert ", ".join(KEYS) in text
    with pytest.raises(SettingError) as value_error:
        changed(DEFAULT, "throw_in", "everybody")
    text = error_text(value_error.value, DEFAULT, tr)
    assert "everybody" in text and "neighbors, all, neighbors_first_rank" in text
    with pytest.raises(SettingError) as players_error:
        changed(DEFAULT, "max_players", "9")
    assert tr.t("set-values-range", min=2, max=6) in error_text(players_error.value, DEFAULT, tr)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_answer_to_set_says_what_a_value_means_where_settings_tells_it(lang: str) -> None:
    """The reply to /set (``explain``) gives the value with the sentence the /settings menu
    shows for it (``value_about``), for every rule that has one: the regional variants, the
    blind games. A button's pop-up, and a value without a sentence, say only the change."""
    tr = translator(lang)
    explained = 0
    for key in KEYS:
        for value in choices(DEFAULT, key):
            try:
                settings = changed(DEFAULT, key, value)
            except SettingError:  # a value this chat may not take from the defaults
                continue
            change = Change(ChangeResult.CHANGED, key, settings)
            name, words = setting_name(key, tr), value_words(key, value, tr)
            plain = tr.t("settings-changed", name=name, value=words)
            assert change_text(change, tr) == plain
            about = value_about(key, value, tr)
            if about is None:
                assert change_text(change, tr, explain=True) == plain
                continue
            explained += 1
            words = tr.t("settings-about", value=words, about=about)
            said = tr.t("settings-changed", name=name, value=words)
            assert change_text(change, tr, explain=True) == said
            same = Change(ChangeResult.SAME, key, settings)
            assert change_text(same, tr, explain=True) == tr.t(
                "settings-same", name=name, value=words
            )
    assert explained >= 15


# -- the blind games (RULES.md section 14) ----------------------------------------------------

BLIND_CHANGED = {
    "ru": {
        "reversed": "✅ Вслепую: оборотный дурак.",
        "chinese": "✅ Вслепую: китайский дурак.",
        "doubt": "✅ Вслепую: неверный дурень.",
        "off": "✅ Вслепую: нет.",
    },
    "uk": {
        "reversed": "✅ Наосліп: оборотний дурень.",
        "chinese": "✅ Наосліп: китайський дурень.",
        "doubt": "✅ Наосліп: невірний дурень.",
        "off": "✅ Наосліп: ні.",
    },
}
BLIND_REFUSED = {
    "ru": "так нельзя — вслепую играют без перевода, команд, обмена козырной шестёрки и погон."
    " Выключи их или выбери «Вслепую: нет». Ничего не изменилось.",
    "uk": "так не можна — наосліп грають без переведення, команд, обміну козирної шістки й"
    " погонів. Вимкни їх або вибери «Наосліп: ні». Нічого не змінилося.",
}
# R-BLIND-1: what a blind game is played without, each as /set turns it on.
BLIND_EXCLUDED = (
    ("transfer", "on"),
    ("teams", "pairs"),
    ("trump_six_exchange", "on"),
    ("pogony", "title"),
    ("pogony", "strict"),
)


@pytest.mark.parametrize("lang", SUPPORTED)
async def test_set_blind_chooses_each_game_and_says_so(lang: str, service: SettingsService) -> None:
    """/set blind reversed, chinese, doubt and off: saved for the chat and told in the
    chat's language."""
    await service.change(CHAT, "language", lang)
    tr = translator(lang)
    for value in ("reversed", "chinese", "doubt", "off"):
        change = await service.change(CHAT, "blind", value)
        assert change.result is ChangeResult.CHANGED
        assert change.settings.rules.blind is Blind(value)
        assert (await service.get(CHAT)).rules.blind is Blind(value)
        assert change_text(change, tr) == BLIND_CHANGED[lang][value]
    same = await service.change(CHAT, "blind", "off")
    assert same.result is ChangeResult.SAME


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize(("key", "value"), BLIND_EXCLUDED)
@pytest.mark.parametrize("blind", ["reversed", "chinese", "doubt"])
def test_a_blind_game_with_what_it_excludes_is_refused_either_way(
    lang: str, key: str, value: str, blind: str
) -> None:
    """R-BLIND-1: a blind game is chosen while transfer (teams, the exchange, epaulettes) is
    on, or the other way round: refused, naming what must be off; nothing changes."""
    tr = translator(lang)
    other_first = changed(DEFAULT, key, value)
    with pytest.raises(SettingError) as raised:
        changed(other_first, "blind", blind)
    error = raised.value
    assert (error.code, error.key, error.problem) == ("impossible", "blind", Problem.BLIND_EXCLUDES)
    text = error_text(error, other_first, tr)
    assert text == f"{setting_name('blind', tr)}: {BLIND_REFUSED[lang]}"
    assert len(text) <= 200  # a press's pop-up
    blind_first = changed(DEFAULT, "blind", blind)
    with pytest.raises(SettingError) as raised:
        changed(blind_first, key, value)
    error = raised.value
    assert (error.code, error.key, error.problem) == ("impossible", key, Problem.BLIND_EXCLUDES)
    text = error_text(error, blind_first, tr)
    assert text == f"{setting_name(key, tr)}: {BLIND_REFUSED[lang]}"
    assert len(text) <= 200


async def test_a_refused_blind_game_changes_nothing_in_the_chat_or_its_lobby(
    service: SettingsService, games: GameService
) -> None:
    """/set blind reversed with transfer on, and /set transfer on with a blind game: the
    chat's settings and the open lobby stay as they were."""
    await service.change(CHAT, "transfer", "on")
    lobby = await seated(games, ANNA, BORIS)
    before = await service.get(CHAT)
    with pytest.raises(SettingError) as raised:
        await service.change(CHAT, "blind", "reversed")
    assert raised.value.problem == Problem.BLIND_EXCLUDES
    assert await service.get(CHAT) == before
    stored = await games.games.get(CHAT)
    assert stored is not None and stored.game.version == lobby.game.version
    assert stored.game.settings.rules.blind is Blind.OFF
    # The other way round: the lobby follows the blind game, then refuses transfer.
    await service.change(CHAT, "transfer", "off")
    chosen = await service.change(CHAT, "blind", "doubt")
    assert chosen.applies is Applies.NOW and chosen.record is not None
    assert chosen.record.game.settings.rules == HouseRules(blind=Blind.DOUBT)
    for key, value in BLIND_EXCLUDED:
        with pytest.raises(SettingError) as raised:
            await service.change(CHAT, key, value)
        assert (raised.value.key, raised.value.problem) == (key, Problem.BLIND_EXCLUDES)
    assert await service.get(CHAT) == ChatSettings(rules=HouseRules(blind=Blind.DOUBT))
    stored = await games.games.get(CHAT)
    assert stored is not None and stored.game.version == chosen.record.game.version
    assert stored.game.settings.rules == HouseRules(blind=Blind.DOUBT)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_each_blind_game_is_explained_one_press_away(lang: str) -> None:
    """The «Вслепую» button opens the four values, each with a sentence on how it goes;
    the chosen one is ticked and its sentence is in /rules, its name in the lobby's line."""
    tr = translator(lang)
    view = settings_view(DEFAULT, tr)
    assert ("open", "blind", "") in {(p.op, p.key, p.value) for p in presses(view)}
    menu = settings_menu(DEFAULT, "blind", tr)
    assert [p.value for p in presses(menu) if p.op == "set"] == [b.value for b in Blind]
    abouts: dict[str, str] = {}
    for game in Blind:
        about = value_about("blind", game.value, tr)
        assert about is not None and about.strip(), game
        abouts[game.value] = about
        said = tr.t("settings-about", value=value_words("blind", game.value, tr), about=about)
        assert said in menu.text
    assert len(set(abouts.values())) == len(abouts)
    # Each says what the game is about: your own cards as numbered backs, one against one,
    # believing or not.
    assert "🂠1" in abouts["reversed"]
    assert {"ru": "одной", "uk": "однією"}[lang] in abouts["chinese"]
    believe = {"ru": ("«Верю»", "«Не верю»"), "uk": ("«Вірю»", "«Не вірю»")}[lang]
    assert all(word in abouts["doubt"] for word in believe)
    for value in ("reversed", "chinese", "doubt"):
        settings = changed(DEFAULT, "blind", value)
        ticked = settings_menu(settings, "blind", tr)
        assert ticked.markup is not None
        texts = [button.text for row in ticked.markup.inline_keyboard for button in row]
        assert tr.t("btn-settings-chosen", value=value_label("blind", value, tr)) in texts
        assert abouts[value] in rules_text(settings, tr)
        line = rules_line(settings, tr)
        assert f"{setting_name('blind', tr)}: {value_words('blind', value, tr)}" in line
    assert tr.t("setting-blind") not in rules_line(DEFAULT, tr)  # off: the plain game


@pytest.mark.parametrize(
    ("lang", "label"), [("ru", "Вслепую: китайский"), ("uk", "Наосліп: китайський")]
)
def test_the_blind_button_reads_in_each_language(lang: str, label: str) -> None:
    view = settings_view(changed(DEFAULT, "blind", "chinese"), translator(lang))
    assert view.markup is not None
    assert view.markup.inline_keyboard[KEYS.index("blind")][0].text == label


# -- numbers: only ASCII digits ---------------------------------------------------------------


@pytest.mark.parametrize("value", ["²⁰", "٢٠", "２０", "۳۰", "1²", "-5", "+30", " ", "3 0"])
def test_only_ascii_digits_make_a_number(value: str) -> None:
    """str.isdigit takes superscripts (which int() then refuses) and other scripts' digits:
    a setting's number is 0-9 only, anything else is a value that does not exist."""
    with pytest.raises(SettingError) as raised:
        changed(DEFAULT, "turn_timeout", value)
    assert raised.value.code == "bad_value"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_bad_value_is_echoed_as_it_was_typed(lang: str) -> None:
    with pytest.raises(SettingError) as raised:
        changed(DEFAULT, "turn_timeout", "-5")
    text = error_text(raised.value, DEFAULT, translator(lang))
    assert "«-5»" in text and "_5" not in text


# -- a lobby and a settings change at the same moment ----------------------------------------


async def test_a_lobby_takes_the_settings_changed_while_telegram_was_asked(
    service: SettingsService, games: GameService
) -> None:
    """/set deck 24 while /newgame waits for Telegram ("may the bot write to you?"): the
    lobby deals by what the admin was told, not by what was read before."""
    told: list[SettingChange] = []

    async def can_message() -> bool:
        told.append(await service.change(CHAT, "deck", "24"))
        return True

    created = await games.new_lobby(CHAT, ANNA, can_message=can_message)
    assert isinstance(created, Changed) and created.record is not None
    assert told[0].applies is Applies.NEXT_GAME  # no lobby yet when the admin changed it
    assert created.record.game.settings.rules.deck == 24
    stored = await games.games.get(CHAT)
    assert stored is not None and stored.game.settings.rules.deck == 24


async def test_a_settings_change_between_read_and_write_decides_again(
    storage: Storage, redis_url: str
) -> None:
    """GameStore.update_with_settings watches the settings key: a change after the read
    makes the transaction run again on the new settings."""
    meddler = redis_sync.Redis.from_url(redis_url)
    seen: list[int] = []

    def decide(record: GameRecord | None, settings: ChatSettings) -> tuple[Any, Any, int]:
        seen.append(settings.rules.deck)
        if len(seen) == 1:  # somebody saves other settings right now
            meddler.set(storage.keys.settings(CHAT), json.dumps({"deck": 52}))
        return GameRecord(ChatGame(CHAT, "g1", 1, settings)), KEEP, settings.rules.deck

    try:
        assert await storage.games.update_with_settings(CHAT, decide) == 52
    finally:
        meddler.close()
    assert seen == [36, 52]
    stored = await storage.games.get(CHAT)
    assert stored is not None and stored.game.settings.rules.deck == 52


async def test_play_again_and_a_change_at_once_agree(
    service: SettingsService, games: GameService
) -> None:
    """Whichever goes first, the new lobby deals by the deck the admin was told about."""
    for deck in ("24", "52", "36") * 5:
        await games.storage.users.mark_started(ANNA.user_id)
        created = await games.new_lobby(CHAT, ANNA, can_message=no)
        assert created.record is not None
        await games.stop(CHAT, ANNA.user_id, "Аня", is_admin=no)
        again, change = await asyncio.gather(
            games.again(CHAT, created.record.game.game_id, ANNA),
            service.change(CHAT, "deck", deck),
        )
        assert isinstance(again, Changed) and again.record is not None
        lobby = await games.games.get(CHAT)
        assert lobby is not None
        assert lobby.game.settings.rules.deck == int(deck), change
        await games.stop(CHAT, ANNA.user_id, "Аня", is_admin=no)


async def test_the_next_game_of_a_series_speaks_the_language_of_the_moment(
    storage: Storage, redis_url: str
) -> None:
    """The next game reads the chat's language inside its transaction: a change saved
    while it is being dealt is not lost."""
    meddler = redis_sync.Redis.from_url(redis_url)
    armed = False

    def seed() -> str:  # called while the next game is being dealt
        if armed:
            uk = ChatSettings(series=3, language="uk")
            meddler.set(storage.keys.settings(CHAT), json.dumps(uk.to_dict()))
        return f"{7:064x}"

    await storage.settings.set(CHAT, ChatSettings(series=3))
    games = GameService(storage, seed=seed)
    try:
        await dealt(games, ANNA, BORIS, VERA)
        finished = await games.leave(CHAT, VERA.user_id)  # Вера resigns: game 1 is over
        assert finished.record is not None
        armed = True
        nxt = await games.next_in_series(CHAT, finished.record.game.game_id, ANNA)
    finally:
        meddler.close()
    assert isinstance(nxt, Changed) and nxt.record is not None
    assert nxt.record.game.settings.language == "uk"
