"""The bot's own texts (locales/*/bot.ftl): the same ids in Russian and Ukrainian, every id
the handlers use exists, pop-ups and command descriptions fit Telegram's limits."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.app import GROUP_COMMANDS, PRIVATE_COMMANDS
from bot.config import Settings
from bot.i18n import LOCALES_DIR, SUPPORTED, locale_files, translator
from bot.schema.refusals import Reason
from bot.ui.errors import Said, refusal_message_id

UNSAID = {Reason.DUPLICATE, Reason.NOT_DUE}  # a press delivered again; the sweeper's own
ONLY_JOIN_LINKS = {Reason.BAD_LINK, Reason.NOT_MEMBER}
ONLY_HAND_PRESSES = {Reason.STALE, Reason.GAME_OVER, Reason.MALFORMED}
# Which refusals each place can say: a command's reply, a press's pop-up, the answer to a
# join link (``GameService.join_by_link``).
SAID = {
    Said.REPLY: set(Reason) - UNSAID - ONLY_JOIN_LINKS - ONLY_HAND_PRESSES,
    Said.POPUP: set(Reason) - UNSAID - ONLY_JOIN_LINKS - {Reason.NEED_START},  # a link then
    Said.START: {
        Reason.ALREADY_JOINED,
        Reason.LOBBY_FULL,
        Reason.NO_LOBBY,
        Reason.STALE_LOBBY,
        Reason.GAME_RUNNING,
        *ONLY_JOIN_LINKS,
    },
}

USED = {
    "reply-anonymous",
    "reply-exists",
    "reply-need-start",
    "reply-stopped",
    "reply-busy",
    "reply-unavailable",
    "reply-group-only",
    "reply-not-a-person",
    "reply-bad-level",
    "reply-solo-exists",
    "answer-computer-added",
    "answer-computer-removed",
    "button-open-bot",
    "button-webapp",  # bot.ui.webapp: the buttons that open the Mini App
    "answer-created",
    "answer-joined",
    "answer-left",
    "answer-started",
    "answer-team-switched",
    "answer-trump-named",
    "answer-busy",
    "answer-unavailable",
    "answer-malformed",
    "stopped-table",
    "stopped-hand",
    "gone-removed",
    "gone-removed-untitled",
    "gone-clash",
    "start-welcome",
    "help",
    *(refusal_message_id(reason, said) for said, reasons in SAID.items() for reason in reasons),
    "reply-admin-unknown",
    "answer-admin-unknown",
    "start-joined",
    "reply-updating",
    "answer-updating",
    "reply-private-only",
    *(
        f"mydata-{part}"
        for part in (
            "title",
            "nothing",
            "started",
            "here",
            "group",
            "playing",
            "finished",
            "chat",
            "totals",
            "versus",
            "rules",
            "rating",
            "footer",
        )
    ),
    *(f"forget-{part}" for part in ("ask", "ask-playing", "done", "cancelled")),
    "button-forget-yes",
    "button-forget-no",
    "answer-forget-stale",
    "player-forgotten",
    "top-title",
    "top-rule",
    "top-line",
    "top-computer",
    "top-empty",
    "stats-rating-here",
    "stats-rating-me",
    *(f"command-{name}" for name in (*GROUP_COMMANDS, *PRIVATE_COMMANDS)),
}


def bot_ids(lang: str) -> set[str]:
    text = (LOCALES_DIR / lang / "bot.ftl").read_text(encoding="utf-8")
    return set(re.findall(r"^([a-z][a-z0-9-]*) =", text, flags=re.MULTILINE))


def test_both_languages_have_the_same_ids() -> None:
    assert bot_ids("ru") == bot_ids("uk")


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_id_the_handlers_use_exists(lang: str) -> None:
    tr = translator(lang)
    for message_id in sorted(USED):
        text = tr.t(
            message_id,
            name="Аня",
            group="Дурак по пятницам",
            lobby="no",
            id=1,
            where="здесь",
            chat=-100,
            count=1,
            points=1500,
            place=1,
            min=3,
            games=3,
            durak=1,
            draws=0,
            level="normal",
        )
        assert text.strip(), message_id
    assert bot_ids(lang) <= USED


@pytest.mark.parametrize("lang", SUPPORTED)
def test_pop_ups_and_command_descriptions_fit(lang: str) -> None:
    tr = translator(lang)
    for message_id in bot_ids(lang):
        if message_id.startswith("answer-"):
            assert len(tr.t(message_id)) <= 200, message_id
        if message_id.startswith("command-"):
            assert 3 <= len(tr.t(message_id)) <= 256, message_id
    for name in (*GROUP_COMMANDS, *PRIVATE_COMMANDS):
        assert re.fullmatch(r"[a-z0-9_]{1,32}", name)
    help_text = tr.t("help")
    for name in GROUP_COMMANDS:
        assert f"/{name}" in help_text


def test_readme_and_env_example_list_every_command_and_setting() -> None:
    """STYLE.md: README, .env.example and the settings class stay in step."""
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text()
    env_example = (root / ".env.example").read_text()
    for name in (*GROUP_COMMANDS, *PRIVATE_COMMANDS, "durak"):
        assert f"`/{name}" in readme
    for field in Settings.model_fields:
        assert f"`{field.upper()}`" in readme
        assert re.search(rf"^#?\s*{field.upper()}=", env_example, re.MULTILINE), field


# A past-tense verb right after "ты"/"ти" tells the player's gender («Ты встал»): the
# texts speak to everybody alike.
GENDERED = {"ru": r"\b[Тт]ы\s+\w+л\b", "uk": r"\b[Тт]и\s+\w+в\b"}


@pytest.mark.parametrize("lang", SUPPORTED)
def test_no_text_guesses_the_players_gender(lang: str) -> None:
    tr = translator(lang)
    gendered = [
        (path.name, found)
        for path in locale_files(lang)
        for found in re.findall(GENDERED[lang], path.read_text(encoding="utf-8"))
    ]
    assert gendered == []
    assert not re.search(GENDERED[lang], tr.t("answer-left"))


@pytest.mark.parametrize("lang", SUPPORTED)
def test_help_says_my_cards_is_a_pop_up_only_you_see(lang: str) -> None:
    """«Мои карты» does not show the hand in the group: a pop-up for its owner."""
    tr = translator(lang)
    help_text = tr.t("help")
    line = next(line for line in help_text.splitlines() if tr.t("btn-my-cards") in line)
    assert {"ru": "только ты", "uk": "лише ти"}[lang] in line
