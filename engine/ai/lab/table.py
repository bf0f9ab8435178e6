"""One game of the arena (``engine.arena``, ``engine.ai.lab.ladder``): the levels at a
table (``Match``), the game they play from a seeded deal (``play_game``), and what each
seat decided and how it finished (``GameResult``)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

from ...events import Event
from ...game import new_game
from ...places import places
from ...play import apply
from ...rules import HouseRules, TrumpChoice
from .. import choose_trump, who_acts
from . import choose_action

__all__ = ["MAX_MOVES", "GameResult", "Match", "play_game", "seatings"]

MAX_MOVES = 5_000  # a guard: no game is this long


@dataclass(frozen=True, slots=True)
class Match:
    a: str
    b: str
    players: int
    rules: HouseRules
    seed: int
    budget_ms: float | None = None
    iterations: int | None = None
    cpu_time: bool = False  # the budget counts this process's CPU time, not the wall clock


@dataclass(frozen=True, slots=True)
class GameResult:
    levels: tuple[str, ...]  # by seat: "A" or "B"
    durak: int | None
    decisions: tuple[int, ...]  # by seat
    ms_total: tuple[float, ...]
    ms_max: tuple[float, ...]
    ms_each: tuple[tuple[float, ...], ...] = ()  # by seat: every decision's milliseconds
    places: tuple[int, ...] = ()  # by seat: the finishing places, 1 the best (engine.places)


def seatings(players: int) -> list[tuple[str, ...]]:
    """Every seating of one deal: A in each seat in turn, B in the others."""
    return [tuple("A" if s == a_seat else "B" for s in range(players)) for a_seat in range(players)]


def play_game(
    match: Match, deal: int, seating: tuple[str, ...], levels: Mapping[str, str] | None = None
) -> GameResult:
    """One game of deal number ``deal`` with the sides seated as ``seating``: "A" plays
    ``match.a`` and "B" ``match.b``, or ``levels`` names each side's level (the ladder seats
    several levels at one table)."""
    if levels is None:
        levels = {"A": match.a, "B": match.b}
    deal_seed = f"{match.seed}:{deal}"
    named = choose_trump(deal_seed) if match.rules.trump is TrumpChoice.DEALER else None
    state = new_game(match.players, rules=match.rules, seed=deal_seed, trump=named)
    count = [0] * match.players
    total = [0.0] * match.players
    slowest = [0.0] * match.players
    each: list[list[float]] = [[] for _ in range(match.players)]
    events: list[Event] = []
    clock = time.process_time if match.cpu_time else time.perf_counter
    while state.bout is not None:
        if state.moves >= MAX_MOVES:
            raise RuntimeError(f"deal {deal_seed} did not end in {MAX_MOVES} moves")
        seat = who_acts(state)
        level = levels[seating[seat]]
        seed = f"{deal_seed}:{''.join(seating)}:{state.moves}"
        budget_ms = match.budget_ms
        iterations = match.iterations
        # From here on the decision is timed: nothing the cycle collector counts is made
        # before the level turns it off (``engine.ai.budget.pause_collector``).
        started = clock()
        action = choose_action(
            state, seat, level, seed=seed, budget_ms=budget_ms, iterations=iterations, clock=clock
        )
        ms = (clock() - started) * 1000
        each[seat].append(ms)
        count[seat] += 1
        total[seat] += ms
        slowest[seat] = max(slowest[seat], ms)
        state, happened = apply(state, action)
        events += happened
    return GameResult(
        seating, state.durak, tuple(count), tuple(total), tuple(slowest),
        tuple(map(tuple, each)), places(match.players, events),
    )  # fmt: skip
