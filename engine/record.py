"""Game records (GAME-RECORD.md): a position between bouts and the actions played from it.

``load_record`` checks a record's JSON form and builds its start with ``from_position``;
``export_record`` writes a record from a start state and the actions applied to it. Running
a record and the ``python -m engine.replay`` command live in ``replay.py``.

    record = load_record(json.loads(text))      # RecordError: malformed, one-line message
    state = record.start                        # seat i is record.names[i]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .actions import (
    Action,
    Attack,
    AttackSlot,
    Believe,
    Defend,
    DefendSlot,
    Doubt,
    Exchange,
    Pass,
    Take,
    Throw,
    ThrowSlot,
    Transfer,
)
from .cards import Card, Suit, cards_of
from .game import SetupError, from_position
from .rules import HouseRules, RulesError, TrumpChoice
from .state import GameState


class RecordError(ValueError):
    """A malformed game record: the one-line message names the place that is wrong."""


@dataclass(frozen=True, slots=True)
class Record:
    """A loaded record: seat ``i`` of ``start`` and of every action is ``names[i]``."""

    names: tuple[str, ...]
    start: GameState
    actions: tuple[Action, ...]

    def seat(self, name: str) -> int:
        return self.names.index(name)


REQUIRED_KEYS: Final = ("players", "hands", "actions")

# The fields each kind of action takes besides "p" and "a".
ACTION_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "attack": ("cards",),
    "throw": ("cards",),
    "defend": ("card", "on"),
    "take": (),
    "pass": (),
    "transfer": ("card",),
    "exchange": (),
    "believe": (),  # R-DOUBT-3
    "doubt": (),
}
# The blind family (R-BLIND-2): an attack, a throw-in or a cover by a player who cannot see
# their hand names a slot (from 1) instead of cards; a chinese answer leaves out "on".
SLOT_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "attack": ("slot",),
    "throw": ("slot",),
    "defend": ("slot", "on"),
}


# --- reading -----------------------------------------------------------------------------


def load_record(data: object) -> Record:
    """The record a parsed JSON document describes, its start built by ``from_position``.

    Raises ``RecordError`` for anything malformed: wrong JSON types, unknown cards,
    players or house rules, a card missing or named twice, a trump that does not match
    the stock. Whether the actions are legal is for the replay to find out.
    """
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {_json_type(data)}")
    # Other keys (a comment, the expected result of a test record) are notes for people.
    for key in REQUIRED_KEYS:
        if key not in data:
            raise RecordError(f"the key {key!r} is missing")
    rules = _rules(data.get("rules", {}))
    names = _players(data["players"])
    seats = {name: seat for seat, name in enumerate(names)}
    hands = _hands(data["hands"], names)
    stock = _cards(data.get("stock", []), "stock")
    discard = _cards(data.get("discard", []), "discard")
    _check_each_card_once(hands, names, stock, discard)
    trump = _trump(data.get("trump"), stock, rules)
    dealer = None if data.get("dealer") is None else _seat_of(data["dealer"], seats, "dealer")
    attacker = (
        None if data.get("attacker") is None else _seat_of(data["attacker"], seats, "attacker")
    )
    bouts_played = data.get("bouts_played", 0)
    if not isinstance(bouts_played, int) or isinstance(bouts_played, bool) or bouts_played < 0:
        raise RecordError(f"bouts_played must be a whole number 0 or more, not {bouts_played!r}")
    game_number = data.get("game_number", 1)
    if not isinstance(game_number, int) or isinstance(game_number, bool) or game_number < 1:
        raise RecordError(f"game_number must be a whole number 1 or more, not {game_number!r}")
    try:
        start = from_position(
            hands,
            rules=rules,
            stock=stock,
            trump=trump,
            discard=discard,
            dealer=dealer,
            attacker=attacker,
            bouts_played=bouts_played,
            game_number=game_number,
        )
    except SetupError as error:
        raise RecordError(f"not a playable position: {error}") from None
    actions = data["actions"]
    if not isinstance(actions, list):
        raise RecordError(f"actions must be a list, not {_json_type(actions)}")
    parsed = tuple(_action(raw, seats, f"actions[{i}]") for i, raw in enumerate(actions))
    return Record(names, start, parsed)


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _rules(raw: object) -> HouseRules:
    if not isinstance(raw, dict):
        raise RecordError(f"rules must be an object, not {_json_type(raw)}")
    try:
        return HouseRules.from_dict(raw)
    except RulesError as error:
        raise RecordError(f"rules: {error}") from None


def _players(raw: object) -> tuple[str, ...]:
    if not isinstance(raw, list) or not raw:
        raise RecordError("players must be a non-empty list of names, clockwise")
    seen: set[str] = set()
    for name in raw:
        if not isinstance(name, str) or not name.strip():
            raise RecordError(f"players: a name must be non-empty text, not {_json_type(name)}")
        if name in seen:
            raise RecordError(f"players: {name!r} is named twice")
        seen.add(name)
    return tuple(raw)


def _hands(raw: object, names: tuple[str, ...]) -> list[tuple[Card, ...]]:
    if not isinstance(raw, dict):
        raise RecordError(
            f"hands must be an object from player name to cards, not {_json_type(raw)}"
        )
    for name in raw:
        if name not in names:
            raise RecordError(f"hands: unknown player {name!r}")
    for name in names:
        if name not in raw:
            raise RecordError(f"hands: no hand for {name!r} (write [] for an empty hand)")
    return [_cards(raw[name], f"hands of {name!r}") for name in names]


def _card(raw: object, where: str) -> Card:
    if not isinstance(raw, str):
        raise RecordError(f'{where}: a card is text such as "10H", not {_json_type(raw)}')
    try:
        return Card.parse(raw)
    except ValueError:
        raise RecordError(
            f"{where}: unknown card {raw!r} (a rank 2..10, J, Q, K, A and a suit S H D C)"
        ) from None


def _cards(raw: object, where: str) -> tuple[Card, ...]:
    if not isinstance(raw, list):
        raise RecordError(f"{where} must be a list of cards, not {_json_type(raw)}")
    return tuple(_card(item, where) for item in raw)


def _check_each_card_once(
    hands: list[tuple[Card, ...]],
    names: tuple[str, ...],
    stock: tuple[Card, ...],
    discard: tuple[Card, ...],
) -> None:
    """Name both places of a card given twice (``from_position`` finds missing ones)."""
    places = [(f"the hand of {n!r}", h) for n, h in zip(names, hands, strict=True)]
    places += [("the stock", stock), ("the discard", discard)]
    where: dict[Card, str] = {}
    for place, cards in places:
        for card in cards:
            if card in where:
                first = where[card]
                also = "twice in " + place if first == place else f"in {first} and in {place}"
                raise RecordError(f"{card} is named {also}")
            where[card] = place


def _trump(raw: object, stock: tuple[Card, ...], rules: HouseRules) -> Suit | None:
    """The record's trump suit. With ``trump: turned`` it must match the face-up card, the
    stock's last; the other trump choices are checked by ``from_position``."""
    if rules.trump is not TrumpChoice.TURNED:
        if raw is None:
            return None
        if not isinstance(raw, str):
            raise RecordError(f"trump must be a suit letter S H D C, not {_json_type(raw)}")
        try:
            return Suit.parse(raw)
        except ValueError:
            raise RecordError(f"trump must be a suit letter S H D C, not {raw!r}") from None
    if raw is None:
        if not stock:
            raise RecordError("trump: required when the stock is empty (a suit letter S H D C)")
        return None
    if not isinstance(raw, str):
        raise RecordError(f"trump must be a suit letter S H D C, not {_json_type(raw)}")
    try:
        trump = Suit.parse(raw)
    except ValueError:
        raise RecordError(f"trump must be a suit letter S H D C, not {raw!r}") from None
    if stock and stock[-1].suit != trump:
        raise RecordError(
            f"trump {trump.letter} does not match the face-up trump card {stock[-1]}"
            " (the stock's last card)"
        )
    return trump


def _seat_of(raw: object, seats: dict[str, int], where: str) -> int:
    if not isinstance(raw, str):
        raise RecordError(f"{where} must be a player's name, not {_json_type(raw)}")
    if raw not in seats:
        raise RecordError(f"{where}: unknown player {raw!r}")
    return seats[raw]


def _action(raw: object, seats: dict[str, int], where: str) -> Action:
    if not isinstance(raw, dict):
        raise RecordError(f'{where}: an action is an object such as {{"p": ..., "a": ...}}')
    kind = raw.get("a")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        kinds = ", ".join(ACTION_FIELDS)
        raise RecordError(f'{where}: "a" must be one of {kinds}, not {_json_type(kind)}')
    if "p" not in raw:
        raise RecordError(f'{where}: "p" (who acts) is missing')
    player = _seat_of(raw["p"], seats, f"{where}.p")
    if "slot" in raw and kind in SLOT_FIELDS:
        return _slot_action(raw, kind, player, where)
    fields = ACTION_FIELDS[kind]
    for key in raw:
        if key not in ("p", "a", *fields):
            raise RecordError(f"{where}: the {kind} action has no key {key!r}")
    for key in fields:
        if key not in raw:
            raise RecordError(f"{where}: the {kind} action needs {key!r}")
    if kind in ("attack", "throw"):
        cards = _cards(raw["cards"], f"{where}.cards")
        if not cards:
            raise RecordError(f"{where}.cards: name at least one card")
        return Attack(player, cards) if kind == "attack" else Throw(player, cards)
    if kind == "defend":
        return Defend(player, _card(raw["card"], f"{where}.card"), _card(raw["on"], f"{where}.on"))
    if kind == "transfer":
        return Transfer(player, _card(raw["card"], f"{where}.card"))
    if kind == "exchange":
        return Exchange(player)
    if kind in ("believe", "doubt"):
        return Believe(player) if kind == "believe" else Doubt(player)
    return Take(player) if kind == "take" else Pass(player)


def _slot_action(raw: dict[str, Any], kind: str, player: int, where: str) -> Action:
    """An action by slot (``SLOT_FIELDS``); a slot past the end of the hand is for the
    replay to refuse (``no_such_slot``), not malformed."""
    for key in raw:
        if key not in ("p", "a", *SLOT_FIELDS[kind]):
            raise RecordError(f"{where}: the {kind} by slot has no key {key!r}")
    slot = raw["slot"]
    if not isinstance(slot, int) or isinstance(slot, bool) or slot < 1:
        raise RecordError(f"{where}.slot: a slot is a whole number from 1, not {slot!r}")
    if kind == "attack":
        return AttackSlot(player, slot)
    if kind == "throw":
        return ThrowSlot(player, slot)
    on = None if raw.get("on") is None else _card(raw["on"], f"{where}.on")
    return DefendSlot(player, slot, on)


# --- writing -----------------------------------------------------------------------------


def export_record(
    start: GameState, actions: Iterable[Action], names: Sequence[str]
) -> dict[str, Any]:
    """The record of ``actions`` played from ``start``, a position between bouts (as
    ``new_game``, ``next_game`` and ``from_position`` give, or any state whose bout has no
    card on the table yet). Seat ``i`` is ``names[i]``.

    Replaying the record gives the same positions as applying the actions to ``start``;
    what a record cannot hold is not kept: which cards everybody saw go into a hand, the
    move counter, and the order in which players had left before ``start`` (seat order).
    """
    names = list(names)
    if len(names) != start.players:
        raise RecordError(f"{start.players} seats need {start.players} names, not {len(names)}")
    if len(set(names)) != len(names) or not all(isinstance(n, str) and n.strip() for n in names):
        raise RecordError("the names must be distinct, non-empty texts")
    bout = start.bout
    if bout is None or bout.attacks:
        raise RecordError("the start must be a position between bouts of a game being played")
    return {
        "rules": start.rules.to_dict(),
        "players": names,
        "dealer": names[start.dealer],
        "hands": {name: _texts(_hand(start, seat)) for seat, name in enumerate(names)},
        "stock": _texts(start.stock),
        "trump": start.trump.letter,
        "discard": _texts(cards_of(start.discard)),
        "attacker": names[bout.attacker],
        "bouts_played": start.bouts_played,
        **({"game_number": start.game_number} if start.game_number != 1 else {}),
        "actions": [action_to_dict(action, names) for action in actions],
    }


def action_to_dict(action: Action, names: Sequence[str]) -> dict[str, Any]:
    """One action in record form: ``{"p": "bob", "a": "defend", "card": "9H", "on": "8H"}``."""
    if not 0 <= action.player < len(names):
        raise RecordError(f"there is no seat {action.player} among {len(names)} names")
    entry: dict[str, Any] = {"p": names[action.player]}
    if isinstance(action, AttackSlot | ThrowSlot):
        entry.update(a="attack" if isinstance(action, AttackSlot) else "throw", slot=action.slot)
    elif isinstance(action, DefendSlot):
        entry.update(a="defend", slot=action.slot)
        if action.on is not None:
            entry["on"] = str(action.on)
    elif isinstance(action, Believe | Doubt):
        entry["a"] = "believe" if isinstance(action, Believe) else "doubt"
    elif isinstance(action, Attack | Throw):
        entry["a"] = "attack" if isinstance(action, Attack) else "throw"
        entry["cards"] = _texts(action.cards)
    elif isinstance(action, Defend):
        entry.update(a="defend", card=str(action.card), on=str(action.on))
    elif isinstance(action, Transfer):
        entry.update(a="transfer", card=str(action.card))
    elif isinstance(action, Exchange):
        entry["a"] = "exchange"
    else:
        entry["a"] = "take" if isinstance(action, Take) else "pass"
    return entry


def _hand(state: GameState, seat: int) -> list[Card]:
    """A hand as a record lists it: in slot order in the blind family (R-BLIND-2), else
    sorted."""
    return list(state.rows[seat]) if state.slots else cards_of(state.hands[seat])


def _texts(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


__all__ = [
    "ACTION_FIELDS",
    "SLOT_FIELDS",
    "Record",
    "RecordError",
    "action_to_dict",
    "export_record",
    "load_record",
]
