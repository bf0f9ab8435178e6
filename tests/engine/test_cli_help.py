"""The command lines: ``durak-play``, ``python -m engine.arena`` (with ``combine``) and
``python -m engine.bench`` explain every option; the measuring commands list the house rules
and name every rule in their JSON."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import pytest

from engine import HouseRules
from engine.arena import main as arena
from engine.arena import match_parser
from engine.bench import bench_parser
from engine.bench import main as bench
from terminal.__main__ import parser as play_parser

ROOT = Path(__file__).resolve().parents[2]
RULE_KEYS = [f.name for f in fields(HouseRules)]


def option_helps(help_text: str) -> dict[str, str]:
    """Each option of a ``--help`` text with the words that explain it."""
    helps: dict[str, str] = {}
    current = None
    for line in help_text.splitlines():
        started = re.match(r"  (-\S+)(?:[ ,]\S+)*?(?:  +(.*))?$", line)
        if started:
            current = started[1].rstrip(",")
            helps[current] = started[2] or ""
        elif current and line.startswith(" " * 10) and line.strip():
            helps[current] += " " + line.strip()
        elif not line.strip():
            current = None
    return helps


def command(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *argv], capture_output=True, text=True, cwd=ROOT, timeout=120,
        check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("help_text", "options"),
    [
        (match_parser().format_help(), {"--players", "--games", "--seed", "--rules",
         "--list-rules", "--budget-ms", "--iterations", "--cpu-time", "--jobs", "--json"}),
        (bench_parser().format_help(), {"--players", "--seconds", "--json", "--rules",
         "--list-rules"}),
        (play_parser().format_help(), {"--players", "--level", "--lang", "--rules",
         "--list-rules", "--seed", "--pace", "--records"}),
    ],
    ids=["arena", "bench", "durak-play"],
)  # fmt: skip
def test_every_option_has_a_help_text(help_text: str, options: set[str]) -> None:
    helps = option_helps(help_text)
    assert set(helps) == {"-h", *options}
    assert all(text.strip() for text in helps.values()), helps


def test_the_arenas_help_names_combine() -> None:
    done = command("engine.arena", "--help")
    assert done.returncode == 0, done.stderr
    assert "engine.arena combine LOG" in done.stdout
    assert "A " in done.stdout and "B " in done.stdout


def test_combine_has_a_help_of_its_own() -> None:
    """Not «No such file or directory: '--help'»."""
    done = command("engine.arena", "combine", "--help")
    assert done.returncode == 0, done.stderr
    assert "usage: python -m engine.arena combine" in done.stdout
    assert "LOG" in done.stdout


def test_combine_without_a_log_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        arena(["combine"])
    assert exit_info.value.code == 2
    assert "LOG" in capsys.readouterr().err


@pytest.mark.parametrize("main", [arena, bench], ids=["arena", "bench"])
def test_an_unknown_house_rule_lists_the_keys(
    main: Callable[[list[str]], int], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["random", "random", "--rules", "foo=1"] if main is arena else ["--rules", "foo=1"]
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert "unknown house rule 'foo'" in error
    assert all(key in error for key in RULE_KEYS)


@pytest.mark.parametrize("main", [arena, bench], ids=["arena", "bench"])
def test_list_rules_prints_every_house_rule(
    main: Callable[[list[str]], int], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--list-rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("=")[0] for line in lines] == RULE_KEYS


def test_the_arenas_json_names_every_rule_and_combine_adds_shards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The variants' keys too, at their defaults; and ``combine`` reads shards that listed
    only the keys not at their defaults as the same match."""
    logs = []
    for seed in (1, 2):
        assert arena(["random", "random", "--games", "2", "--seed", str(seed), "--json"]) == 0
        out = capsys.readouterr().out
        result = json.loads(out.splitlines()[-1])
        assert list(result["rules"]) == RULE_KEYS
        assert result["rules"]["trump"] == "turned" and result["rules"]["teams"] == "off"
        logs.append(tmp_path / f"shard{seed}.log")
        logs[-1].write_text(out, encoding="utf-8")
    short = json.loads(logs[0].read_text(encoding="utf-8").splitlines()[-1])
    short["rules"] = HouseRules().to_dict()  # as shards were written before
    logs[0].write_text(json.dumps(short) + "\n", encoding="utf-8")
    assert arena(["combine", *map(str, logs)]) == 0
    combined = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert combined["games"] == 4 and combined["seed"] == [1, 2]
    assert list(combined["rules"]) == RULE_KEYS


def test_the_benchs_json_names_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench(["--seconds", "0.05", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert list(result["rules"]) == RULE_KEYS
    assert result["rules"]["transfer"] is True
