"""Computer players against each other: who is the durak how often, and how fast they think.

    python -m engine.arena A B [--players N] [--games G] [--seed S] [--rules K=V ...]
                               [--budget-ms M] [--cpu-time] [--iterations I] [--json]
                               [--jobs J]
    python -m engine.arena combine LOG...
    python -m engine.arena ladder [--games G] [--seed S] [--budget-ms M] [--cpu-time]
                                  [--jobs J] [--json] [--out FILE]
    python -m engine.arena --list-rules

A and B are levels of ``engine.ai`` (random, easy, normal, hard) or players of
``engine.ai.lab``, kept for measuring and never offered to people: hard-v1, the first
``hard``, and hard-seer, an experiment that sees every hand (the most better inference could
give ``hard``).
Heads-up, each deal is played twice, A in seat 0 and then in seat 1, so that the luck of the
cards cancels out.
With N players one A plays N-1 B's, and each deal is played N times, A in every seat. G is
the number of games (rounded up to whole deals). For each side the arena prints the seat
games, the durak count, draws, the non-durak rate with its 95% Wilson interval, and the
decisions per game, average, 99th percentile and slowest milliseconds per decision.

Deals and decisions are seeded from S, so with ``--iterations`` (or levels that do not
search) a run is exactly repeatable; with a time budget the search depends on the machine.
``--cpu-time`` counts the budget in the process's CPU time rather than the wall clock: on a
machine other processes load, a decision then searches as much as on a core of its own (the
milliseconds printed are then CPU ones too).

A long run can be split into shards, each with its own seed, on several cores or at several
times, every one with ``--json``; ``combine`` reads the last JSON line of each shard's
output and prints the sums as one run: counts added, the interval of the totals, average
milliseconds weighted by decisions, the slowest of all, and as p99 the highest of the
shards' (their decisions are not kept, so it is an upper bound). Shards must be the same
match (levels, players, rules, budget); their seeds are listed.

``ladder`` rates the levels on the scale people are rated on (``engine.rating``): a round
robin of tables of 2, 3 and 4 different levels, every game one result of the Plackett-Luce
model (``engine.ai.lab.ladder``; ``python -m engine.arena ladder --help``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .ai.lab import PLAYABLE
from .ai.lab.ladder import main as ladder_main
from .ai.lab.table import GameResult, Match, play_game, seatings
from .rule_words import RULES_HELP, explain_rules_error, rule_lines, rules_json
from .rules import (
    VARIANT_DEFAULTS,
    HouseRules,
    RulesError,
    parse_rule,
)

__all__ = [
    "GameResult",
    "Match",
    "Tally",
    "combine",
    "main",
    "percentile",
    "play_game",
    "report",
    "run",
    "seatings",
    "tasks",
    "wilson",
]

Z95 = 1.959964


@dataclass(slots=True)
class Tally:
    seat_games: int = 0
    games: int = 0
    durak: int = 0
    draws: int = 0
    decisions: int = 0
    ms_total: float = 0.0
    ms_max: float = 0.0
    seen_games: set[int] = field(default_factory=set)
    ms_each: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        safe = self.seat_games - self.durak
        low, high = wilson(safe, self.seat_games)
        return {
            "seat_games": self.seat_games,
            "durak": self.durak,
            "draws": self.draws,
            "non_durak_rate": round(safe / self.seat_games, 4) if self.seat_games else None,
            "wilson95": [round(low, 4), round(high, 4)],
            "decisions_per_game": round(self.decisions / self.seat_games, 1)
            if self.seat_games
            else 0,
            "ms_per_decision": round(self.ms_total / self.decisions, 3) if self.decisions else 0,
            "ms_max": round(self.ms_max, 2),
            "ms_p99": round(percentile(self.ms_each, 0.99), 2),
        }


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate: right even near 0% and 100%.

    >>> [round(x, 3) for x in wilson(90, 100)]
    [0.826, 0.945]
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank); 0 for none.

    >>> percentile([float(v) for v in range(1, 101)], 0.99)
    99.0
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def _play(task: tuple[Match, int, tuple[str, ...]]) -> GameResult:
    return play_game(*task)


def tasks(match: Match, games: int) -> Iterator[tuple[Match, int, tuple[str, ...]]]:
    per_deal = seatings(match.players)
    deals = -(-games // len(per_deal))
    for deal in range(deals):
        for seating in per_deal:
            yield match, deal, seating


def run(match: Match, games: int, jobs: int = 1) -> dict[str, Any]:
    started = time.perf_counter()
    tallies = {"A": Tally(), "B": Tally()}
    played = 0
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_play, tasks(match, games), chunksize=4))
    else:
        results = [_play(task) for task in tasks(match, games)]
    for result in results:
        played += 1
        for seat, side in enumerate(result.levels):
            tally = tallies[side]
            tally.seat_games += 1
            tally.durak += result.durak == seat
            tally.draws += result.durak is None
            tally.decisions += result.decisions[seat]
            tally.ms_total += result.ms_total[seat]
            tally.ms_max = max(tally.ms_max, result.ms_max[seat])
            if result.ms_each:
                tally.ms_each.extend(result.ms_each[seat])
    return {
        "a": match.a,
        "b": match.b,
        "players": match.players,
        "games": played,
        "seed": match.seed,
        "rules": rules_json(match.rules),
        "budget_ms": match.budget_ms,
        "iterations": match.iterations,
        "cpu_time": match.cpu_time,
        "fair_durak_share": round(1 / match.players, 4),
        "seconds": round(time.perf_counter() - started, 1),
        "sides": {side: {"level": lvl, **tallies[side].summary()} for side, lvl in
                  (("A", match.a), ("B", match.b))},
    }  # fmt: skip


def combine(shards: list[dict[str, Any]]) -> dict[str, Any]:
    """Shards of one match (``run``'s results, different seeds) as one result (see above)."""
    if not shards:
        raise ValueError("no shard to combine")
    same = ("a", "b", "players", "rules", "budget_ms", "iterations", "cpu_time")
    # The rules compared as rules: a shard may list only the keys not at their defaults.
    shards = [
        {**shard, "rules": rules_json(HouseRules.from_dict(shard["rules"]))} for shard in shards
    ]
    first = shards[0]
    for shard in shards[1:]:
        differs = [key for key in same if shard[key] != first[key]]
        if differs:
            raise ValueError(f"the shards are not one match: {', '.join(differs)} differ")
    sides: dict[str, Any] = {}
    for side in ("A", "B"):
        parts = [shard["sides"][side] for shard in shards]
        seat_games = sum(p["seat_games"] for p in parts)
        durak = sum(p["durak"] for p in parts)
        decisions = [p["decisions_per_game"] * p["seat_games"] for p in parts]
        ms_total = sum(p["ms_per_decision"] * d for p, d in zip(parts, decisions, strict=True))
        low, high = wilson(seat_games - durak, seat_games)
        sides[side] = {
            "level": parts[0]["level"],
            "seat_games": seat_games,
            "durak": durak,
            "draws": sum(p["draws"] for p in parts),
            "non_durak_rate": round((seat_games - durak) / seat_games, 4) if seat_games else None,
            "wilson95": [round(low, 4), round(high, 4)],
            "decisions_per_game": round(sum(decisions) / seat_games, 1) if seat_games else 0,
            "ms_per_decision": round(ms_total / sum(decisions), 3) if sum(decisions) else 0,
            "ms_max": max(p["ms_max"] for p in parts),
            "ms_p99": max(p["ms_p99"] for p in parts),  # an upper bound
        }
    return {
        **{key: first[key] for key in same},
        "games": sum(shard["games"] for shard in shards),
        "seed": [shard["seed"] for shard in shards],
        "fair_durak_share": first["fair_durak_share"],
        "seconds": round(sum(shard["seconds"] for shard in shards), 1),
        "sides": sides,
    }


def _last_json(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as file:
        lines = [line for line in file if line.startswith("{")]
    if not lines:
        raise ValueError(f"{path}: no JSON line (run the shard with --json; did it finish?)")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def report(result: dict[str, Any]) -> str:
    rules = ", ".join(
        f"{k}={v}"
        for k, v in result["rules"].items()
        if k in ("deck", "throw_in", "transfer")
        or (k in VARIANT_DEFAULTS and VARIANT_DEFAULTS[k] != v)  # the variants only when set
    )
    lines = [
        f"{result['a']} (A) vs {result['b']} (B): {result['games']} games, "
        f"{result['players']} players, {rules}; {result['seconds']} s"
        + (f" (shards, seeds {result['seed']})" if isinstance(result["seed"], list) else "")
    ]
    for side, s in result["sides"].items():
        low, high = s["wilson95"]
        lines.append(
            f"  {side} {s['level']:<6} seat games {s['seat_games']:>6}  durak {s['durak']:>5}  "
            f"draws {s['draws']:>4}  non-durak {100 * (s['non_durak_rate'] or 0):5.1f}% "
            f"[{100 * low:.1f}, {100 * high:.1f}]  {s['decisions_per_game']} decisions/game  "
            f"{s['ms_per_decision']:.2f} ms avg, {s['ms_p99']:.1f} ms p99, "
            f"{s['ms_max']:.1f} ms max{' (CPU)' if result.get('cpu_time') else ''}"
        )
    if result["players"] > 2:
        lines.append(f"  a fair durak share is {100 * result['fair_durak_share']:.1f}% a seat")
    return "\n".join(lines)


def combine_main(argv: Sequence[str]) -> int:
    """``python -m engine.arena combine LOG...``"""
    parser = argparse.ArgumentParser(
        prog="python -m engine.arena combine",
        description="Add up the shards of one match, each run with --json, and print them as "
        "one run (a report line, then one JSON line).",
    )
    parser.add_argument(
        "logs", nargs="+", metavar="LOG", help="a shard's output; its last JSON line is read"
    )
    args = parser.parse_args(argv)
    try:
        combined = combine([_last_json(path) for path in args.logs])
    except (OSError, ValueError, KeyError) as error:  # a RulesError is a ValueError
        print(f"engine.arena: combine: {error}", file=sys.stderr)
        return 2
    print(report(combined))
    print(json.dumps(combined))
    return 0


def match_parser() -> argparse.ArgumentParser:
    """The match's options; ``combine`` is a command of its own (``combine_main``)."""
    levels = ", ".join(PLAYABLE)
    parser = argparse.ArgumentParser(
        prog="python -m engine.arena",
        usage="%(prog)s A B [options]\n       %(prog)s combine LOG [LOG ...]\n"
        "       %(prog)s ladder [options]",
        description=(__doc__ or "").split("\n")[0],
        epilog="python -m engine.arena combine LOG...: add up the shards of one match, each "
        "run with --json (python -m engine.arena combine --help). python -m engine.arena "
        "ladder: the levels' ratings on the people's scale (python -m engine.arena ladder "
        "--help).",
    )
    parser.add_argument("a", choices=PLAYABLE, metavar="A", help=f"side A: one of {levels}")
    parser.add_argument("b", choices=PLAYABLE, metavar="B", help="side B: one of the same")
    parser.add_argument(
        "--players", type=int, default=2, help="players at the table: one A, the rest B "
        "(default 2)"
    )  # fmt: skip
    parser.add_argument(
        "--games", type=int, default=200, help="games, rounded up to whole deals (default 200)"
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="seeds the deals and decisions (default 1)"
    )
    parser.add_argument(
        "--rules", nargs="*", type=parse_rule, default=[], metavar="KEY=VALUE", help=RULES_HELP
    )
    parser.add_argument("--list-rules", action="store_true", help="print the house rules, exit")
    parser.add_argument(
        "--budget-ms", type=float, default=None, help="hard: milliseconds a decision"
    )
    parser.add_argument(
        "--iterations", type=int, default=None, help="hard: worlds a decision (repeatable)"
    )
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="hard: count --budget-ms in this process's CPU time (a loaded machine)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in (default 1)")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["combine"]:
        return combine_main(argv[1:])
    if argv[:1] == ["ladder"]:
        return ladder_main(argv[1:])
    if "--list-rules" in argv:  # before A and B are asked for
        print("\n".join(rule_lines()))
        return 0
    args = match_parser().parse_args(argv)
    try:
        rules = HouseRules.from_dict(dict(args.rules))
        if not 2 <= args.players <= rules.max_players:
            raise RulesError(f"--players must be 2..{rules.max_players} with these rules")
        problem = rules.player_problem(args.players)
        if problem is not None:
            raise RulesError(f"--players: {problem}")
        if args.games < 1 or args.jobs < 1:
            raise RulesError("--games and --jobs must be at least 1")
    except RulesError as error:
        print(f"engine.arena: {explain_rules_error(error)}", file=sys.stderr)
        return 2
    match = Match(
        args.a, args.b, args.players, rules, args.seed, args.budget_ms, args.iterations,
        args.cpu_time,
    )  # fmt: skip
    result = run(match, args.games, args.jobs)
    print(report(result))
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
