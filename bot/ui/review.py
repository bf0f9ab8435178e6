"""After the game, in words: the commitment line of the table, the deck's check, and a
person's review («Ход 14: твой выбор — взять. Лучше было покрыть 9♦ картой 7♠: 61% → 44%»)."""

from __future__ import annotations

from typing import Any

from bot.i18n import Translator
from bot.schema.reviews import Review
from bot.ui.common import card_label
from engine import Card
from engine.deck_seed import short


def deck_line(commitment: str, tr: Translator) -> str:
    """«🔐 Колода: #3fa9c1»: the table's promise of its deck (docs/FAIR-DEAL.md)."""
    return tr.t("table-deck", commitment=short(commitment))


def review_text(review: Review, tr: Translator) -> str:
    """The review's costliest moments, or that none cost much."""
    if not review.moments:
        return tr.t("review-clean", game=review.game_id, decisions=review.decisions)
    lines = [tr.t("review-title", game=review.game_id, decisions=review.decisions)]
    for moment in review.moments:
        lines.append(
            tr.t(
                "review-moment",
                move=moment.index + 1,
                played=action_words(moment.played, tr),
                preferred=action_words(moment.preferred, tr),
                before=round(100 * moment.before),
                after=round(100 * moment.after),
            )
        )
    return "\n".join([*lines, "", tr.t("review-footer")])


def action_words(action: dict[str, Any], tr: Translator) -> str:
    """A move in record form in words, as a choice: «взять», «покрыть 9♦ картой 7♠»."""
    kind = str(action["a"])
    cards = " ".join(card_label(Card.parse(text), tr) for text in action.get("cards", []))
    card = "" if action.get("card") is None else card_label(Card.parse(action["card"]), tr)
    on = "" if action.get("on") is None else card_label(Card.parse(action["on"]), tr)
    return tr.t(f"review-do-{kind}", cards=cards, card=card, on=on)
