"""The review of a game («Разбор»): the moments where a seat's move cost it most.

    for decision in decisions(start, actions, seat):   # every real choice the seat had
        judgment = judge(decision)                      # what it cost, from the seat's view
    worst = costliest(review(start, actions, seat))     # the few that cost most

A *decision* is a moment where the seat had a real choice: more than one legal action, the
exchange of R-SIX aside (every level takes it at once, so it is no question). For each,
``judge`` asks ``hard`` what it would have played there, and values that move and the move
played: the chance, 0..1, of not being the durak after each (the seat's team's result under
teams, R-TEAM-4, as ``engine.rollout.result_for`` counts it; a draw counts a half). The
difference is what the move cost.

**What the seat saw, nothing more.** A ``Decision`` holds what the seat knew at that moment:
its ``view_for``, the discard it watched go by, its legal actions, and the move it made.
``judge`` never sees a ``GameState``: ``hard`` searches worlds dealt from that knowledge
(``knowledge.knowledge_from_view``, as ``engine.ai`` decides), and the values come from the
same kind of worlds. So dealing the cards the seat did not see another way (the other
hands' unseen cards, the stock's order) gives the same review. A move is not called a
mistake because the cards lay badly for it, only because something else was better given
what the seat could know; and a lucky move is not praised for what it could not foresee.

**How values are estimated.** ``VALUE_WORLDS`` worlds are dealt (``worlds.Worlds``, the
deals ``hard`` searches, weighed by what the play showed), and in each the preferred move
and the move played are applied to copies of the world and played to the end by the
playout policy (``engine.rollout``, ``normal``'s play on the fast core), both with the same
playout seed: common random numbers, so the difference of the two values holds far less
noise than either value. The preferred move is ``hard``'s choice with a budget counted in
iterations, not time, so a judgment is a pure function of the decision and the seed,
whatever the machine's speed. Where the move played values as well as the preferred one,
or better, the played move is the preferred one and it cost nothing.

The review covers the open games: in the blind family (RULES.md section 14) a seat plays
slots it may not see, and a move's worth lies in what it guessed, which no search of the
seat's view can judge; ``decisions`` yields nothing there.

``python -m engine.ai.review RECORD --seat NAME [--iterations N] [--most K] [--json]``
prints the costliest moments of a game record (GAME-RECORD.md) for one of its players.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..actions import Action, Exchange
from ..codes import encode
from ..moves import legal_actions
from ..play import apply
from ..record import Record, RecordError, action_to_dict, load_record
from ..replay import read_json, run
from ..rollout import play_greedy, result_for
from ..rules import Blind
from ..state import GameState
from ..view import SeatView, view_for
from . import hard, watched_discard
from .budget import Budget, pause_collector, resume_collector
from .knowledge import Knowledge, knowledge_from_view
from .worlds import Worlds

# ``hard``'s worlds for choosing the preferred move (each as many tree descents as it has
# candidates). Fewer than the bot's ``hard`` searches in its time budget, so that a whole
# game's review is cheap enough to run on request; on games of ``normal`` computers, this
# many prefer the move five times as many do in about nine decisions in ten, and the costs
# they find differ by about a point.
ITERATIONS: Final = 300
# Worlds each value is estimated on. One playout's result is 0, a half or 1, so a value's
# standard error is at most 0.5 / sqrt(VALUE_WORLDS): 3.5 in 100 here. The two values of
# a judgment are played out on the same worlds with the same playout seeds, so where a deal
# favours or hurts both moves alike, as most deals do, their difference is surer still.
# Four times the worlds would only halve the error.
VALUE_WORLDS: Final = 200
# Worlds drawn at most per value world wanted: ``Worlds.sample`` gives None when none of
# its deals lets the same seats act as at the table (rare), and the loop must end.
DRAWS_PER_WORLD: Final = 2
MOST: Final = 3  # moments ``costliest`` names by default
LEAST_COST: Final = 0.05  # a smaller difference is within the values' noise


@dataclass(frozen=True, slots=True)
class Decision:
    """One real choice of a seat: all ``judge`` is given. ``index``: the action's index in
    the game's action list; ``view``: ``view_for`` the state before it; ``discard``: the
    discard the seat watched (``engine.ai.watched_discard``); ``legal``: the seat's legal
    actions then; ``played``: what it did (as ``legal`` lists it)."""

    index: int
    view: SeatView
    discard: int
    legal: list[Action]
    played: Action

    @property
    def seat(self) -> int:
        return self.view.seat


@dataclass(frozen=True, slots=True)
class Judgment:
    """What a decision cost. ``before``: the estimated chance of not being the durak with
    ``preferred``; ``after``: the same with ``played``. ``preferred`` is ``played`` (and
    ``before == after``) when nothing valued better."""

    index: int
    played: Action
    preferred: Action
    before: float
    after: float

    @property
    def cost(self) -> float:
        return self.before - self.after


def choices(legal: Sequence[Action]) -> list[Action]:
    """The actions a decision is between: the legal ones but the exchange (R-SIX), which
    does not use up the turn and which every level takes at once."""
    return [action for action in legal if type(action) is not Exchange]


def decisions(start: GameState, actions: Sequence[Action], seat: int) -> Iterator[Decision]:
    """Replay ``actions`` from ``start`` (``engine.apply``; ``IllegalAction`` if one is
    not legal) and yield every decision of ``seat``: each of its actions but an exchange,
    where it had more than one to choose from. A forced action (a take with nothing that
    covers, a pass with nothing to throw) is no decision. The review covers the open games:
    in the blind family (``rules.blind`` other than ``off``) nothing is yielded."""
    if start.rules.blind is not Blind.OFF:
        return
    state = start
    for index, action in enumerate(actions):
        after, _ = apply(state, action)  # first: an illegal action raises here
        if action.player == seat and type(action) is not Exchange:
            legal = legal_actions(state, seat)
            between = choices(legal)
            if len(between) > 1:
                code = encode(action)  # the same action whatever order its cards are named in
                played = next(a for a in between if encode(a) == code)
                view = view_for(state, seat)
                yield Decision(index, view, watched_discard(state), legal, played)
        state = after


def judge(decision: Decision, *, iterations: int = ITERATIONS, seed: int | str = 0) -> Judgment:
    """What ``decision`` cost, from the seat's view only (see the module's docstring): the
    move ``hard`` prefers after ``iterations`` worlds, and the values of it and of the move
    played over ``VALUE_WORLDS`` worlds. Repeatable: the same decision and ``seed`` give the
    same judgment. A module-level function of a picklable value, for a pool of processes."""
    collecting = pause_collector()  # first of all (``budget.pause_collector``)
    try:
        return _judge(decision, iterations, seed)
    finally:
        resume_collector(collecting)


def _judge(decision: Decision, iterations: int, seed: int | str) -> Judgment:
    knowledge = knowledge_from_view(decision.view, decision.discard)
    played = decision.played
    between = choices(decision.legal)
    # Separate streams for the search and the values: the values of two moves do not depend
    # on how long the search ran.
    search_rng = random.Random(f"{seed}:search")
    preferred = hard.decide(knowledge, between, search_rng, Budget(None, iterations))
    values_rng = random.Random(f"{seed}:values")
    if encode(preferred) == encode(played):
        (value,) = values(knowledge, [played], values_rng)
        return Judgment(decision.index, played, played, value, value)
    before, after = values(knowledge, [preferred, played], values_rng)
    if after >= before:
        return Judgment(decision.index, played, played, after, after)
    return Judgment(decision.index, played, preferred, before, after)


def values(knowledge: Knowledge, moves: Sequence[Action], rng: random.Random) -> list[float]:
    """Each of ``moves`` (legal actions of the seat of ``knowledge``) valued on the same
    ``VALUE_WORLDS`` worlds and playout seeds: the mean result for the seat, 0..1. A half
    each when no world can be dealt at all (never seen: the real table is one)."""
    seat = knowledge.seat
    codes = [encode(move) for move in moves]
    worlds = Worlds(knowledge, rng)
    totals = [0.0] * len(codes)
    dealt = 0
    for _ in range(VALUE_WORLDS * DRAWS_PER_WORLD):
        if dealt == VALUE_WORLDS:
            break
        world = worlds.sample()
        if world is None:
            continue
        dealt += 1
        playout_seed = rng.getrandbits(64)
        for index, code in enumerate(codes):
            trial = world.copy()
            trial.apply(code)
            play_greedy(trial, random.Random(playout_seed))
            totals[index] += result_for(trial, seat)
    if not dealt:
        return [0.5] * len(codes)
    return [total / dealt for total in totals]


def costliest(
    judgments: Iterable[Judgment], most: int = MOST, least_cost: float = LEAST_COST
) -> list[Judgment]:
    """The ``most`` judgments that cost most, at least ``least_cost`` each: the costliest
    first, equal costs in the order they were played."""
    costly = [judgment for judgment in judgments if judgment.cost >= least_cost]
    costly.sort(key=lambda judgment: (-judgment.cost, judgment.index))
    return costly[:most]


def review(
    start: GameState,
    actions: Sequence[Action],
    seat: int,
    *,
    iterations: int = ITERATIONS,
    seed: int | str = 0,
) -> list[Judgment]:
    """Every decision of ``seat`` judged, in the order played."""
    return [
        judge(decision, iterations=iterations, seed=seed)
        for decision in decisions(start, actions, seat)
    ]


# --- the command -------------------------------------------------------------------------

EXIT_OK: Final = 0
EXIT_ILLEGAL: Final = 1  # as ``engine.replay``: an action of the record is not legal
EXIT_MALFORMED: Final = 2


def describe(action: Action) -> str:
    """An action in the game's words without its seat: ``cover 9D with 7S``, ``take``."""
    return str(action).partition(": ")[2]


def moment_line(judgment: Judgment) -> str:
    """``move 14: played take; preferred cover 9D with 7S: 61% -> 44%`` (moves counted
    from 1)."""
    return (
        f"move {judgment.index + 1}: played {describe(judgment.played)}; "
        f"preferred {describe(judgment.preferred)}: "
        f"{judgment.before:.0%} -> {judgment.after:.0%}"
    )


def moment_dict(judgment: Judgment, names: Sequence[str]) -> dict[str, Any]:
    """A judgment as JSON: the actions in record form (GAME-RECORD.md), ``index`` from 0."""
    return {
        "index": judgment.index,
        "played": action_to_dict(judgment.played, names),
        "preferred": action_to_dict(judgment.preferred, names),
        "before": round(judgment.before, 3),
        "after": round(judgment.after, 3),
        "cost": round(judgment.cost, 3),
    }


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m engine.ai.review",
        description="The costliest moments of one player in a game record (GAME-RECORD.md).",
    )
    parser.add_argument("record", help="a game record; - reads standard input")
    parser.add_argument("--seat", required=True, help="the player's name in the record")
    parser.add_argument("--iterations", type=int, default=ITERATIONS, help="hard's worlds")
    parser.add_argument("--most", type=int, default=MOST, help="moments to name at most")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the worlds")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.most < 0:
        parser.error("--iterations must be at least 1 and --most at least 0")
    return args


def _refuse(message: str, status: int) -> int:
    sys.stderr.write(f"engine.ai.review: {' '.join(message.split())}\n")
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m engine.ai.review``: print the costliest moments; return the exit status:
    0, 1 when an action of the record is not legal, 2 when the record is malformed or the
    seat is not one of its players (one line on standard error each)."""
    args = _arguments(argv)
    try:  # read as ``engine.replay`` reads, so both commands refuse the same records
        record: Record = load_record(read_json(args.record))
    except RecordError as error:
        return _refuse(str(error), EXIT_MALFORMED)
    if args.seat not in record.names:
        players = ", ".join(record.names)
        message = f"no player {args.seat!r} in the record (players: {players})"
        return _refuse(message, EXIT_MALFORMED)
    outcome = run(record)
    if outcome.error is not None:
        message = f"action {outcome.applied} is not legal: {outcome.error.message}"
        return _refuse(message, EXIT_ILLEGAL)
    seat = record.seat(args.seat)
    judged = review(record.start, record.actions, seat, iterations=args.iterations, seed=args.seed)
    worst = costliest(judged, args.most)
    if args.json:
        report = {
            "seat": args.seat,
            "decisions": len(judged),
            "iterations": args.iterations,
            "moments": [moment_dict(judgment, record.names) for judgment in worst],
        }
        print(json.dumps(report, ensure_ascii=False))
    elif worst:
        for judgment in worst:
            print(moment_line(judgment))
    else:
        print(f"no move cost {LEAST_COST:.0%} or more in {len(judged)} decisions")
    return EXIT_OK


__all__ = [
    "ITERATIONS",
    "LEAST_COST",
    "MOST",
    "VALUE_WORLDS",
    "Decision",
    "Judgment",
    "choices",
    "costliest",
    "decisions",
    "judge",
    "main",
    "review",
    "values",
]

if __name__ == "__main__":
    sys.exit(main())
