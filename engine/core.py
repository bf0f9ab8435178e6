"""The rules, once: a game position as a few ints and lists, changed in place.

Every rule of RULES.md that decides play lives here, and only here: who may act
(``acting_mask``), what they may do (``legal``), and what an action does, with everything
that follows from it without anybody choosing (``apply``: automatic passes, closing the
bout, drawing, exits, the next bout). The public API (``engine.apply``, ``legal_actions``,
``GameState``) and the search API (``engine.search``) are both built on this class.

Why it looks like this: random games and computer players apply millions of actions, and
what costs time in Python is making objects, not arithmetic. So hands, the table and the
cards seen taken are int masks (bit ``card`` set), the stock is a list popped from its end,
an action is one int (``kind | seat << 3 | payload << 6``, see ``engine.codes``), and
``apply`` changes the position in place and trusts its input: only actions that ``legal``
lists may be applied. Masks and codes stay under 62 bits, so that mypyc, which compiles
this module when a C compiler is there, keeps them as machine ints.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from random import Random
from typing import Any, Final

from .cards import BEATERS, CARDS, RANK_MASKS, Card
from .events import (
    Answered,
    Attacked,
    BeatenOff,
    Believed,
    BoutStarted,
    Covered,
    DeclaredTake,
    Doubted,
    Drew,
    Epaulettes,
    Event,
    Exchanged,
    GameOver,
    LaidFaceDown,
    Misplayed,
    Passed,
    PlayerOut,
    Resigned,
    ThrewIn,
    Took,
    Transferred,
    TrumpChanged,
)
from .rules import Blind, FirstBoutLimit, HouseRules, Pogony, ThrowIn, TopCard, TrumpChoice

# Action kinds: the low three bits of an action code (engine.codes).
ATTACK: Final = 0
THROW: Final = 1
DEFEND: Final = 2
TAKE: Final = 3
PASS: Final = 4
TRANSFER: Final = 5
EXCHANGE: Final = 6  # R-SIX: the lowest trump for the face-up trump card
BLIND: Final = 7  # the blind family: a play by slot, or a judgment (payload below)

# A BLIND payload: ``what | slot << 3 | on << 9``; ``slot`` from 0 here (from 1 in
# ``engine.actions``), ``on`` the attack card covered, NO_CARD when none is named.
SLOT_ATTACK: Final = 0
SLOT_THROW: Final = 1
SLOT_DEFEND: Final = 2
BELIEVE: Final = 3
DOUBT: Final = 4
NO_CARD: Final = 63

HAND_SIZE: Final = 6
FULL_CEILING: Final = 6
FIRST_BOUT_CEILING: Final = 5

# House rules as small ints (``Position.throw_in``, ``Position.first_bout_limit``).
NEIGHBORS: Final = 0
ALL: Final = 1
NEIGHBORS_FIRST_RANK: Final = 2
LIMIT_NONE: Final = 0
LIMIT_FIRST_BOUT: Final = 1
LIMIT_UNTIL_FIRST_BEATEN: Final = 2

_THROW_IN: Final = {ThrowIn.NEIGHBORS: 0, ThrowIn.ALL: 1, ThrowIn.NEIGHBORS_FIRST_RANK: 2}
_FIRST_BOUT_LIMIT: Final = {
    FirstBoutLimit.NONE: 0,
    FirstBoutLimit.FIRST_BOUT: 1,
    FirstBoutLimit.UNTIL_FIRST_BEATEN: 2,
}

# ``trump`` (R-TRUMP), ``top_card`` (R-TOP), ``pogony`` (R-POG) as small ints (``Variant``).
TURNED: Final = 0
DEALER: Final = 1
JAPANESE: Final = 2
NORTHERN: Final = 3
_TRUMP_CHOICE: Final = {
    TrumpChoice.TURNED: 0,
    TrumpChoice.DEALER: 1,
    TrumpChoice.JAPANESE: 2,
    TrumpChoice.NORTHERN: 3,
}
TOP_NONE: Final = 0
TOP_QUEEN_OF_SPADES: Final = 1
TOP_QUEEN_OF_HEARTS: Final = 2
_TOP_CARD: Final = {TopCard.OFF: 0, TopCard.QUEEN_OF_SPADES: 1, TopCard.QUEEN_OF_HEARTS: 2}
POGONY_OFF: Final = 0
POGONY_TITLE: Final = 1
POGONY_STRICT: Final = 2
_POGONY: Final = {Pogony.OFF: 0, Pogony.TITLE: 1, Pogony.STRICT: 2}
BLIND_OFF: Final = 0
BLIND_REVERSED: Final = 1
BLIND_CHINESE: Final = 2
BLIND_DOUBT: Final = 3
_BLIND: Final = {Blind.OFF: 0, Blind.REVERSED: 1, Blind.CHINESE: 2, Blind.DOUBT: 3}
QUEEN_OF_SPADES: Final = 10  # Q♠ as a card number (suit 0, rank 10)
QUEEN_OF_HEARTS: Final = 23  # Q♥ (suit 1, rank 10)
DIAMONDS: Final = 2  # the suit of Japanese trumps (R-TRUMP-2)
_LOWEST_RANK: Final = {52: 0, 36: 4, 24: 7}

# ``Position.epaulettes``, every public fact of R-POG in one int: the seats that took a
# strict epaulette attack (bits 0..7); the bout on the table was opened by a ``title``
# opening, and by whom; the bout on the table is a ``strict`` epaulette attack; the game's
# durak is "with epaulettes".
EP_TOOK: Final = 0xFF
EP_TITLE: Final = 1 << 8
EP_OPENER_SHIFT: Final = 9
EP_BOUT: Final = 1 << 12
EP_RESULT: Final = 1 << 13
EP_THIS_BOUT: Final = EP_TITLE | 7 << EP_OPENER_SHIFT | EP_BOUT

# Events are named tuples; made like this they cost no Python-level constructor call.
_event: Final[Callable[[type, tuple[object, ...]], Any]] = tuple.__new__

# Copies of the card tables as this module's own constants: compiled, they are C arrays
# rather than lookups in another module.
_BEATERS: Final[tuple[tuple[int, ...], ...]] = BEATERS
_CARDS: Final[tuple[Card, ...]] = CARDS
_RANK_MASKS: Final[tuple[int, ...]] = RANK_MASKS
_RANK_BITS: Final = 0x1FFF
_NO_BEATERS: Final[tuple[int, ...]] = (0,) * 52  # a strict epaulette attack (R-POG-2)

# ``Position.shared``: the lists that change only when a bout ends are shared between a
# position and its copies until one of them changes them (most actions change neither).
SHARED_STOCK: Final = 1
SHARED_KNOWN: Final = 2
SHARED_OUT: Final = 4
SHARED_DECLINED: Final = 8
SHARED_ALL: Final = 15


def lowest_card(mask: int) -> int:
    """The lowest card of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def ranks_on(mask: int) -> int:
    """Every card sharing a rank with some card of ``mask`` (R-BOUT-4)."""
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & _RANK_BITS
    return ranks | ranks << 13 | ranks << 26 | ranks << 39


# Every non-empty set of at most ``most`` cards of a mask, as action codes of one kind and
# seat, smallest sets first and each size in card order (as itertools.combinations lists
# them). Openings are sets of one rank and throw-ins sets of the few ranks on the table, so
# the same few masks come up again and again: each list is built once.
_CARD_SETS: Final[dict[int, list[int]]] = {}
_CARD_SETS_MAX: Final = 100_000


def card_sets(kind: int, seat: int, mask: int, most: int) -> list[int]:
    """The cached codes; callers copy, never change, the list."""
    key = mask | most << 52 | seat << 55 | kind << 58
    codes = _CARD_SETS.get(key)
    if codes is None:
        cards: list[int] = []
        rest = mask
        while rest:
            card = lowest_card(rest)
            cards.append(card)
            rest &= rest - 1
        codes = []
        head = kind | seat << 3
        for size in range(1, min(most, len(cards)) + 1):
            for combo in combinations(cards, size):
                chosen = 0
                for card in combo:
                    chosen |= 1 << card
                codes.append(head | chosen << 6)
        if len(_CARD_SETS) >= _CARD_SETS_MAX:
            _CARD_SETS.clear()
        _CARD_SETS[key] = codes
    return codes


_BEATER_TABLES: Final[dict[int, tuple[int, ...]]] = {}


def beaters_table(trump: int, mode: int, top: int) -> tuple[int, ...]:
    """Per card, the mask of the cards that beat it (R-BOUT-2), with the variants that
    change it: ``japanese`` (a spade only by a higher spade, R-TRUMP-2), the queen of spades
    that beats everything and nothing beats (R-TOP-1), the queen of hearts above every
    trump (R-TOP-2; under ``japanese`` still never on a spade, R-VAR-6). Cached."""
    key = trump | mode << 2 | top << 4
    table = _BEATER_TABLES.get(key)
    if table is None:
        beaters = list(_BEATERS[trump])
        if mode == JAPANESE:
            for card in range(13):  # the spades
                beaters[card] = _RANK_BITS & ~((2 << card) - 1)  # the higher spades
        if top == TOP_QUEEN_OF_SPADES:
            for card in range(52):
                beaters[card] |= 1 << QUEEN_OF_SPADES
            beaters[QUEEN_OF_SPADES] = 0
        elif top == TOP_QUEEN_OF_HEARTS:
            for card in range(52):
                if not (mode == JAPANESE and card < 13):
                    beaters[card] |= 1 << QUEEN_OF_HEARTS
            beaters[QUEEN_OF_HEARTS] = 0
        table = _BEATER_TABLES[key] = tuple(beaters)
    return table


def rules_beaters(rules: HouseRules, trump: int) -> tuple[int, ...]:
    """``beaters_table`` for a table's house rules and the trump suit now."""
    return beaters_table(trump, _TRUMP_CHOICE[rules.trump], _TOP_CARD[rules.top_card])


def top_queen(rules: HouseRules) -> int:
    """The queen of ``top_card`` that stands above the trumps (R-TOP), or -1."""
    top = _TOP_CARD[rules.top_card]
    if top == TOP_QUEEN_OF_SPADES:
        return QUEEN_OF_SPADES
    return QUEEN_OF_HEARTS if top == TOP_QUEEN_OF_HEARTS else -1


class Variant:
    """What a game's house rules of section 13 fix for the whole game, shared by every
    copy of its position: the teams as seat masks (``team[s]``: s and its partners; just s
    without teams, R-TEAM-1), the trump choice, the top card, epaulettes and their rank
    (R-POG-2, from ``game_number``), the deck's lowest rank (R-SIX-1), R-TR-4, the blind
    family (section 14)."""

    __slots__ = (
        "blind",
        "ep_rank",
        "game_number",
        "lowest",
        "mode",
        "pogony",
        "queen_of_hearts",
        "team",
        "teams",
        "top",
        "transfer_first_bout",
    )

    team: list[int]
    teams: bool
    mode: int
    top: int
    queen_of_hearts: int  # Q♥ when it blocks throw-ins (R-TOP-2), else -1
    pogony: int
    ep_rank: int
    lowest: int
    game_number: int
    transfer_first_bout: bool
    blind: int

    def __init__(self, rules: HouseRules, players: int, game_number: int) -> None:
        self.team = list(rules.team_of(players))
        self.teams = any(mask & (mask - 1) for mask in self.team)  # a seat with partners
        self.mode = _TRUMP_CHOICE[rules.trump]
        self.top = _TOP_CARD[rules.top_card]
        self.queen_of_hearts = QUEEN_OF_HEARTS if self.top == TOP_QUEEN_OF_HEARTS else -1
        self.pogony = _POGONY[rules.pogony]
        self.lowest = _LOWEST_RANK[rules.deck]
        ranks = 13 - self.lowest
        self.ep_rank = self.lowest + (game_number - 1) % ranks  # R-VAR-7
        self.game_number = game_number
        self.transfer_first_bout = rules.transfer_first_bout or not rules.transfer
        self.blind = _BLIND[rules.blind]


class Position:
    """One game at one moment. Seats are 0..players-1 clockwise.

    ``stock`` holds the stock bottom first: ``stock[0]`` is the face-up trump card and the
    next card drawn is ``stock[-1]``. ``out`` lists the players who left the game in the
    order they left (their places); ``out_mask`` holds the same seats as bits. The bout:
    ``attacks[i]`` is covered by ``covers[i]`` (-1: not covered); ``uncovered`` and
    ``table`` are masks of the uncovered attack cards and of every card on the table;
    ``passed`` the seats that passed since the table last changed (R-BOUT-7); ``throwers``
    those who may add cards to this bout (R-BOUT-5) and ``any_rank`` those of them who may
    add any rank on the table (not the others under ``neighbors_first_rank``). Once the game
    is over ``finished`` is set, the bout is empty and ``durak`` is the loser (-1: a draw).

    The variants (RULES.md section 13): ``variant`` holds what is fixed for the game;
    ``beaters`` the table of what beats what now (it changes with a Northern trump and
    for a strict epaulette attack); ``six`` the lowest trump while it may still be
    exchanged for the face-up trump card (R-SIX-1; -1 otherwise); ``north`` the face-down
    bottom card of a Northern stock until it is drawn (R-TRUMP-3; -1 otherwise; the
    face-up ``trump_card`` then lies above it, ``stock[1]``); ``epaulettes`` the EP_* bits.

    ``declined``: per seat, the cards everybody saw it not play when it might have, since
    it last drew: a defender who declared a take could have covered an uncovered card with
    any card that beats it; a thrower (R-BOUT-5) at the close of a bout with room left on
    the table played no card of the ranks there (it passed or had none, R-BOUT-8). Public
    evidence about a hidden hand, for computer players to weigh (``engine.ai.worlds``);
    the rules never read it.

    The blind family (RULES.md section 14; ``blind`` one of the BLIND_* values, 0 for the
    open game): ``rows`` holds each hand in slot order (R-BLIND-2; ``[]`` in the open
    game), always the same cards as ``hands``; ``hidden`` the cards on the table lying
    face down (a ``chinese`` opening, ``doubt`` covers); ``unseen`` the covers discarded
    unseen after «верю» (R-DOUBT-5); ``misplays`` the wrong plays so far (R-REV-3);
    ``doubted`` and ``caught``, per seat, how often its covers were turned up after «не
    верю» and how often one of them then failed to beat (R-DOUBT-3): public evidence of how
    that seat bluffs, for computer players to weigh (``engine.ai.blind``); the rules never
    read them, and covers believed (never seen) count in neither. Both lists are replaced,
    never changed in place, so copies share them. A blind game's actions go through
    ``apply_blind``, its legal ones come from ``add_blind_legal``: the open game's hot
    paths only test ``blind``.

    ``log``: when it is a list, ``apply`` appends the events of ``engine.events`` to it (the
    public API narrates them); searches leave it None and pay nothing for them.
    """

    # Plain Python reads and writes slots faster than a __dict__ (mypyc ignores this).
    __slots__ = (
        "acting",
        "any_rank",
        "attacker",
        "attacks",
        "beaters",
        "blind",
        "bouts_played",
        "caught",
        "covers",
        "dealer",
        "declined",
        "defender",
        "discard",
        "doubted",
        "durak",
        "epaulettes",
        "finished",
        "first_bout_limit",
        "hands",
        "hidden",
        "known",
        "limit",
        "log",
        "misplays",
        "moves",
        "north",
        "out",
        "out_mask",
        "passed",
        "players",
        "rows",
        "rules",
        "shared",
        "six",
        "stock",
        "table",
        "table_ranks",
        "taking",
        "throw_in",
        "throwers",
        "transfer",
        "trump",
        "trump_card",
        "uncovered",
        "unseen",
        "variant",
    )

    rules: HouseRules
    players: int
    throw_in: int
    first_bout_limit: int
    transfer: bool
    dealer: int
    trump: int
    trump_card: int  # -1: none (the deal used the whole deck and a card is shown instead)
    hands: list[int]
    known: list[int]  # per seat, cards everybody saw go into that hand (R-DEAL-4, R-START-1...)
    declined: list[int]  # per seat, cards it was seen not to play when it could have (below)
    stock: list[int]
    discard: int
    out: list[int]
    out_mask: int
    bouts_played: int
    moves: int
    finished: bool
    durak: int
    attacker: int
    defender: int
    limit: int
    attacks: list[int]
    covers: list[int]
    uncovered: int
    table: int
    table_ranks: int  # every card of a rank on the table (R-BOUT-4), kept with ``table``
    taking: bool
    passed: int
    throwers: int
    any_rank: int
    acting: int  # who may act now, as seat bits (``acting_mask``)
    shared: int  # SHARED_* bits: lists another copy holds too; copied before they change
    log: list[Event] | None
    variant: Variant
    beaters: tuple[int, ...]
    six: int
    north: int
    epaulettes: int
    blind: int
    rows: list[list[int]]
    hidden: int
    unseen: int
    misplays: int
    doubted: list[int]  # per seat: judgments that turned its covers up (R-DOUBT-3)
    caught: list[int]  # per seat: of those, the ones with a cover that did not beat

    def __init__(
        self,
        rules: HouseRules,
        players: int,
        throw_in: int,
        first_bout_limit: int,
        transfer: bool,
        variant: Variant,
    ) -> None:
        """An empty table; ``new`` and ``copy`` fill it in."""
        self.rules = rules
        self.players = players
        self.throw_in = throw_in
        self.first_bout_limit = first_bout_limit
        self.transfer = transfer
        self.variant = variant
        self.blind = variant.blind
        self.log = None

    @staticmethod
    def new(
        rules: HouseRules,
        dealer: int,
        trump: int,
        trump_card: int,
        hands: list[int],
        known: list[int],
        stock_top_first: list[int],
        discard: int,
        out: list[int],
        bouts_played: int,
        game_number: int = 1,
        epaulettes: int = 0,
        declined: list[int] | None = None,
        rows: list[list[int]] | None = None,
    ) -> Position:
        """A position between bouts, before anybody chose the next bout's attacker: call
        ``begin`` next (or set the bout's fields, as a stored state does).

        Northern (R-TRUMP-3): while the stock is not empty its last card (top first) is the
        face-down bottom card, and ``trump`` the suit of the face-up card above it. The
        blind family: ``rows``, each hand in slot order (R-BLIND-2); left out, in card
        order."""
        variant = Variant(rules, len(hands), game_number)
        position = Position(
            rules,
            len(hands),
            _THROW_IN[rules.throw_in],
            _FIRST_BOUT_LIMIT[rules.first_bout_limit],
            rules.transfer,
            variant,
        )
        position.dealer = dealer
        position.trump = trump
        position.trump_card = trump_card
        position.hands = hands
        position.known = known
        if declined is not None and len(declined) != len(hands):
            raise ValueError("declined cards are not given for every seat")
        position.declined = [0] * len(hands) if declined is None else declined
        stock = position.stock = stock_top_first[::-1]
        position.north = stock[0] if variant.mode == NORTHERN and stock else -1
        position.six = -1
        if rules.trump_six_exchange and trump_card >= 0 and stock and stock[0] == trump_card:
            six = trump * 13 + variant.lowest
            if six != trump_card:
                position.six = six
        position.epaulettes = epaulettes
        if not variant.blind:
            position.rows = []
        elif rows is None:
            position.rows = [[c for c in range(52) if (hand >> c) & 1] for hand in hands]
        else:
            position.rows = rows
        position.hidden = 0
        position.unseen = 0
        position.misplays = 0
        position.doubted = [0] * len(hands)
        position.caught = [0] * len(hands)
        position.set_beaters()
        position.shared = 0
        position.discard = discard
        position.out = out
        out_mask = 0
        for seat in out:
            out_mask |= 1 << seat
        position.out_mask = out_mask
        position.bouts_played = bouts_played
        position.moves = 0
        position.finished = False
        position.durak = -1
        position.clear_bout()
        return position

    def copy(self) -> Position:
        """An independent copy (without the event log)."""
        other = Position(
            self.rules,
            self.players,
            self.throw_in,
            self.first_bout_limit,
            self.transfer,
            self.variant,
        )
        other.beaters = self.beaters
        other.six = self.six
        other.north = self.north
        other.epaulettes = self.epaulettes
        other.rows = [row[:] for row in self.rows] if self.blind else self.rows
        other.hidden = self.hidden
        other.unseen = self.unseen
        other.misplays = self.misplays
        other.doubted = self.doubted  # shared: ``judge`` replaces them, never changes them
        other.caught = self.caught
        other.dealer = self.dealer
        other.trump = self.trump
        other.trump_card = self.trump_card
        other.hands = self.hands[:]
        other.known = self.known
        other.declined = self.declined
        other.stock = self.stock
        other.discard = self.discard
        other.out = self.out
        other.shared = self.shared = SHARED_ALL
        other.out_mask = self.out_mask
        other.bouts_played = self.bouts_played
        other.moves = self.moves
        other.finished = self.finished
        other.durak = self.durak
        other.attacker = self.attacker
        other.defender = self.defender
        other.limit = self.limit
        other.attacks = self.attacks[:]
        other.covers = self.covers[:]
        other.uncovered = self.uncovered
        other.table = self.table
        other.table_ranks = self.table_ranks
        other.taking = self.taking
        other.passed = self.passed
        other.throwers = self.throwers
        other.any_rank = self.any_rank
        other.acting = self.acting
        return other

    def set_beaters(self) -> None:
        """``beaters`` from the trump and the variant (none for a strict epaulette attack)."""
        variant = self.variant
        if self.epaulettes & EP_BOUT:
            self.beaters = _NO_BEATERS
        else:
            self.beaters = beaters_table(self.trump, variant.mode, variant.top)

    # --- seating ----------------------------------------------------------------------

    def next_active(self, seat: int) -> int:
        """The next player clockwise after ``seat`` still in the game (R-START-4); -1 if
        there is none."""
        return self.next_seat(seat, self.out_mask)

    def next_opponent(self, seat: int) -> int:
        """The next player clockwise after ``seat`` still in the game and not on its team
        (R-TEAM-2); -1 if there is none."""
        return self.next_seat(seat, self.out_mask | self.variant.team[seat])

    def next_defender(self, seat: int) -> int:
        """Whom ``seat`` attacks, or passes a transfer to: its next opponent with teams
        (R-TEAM-2, R-VAR-2), else the next active player (R-START-4, R-TR-1)."""
        if self.variant.teams:
            return self.next_opponent(seat)
        return self.next_seat(seat, self.out_mask)

    def next_seat(self, seat: int, skip: int) -> int:
        """The first seat clockwise after ``seat`` not in the ``skip`` mask; -1 if none."""
        players = self.players
        for _ in range(players):
            seat += 1
            if seat == players:
                seat = 0
            if not (skip >> seat) & 1:
                return seat
        return -1

    def stand_in(self, seat: int) -> int:
        """Who attacks when the turn passes to ``seat`` (R-TEAM-3, R-VAR-2, and R-END-4
        without teams): its player if still in; else the first active partner clockwise
        from the seat; if the whole team is out, the same for the next seat clockwise."""
        players = self.players
        active = ((1 << players) - 1) & ~self.out_mask
        team = self.variant.team
        for step in range(players):
            at = (seat + step) % players
            here = team[at] & active
            if here:
                for k in range(players):
                    candidate = (at + k) % players
                    if (here >> candidate) & 1:
                        return candidate
        return -1

    def decided(self) -> bool:
        """At most one team (one player, without teams) is still in the game (R-OUT-4,
        R-TEAM-4)."""
        active = ((1 << self.players) - 1) & ~self.out_mask
        if not active:
            return True
        first = (active & -active).bit_length() - 1
        return not active & ~self.variant.team[first]

    def ceiling(self) -> int:
        """The most attack cards before the defender's hand is counted (R-LIMIT-3)."""
        rule = self.first_bout_limit
        if rule == LIMIT_FIRST_BOUT and self.bouts_played == 0:
            return FIRST_BOUT_CEILING
        if rule == LIMIT_UNTIL_FIRST_BEATEN and self.discard == 0:
            return FIRST_BOUT_CEILING
        return FULL_CEILING

    def seat_throwers(self) -> None:
        """Who may add cards to the bout of ``attacker`` on ``defender`` (R-BOUT-5)."""
        defender = self.defender
        if self.variant.teams:  # R-TEAM-2: only the defender's opponents
            neighbors = 1 << self.attacker | 1 << self.next_opponent(defender)
            partners = self.variant.team[defender]
        else:
            neighbors = 1 << self.attacker | 1 << self.next_active(defender)
            partners = 1 << defender
        everyone = ((1 << self.players) - 1) & ~self.out_mask & ~partners
        throwers = neighbors if self.throw_in == NEIGHBORS else everyone
        if self.blind >= BLIND_CHINESE:
            throwers = neighbors = 0  # R-CHI-2, R-DOUBT-1: nobody throws in
        self.throwers = throwers
        self.any_rank = neighbors if self.throw_in == NEIGHBORS_FIRST_RANK else throwers

    def begin(self, attacker: int) -> None:
        """Start the game's next bout with ``attacker`` (or the next active player after
        them), or end the game if at most one player is left (R-OUT-4)."""
        if self.decided():
            self.end_game()
            return
        self.start_bout(attacker)

    def start_bout(self, attacker: int) -> None:
        if self.epaulettes & EP_THIS_BOUT:
            bout_ep = self.epaulettes & EP_BOUT
            self.epaulettes &= ~EP_THIS_BOUT
            if bout_ep:
                self.set_beaters()
        if self.variant.teams:
            attacker = self.stand_in(attacker)  # R-TEAM-3
        elif (self.out_mask >> attacker) & 1:
            attacker = self.next_active(attacker)  # R-END-4
        defender = self.next_defender(attacker)
        self.attacker = attacker
        self.defender = defender
        self.limit = min(self.ceiling(), self.hands[defender].bit_count())  # R-LIMIT-1/2
        if self.blind == BLIND_CHINESE:
            self.limit = 1  # R-CHI-2: one attack, one answer
        self.attacks = []
        self.covers = []
        self.uncovered = 0
        self.table = 0
        self.table_ranks = 0
        self.taking = False
        self.passed = 0
        self.seat_throwers()
        self.acting = 1 << attacker

    # --- who may act ------------------------------------------------------------------

    def thrower_mask(self) -> int:
        """Throwers who may add a card now: the primary attacker first, the others only once
        the attacker has passed (R-BOUT-6); one with nothing to add is passed (R-BOUT-8)."""
        count = len(self.attacks)
        if count == 0 or count >= self.limit:
            return 0
        if self.blind:
            return self.blind_throwers()
        allowed = self.table_ranks  # R-BOUT-4
        attacker = self.attacker
        passed = self.passed
        hands = self.hands
        if not (passed >> attacker) & 1 and hands[attacker] & allowed:
            return 1 << attacker
        others = self.throwers & ~passed & ~(1 << attacker)
        if not others:
            return 0
        first_rank = _RANK_MASKS[self.attacks[0] % 13]
        any_rank = self.any_rank
        acting = 0
        while others:
            bit = others & -others
            seat = bit.bit_length() - 1
            if hands[seat] & (allowed if any_rank & bit else first_rank):
                acting |= bit
            others ^= bit
        return acting

    def acting_mask(self) -> int:
        """Who may act, as seat bits: the attacker before the opening, then the defender
        while a card is uncovered and no take is declared, and the throwers. Kept in
        ``acting`` by every change; a position built field by field calls this."""
        if self.finished:
            acting = 0
        elif not self.attacks:
            acting = 1 << self.attacker
        elif self.taking or not self.uncovered:
            if self.blind == BLIND_DOUBT and not self.taking:
                acting = 1 << self.attacker  # R-DOUBT-3: every card covered, to judge
            else:
                acting = self.thrower_mask()
        else:
            acting = self.thrower_mask() | 1 << self.defender
        self.acting = acting
        return acting

    def to_act(self) -> list[int]:
        """The seats who may act now, clockwise from the primary attacker."""
        mask = self.acting
        seats: list[int] = []
        seat = self.attacker
        players = self.players
        while mask:
            if (mask >> seat) & 1:
                seats.append(seat)
                mask ^= 1 << seat
            seat += 1
            if seat == players:
                seat = 0
        return seats

    # --- what they may do -------------------------------------------------------------

    def legal(self, seat: int = -1) -> list[int]:
        """The codes of every legal action of ``seat`` (of every seat in ``to_act`` order
        when -1); empty for a seat that may not act. Openings come by rank, then covers in
        table order, take, transfers; throw-ins, then pass."""
        codes: list[int] = []
        if seat < 0:
            for each in self.to_act():
                self.add_legal(each, codes)
        elif 0 <= seat < self.players and (self.acting >> seat) & 1:
            self.add_legal(seat, codes)
        return codes

    def add_legal(self, seat: int, codes: list[int]) -> None:
        """Append the codes of ``seat``'s legal actions; ``seat`` must be one who acts now.

        The hottest function of every search, so its helpers are written out inline: a
        function call costs more than the arithmetic in plain Python."""
        if self.blind:
            self.add_blind_legal(seat, codes)
            return
        hand = self.hands[seat]
        six = self.six
        if six >= 0 and (hand >> six) & 1 and len(self.stock) >= 2:  # R-SIX-1, R-VAR-4
            codes.append(EXCHANGE | seat << 3)
        attacks = self.attacks
        if not attacks:
            self.add_openings(seat, hand, codes)
            if (
                self.variant.pogony == POGONY_STRICT
                and hand.bit_count() > self.limit
                and not self.stock
                and not hand & ~_RANK_MASKS[self.variant.ep_rank]
            ):
                codes.append(ATTACK | seat << 3 | hand << 6)  # R-POG-2: over the limit
            return
        if seat == self.defender:
            beaters = self.beaters  # R-BOUT-2, R-BOUT-3, R-TRUMP-2, R-TOP
            head = DEFEND | seat << 3
            covers = self.covers
            for index in range(len(attacks)):  # (zip() is a generic call once compiled)
                if covers[index] < 0:
                    attack = attacks[index]
                    able = hand & beaters[attack]
                    while able:
                        low = able & -able
                        codes.append(head | (low.bit_length() - 1 | attack << 6) << 6)
                        able ^= low
            codes.append(TAKE | seat << 3)  # R-BOUT-9
            # R-TR-1: the cheap test first, as nothing covered yet is the rare case
            if self.transfer and self.table == self.uncovered and self.transfer_target() >= 0:
                head = TRANSFER | seat << 3
                same = hand & _RANK_MASKS[attacks[0] % 13]
                while same:
                    low = same & -same
                    codes.append(head | (low.bit_length() - 1) << 6)
                    same ^= low
            return
        if (self.any_rank >> seat) & 1:  # R-BOUT-4, R-BOUT-5
            throwable = hand & self.table_ranks
        else:
            throwable = hand & _RANK_MASKS[attacks[0] % 13]
        if throwable:
            if throwable & (throwable - 1):
                codes.extend(card_sets(THROW, seat, throwable, self.limit - len(attacks)))
            else:
                codes.append(THROW | seat << 3 | throwable << 6)
        codes.append(PASS | seat << 3)  # R-BOUT-7

    def add_openings(self, seat: int, hand: int, codes: list[int]) -> None:
        """R-BOUT-1: one card, or several of one rank, within the limit."""
        head = ATTACK | seat << 3
        ranks = (hand | hand >> 13 | hand >> 26 | hand >> 39) & _RANK_BITS
        while ranks:
            low = ranks & -ranks
            same = hand & _RANK_MASKS[low.bit_length() - 1]
            if same & (same - 1):
                codes.extend(card_sets(ATTACK, seat, same, self.limit))
            else:
                codes.append(head | same << 6)
            ranks ^= low

    def transfer_target(self) -> int:
        """The new defender if the table and hands allow a transfer now (R-TR-1, R-TR-2);
        -1 if they do not."""
        if self.taking or self.table != self.uncovered:  # taking, or a card covered
            return -1
        if self.epaulettes & EP_BOUT:  # R-POG-2: a strict epaulette attack is taken
            return -1
        if self.bouts_played == 0 and not self.variant.transfer_first_bout:  # R-TR-4
            return -1
        target = self.next_defender(self.defender)
        count = len(self.attacks) + 1
        if count > self.ceiling() or self.hands[target].bit_count() < count:
            return -1
        return target

    # --- doing it ---------------------------------------------------------------------

    def apply(self, code: int) -> None:
        """Apply a legal action (one ``legal`` lists: anything else breaks the position)
        and everything that follows from it until somebody must decide again."""
        if self.blind:
            self.apply_blind(code)
            return
        kind = code & 7
        seat = (code >> 3) & 7
        payload = code >> 6
        log = self.log
        if kind == DEFEND:
            card = payload & 63
            on = payload >> 6
            bit = 1 << card
            self.hands[seat] &= ~bit
            self.covers[self.attacks.index(on)] = card
            self.uncovered &= ~(1 << on)
            self.table |= bit
            self.table_ranks |= _RANK_MASKS[card % 13]
            self.passed = 0  # a new card cancels every pass (R-BOUT-7)
            if card == self.variant.queen_of_hearts:
                self.limit = len(self.attacks)  # R-TOP-2: nothing more is thrown in
            if log is not None:
                log.append(_event(Covered, (seat, _CARDS[card], _CARDS[on])))
        elif kind <= THROW:  # ATTACK or THROW
            self.hands[seat] &= ~payload
            self.uncovered |= payload
            self.table |= payload
            self.passed = 0
            attacks = self.attacks
            covers = self.covers
            if not payload & (payload - 1):  # one card, the usual case
                card = payload.bit_length() - 1
                attacks.append(card)
                covers.append(-1)
                self.table_ranks |= _RANK_MASKS[card % 13]
            else:
                self.table_ranks |= ranks_on(payload)
                rest = payload
                while rest:
                    low = rest & -rest
                    attacks.append(low.bit_length() - 1)
                    covers.append(-1)
                    rest ^= low
            if kind == ATTACK and self.variant.pogony:
                self.note_opening(seat, payload)
            if log is not None:
                added = self.attacks[len(self.attacks) - payload.bit_count() :]
                cards = tuple([_CARDS[c] for c in added])
                log.append(_event(Attacked if kind == ATTACK else ThrewIn, (seat, cards)))
        elif kind == TAKE:
            self.note_declined_covers(seat)
            self.taking = True
            self.passed = 0  # a take cancels every pass (R-BOUT-7)
            if log is not None:
                log.append(_event(DeclaredTake, (seat,)))
        elif kind == PASS:
            self.passed |= 1 << seat
            if log is not None:
                log.append(_event(Passed, (seat,)))
        elif kind == TRANSFER:
            self.transfer_to(seat, payload)
        else:
            self.exchange(seat)
            if not self.attacks:  # before the opening: the attacker still opens
                self.moves += 1
                return
        self.moves += 1
        throwers = self.thrower_mask()
        if self.taking or not self.uncovered:
            if not throwers:
                self.close_bout()
                return
            self.acting = throwers
        else:
            self.acting = throwers | 1 << self.defender

    def exchange(self, seat: int) -> None:
        """R-SIX-1: the lowest trump goes face up under the stock, the face-up trump card
        into ``seat``'s hand, for everybody to see (R-VAR-4: no pass is cancelled)."""
        if self.shared:
            self.unshare()
        six = self.six
        card = self.trump_card
        self.hands[seat] = self.hands[seat] & ~(1 << six) | 1 << card
        self.known[seat] |= 1 << card
        self.stock[0] = six
        self.trump_card = six
        self.six = -1
        if self.log is not None:
            self.log.append(_event(Exchanged, (seat, _CARDS[six], _CARDS[card])))

    def note_declined_covers(self, defender: int) -> None:
        """A take declared: every card that beats an uncovered attack card (``declined``)."""
        if self.shared & SHARED_DECLINED:
            self.unshare()
        beaters = self.beaters
        covers = 0
        rest = self.uncovered
        while rest:
            low = rest & -rest
            covers |= beaters[low.bit_length() - 1]
            rest ^= low
        self.declined[defender] |= covers & ~self.table

    def note_declined_throws(self) -> None:
        """A bout closes with room on the table: no thrower played the cards of the ranks
        there (``declined``; those who may add only the first rank, only that rank)."""
        declined = self.declined
        allowed = self.table_ranks & ~self.table
        first_rank = _RANK_MASKS[self.attacks[0] % 13] & ~self.table
        any_rank = self.any_rank
        rest = self.throwers & ~self.out_mask
        while rest:
            bit = rest & -rest
            seat = bit.bit_length() - 1
            declined[seat] |= allowed if any_rank & bit else first_rank
            rest ^= bit

    def note_opening(self, seat: int, cards: int) -> None:
        """R-POG-1/2, R-VAR-7: mark an opening that can give the defender epaulettes."""
        variant = self.variant
        if self.hands[seat]:
            return  # not the last cards of the opener's hand
        if variant.pogony == POGONY_TITLE:
            if cards & (cards - 1) and not cards & ~_RANK_MASKS[variant.lowest]:
                self.epaulettes |= EP_TITLE | seat << EP_OPENER_SHIFT
        elif not self.stock and not cards & ~_RANK_MASKS[variant.ep_rank]:
            card = cards.bit_length() - 1
            single_trump = not cards & (cards - 1) and (
                card // 13 == self.trump or card == variant.queen_of_hearts
            )
            if not single_trump:
                self.epaulettes |= EP_BOUT | seat << EP_OPENER_SHIFT
                self.limit = len(self.attacks)  # nobody throws in
                self.beaters = _NO_BEATERS  # nothing covers it

    def transfer_to(self, seat: int, card: int) -> None:
        """Pass the attack on to the next player, the limit taken from their hand (R-TR-1..3)."""
        target = self.next_defender(self.defender)
        bit = 1 << card
        self.hands[seat] &= ~bit
        self.attacks.append(card)
        self.covers.append(-1)
        self.uncovered |= bit
        self.table |= bit  # (a transfer adds the rank already on the table)
        self.attacker = seat
        self.defender = target
        self.limit = min(self.ceiling(), self.hands[target].bit_count())
        self.taking = False
        self.passed = 0
        self.seat_throwers()
        if self.log is not None:
            self.log.append(_event(Transferred, (seat, _CARDS[card], target)))

    def close_bout(self) -> None:
        """Discard or take the table (R-END-1/2), draw (R-DRAW), drop players out (R-OUT-2),
        then start the next bout (R-END-4) or end the game (R-OUT-4/5)."""
        log = self.log
        hands = self.hands
        defender = self.defender
        table = self.table
        if self.shared:
            self.unshare()
        if len(self.attacks) < self.limit and not self.blind:
            self.note_declined_throws()
        if self.taking:
            hands[defender] |= table
            self.known[defender] |= table
            if self.blind:
                self.rows[defender] += self.table_order()
            if self.epaulettes & EP_BOUT:
                self.epaulettes |= 1 << defender  # took a strict epaulette attack
            if self.variant.teams:
                next_attacker = (defender + 1) % self.players  # a seat (R-VAR-2)
            else:
                next_attacker = self.next_active(defender)
            if log is not None:
                log.append(_event(Took, (defender, self.table_cards())))
        else:
            self.discard |= table
            next_attacker = defender
            if log is not None:
                log.append(_event(BeatenOff, (defender, self.table_cards())))
        self.finish_bout(next_attacker)

    def finish_bout(self, next_attacker: int) -> None:
        """After the table was taken or discarded: draw (R-DRAW), drop players out
        (R-OUT-2), then start the bout of ``next_attacker`` (R-END-4) or end the game."""
        log = self.log
        hands = self.hands
        defender = self.defender
        order = draw_order(self.players, self.attacker, defender)
        stock = self.stock
        out_mask = self.out_mask
        if stock:
            for seat in order:
                need = HAND_SIZE - hands[seat].bit_count()
                if need <= 0 or (out_mask >> seat) & 1:
                    continue  # R-DRAW-3: nobody discards down to six
                drawn = min(need, len(stock))
                hand = hands[seat]
                if self.blind:
                    row = self.rows[seat]
                    for _ in range(drawn):  # R-BLIND-2: at the right end, as drawn
                        card = stock.pop()
                        hand |= 1 << card
                        row.append(card)
                else:
                    for _ in range(drawn):
                        hand |= 1 << stock.pop()
                hands[seat] = hand
                self.declined[seat] = 0  # what it drew may be what it did not play
                if self.north >= 0:
                    self.draw_northern(seat, len(stock) + drawn)
                elif not stock and self.trump_card >= 0:
                    # Everyone saw the face-up trump card go to this player (R-DRAW-4).
                    self.known[seat] |= 1 << self.trump_card
                if log is not None:
                    log.append(_event(Drew, (seat, drawn)))
                if not stock:
                    break
        if not stock:
            for seat in order:
                if not hands[seat] and not (out_mask >> seat) & 1:
                    out_mask |= 1 << seat
                    self.out.append(seat)
                    if log is not None:
                        log.append(_event(PlayerOut, (seat, len(self.out))))
            self.out_mask = out_mask
        self.bouts_played += 1
        # Teams: at most one team left (R-TEAM-4); else at most one player (R-OUT-4).
        over = self.decided() if self.variant.teams else len(self.out) >= self.players - 1
        if over:
            self.end_game()
            if log is not None:
                log.append(_event(GameOver, (None if self.durak < 0 else self.durak,)))
            return
        self.start_bout(next_attacker)
        if log is not None:
            log.append(_event(BoutStarted, (self.attacker, self.defender, self.limit)))

    def draw_northern(self, seat: int, before: int) -> None:
        """After ``seat`` drew from a Northern stock of ``before`` cards: everybody saw it
        take the face-up card (``stock[1]``) and show the bottom card, whose suit is
        trump from then on (R-TRUMP-3, R-VAR-5)."""
        after = len(self.stock)
        if before >= 2 > after and self.trump_card >= 0:
            self.known[seat] |= 1 << self.trump_card
        if after == 0:
            bottom = self.north
            self.north = -1
            self.known[seat] |= 1 << bottom
            self.trump = bottom // 13
            self.set_beaters()
            if self.log is not None:
                self.log.append(_event(TrumpChanged, (seat, _CARDS[bottom])))

    def unshare(self) -> None:
        """Own copies of the lists shared with other positions, before changing them."""
        shared = self.shared
        if shared & SHARED_STOCK:
            self.stock = self.stock[:]
        if shared & SHARED_KNOWN:
            self.known = self.known[:]
        if shared & SHARED_OUT:
            self.out = self.out[:]
        if shared & SHARED_DECLINED:
            self.declined = self.declined[:]
        self.shared = 0

    def table_cards(self) -> tuple[Card, ...]:
        """The table as events show it: the attack cards, then the cards covering them;
        not the cards lying face down."""
        hidden = self.hidden
        cards = [_CARDS[c] for c in self.attacks if not (hidden >> c) & 1]
        cards += [_CARDS[c] for c in self.covers if c >= 0 and not (hidden >> c) & 1]
        return tuple(cards)

    def table_order(self) -> list[int]:
        """The table's cards as a taker adds them to a row (R-BLIND-2): each attack card
        followed by the card that covered it."""
        cards: list[int] = []
        for index in range(len(self.attacks)):
            cards.append(self.attacks[index])
            if self.covers[index] >= 0:
                cards.append(self.covers[index])
        return cards

    def end_game(self) -> None:
        """The game is over: the one player still in it is the durak, nobody for a draw.
        With teams, of the losing team's players still holding cards, the first clockwise
        after the bout's primary attacker (R-TEAM-4, R-VAR-3). Epaulettes: R-POG, R-VAR-7."""
        self.finished = True
        self.durak = -1
        players = self.players
        seat = self.attacker
        for _ in range(players):
            seat += 1
            if seat == players:
                seat = 0
            if not (self.out_mask >> seat) & 1:
                self.durak = seat
                break
        marks = self.epaulettes
        durak = self.durak
        if marks and durak >= 0:
            opener = (marks >> EP_OPENER_SHIFT) & 7
            if marks & EP_TITLE and not (self.variant.team[opener] >> durak) & 1:
                self.epaulettes |= EP_RESULT
            if (marks >> durak) & 1:
                self.epaulettes |= EP_RESULT
            if self.epaulettes & EP_RESULT and self.log is not None:
                self.log.append(_event(Epaulettes, (durak,)))
        self.epaulettes &= ~EP_THIS_BOUT
        self.clear_bout()

    def clear_bout(self) -> None:
        """No bout on the table: its fields empty (a new position, or the game over)."""
        self.attacker = 0
        self.defender = 0
        self.limit = 0
        self.attacks = []
        self.covers = []
        self.uncovered = 0
        self.table = 0
        self.table_ranks = 0
        self.taking = False
        self.passed = 0
        self.throwers = 0
        self.any_rank = 0
        self.acting = 0

    def resign(self, seat: int) -> None:
        """``seat`` leaves mid-game and so is the durak (the bot's rule, ``engine.resign``);
        the players still in the game follow clockwise from the leaver's left."""
        if self.shared:
            self.unshare()
        for step in range(1, self.players):
            other = (seat + step) % self.players
            if not (self.out_mask >> other) & 1:
                self.out.append(other)
                self.out_mask |= 1 << other
        self.finished = True
        self.durak = seat
        self.moves += 1
        self.clear_bout()
        if self.log is not None:
            self.log.append(_event(Resigned, (seat,)))
            self.log.append(_event(GameOver, (seat,)))

    # --- the blind family (RULES.md section 14) -----------------------------------------

    def blind_throwers(self) -> int:
        """``thrower_mask`` of ``reversed`` (the others throw nobody in): every thrower with
        a card may throw, whatever its rank, since nobody may be told what they hold
        (R-BLIND-3); the primary attacker first (R-BOUT-6)."""
        if self.blind != BLIND_REVERSED:
            return 0
        hands = self.hands
        attacker = self.attacker
        passed = self.passed
        if not (passed >> attacker) & 1 and hands[attacker]:
            return 1 << attacker
        others = self.throwers & ~passed & ~(1 << attacker)
        acting = 0
        while others:
            bit = others & -others
            if hands[bit.bit_length() - 1]:
                acting |= bit
            others ^= bit
        return acting

    def add_blind_legal(self, seat: int, codes: list[int]) -> None:
        """``add_legal`` of a blind game. A player who cannot see their hand is offered
        every slot (R-BLIND-3): a wrong play is made and punished (R-REV-3, R-CHI-3)."""
        attacks = self.attacks
        if self.blind == BLIND_DOUBT:
            if not attacks:
                self.add_openings(seat, self.hands[seat], codes)  # R-DOUBT-1
            elif seat != self.defender:
                codes.append(BLIND | seat << 3 | BELIEVE << 6)  # R-DOUBT-3
                codes.append(BLIND | seat << 3 | DOUBT << 6)
            else:
                hand = self.hands[seat]  # R-DOUBT-2: any card on any uncovered card
                for index in range(len(attacks)):
                    if self.covers[index] < 0:
                        head = DEFEND | seat << 3 | attacks[index] << 12
                        rest = hand
                        while rest:
                            low = rest & -rest
                            codes.append(head | (low.bit_length() - 1) << 6)
                            rest ^= low
                if self.table == self.uncovered:
                    codes.append(TAKE | seat << 3)  # at once, before any cover
            return
        slots = len(self.rows[seat])
        head = BLIND | seat << 3
        if not attacks:  # R-REV-2, R-CHI-2: one slot
            for slot in range(slots):
                codes.append(head | (SLOT_ATTACK | slot << 3) << 6)
        elif seat == self.defender:
            for index in range(len(attacks)):
                if self.covers[index] < 0:
                    # In ``chinese`` the attack card lies face down: nobody may name it.
                    on = NO_CARD if self.blind == BLIND_CHINESE else attacks[index]
                    for slot in range(slots):
                        codes.append(head | (SLOT_DEFEND | slot << 3 | on << 9) << 6)
            if self.blind == BLIND_REVERSED:
                codes.append(TAKE | seat << 3)
        else:
            for slot in range(slots):
                codes.append(head | (SLOT_THROW | slot << 3) << 6)
            codes.append(PASS | seat << 3)

    def apply_blind(self, code: int) -> None:
        """``apply`` of a blind game: plays by slot, face-down cards, misplays, judgments."""
        kind = code & 7
        seat = (code >> 3) & 7
        payload = code >> 6
        log = self.log
        self.moves += 1
        if kind == BLIND:
            what = payload & 7
            if what >= BELIEVE:  # BELIEVE or DOUBT
                self.judge(what == DOUBT)
                return
            card = self.rows[seat].pop((payload >> 3) & 63)
            self.hands[seat] &= ~(1 << card)
            if what == SLOT_DEFEND:
                if self.blind == BLIND_CHINESE:
                    self.answer(seat, card)
                    return
                on = payload >> 9
                if not (self.beaters[on] >> card) & 1:
                    self.misplay(seat, card, on)  # R-REV-3
                    return
                self.lay_cover(seat, card, on)
            elif what == SLOT_THROW and not (self.throwable(seat) >> card) & 1:
                self.misplay(seat, card, -1)  # R-REV-3, R-BLIND-7
                return
            else:
                self.lay_attack(card)
                if self.blind == BLIND_CHINESE:
                    self.hidden |= 1 << card  # R-CHI-2: face down
                    if log is not None:
                        log.append(_event(LaidFaceDown, (seat, None)))
                elif log is not None:
                    added = (_CARDS[card],)
                    log.append(_event(Attacked if what == SLOT_ATTACK else ThrewIn, (seat, added)))
        elif kind == ATTACK:  # ``doubt``: face up, as in the open game (R-DOUBT-1)
            rest = payload
            while rest:
                low = rest & -rest
                self.rows[seat].remove(low.bit_length() - 1)
                self.lay_attack(low.bit_length() - 1)
                rest ^= low
            self.hands[seat] &= ~payload
            if log is not None:
                log.append(_event(Attacked, (seat, tuple([_CARDS[c] for c in self.attacks]))))
        elif kind == DEFEND:  # ``doubt``: face down, beating or not (R-DOUBT-2)
            card = payload & 63
            self.rows[seat].remove(card)
            self.hands[seat] &= ~(1 << card)
            self.hidden |= 1 << card
            if self.known[seat]:
                # Nobody saw which card went down, so nobody knows any more which of the
                # cards seen going into this hand are still there: keeping the others
                # would tell which one was laid.
                if self.shared:
                    self.unshare()
                self.known[seat] = 0
            self.lay_cover(seat, card, payload >> 6)
        elif kind == TAKE:
            self.taking = True
            self.passed = 0
            if log is not None:
                log.append(_event(DeclaredTake, (seat,)))
        else:  # PASS
            self.passed |= 1 << seat
            if log is not None:
                log.append(_event(Passed, (seat,)))
        if not self.acting_mask():
            self.close_bout()

    def throwable(self, seat: int) -> int:
        """The cards ``seat`` may throw in now: of a rank on the table (R-BOUT-4), or of
        the first card's rank only (``neighbors_first_rank``, R-BOUT-5)."""
        if (self.any_rank >> seat) & 1:
            return self.table_ranks
        return _RANK_MASKS[self.attacks[0] % 13]

    def lay_attack(self, card: int) -> None:
        """An attack card on the table, uncovered."""
        self.attacks.append(card)
        self.covers.append(-1)
        self.uncovered |= 1 << card
        self.table |= 1 << card
        self.table_ranks |= _RANK_MASKS[card % 13]
        self.passed = 0

    def lay_cover(self, seat: int, card: int, on: int) -> None:
        """``card`` on the attack card ``on``: face up (told), or face down (``hidden``)."""
        self.covers[self.attacks.index(on)] = card
        self.uncovered &= ~(1 << on)
        self.table |= 1 << card
        self.table_ranks |= _RANK_MASKS[card % 13]
        self.passed = 0
        if self.log is not None:
            if (self.hidden >> card) & 1:
                self.log.append(_event(LaidFaceDown, (seat, _CARDS[on])))
            else:
                self.log.append(_event(Covered, (seat, _CARDS[card], _CARDS[on])))

    def misplay(self, seat: int, card: int, on: int) -> None:
        """R-REV-3/4: the wrong card, turned up, lies where it was played; the misplayer
        takes the whole table. A defender's misplay ends the bout as taken, a thrower's as
        held (the defender attacks next)."""
        self.misplays += 1
        if self.log is not None:
            shown_on = None if on < 0 else _CARDS[on]
            self.log.append(_event(Misplayed, (seat, _CARDS[card], shown_on)))
        if on < 0:
            self.attacks.append(card)
            self.covers.append(-1)
        else:
            self.covers[self.attacks.index(on)] = card
        self.table |= 1 << card
        if seat == self.defender:
            self.settle(seat, self.next_active(seat))
        else:
            self.settle(seat, self.defender)

    def answer(self, seat: int, card: int) -> None:
        """R-CHI-2/3: the defender's card and the attack card turned up: beaten off if it
        beats, else the defender takes both, the attack card first."""
        attack = self.attacks[0]
        self.covers[0] = card
        self.table |= 1 << card
        self.hidden = 0
        if self.log is not None:
            self.log.append(_event(Answered, (seat, _CARDS[card], _CARDS[attack])))
        if (self.beaters[attack] >> card) & 1:
            self.discard_table()
        else:
            self.settle(seat, self.next_active(seat))

    def judge(self, doubted: bool) -> None:
        """R-DOUBT-3: «верю» discards the table unseen; «не верю» turns the covers up, and
        the attacker takes the table if every cover beats its card, else the defender.
        Covers turned up count in the defender's ``doubted`` (and ``caught`` when one did not
        beat); covers believed count nowhere, as nobody saw them (R-DOUBT-5)."""
        attacker = self.attacker
        defender = self.defender
        if not doubted:
            if self.log is not None:
                self.log.append(_event(Believed, (attacker,)))
            self.unseen |= self.hidden
            self.discard_table(told=False)  # ``Believed`` says it all: no card is seen
            return
        self.hidden = 0
        beaten = True
        for index in range(len(self.attacks)):
            if not (self.beaters[self.attacks[index]] >> self.covers[index]) & 1:
                beaten = False
        turned = self.doubted[:]
        turned[defender] += 1
        self.doubted = turned
        if not beaten:
            caught = self.caught[:]
            caught[defender] += 1
            self.caught = caught
        if self.log is not None:
            covers = tuple([_CARDS[c] for c in self.covers])
            self.log.append(_event(Doubted, (attacker, covers, beaten)))
        if beaten:
            self.settle(attacker, defender)
        else:
            self.settle(defender, self.next_active(defender))

    def discard_table(self, told: bool = True) -> None:
        """The table to the discard pile: the defender held (R-END-1)."""
        if told and self.log is not None:
            self.log.append(_event(BeatenOff, (self.defender, self.table_cards())))
        self.discard |= self.table
        self.hidden = 0
        if self.shared:
            self.unshare()
        self.finish_bout(self.defender)

    def settle(self, taker: int, next_attacker: int) -> None:
        """``taker`` takes the whole table, every card of it seen (R-REV-4, R-CHI-3,
        R-DOUBT-3), added to their row in the table's order (R-BLIND-2)."""
        if self.shared:
            self.unshare()
        table = self.table
        self.hands[taker] |= table
        self.known[taker] |= table
        self.rows[taker] += self.table_order()
        if self.log is not None:
            self.log.append(_event(Took, (taker, self.table_cards())))
        self.finish_bout(next_attacker)

    # --- searching --------------------------------------------------------------------

    def playout(self, rng: Random) -> int:
        """Play uniformly random legal actions to the end, in place: a random seat of
        ``to_act`` (``rng.random()`` is drawn only when several may act), then a random
        action of that seat's ``legal(seat)``. Returns the durak, -1 for a draw."""
        random = rng.random
        codes: list[int] = []
        players = self.players
        while not self.finished:
            acting = self.acting
            if acting & (acting - 1):  # several may act: the k-th of to_act()
                k = int(random() * acting.bit_count())
                seat = self.attacker
                while True:
                    if (acting >> seat) & 1:
                        if k == 0:
                            break
                        k -= 1
                    seat += 1
                    if seat == players:
                        seat = 0
            else:
                seat = acting.bit_length() - 1
            codes.clear()
            self.add_legal(seat, codes)
            self.apply(codes[int(random() * len(codes))])
        return self.durak


_DRAW_ORDERS: Final[dict[int, list[int]]] = {}


def draw_order(players: int, attacker: int, defender: int) -> list[int]:
    """R-DRAW-2: the primary attacker first, then the others clockwise, the defender last.
    Cached; callers never change the list."""
    key = players | attacker << 4 | defender << 8
    order = _DRAW_ORDERS.get(key)
    if order is None:
        order = [(attacker + step) % players for step in range(players)]
        order.remove(defender)
        order.append(defender)
        _DRAW_ORDERS[key] = order
    return order
