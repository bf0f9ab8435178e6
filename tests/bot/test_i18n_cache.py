"""A ``Translator`` remembers formatted texts: what it returns from memory is what Fluent
formats, arguments of different types never share an entry, and errors are raised every
time."""

from __future__ import annotations

import pytest

from bot.i18n import SUPPORTED, MessageFormatError, all_message_ids, translator
from bot.ui.common import card_label
from engine.cards import CARDS


def test_remembered_texts_are_the_formatted_ones() -> None:
    uk = translator("uk")
    first = [uk.t("cards-count", count=n) for n in (1, 2, 5, 21)]
    again = [uk.t("cards-count", count=n) for n in (1, 2, 5, 21)]
    assert first == again == ["1 карта", "2 карти", "5 карт", "21 карта"]


def test_an_int_and_a_str_argument_are_remembered_apart() -> None:
    """``count=1`` selects the plural form "one"; the text "1" is no number to Fluent."""
    ru = translator("ru")
    as_int = ru.t("cards-count", count=1)
    as_text = ru.t("cards-count", count="1")
    assert as_int == "1 карта"
    assert ru.t("cards-count", count=1) == as_int
    assert ru.t("cards-count", count="1") == as_text


def test_other_argument_types_are_formatted_every_time() -> None:
    ru = translator("ru")
    assert ru.t("cards-count", count=True) == ru.t("cards-count", count=True)
    assert ru.t("cards-count", count=2.0) == ru.t("cards-count", count=2.0)


def test_errors_are_raised_every_time() -> None:
    ru = translator("ru")
    for _ in range(2):
        with pytest.raises(MessageFormatError):
            ru.t("cards-count")
        with pytest.raises(KeyError):
            ru.t("no-such-message")
        with pytest.raises(KeyError):
            ru.t("no-such-message", count=1)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_card_labels_are_the_rank_and_suit_texts(lang: str) -> None:
    tr = translator(lang)
    symbols = "♠♥♦♣"
    assert "rank-A" in all_message_ids(lang)
    for card in CARDS:
        expected = tr.t(f"rank-{card.rank_name}") + symbols[card.suit]
        assert card_label(card, tr) == expected
