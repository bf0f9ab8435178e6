"""Words for the terminal: the bot's texts (``locales/*/table.ftl``) as plain text.

The bot writes Telegram HTML; a terminal shows the same sentences with the tags dropped and
the entities decoded. Cards are labelled exactly as the bot labels them (``bot.ui.common``:
the localized rank and a suit symbol), without importing the bot's Telegram layer.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Final

from bot.i18n import Translator
from engine import (
    Action,
    Attack,
    Attacked,
    BeatenOff,
    BoutStarted,
    Card,
    Covered,
    DeclaredTake,
    Defend,
    Drew,
    Event,
    GameOver,
    Pass,
    Passed,
    PlayerOut,
    Resigned,
    Take,
    ThrewIn,
    Throw,
    Took,
    Transfer,
    Transferred,
)
from engine.cards import sort_key

SUIT_SYMBOLS: Final = ("♠", "♥", "♦", "♣")  # by Suit value, as in bot/ui/common.py
_TAG: Final = re.compile(r"<[^>]+>")


def plain(text: str) -> str:
    """A Telegram HTML text as the terminal shows it."""
    return html.unescape(_TAG.sub("", text))


def card_label(card: Card, tr: Translator) -> str:
    return tr.t(f"rank-{card.rank_name}") + SUIT_SYMBOLS[card.suit]


def cards_label(cards: Iterable[Card], tr: Translator) -> str:
    return " ".join(card_label(c, tr) for c in cards)


def hand_order(cards: Iterable[Card], trump: int) -> list[Card]:
    """By suit, trumps last, low to high: the bot's order."""
    return sorted(cards, key=lambda c: sort_key(c, trump))  # type: ignore[arg-type]


def action_text(action: Action, tr: Translator) -> str:
    match action:
        case Attack(cards=cards):
            return tr.t("term-action-attack", cards=cards_label(cards, tr))
        case Throw(cards=cards):
            return tr.t("term-action-throw", cards=cards_label(cards, tr))
        case Defend(card=card, on=on):
            return tr.t("term-action-cover", card=card_label(card, tr), on=card_label(on, tr))
        case Transfer(card=card):
            return tr.t("term-action-transfer", card=card_label(card, tr))
        case Take():
            return tr.t("term-action-take")
        case Pass():
            return tr.t("term-action-pass")


def event_text(event: Event, names: list[str], tr: Translator) -> str:
    """One event in the words of the bot's table log."""
    match event:
        case Attacked(player=p, cards=cards):
            return tr.t("event-attacked", name=names[p], cards=cards_label(cards, tr))
        case ThrewIn(player=p, cards=cards):
            return tr.t("event-threw-in", name=names[p], cards=cards_label(cards, tr))
        case Covered(player=p, card=card, on=on):
            return tr.t(
                "event-covered", name=names[p], card=card_label(card, tr), on=card_label(on, tr)
            )
        case Transferred(player=p, card=card, to=to):
            return tr.t(
                "event-transferred", name=names[p], card=card_label(card, tr), target=names[to]
            )
        case Passed(player=p):
            return tr.t("event-passed", name=names[p])
        case DeclaredTake(player=p):
            return tr.t("event-declared-take", name=names[p])
        case Took(player=p, cards=cards):
            return tr.t("event-took", name=names[p], count=len(cards))
        case BeatenOff(defender=p, cards=cards):
            return tr.t("event-beaten-off", name=names[p], count=len(cards))
        case Drew(player=p, drawn=drawn):
            return tr.t("event-drew", name=names[p], count=drawn)
        case PlayerOut(player=p, place=place):
            return tr.t("event-player-out", name=names[p], place=tr.t("place", place=place))
        case BoutStarted(attacker=a, defender=d):
            return tr.t("event-bout-started", attacker=names[a], defender=names[d])
        case GameOver(durak=durak):
            if durak is None:
                return tr.t("event-game-over-draw")
            return tr.t("event-game-over-durak", name=names[durak])
        case Resigned(player=p):
            return tr.t("event-resigned", name=names[p])
    return ""
