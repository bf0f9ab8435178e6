"""``durak-play``'s command line: the house rules listed, and nothing that points at files an
installed copy lacks (every option's help text: tests/engine/test_cli_help.py)."""

from __future__ import annotations

from dataclasses import fields

import pytest

from engine import HouseRules
from terminal.__main__ import parse


def test_the_help_points_at_what_an_installed_copy_has(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse(["--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    assert "docs/" not in text and "RULES.md" not in text
    assert "durak-play --list-rules" in text
    assert "python -m engine.replay FILE" in text


def test_list_rules_prints_every_house_rule(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse(["--list-rules"])
    assert exit_info.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    keys = [line.split("=")[0] for line in lines if not line.startswith(" ")]
    assert keys == [f.name for f in fields(HouseRules)]  # indented: the blind games explained
    assert "trump=turned (default); also dealer, japanese, northern" in lines
    assert "transfer=off (default); also on" in lines


def test_an_unknown_house_rule_lists_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse(["--rules", "foo=1"])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert "unknown house rule 'foo'" in error
    assert all(f.name in error for f in fields(HouseRules))
