"""Who sits at the terminal's table and how the seat list marks them: «Ты» at seat 0, the
computer players with the bot's names («🤖 Федя»), teams with the bot's marks.

The bot keeps these in modules that bring Telegram, Redis and the metrics with them
(``bot/services/computers.py`` ``COMPUTER_NAMES``, ``bot/ui/common.py`` ``COMPUTER_MARK``,
``bot/ui/board.py`` ``TEAM_MARKS``), and the terminal imports none of that: the copies are
here, and ``tests/terminal`` checks that they stay equal to the bot's.
"""

from __future__ import annotations

from typing import Final

from bot.i18n import Translator
from engine import TableView

HUMAN: Final = 0  # the person at the keyboard
COMPUTER_MARK: Final = "🤖"
COMPUTER_NAMES: Final = ("Федя", "Маша", "Гоша", "Соня", "Лёва", "Ната", "Тёма", "Рита")
TEAM_MARKS: Final = ("🔴", "🔵", "🟢")  # by the team's place in ``TableView.teams``


def seat_names(players: int, tr: Translator) -> list[str]:
    """«Ты», then one computer player a seat, named in the bot's order."""
    computers = [f"{COMPUTER_MARK} {name}" for name in COMPUTER_NAMES[: players - 1]]
    return [tr.t("term-you"), *computers]


def team_mark(view: TableView, seat: int) -> str:
    """The mark of ``seat``'s team (R-TEAM-1), or "" without teams."""
    for number, team in enumerate(view.teams):
        if seat in team:
            return TEAM_MARKS[number % len(TEAM_MARKS)]
    return ""


def marked_name(view: TableView, seat: int, names: list[str], tr: Translator) -> str:
    """A name in the seat list: with its team's mark, and «(партнёр)» for a partner of the
    person at the keyboard, as the bot's table says."""
    mark = team_mark(view, seat)
    if not mark:
        return names[seat]
    partner = seat != HUMAN and mark == team_mark(view, HUMAN)
    return tr.t("player-partner" if partner else "player-team", mark=mark, name=names[seat])


def team_lines(view: TableView, names: list[str], tr: Translator) -> list[str]:
    """The teams, one line each, the person's own named as such (``table-team-yours``)."""
    lines = []
    for number, team in enumerate(view.teams):
        mark = TEAM_MARKS[number % len(TEAM_MARKS)]
        key = "table-team-yours" if HUMAN in team else "table-team"
        lines.append(tr.t(key, mark=mark, names=", ".join(names[s] for s in team)))
    return lines
