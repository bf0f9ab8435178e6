"""The service's decisions that need no storage: who may join, what dealing gives, what a
move puts into the record. Pure functions of a ``GameRecord`` (they may change it in place),
so a compare-and-set can run them again on a newer record.

The one check before a change to a lobby: is there an open lobby here (the one a button
names), and does the user sit there (or not yet, to join)? And, where it matters, may they
do this: only the lobby's creator or a group admin may deal, stop the game or take a
computer player out (``creator_or_admin``).

The guard is checked on the record as read, before anybody asks Telegram anything (an
``Ask``: is this an admin? can the bot write to them?), and again inside the
compare-and-set, on the record being saved, since a lobby may have been dealt or closed
meanwhile (``GameService.in_lobby``).

The dealer names the trump (``trump: dealer``, R-TRUMP-1), before any card is dealt.

At «Начать» (or the next game of a series) the bot finds the dealer (``first_dealer``). A
computer dealer names a suit at once (``engine.ai.choose_trump``). A person is asked: the
lobby stays closed (``ChatGame.naming``: nobody joins or leaves, the guard says a game is
running) and shows them four suit buttons; their press deals the game. With a turn timer,
the deadline is the timer from the start press (no cards are shown, so there is no
delivery to wait for); when it passes, the sweeper names a suit by lot for them
(``name_for_late_dealer``), and the log says so. Pure decisions on a ``GameRecord``, like
``bot.services.decisions``.

The turn timeout (RULES.md §11): what the bot does for players whose time ran out.

A thrower passes, a defender takes, a primary attacker opens with their lowest card (the
lowest non-trump if they hold one). Pure functions of the engine state.

Series (RULES.md §2 ``series``, S1 §6, R-OUT-6): several games in a row at one table,
the durak counts kept. Pure functions on game records; ``GameService`` saves them.

* A series begins when a lobby is dealt and the chat's ``series`` setting is above 1; the
  settings of that moment stay the series' settings (only the language follows the chat).
* When a game of the series ends, the table shows the tally and a "Next game" button (no
  automatic deal: a button survives restarts, and nobody is dealt in while away). Any
  player of the series may press it; the next game is dealt at once to the same seats
  (R-DEAL-1, R-START-3 through ``engine.next_game``), without a lobby.
* Players may leave between games (or during one, resigning it): they forfeit the series
  and leave the standings. With fewer than two players left the series ends early.
* After the last game: the standings. Whoever was the durak least often wins; equal counts
  share the place. A draw makes nobody the durak (it is counted in ``Series.draws``).
"""

from __future__ import annotations

import dataclasses
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.model import (
    ChatGame,
    Deal,
    GameRecord,
    LastGame,
    LogKind,
    Phase,
    Seat,
    Series,
    append_log,
    lowest_trump_log,
)
from bot.schema.refusals import Reason
from bot.schema.teams import seated_by_team
from bot.storage import KEEP, Saved
from bot.turn_clock import latest_deadline
from engine import (
    Action,
    Blind,
    BoutStarted,
    Card,
    DefendSlot,
    Event,
    GameState,
    HouseRules,
    IllegalAction,
    PlayerOut,
    SetupError,
    Suit,
    Teams,
    TrumpChoice,
    apply,
    legal_actions,
    new_game,
    next_dealer,
    next_game,
    resign,
    timeout_actions,
)
from engine.ai import choose_trump
from engine.codes import encode
from engine.deck_seed import commitment, shuffled_deck

from .outcomes import Changed, Check, Outcome, Refused, Viewed

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
    advance(record, after, list(events), now, played=())
    if game.deal is not None:
        game.deal.actions.append(Deal.resigned(seat))
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


def first_dealer(record: GameRecord, seed: str) -> int:
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
    record: GameRecord, seed: str, *, trump: Suit | None = None, dealer: int | None = None
) -> tuple[list[Seat], GameState]:
    """The seats (``seating``) and the game dealt from ``seed``'s deck (FAIR-DEAL.md).
    ``trump``: the suit the dealer named (``trump: dealer``, R-TRUMP-1); ``dealer``: who
    deals a new table (None: by lot)."""
    game = record.game
    players, remaining = seating(record)
    previous = record.previous
    rules = game.settings.rules  # changed settings apply from the next game
    order = shuffled_deck(seed, rules.deck)
    if remaining is not None and previous is not None:
        try:
            state = next_game(
                previous.state,
                seed=seed,
                remaining=remaining,
                rules=rules,
                trump=trump,
                order=order,
            )
        except (SetupError, ValueError, KeyError) as error:
            log.warning("cannot continue the last game of %s: %s", game.chat_id, error)
            players = seated_by_team(game.players, rules)
        else:
            return players, state
    state = new_game(len(players), rules=rules, seed=seed, dealer=dealer, trump=trump, order=order)
    return players, state


def keep_deal(game: ChatGame, seed: str) -> None:
    """Keep how ``game`` was just dealt, for its record (``Deal``), and the commitment its
    table shows."""
    assert game.state is not None
    game.deal = Deal(seed, game.state)
    game.commitment = commitment(seed, game.game_id)


def begin_game(
    record: GameRecord,
    seed: str,
    now: float,
    *,
    trump: Suit | None = None,
    namer: int | None = None,
    auto: bool = False,
) -> None:
    """Deal the lobby's game and start it (the series, the clocks). ``trump``: the suit
    named by the player ``namer`` (a user id; ``auto``: the bot named it for them), told
    first in the table's log; then, in ``reversed``, the lowest trump shown (R-BLIND-5)."""
    game = record.game
    dealer = None
    if namer is not None:
        players, _ = seating(record)
        dealer = next((seat for seat, p in enumerate(players) if p.user_id == namer), None)
    game.players, game.state = deal(record, seed, trump=trump, dealer=dealer)
    keep_deal(game, seed)
    game.phase = Phase.PLAYING
    game.naming = None
    game.log = []
    if trump is not None and namer is not None:
        seat = game.seat_of(namer)
        entry = {"e": LogKind.TRUMP_NAMED.value, "player": seat, "suit": trump.letter}
        game.log.append(entry | ({"auto": True} if auto else {}))
    game.log += lowest_trump_log(game.state)
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
    played: Sequence[Action],
    timed_out: tuple[int, ...] = (),
) -> None:
    """Put the state after a move (``played``: the actions applied) and what happened into
    ``record``; ``timed_out``: the seats the turn timer played for."""
    game = record.game
    if game.deal is not None:
        game.deal.actions.extend(encode(action) for action in played)
    game.state = state
    game.log = append_log(game.log, events, timed_out=timed_out, moves=state.moves)
    left = [event.player for event in events if isinstance(event, PlayerOut)]
    if left:  # at the end of this move's bout, together
        game.outs = [*game.outs, left]
    if bout_started(events):
        record.bout_from = state.moves
    if state.finished:
        game.phase = Phase.FINISHED
    schedule(record, now)


def pick(record: GameRecord, seat: int, card: Card) -> Viewed | Refused:
    """The UI step "cover with this card": valid while the card is in the seat's hand and
    the seat may act (the targets are drawn from the current state).

    A seat that may not see its hand (``reversed``, ``chinese``: R-BLIND-2) picks instead the
    attack card it means to cover, then a slot: valid while it may cover that card by slot.
    Its hand is never looked at, so the answer to a forged pick cannot tell it whether a
    card is there (R-BLIND-3)."""
    state = record.game.state
    assert state is not None
    if seat not in state.acting:
        return Refused(Reason.STALE, record)
    if state.rules.blind in (Blind.REVERSED, Blind.CHINESE):
        covers = (a for a in legal_actions(state, seat) if isinstance(a, DefendSlot))
        if not any(a.on == card for a in covers):
            return Refused(Reason.STALE, record)
    elif not (state.hands[seat] >> card) & 1:
        return Refused(Reason.STALE, record)
    return Viewed(record, seat, card)


Ask = Callable[[GameRecord], Awaitable[Refused | None]]
"""A question for Telegram about a lobby the guard let through: None to go on, or why not."""


@dataclass(frozen=True, slots=True)
class LobbyGuard:
    """``game_id``: the lobby a button was pressed under (None for a command: this chat's
    lobby). ``user_id`` sits there (``seated=True``), does not yet (``seated=False``), or
    either (None)."""

    user_id: int
    game_id: str | None = None
    seated: bool | None = None

    def refusal(self, record: GameRecord | None) -> Refused | None:
        """Why the change cannot happen on ``record``, or None if it may."""
        if record is None or record.game.phase is Phase.FINISHED:
            return Refused(Reason.NO_LOBBY, record)
        if self.game_id is not None and record.game.game_id != self.game_id:
            return Refused(Reason.STALE_LOBBY, record)
        if record.game.phase is Phase.PLAYING or record.game.naming is not None:
            return Refused(Reason.GAME_RUNNING, record)  # dealt, or the trump being named
        if self.seated is not None:
            sits = record.game.seat_of(self.user_id) is not None
            if sits and not self.seated:
                return Refused(Reason.ALREADY_JOINED, record)
            if self.seated and not sits:
                return Refused(Reason.NOT_JOINED, record)
        return None


def creator_or_admin(user_id: int, is_admin: Check, refusal: Reason) -> Ask:
    """Only the game's creator or a group admin may go on (``is_admin`` is asked only of
    anybody else); ``refusal`` says what they may not do."""

    async def ask(record: GameRecord) -> Refused | None:
        if record.game.creator_id == user_id or await is_admin():
            return None
        return Refused(refusal, record)

    return ask


def names_trump(record: GameRecord) -> bool:
    """Whether the deal of ``record``'s lobby waits for the dealer to name the trump."""
    return record.game.settings.rules.trump is TrumpChoice.DEALER


def deal_or_ask(record: GameRecord, seed: str, now: float) -> None:
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
    record: GameRecord, user_id: int, suit: Suit, seed: str, now: float
) -> tuple[Saved, Outcome]:
    """The dealer's press on a suit: deal with it. Anybody else is refused."""
    game = record.game
    if game.naming is None:
        return KEEP, Refused(Reason.STALE_LOBBY, record)
    if game.naming != user_id:
        return KEEP, Refused(Reason.NOT_DEALER, record)
    begin_game(record, seed, now, trump=suit, namer=user_id)
    return record, Changed(record)


def name_for_late_dealer(record: GameRecord, seed: str, now: float) -> tuple[Saved, Outcome]:
    """The dealer's time ran out: the bot names a suit by lot for them, said so."""
    game = record.game
    assert game.naming is not None
    begin_game(record, seed, now, trump=choose_trump(seed), namer=game.naming, auto=True)
    return record, Changed(record)


def act_for_timed_out(
    state: GameState, seats: Sequence[int]
) -> tuple[GameState, list[Event], list[Action]]:
    """``state`` after the timeout actions for ``seats`` (the people whose time ran out;
    computer players are never timed out) that are still legal when their turn comes, what
    happened, and the actions applied."""
    events: list[Event] = []
    applied: list[Action] = []
    for action in timeout_actions(state):
        if action.player not in seats or action.player not in state.acting:
            continue
        try:
            state, happened = apply(state, action)
        except IllegalAction:
            continue
        events.extend(happened)
        applied.append(action)
    return state, events, applied


def bout_started(events: Sequence[Event]) -> bool:
    return any(isinstance(event, BoutStarted) for event in events)


def begin_series(game: ChatGame) -> None:
    """Game 1 of a series, if the game's settings ask for one (else a single game)."""
    length = game.settings.series
    game.series = Series.begin(length, [p.user_id for p in game.players]) if length > 1 else None


def tally_series(game: ChatGame) -> None:
    """A game of the series has just finished: count its durak (a draw: nobody)."""
    series, state = game.series, game.state
    if series is None or state is None or not state.finished:
        return
    if state.durak is None:
        series.draws += 1
        return
    user_id = game.players[state.durak].user_id
    if user_id in series.durak:
        series.durak[user_id] += 1


def series_pending(record: GameRecord) -> bool:
    """A game of a series is over and the next one may be dealt."""
    game = record.game
    return (
        game.series is not None
        and game.phase is Phase.FINISHED
        and record.stopped_by is None
        and game.state is not None
        and game.state.finished
        and not game.series_over
    )


def next_series_game(record: GameRecord, *, game_id: str, language: str, seed: str) -> ChatGame:
    """The next game of ``record``'s series, dealt to the players still in it, in their
    clockwise order: the loser deals, or the same dealer after a draw; the start follows
    ``next_game_start``; a dealer who left is replaced by the first-game rule (all of it
    ``engine.next_game``). Raises ``engine.SetupError`` if it cannot be dealt."""
    old = record.game
    series = old.series
    assert series is not None and old.state is not None
    remaining = [i for i, p in enumerate(old.players) if series.in_series(p.user_id)]
    settings = dataclasses.replace(old.settings, language=language)
    game = ChatGame(old.chat_id, game_id, old.creator_id, settings)
    game.players = [
        Seat(p.user_id, p.name, p.language, p.level) for p in (old.players[i] for i in remaining)
    ]
    rules = settings.rules
    order = shuffled_deck(seed, rules.deck)
    game.state = next_game(old.state, seed=seed, remaining=remaining, rules=rules, order=order)
    keep_deal(game, seed)
    game.log = lowest_trump_log(game.state)
    game.phase = Phase.PLAYING
    game.series = dataclasses.replace(
        series, number=series.number + 1, durak=dict(series.durak), left=list(series.left)
    )
    return game


def series_lobby(record: GameRecord, *, game_id: str, language: str) -> GameRecord:
    """The next game of ``record``'s series before its deal, for a deal that waits (the
    dealer names the trump, ``bot.services.decisions``): the players still in it, the series
    one game further, and the last game as ``previous``, so the deal continues the same
    table as ``next_series_game`` does."""
    old = record.game
    series = old.series
    assert series is not None and old.state is not None
    settings = dataclasses.replace(old.settings, language=language)
    game = ChatGame(old.chat_id, game_id, old.creator_id, settings)
    game.players = [
        Seat(p.user_id, p.name, p.language, p.level)
        for p in old.players
        if series.in_series(p.user_id)
    ]
    game.series = dataclasses.replace(
        series, number=series.number + 1, durak=dict(series.durak), left=list(series.left)
    )
    new = GameRecord(game)
    new.previous = LastGame(old.state, tuple(p.user_id for p in old.players))
    return new


def leave_series(record: GameRecord, user_id: int) -> tuple[Saved, Outcome]:
    """A decision: between the games of a series, ``user_id`` leaves it (forfeiting it)."""
    series = record.game.series
    if not series_pending(record) or series is None or not series.drop(user_id):
        return KEEP, Refused(Reason.NOT_JOINED, record)
    return record, Changed(record)
