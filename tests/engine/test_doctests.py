"""The examples people read run as written, with the outputs they show: the engine page's
example and every ``>>>`` example in the engine's docstrings."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path
from types import ModuleType

import pytest

import engine

ENGINE_DOC = Path(__file__).resolve().parents[2] / "docs" / "ENGINE.md"
ENGINE_MODULES = ["engine"] + [f"engine.{m.name}" for m in pkgutil.iter_modules(engine.__path__)]


def run_examples(test: doctest.DocTest) -> int:
    """Run one docstring's or text's examples; fail with doctest's report. Returns how many
    examples ran."""
    report: list[str] = []
    runner = doctest.DocTestRunner()
    failed, attempted = runner.run(test, out=report.append, clear_globs=True)
    assert failed == 0, "".join(report)
    return attempted


def engine_example() -> tuple[str, int]:
    """The first ```python block of docs/ENGINE.md, and its first line number."""
    text = ENGINE_DOC.read_text(encoding="utf-8")
    start = text.index("```python\n") + len("```python\n")
    end = text.index("\n```", start)
    return text[start:end] + "\n", text.count("\n", 0, start)


def test_the_engine_example_runs_as_shown() -> None:
    source, lineno = engine_example()
    test = doctest.DocTestParser().get_doctest(
        source, {}, "docs/ENGINE.md", str(ENGINE_DOC), lineno
    )
    assert run_examples(test) >= 10, "the engine's example is no longer a doctest"


@pytest.mark.parametrize("name", ENGINE_MODULES)
def test_docstring_examples_of_engine_modules_run_as_shown(name: str) -> None:
    module: ModuleType = importlib.import_module(name)
    ran = sum(run_examples(t) for t in doctest.DocTestFinder().find(module))
    if name == "engine":
        assert ran >= 4, "engine/__init__.py's example is no longer a doctest"


def test_every_doctest_block_of_the_engine_page_runs_as_shown() -> None:
    """The variants' example too (every ```python block written with ``>>>``)."""
    text = ENGINE_DOC.read_text(encoding="utf-8")
    ran = 0
    start = text.find("```python\n")
    while start >= 0:
        begin = start + len("```python\n")
        end = text.index("\n```", begin)
        source = text[begin:end] + "\n"
        if ">>>" in source:
            test = doctest.DocTestParser().get_doctest(
                source, {}, "docs/ENGINE.md", str(ENGINE_DOC), text.count("\n", 0, begin)
            )
            ran += run_examples(test)
        start = text.find("```python\n", end)
    assert ran >= 15, "the variants' example is no longer a doctest"
