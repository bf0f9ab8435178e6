"""Build: the packages (with the texts as package data), and the engine's hot modules
compiled with mypyc when a C compiler is there.

The project's metadata is in pyproject.toml; which files go where is here, because the texts
need a mapping that pyproject.toml's package finder cannot add to what it finds: the
repository keeps them in ``locales/`` beside the packages, an install puts them in
``bot/locales/`` (``bot/i18n.py`` reads them from there with ``importlib.resources``, and
from ``locales/`` when it runs from the source tree or an editable install).

``HOT_MODULES`` are compiled as one group (``engine/_compiled__mypyc*.so`` plus one small
extension per module); each extension is optional, so a machine without a C compiler
installs the same modules as plain Python.
``DURAK_PURE=1`` skips compiling. Next to the extensions the build writes
``engine/compiled-sources.json``, the SHA-256 of each module's source, so that the package
can tell at import when an edited ``.py`` no longer matches its compiled build
(``engine/_build.py``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

from setuptools import find_packages, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# engine/_build.py by itself: importing the engine package here would import the very
# modules being built.
_spec = importlib.util.spec_from_file_location("engine_build", ROOT / "engine" / "_build.py")
assert _spec is not None and _spec.loader is not None
_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_build)
HOT_MODULES: tuple[str, ...] = _build.HOT_MODULES
MANIFEST: str = _build.MANIFEST

# An installed package carries the texts in bot/locales/<lang>/*.ftl (not a top-level
# package "locales" of its own in site-packages). Each language folder is named as a package
# of data, as setuptools wants every folder of package data to be.
TEXTS_PACKAGE = "bot.locales"
TEXTS = [
    f"{TEXTS_PACKAGE}.{folder.name}"
    for folder in sorted((ROOT / "locales").iterdir())
    if folder.is_dir()
]
# tests/ and bench/ (the load drivers and profilers) run from the source tree only: an
# install carries what runs, not what tests or measures it.
# The Mini App's page (bot/webapp/static: HTML, script, style) is served from the package;
# its folder too is named as a package of data (as setuptools wants every folder of
# package data to be; "bot.webapp": ["static/*"] would ship the same files with a warning).
PAGE_PACKAGE = "bot.webapp.static"
PACKAGES = [
    *find_packages(include=["engine*", "bot*", "terminal*"]),
    PAGE_PACKAGE,
    TEXTS_PACKAGE,
    *TEXTS,
]
PACKAGE_DIR = {TEXTS_PACKAGE: "locales"}
PACKAGE_DATA = {
    "*": ["py.typed"],
    PAGE_PACKAGE: ["*"],
    "engine.ai": ["ladder.json"],  # the computer players' ratings (engine/ai/ladder.py)
    **{package: ["*.ftl"] for package in TEXTS},
}


def hot_paths() -> list[str]:
    return [f"engine/{name}.py" for name in HOT_MODULES]


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def extensions() -> list[Any]:
    if _build.pure_requested():
        print("setup.py: DURAK_PURE is set: the engine stays plain Python", file=sys.stderr)
        return []
    from mypyc.build import mypycify  # noqa: PLC0415 (only when compiling)

    # No mypy config file: pyproject.toml's [tool.mypy] names plugins for the bot that the
    # isolated build does not install. The hot modules need only the standard library.
    modules = mypycify(
        ["--config-file=", "--strict", *hot_paths()],
        group_name="engine._compiled",
        opt_level="3",
    )
    for extension in modules:
        extension.optional = True  # no C compiler: a warning, and the plain Python stays
    return modules


class BuildHotModules(build_ext):
    """build_ext that records which sources the extensions it built were compiled from."""

    def run(self) -> None:
        super().run()
        built = [e for e in self.extensions if Path(self.get_ext_fullpath(e.name)).exists()]
        if not built or len(built) < len(self.extensions):
            return  # nothing compiled (or not all of it): the package runs the plain Python
        manifest = {f"engine.{n}": source_hash(ROOT / "engine" / f"{n}.py") for n in HOT_MODULES}
        target = Path(self.get_ext_fullpath(built[0].name)).parent / MANIFEST
        target.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


setup(
    packages=PACKAGES,
    package_dir=PACKAGE_DIR,
    package_data=PACKAGE_DATA,
    ext_modules=extensions(),
    cmdclass={"build_ext": BuildHotModules},
)
