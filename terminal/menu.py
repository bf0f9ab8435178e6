"""The numbered moves, grouped as the bot's keyboard (``bot.ui.hand``) groups them: one
line per single card, and the moves with several cards of one rank (R-BOUT-1) behind one
line per rank, then how many, then which (only when the cards of that count can be chosen
several ways). Four of a kind is then four lines and one more, not fifteen. As on the
keyboard, cards of different ranks are thrown in one at a time (every such set is also a
sequence of single throws), so those sets are not listed.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import Translator
from engine import Action, Attack, Suit, Throw
from engine.cards import sort_key

from .texts import action_text, cards_label, hand_order


@dataclass(frozen=True, slots=True)
class Choice:
    """A numbered line: a move, or a sub-menu with its question."""

    label: str
    action: Action | None = None
    question: str = ""
    then: tuple[Choice, ...] = ()


def _set_rank(action: Action) -> int | None:
    """The rank of a move with several cards of one rank, else None."""
    if isinstance(action, Attack | Throw) and len(action.cards) > 1:
        ranks = {card.rank for card in action.cards}
        if len(ranks) == 1:
            return ranks.pop()
    return None


def choices(moves: list[Action], trump: Suit, tr: Translator) -> list[Choice]:
    """The top menu: every move of one card (and take, pass) in the engine's order, and
    where a rank's first move of several cards would be, one line for that rank."""
    by_rank: dict[int, list[Attack | Throw]] = {}
    for action in moves:
        rank = _set_rank(action)
        if rank is not None:
            assert isinstance(action, Attack | Throw)
            by_rank.setdefault(rank, []).append(action)
    menu: list[Choice] = []
    for action in moves:
        rank = _set_rank(action)
        if isinstance(action, Attack | Throw) and len(action.cards) > 1 and rank is None:
            continue  # cards of several ranks: thrown one at a time, as on the keyboard
        if rank is None or len(by_rank.get(rank, ())) == 1:  # one card, or a single pair
            menu.append(Choice(action_text(action, tr), action))
        elif rank in by_rank:
            menu.append(_rank_choice(by_rank.pop(rank), trump, tr))
    return menu


def _rank_choice(sets: list[Attack | Throw], trump: Suit, tr: Translator) -> Choice:
    """One rank: how many of its cards, and for a count with several ways, which."""
    sets.sort(key=lambda a: (len(a.cards), [sort_key(c, trump) for c in a.cards]))
    cards = hand_order({c for a in sets for c in a.cards}, trump)
    kind = "attack" if isinstance(sets[0], Attack) else "throw"
    by_count: dict[int, list[Attack | Throw]] = {}
    for action in sets:
        by_count.setdefault(len(action.cards), []).append(action)
    counts = []
    for count, same in by_count.items():
        if len(same) == 1:
            counts.append(Choice(action_text(same[0], tr), same[0]))
            continue
        which = tuple(Choice(action_text(a, tr), a) for a in same)
        label = tr.t("term-choice-count", cards=tr.t("cards-count", count=count))
        counts.append(Choice(label, question=tr.t("term-which"), then=which))
    return Choice(
        tr.t(f"term-choice-several-{kind}", cards=cards_label(cards, tr)),
        question=tr.t("term-how-many"),
        then=tuple(counts),
    )
