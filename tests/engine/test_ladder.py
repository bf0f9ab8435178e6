"""The computer players' ladder: finishing places (R-OUT-2, R-OUT-5, R-OUT-6), the ladder
command and its JSON, the shipped ratings and their loader, and openskill kept out of the
players people are offered."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from types import ModuleType

import pytest
from test_cli_help import option_helps

from engine import GameState, new_game
from engine.ai import LEVELS, choose_action, who_acts
from engine.ai import ladder as ladder_module
from engine.ai.lab import ladder as lab_ladder_module
from engine.ai.lab.ladder import Ladder, ladder_tables, rate_again
from engine.ai.lab.ladder import main as ladder_main
from engine.ai.ladder import ladder, ladder_rating
from engine.events import BoutStarted, Drew, Event, GameOver, PlayerOut, Resigned
from engine.places import places
from engine.play import apply
from engine.rating import START_MU, START_SIGMA, displayed

ROOT = Path(__file__).resolve().parents[2]


def random_game(players: int, seed: int) -> tuple[GameState, list[tuple[Event, ...]]]:
    """A game of ``random`` players to its end, and the events of each move."""
    state = new_game(players, seed=seed)
    moves: list[tuple[Event, ...]] = []
    while state.bout is not None:
        action = choose_action(state, who_acts(state), "random", seed=f"{seed}:{state.moves}")
        state, events = apply(state, action)
        moves.append(events)
    return state, moves


def games(players: int) -> Iterator[tuple[GameState, list[tuple[Event, ...]]]]:
    for seed in range(400):
        yield random_game(players, seed)


def out_together(moves: list[tuple[Event, ...]]) -> list[set[int]]:
    """The seats that left at each move where somebody left."""
    together = [{e.player for e in events if isinstance(e, PlayerOut)} for events in moves]
    return [seats for seats in together if seats]


# --- places --------------------------------------------------------------------------------


def test_r_out_6_places_follow_the_order_of_leaving_and_the_durak_is_last() -> None:
    events: list[Event] = [
        PlayerOut(1, 1), BoutStarted(2, 3, 6), PlayerOut(3, 2), BoutStarted(0, 2, 6),
        PlayerOut(0, 3), GameOver(2),
    ]  # fmt: skip
    assert places(4, events) == (3, 1, 4, 2)


def test_r_out_2_players_who_leave_in_one_bout_share_a_place() -> None:
    events: list[Event] = [
        PlayerOut(2, 1), PlayerOut(0, 2), BoutStarted(1, 3, 6), PlayerOut(3, 3), GameOver(1),
    ]  # fmt: skip
    assert places(4, events) == (1, 4, 1, 3)


def test_r_out_5_a_draw_ties_everybody_even_those_who_left_before() -> None:
    assert places(2, [Drew(0, 1), PlayerOut(0, 1), PlayerOut(1, 2), GameOver(None)]) == (1, 1)
    three: list[Event] = [PlayerOut(1, 1), BoutStarted(2, 0, 6), PlayerOut(2, 2),
                          PlayerOut(0, 3), GameOver(None)]  # fmt: skip
    assert places(3, three) == (1, 1, 1)


def test_a_resignation_ranks_the_resigner_last_and_ties_those_still_in() -> None:
    events: list[Event] = [PlayerOut(2, 1), BoutStarted(3, 0, 6), Resigned(0), GameOver(0)]
    assert places(4, events) == (4, 2, 1, 2)


def test_places_of_an_unfinished_game_are_refused() -> None:
    with pytest.raises(ValueError, match="not over"):
        places(2, [PlayerOut(0, 1), BoutStarted(1, 0, 6)])


def test_places_of_real_games_agree_with_the_final_state() -> None:
    """Four-player games of ``random`` players: the durak last, the others in the order of
    ``GameState.out``, and a shared place exactly for seats that left on the same move (all
    tied in a draw)."""
    shared = 0
    for end, moves in games(4):
        got = places(4, [event for events in moves for event in events])
        if end.is_draw:
            assert got == (1, 1, 1, 1)
            continue
        assert end.durak is not None
        assert got[end.durak] == 4
        assert sorted(got).count(4) == 1
        leaving = [got[seat] for seat in end.out]
        assert leaving == sorted(leaving)
        for seats in out_together(moves):
            assert len({got[seat] for seat in seats}) == 1
            assert sum(got[seat] == got[next(iter(seats))] for seat in range(4)) == len(seats)
            shared += len(seats) > 1
        if shared >= 3:
            break
    assert shared >= 3, "no game where two players left in one bout"


def test_a_real_heads_up_draw_ties_both() -> None:
    for end, moves in games(2):
        if end.is_draw:
            assert places(2, [event for events in moves for event in events]) == (1, 1)
            return
    pytest.fail("no draw in the games tried")


# --- the rating ------------------------------------------------------------------------------


def test_a_win_moves_the_ratings_apart_and_a_draw_of_equals_keeps_mu() -> None:
    rated = Ladder()
    rated.add(("hard", "easy"), (1, 2))
    rated.add(("normal", "random"), (1, 1))
    rows = {row["level"]: row for row in rated.standings()}
    assert rows["hard"]["mu"] > START_MU > rows["easy"]["mu"]
    assert rows["normal"]["mu"] == pytest.approx(START_MU)
    assert rows["random"]["mu"] == pytest.approx(START_MU)
    assert rows["normal"]["sigma"] < START_SIGMA
    assert rated.score["normal"]["random"] == 0.5
    assert rated.games == {"hard": 1, "easy": 1, "normal": 1, "random": 1}


def test_the_round_robin_has_every_table_of_different_levels() -> None:
    tables = ladder_tables()
    assert len(tables) == 6 + 4 + 1
    assert all(len(set(table)) == len(table) and set(table) <= set(LEVELS) for table in tables)


def test_a_tiny_ladder_ends_with_its_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "ladder.json"
    argv = ["--games", "2", "--seed", "3", "--budget-ms", "2", "--json", "--out", str(out)]
    assert ladder_main(argv) == 0
    printed = capsys.readouterr().out.splitlines()
    result = json.loads(printed[-1])
    assert json.loads(out.read_text(encoding="utf-8")) == result
    assert sorted(result["levels"]) == sorted(LEVELS)
    assert result["command"] == "python -m engine.arena ladder --games 2 --seed 3 --budget-ms 2"
    # 6 pairs of 1 deal, 4 threes of 1 deal, 1 four of 1 deal, every rotation of each
    assert result["games"] == 6 * 2 + 4 * 3 + 4
    mus = [result["ratings"][level]["mu"] for level in result["levels"]]
    assert mus == sorted(mus, reverse=True)
    for level, row in result["ratings"].items():
        assert row["games"] == 3 * 2 + 3 * 3 + 4
        assert row["displayed"] == displayed(row["mu"], row["sigma"])
        assert row["interval"][0] < row["displayed"] < row["interval"][1]
        assert sum(cell["games"] for cell in result["heads_up"][level].values()) == 6
        assert any(line.lstrip().startswith(level) for line in printed[3:7])
    assert set(result) >= {"overlapping", "heads_up", "seed", "budget_ms", "rules", "seconds"}
    assert len(result["results"]) == result["games"]
    assert all(sorted(levels) == sorted(set(levels)) for levels, _ in result["results"])

    # Rated again from the file alone, the games give the same ratings and the same file.
    assert ladder_main(["--rate", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == result


def test_rating_a_file_without_games_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("{}", encoding="utf-8")
    assert ladder_main(["--rate", str(empty)]) == 2
    assert "holds no games" in capsys.readouterr().err
    assert ladder_main(["--rate", str(tmp_path / "missing.json")]) == 2
    assert "--rate" in capsys.readouterr().err


def test_the_ladders_help_explains_every_option() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine.arena", "ladder", "--help"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: python -m engine.arena ladder")
    helps = option_helps(done.stdout)
    assert set(helps) == {"-h", "--games", "--seed", "--budget-ms", "--cpu-time", "--jobs",
                          "--json", "--out", "--rate"}  # fmt: skip
    assert all(text.strip() for text in helps.values()), helps
    arena_help = subprocess.run(
        [sys.executable, "-m", "engine.arena", "--help"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    ).stdout  # fmt: skip
    assert "engine.arena ladder" in arena_help


def test_a_ladder_of_no_games_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert ladder_main(["--games", "0"]) == 2
    assert "--games" in capsys.readouterr().err


# --- the shipped ladder ----------------------------------------------------------------------


def test_the_shipped_ladder_rates_every_level_as_it_shows() -> None:
    shipped = ladder()
    assert shipped["command"].startswith("python -m engine.arena ladder ")
    assert set(shipped["ratings"]) == set(LEVELS)
    for level in LEVELS:
        mu, sigma = ladder_rating(level)
        row = shipped["ratings"][level]
        assert (mu, sigma) == (row["mu"], row["sigma"])
        assert row["displayed"] == displayed(mu, sigma)
        assert row["interval"] == [
            displayed(mu - 2 * sigma, sigma),
            displayed(mu + 2 * sigma, sigma),
        ]
        assert row["games"] > 0


def test_the_shipped_ladder_orders_the_levels_apart_as_they_are_meant() -> None:
    order = ("hard", "normal", "easy", "random")
    mus = [ladder_rating(level)[0] for level in order]
    assert mus == sorted(mus, reverse=True)
    intervals = [ladder()["ratings"][level]["interval"] for level in order]
    for (low, _), (_, high_below) in pairwise(intervals):
        assert high_below < low
    assert ladder()["overlapping"] == []


def test_the_shipped_ladder_is_its_own_games_rated() -> None:
    """Anyone can rate the shipped games again (``--rate``) and get the shipped ratings."""
    shipped = ROOT / "engine" / "ai" / "ladder.json"
    assert rate_again(shipped) == ladder()


def test_an_unknown_level_has_no_rating() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        ladder_rating("hard-v1")


@pytest.mark.parametrize("module", [ladder_module, lab_ladder_module], ids=lambda m: m.__name__)
def test_the_ladder_modules_examples_run_as_shown(module: ModuleType) -> None:
    failed, attempted = doctest.testmod(module, report=False)
    assert attempted and not failed


def test_the_engine_never_loads_openskill() -> None:
    """engine/ has no third-party dependency: the levels, the shipped ratings, the arena and
    its ladder run without openskill, which rates people in the bot."""
    code = (
        "import sys; from engine import new_game; from engine.ai import choose_action, who_acts;"
        "from engine.ai.ladder import ladder_rating; import engine.arena, engine.ai.lab.ladder;"
        "s = new_game(2, seed=1); choose_action(s, who_acts(s), 'hard', iterations=2);"
        "ladder_rating('hard');"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'openskill'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
