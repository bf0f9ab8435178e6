"""One direction of imports (STYLE.md): handlers parse, services decide, ui renders, and a
schema more than one of them needs lives in ``bot.schema``; no two modules of ``bot`` and
``engine`` need each other. Each rule is its own test; the imports are read from the source
with ``ast`` (imports under ``TYPE_CHECKING`` and inside functions count too)."""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str) -> bool:
    """Whether ``name`` (dotted) is a module or package of this project."""
    path = ROOT / name.replace(".", "/")
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _imported_by(package: str) -> Iterator[tuple[str, str]]:
    """(importing module, imported module) for every import in ``package`` (dotted name),
    relative imports resolved. ``from p import m`` of a module ``m`` imports ``p.m`` (``p``
    is its parent, imported first in any case); of any other name, ``p`` itself."""
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
                for alias in node.names:  # ``from bot import ui`` imports bot.ui
                    name = f"{target}.{alias.name}"
                    yield module, name if _is_module(name) else target


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _breaches(package: str, *forbidden: str) -> list[str]:
    return sorted(
        {
            f"{module} imports {target}"
            for module, target in _imported_by(package)
            if any(_within(target, other) for other in forbidden)
        }
    )


def _components(graph: Mapping[str, set[str]]) -> dict[str, int]:
    """Each module's strongly connected component (Tarjan): a cycle never leaves one."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    component: dict[str, int] = {}

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for following in graph.get(node, ()):
            if following not in index:
                visit(following)
                low[node] = min(low[node], low[following])
            elif following not in component and following in stack:
                low[node] = min(low[node], index[following])
        if low[node] == index[node]:
            while True:
                member = stack.pop()
                component[member] = index[node]
                if member == node:
                    break

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return component


def _cycles(graph: Mapping[str, set[str]]) -> list[str]:
    """Every import cycle of ``graph`` (module -> the modules it imports) as a path that
    starts and ends at its first module in sorted order: ``a -> b -> a``. The paths are
    walked only within a strongly connected component (walking them all through the whole
    graph took 40 s)."""
    component = _components(graph)
    found = []

    def walk(path: list[str]) -> None:
        for following in sorted(graph.get(path[-1], ())):
            if component.get(following) != component[path[0]]:
                continue
            if following == path[0]:
                found.append(" -> ".join([*path, following]))
            elif following > path[0] and following not in path:
                walk([*path, following])

    for start in sorted(graph):
        walk([start])
    return found


def _import_graph(*packages: str) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for package in packages:
        for module, target in _imported_by(package):
            graph.setdefault(module, set())
            if target != module and any(_within(target, p) for p in packages):
                graph[module].add(target)
    return graph


# A cycle found fails the test (none is known to stand): the outbox's lanes, for one, share
# ``bot.delivery.host`` with the outbox (the leases, the ``Host`` protocol) rather than each
# knowing the other.
KNOWN_CYCLES: set[str] = set()


def test_the_import_reader_sees_relative_and_absolute_imports() -> None:
    found = set(_imported_by("bot.services"))
    assert ("bot.services.games", "bot.services.outcomes") in found  # from .outcomes import
    assert ("bot.services.games", "bot.storage") in found  # from bot.storage import
    delivery = set(_imported_by("bot.delivery"))
    assert ("bot.delivery.lane", "bot.delivery.host") in delivery  # from .host import
    everything = set(_imported_by("bot"))
    assert ("bot.__main__", "bot.app") in everything  # inside a function
    assert ("bot.telegram_session", "aiogram") in everything  # under TYPE_CHECKING
    ai = set(_imported_by("engine.ai"))
    assert ("engine.ai.hard", "engine.ai.normal") in ai  # from . import normal
    assert ("engine.ai.hard", "engine.ai") not in ai  # ...is no import of the package


def test_cycles_are_found_and_named_as_paths() -> None:
    graph = {"a": {"b"}, "b": {"c", "a"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == ["a -> b -> a", "a -> b -> c -> a"]
    assert _cycles({"a": {"b"}, "b": {"c"}}) == []


def test_no_import_cycles_in_bot_and_engine() -> None:
    """Two modules that need each other share a third (constants, a protocol) or are handed
    what they need; none imports the other back, not even for type checking."""
    graph = _import_graph("bot", "engine")
    assert {"engine.state", "engine.refusals", "bot.app", "bot.web"} <= graph.keys()
    assert sorted(set(_cycles(graph)) - KNOWN_CYCLES) == []
    assert sorted(KNOWN_CYCLES - set(_cycles(graph))) == []  # broken since: strike them


def test_delivery_does_not_import_services() -> None:
    """Delivery shows what storage holds; services decide and hand it records, never the
    reverse (what to tell when a group changed is ``bot.services.games``, which the
    outbox reaches through hooks)."""
    assert _breaches("bot.delivery", "bot.services") == []
    assert _breaches("bot.delivery", "bot.storage")  # the check sees imports at all


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


def test_only_the_answering_middleware_answers_presses() -> None:
    """Every press is answered once, by ``bot.handlers.middlewares`` (STYLE.md): handlers say
    what the answer says (``PressAnswer``), none answers a press by hand."""
    by_hand = re.compile(r"query\.answer\(|answer_callback_query|AnswerCallbackQuery")
    answering = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "bot").rglob("*.py")
        if by_hand.search(path.read_text(encoding="utf-8"))
    )
    assert answering == ["bot/handlers/middlewares.py"]


LIBRARIES = ("redis", "aiogram", "aiohttp")
# The documented names of a named tuple (the engine's events are named tuples).
NAMED_TUPLE_API = frozenset({"_fields", "_replace", "_asdict", "_make", "_field_defaults"})


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _bot_sources() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted((ROOT / "bot").rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def test_no_private_attribute_of_another_object_is_read() -> None:
    """A name with a leading underscore is its owner's own: ``bot`` reads none of another
    object's (a library's private state, which any release may change), nor a parent's
    through ``super()``."""
    found = []
    for path, tree in _bot_sources():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or not _private(node.attr):
                continue
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if node.attr in NAMED_TUPLE_API:
                continue
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


def _library_classes(tree: ast.Module) -> Iterator[ast.ClassDef]:
    """The classes of a module whose bases are imported from a library."""
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in LIBRARIES:
            imported |= {alias.asname or alias.name for alias in node.names}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(
            ast.unparse(base).split(".")[0] in imported for base in node.bases
        ):
            yield node


def test_a_library_class_is_extended_through_its_public_names_only() -> None:
    """A class of ``bot`` built on one of redis-py's, aiogram's or aiohttp's reads no private
    attribute it did not set itself, and overrides no private method: both are the
    library's own business."""
    found = []
    for path, tree in _bot_sources():
        for cls in _library_classes(tree):
            own = {
                target.attr
                for node in ast.walk(cls)
                if isinstance(node, ast.Assign | ast.AnnAssign)
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                if isinstance(target, ast.Attribute)
            }
            defined = {
                node.name
                for node in cls.body
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            }
            where = f"{path.relative_to(ROOT)}: {cls.name}"
            for node in ast.walk(cls):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == "self"
                    and _private(node.attr)
                    and node.attr not in own | defined
                ):
                    found.append(f"{where} reads self.{node.attr}")
            module = importlib.import_module(_module_name(path))
            bases = [
                base
                for base in getattr(module, cls.name).__mro__[1:]
                if base.__module__.split(".")[0] in LIBRARIES
            ]
            found += [
                f"{where} overrides {name}"
                for name in defined
                if _private(name) and any(name in vars(base) for base in bases)
            ]
    assert found == []
