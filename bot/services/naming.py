"""The dealer names the trump (``trump: dealer``, R-TRUMP-1), before any card is dealt.

At «Начать» (or the next game of a series) the bot finds the dealer (``first_dealer``). A
computer dealer names a suit at once (``engine.ai.choose_trump``). A person is asked: the
lobby stays closed (``ChatGame.naming``: nobody joins or leaves, the guard says a game is
running) and shows them four suit buttons; their press deals the game. With a turn timer,
the deadline is the timer from the start press (no cards are shown, so there is no
delivery to wait for); when it passes, the sweeper names a suit by lot for them
(``name_for_late_dealer``), and the log says so. Pure decisions on a ``GameRecord``, like
``bot.services.decisions``."""

from __future__ import annotations

from bot.model import GameRecord
from bot.schema.refusals import Reason
from bot.storage import KEEP, Saved
from engine import Suit, TrumpChoice
from engine.ai import choose_trump

from .decisions import begin_game, first_dealer, seating
from .outcomes import Changed, Outcome, Refused


def names_trump(record: GameRecord) -> bool:
    """Whether the deal of ``record``'s lobby waits for the dealer to name the trump."""
    return record.game.settings.rules.trump is TrumpChoice.DEALER


def deal_or_ask(record: GameRecord, seed: int, now: float) -> None:
    """Start the lobby's game: at once, or, under ``trump: dealer``, with the suit a
    computer dealer names, or by asking a person dealer (``ChatGame.naming``)."""
    if not names_trump(record):
        begin_game(record, seed, now)
        return
    players, _ = seating(record)
    dealer = players[first_dealer(record, seed)]
    if dealer.computer:
        begin_game(record, seed, now, trump=choose_trump(seed), namer=dealer.user_id)
        return
    game = record.game
    game.naming = dealer.user_id
    timeout = game.settings.played(private=game.private).turn_timeout
    record.deadline = now + timeout if timeout > 0 else None
    record.computers_at = None


def name_trump(
    record: GameRecord, user_id: int, suit: Suit, seed: int, now: float
) -> tuple[Saved, Outcome]:
    """The dealer's press on a suit: deal with it. Anybody else is refused."""
    game = record.game
    if game.naming is None:
        return KEEP, Refused(Reason.STALE_LOBBY, record)
    if game.naming != user_id:
        return KEEP, Refused(Reason.NOT_DEALER, record)
    begin_game(record, seed, now, trump=suit, namer=user_id)
    return record, Changed(record)


def name_for_late_dealer(record: GameRecord, seed: int, now: float) -> tuple[Saved, Outcome]:
    """The dealer's time ran out: the bot names a suit by lot for them, said so."""
    game = record.game
    assert game.naming is not None
    begin_game(record, seed, now, trump=choose_trump(seed), namer=game.naming, auto=True)
    return record, Changed(record)
