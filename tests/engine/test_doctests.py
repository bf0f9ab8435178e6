"""The examples people read run as written, with the outputs they show: the README's engine
example and every ``>>>`` example in the engine's docstrings."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path
from types import ModuleType

import pytest

import engine

README = Path(__file__).resolve().parents[2] / "README.md"
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
    """The ```python block under "## The engine" in README.md, and its first line number."""
    text = README.read_text(encoding="utf-8")
    section = text.index("\n## The engine\n")
    start = text.index("```python\n", section) + len("```python\n")
    end = text.index("\n```", start)
    return text[start:end] + "\n", text.count("\n", 0, start)


def test_readme_engine_example_runs_as_shown() -> None:
    source, lineno = engine_example()
    test = doctest.DocTestParser().get_doctest(
        source, {}, "README.md: The engine", str(README), lineno
    )
    assert run_examples(test) >= 10, "the README's engine example is no longer a doctest"


@pytest.mark.parametrize("name", ENGINE_MODULES)
def test_docstring_examples_of_engine_modules_run_as_shown(name: str) -> None:
    module: ModuleType = importlib.import_module(name)
    ran = sum(run_examples(t) for t in doctest.DocTestFinder().find(module))
    if name == "engine":
        assert ran >= 4, "engine/__init__.py's example is no longer a doctest"
