"""What one seat may know: its own hand and everything public at a real table (RULES.md §11).

``public_view`` is what everybody sees (the group's table): card counts, the face-up trump,
the table, the discard size, who acts. ``view_for`` adds one seat's own hand and the cards
that seat saw others take (still in their hands). Neither holds another hand or the stock
order, so whatever is given a view cannot show a hidden card.

The blind family (RULES.md section 14) turns this round where its rules say so: in
``reversed`` a seat sees the others' hands and not its own (R-REV-1), in ``chinese`` no hand
at all (R-CHI-1), in ``doubt`` its own hand and the covers it laid face down (R-DOUBT-2);
a card lying face down on the table is in nobody's view but its owner's (R-DOUBT-5), and
the public view shows every hand as backs.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

from .cards import Card, Suit, cards_of
from .moves import to_act
from .rules import Blind, HouseRules
from .state import GameState


@dataclass(frozen=True, slots=True)
class TableView:
    """The public facts of a game: what every player and onlooker may know.

    Variants: ``trump`` is the trump now (after a Northern change, the bottom card's suit;
    the first face-up card stays ``trump_card``); after an exchange ``trump_card`` is the
    lowest trump lying face up, and the card it replaced is seen in the exchanger's hand
    (``SeatView.seen_in_hands``); a Northern bottom card is never shown before it is
    drawn, then it is seen in the drawer's hand. Partners see nothing of each other's
    hands (R-TEAM-5)."""

    rules: HouseRules
    hand_sizes: tuple[int, ...]
    trump: Suit
    trump_card: Card | None  # face up under the stock, or shown in the dealer's hand
    trump_card_holder: int | None  # who holds the shown trump card, once it left the stock
    stock_size: int
    discard_size: int
    table: tuple[tuple[Card, Card | None], ...]  # (attack, cover or None), in play order
    attacker: int | None
    defender: int | None
    limit: int | None
    taking: bool
    passed: tuple[int, ...]
    to_act: tuple[int, ...]
    out: tuple[int, ...]  # in the order they left: their finishing places
    dealer: int
    bouts_played: int
    finished: bool
    durak: int | None
    moves: int
    # The variants (RULES.md section 13).
    teams: tuple[tuple[int, ...], ...]  # R-TEAM-1, in seat order; () without teams
    losing_team: tuple[int, ...] | None  # R-TEAM-4, once the game is over
    game_number: int
    trump_card_in_stock: bool  # the face-up card still lies under the stock
    bottom_card_hidden: bool  # Northern: the trump may still change (R-TRUMP-3)
    exchange_open: bool  # R-SIX-1: the lowest trump may still be exchanged
    epaulette_attack: bool  # the bout on the table can only be taken (R-POG-2)
    took_epaulettes: tuple[int, ...]  # seats that took a strict epaulette attack
    epaulettes: bool  # the game is over and the durak is "with epaulettes"
    # Per seat: cards it was seen not to play when it might have, since it last drew (a take
    # while they would have covered, a bout closed without them thrown in; ``Position``).
    declined: tuple[tuple[Card, ...], ...]
    # The blind family (RULES.md section 14); (), False, 0 in the open game.
    # Per seat, its row of slots as this viewer sees it (R-BLIND-2): a card, or None for a
    # back. The public view: backs only.
    rows: tuple[tuple[Card | None, ...], ...]
    face_down_attack: bool  # ``chinese``: the opening lies face down, not in ``table``
    # ``doubt``: the pairs of ``table`` (indices) whose cover lies face down; their cover
    # shows None but to the defender who laid it.
    face_down_covers: tuple[int, ...]
    misplays: int  # R-REV-3, so far
    # ``doubt``, per seat: how often its covers were turned up after «не верю», and how often
    # one of them then did not beat (caught bluffing), R-DOUBT-3. Covers believed are never
    # seen (R-DOUBT-5) and count in neither.
    doubted: tuple[int, ...]
    caught: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @property
    def attacks(self) -> tuple[Card, ...]:
        return tuple(attack for attack, _ in self.table)

    @property
    def all_covered(self) -> bool:
        """Every attack card on the table is covered, face up or down (True for an empty
        table)."""
        down = self.face_down_covers
        return all(c is not None or i in down for i, (_, c) in enumerate(self.table))

    @property
    def blind(self) -> bool:
        """A game of the blind family (RULES.md section 14)."""
        return bool(self.rows)


_PUBLIC_FIELDS: Final = tuple(f.name for f in fields(TableView))


@dataclass(frozen=True, slots=True)
class SeatView(TableView):
    """The public facts, and what ``seat`` knows besides: its hand, cards seen taken."""

    seat: int
    hand: tuple[Card, ...]  # () when the seat may not see it (``reversed``, ``chinese``)
    seen_in_hands: tuple[tuple[Card, ...], ...]  # per seat: cards known to be there
    # A hand the seat may not see: per slot, the card it saw go there (taken from the
    # table, shown as the lowest trump), else None. What a perfect memory holds: computer
    # players use it (R-BLIND-6); a person's page shows backs (R-CHI-1).
    remembered: tuple[Card | None, ...] = ()


# The last state asked about, its view and the view's fields by name: a move's pages (one
# per seat) and the group's table all ask about the same state, which never changes
# (``GameState``), one after another.
_last: tuple[GameState, TableView, dict[str, Any]] | None = None


def public_view(state: GameState) -> TableView:
    return _public(state)[1]


def _public(state: GameState) -> tuple[GameState, TableView, dict[str, Any]]:
    """``state``, its public view and that view's fields by name (for ``view_for``)."""
    global _last  # noqa: PLW0603 (a cache of one, for a pure function of an immutable value)
    last = _last
    if last is not None and last[0] is state:
        return last
    view = _public_view(state)
    last = _last = (state, view, {name: getattr(view, name) for name in _PUBLIC_FIELDS})
    return last


def _public_view(state: GameState) -> TableView:
    bout = state.bout
    down = state.face_down
    pairs: tuple[tuple[Card, Card | None], ...] = () if bout is None else bout.pairs
    if down:  # R-CHI-2, R-DOUBT-2: face down, in nobody's public view
        pairs = tuple(
            (attack, None if cover is None or down >> cover & 1 else cover)
            for attack, cover in pairs
            if not down >> attack & 1
        )
    holder = None
    if state.trump_card is not None and not state.trump_card_in_stock:
        holder = next(
            (s for s, h in enumerate(state.known) if (h & state.hands[s]) >> state.trump_card & 1),
            None,
        )
    return TableView(
        rules=state.rules,
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        trump=state.trump,
        trump_card=state.trump_card,
        trump_card_holder=holder,
        stock_size=len(state.stock),
        discard_size=state.discard.bit_count(),
        table=pairs,
        attacker=None if bout is None else bout.attacker,
        defender=None if bout is None else bout.defender,
        limit=None if bout is None else bout.limit,
        taking=False if bout is None else bout.taking,
        passed=()
        if bout is None
        else tuple(s for s in range(state.players) if bout.passed >> s & 1),
        to_act=to_act(state),
        out=state.out,
        dealer=state.dealer,
        bouts_played=state.bouts_played,
        finished=state.finished,
        durak=state.durak,
        moves=state.moves,
        teams=state.teams,
        losing_team=state.losing_team,
        game_number=state.game_number,
        trump_card_in_stock=state.trump_card_in_stock,
        bottom_card_hidden=state.bottom_card_hidden,
        exchange_open=state.exchange_open,
        epaulette_attack=state.epaulette_attack,
        took_epaulettes=state.took_epaulettes,
        epaulettes=state.epaulettes,
        declined=tuple(tuple(cards_of(mask)) for mask in state.declined),
        rows=tuple((None,) * len(row) for row in state.rows),
        face_down_attack=bout is not None and any(down >> a & 1 for a in bout.attacks),
        face_down_covers=()
        if bout is None
        else tuple(i for i, c in enumerate(bout.covers) if c is not None and down >> c & 1),
        misplays=state.misplays,
        doubted=state.doubted,
        caught=state.caught,
    )


def view_for(state: GameState, seat: int) -> SeatView:
    public = _public(state)[2]
    seen_in_hands = tuple(
        () if s == seat or not k & h else tuple(cards_of(k & h))
        for s, (k, h) in enumerate(zip(state.known, state.hands, strict=True))
    )
    if not state.slots:
        hand = tuple(cards_of(state.hands[seat]))
        return SeatView(**public, seat=seat, hand=hand, seen_in_hands=seen_in_hands)
    return _blind_view(state, seat, public, seen_in_hands)


def _blind_view(
    state: GameState,
    seat: int,
    public: dict[str, Any],
    seen_in_hands: tuple[tuple[Card, ...], ...],
) -> SeatView:
    """``view_for`` in the blind family (R-REV-1, R-CHI-1, R-DOUBT-1/2)."""
    blind = state.rules.blind
    rows = state.rows
    fields_ = dict(public)
    if blind is Blind.REVERSED:
        fields_["rows"] = tuple(
            (None,) * len(row) if s == seat else row for s, row in enumerate(rows)
        )
    bout = state.bout
    if blind is Blind.DOUBT and bout is not None and seat == bout.defender:
        fields_["table"] = bout.pairs  # the covers it laid (R-DOUBT-2)
    sees_hand = blind is Blind.DOUBT
    known = state.known[seat]
    return SeatView(
        **fields_,
        seat=seat,
        hand=tuple(cards_of(state.hands[seat])) if sees_hand else (),
        seen_in_hands=seen_in_hands,
        remembered=() if sees_hand else tuple(c if known >> c & 1 else None for c in rows[seat]),
    )
