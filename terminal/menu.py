"""The numbered moves, grouped as the bot's keyboard (``bot.ui.hand``) groups them: one
line per single card, and the moves with several cards of one rank (R-BOUT-1) behind one
line per rank, then how many, then which (only when the cards of that count can be chosen
several ways). Four of a kind is then four lines and one more, not fifteen. As on the
keyboard, cards of different ranks are thrown in one at a time (every such set is also a
sequence of single throws), so those sets are not listed. Cards come in the hand's order
(by suit, trumps last, low to high), as the hand line above the menu shows them.

In the blind family (RULES.md section 14) a defender may lay any slot (``reversed``) or any
card (``doubt``) on any uncovered attack card, so the covers are every slot or card times
every target: eight slots against three attack cards would be 24 lines. There the covers
are grouped by the card they cover, one line per attack card in the table's order, then
which slot or card: targets plus slots lines instead of their product, and the player
picks first what they can see (the attack card), then the blind pick (the slot) or the
bluff (the card).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import Translator
from engine import Action, Attack, Card, Defend, DefendSlot, Suit, TableView, Throw, Transfer
from engine.cards import sort_key

from .texts import action_text, card_label, cards_label, hand_order


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


def _hand_cards(action: Action) -> tuple[Card, ...]:
    """The cards a move plays from the hand (none for take, pass, exchange)."""
    if isinstance(action, Attack | Throw):
        return action.cards
    if isinstance(action, Defend | Transfer):
        return (action.card,)
    return ()


def in_hand_order(moves: list[Action], trump: Suit) -> list[Action]:
    """The moves of each kind in the order of their cards in the hand; the kinds as the
    engine lists them (covers before the transfer, then take, say)."""
    kinds: dict[type, int] = {}
    for action in moves:
        kinds.setdefault(type(action), len(kinds))

    def key(action: Action) -> tuple[int, list[tuple[int, int, int]], tuple[int, int, int]]:
        cards = sorted(sort_key(c, trump) for c in _hand_cards(action))
        on = sort_key(action.on, trump) if isinstance(action, Defend) else (0, 0, 0)
        return kinds[type(action)], cards, on

    return sorted(moves, key=key)


def choices(moves: list[Action], view: TableView, tr: Translator) -> list[Choice]:
    """The top menu: every move of one card (and take, pass) in the hand's order, and
    where a rank's first move of several cards would be, one line for that rank."""
    trump = view.trump
    moves = in_hand_order(moves, trump)
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
            menu.append(Choice(action_text(action, tr, view), action))
        elif rank in by_rank:
            menu.append(_rank_choice(by_rank.pop(rank), view, tr))
    if view.blind:
        menu = _covers_by_target(menu, view, tr)
    return menu


def _cover_target(choice: Choice) -> Card | None:
    """The attack card a line's cover names, else None (a chinese answer names none)."""
    action = choice.action
    if isinstance(action, Defend | DefendSlot):
        return action.on
    return None


def _covers_by_target(menu: list[Choice], view: TableView, tr: Translator) -> list[Choice]:
    """The blind family's covers behind one line per attack card they cover (see above),
    where the first cover was; unchanged when they all cover one card."""
    targets: dict[Card, list[Choice]] = {}
    for choice in menu:
        on = _cover_target(choice)
        if on is not None:
            targets.setdefault(on, []).append(choice)
    if len(targets) < 2:
        return menu
    order = {attack: place for place, attack in enumerate(view.attacks)}
    groups = [
        Choice(
            tr.t("term-choice-cover", on=card_label(on, tr)),
            question=tr.t("term-which-cover", on=card_label(on, tr)),
            then=tuple(covers),
        )
        for on, covers in sorted(targets.items(), key=lambda item: order.get(item[0], 0))
    ]
    first = next(i for i, choice in enumerate(menu) if _cover_target(choice) is not None)
    rest = [choice for choice in menu if _cover_target(choice) is None]
    return [*rest[:first], *groups, *rest[first:]]


def _rank_choice(sets: list[Attack | Throw], view: TableView, tr: Translator) -> Choice:
    """One rank: how many of its cards, and for a count with several ways, which."""
    trump = view.trump
    sets.sort(key=lambda a: (len(a.cards), sorted(sort_key(c, trump) for c in a.cards)))
    cards = hand_order({c for a in sets for c in a.cards}, trump)
    kind = "attack" if isinstance(sets[0], Attack) else "throw"
    by_count: dict[int, list[Attack | Throw]] = {}
    for action in sets:
        by_count.setdefault(len(action.cards), []).append(action)
    counts = []
    for count, same in by_count.items():
        if len(same) == 1:
            counts.append(Choice(action_text(same[0], tr, view), same[0]))
            continue
        which = tuple(Choice(action_text(a, tr, view), a) for a in same)
        label = tr.t("term-choice-count", cards=tr.t("cards-count", count=count))
        counts.append(Choice(label, question=tr.t("term-which"), then=which))
    return Choice(
        tr.t(f"term-choice-several-{kind}", cards=cards_label(cards, tr)),
        question=tr.t("term-how-many"),
        then=tuple(counts),
    )
