"""One direction of imports (STYLE.md): handlers parse, services decide, ui renders, and a
schema more than one of them needs lives in ``bot.schema``. Each rule is its own test; the
imports are read from the source with ``ast`` (imports under ``TYPE_CHECKING`` count too)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported_by(package: str) -> Iterator[tuple[str, str]]:
    """(importing module, imported module) for every import in ``package`` (dotted name),
    relative imports resolved."""
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        module = _module_name(path)
        here = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield module, alias.name
            elif isinstance(node, ast.ImportFrom):
                base = here.split(".")
                if node.level:
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join([*base, node.module] if node.module else base)
                else:
                    target = node.module or ""
                yield module, target
                for alias in node.names:  # ``from bot import ui`` imports bot.ui
                    yield module, f"{target}.{alias.name}"


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _breaches(package: str, *forbidden: str) -> list[str]:
    return sorted(
        f"{module} imports {target}"
        for module, target in _imported_by(package)
        if any(_within(target, other) for other in forbidden)
    )


def test_the_import_reader_sees_relative_and_absolute_imports() -> None:
    found = set(_imported_by("bot.services"))
    assert ("bot.services.games", "bot.services.outcomes") in found  # from .outcomes import
    assert ("bot.services.games", "bot.storage") in found  # from bot.storage import


def test_services_do_not_import_ui() -> None:
    """Services decide; they take decoded requests (``bot.schema.presses``), never callback
    data, and return outcomes the handlers and the outbox turn into messages."""
    assert _breaches("bot.services", "bot.ui") == []


def test_ui_imports_neither_services_nor_storage() -> None:
    """Rendering is a pure function of the model and the shared schema (``bot.schema``)."""
    assert _breaches("bot.ui", "bot.services", "bot.storage") == []


def test_the_shared_schema_imports_no_layer() -> None:
    """``bot.schema`` is imported by services, storage and ui alike, so it imports none of
    them (nor handlers or delivery)."""
    layers = ("bot.services", "bot.storage", "bot.ui", "bot.handlers", "bot.delivery")
    assert _breaches("bot.schema", *layers) == []


def test_handlers_never_import_storage() -> None:
    """Handlers parse, services decide: Redis is reached only through a service."""
    assert _breaches("bot.handlers", "bot.storage") == []
    assert _breaches("bot.handlers", "bot.services")  # the check sees imports at all
