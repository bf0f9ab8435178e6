"""Compiled or plain Python: which build of the hot modules this process runs.

``setup.py`` compiles ``HOT_MODULES`` with mypyc when it can and records the SHA-256 of
each one's source in ``compiled-sources.json`` next to the extensions. Python prefers an
extension to a ``.py`` of the same name, so in a developer's tree (an editable install
builds in place) an edited ``.py`` would silently lose to its stale compiled copy. Before
the package imports any of them, ``choose()`` compares the sources with the record: when
they differ (or the record is missing) it says so on standard error once and imports the
``.py`` files instead, so what runs is always what the source says. ``DURAK_PURE=1`` asks
for the plain Python without a word (and makes ``setup.py`` skip compiling).

This module is never compiled itself.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Final

HOT_MODULES: Final = ("core", "dealing", "codes", "state", "rollout", "solve")
MANIFEST: Final = "compiled-sources.json"
PACKAGE_DIR: Final = Path(__file__).resolve().parent


def pure_requested() -> bool:
    return os.environ.get("DURAK_PURE", "") not in ("", "0")


def _extension(name: str) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = PACKAGE_DIR / f"{name}{suffix}"
        if path.exists():
            return path
    return None


def stale_reason() -> str | None:
    """Why the compiled modules must not be used, or None if they may (or there are none)."""
    if not any(_extension(name) for name in HOT_MODULES):
        return None
    try:
        recorded = json.loads((PACKAGE_DIR / MANIFEST).read_text())
    except (OSError, ValueError):
        return f"engine/{MANIFEST} is missing or unreadable"
    for name in HOT_MODULES:
        if _extension(name) is None:
            return f"engine/{name}.py has no compiled module beside the others"
        source = (PACKAGE_DIR / f"{name}.py").read_bytes()
        if recorded.get(f"engine.{name}") != hashlib.sha256(source).hexdigest():
            return f"engine/{name}.py changed since it was compiled"
    return None


class _SourceFinder(MetaPathFinder):
    """Imports the hot modules from their ``.py`` files, whatever extension lies beside."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != __package__ or name not in HOT_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, PACKAGE_DIR / f"{name}.py")


def choose() -> None:
    """Make the hot modules import from source when asked to or when the build is stale."""
    if any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        return
    if pure_requested():
        sys.meta_path.insert(0, _SourceFinder())
        return
    reason = stale_reason()
    if reason is not None:
        print(
            f"engine: {reason}: running the plain Python source instead of the compiled "
            "build (slower). Compile again with scripts/setup-venv (or `pip install -e .`); "
            "DURAK_PURE=1 silences this.",
            file=sys.stderr,
        )
        sys.meta_path.insert(0, _SourceFinder())


def compiled() -> bool:
    """Whether this process runs the compiled rules core."""
    module = sys.modules.get(f"{__package__}.core")
    path = getattr(module, "__file__", None) or ""
    return path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
