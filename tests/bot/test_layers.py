"""Which layer of the bot may import which (STYLE.md, "One direction of imports"): one test
function per rule, read off the source with ``ast`` (nothing is imported)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imports(package: str) -> dict[str, set[str]]:
    """Every module of ``package`` (``"bot.handlers"``) -> the absolute names it imports:
    ``from x import y`` counts as both ``x`` and ``x.y`` (``y`` may be a module)."""
    found: dict[str, set[str]] = {}
    for path in sorted(ROOT.joinpath(*package.split(".")).rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)  # "...__init__" too
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                parts = module.split(".")[: -node.level] if node.level else []
                base = ".".join([*parts, node.module] if node.module else parts)
                names.add(base)
                names.update(f"{base}.{alias.name}" for alias in node.names)
        found[module] = names
    return found


def offending(package: str, forbidden: str) -> dict[str, list[str]]:
    """The modules of ``package`` that import ``forbidden`` or anything inside it."""
    wrong = {
        module: sorted(n for n in names if n == forbidden or n.startswith(forbidden + "."))
        for module, names in imports(package).items()
    }
    return {module: names for module, names in wrong.items() if names}


def test_handlers_never_import_storage() -> None:
    """Handlers parse, services decide: Redis is reached only through a service."""
    assert offending("bot.handlers", "bot.storage") == {}
    assert offending("bot.handlers", "bot.services")  # the check sees imports at all
