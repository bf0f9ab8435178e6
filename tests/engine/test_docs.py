"""The README and ``docs/`` stand alone: every link they hold leads to a file (and heading)
in this repository, and every rule id the engine and the tests cite is defined in
``docs/RULES.md``."""

from __future__ import annotations

import re
from dataclasses import fields
from enum import StrEnum
from pathlib import Path
from urllib.parse import unquote

import pytest

from engine.rules import BOT_ONLY_KEYS, HouseRules

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").rglob("*.md"))
PAGES = [ROOT / "README.md", *DOCS]
RULES = ROOT / "docs" / "RULES.md"

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"\[(?:[^\[\]]|`[^`]*`)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # https:, mailto:, ...
RULE_ID = re.compile(r"R-[A-Z]+-\d+")
DEFINED_ID = re.compile(r"\*\*(R-[A-Z]+-\d+)\*\*")


def links(text: str) -> list[str]:
    """The targets of the inline links ``[text](target)`` outside fenced code blocks."""
    return LINK.findall(FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {slug(m) for m in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.MULTILINE)}


def test_there_are_docs() -> None:
    assert {p.name for p in DOCS} >= {"RULES.md", "GAME-RECORD.md"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_resolve_inside_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "../shared" not in text, f"{page.name} points outside the repository"
    broken: list[str] = []
    for target in links(text):
        if EXTERNAL.match(target):
            continue
        path_part, _, fragment = target.partition("#")
        dest = (page.parent / unquote(path_part)).resolve() if path_part else page
        if not dest.is_relative_to(ROOT) or not dest.exists():
            broken.append(f"{target}: no such file in the repository")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            broken.append(f"{target}: no heading #{fragment} in {dest.name}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_readme_links_the_docs() -> None:
    found = set(links((ROOT / "README.md").read_text(encoding="utf-8")))
    assert {t.partition("#")[0] for t in found} >= {"docs/RULES.md", "docs/GAME-RECORD.md"}


def cited_ids() -> dict[str, set[str]]:
    """Every rule id cited in ``engine/`` and ``tests/``, with the files citing it."""
    cited: dict[str, set[str]] = {}
    for folder in ("engine", "tests"):
        for path in sorted((ROOT / folder).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            for rule_id in RULE_ID.findall(text):
                cited.setdefault(rule_id, set()).add(str(path.relative_to(ROOT)))
    return cited


def test_every_cited_rule_id_is_defined_in_the_rule_book() -> None:
    defined = set(DEFINED_ID.findall(RULES.read_text(encoding="utf-8")))
    cited = cited_ids()
    assert len(cited) > 20  # the scan found the citations
    missing = {rule_id: sorted(files) for rule_id, files in cited.items() if rule_id not in defined}
    assert not missing, f"rule ids cited but not defined in docs/RULES.md: {missing}"


def test_each_rule_id_is_defined_once() -> None:
    ids = DEFINED_ID.findall(RULES.read_text(encoding="utf-8"))
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_the_readme_reads_in_a_newcomers_order() -> None:
    """What it is and what it looks like, the two commands, creating the bot,
    running it, the settings; the rest is linked from there (``docs/``)."""
    raw = (ROOT / "README.md").read_text(encoding="utf-8")
    text = FENCE.sub("", raw)
    headings = re.findall(r"^## (.+)$", text, re.MULTILINE)
    first = ["Set-up: two commands", "Creating the bot", "Running it", "Settings"]
    assert headings[: len(first)] == first
    assert "Твои карты" in raw[: raw.index("\n## ")]  # a hand as a player sees it, first
    assert {t.partition("#")[0] for t in links(text)} >= {
        "docs/PLAYING.md",
        "docs/OPERATIONS.md",
        "docs/DESIGN.md",
        "docs/ENGINE.md",
    }


def test_the_readme_house_rules_table_lists_every_key_with_its_values() -> None:
    """Every house-rule key the engine knows (and the bot's own ones) has a row
    in the README's table, naming each of its values."""
    raw = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)` \| (.+) \|$", raw, re.MULTILINE))
    defaults = HouseRules()
    for key in [f.name for f in fields(HouseRules)] + sorted(BOT_ONLY_KEYS):
        assert key in rows, f"README: no row for {key}"
        default = getattr(defaults, key, None)
        values: list[str] = []
        if isinstance(default, StrEnum):
            values = [m.value for m in type(default)]
        elif isinstance(default, bool):
            values = ["on", "off"]
        for value in values:
            assert value in rows[key], f"README: {key} lacks {value}"
