"""A person at the terminal, for the tests: reads the screen and answers the question on it."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable

import pytest

from bot.i18n import Translator, translator
from terminal.game import Options, TerminalGame
from terminal.session import Session

MOVE_LIMIT = 5_000  # a guard: no game asks this many moves


class Player:
    """The game's input: the first move of every move menu, and at each menu after a game
    the next of ``after`` ("1" again, "2" save, "3" leave); when those run out, the end
    of input."""

    def __init__(self, screen: io.StringIO, tr: Translator, after: Iterable[str]) -> None:
        self.screen = screen
        self.tr = tr
        self.after = list(after)
        self.moves = 0

    def readline(self) -> str:
        text = self.screen.getvalue()
        if text.rfind(self.tr.t("term-after-game")) > text.rfind(self.tr.t("term-your-turn")):
            return self.after.pop(0) + "\n" if self.after else ""
        self.moves += 1
        assert self.moves < MOVE_LIMIT, "the game did not end"
        return "1\n"


Play = Callable[..., tuple[str, Session]]


@pytest.fixture
def play() -> Play:
    """``play(options, lang, after=["3"], sleep=...)``: the screen and the session."""

    def run(
        options: Options,
        lang: str = "ru",
        after: Iterable[str] = ("3",),
        sleep: Callable[[float], None] | None = None,
    ) -> tuple[str, Session]:
        tr = translator(lang)
        screen = io.StringIO()
        table = TerminalGame(options, tr, Player(screen, tr, after), screen, sleep or _no_sleep)
        session = Session(table)
        session.run()
        return screen.getvalue(), session

    return run


def _no_sleep(seconds: float) -> None:
    raise AssertionError(f"slept {seconds} s with no pace set")
