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
from bot.model import shown_lowest_trump
from engine import (
    Action,
    Answered,
    Attack,
    Attacked,
    AttackSlot,
    BeatenOff,
    Believe,
    Believed,
    Blind,
    BoutStarted,
    Card,
    Covered,
    DeclaredTake,
    Defend,
    DefendSlot,
    Doubt,
    Doubted,
    Drew,
    Epaulettes,
    Event,
    Exchange,
    Exchanged,
    GameOver,
    LaidFaceDown,
    Misplayed,
    Pass,
    Passed,
    PlayerOut,
    Resigned,
    SeatView,
    Suit,
    TableView,
    Take,
    ThrewIn,
    Throw,
    ThrowSlot,
    Took,
    Transfer,
    Transferred,
    TrumpChanged,
)
from engine.cards import LOWEST_RANK_BY_DECK, sort_key

SUIT_SYMBOLS: Final = ("♠", "♥", "♦", "♣")  # by Suit value, as in bot/ui/common.py
BACK: Final = "🂠"  # a card seen from its back, as the bot's slot buttons show it (``btn-slot``)
_TAG: Final = re.compile(r"<[^>]+>")


def plain(text: str) -> str:
    """A Telegram HTML text as the terminal shows it."""
    return html.unescape(_TAG.sub("", text))


def card_label(card: Card, tr: Translator) -> str:
    return tr.t(f"rank-{card.rank_name}") + SUIT_SYMBOLS[card.suit]


def cards_label(cards: Iterable[Card], tr: Translator) -> str:
    return " ".join(card_label(c, tr) for c in cards)


def row_label(row: Iterable[Card | None], tr: Translator) -> str:
    """A row of slots (R-BLIND-2) as one viewer sees it, slot 1 first: a card seen face up
    by its label, a back by its slot's number («🂠3»), the number the moves name."""
    return " ".join(
        f"{BACK}{slot}" if card is None else card_label(card, tr)
        for slot, card in enumerate(row, start=1)
    )


def blind_games() -> list[Blind]:
    """The games of the blind family (RULES.md section 14), as ``blind=`` names them."""
    return [game for game in Blind if game is not Blind.OFF]


def blind_lines(tr: Translator) -> list[str]:
    """Each blind game in one line: its ``blind=`` value, its name and what it is."""
    return [
        f"  blind={game}: {tr.t(f'term-game-{game}')}. {tr.t(f'term-about-{game}')}"
        for game in blind_games()
    ]


def hand_order(cards: Iterable[Card], trump: int) -> list[Card]:
    """By suit, trumps last, low to high: the bot's order."""
    return sorted(cards, key=lambda c: sort_key(c, trump))  # type: ignore[arg-type]


def exchange_cards(view: TableView) -> tuple[Card, Card]:
    """R-SIX-1: the trump of the deck's lowest rank (a nine of 24 cards, a six of 36, a two
    of 52) and the face-up trump card it is exchanged for."""
    assert view.trump_card is not None, "an exchange needs a face-up trump card"
    return Card.of(LOWEST_RANK_BY_DECK[view.rules.deck], view.trump), view.trump_card


def action_text(action: Action, tr: Translator, view: TableView) -> str:
    """A move as a line of the menu, its cards in the hand's order."""
    trump = view.trump
    match action:
        case Attack(cards=cards):
            return tr.t("term-action-attack", cards=cards_label(hand_order(cards, trump), tr))
        case Throw(cards=cards):
            return tr.t("term-action-throw", cards=cards_label(hand_order(cards, trump), tr))
        case Defend(card=card, on=on):
            return tr.t("term-action-cover", card=card_label(card, tr), on=card_label(on, tr))
        case Transfer(card=card):
            return tr.t("term-action-transfer", card=card_label(card, tr))
        case Take():
            return tr.t("term-action-take")
        case Pass():
            return tr.t("term-action-pass")
        case Exchange():
            low, took = exchange_cards(view)
            return tr.t("term-action-exchange", card=card_label(low, tr), took=card_label(took, tr))
        case AttackSlot(slot=slot):
            return tr.t("term-action-attack-slot", slot=slot)
        case ThrowSlot(slot=slot):
            return tr.t("term-action-throw-slot", slot=slot)
        case DefendSlot(slot=slot, on=on):
            if on is None:  # ``chinese``: the attack card lies face down
                return tr.t("term-action-answer-slot", slot=slot)
            return tr.t("term-action-cover-slot", slot=slot, on=card_label(on, tr))
        case Believe():
            return tr.t("term-action-believe")
        case Doubt():
            return tr.t("term-action-doubt")


def _told(
    tr: Translator, key: str, names: list[str], seat: int, you: int | None, **args: object
) -> str:
    """``event-<key>`` about ``seat`` (``term-event-<key>`` where the terminal words it
    otherwise), or ``term-you-<key>`` when it is ``you``."""
    if seat == you:
        return tr.t(f"term-you-{key}", **args)
    own = f"term-event-{key}"
    return tr.t(own if tr.has(own) else f"event-{key}", name=names[seat], **args)


def role_text(part: str, tr: Translator, mine: bool) -> str:
    """A seat's part (``role-*``, ``bot.ui.roles``), in the second person on one's own seat
    line: «ходишь», not «Ты · ходит»."""
    return tr.t(f"term-you-{part}" if mine else part)


def lowest_trump_lines(view: SeatView, names: list[str], tr: Translator) -> list[str]:
    """R-BLIND-5: in a ``reversed`` game just dealt, the lowest trump shown to everybody and
    its holder, as the bot's table tells it (``event-lowest-trump``), from what ``view``
    knows (``bot.model.shown_lowest_trump``); to its holder, in the second person, and the
    slot it went back to, as the bot tells the holder (``hand-lowest-trump-slot``)."""
    card = shown_lowest_trump(view)
    holder = view.attacker
    if card is None or holder is None:
        return []
    label = card_label(card, tr)
    lines = [_told(tr, "lowest-trump", names, holder, view.seat, card=label)]
    if card in view.remembered:
        slot = f"{BACK}{view.remembered.index(card) + 1}"
        lines.append(tr.t("hand-lowest-trump-slot", slot=slot, card=label))
    return lines


def event_text(
    event: Event,
    names: list[str],
    tr: Translator,
    you: int | None = None,
    trump: Suit | None = None,
) -> str:
    """One event in the words of the bot's table log; those of ``you`` (the seat at the
    keyboard) in the second person: «Ты ходишь», «Ты остаёшься в дураках!». With the
    ``trump``, the cards of an attack come in the hand's order, as the menu named them."""

    def played(cards: tuple[Card, ...]) -> str:
        return cards_label(cards if trump is None else hand_order(cards, trump), tr)

    match event:
        case Attacked(player=p, cards=cards):
            return _told(tr, "attacked", names, p, you, cards=played(cards))
        case ThrewIn(player=p, cards=cards):
            return _told(tr, "threw-in", names, p, you, cards=played(cards))
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
            return _told(
                tr, "exchanged", names, p, you, card=card_label(card, tr), took=card_label(took, tr)
            )
        case TrumpChanged(player=p, card=card):
            return _told(tr, "trump-changed", names, p, you, card=card_label(card, tr))
        case Epaulettes(player=p):
            return _told(tr, "epaulettes", names, p, you)
        case Resigned(player=p):  # only the bot's players resign (the terminal's quit)
            if p == you:
                return tr.t("term-you-resigned")
            return tr.t("event-resigned", name=names[p], why="leave")
        case Misplayed(player=p, card=card, on=None):  # R-REV-3; a ``Took`` follows
            return _told(tr, "misplayed-throw-in", names, p, you, card=card_label(card, tr))
        case Misplayed(player=p, card=card, on=Card() as on):
            cover = {"card": card_label(card, tr), "on": card_label(on, tr)}
            return _told(tr, "misplayed-cover", names, p, you, **cover)
        case LaidFaceDown(player=p, on=None):  # the card laid is in no event (R-CHI-2)
            return _told(tr, "laid-face-down-attack", names, p, you)
        case LaidFaceDown(player=p, on=Card() as on):
            return _told(tr, "laid-face-down-cover", names, p, you, on=card_label(on, tr))
        case Answered(player=p, card=card, attack=attack):
            answer = {"card": card_label(card, tr), "attack": card_label(attack, tr)}
            return _told(tr, "answered", names, p, you, **answer)
        case Believed(player=p):
            return _told(tr, "believed", names, p, you)
        case Doubted(player=p, covers=covers, beaten=beaten):
            shown = {"covers": cards_label(covers, tr), "count": len(covers)}
            return _told(tr, "doubted", names, p, you, beaten="yes" if beaten else "no", **shown)
    return ""
