"""The service's decisions that need no storage: who may join, what dealing gives, what a
move puts into the record. Pure functions of a ``GameRecord`` (they may change it in place),
so a compare-and-set can run them again on a newer record."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import Any, Final

from bot.model import ChatGame, GameRecord, LogKind, Phase, Seat, append_log
from bot.schema.refusals import Reason
from bot.schema.teams import seated_by_team
from bot.storage import KEEP, Saved
from bot.turn_clock import latest_deadline
from engine import (
    Card,
    GameState,
    HouseRules,
    IllegalAction,
    SetupError,
    Suit,
    Teams,
    new_game,
    next_dealer,
    next_game,
    resign,
)

from .outcomes import Changed, Outcome, Refused, Viewed
from .series import begin_series
from .turns import bout_started

log = logging.getLogger(__name__)

MAX_NAME = 40

# Why a player left a running game (and so is its durak): the table says which.
LEAVE: Final = "leave"  # /leave
LEFT_CHAT: Final = "left"  # left the group
REMOVED: Final = "removed"  # removed from the group by an admin


@dataclass(frozen=True, slots=True)
class Player:
    """A Telegram user as the service needs them."""

    user_id: int
    name: str
    language: str = "ru"

    def seat(self) -> Seat:
        return Seat(self.user_id, self.name[:MAX_NAME] or str(self.user_id), self.language)


def resign_player(record: GameRecord, user_id: int, now: float, why: str) -> tuple[Saved, Outcome]:
    """``user_id`` leaves the running game and is its durak; ``why`` and the seats still
    playing then (``playing``: they did not go out, the game ended for them) go into the log
    entry (the table says both). They leave the series too."""
    game = record.game
    state = game.state
    seat = game.seat_of(user_id)
    if seat is None or state is None:
        return KEEP, Refused(Reason.NOT_JOINED, record)
    try:
        after, events = resign(state, seat)
    except IllegalAction as error:
        return KEEP, Refused(error.code, record)
    playing = [other for other in range(state.players) if other != seat and other not in state.out]
    advance(record, after, list(events), now)
    for entry in reversed(game.log):
        if entry.get("e") == LogKind.RESIGNED and entry.get("player") == seat:
            entry["why"] = why
            entry["playing"] = playing
            break
    if game.series is not None:
        game.series.drop(user_id)
    return record, Changed(record, events=events, seat=seat)


def left_players(game: ChatGame) -> set[int]:
    """The user ids who left ``game`` or its series: /leave, or left the group, during the
    game (its log's ``Resigned`` entry) or between the games of the series (``Series.left``).
    "Play again" does not seat them again."""
    gone = set(game.series.left) if game.series is not None else set()
    for entry in game.log:
        seat = entry.get("player")
        if entry.get("e") != LogKind.RESIGNED or not isinstance(seat, int):
            continue
        if 0 <= seat < len(game.players):
            gone.add(game.players[seat].user_id)
    return gone


def close_unshown(record: GameRecord) -> None:
    """End the lobby or game without a result: the bot can no longer show it in its group
    (removed from it, or the group moved on without it). Its table is not drawn again."""
    record.game.phase = Phase.FINISHED
    record.stopped_by = ""
    unschedule(record)
    record.gone = True


def table_problem(rules: HouseRules, players: int) -> Reason | None:
    """Why ``rules`` cannot start a game of ``players`` (the engine's ``player_problem``,
    R-TEAM-1), as the reason whose text says how to fix it; None when they can."""
    if rules.player_problem(players) is None:
        return None
    return Reason.TEAMS_TRIPLES_COUNT if rules.teams is Teams.TRIPLES else Reason.TEAMS_PAIRS_COUNT


def seating(record: GameRecord) -> tuple[list[Seat], list[int] | None]:
    """The seats of the next deal, and ``remaining``: the seats of the last game they held,
    when the same table plays again (the loser deals, R-DEAL-1, R-START-3, keeping its
    clockwise order); None for a new table, seated in join order, or with teams so that
    the teams alternate (R-TEAM-1, ``bot.services.teams``)."""
    game = record.game
    previous = record.previous
    if previous is not None:
        old_ids = previous.players
        seated = {p.user_id: p for p in game.players}
        if set(seated) <= set(old_ids):
            remaining = [i for i, uid in enumerate(old_ids) if uid in seated]
            return [seated[old_ids[i]] for i in remaining], remaining
    return seated_by_team(game.players, game.settings.rules), None


def first_dealer(record: GameRecord, seed: int) -> int:
    """The seat (of ``seating``) that deals: the last game's loser at the same table
    (``engine.next_dealer``), else one drawn by lot (R-DEAL-1); when the loser has gone,
    the engine draws one as it deals, and the first seat is asked (ENGINE.md)."""
    players, remaining = seating(record)
    if remaining is not None and record.previous is not None:
        try:
            dealer = next_dealer(record.previous.state, remaining)
        except ValueError:
            dealer = None
        return 0 if dealer is None else dealer
    return random.Random(seed).randrange(len(players))


def deal(
    record: GameRecord, seed: int, *, trump: Suit | None = None, dealer: int | None = None
) -> tuple[list[Seat], GameState]:
    """The seats (``seating``) and the dealt game. ``trump``: the suit the dealer named
    (``trump: dealer``, R-TRUMP-1); ``dealer``: who deals a new table (None: by lot)."""
    game = record.game
    players, remaining = seating(record)
    previous = record.previous
    if remaining is not None and previous is not None:
        try:
            state = next_game(
                previous.state,
                seed=seed,
                remaining=remaining,
                rules=game.settings.rules,  # changed settings apply from the next game
                trump=trump,
            )
        except (SetupError, ValueError, KeyError) as error:
            log.warning("cannot continue the last game of %s: %s", game.chat_id, error)
            players = seated_by_team(game.players, game.settings.rules)
        else:
            return players, state
    rules = game.settings.rules
    return players, new_game(len(players), rules=rules, seed=seed, dealer=dealer, trump=trump)


def begin_game(
    record: GameRecord,
    seed: int,
    now: float,
    *,
    trump: Suit | None = None,
    namer: int | None = None,
    auto: bool = False,
) -> None:
    """Deal the lobby's game and start it (the series, the clocks). ``trump``: the suit
    named by the player ``namer`` (a user id; ``auto``: the bot named it for them), told
    first in the table's log."""
    game = record.game
    dealer = None
    if namer is not None:
        players, _ = seating(record)
        dealer = next((seat for seat, p in enumerate(players) if p.user_id == namer), None)
    game.players, game.state = deal(record, seed, trump=trump, dealer=dealer)
    game.phase = Phase.PLAYING
    game.naming = None
    game.log = []
    if trump is not None and namer is not None:
        seat = game.seat_of(namer)
        entry = {"e": LogKind.TRUMP_NAMED.value, "player": seat, "suit": trump.letter}
        game.log.append(entry | ({"auto": True} if auto else {}))
    if game.series is None:
        begin_series(game)
    record.previous = None
    record.bout_from = 0
    schedule(record, now)


def deadline(game: ChatGame, now: float) -> float | None:
    """When the decision due after a move at ``now`` times out at the latest (the clock
    starts at delivery: ``bot.turn_clock``). Only people have a clock, and not alone in
    their private chat: None while only computers are to act."""
    timeout = game.settings.played(private=game.private).turn_timeout
    if game.phase is not Phase.PLAYING or timeout <= 0 or not people_to_act(game):
        return None
    return latest_deadline(now, timeout)


def people_to_act(game: ChatGame) -> list[int]:
    """The seats of people who may act now."""
    state = game.state
    if state is None or game.phase is not Phase.PLAYING:
        return []
    return [seat for seat in state.acting if not game.players[seat].computer]


def computers_to_act(game: ChatGame) -> list[int]:
    """The seats of computer players who may act now."""
    state = game.state
    if state is None or game.phase is not Phase.PLAYING:
        return []
    return [seat for seat in state.acting if game.players[seat].computer]


def schedule(record: GameRecord, now: float) -> None:
    """After a change at ``now``: when the people's time runs out, and whether computer
    players are due to act (from now, after their pause)."""
    record.deadline = deadline(record.game, now)
    record.computers_at = now if computers_to_act(record.game) else None


def unschedule(record: GameRecord) -> None:
    """Nobody is to act any more (the game ended or was stopped)."""
    record.deadline = None
    record.computers_at = None


def advance(
    record: GameRecord,
    state: GameState,
    events: list[Any],
    now: float,
    *,
    timed_out: tuple[int, ...] = (),
) -> None:
    """Put the state after a move (and what happened) into ``record``; ``timed_out``: the
    seats the turn timer played for."""
    game = record.game
    game.state = state
    game.log = append_log(game.log, events, timed_out=timed_out, moves=state.moves)
    if bout_started(events):
        record.bout_from = state.moves
    if state.finished:
        game.phase = Phase.FINISHED
    schedule(record, now)


def pick(record: GameRecord, seat: int, card: Card) -> Viewed | Refused:
    """The UI step "cover with this card": valid while the card is in the seat's hand and
    the seat may act (the targets are drawn from the current state)."""
    state = record.game.state
    assert state is not None
    if not (state.hands[seat] >> card) & 1 or seat not in state.acting:
        return Refused(Reason.STALE, record)
    return Viewed(record, seat, card)
