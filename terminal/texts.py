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
    Epaulettes,
    Event,
    Exchange,
    Exchanged,
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
    TrumpChanged,
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
        case Exchange():
            return tr.t("term-action-exchange")


def _told(
    tr: Translator, key: str, names: list[str], seat: int, you: int | None, **args: object
) -> str:
    """``event-<key>`` about ``seat``, or ``term-you-<key>`` when it is ``you``."""
    if seat == you:
        return tr.t(f"term-you-{key}", **args)
    return tr.t(f"event-{key}", name=names[seat], **args)


def event_text(event: Event, names: list[str], tr: Translator, you: int | None = None) -> str:
    """One event in the words of the bot's table log; those of ``you`` (the seat at the
    keyboard) in the second person: «Ты ходишь», «Ты остаёшься в дураках!»."""
    match event:
        case Attacked(player=p, cards=cards):
            return _told(tr, "attacked", names, p, you, cards=cards_label(cards, tr))
        case ThrewIn(player=p, cards=cards):
            return _told(tr, "threw-in", names, p, you, cards=cards_label(cards, tr))
        case Covered(player=p, card=card, on=on):
            return _told(
                tr, "covered", names, p, you, card=card_label(card, tr), on=card_label(on, tr)
            )
        case Transferred(player=p, card=card, to=to):
            if to == you:
                return tr.t("term-transferred-to-you", name=names[p], card=card_label(card, tr))
            return _told(
                tr, "transferred", names, p, you, card=card_label(card, tr), target=names[to]
            )
        case Passed(player=p):
            return _told(tr, "passed", names, p, you)
        case DeclaredTake(player=p):
            return _told(tr, "declared-take", names, p, you)
        case Took(player=p, cards=cards):
            return _told(tr, "took", names, p, you, count=len(cards))
        case BeatenOff(defender=p, cards=cards):
            return _told(tr, "beaten-off", names, p, you, count=len(cards))
        case Drew(player=p, drawn=drawn):
            return _told(tr, "drew", names, p, you, count=drawn)
        case PlayerOut(player=p, place=place):
            return _told(tr, "player-out", names, p, you, place=tr.t("place", place=place))
        case BoutStarted(attacker=a, defender=d):
            if a == you:
                return tr.t("term-bout-you-attack", defender=names[d])
            if d == you:
                return tr.t("term-bout-you-defend", attacker=names[a])
            return tr.t("event-bout-started", attacker=names[a], defender=names[d])
        case GameOver(durak=durak):
            if durak is None:
                return tr.t("event-game-over-draw")
            if durak == you:
                return tr.t("term-you-durak")
            return tr.t("event-game-over-durak", name=names[durak])
        case Exchanged(player=p, card=card, took=took):
            return tr.t(
                "term-event-exchanged",
                name=names[p],
                card=card_label(card, tr),
                took=card_label(took, tr),
            )
        case TrumpChanged(player=p, card=card):
            return tr.t("term-event-trump-changed", name=names[p], card=card_label(card, tr))
        case Epaulettes(player=p):
            return tr.t("term-event-epaulettes", name=names[p])
        case Resigned(player=p):  # only the bot's players resign (the terminal's quits)
            return tr.t("event-resigned", name=names[p])
    return ""
