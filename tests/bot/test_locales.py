"""Every message exists in every language, formats with the variables it names, and counts
cards with the right plural forms."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from importlib.resources.abc import Traversable

import pytest
from fluent.syntax import ast as ftl
from fluent.syntax.visitor import Visitor

from bot.i18n import (
    SUPPORTED,
    MessageFormatError,
    all_message_ids,
    parse_locale,
    private_language,
    translator,
)
from bot.ui.errors import UNKNOWN, error_message_id
from engine import Code
from engine.cards import RANK_NAMES, SUIT_LETTERS


class _Variables(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()
        self.messages: set[str] = set()  # referenced messages: their variables count too

    def visit_VariableReference(self, node: ftl.VariableReference) -> None:
        self.names.add(node.id.name)

    def visit_MessageReference(self, node: ftl.MessageReference) -> None:
        self.messages.add(node.id.name)


def message_variables(lang: str) -> dict[str, set[str]]:
    """Every message of ``lang`` and the variables it uses (those of a message it refers to:
    ``start-bad-link = { start-welcome }`` uses ``$name``)."""
    visited: dict[str, _Variables] = {}
    for _path, resource in parse_locale(lang):
        for entry in resource.body:
            if isinstance(entry, ftl.Message):
                visitor = visited[entry.id.name] = _Variables()
                visitor.visit(entry)

    def variables(message_id: str, seen: frozenset[str] = frozenset()) -> set[str]:
        visitor = visited[message_id]
        names = set(visitor.names)
        for other in visitor.messages - seen:
            names |= variables(other, seen | {message_id})
        return names

    return {message_id: variables(message_id) for message_id in visited}


def test_every_message_is_in_both_languages() -> None:
    ru, uk = all_message_ids("ru"), all_message_ids("uk")
    assert ru, "no messages loaded"
    assert sorted(ru - uk) == [], "missing in uk"
    assert sorted(uk - ru) == [], "missing in ru"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_no_message_is_defined_twice(lang: str) -> None:
    seen: dict[str, Traversable] = {}
    twice = []
    for path, resource in parse_locale(lang):
        for entry in resource.body:
            if isinstance(entry, ftl.Message):
                if entry.id.name in seen:
                    twice.append(f"{entry.id.name} in {seen[entry.id.name].name} and {path.name}")
                seen[entry.id.name] = path
    assert twice == []


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_engine_error_code_has_a_message(lang: str) -> None:
    tr = translator(lang)
    missing = [code for code in Code if not tr.has(error_message_id(code))]
    assert missing == []
    assert tr.has(UNKNOWN)


def test_both_languages_use_the_same_variables() -> None:
    ru, uk = message_variables("ru"), message_variables("uk")
    differ = {m: (ru[m], uk[m]) for m in ru.keys() & uk.keys() if ru[m] != uk[m]}
    assert differ == {}


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_message_formats_with_its_variables(lang: str) -> None:
    tr = translator(lang)
    for message_id, variables in message_variables(lang).items():
        for value in (1, 2, 5, 36):
            text = tr.t(message_id, **dict.fromkeys(variables, value))
            assert text.strip(), message_id
            assert "{" not in text and "}" not in text, message_id
            assert "\u2068" not in text and "\u2069" not in text, "bidi isolation marks"


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_missing_variable_raises_instead_of_showing_a_placeholder(lang: str) -> None:
    tr = translator(lang)
    with pytest.raises(MessageFormatError):
        tr.t("cards-count")
    with pytest.raises(MessageFormatError):
        tr.t("event-took", name="Петя")


@pytest.mark.parametrize("lang", SUPPORTED)
def test_an_unknown_message_id_raises_key_error(lang: str) -> None:
    with pytest.raises(KeyError):
        translator(lang).t("no-such-message")


CARD_PLURALS = {
    "ru": {
        1: "1 карта",
        2: "2 карты",
        5: "5 карт",
        11: "11 карт",
        21: "21 карта",
        22: "22 карты",
        25: "25 карт",
    },
    "uk": {
        1: "1 карта",
        2: "2 карти",
        5: "5 карт",
        11: "11 карт",
        21: "21 карта",
        22: "22 карти",
        25: "25 карт",
    },
}


@pytest.mark.parametrize(
    ("lang", "count", "expected"),
    [(lang, n, text) for lang, forms in CARD_PLURALS.items() for n, text in forms.items()],
)
def test_card_counts_use_cldr_plural_forms(lang: str, count: int, expected: str) -> None:
    assert translator(lang).t("cards-count", count=count) == expected


@pytest.mark.parametrize(
    ("lang", "count", "expected"),
    [
        ("ru", 1, "Петя берёт 1 карту"),
        ("ru", 3, "Петя берёт 3 карты"),
        ("ru", 5, "Петя берёт 5 карт"),
        ("ru", 21, "Петя берёт 21 карту"),
        ("uk", 1, "Петя бере 1 карту"),
        ("uk", 2, "Петя бере 2 карти"),
        ("uk", 12, "Петя бере 12 карт"),
        ("uk", 22, "Петя бере 22 карти"),
    ],
)
def test_a_take_is_told_with_the_plural_card_count(lang: str, count: int, expected: str) -> None:
    assert translator(lang).t("event-took", name="Петя", count=count) == expected


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_rank_and_suit_has_a_name(lang: str) -> None:
    tr = translator(lang)
    for rank in RANK_NAMES:
        assert tr.t(f"rank-{rank}")
    for suit in SUIT_LETTERS:
        assert tr.t(f"suit-{suit}")
    for other in SUPPORTED:
        assert tr.t(f"lang-{other}")


def test_face_cards_and_suits_are_named_in_each_language() -> None:
    ru, uk = translator("ru"), translator("uk")
    assert [ru.t(f"rank-{r}") for r in "JQKA"] == ["В", "Д", "К", "Т"]
    assert ru.t("suit-H") == "черви"
    assert uk.t("suit-C") == "хрести"


class _TagCheck(HTMLParser):
    """Telegram HTML: only known tags, balanced; no stray ``&``."""

    ALLOWED = frozenset({"b", "i", "u", "s", "code", "pre", "a", "blockquote", "tg-spoiler"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.ALLOWED:
            self.problems.append(f"<{tag}>")
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.problems.append(f"</{tag}> unbalanced")

    def handle_entityref(self, name: str) -> None:
        if name not in {"lt", "gt", "amp", "quot"}:
            self.problems.append(f"&{name};")


def html_problems(text: str) -> list[str]:
    check = _TagCheck()
    check.feed(text)
    check.close()
    if check.stack:
        check.problems.append(f"unclosed {check.stack}")
    if re.search(r"&(?!(lt|gt|amp|quot|#\d+);)", text):
        check.problems.append("bare &")
    return check.problems


@pytest.mark.parametrize("lang", SUPPORTED)
def test_table_messages_are_valid_telegram_html(lang: str) -> None:
    tr = translator(lang)
    table_file = [r for p, r in parse_locale(lang) if p.name == "table.ftl"]
    assert table_file
    for entry in table_file[0].body:
        if isinstance(entry, ftl.Message):
            visitor = _Variables()
            visitor.visit(entry)
            text = tr.t(entry.id.name, **dict.fromkeys(visitor.names, 3))
            assert html_problems(text) == [], entry.id.name


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("uk", "uk"),
        ("uk-UA", "uk"),
        ("UK", "uk"),
        ("ru", "ru"),
        ("en", "ru"),
        ("be", "ru"),
        ("", "ru"),
        (None, "ru"),
    ],
)
def test_a_private_chat_speaks_the_users_telegram_language(code: str | None, expected: str) -> None:
    assert private_language(code) == expected


def test_an_unknown_language_gets_russian() -> None:
    assert translator("de").lang == "ru"
    assert translator("uk").lang == "uk"
    assert translator("ru") is translator("xx")
