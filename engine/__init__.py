"""Podkidnoy Durak as RULES.md defines it: pure, synchronous, standard library only.

>>> state = new_game(3, rules=HouseRules(throw_in=ThrowIn.ALL), seed=42)
>>> seat = to_act(state)[0]
>>> state, events = apply(state, legal_actions(state, seat)[0])
>>> events
(Attacked(player=2, cards=(Card('7H'),)),)
"""

from . import _build

_build.choose()  # compiled core, or its plain Python source (see _build.py)

from .actions import Action, Attack, Defend, Exchange, Pass, Take, Throw, Transfer
from .cards import Card, Suit
from .errors import Code, IllegalAction
from .events import (
    Attacked,
    BeatenOff,
    BoutStarted,
    Covered,
    DeclaredTake,
    Drew,
    Epaulettes,
    Event,
    Exchanged,
    GameOver,
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
from .view import SeatView, TableView, public_view, view_for

__all__ = [
    "Action",
    "Attack",
    "Attacked",
    "BeatenOff",
    "Bout",
    "BoutStarted",
    "Card",
    "Code",
    "Covered",
    "DeclaredTake",
    "Defend",
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
    "new_game",
    "next_dealer",
    "next_game",
    "public_view",
    "resign",
    "to_act",
    "view_for",
]
