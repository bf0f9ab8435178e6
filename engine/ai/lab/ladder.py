"""The computer players' ratings on the scale people are rated on (``engine.rating``).

    python -m engine.arena ladder [--games G] [--seed S] [--budget-ms M] [--cpu-time]
                                  [--jobs J] [--json] [--out FILE]

A round robin of the levels ``random``, ``easy``, ``normal`` and ``hard``: every table of 2,
3 and 4 different levels (6 pairs, 4 threes, 1 four), 36 cards, the default house rules, G
games a table (rounded up to whole deals). Each deal is played once in every rotation of
the seats, so every level sits in every seat of it, as the arena plays its deals
(``engine.ai.lab.table.play_game``, the same deals at every table of one size).

The rating: every game is one result of the Plackett-Luce model over its finishing order,
the model people are rated by (``bot.rating``), with the places of ``engine.places``: who
left in the same bout ties, the durak is last, a draw ties everybody. People are rated one
game after another, as their skill moves; a level does not move, so its skill is the one
that explains all its games best (``engine.ai.lab.skills.fit``): the same model, every game
counted once, the levels' average where a newcomer starts (``START_MU``).

Printed for each level, strongest (highest ``mu``) first: ``mu``, ``sigma``, the rating
people would be shown, ``displayed(mu, sigma)``, and its interval
``displayed(mu - 2 sigma, sigma)`` .. ``displayed(mu + 2 sigma, sigma)``: the shown rating
were the skill two ``sigma`` lower or higher (``POINTS_PER_MU * 2 sigma`` either side).
Then the games each level played, whether the intervals overlap, and the raw heads-up
scores (a game won 1, a draw 1/2) that the ratings come from in part.

``--out FILE`` writes the JSON object (the one ``--json`` prints last) to FILE, every
game's levels and places included: the bot's computers are shipped rated so
(``engine/ai/ladder.json``, read by ``engine.ai.ladder``). ``--rate FILE`` rates the games
of such a file again without playing them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Final

from ...rating import START_MU, START_SIGMA, displayed
from ...rule_words import rules_json
from ...rules import HouseRules
from .. import LEVELS
from .skills import Game, fit
from .table import GameResult, Match, play_game

__all__ = ["LADDER_LEVELS", "Ladder", "ladder_tables", "main", "report"]

LADDER_LEVELS: Final[tuple[str, ...]] = LEVELS  # random, easy, normal, hard
TABLE_SIZES: Final = (2, 3, 4)
INTERVAL_SIGMAS: Final = 2.0

Task = tuple[Match, int, tuple[str, ...]]


def ladder_tables(levels: Sequence[str] = LADDER_LEVELS) -> list[tuple[str, ...]]:
    """Every table of 2, 3 and 4 different levels, in the order of ``levels``.

    >>> [len(t) for t in ladder_tables()]
    [2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4]
    """
    return [table for size in TABLE_SIZES for table in combinations(levels, size)]


def rotations(table: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The table's seatings: each level in every seat once, the order around it kept.

    >>> rotations(("easy", "hard", "random"))
    [('easy', 'hard', 'random'), ('hard', 'random', 'easy'), ('random', 'easy', 'hard')]
    """
    return [table[k:] + table[:k] for k in range(len(table))]


def ladder_tasks(
    games: int, seed: int, budget_ms: float | None, cpu_time: bool, rules: HouseRules
) -> list[Task]:
    """Every game of the ladder, in the seeded order they are rated in."""
    tasks: list[Task] = []
    for table in ladder_tables():
        match = Match(table[0], table[1], len(table), rules, seed, budget_ms, None, cpu_time)
        seatings = rotations(table)
        for deal in range(-(-games // len(seatings))):
            tasks += [(match, deal, seating) for seating in seatings]
    # Shuffled: rated in table order, the last tables would weigh most in the end.
    random.Random(f"ladder:{seed}").shuffle(tasks)
    return tasks


def _play(task: Task) -> GameResult:
    match, deal, seating = task
    return play_game(match, deal, seating, {level: level for level in seating})


def play(tasks: list[Task], jobs: int) -> Iterator[GameResult]:
    """The tasks' games, in the tasks' order (``pool.map`` keeps it)."""
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            yield from pool.map(_play, tasks, chunksize=4)
    else:
        yield from map(_play, tasks)


@dataclass(slots=True)
class Ladder:
    """A ladder's games and counts, one game at a time (``add``), and the levels' ratings
    from all of them (``standings``)."""

    results: list[Game] = field(default_factory=list)
    games: dict[str, int] = field(default_factory=dict)
    # Heads-up: the row level's score against the column level (a win 1, a draw 1/2).
    score: dict[str, dict[str, float]] = field(default_factory=dict)
    heads_up: dict[str, dict[str, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for level in LADDER_LEVELS:
            self.games[level] = 0
            self.score[level] = {other: 0.0 for other in LADDER_LEVELS if other != level}
            self.heads_up[level] = {other: 0 for other in LADDER_LEVELS if other != level}

    def add(self, levels: Sequence[str], places: Sequence[int]) -> None:
        """One game: the levels by seat and where each finished (1 the best)."""
        self.results.append((tuple(levels), tuple(places)))
        for level in levels:
            self.games[level] += 1
        if len(levels) == 2:
            (a, b), (place_a, place_b) = levels, places
            won = 1.0 if place_a < place_b else 0.0 if place_a > place_b else 0.5
            self.score[a][b] += won
            self.score[b][a] += 1.0 - won
            self.heads_up[a][b] += 1
            self.heads_up[b][a] += 1

    def standings(self) -> list[dict[str, Any]]:
        """Each level's figures, strongest (highest ``mu``) first."""
        rows = []
        for level, skill in fit(self.results, LADDER_LEVELS).items():
            mu, sigma = skill.mu, skill.sigma
            low = displayed(mu - INTERVAL_SIGMAS * sigma, sigma)
            high = displayed(mu + INTERVAL_SIGMAS * sigma, sigma)
            rows.append({
                "level": level,
                "mu": mu,  # unrounded: ``displayed`` gives "displayed" again
                "sigma": sigma,
                "displayed": displayed(mu, sigma),
                "interval": [low, high],
                "games": self.games[level],
            })  # fmt: skip
        return sorted(rows, key=lambda row: -row["mu"])


def overlaps(standings: list[dict[str, Any]]) -> list[list[str]]:
    """The pairs of levels whose intervals overlap (``standings`` strongest first).

    >>> overlaps([{"level": "a", "interval": [1600, 1700]},
    ...           {"level": "b", "interval": [1500, 1610]}, {"level": "c", "interval": [0, 9]}])
    [['a', 'b']]
    """
    return [
        [upper["level"], lower["level"]]
        for i, upper in enumerate(standings)
        for lower in standings[i + 1 :]
        if lower["interval"][1] >= upper["interval"][0]
    ]


def command_line(args: argparse.Namespace) -> str:
    """The command that plays this ladder again (the options that change its games)."""
    words = ["python", "-m", "engine.arena", "ladder", "--games", str(args.games)]
    words += ["--seed", str(args.seed)]
    if args.budget_ms is not None:
        words += ["--budget-ms", f"{args.budget_ms:g}"]
    if args.cpu_time:
        words.append("--cpu-time")
    return " ".join(words)


# What a ladder's file says of how its games were played, kept when they are rated again.
PLAYED: Final = ("command", "tables", "games", "games_per_table", "seed", "budget_ms",
                 "cpu_time", "rules", "seconds")  # fmt: skip
MODEL_WORDS: Final = (
    "the Plackett-Luce model over all games at once (engine.ai.lab.skills), the levels' "
    "average at a newcomer's mu"
)


def run_ladder(args: argparse.Namespace) -> dict[str, Any]:
    """Play the ladder's games and rate them."""
    started = time.perf_counter()
    rules = HouseRules()
    tasks = ladder_tasks(args.games, args.seed, args.budget_ms, args.cpu_time, rules)
    ladder = Ladder()
    for result in play(tasks, args.jobs):
        ladder.add(result.levels, result.places)
    tables = ladder_tables()
    played = {
        "command": command_line(args),
        "tables": {str(size): sum(len(t) == size for t in tables) for size in TABLE_SIZES},
        "games": len(tasks),
        "games_per_table": args.games,
        "seed": args.seed,
        "budget_ms": args.budget_ms,
        "cpu_time": args.cpu_time,
        "rules": rules_json(rules),
        "seconds": round(time.perf_counter() - started, 1),
    }
    return rated(ladder, played)


def rate_again(path: Path) -> dict[str, Any]:
    """The games of the ladder file ``path`` rated again, as they were played."""
    written = json.loads(path.read_text(encoding="utf-8"))
    if not written.get("results"):
        raise ValueError(f'{path} holds no games to rate (its "results")')
    ladder = Ladder()
    for levels, places in written["results"]:
        ladder.add(levels, places)
    return rated(ladder, {key: written[key] for key in PLAYED})


def rated(ladder: Ladder, played: dict[str, Any]) -> dict[str, Any]:
    """The ladder file's object: the ratings of ``ladder``'s games, how they were played,
    and every game's levels and places."""
    standings = ladder.standings()
    return {
        "command": played["command"],
        "levels": [row["level"] for row in standings],
        "ratings": {row["level"]: {k: v for k, v in row.items() if k != "level"}
                    for row in standings},
        "overlapping": overlaps(standings),
        "heads_up": {level: {other: {"score": ladder.score[level][other],
                                     "games": ladder.heads_up[level][other]}
                             for other in ladder.score[level]} for level in LADDER_LEVELS},
        "model": MODEL_WORDS,
        "start": {"mu": START_MU, "sigma": START_SIGMA},
        "interval": f"displayed(mu - {INTERVAL_SIGMAS:g} sigma, sigma) .. "
                    f"displayed(mu + {INTERVAL_SIGMAS:g} sigma, sigma)",
        **{key: played[key] for key in PLAYED if key != "command"},
        "results": [[list(levels), list(places)] for levels, places in ladder.results],
    }  # fmt: skip


def report(result: dict[str, Any]) -> str:
    tables = result["tables"]
    budget = "hard's default budget" if result["budget_ms"] is None else (
        f"hard at {result['budget_ms']:g} ms")  # fmt: skip
    lines = [
        f"ladder of {', '.join(result['levels'])}: {tables['2']} tables of 2 players, "
        f"{tables['3']} of 3, {tables['4']} of 4; {result['games']} games; "
        f"{result['rules']['deck']} cards, default rules; {budget}"
        f"{' (CPU time)' if result['cpu_time'] else ''}; seed {result['seed']}; "
        f"{result['seconds']} s",
        f"  rated by {result['model']} ({result['start']['mu']:g}, first spread "
        f"{result['start']['sigma']:.2f}); interval: {result['interval']}",
        f"  {'level':<7}{'mu':>7}{'sigma':>7}{'rating':>8}  {'interval':<13}{'games':>6}",
    ]
    for level in result["levels"]:
        row = result["ratings"][level]
        low, high = row["interval"]
        lines.append(
            f"  {level:<7}{row['mu']:>7.2f}{row['sigma']:>7.2f}{row['displayed']:>8}  "
            f"{f'[{low}, {high}]':<13}{row['games']:>6}"
        )
    overlapping = result["overlapping"]
    lines.append(
        "  intervals overlapping: "
        + (", ".join(f"{a} and {b}" for a, b in overlapping) if overlapping else "none")
    )
    heads_up = result["heads_up"]
    order = result["levels"]
    lines.append("  heads-up score of the row against the column (a win 1, a draw 1/2) / games:")
    lines.append("  " + " " * 7 + "".join(f"{level:>12}" for level in order))
    for level in order:
        cells = [
            "-" if other == level
            else f"{heads_up[level][other]['score']:g}/{heads_up[level][other]['games']}"
            for other in order
        ]  # fmt: skip
        lines.append(f"  {level:<7}" + "".join(f"{cell:>12}" for cell in cells))
    return "\n".join(lines)


def ladder_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.arena ladder",
        description="The computer players' ratings on the people's scale: a round robin of "
        f"{', '.join(LADDER_LEVELS)} at every table of 2, 3 and 4 different levels, 36 cards, "
        "default rules, each game rated by the Plackett-Luce model (openskill) over its "
        "finishing order.",
    )
    parser.add_argument(
        "--games", type=int, default=100,
        help="games a table, rounded up to whole deals (default 100)",
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=int, default=1, help="seeds the deals, decisions and order (default 1)"
    )
    parser.add_argument(
        "--budget-ms", type=float, default=None,
        help="hard: milliseconds a decision (default hard's own, as the arena's)",
    )  # fmt: skip
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="hard: count --budget-ms in the process's CPU time (a loaded machine)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in (default 1)")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    parser.add_argument(
        "--out", type=Path, default=None, metavar="FILE", help="write the JSON object to FILE"
    )
    parser.add_argument(
        "--rate", type=Path, default=None, metavar="FILE",
        help="play nothing: rate the games of a ladder's FILE (its --out) again",
    )  # fmt: skip
    return parser


def main(argv: Sequence[str]) -> int:
    """``python -m engine.arena ladder ...``"""
    args = ladder_parser().parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        print("engine.arena: ladder: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    if args.budget_ms is not None and args.budget_ms <= 0:
        print("engine.arena: ladder: --budget-ms must be positive", file=sys.stderr)
        return 2
    if args.rate is not None:
        try:
            result = rate_again(args.rate)
        except (OSError, ValueError, KeyError) as error:
            print(f"engine.arena: ladder: --rate: {error}", file=sys.stderr)
            return 2
    else:
        result = run_ladder(args)
    print(report(result))
    if args.json:
        print(json.dumps(result))
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0
