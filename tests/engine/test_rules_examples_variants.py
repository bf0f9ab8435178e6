"""The worked examples of docs/RULES.md sections 13 and 14 (one per subsection: R-TEAM,
R-SIX, R-TRUMP, R-TOP, R-POG, R-VAR-1; R-BLIND, R-REV, R-CHI, R-DOUBT) run as doctests,
with the outputs the page shows."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def sections_13_and_14() -> tuple[str, int]:
    text = RULES.read_text(encoding="utf-8")
    start = text.index("## 13.")
    return text[start:], text.count("\n", 0, start)


def blocks() -> list[tuple[str, str, int]]:
    """(subsection title, the block's source, its line) for every ```python block; the
    first block (the shared names) is put in front of every other one."""
    text, offset = sections_13_and_14()
    found = []
    for match in BLOCK.finditer(text):
        heading = text.rfind("\n### ", 0, match.start())
        title = text[heading + 5 : text.index("\n", heading + 1)] if heading >= 0 else "13"
        found.append((title, match.group(1), offset + text.count("\n", 0, match.start()) + 1))
    return found


def test_every_subsection_of_sections_13_and_14_has_a_worked_example() -> None:
    titled = {title.split(" ")[0] for title, _, _ in blocks()}
    assert titled >= {"13.1", "13.2", "13.3", "13.4", "13.5", "13.6"}
    assert titled >= {"14.1", "14.2", "14.3", "14.4"}


@pytest.mark.parametrize("index", range(1, len(blocks())))
def test_the_worked_example_runs_as_shown(index: int) -> None:
    found = blocks()
    shared = found[0][1]
    title, source, line = found[index]
    test = doctest.DocTestParser().get_doctest(
        shared + source, {}, f"docs/RULES.md {title}", str(RULES), line
    )
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    failed, attempted = runner.run(test, out=report.append, clear_globs=True)
    assert attempted >= 5, "the example is no longer a doctest"
    assert failed == 0, "".join(report)
