"""Games one after another at one table, and what comes between them: the summary (places,
the duraks so far), the seed, and the choice of playing again, saving the game as a record
(GAME-RECORD.md, ``python -m engine.replay FILE``) or leaving.

The first game is dealt from the seed (``--seed``, or one drawn and shown), every next one
with ``next_game`` from the game before (R-DEAL-1, R-START-3), from a seed that follows from
the first: the shown seed deals the first game again, and a saved record replays any game.
"""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot.i18n import Translator
from engine import GameState, HouseRules, public_view
from engine.record import export_record

from .game import DealSeed, Lines, Options, Played, Quit, TerminalGame
from .seats import HUMAN, team_mark


@dataclass(slots=True)
class Tally:
    """How the games so far ended: draws, and per seat how often it was the durak."""

    games: int = 0
    draws: int = 0
    durak: dict[int, int] = field(default_factory=dict)

    def count(self, end: GameState) -> None:
        self.games += 1
        if end.durak is None:
            self.draws += 1
        else:
            self.durak[end.durak] = self.durak.get(end.durak, 0) + 1


class Session:
    """The games at one table (``TerminalGame``) and what comes between them."""

    def __init__(self, table: TerminalGame) -> None:
        self.table = table
        self.options = table.options
        self.tr = table.tr
        self.played: list[Played] = []
        self.tally = Tally()

    @property
    def seed(self) -> int:
        assert self.options.seed is not None
        return self.options.seed

    def run(self) -> None:
        """Games until the player leaves: after a game by the menu or the end of input
        (then a goodbye), during one by q or the end of input (then «Игра прервана»)."""
        while True:
            number = len(self.played) + 1
            seed: DealSeed = self.seed if number == 1 else f"{self.seed}:{number}"
            previous = self.played[-1].end if self.played else None
            start = self.table.deal(seed, previous)
            try:
                played = self.table.play(start, seed)
            except Quit:
                self.table.say(self.tr.t("term-bye"))
                return
            self.played.append(played)
            self.tally.count(played.end)
            self.summary(played)
            try:
                again = self.after_game(played)
            except Quit:
                again = False
            if not again:
                self.table.say(self.tr.t("term-goodbye"))
                return

    def summary(self, played: Played) -> None:
        """Places, the durak or the draw, the duraks of every game so far, the seed."""
        tr, say = self.tr, self.table.say
        say()
        say(tr.t("table-title-over"))
        for line in result_lines(played.end, self.table.names, tr):
            say(line)
        say(tr.t("term-games-played", count=self.tally.games))
        entries = ", ".join(
            tr.t("series-tally-entry", name=name, count=self.tally.durak.get(seat, 0))
            for seat, name in enumerate(self.table.names)
        )
        say(tr.t("series-tally", tally=entries))
        if self.tally.draws:
            say(tr.t("series-draws", count=self.tally.draws))
        say(tr.t("term-seed", seed=self.seed, command=replay_command(self.options)))

    def after_game(self, played: Played) -> bool:
        """«ещё раз» (True), «сохранить запись» (then asked again), «выйти» (False)."""
        tr = self.tr
        labels = [tr.t("term-again"), tr.t("term-save"), tr.t("term-leave")]
        while True:
            self.table.say(tr.t("term-after-game"))
            for number, label in enumerate(labels, 1):
                self.table.say(f"  {number}. {label}")
            answer = self.table.read_number(len(labels), "term-prompt-next")
            if answer == 1:
                return True
            if answer == 3:
                return False
            self.save(played)

    def save(self, played: Played) -> Path | None:
        """The game as a record file in the records folder: its path, or None (said why)."""
        path = self.options.records / f"durak-{self.seed}-{len(self.played)}.json"
        record = export_record(played.start, played.actions, self.table.names)
        text = json.dumps(record, ensure_ascii=False, indent=1) + "\n"
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as error:
            self.table.say(self.tr.t("term-save-failed", error=str(error)))
            return None
        self.table.say(self.tr.t("term-saved", path=str(path)))
        return path


def result_lines(end: GameState, names: list[str], tr: Translator) -> list[str]:
    """The finishing order, then the durak (with epaulettes, R-POG) or the draw, and with
    teams the team that lost (R-TEAM-4): the bot's words for the end of a game."""
    view = public_view(end)
    lines = []
    if view.out:
        lines.append(tr.t("table-order"))
        lines += [
            tr.t("table-order-line", place=number, name=names[seat])
            for number, seat in enumerate(view.out, start=1)
        ]
    if view.durak is None:
        lines.append(tr.t("table-draw"))
        return lines
    key = "table-order-durak-epaulettes" if view.epaulettes else "table-order-durak"
    lines.append(tr.t(key, name=names[view.durak], why="none"))
    if view.losing_team is not None and len(view.losing_team) > 1:
        mark = team_mark(view, view.losing_team[0])
        yours = "table-team-lost-yours" if HUMAN in view.losing_team else "table-team-lost"
        lines.append(tr.t(yours, mark=mark, names=", ".join(names[s] for s in view.losing_team)))
    return lines


def replay_command(options: Options) -> str:
    """The command line that deals the first game of this table again."""
    words = ["durak-play", "--players", str(options.players), "--level", options.level]
    rules = rule_words(options.rules)
    if rules:
        words += ["--rules", *rules]
    return shlex.join([*words, "--seed", str(options.seed)])


def rule_words(rules: HouseRules) -> list[str]:
    """``KEY=VALUE`` for every rule not at its default (``max_players``: the deck's)."""
    usual = HouseRules(deck=rules.deck).to_dict() | {"deck": HouseRules().deck}
    return [f"{k}={_word(v)}" for k, v in rules.to_dict().items() if usual.get(k) != v]


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def run(
    options: Options,
    tr: Translator,
    stdin: Lines,
    stdout: TextIO,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Play until the player leaves; 0 (leaving by q or the end of input is no error)."""
    Session(TerminalGame(options, tr, stdin, stdout, sleep)).run()
    return 0
