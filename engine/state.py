"""The whole position of one game, immutable, and its versioned JSON form."""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from .cards import CARDS, RANK_MASKS, Card, Suit, cards_of, format_cards, mask_of
from .rules import FIRST_BOUT_CEILING, FULL_CEILING, FirstBoutLimit, HouseRules, ThrowIn

SCHEMA_VERSION: Final = 1
HAND_SIZE: Final = 6


# ``play.py`` builds bouts and states by the position of each field, which is faster than
# the keyword constructor; ``tests/engine/test_api.py`` pins the order of both.
class Bout(NamedTuple):
    """One attack on one defender. ``covers[i]`` is the card covering ``attacks[i]``, or None.

    The last three fields follow from the others and the seating (``make_bout`` fills them
    in); they are stored so the hot path does not recompute them."""

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


class GameState(NamedTuple):
    """A game at one moment; immutable. Seats are 0..n-1 clockwise; hands are card masks.

    ``known[s]`` holds the cards everybody saw go into seat s's hand (a taken table, the
    trump card drawn last, a shown lowest trump); what is still there is ``known & hand``.
    ``bout`` is None once the game is over; ``durak`` is then the loser, or None for a draw.
    ``moves`` counts the actions applied so far. ``acting`` (who may act now, clockwise from
    the primary attacker) follows from the rest; it is kept because every caller asks.
    """

    rules: HouseRules
    dealer: int
    trump: Suit
    trump_card: Card | None
    hands: tuple[int, ...]
    known: tuple[int, ...]
    stock: tuple[Card, ...]
    discard: int
    out: tuple[int, ...]
    bouts_played: int
    bout: Bout | None
    durak: int | None = None
    moves: int = 0
    acting: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def finished(self) -> bool:
        return self.bout is None

    @property
    def is_draw(self) -> bool:
        return self.bout is None and self.durak is None

    def hand(self, seat: int) -> list[Card]:
        return cards_of(self.hands[seat])

    def active(self) -> tuple[int, ...]:
        return tuple(s for s in range(len(self.hands)) if s not in self.out)

    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> GameState:
        return state_from_dict(data)


class StateFormatError(ValueError):
    """A stored state that this version of the engine cannot read."""


def ceiling(rules: HouseRules, bouts_played: int, discard: int) -> int:
    """The most attack cards a bout may hold before the defender's hand is counted (R-LIMIT-3)."""
    if rules.first_bout_limit is FirstBoutLimit.FIRST_BOUT and bouts_played == 0:
        return FIRST_BOUT_CEILING
    if rules.first_bout_limit is FirstBoutLimit.UNTIL_FIRST_BEATEN and discard == 0:
        return FIRST_BOUT_CEILING
    return FULL_CEILING


def next_active(players: int, out: tuple[int, ...], seat: int) -> int:
    """The next player clockwise after ``seat`` who is still in the game (R-START-4)."""
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if candidate not in out:
            return candidate
    raise ValueError("nobody is left in the game")


# Seats clockwise from each seat, per table size: CLOCKWISE[players][start].
MAX_SEATS: Final = 8
CLOCKWISE: Final = tuple(
    tuple(tuple((start + step) % n for step in range(n)) for start in range(n))
    for n in range(MAX_SEATS + 1)
)


def throwers_to_act(hands: tuple[int, ...], bout: Bout) -> list[int]:
    """Throwers who may add a card now: the primary attacker first, the others only once the
    attacker has passed (R-BOUT-6); a thrower with nothing to add is passed (R-BOUT-8)."""
    attacks = bout.attacks
    if not attacks or len(attacks) >= bout.limit:
        return []
    table = bout.table
    allowed = (table | table >> 13 | table >> 26 | table >> 39) & 0x1FFF
    allowed |= allowed << 13 | allowed << 26 | allowed << 39  # ranks on the table, R-BOUT-4
    attacker = bout.attacker
    passed = bout.passed
    if not (passed >> attacker) & 1 and hands[attacker] & allowed:
        return [attacker]
    others = bout.throwers & ~passed & ~(1 << attacker)
    if not others:
        return []
    first_rank = RANK_MASKS[attacks[0] % 13]
    any_rank = bout.any_rank
    return [
        seat
        for seat in CLOCKWISE[len(hands)][attacker]
        if (others >> seat) & 1
        and hands[seat] & (allowed if (any_rank >> seat) & 1 else first_rank)
    ]


def seats_to_act(hands: tuple[int, ...], bout: Bout | None) -> tuple[int, ...]:
    """Who may act: the attacker before the opening, then the defender while a card is
    uncovered and no take is declared, and the throwers of ``throwers_to_act``."""
    if bout is None:
        return ()
    if not bout.attacks:
        return (bout.attacker,)
    throwers = throwers_to_act(hands, bout)
    if bout.taking or None not in bout.covers:
        return tuple(throwers)
    if not throwers:
        return (bout.defender,)
    seats = {*throwers, bout.defender}
    return tuple(s for s in CLOCKWISE[len(hands)][bout.attacker] if s in seats)


def make_bout(
    state_rules: HouseRules,
    players: int,
    out: tuple[int, ...],
    attacker: int,
    defender: int,
    limit: int,
    attacks: tuple[Card, ...] = (),
    covers: tuple[Card | None, ...] = (),
    taking: bool = False,
    passed: int = 0,
) -> Bout:
    """A bout with its derived fields filled in from the seating and ``throw_in`` (R-BOUT-5)."""
    neighbors = 1 << attacker | 1 << next_active(players, out, defender)
    everyone = sum(1 << s for s in range(players) if s not in out) & ~(1 << defender)
    rule = state_rules.throw_in
    throwers = neighbors if rule is ThrowIn.NEIGHBORS else everyone
    any_rank = neighbors if rule is ThrowIn.NEIGHBORS_FIRST_RANK else throwers
    table = mask_of(attacks) | mask_of(c for c in covers if c is not None)
    return Bout(
        attacker, defender, limit, attacks, covers, taking, passed, table, throwers, any_rank
    )


# --- JSON form -------------------------------------------------------------------------


def _cards_text(mask_or_cards: int | tuple[Card, ...]) -> str:
    if isinstance(mask_or_cards, int):
        return format_cards(cards_of(mask_or_cards))
    return format_cards(mask_or_cards)


def _parse_cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def state_to_dict(state: GameState) -> dict[str, Any]:
    """A compact JSON-safe dict: cards as space-separated text such as ``"6S 10H AD"``."""
    data: dict[str, Any] = {
        "v": SCHEMA_VERSION,
        "rules": state.rules.to_dict(),
        "dealer": state.dealer,
        "trump": state.trump.letter,
        "trump_card": None if state.trump_card is None else str(state.trump_card),
        "hands": [_cards_text(h) for h in state.hands],
        "known": [_cards_text(k) for k in state.known],
        "stock": _cards_text(state.stock),
        "discard": _cards_text(state.discard),
        "out": list(state.out),
        "bouts": state.bouts_played,
        "durak": state.durak,
        "moves": state.moves,
    }
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


def state_from_dict(data: dict[str, Any]) -> GameState:
    try:
        version = data["v"]
        if version != SCHEMA_VERSION:
            raise StateFormatError(f"state schema version {version!r} is not {SCHEMA_VERSION}")
        rules = HouseRules.from_dict(data["rules"])
        hands = tuple(sum(1 << c for c in _parse_cards(h)) for h in data["hands"])
        out = tuple(int(s) for s in data["out"])
        bout = None
        if "bout" in data:
            raw = data["bout"]
            covers = tuple(None if t == "-" else Card.parse(t) for t in raw["covers"].split())
            bout = make_bout(
                rules,
                len(hands),
                out,
                int(raw["a"]),
                int(raw["d"]),
                int(raw["limit"]),
                _parse_cards(raw["attacks"]),
                covers,
                bool(raw["taking"]),
                int(raw["passed"]),
            )
        trump_card = data["trump_card"]
        state = GameState(
            rules=rules,
            dealer=int(data["dealer"]),
            trump=Suit.parse(data["trump"]),
            trump_card=None if trump_card is None else Card.parse(trump_card),
            hands=hands,
            known=tuple(mask_of(_parse_cards(k)) for k in data["known"]),
            stock=_parse_cards(data["stock"]),
            discard=mask_of(_parse_cards(data["discard"])),
            out=out,
            bouts_played=int(data["bouts"]),
            bout=bout,
            durak=data["durak"],
            moves=int(data["moves"]),
        )
        return state._replace(acting=seats_to_act(state.hands, state.bout))
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
    "ceiling",
    "make_bout",
    "next_active",
]
