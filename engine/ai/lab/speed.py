"""How much ``hard`` and ``hard-v1`` search a decision: worlds and playouts.

    python -m engine.ai.lab.speed [--positions N] [--budget-ms M] [--seed S] [--json]

N positions (default 60) of seeded heads-up games of ``normal`` against itself (36 cards,
default rules), taken where the seat to act has a real choice and the stock is not empty
(the exact endgame is another matter); at each, ``hard`` and ``hard-v1`` decide with a
budget of M ms (default 300). Worlds and playouts are counted by wrapping the searches' own
world and playout functions, so the searches run unchanged. Besides the counts a decision,
the rates per second of this process's CPU time are printed: on a loaded machine a decision
gets less of the CPU than its wall-clock budget, and ``rate x budget`` is what it would
search on a core of its own.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ...game import new_game
from ...moves import legal_actions
from ...play import apply
from ...state import GameState
from .. import hard, ismcts, who_acts
from ..worlds import Worlds
from . import choose_action, hard_v1


def positions(count: int, seed: int) -> list[tuple[GameState, int]]:
    rng = random.Random(seed)
    found: list[tuple[GameState, int]] = []
    game = 0
    while len(found) < count:
        state = new_game(2, seed=f"{seed}:{game}")
        game += 1
        while state.bout is not None and len(found) < count:
            seat = who_acts(state)
            if len(legal_actions(state, seat)) > 2 and state.stock and rng.random() < 0.2:
                found.append((state, seat))
            state, _ = apply(state, choose_action(state, seat, "normal", seed=state.moves))
    return found


class Counter:
    def __init__(self) -> None:
        self.calls = 0


@contextmanager
def counting(owner: Any, name: str) -> Iterator[Counter]:
    """Count the calls of ``owner.name`` (a module's function or a class's method) while
    inside; the function itself runs unchanged."""
    counter = Counter()
    function = getattr(owner, name)

    def counted(*args: Any) -> Any:
        counter.calls += 1
        return function(*args)

    setattr(owner, name, counted)
    try:
        yield counter
    finally:
        setattr(owner, name, function)


def measure(level: str, found: list[tuple[GameState, int]], budget_ms: float) -> dict[str, Any]:
    world_owner: Any
    playout_owner: Any
    if level == "hard":
        world_owner, world_name, playout_owner, playout_name = (
            Worlds, "sample", ismcts if hard.TREE else hard, "play_greedy")  # fmt: skip
    else:
        world_owner, world_name, playout_owner, playout_name = (
            hard_v1, "sample_world", hard_v1, "play_out")  # fmt: skip
    with (
        counting(world_owner, world_name) as worlds,
        counting(playout_owner, playout_name) as playouts,
    ):
        cpu = time.process_time()
        wall = time.perf_counter()
        for index, (state, seat) in enumerate(found):
            choose_action(state, seat, level, seed=index, budget_ms=budget_ms)
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
    n = len(found)
    return {
        "level": level,
        "decisions": n,
        "worlds_per_decision": round(worlds.calls / n, 1),
        "playouts_per_decision": round(playouts.calls / n, 1),
        "cpu_share": round(cpu / wall, 2),
        "worlds_per_cpu_s": round(worlds.calls / cpu, 1),
        "playouts_per_cpu_s": round(playouts.calls / cpu, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.ai.lab.speed", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--budget-ms", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)
    found = positions(args.positions, args.seed)
    results = [measure(level, found, args.budget_ms) for level in ("hard-v1", "hard")]
    for r in results:
        print(
            f"{r['level']:<7} at {args.budget_ms:g} ms: {r['worlds_per_decision']:>7} worlds, "
            f"{r['playouts_per_decision']:>7} playouts a decision ({r['decisions']} decisions; "
            f"this process had {100 * r['cpu_share']:.0f}% of a core); per CPU second "
            f"{r['worlds_per_cpu_s']:,.0f} worlds, {r['playouts_per_cpu_s']:,.0f} playouts"
        )
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
