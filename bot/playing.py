"""A move, from a button of the chat's hand keyboard or from a Mini App page, to its answer.

Both say what they want in the same words (a hand button's action code, a suit button's
code, the finished game a «Play again» is under), are decoded here, are played by the same
service call, and are answered with the same texts: the chat's pop-up
(``bot.handlers.play``) and the page's answer (``bot.webapp.server``) differ only in how
they carry them. A press delivered again raises ``AlreadyApplied`` from the service, for
whoever holds its claim.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.i18n import Translator
from bot.model import GameRecord
from bot.schema.presses import Move
from bot.schema.refusals import Reason
from bot.services import Changed, Claim, GameService, Outcome, Player, PressOutcome, Refused
from bot.ui.callbacks import TRUMP_SUITS, LobbyOp, decode_press
from bot.ui.errors import popup_text

Publish = Callable[[GameRecord], None]
"""Where a played move goes to be shown (``Outbox.publish``)."""


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """Action ``act`` (a hand button's code) in game ``game`` of chat ``chat``, asked on the
    table drawn at move ``moves``."""

    chat: int
    game: str
    moves: int
    act: str


@dataclass(frozen=True, slots=True)
class TrumpRequest:
    """The dealer names the trump (R-TRUMP-1) in the lobby of game ``game`` of chat
    ``chat``: ``op`` is the code of the chat's suit button (``LobbyOp.TRUMP_*``)."""

    chat: int
    game: str
    op: str


@dataclass(frozen=True, slots=True)
class AgainRequest:
    """«Play again» (``LobbyOp.AGAIN``) under finished game ``game`` of chat ``chat``: a new
    lobby with the same players."""

    chat: int
    game: str


async def make_move(
    service: GameService,
    publish: Publish,
    request: MoveRequest,
    user_id: int,
    *,
    once: Claim | None,
    picks: bool = True,
) -> PressOutcome:
    """Play ``request`` for ``user_id``; a change is handed to ``publish``. ``picks``: a
    code that picks a card to cover with, or goes back from it, is one (the chat's hand
    keyboard); a page picks cards itself, so for it such a code is malformed."""
    try:
        press = decode_press(request.act)
    except ValueError:
        return Refused(Reason.MALFORMED)
    if not picks and not isinstance(press, Move):
        return Refused(Reason.MALFORMED)
    outcome = await service.play(
        request.chat, request.game, request.moves, press, user_id, once=once
    )
    if isinstance(outcome, Changed):
        publish(outcome.record)
    return outcome


async def name_trump(
    service: GameService,
    publish: Publish,
    request: TrumpRequest,
    user_id: int,
    *,
    once: Claim | None,
) -> Outcome:
    """Name the trump for ``user_id``, as the chat's suit button does; a deal is handed to
    ``publish``. Anybody but the dealer is refused (``not-dealer``), and so is a lobby dealt
    already or replaced (``stale-lobby``)."""
    try:
        suit = TRUMP_SUITS[LobbyOp(request.op)]
    except (ValueError, KeyError):
        return Refused(Reason.MALFORMED)
    outcome = await service.name_trump(request.chat, request.game, user_id, suit, once=once)
    if isinstance(outcome, Changed):
        publish(outcome.record)
    return outcome


async def play_again(
    service: GameService,
    publish: Publish,
    request: AgainRequest,
    player: Player,
    *,
    once: Claim | None,
) -> Outcome:
    """A new lobby with the players of the finished game, ``player`` its creator, as the
    chat's «Play again» button makes it; the lobby is handed to ``publish``. A game not
    finished yet is refused (``exists``), and so is a game already replaced by another
    (``stale-lobby``). Who may ask is the caller's to decide, as in the chat: whoever sees
    the finished table."""
    outcome = await service.again(request.chat, request.game, player, once=once)
    if isinstance(outcome, Changed):
        publish(outcome.record)
    return outcome


def refusal(outcome: PressOutcome, tr: Translator) -> str | None:
    """What the presser is told: why nothing changed, in ``tr``'s language; None for a
    change, a card picked, or a press delivered again (its first delivery said it all)."""
    return popup_text(outcome.reason, tr) if isinstance(outcome, Refused) else None
