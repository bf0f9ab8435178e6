"""The end of a game at the terminal: the summary, the seed, «ещё раз», «сохранить запись»
(a record that ``python -m engine.replay`` replays to the same end), and the computers'
moves paced as the bot paces them."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.config import Settings
from bot.i18n import translator
from engine import HouseRules
from engine.replay import state_to_record_dict
from terminal.__main__ import parse
from terminal.game import Options
from terminal.session import Session, replay_command
from terminal.texts import plain

Play = Callable[..., tuple[str, Session]]  # the ``play`` fixture (conftest.py)
ROOT = Path(__file__).resolve().parents[2]
SAVE, AGAIN, LEAVE = "2", "1", "3"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_end_shows_places_the_duraks_so_far_and_the_seed(lang: str, play: Play) -> None:
    out, session = play(Options(players=3, level="easy", seed=21), lang, after=[AGAIN, LEAVE])
    tr = translator(lang)
    assert out.count(plain(tr.t("table-title-over"))) == 2
    assert out.count(tr.t("term-after-game")) == 2
    assert tr.t("term-games-played", count=2) in out
    tally = ", ".join(
        tr.t(
            "series-tally-entry", name=name, count=sum(p.end.durak == seat for p in session.played)
        )
        for seat, name in enumerate(session.table.names)
    )
    assert tr.t("series-tally", tally=tally) in out
    first = session.played[0].end
    places = [tr.t("table-order-line", place=n, name=session.table.names[s])
              for n, s in enumerate(first.out, start=1)]  # fmt: skip
    assert all(line in out for line in places)
    command = "durak-play --players 3 --level easy --seed 21"
    assert tr.t("term-seed", seed=21, command=command) in out
    assert out.rstrip().endswith(tr.t("term-goodbye"))
    assert tr.t("term-bye") not in out


def test_again_deals_the_next_game_at_the_same_table(play: Play) -> None:
    """R-DEAL-1: the durak of the first game deals the second."""
    _, session = play(Options(seed=5), after=[AGAIN, LEAVE])
    first, second = session.played
    assert second.start.game_number == 2
    assert first.end.durak is not None
    assert second.start.dealer == first.end.durak


def test_a_drawn_seed_is_shown_and_deals_the_same_game_again(play: Play) -> None:
    out, session = play(Options(level="easy"))
    assert f"--seed {session.seed}" in out
    again, _ = play(Options(level="easy", seed=session.seed))
    assert again == out


def test_the_seed_command_keeps_the_rules() -> None:
    rules = HouseRules(deck=24, transfer=True, trump="northern")  # type: ignore[arg-type]
    command = replay_command(Options(rules=rules, seed=3))
    assert command == (
        "durak-play --players 2 --level normal --rules deck=24 transfer=on trump=northern --seed 3"
    )
    assert parse(command.split()[1:])[0] == Options(2, "normal", rules, 3, pace=1.5)


@pytest.mark.parametrize(
    "rules", [HouseRules(), HouseRules(deck=24, transfer=True), HouseRules(trump_six_exchange=True)]
)
def test_a_saved_record_replays_to_the_same_end(
    rules: HouseRules, play: Play, tmp_path: Path
) -> None:
    """GAME-RECORD.md: the saved file, run by ``python -m engine.replay``, ends where the game
    ended; saving does not end the menu."""
    out, session = play(
        Options(players=3, level="easy", rules=rules, seed=8, records=tmp_path),
        after=[SAVE, LEAVE],
    )
    (path,) = tmp_path.iterdir()
    tr = translator("ru")
    assert tr.t("term-saved", path=str(path)) in out
    assert out.count(tr.t("term-after-game")) == 2
    done = subprocess.run(
        [sys.executable, "-m", "engine.replay", str(path)],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    played = session.played[0]
    assert result["state"] == state_to_record_dict(played.end, session.table.names)
    assert result["state"]["status"] == "finished"
    assert len(json.loads(path.read_text(encoding="utf-8"))["actions"]) == len(played.actions)


def test_a_record_that_cannot_be_written_is_said_so(play: Play, tmp_path: Path) -> None:
    out, _ = play(Options(seed=8, records=tmp_path / "missing"), after=[SAVE, LEAVE])
    assert "Не удалось сохранить запись" in out
    assert out.rstrip().endswith(translator("ru").t("term-goodbye"))


def test_the_end_of_input_after_a_game_says_goodbye(play: Play) -> None:
    out, session = play(Options(seed=8), after=[])
    assert len(session.played) == 1
    assert out.rstrip().endswith(translator("ru").t("term-goodbye"))


def test_computer_moves_are_paced(play: Play) -> None:
    """As the bot waits AI_PAUSE before each computer move: one pause a computer move."""
    pauses: list[float] = []
    _, session = play(Options(players=3, seed=4, pace=0.25), sleep=pauses.append)
    (played,) = session.played
    computer_moves = sum(action.player != 0 for action in played.actions)
    assert computer_moves > 0
    assert pauses == [0.25] * computer_moves


def test_the_default_pace_is_the_bots() -> None:
    options, _ = parse([])
    assert options.pace == Settings.model_fields["ai_pause"].default
    assert parse(["--pace", "0"])[0].pace == 0
    with pytest.raises(SystemExit):
        parse(["--pace", "-1"])
