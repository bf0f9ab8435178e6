"""Podkidnoy Durak as RULES.md defines it: pure, synchronous, standard library only.

>>> state = new_game(3, rules=HouseRules(throw_in=ThrowIn.ALL), seed=42)
>>> seat = to_act(state)[0]
>>> state, events = apply(state, legal_actions(state, seat)[0])
>>> events
(Attacked(player=2, cards=(Card('7H'),)),)
"""

from . import _build

_build.choose()  # compiled core, or its plain Python source (see _build.py)

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
from .cards import Card, Suit
from .errors import Code, IllegalAction
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
from .game import SetupError, from_position, new_game, next_dealer, next_game
from .moves import legal_actions, to_act
from .play import apply, check, is_legal
from .resign import resign
from .rules import (
    Blind,
    FirstBoutLimit,
    HouseRules,
    NextGameStart,
    NoTrumpStart,
    Pogony,
    Problem,
    RulesError,
    Teams,
    ThrowIn,
    TopCard,
    TrumpChoice,
)
from .state import Bout, GameState, StateFormatError
from .timeouts import lowest_opening_card, timeout_actions
from .view import SeatView, TableView, public_view, view_for

__all__ = [
    "Action",
    "Answered",
    "Attack",
    "AttackSlot",
    "Attacked",
    "BeatenOff",
    "Believe",
    "Believed",
    "Blind",
    "Bout",
    "BoutStarted",
    "Card",
    "Code",
    "Covered",
    "DeclaredTake",
    "Defend",
    "DefendSlot",
    "Doubt",
    "Doubted",
    "Drew",
    "Epaulettes",
    "Event",
    "Exchange",
    "Exchanged",
    "FirstBoutLimit",
    "GameOver",
    "GameState",
    "HouseRules",
    "IllegalAction",
    "LaidFaceDown",
    "Misplayed",
    "NextGameStart",
    "NoTrumpStart",
    "Pass",
    "Passed",
    "PlayerOut",
    "Pogony",
    "Problem",
    "Resigned",
    "RulesError",
    "SeatView",
    "SetupError",
    "StateFormatError",
    "Suit",
    "TableView",
    "Take",
    "Teams",
    "ThrewIn",
    "Throw",
    "ThrowIn",
    "ThrowSlot",
    "Took",
    "TopCard",
    "Transfer",
    "Transferred",
    "TrumpChanged",
    "TrumpChoice",
    "apply",
    "check",
    "from_position",
    "is_legal",
    "legal_actions",
    "lowest_opening_card",
    "new_game",
    "next_dealer",
    "next_game",
    "public_view",
    "resign",
    "timeout_actions",
    "to_act",
    "view_for",
]
