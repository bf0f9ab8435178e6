"""A move made on the page: the same service call as a press on the chat's hand keyboard
(``GameService.play`` with the button's action code, so the same compare-and-set and the
same refusals), answered with the same texts as the chat's pop-ups. The dealer's suit
before the deal (R-TRUMP-1) likewise: ``GameService.name_trump`` with the code of the
chat's suit button."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.handlers.play import MALFORMED
from bot.i18n import Translator
from bot.schema.presses import Move
from bot.schema.refusals import Reason
from bot.services import Changed, GameService, PressOutcome, Refused
from bot.storage import GameRecord
from bot.ui.callbacks import TRUMP_SUITS, LobbyOp, decode_press
from bot.ui.errors import Said, refusal_text

# Characters of the page's own id for a tap (a retry sends it again): longer is malformed,
# so that an answer, which names it, is never much longer than the page's own message.
MAX_PRESS_ID = 40


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """What the page asks: action ``act`` (a hand button's code) in game ``game`` of chat
    ``chat``, on the table it drew at move ``moves``; ``press_id`` is the page's id for this
    tap, so a move sent twice (a socket that reconnected) is applied once."""

    chat: int
    game: str
    moves: int
    act: str
    press_id: str


async def make_move(
    service: GameService,
    publish: Callable[[GameRecord], None],
    request: MoveRequest,
    user_id: int,
    tr: Translator,
) -> str | None:
    """Play ``request`` for ``user_id``: None when it was played (or already had been),
    else the refusal's text in ``tr``'s language, the chat's pop-up for the same press
    (``bot.handlers.answers.PressAnswer.refuse``). A played move is handed to ``publish``
    (the outbox: the chat shows it; the page learns it through Redis like every page)."""
    try:
        press = decode_press(request.act)
    except ValueError:
        return tr.t(MALFORMED)
    if not isinstance(press, Move):  # the page picks a card itself; it never sends a pick
        return tr.t(MALFORMED)
    query_id = f"w{user_id}:{request.press_id}"
    outcome = await service.play(
        request.chat, request.game, request.moves, press, user_id, query_id
    )
    return _told(outcome, publish, tr)


@dataclass(frozen=True, slots=True)
class TrumpRequest:
    """The dealer names the trump (R-TRUMP-1) in the lobby of game ``game`` of chat
    ``chat``: ``op`` is the code of the chat's suit button (``LobbyOp.TRUMP_*``);
    ``press_id`` the page's id for this tap, sent back with the answer."""

    chat: int
    game: str
    op: str
    press_id: str


async def name_trump(
    service: GameService,
    publish: Callable[[GameRecord], None],
    request: TrumpRequest,
    user_id: int,
    tr: Translator,
) -> str | None:
    """Name the trump for ``user_id``, as the chat's suit button does: None when the game
    was dealt, else the chat's pop-up text (anybody but the dealer: ``not-dealer``; a
    lobby dealt already or replaced: ``stale-lobby``)."""
    try:
        suit = TRUMP_SUITS[LobbyOp(request.op)]
    except (ValueError, KeyError):
        return tr.t(MALFORMED)
    outcome = await service.name_trump(request.chat, request.game, user_id, suit)
    return _told(outcome, publish, tr)


def _told(
    outcome: PressOutcome, publish: Callable[[GameRecord], None], tr: Translator
) -> str | None:
    """What the page is answered: None for a change (handed to ``publish``), else why not."""
    match outcome:
        case Changed(record):
            publish(record)
            return None
        case Refused(reason) if reason is not Reason.DUPLICATE:
            return refusal_text(reason, Said.POPUP, tr)
        case _:  # the same tap again (its first sending was played), or a pick: nothing
            return None
