"""The whole position of one game as the public API shows it, immutable, and its versioned
JSON form.

A ``GameState`` wraps a ``core.Position`` that nobody changes any more (``apply`` copies it
before acting), and shows it the way callers read a game: hands as masks, the stock top
card first, the bout as a ``Bout`` of cards, ``None`` where there is none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

from .actions import Action
from .cards import CARD_NAMES, CARDS, Card, Suit, cards_of, mask_of
from .codes import decode_all, encode
from .core import EP_BOUT, EP_RESULT, EP_TOOK, HAND_SIZE, Position, ranks_on
from .events import Event
from .rules import Blind, HouseRules

SCHEMA_VERSION: Final = 1
_SUITS: Final = tuple(Suit)
_CARDS: Final[tuple[Card, ...]] = CARDS  # compiled: a C static, not a lookup
_make: Final[Callable[[type, tuple[object, ...]], Any]] = tuple.__new__
# ``to_act`` as a tuple, by who acts (bits), the attacker and the table size: a few hundred
# values, each built once.
_SEATS: Final[dict[int, tuple[int, ...]]] = {}


class Bout(NamedTuple):
    """One attack on one defender. ``covers[i]`` is the card covering ``attacks[i]``, or None.

    The last three fields follow from the others and the seating; they are shown because
    they say who may still add cards."""

    attacker: int  # the primary attacker
    defender: int
    limit: int  # most attack cards in this bout, frozen at its start (R-LIMIT-1/2, R-TR-3)
    attacks: tuple[Card, ...] = ()
    covers: tuple[Card | None, ...] = ()
    taking: bool = False
    passed: int = 0  # seats (bits) that passed since the table last changed (R-BOUT-7)
    table: int = 0  # every card on the table, as a mask
    throwers: int = 0  # seats (bits) allowed to add cards (R-BOUT-5)
    any_rank: int = 0  # throwers who may add any rank on the table (not so for
    # the non-neighbours under neighbors_first_rank)

    @property
    def pairs(self) -> tuple[tuple[Card, Card | None], ...]:
        return tuple(zip(self.attacks, self.covers, strict=True))


class GameState:
    """A game at one moment; immutable. Seats are 0..n-1 clockwise; hands are card masks.

    ``known[s]`` holds the cards everybody saw go into seat s's hand (a taken table, the
    trump card drawn last, a shown lowest trump); what is still there is ``known & hand``.
    ``declined[s]``: the cards everybody saw seat s not play when it might have, since it
    last drew (``Position``: a take with a cover, a bout closed without its throw-ins).
    ``bout`` is None once the game is over; ``durak`` is then the loser, or None for a draw.
    ``moves`` counts the actions applied so far. ``acting``: who may act now, clockwise from
    the primary attacker.
    """

    # Plain Python: no other attributes, and faster ones (mypyc ignores this).
    __slots__ = ("_acting", "_bout", "_legal_actions", "_legal_codes", "_legal_seat", "_position")

    def __init__(self, position: Position) -> None:
        """The state of ``position``, which from now on must not change."""
        self._position = position
        self._acting: tuple[int, ...] | None = None
        self._bout: Bout | None = None  # built when first asked for
        # The legal codes of the seat asked last: ``legal_actions`` then ``apply`` on the
        # same state (what every caller does) finds them once.
        self._legal_seat = -1
        self._legal_codes: list[int] = []
        self._legal_actions: list[Action] = []  # decoded, when asked for

    def legal_codes(self, seat: int) -> list[int]:
        """``Position.legal(seat)``, remembered for the seat asked last; do not change it."""
        if seat != self._legal_seat:
            self._legal_codes = self._position.legal(seat)
            self._legal_actions = []
            self._legal_seat = seat
        return self._legal_codes

    def legal_actions(self, seat: int) -> list[Action]:
        """``engine.legal_actions``: the legal actions of ``seat``, as values (a new list)."""
        codes = self.legal_codes(seat)
        if len(self._legal_actions) != len(codes):
            self._legal_actions = decode_all(codes)
        return self._legal_actions[:]

    def code_of(self, action: object) -> int:
        """The code of ``action`` if it is legal now, else -1.

        Actions are values built once per code (``codes.decode``), so an action that came
        from ``legal_actions`` is found by identity, without encoding it or comparing codes.
        """
        actions = self._legal_actions
        for index in range(len(actions)):
            if actions[index] is action:
                return self._legal_codes[index]
        code = encode(action)
        if code >= 0 and code in self.legal_codes((code >> 3) & 7):
            return code
        return -1

    def after(self, action: object) -> tuple[GameState, tuple[Event, ...]] | None:
        """``engine.apply`` for a legal action: the state after ``action`` and what happened;
        None when it is not legal now (then ``apply`` asks ``refusals`` why, a module that
        reads states and so cannot be imported here). ``action`` may be anything."""
        position = self._position
        if position.finished:
            return None
        code = self.code_of(action)
        if code < 0:
            return None
        after = position.copy()
        events: list[Event] = []
        after.log = events
        after.apply(code)
        after.log = None
        return GameState(after), tuple(events)

    # --- the fields ------------------------------------------------------------------

    @property
    def rules(self) -> HouseRules:
        return self._position.rules

    @property
    def dealer(self) -> int:
        return self._position.dealer

    @property
    def trump(self) -> Suit:
        return _SUITS[self._position.trump]

    @property
    def trump_card(self) -> Card | None:
        card = self._position.trump_card
        return None if card < 0 else _CARDS[card]

    @property
    def hands(self) -> tuple[int, ...]:
        return tuple(self._position.hands)

    @property
    def known(self) -> tuple[int, ...]:
        return tuple(self._position.known)

    @property
    def declined(self) -> tuple[int, ...]:
        return tuple(self._position.declined)

    @property
    def stock(self) -> tuple[Card, ...]:
        """Top card first; the last is the face-up trump card."""
        return tuple(_CARDS[c] for c in reversed(self._position.stock))

    @property
    def discard(self) -> int:
        return self._position.discard

    @property
    def out(self) -> tuple[int, ...]:
        return tuple(self._position.out)

    @property
    def bouts_played(self) -> int:
        return self._position.bouts_played

    @property
    def bout(self) -> Bout | None:
        position = self._position
        if position.finished:
            return None
        if self._bout is None:
            self._bout = self._make_bout()
        return self._bout

    def _make_bout(self) -> Bout:
        position = self._position
        fields = (
            position.attacker,
            position.defender,
            position.limit,
            tuple([_CARDS[c] for c in position.attacks]),
            tuple([None if c < 0 else _CARDS[c] for c in position.covers]),
            position.taking,
            position.passed,
            position.table,
            position.throwers,
            position.any_rank,
        )
        bout: Bout = _make(Bout, fields)  # the named tuple without its Python constructor
        return bout

    @property
    def durak(self) -> int | None:
        """The loser; with teams, the player of the losing team R-TEAM-4 names."""
        durak = self._position.durak
        return None if durak < 0 else durak

    # --- the variants (RULES.md section 13) ------------------------------------------

    @property
    def game_number(self) -> int:
        """Which game at this table, from 1 (R-POG-2)."""
        return self._position.variant.game_number

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The teams in seat order, each a tuple of seats (R-TEAM-1); () without teams."""
        variant = self._position.variant
        if not variant.teams:
            return ()
        found: list[tuple[int, ...]] = []
        for mask in variant.team:
            team = tuple(s for s in range(self.players) if (mask >> s) & 1)
            if team not in found:
                found.append(team)
        return tuple(found)

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats of ``seat``'s team (R-TEAM-1); () without teams."""
        mask = self._position.variant.team[seat] & ~(1 << seat)
        return tuple(s for s in range(self.players) if (mask >> s) & 1)

    @property
    def losing_team(self) -> tuple[int, ...] | None:
        """With teams, once the game is over with a loser: the losing team (R-TEAM-4)."""
        durak = self.durak
        if durak is None or not self._position.variant.teams:
            return None
        mask = self._position.variant.team[durak]
        return tuple(s for s in range(self.players) if (mask >> s) & 1)

    @property
    def epaulettes(self) -> bool:
        """The game is over and its durak is "the durak with epaulettes" (R-POG)."""
        return bool(self._position.epaulettes & EP_RESULT)

    @property
    def epaulette_attack(self) -> bool:
        """The bout on the table is a strict epaulette attack: it can only be taken (R-POG-2)."""
        return bool(self._position.epaulettes & EP_BOUT)

    @property
    def took_epaulettes(self) -> tuple[int, ...]:
        """The seats that took a strict epaulette attack in this game (R-VAR-7)."""
        mask = self._position.epaulettes & EP_TOOK
        return tuple(s for s in range(self.players) if (mask >> s) & 1)

    @property
    def bottom_card_hidden(self) -> bool:
        """Northern: the face-down bottom card still lies under the stock (R-TRUMP-3)."""
        return self._position.north >= 0

    @property
    def trump_card_in_stock(self) -> bool:
        """The face-up trump card still lies under the stock (it is drawn last but for a
        Northern bottom card)."""
        position = self._position
        below = 1 if position.north >= 0 else 0  # the cards under the face-up one
        return position.trump_card >= 0 and len(position.stock) > below

    @property
    def exchange_open(self) -> bool:
        """The lowest trump may still be exchanged for the face-up card (R-SIX-1)."""
        position = self._position
        return position.six >= 0 and len(position.stock) >= 2

    # --- the blind family (RULES.md section 14) --------------------------------------

    @property
    def slots(self) -> bool:
        """Hands are rows of slots (R-BLIND-2): ``blind`` is not ``off``."""
        return self._position.blind != 0

    @property
    def rows(self) -> tuple[tuple[Card, ...], ...]:
        """Each hand in slot order, slot 1 first (R-BLIND-2); () in the open game."""
        return tuple(tuple([_CARDS[c] for c in row]) for row in self._position.rows)

    @property
    def face_down(self) -> int:
        """The cards on the table lying face down, as a mask: a ``chinese`` opening before
        its answer (R-CHI-2), ``doubt`` covers before the judgment (R-DOUBT-2)."""
        return self._position.hidden

    @property
    def unseen(self) -> int:
        """The covers discarded unseen after «верю», as a mask (R-DOUBT-5): in the
        discard pile, and hidden from everybody but whoever laid them."""
        return self._position.unseen

    @property
    def misplays(self) -> int:
        """How many wrong plays this game has had (R-REV-3)."""
        return self._position.misplays

    @property
    def doubted(self) -> tuple[int, ...]:
        """Per seat, how often its covers were turned up after «не верю» (R-DOUBT-3)."""
        return tuple(self._position.doubted)

    @property
    def caught(self) -> tuple[int, ...]:
        """Per seat, how often its covers turned up held one that did not beat: caught
        bluffing (R-DOUBT-3). Covers believed are never seen and count in neither."""
        return tuple(self._position.caught)

    @property
    def moves(self) -> int:
        return self._position.moves

    @property
    def acting(self) -> tuple[int, ...]:
        acting = self._acting
        if acting is None:
            position = self._position
            key = position.acting | position.attacker << 8 | position.players << 12
            acting = _SEATS.get(key)
            if acting is None:
                acting = _SEATS[key] = tuple(position.to_act())
            self._acting = acting
        return acting

    # --- derived -----------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self._position.players

    @property
    def finished(self) -> bool:
        return self._position.finished

    @property
    def is_draw(self) -> bool:
        return self._position.finished and self._position.durak < 0

    def hand(self, seat: int) -> list[Card]:
        return cards_of(self._position.hands[seat])

    def active(self) -> tuple[int, ...]:
        out_mask = self._position.out_mask
        return tuple(s for s in range(self._position.players) if not (out_mask >> s) & 1)

    def position(self) -> Position:
        """A copy of the core position, to search from (``engine.search``)."""
        return self._position.copy()

    # --- values ------------------------------------------------------------------------

    def _values(self) -> tuple[Any, ...]:
        return (
            self.rules,
            self.dealer,
            self.trump,
            self.trump_card,
            self.hands,
            self.known,
            self.declined,
            self.stock,
            self.discard,
            self.out,
            self.bouts_played,
            self.bout,
            self.durak,
            self.moves,
            self.game_number,
            self._position.epaulettes,
            self.rows,
            self.face_down,
            self.unseen,
            self.misplays,
            self.doubted,
            self.caught,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        names = FIELD_NAMES
        return (
            "GameState("
            + ", ".join(
                f"{name}={value!r}" for name, value in zip(names, self._values(), strict=True)
            )
            + ")"
        )

    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)

    def _replace(self, **changes: Any) -> GameState:
        """A copy with some fields changed, as when ``GameState`` was a named tuple (tests
        and tools that move cards around use it; play never does). Goes through the JSON
        form, so who acts follows from the new fields; the bout cannot be replaced."""
        data = state_to_dict(self)
        for name, value in changes.items():
            if name in ("hands", "known"):
                data[name] = [_cards_text(mask) for mask in value]
            elif name in ("stock", "discard"):
                data[name] = _cards_text(value if isinstance(value, int) else tuple(value))
            elif name in ("dealer", "durak", "moves"):
                data[name] = value
            elif name in ("out", "bouts_played"):
                data["out" if name == "out" else "bouts"] = list(value) if name == "out" else value
            else:
                raise TypeError(f"GameState._replace cannot change {name!r}")
        return state_from_dict(data)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> GameState:
        return state_from_dict(data)


FIELD_NAMES: Final = (
    "rules",
    "dealer",
    "trump",
    "trump_card",
    "hands",
    "known",
    "declined",
    "stock",
    "discard",
    "out",
    "bouts_played",
    "bout",
    "durak",
    "moves",
    "game_number",
    "epaulettes",
    "rows",
    "face_down",
    "unseen",
    "misplays",
    "doubted",
    "caught",
)


class StateFormatError(ValueError):
    """A stored state that this version of the engine cannot read."""


# --- JSON form -------------------------------------------------------------------------


# Every stored game is read and written several times a move: the cards' names are looked
# up here, in the compiled module, not card by card through ``Card``.
_NAMES: Final[tuple[str, ...]] = CARD_NAMES
_INDEX_BY_NAME: Final[dict[str, int]] = {name: card for card, name in enumerate(CARD_NAMES)}


def _cards_text(mask_or_cards: int | tuple[Card, ...]) -> str:
    if isinstance(mask_or_cards, int):
        return _mask_text(mask_or_cards)
    return " ".join([_NAMES[card] for card in mask_or_cards])


def _mask_text(mask: int) -> str:
    """The names of a mask's cards, in ``iter_mask``'s order (by suit, then rank)."""
    names: list[str] = []
    while mask:
        low = mask & -mask
        names.append(_NAMES[low.bit_length() - 1])
        mask ^= low
    return " ".join(names)


def _card_index(name: str) -> int:
    """A stored card's index; a name written otherwise (``Card.parse`` cleans it, and says
    what is wrong with one it cannot read)."""
    card = _INDEX_BY_NAME.get(name)
    return int(Card.parse(name)) if card is None else card


def _parse_cards(text: str) -> list[int]:
    return [_card_index(name) for name in text.split()]


def _parse_mask(text: str) -> int:
    mask = 0
    for name in text.split():
        mask |= 1 << _card_index(name)
    return mask


def state_to_dict(state: GameState) -> dict[str, Any]:
    """A compact JSON-safe dict: cards as space-separated text such as ``"6S 10H AD"``."""
    data: dict[str, Any] = {
        "v": SCHEMA_VERSION,
        "rules": state.rules.to_dict(),
        "dealer": state.dealer,
        "trump": state.trump.letter,
        "trump_card": None if state.trump_card is None else str(state.trump_card),
        # The blind family: each hand in slot order (R-BLIND-2), which is part of the game.
        "hands": [_cards_text(row) for row in state.rows]
        if state.slots
        else [_cards_text(h) for h in state.hands],
        "known": [_cards_text(k) for k in state.known],
        "stock": _cards_text(state.stock),
        "discard": _cards_text(state.discard),
        "out": list(state.out),
        "bouts": state.bouts_played,
        "durak": state.durak,
        "moves": state.moves,
    }
    # The variants' fields only when they say something, so that the states of the
    # default game are what they always were.
    if state.game_number != 1:
        data["game"] = state.game_number
    if state._position.epaulettes:
        data["ep"] = state._position.epaulettes
    if any(state.declined):  # (absent before the first take or bout closed with room)
        data["declined"] = [_cards_text(d) for d in state.declined]
    for key, value in (("down", state.face_down), ("unseen", state.unseen)):
        if value:
            data[key] = _mask_text(value)
    if state.misplays:
        data["misplays"] = state.misplays
    for key, counts in (("doubted", state.doubted), ("caught", state.caught)):
        if any(counts):  # (absent before the first «не верю»)
            data[key] = list(counts)
    bout = state.bout
    if bout is not None:
        data["bout"] = {
            "a": bout.attacker,
            "d": bout.defender,
            "limit": bout.limit,
            "attacks": _cards_text(bout.attacks),
            "covers": " ".join("-" if c is None else str(c) for c in bout.covers),
            "taking": bout.taking,
            "passed": bout.passed,
        }
    return data


def _seat_counts(data: dict[str, Any], key: str, players: int) -> list[int]:
    """A count per seat stored under ``key``; zeros when it is absent."""
    if key not in data:
        return [0] * players
    counts = [int(n) for n in data[key]]
    if len(counts) != players:
        raise ValueError(f"{key} is not given for every seat")
    return counts


def state_from_dict(data: dict[str, Any]) -> GameState:
    try:
        version = data["v"]
        if version != SCHEMA_VERSION:
            raise StateFormatError(f"state schema version {version!r} is not {SCHEMA_VERSION}")
        rules = HouseRules.from_dict(data["rules"])
        trump_card = data["trump_card"]
        position = Position.new(
            rules,
            int(data["dealer"]),
            int(Suit.parse(data["trump"])),
            -1 if trump_card is None else _card_index(trump_card),
            [_parse_mask(h) for h in data["hands"]],
            [_parse_mask(k) for k in data["known"]],
            _parse_cards(data["stock"]),
            _parse_mask(data["discard"]),
            [int(s) for s in data["out"]],
            int(data["bouts"]),
            int(data.get("game", 1)),
            int(data.get("ep", 0)),
            [_parse_mask(d) for d in data["declined"]] if "declined" in data else None,
            [_parse_cards(h) for h in data["hands"]] if rules.blind is not Blind.OFF else None,
        )
        position.moves = int(data["moves"])
        position.hidden = _parse_mask(data.get("down", ""))
        position.unseen = _parse_mask(data.get("unseen", ""))
        position.misplays = int(data.get("misplays", 0))
        position.doubted = _seat_counts(data, "doubted", position.players)
        position.caught = _seat_counts(data, "caught", position.players)
        durak = data["durak"]
        position.durak = -1 if durak is None else int(durak)
        if "bout" in data:
            raw = data["bout"]
            position.attacker = int(raw["a"])
            position.defender = int(raw["d"])
            position.limit = int(raw["limit"])
            position.attacks = _parse_cards(raw["attacks"])
            covers = raw["covers"].split()
            position.covers = [-1 if t == "-" else _card_index(t) for t in covers]
            if len(position.covers) != len(position.attacks):
                raise ValueError("the bout's covers do not match its attacks")
            position.uncovered = mask_of(
                a for a, c in zip(position.attacks, position.covers, strict=True) if c < 0
            )
            position.table = mask_of(position.attacks) | mask_of(
                c for c in position.covers if c >= 0
            )
            position.table_ranks = ranks_on(position.table)
            position.taking = bool(raw["taking"])
            position.passed = int(raw["passed"])
            position.seat_throwers()
            position.acting_mask()
        else:
            position.finished = True
        return GameState(position)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        if isinstance(error, StateFormatError):
            raise
        raise StateFormatError(f"malformed game state: {error}") from error


__all__ = [
    "CARDS",
    "HAND_SIZE",
    "SCHEMA_VERSION",
    "Bout",
    "GameState",
    "StateFormatError",
]
