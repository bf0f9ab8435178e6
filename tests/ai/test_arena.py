"""The arena: fair seating, the Wilson interval, and its command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import HouseRules, apply, new_game
from engine.ai import LEVELS, choose_action, who_acts
from engine.ai.knowledge import seat_knowledge
from engine.ai.lab import ARENA_LEVELS
from engine.ai.lab.seer import SeerWorlds
from engine.arena import Match, combine, main, play_game, run, seatings, wilson


def test_each_deal_is_played_with_every_side_in_every_seat() -> None:
    assert seatings(2) == [("A", "B"), ("B", "A")]
    assert seatings(3) == [("A", "B", "B"), ("B", "A", "B"), ("B", "B", "A")]


def test_a_deal_is_the_same_cards_whoever_sits_where() -> None:
    """Swapping the seats of two identical players replays the same game: same durak seat."""
    match = Match("normal", "normal", 2, HouseRules(), seed=3)
    assert play_game(match, 0, ("A", "B")).durak == play_game(match, 0, ("B", "A")).durak


def test_wilson_interval() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.27 < high < 0.28
    low, high = wilson(10, 10)
    assert round(high, 9) == 1.0 and 0.72 < low < 0.73
    assert wilson(0, 0) == (0.0, 1.0)


def test_run_counts_every_seat_game() -> None:
    result = run(Match("normal", "random", 3, HouseRules(), seed=1), games=5)
    assert result["games"] == 6  # rounded up to whole deals of three seatings
    a, b = result["sides"]["A"], result["sides"]["B"]
    assert a["seat_games"] == 6 and b["seat_games"] == 12
    assert a["durak"] + b["durak"] + a["draws"] == 6  # a durak or a draw in every game
    assert a["decisions_per_game"] > 0 and a["ms_max"] >= a["ms_per_decision"]


def test_command_line_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["easy", "random", "--games", "4", "--seed", "2", "--rules", "deck=24", "--json"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    result = json.loads(lines[-1])
    assert result["rules"]["deck"] == 24
    assert result["sides"]["A"]["level"] == "easy"
    assert result["sides"]["A"]["seat_games"] == 4
    assert "non-durak" in lines[1]


def test_shards_combine_into_the_sums_of_one_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two shards of different seeds: counts add up, the interval is the totals'."""
    paths = []
    for seed in (1, 2):
        assert main(["normal", "random", "--games", "6", "--seed", str(seed), "--json"]) == 0
        path = tmp_path / f"shard-{seed}.log"
        path.write_text(capsys.readouterr().out)
        paths.append(path)
    shards = [json.loads(p.read_text().splitlines()[-1]) for p in paths]
    assert main(["combine", *map(str, paths)]) == 0
    combined = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert combined == combine(shards)
    assert combined["games"] == 12 and combined["seed"] == [1, 2]
    a = combined["sides"]["A"]
    durak = sum(s["sides"]["A"]["durak"] for s in shards)
    assert a["seat_games"] == 12 and a["durak"] == durak
    assert a["wilson95"] == [round(x, 4) for x in wilson(12 - durak, 12)]
    assert a["ms_p99"] == max(s["sides"]["A"]["ms_p99"] for s in shards)


def test_shards_of_different_matches_do_not_combine(capsys: pytest.CaptureFixture[str]) -> None:
    one = run(Match("normal", "random", 2, HouseRules(), seed=1), games=2)
    other = run(Match("easy", "random", 2, HouseRules(), seed=2), games=2)
    with pytest.raises(ValueError, match="a differ"):
        combine([one, other])
    assert main(["combine", "/nonexistent/shard.log"]) == 2
    assert "engine.arena: combine:" in capsys.readouterr().err


def test_command_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["normal", "random", "--players", "5", "--rules", "deck=24"]) == 2
    assert "--players must be 2..4" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["normal", "grandmaster"])


def test_hard_v1_plays_in_the_arena_but_is_not_offered_to_players() -> None:
    """The first ``hard`` stays to measure the new one against; on CPU time the p99 of the
    decisions' milliseconds lies between their average and the slowest."""
    assert "hard-v1" not in LEVELS and "hard-v1" in ARENA_LEVELS
    state = new_game(2, seed=5)
    with pytest.raises(ValueError):
        choose_action(state, who_acts(state), "hard-v1")
    match = Match("hard", "hard-v1", 2, HouseRules(deck=24), seed=1, budget_ms=5, cpu_time=True)
    result = run(match, games=2)
    a, b = result["sides"]["A"], result["sides"]["B"]
    assert a["seat_games"] == 2 and b["seat_games"] == 2 and result["cpu_time"]
    for side in (a, b):
        assert 0 < side["ms_p99"] <= side["ms_max"]


def test_hard_seer_is_an_arena_experiment_that_sees_every_hand() -> None:
    """``hard-seer`` (the ceiling of inference) is no level: ``choose_action``
    refuses it, the arena plays it; its worlds hold every other hand as it truly is, only
    the stock's hidden cards dealt anew."""
    assert "hard-seer" not in ARENA_LEVELS
    state = new_game(2, seed=5)
    with pytest.raises(ValueError):
        choose_action(state, who_acts(state), "hard-seer")
    for step in range(12):
        seat = who_acts(state)
        worlds = SeerWorlds(seat_knowledge(state, seat), random.Random(step), state.hands)
        for _ in range(3):
            world = worlds.sample()
            assert world is not None and tuple(world.hands) == state.hands
            assert sorted(world.stock) == sorted(int(card) for card in state.stock)
        state, _ = apply(state, choose_action(state, seat, "normal"))
    match = Match("hard-seer", "normal", 2, HouseRules(deck=24), seed=1, iterations=2)
    result = run(match, games=2)
    assert result["sides"]["A"]["seat_games"] == 2


def test_the_offered_levels_never_load_the_lab() -> None:
    """``engine.ai`` offers people its levels without importing a player kept only for
    measuring: a fresh interpreter that imports it and decides has no ``engine.ai.lab``."""
    code = (
        "import sys; from engine import new_game; from engine.ai import choose_action, who_acts;"
        "s = new_game(2, seed=1); choose_action(s, who_acts(s), 'hard', iterations=2);"
        "print(sorted(m for m in sys.modules if m.startswith('engine.ai.lab')))"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
