"""Speed of the engine: seeded, uniformly random legal games, through both APIs.

    python -m engine.bench [--players N] [--seconds S] [--json] [--rules KEY=VALUE ...]
    python -m engine.bench --list-rules

The public object API (``games_per_s``): each step asks ``to_act`` who may act, picks one
of them at random, asks ``legal_actions`` for that player, picks one action at random and
``apply``s it: exactly what the bot does, with no shortcut into the engine's internals.
The search API (``search_games_per_s``): ``new_position`` deals, ``Position.playout``
plays the same kind of random game in place, as a computer player's simulations do. Each
gets ``--seconds``; rates are per second of this process's CPU time (``process_time``), so
that other processes sharing the core do not count against the engine. The default rules
put every rule in force that costs time: ``throw_in=all``,
``first_bout_limit=until_first_beaten`` and transfers. ``compiled`` says whether the rules
core runs compiled (mypyc) or as plain Python.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from ._build import compiled
from .cards import Suit
from .game import new_game
from .moves import legal_actions, to_act
from .play import apply
from .rule_words import RULES_HELP, explain_rules_error, rule_lines, rules_json
from .rules import BLIND_EXCLUDES, HouseRules, RulesError, TrumpChoice, parse_rule
from .search import new_position
from .state import GameState

BENCH_RULES = {"throw_in": "all", "first_bout_limit": "until_first_beaten", "transfer": True}


def play_random_game(players: int, rules: HouseRules, seed: int) -> tuple[GameState, int]:
    """One game of uniformly random legal play; returns the final state and action count."""
    rng = random.Random(seed)
    named = Suit(seed % 4) if rules.trump is TrumpChoice.DEALER else None  # R-TRUMP-1
    state = new_game(players, rules=rules, seed=seed, trump=named)
    actions = 0
    while not state.finished:
        seats = to_act(state)
        player = seats[int(rng.random() * len(seats))]
        choices = legal_actions(state, player)
        state, _ = apply(state, choices[int(rng.random() * len(choices))])
        actions += 1
    return state, actions


def harness_floor(actions: int = 300_000) -> float:
    """Microseconds an action costs the benchmark loop itself: the same random choices and
    calls, to functions that do no work (a state is still rebuilt, as ``apply`` must)."""
    rng = random.Random(0)
    state = ((0, 1), *range(12))

    def seats_to_act(state: tuple[Any, ...]) -> Any:
        return state[0]

    def choices_of(state: tuple[Any, ...], player: int) -> list[int]:
        return [player, player + 1, player + 2]

    def step(state: tuple[Any, ...], action: int) -> tuple[tuple[Any, ...], tuple[int]]:
        return (state[0], *state[1:12], state[12] + 1), (action,)

    started = time.process_time()
    for _ in range(actions):
        seats = seats_to_act(state)
        player = seats[int(rng.random() * len(seats))]
        choices = choices_of(state, player)
        state, _ = step(state, choices[int(rng.random() * len(choices))])
    return (time.process_time() - started) / actions * 1e6


def search_games(players: int, rules: HouseRules, seconds: float) -> tuple[int, int, float]:
    """Random games dealt and played out through the search API for ``seconds``, one
    seeded generator for the whole run; (games, actions, CPU seconds)."""
    rng = random.Random(0)
    games = actions = 0
    started = time.process_time()
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            position = new_position(players, rng, rules)
            position.playout(rng)
            games += 1
            actions += position.moves
    return games, actions, time.process_time() - started


def run(players: int, rules: HouseRules, seconds: float) -> dict[str, Any]:
    games = actions = 0
    largest_state = 0
    started = time.process_time()
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            _, count = play_random_game(players, rules, seed=games)
            games += 1
            actions += count
    elapsed = time.process_time() - started
    search, search_actions, search_elapsed = search_games(players, rules, seconds)
    # The JSON size of a state right after the deal, when hands and stock are fullest.
    for seed in range(50):
        named = Suit(seed % 4) if rules.trump is TrumpChoice.DEALER else None
        state = new_game(players, rules=rules, seed=seed, trump=named)
        size = len(json.dumps(state.to_dict()))
        largest_state = max(largest_state, size)
    return {
        "players": players,
        "compiled": compiled(),
        "rules": rules_json(rules),
        "seconds": round(elapsed, 3),
        "games": games,
        "actions": actions,
        "games_per_s": round(games / elapsed, 1),
        "actions_per_s": round(actions / elapsed, 1),
        "actions_per_game": round(actions / games, 1),
        "search_games": search,
        "search_games_per_s": round(search / search_elapsed, 1),
        "search_actions_per_s": round(search_actions / search_elapsed, 1),
        "state_json_bytes": largest_state,
        "harness_us_per_action": round(harness_floor(), 2),
    }


def bench_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.bench", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--players", type=int, default=2, help="players in every game (default 2)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=5.0,
        help="wall-clock seconds for each API; rates count CPU time (default 5)",
    )
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    bench_rules = " ".join(f"{k}={_word(v)}" for k, v in BENCH_RULES.items())
    parser.add_argument(
        "--rules",
        nargs="*",
        type=parse_rule,
        default=[],
        metavar="KEY=VALUE",
        help=f"{RULES_HELP}; added to the bench's own, {bench_rules} (a blind game: no transfers)",
    )
    parser.add_argument("--list-rules", action="store_true", help="print the house rules, exit")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = bench_parser().parse_args(argv)
    if args.list_rules:
        print("\n".join(rule_lines()))
        return 0
    settings: dict[str, Any] = dict(BENCH_RULES)
    given = dict(args.rules)
    if given.get("blind", "off") not in ("off", False):  # R-BLIND-1: played without transfers
        settings.update({key: value for key, value in BLIND_EXCLUDES.items() if key not in given})
    settings.update(given)
    try:
        rules = HouseRules.from_dict(settings)
        if not 2 <= args.players <= rules.max_players:
            raise RulesError(f"--players must be 2..{rules.max_players} with these rules")
        problem = rules.player_problem(args.players)
        if problem is not None:
            raise RulesError(f"--players: {problem}")
    except RulesError as error:
        print(f"engine.bench: {explain_rules_error(error)}", file=sys.stderr)
        return 2
    result = run(args.players, rules, args.seconds)
    build = "compiled" if result["compiled"] else "plain Python"
    print(
        f"{result['players']} players, {build}: public API {result['games']} games in "
        f"{result['seconds']} s: {result['games_per_s']:,.0f} games/s, "
        f"{result['actions_per_s']:,.0f} actions/s ({result['actions_per_game']} actions a "
        f"game); search API {result['search_games_per_s']:,.0f} games/s, "
        f"{result['search_actions_per_s']:,.0f} actions/s; state JSON "
        f"{result['state_json_bytes']} bytes at most; the loop alone costs "
        f"{result['harness_us_per_action']} µs an action"
    )
    if args.json:
        print(json.dumps(result))
    return 0


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


if __name__ == "__main__":
    sys.exit(main())
