"""Every user-facing string, through Fluent (https://projectfluent.org).

The texts live in ``locales/<lang>/*.ftl`` in the repository and in ``bot/locales/<lang>/``
in an installed package (package data, setup.py); every file of a language folder is
loaded, once, on first use. Plural forms come from Fluent's select on numbers, which follows
CLDR (ru and uk: one / few / many / other)::

    tr = translator("uk")
    tr.t("cards-count", count=2)  # "2 карти"

A message id that does not exist raises ``KeyError``, and a message formatted without one of
its variables raises ``MessageFormatError``: a user never sees an id or a ``{$name}``.

Formatting is a pure function of the message and its arguments, and the same few hundred
texts come back at every move (card ranks, buttons, the table's log lines), so a
``Translator`` remembers them: a message without arguments once formatted, forever; one
whose arguments are all ``str`` or ``int`` (names, card labels, counts), in a bounded LRU
(``CACHED_TEXTS`` per language). Other arguments are formatted every time.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Final

from fluent.runtime import FluentBundle, FluentResource
from fluent.syntax import ast as ftl

SUPPORTED: Final = ("ru", "uk")
DEFAULT: Final = "ru"
CACHED_TEXTS: Final = 16_384  # formatted messages with arguments kept per language
_PLAIN: Final = frozenset({str, int})  # argument types a formatted text may be cached for


def _locales_dir() -> Traversable:
    """The folder of the texts: ``bot/locales`` where the package was installed from a wheel
    (through ``importlib.resources``, so it is found wherever pip put it); else ``locales/``
    beside the package, where the source tree and an editable install have it."""
    installed = resources.files("bot") / "locales"
    if installed.is_dir():
        return installed
    return Path(__file__).resolve().parent.parent / "locales"


LOCALES_DIR: Final = _locales_dir()


class MessageFormatError(ValueError):
    """A message could not be formatted: a variable or a referenced message is missing."""


class LocaleFileError(ValueError):
    """A ``.ftl`` file that Fluent cannot parse (it would silently drop the broken entry)."""


class Translator:
    """The texts of one language. Get one with ``translator(lang)``."""

    __slots__ = ("_bundle", "_cached", "_ids", "_static", "lang")

    def __init__(self, lang: str, bundle: Any, ids: frozenset[str]) -> None:
        self.lang = lang
        self._bundle = bundle
        self._ids = ids
        self._static: dict[str, str] = {}  # messages without arguments, formatted
        self._cached: Callable[[str, tuple[tuple[str, Any], ...]], str] = functools.lru_cache(
            maxsize=CACHED_TEXTS
        )(self._format_items)

    def t(self, message_id: str, **args: Any) -> str:
        """The message ``message_id`` formatted with ``args``; KeyError if there is no such
        message, ``MessageFormatError`` if a variable it uses is missing."""
        if not args:
            text = self._static.get(message_id)
            if text is None:
                text = self._static[message_id] = self._format(message_id, args)
            return text
        for value in args.values():
            if type(value) not in _PLAIN:
                return self._format(message_id, args)
        return self._cached(message_id, tuple(args.items()))

    def _format_items(self, message_id: str, items: tuple[tuple[str, Any], ...]) -> str:
        return self._format(message_id, dict(items))

    def _format(self, message_id: str, args: dict[str, Any]) -> str:
        if message_id not in self._ids:
            raise KeyError(f"no message {message_id!r} in {self.lang}")
        message = self._bundle.get_message(message_id)
        if message.value is None:
            raise KeyError(f"message {message_id!r} in {self.lang} has no value")
        text, errors = self._bundle.format_pattern(message.value, args)
        if errors:
            raise MessageFormatError(f"{self.lang} {message_id}: {errors[0]}")
        return str(text)

    def has(self, message_id: str) -> bool:
        return message_id in self._ids

    def message_ids(self) -> frozenset[str]:
        """The ids of every message (not term) of this language."""
        return self._ids

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


def language(lang: str | None) -> str:
    """``lang`` if supported, else the default (ru)."""
    return lang if lang in SUPPORTED else DEFAULT


def private_language(language_code: str | None) -> str:
    """The language of a private chat from the user's Telegram ``language_code``: Ukrainian
    for ``uk`` (``uk``, ``uk-UA``...), Russian for anything else."""
    if language_code and language_code.lower().replace("_", "-").split("-")[0] == "uk":
        return "uk"
    return "ru"


def translator(lang: str) -> Translator:
    """The texts of ``lang``; an unsupported language gets Russian."""
    return _load(language(lang))


def all_message_ids(lang: str) -> set[str]:
    """The ids of every message (not term) of ``lang``, from all its files."""
    return set(_load(language(lang)).message_ids())


def locale_files(lang: str) -> list[Traversable]:
    """The ``.ftl`` files of ``lang``, by name; ``FileNotFoundError`` if the folder is missing
    (a broken install must not start with message ids in place of texts)."""
    files = [item for item in (LOCALES_DIR / lang).iterdir() if item.name.endswith(".ftl")]
    return sorted(files, key=lambda item: item.name)


def parse_locale(lang: str) -> list[tuple[Traversable, ftl.Resource]]:
    """Every ``.ftl`` file of ``lang`` parsed; ``LocaleFileError`` on a syntax error."""
    parsed = []
    for path in locale_files(lang):
        resource = FluentResource(path.read_text(encoding="utf-8"))
        for entry in resource.body:
            if isinstance(entry, ftl.Junk):
                note = "; ".join(str(a.message) for a in entry.annotations)
                text = (entry.content or "")[:60]
                raise LocaleFileError(f"{path}: cannot parse {text!r}: {note}")
        parsed.append((path, resource))
    return parsed


@functools.cache
def _load(lang: str) -> Translator:
    bundle = FluentBundle([lang], use_isolating=False)
    ids: set[str] = set()
    for _path, resource in parse_locale(lang):
        bundle.add_resource(resource)
        ids.update(e.id.name for e in resource.body if isinstance(e, ftl.Message))
    return Translator(lang, bundle, frozenset(ids))


__all__ = [
    "DEFAULT",
    "LOCALES_DIR",
    "SUPPORTED",
    "LocaleFileError",
    "MessageFormatError",
    "Translator",
    "all_message_ids",
    "language",
    "locale_files",
    "parse_locale",
    "private_language",
    "translator",
]
