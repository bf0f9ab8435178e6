"""Determinization: one full game state consistent with everything a seat knows.

The cards the seat has not seen (``Knowledge.unseen``) are dealt at random to the other
hands, each getting as many as it holds beyond the cards seen in it, and the rest, shuffled,
become the stock above the face-up trump. Everything public (table, bout, passes, counts,
seats out) is copied from the view. The result is an ordinary ``GameState`` built through
its public JSON form, so the engine's own rules derive who acts next.

A search plays many such worlds to the end and keeps the moves that do well in most of them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..cards import Card, cards_of, format_cards
from ..core import EP_BOUT
from ..state import SCHEMA_VERSION, GameState
from ..view import TableView
from .knowledge import Knowledge


class InconsistentView(ValueError):
    """The counts of a view do not add up (a bug, never a player's doing)."""


def determinize(knowledge: Knowledge, rng: random.Random) -> GameState:
    """A random full state that the seat could not tell apart from the real one."""
    view = knowledge.view
    unseen = cards_of(knowledge.unseen)
    rng.shuffle(unseen)
    hands = []
    position = 0
    for seat in range(len(view.hand_sizes)):
        if seat == view.seat:
            hands.append(knowledge.hand)
            continue
        count = knowledge.hidden_count(seat)
        mask = knowledge.seen[seat]
        for card in unseen[position : position + count]:
            mask |= 1 << card
        position += count
        hands.append(mask)
    stock = unseen[position:]
    if knowledge.trump_in_stock and view.trump_card is not None:
        if view.bottom_card_hidden:  # Northern: the face-up card lies on the hidden bottom
            stock.insert(len(stock) - 1, view.trump_card)
        else:
            stock.append(view.trump_card)
    if len(stock) != view.stock_size:
        raise InconsistentView(
            f"{len(unseen)} unseen cards do not fill the hands and a stock of {view.stock_size}"
        )
    data = state_dict(
        knowledge.view,
        hands=[format_cards(cards_of(h)) for h in hands],
        known=[format_cards(cards_of(k)) for k in knowledge.seen],
        stock=format_cards(stock),
        discard=format_cards(cards_of(knowledge.discard)),
        table=knowledge.view.table,
    )
    return GameState.from_dict(data)


def state_dict(
    view: TableView,
    *,
    hands: list[str],
    known: list[str],
    stock: str,
    discard: str,
    table: Sequence[tuple[Card, Card | None]],
) -> dict[str, Any]:
    """The JSON form of a state (``GameState.from_dict``) of ``view``'s game: its public
    facts, with the hands, the cards known in them, the stock (top first), the discard and
    the table's pairs a world gives."""
    data: dict[str, Any] = {
        "v": SCHEMA_VERSION,
        "rules": view.rules.to_dict(),
        "dealer": view.dealer,
        "trump": view.trump.letter,
        "trump_card": None if view.trump_card is None else str(view.trump_card),
        "hands": hands,
        "known": known,
        "stock": stock,
        "discard": discard,
        "out": list(view.out),
        "bouts": view.bouts_played,
        "durak": view.durak,
        "moves": view.moves,
        "game": view.game_number,
    }
    # What of epaulettes is public: who took a strict epaulette attack, and whether the
    # bout on the table is one (the opener's seat is not needed to play it on).
    marks = sum(1 << s for s in view.took_epaulettes)
    if view.epaulette_attack:
        marks |= EP_BOUT
    if marks:
        data["ep"] = marks
    if any(view.declined):
        data["declined"] = [format_cards(cards) for cards in view.declined]
    for key, counts in (("doubted", view.doubted), ("caught", view.caught)):
        if any(counts):  # R-DOUBT-3: public, so every world keeps the defenders' records
            data[key] = list(counts)
    if not view.finished:
        assert view.attacker is not None and view.defender is not None and view.limit is not None
        data["bout"] = {
            "a": view.attacker,
            "d": view.defender,
            "limit": view.limit,
            "attacks": format_cards(a for a, _ in table),
            "covers": " ".join("-" if c is None else str(c) for _, c in table),
            "taking": view.taking,
            "passed": sum(1 << s for s in view.passed),
        }
    return data


__all__ = ["InconsistentView", "determinize", "state_dict"]
