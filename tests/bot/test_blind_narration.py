"""The blind family's events in the table's log (RULES.md section 14): a misplay and the take
after it as two lines, a face-down card never named, «верю» and «не верю» with what was
turned up."""

from __future__ import annotations

import re

import pytest
from views import chat_game, check_html

from bot.i18n import SUPPORTED, translator
from bot.model import append_log, event_to_log
from bot.ui.board import log_lines, narrate
from engine import (
    Answered,
    BeatenOff,
    Believed,
    Card,
    Doubted,
    Event,
    LaidFaceDown,
    Misplayed,
    Took,
    new_game,
)

S7, H9, C8, S6, SQ, S10, HA = (Card.parse(c) for c in ("7S", "9H", "8C", "6S", "QS", "10S", "AH"))
CARD_LABEL = re.compile(r"(?:10|[2-9ВДКТ])[♠♥♦♣]")


def told(events: list[Event], lang: str) -> list[str]:
    """The log's lines for ``events``, as the table shows them (without the heading)."""
    tr = translator(lang)
    game = chat_game(new_game(3, seed=1), 3, lang)
    game.log = append_log([], events)
    lines = log_lines(game, tr)
    for line in lines:
        check_html(line)
    return [line.removeprefix("• ") for line in lines[2:]]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "ru",
            [
                "Оля подкидывает 8♣, а такого достоинства на столе нет",
                "Оля берёт 3 карты",
                "Петя &amp; Co кроет 9♥ картой 6♠, а она не бьёт",
                "Петя &amp; Co берёт 3 карты",
            ],
        ),
        (
            "uk",
            [
                "Оля підкидає 8♣, а такого номіналу на столі немає",
                "Оля бере 3 карти",
                "Петя &amp; Co криє 9♥ картою 6♠, а вона не б'є",
                "Петя &amp; Co бере 3 карти",
            ],
        ),
    ],
)
def test_a_misplay_and_the_take_after_it(lang: str, expected: list[str]) -> None:
    """R-REV-3, R-REV-4: the misplayed card is named, then the misplayer takes the table."""
    events: list[Event] = [
        Misplayed(0, C8, None),
        Took(0, (S7, H9, C8)),
        Misplayed(2, S6, H9),
        Took(2, (S7, H9, S6)),
    ]
    assert told(events, lang) == expected


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "ru",
            [
                "Оля: «Верю» — карты уходят в отбой не открытыми",
                "Оля: «Не верю» — открыты 10♠ Т♥: всё покрыто верно",
                "Оля: «Не верю» — открыта Д♠: покрыто неверно",
            ],
        ),
        (
            "uk",
            [
                "Оля: «Вірю» — карти йдуть у відбій невідкритими",
                "Оля: «Не вірю» — відкриті 10♠ Т♥: усе покрито правильно",
                "Оля: «Не вірю» — відкрита Д♠: покрито неправильно",
            ],
        ),
    ],
)
def test_believe_and_doubt(lang: str, expected: list[str]) -> None:
    """R-DOUBT-3: «верю» turns nothing up; «не верю» names the covers and how it went."""
    events: list[Event] = [
        Believed(0),
        Doubted(0, (S10, HA), beaten=True),
        Doubted(0, (SQ,), beaten=False),
    ]
    assert told(events, lang) == expected


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "ru",
            [
                "Оля ходит картой рубашкой вверх",
                "Петя &amp; Co кладёт карту рубашкой вверх на 7♠",
                "&lt;b&gt;Вася&lt;/b&gt; отбивается: Д♠ на 9♥",
            ],
        ),
        (
            "uk",
            [
                "Оля ходить картою сорочкою догори",
                "Петя &amp; Co кладе карту сорочкою догори на 7♠",
                "&lt;b&gt;Вася&lt;/b&gt; відбивається: Д♠ на 9♥",
            ],
        ),
    ],
)
def test_cards_laid_face_down_and_the_chinese_answer(lang: str, expected: list[str]) -> None:
    """R-CHI-2, R-DOUBT-2: a face-down card is told as a card, never by name; the answer
    names both cards turned up."""
    events: list[Event] = [LaidFaceDown(0, None), LaidFaceDown(2, S7), Answered(1, SQ, H9)]
    assert told(events, lang) == expected


@pytest.mark.parametrize("lang", SUPPORTED)
def test_no_card_unseen_is_named(lang: str) -> None:
    """A face-down card and covers believed unseen: the only card named is one face up, the
    attack card a cover lies on."""
    tr = translator(lang)
    game = chat_game(new_game(3, seed=1), 3, lang)
    lines = {
        event: narrate(event_to_log(event), game, tr)
        for event in (LaidFaceDown(0, None), LaidFaceDown(1, S7), Believed(0), BeatenOff(1, (S7,)))
    }
    assert [CARD_LABEL.findall(line) for line in lines.values()] == [[], ["7♠"], [], []]
