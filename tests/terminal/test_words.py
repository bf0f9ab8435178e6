"""The terminal's words: the person at the keyboard told in the second person for every kind
of event and on their own seat line, the exchange named by its real card, team marks, the
Northern bottom card, menus in the hand's order, the bot's names for computer players."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, get_args

import pytest

from bot.i18n import translator
from bot.services.computers import COMPUTER_NAMES as BOT_COMPUTER_NAMES
from bot.ui.board import TEAM_MARKS as BOT_TEAM_MARKS
from bot.ui.common import COMPUTER_MARK as BOT_COMPUTER_MARK
from engine import (
    Believed,
    Card,
    Doubted,
    Event,
    Exchange,
    Exchanged,
    HouseRules,
    LaidFaceDown,
    Misplayed,
    Passed,
    Took,
    TrumpChanged,
    apply,
    legal_actions,
    view_for,
)
from engine.cards import LOWEST_RANK_BY_DECK, deck_cards
from engine.record import load_record
from terminal.game import Options
from terminal.menu import choices
from terminal.seats import COMPUTER_MARK, COMPUTER_NAMES, TEAM_MARKS, seat_names
from terminal.session import Session
from terminal.texts import event_text, role_text

Play = Callable[..., tuple[str, Session]]  # the ``play`` fixture (conftest.py)
LANGS = ("ru", "uk")
YOU = {"ru": "Ты", "uk": "Ти"}
SEAT_FIELDS = ("player", "attacker", "defender", "durak", "to")
# Values for an event's other fields, by name: a new field fails the test until it is here.
OTHER_FIELDS: dict[str, object] = {
    "cards": (Card.parse("8H"), Card.parse("8D")),
    "card": Card.parse("9S"),
    "on": Card.parse("8H"),
    "took": Card.parse("AS"),
    "drawn": 2,
    "place": 1,
    "limit": 6,
    "attack": Card.parse("8H"),
    "covers": (Card.parse("9H"), Card.parse("6D")),
    "beaten": True,
}
# Other values a kind's field may take that are told in other words, by kind and field: a
# throw-in misplayed or a face-down opening (no card under it), covers that do not all beat.
OTHER_VALUES: dict[tuple[str, str], tuple[object, ...]] = {
    ("Misplayed", "on"): (None,),
    ("LaidFaceDown", "on"): (None,),
    ("Doubted", "beaten"): (False,),
}
# Lines with no verb of the player read the same in either person («Ты: пас», «Ты: «Верю»…»).
VERBLESS = {"Passed", "DeclaredTake", "Believed", "Doubted"}


def about_you(kind: type[Any]) -> list[Any]:
    """Every way ``kind`` can be about seat 0: each of its seat fields in turn is seat 0,
    the others seat 1; and each of ``OTHER_VALUES`` in turn for the other fields."""
    seats = [name for name in kind._fields if name in SEAT_FIELDS]
    assert seats, f"{kind.__name__} names no seat"
    events = []
    for mine in seats:
        values = {name: (0 if name == mine else 1) for name in seats}
        values |= {name: OTHER_FIELDS[name] for name in kind._fields if name not in seats}
        events.append(kind(**values))
        for (other_kind, name), others in OTHER_VALUES.items():
            if other_kind == kind.__name__:
                events += [kind(**(values | {name: value})) for value in others]
    return events


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", get_args(Event), ids=lambda kind: kind.__name__)
def test_every_event_about_you_is_in_the_second_person(lang: str, kind: type[Any]) -> None:
    """Not «Ты меняет 9♦…» (the third person with «Ты» for a name): every kind of event
    the engine has, told about the seat at the keyboard, says «ты» and differs from the
    third person wherever it has a verb."""
    tr = translator(lang)
    names = seat_names(3, tr)
    for event in about_you(kind):
        text = event_text(event, names, tr, you=0)
        third = event_text(event, names, tr, you=None)
        assert re.search(rf"\b{YOU[lang]}\b", text, re.IGNORECASE), text
        if kind.__name__ in VERBLESS:
            assert text == third
        else:
            assert text != third, text


@pytest.mark.parametrize(
    ("lang", "exchanged", "bottom"),
    [
        ("ru", "Ты меняешь 9♦ на открытый козырь Т♦", "Ты берёшь нижнюю карту 8♣"),
        ("uk", "Ти міняєш 9♦ на відкритий козир Т♦", "Ти береш нижню карту 8♣"),
    ],
)
def test_the_variants_events_about_you(lang: str, exchanged: str, bottom: str) -> None:
    tr = translator(lang)
    names = seat_names(2, tr)
    nine, ace, eight = Card.parse("9D"), Card.parse("AD"), Card.parse("8C")
    assert event_text(Exchanged(0, nine, ace), names, tr, you=0) == exchanged
    assert event_text(TrumpChanged(0, eight), names, tr, you=0).startswith(bottom)
    assert event_text(Passed(1), names, tr, you=0) == tr.t("event-passed", name=names[1])


@pytest.mark.parametrize(
    ("lang", "told"),
    [
        (
            "ru",
            [
                "Ты подкидываешь 8♣, а такого достоинства на столе нет",
                "Ты берёшь 2 карты",
                "Ты кладёшь карту рубашкой вверх на 7♠",
                "🤖 Федя: «Верю» — карты уходят в отбой не открытыми",
                "🤖 Федя: «Не верю» — открыта 6♦: покрыто неверно",
                "🤖 Федя кроет 9♥ картой 6♠, а она не бьёт",
            ],
        ),
        (
            "uk",
            [
                "Ти підкидаєш 8♣, а такого номіналу на столі немає",
                "Ти береш 2 карти",
                "Ти кладеш карту сорочкою догори на 7♠",
                "🤖 Федя: «Вірю» — карти йдуть у відбій невідкритими",
                "🤖 Федя: «Не вірю» — відкрита 6♦: покрито неправильно",
                "🤖 Федя криє 9♥ картою 6♠, а вона не б'є",
            ],
        ),
    ],
)
def test_the_blind_events(lang: str, told: list[str]) -> None:
    """RULES.md section 14: a misplay and the take after it, a cover laid face down (never
    named), «верю» and «не верю»."""
    tr = translator(lang)
    s7, h9, c8, s6, d6 = (Card.parse(c) for c in ("7S", "9H", "8C", "6S", "6D"))
    events: list[Event] = [
        Misplayed(0, c8, None),
        Took(0, (s7, c8)),
        LaidFaceDown(0, s7),
        Believed(1),
        Doubted(1, (d6,), beaten=False),
        Misplayed(1, s6, h9),
    ]
    assert [event_text(e, seat_names(2, tr), tr, you=0) for e in events] == told


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ru", ("ходишь", "отбиваешься", "берёшь", "подкидываешь")),
        ("uk", ("ходиш", "відбиваєшся", "береш", "підкидаєш")),
    ],
)
def test_your_own_seat_line_names_your_part_in_the_second_person(
    lang: str, words: tuple[str, ...]
) -> None:
    tr = translator(lang)
    parts = ("role-attacker", "role-defender", "role-taking", "role-thrower")
    assert tuple(role_text(part, tr, mine=True) for part in parts) == words
    assert role_text("role-attacker", tr, mine=False) == tr.t("role-attacker")


@pytest.mark.parametrize(("lang", "attacking"), [("ru", "ходишь"), ("uk", "ходиш")])
def test_a_game_shows_your_seat_in_the_second_person(lang: str, attacking: str, play: Play) -> None:
    out, _ = play(Options(seed=5), lang)
    assert f"👉 {YOU[lang]} · 6 " in out
    assert re.search(rf"👉 {YOU[lang]} · \d+ \w+ · {attacking}\n", out)
    assert f"{YOU[lang]} · 6 карт · ходит\n" not in out


def exchange_position(deck: int) -> dict[str, Any]:
    """ann holds the trump of the deck's lowest rank and opens; the ace of spades lies face
    up under the stock (R-SIX-1)."""
    cards = [str(c) for c in deck_cards(deck)]
    low = str(Card.of(LOWEST_RANK_BY_DECK[deck], Card.parse("AS").suit))
    rest = [c for c in cards if c not in (low, "AS")]
    return {
        "rules": {"deck": deck, "trump_six_exchange": True},
        "players": ["ann", "bob"],
        "hands": {"ann": [low, *rest[:5]], "bob": rest[5:11]},
        "stock": [*rest[11:], "AS"],
        "attacker": "ann",
        "actions": [],
    }


@pytest.mark.parametrize(
    ("deck", "lang", "line", "told"),
    [
        (24, "ru", "обменять 9♠ на открытый козырь Т♠", "Ты меняешь 9♠ на открытый козырь Т♠"),
        (36, "ru", "обменять 6♠ на открытый козырь Т♠", "Ты меняешь 6♠ на открытый козырь Т♠"),
        (52, "uk", "обміняти 2♠ на відкритий козир Т♠", "Ти міняєш 2♠ на відкритий козир Т♠"),
    ],
)
def test_the_exchange_is_named_by_the_decks_lowest_trump(
    deck: int, lang: str, line: str, told: str
) -> None:
    """Not «козырная шестёрка» for a nine or a two: the card itself."""
    tr = translator(lang)
    start = load_record(exchange_position(deck)).start
    moves = legal_actions(start, 0)
    assert Exchange(0) in moves
    labels = [choice.label for choice in choices(moves, view_for(start, 0), tr)]
    assert line in labels
    _, events = apply(start, Exchange(0))
    assert [event_text(e, seat_names(2, tr), tr, you=0) for e in events] == [told]


@pytest.mark.parametrize(
    ("lang", "yours", "partner"),
    [("ru", "Твоя команда", "партнёр"), ("uk", "Твоя команда", "партнер")],
)
def test_team_games_mark_the_teams_in_the_seat_list(
    lang: str, yours: str, partner: str, play: Play
) -> None:
    """R-TEAM-1, four players in pairs: seats 0 and 2 against 1 and 3, as the bot marks them."""
    options = Options(players=4, level="easy", rules=HouseRules(teams="pairs"), seed=7)  # type: ignore[arg-type]
    out, _ = play(options, lang)
    tr = translator(lang)
    you, fedya, gosha = seat_names(4, tr)[:3]
    assert f"🔴 {yours}: {you}, {gosha}" in out
    assert f" 🔴 {you} · " in out
    assert f" 🔴 {gosha} ({partner}) · " in out
    assert f" 🔵 {fedya} · " in out


@pytest.mark.parametrize("lang", LANGS)
def test_the_northern_game_tells_of_the_hidden_bottom_card(lang: str, play: Play) -> None:
    """R-TRUMP-3: while the face-down bottom card lies under the stock, the table says so."""
    rules = HouseRules(trump="northern")  # type: ignore[arg-type]
    out, _ = play(Options(rules=rules, seed=11), lang)
    tr = translator(lang)
    assert tr.t("table-northern-pending") in out
    plain = HouseRules()
    assert tr.t("table-northern-pending") not in play(Options(rules=plain, seed=11), lang)[0]


CARD = r"(?:10|[2-9ВДКТJQKA])[♠♥♦♣]"
SINGLE = re.compile(rf"  \d+\. (ходить: |подкинуть: |покрыть {CARD} картой )({CARD})$")


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 3), (3, 5), (4, 8)])
def test_menus_list_the_cards_in_the_hands_order(players: int, seed: int, play: Play) -> None:
    """Each menu's moves of one card come in the order of the hand line above it."""
    out, _ = play(Options(players=players, level="easy", seed=seed))
    checked = 0
    for screen in out.split("Твои карты (")[1:]:
        hand = screen.splitlines()[0].split(": ", 1)[1].split()
        order: dict[str, list[int]] = {}
        for line in screen.splitlines()[1:]:
            match = SINGLE.match(line)
            if match:
                order.setdefault(match[1], []).append(hand.index(match[2]))
        for places in order.values():
            assert places == sorted(places), screen
            checked += len(places) > 1
    assert checked > 5


def test_computers_have_the_bots_names_and_marks() -> None:
    """The terminal keeps copies (the bot's modules bring Redis and Telegram): equal ones."""
    assert COMPUTER_NAMES == BOT_COMPUTER_NAMES
    assert COMPUTER_MARK == BOT_COMPUTER_MARK
    assert TEAM_MARKS == BOT_TEAM_MARKS
    assert seat_names(3, translator("uk")) == ["Ти", "🤖 Федя", "🤖 Маша"]
