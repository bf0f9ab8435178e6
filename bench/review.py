"""What the review of a game (``engine.ai.review``, «Разбор») costs, in CPU seconds:

    PYTHONPATH=. .venv/bin/python -m bench.review [--games 5] [--iterations N] [--seed 1]

Plays ``--games`` seeded games of ``normal`` computers at 2 and at 4 players, reviews seat 0
of each with ``--iterations`` (the review's default unless given), and prints per player
count the CPU seconds of a reviewed game (this process's CPU time, ``time.process_time``,
so other work on the machine does not count), mean and max, and the decisions judged per
game. ``--json`` adds one JSON object. The bot runs a review in its pool of processes;
these are the seconds of one worker a request takes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from engine import Action, GameState, HouseRules, apply, new_game
from engine.ai import choose_action, who_acts
from engine.ai.review import ITERATIONS, decisions, judge

PLAYER_COUNTS = (2, 4)


def normal_game(
    players: int, seed: int | str, rules: HouseRules | None = None
) -> tuple[GameState, list[Action]]:
    """A whole game of ``normal`` computers: its start and its actions."""
    start = state = new_game(players, rules=rules, seed=seed)
    actions: list[Action] = []
    while not state.finished:
        action = choose_action(state, who_acts(state), "normal", seed=state.moves)
        actions.append(action)
        state, _ = apply(state, action)
    return start, actions


def measure(players: int, games: int, iterations: int, seed: int) -> dict[str, Any]:
    """Review seat 0 of ``games`` games of ``players``: CPU seconds and decisions a game."""
    seconds: list[float] = []
    judged: list[int] = []
    for game in range(games):
        start, actions = normal_game(players, f"{seed}:{players}:{game}")
        began = time.process_time()
        count = 0
        for decision in decisions(start, actions, 0):
            judge(decision, iterations=iterations)
            count += 1
        seconds.append(time.process_time() - began)
        judged.append(count)
    return {
        "players": players,
        "games": games,
        "cpu_s_mean": round(statistics.fmean(seconds), 2),
        "cpu_s_max": round(max(seconds), 2),
        "decisions_mean": round(statistics.fmean(judged), 1),
        "decisions_max": max(judged),
        "cpu_ms_per_decision": round(1000 * sum(seconds) / max(sum(judged), 1)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = [measure(n, args.games, args.iterations, args.seed) for n in PLAYER_COUNTS]
    print(f"review of seat 0, {args.iterations} iterations a decision, CPU seconds a game:")
    for result in results:
        print(
            f"{result['players']} players, {result['games']} games: "
            f"mean {result['cpu_s_mean']:.2f} s, max {result['cpu_s_max']:.2f} s; "
            f"{result['decisions_mean']:.1f} decisions a game (max {result['decisions_max']}), "
            f"{result['cpu_ms_per_decision']} ms a decision"
        )
    if args.json:
        print(json.dumps({"iterations": args.iterations, "results": results}))


if __name__ == "__main__":
    main()
