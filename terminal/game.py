"""The game loop: the table and the hand, the numbered moves (grouped as ``terminal.menu``
says), the computer players' turns.

Seat 0 is the person at the keyboard; the others are computer players of one level. When
several seats may act at once, the defender moves first (``engine.ai.who_acts``), the
order the arena uses too, so a thrower always sees the cover before adding a card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TextIO

from bot.i18n import Translator
from bot.ui.roles import role
from engine import (
    Action,
    Event,
    GameState,
    HouseRules,
    TrumpChoice,
    apply,
    legal_actions,
    new_game,
    view_for,
)
from engine.ai import choose_action, choose_trump, who_acts
from engine.view import SeatView

from .menu import choices
from .texts import SUIT_SYMBOLS, card_label, cards_label, event_text, hand_order, plain

HUMAN = 0
QUIT_WORDS = frozenset({"q", "quit", "exit", "выход", "вихід"})
MARK_TO_ACT = "👉"
MARK_WAITING = "  "


class Quit(Exception):
    """The player asked to leave (q, or the end of input)."""


@dataclass(frozen=True, slots=True)
class Options:
    players: int = 2
    level: str = "normal"
    rules: HouseRules = field(default_factory=HouseRules)
    seed: int | None = None


class TerminalGame:
    def __init__(self, options: Options, tr: Translator, stdin: TextIO, stdout: TextIO) -> None:
        self.options = options
        self.tr = tr
        self.stdin = stdin
        self.stdout = stdout
        self.names = [tr.t("term-you")] + [
            tr.t("term-computer", number=n) for n in range(1, options.players)
        ]

    def say(self, text: str = "") -> None:
        self.stdout.write(plain(text) + "\n")
        self.stdout.flush()

    def play(self) -> GameState:
        """One game to its end; ``Quit`` if the player leaves."""
        tr, options = self.tr, self.options
        # R-TRUMP-1: the suit is named before the deal; here the dealer names one at random
        # (the table shows it), whoever deals.
        named = choose_trump(options.seed) if options.rules.trump is TrumpChoice.DEALER else None
        state = new_game(options.players, rules=options.rules, seed=options.seed, trump=named)
        self.say(tr.t("table-title", transfer="yes" if options.rules.transfer else "no"))
        level = tr.t(f"term-level-{options.level}")
        self.say(tr.t("term-title", players=options.players, level=level))
        self.say(tr.t("term-hint"))
        if state.teams:  # R-TEAM-1: who plays with whom
            self.say(tr.t("term-teams", teams=self.teams_text(state.teams)))
        told_out = False
        while state.bout is not None:
            seat = who_acts(state)
            if seat == HUMAN:
                action = self.ask(state)
            else:
                action = choose_action(
                    state,
                    seat,
                    options.level,
                    seed=None if options.seed is None else f"{options.seed}:{state.moves}",
                )
            state, events = apply(state, action)
            self.tell(events)
            if HUMAN in state.out and not told_out and state.bout is not None:
                self.say(tr.t("term-you-are-out"))
                told_out = True
        if state.losing_team is not None:
            self.say(tr.t("term-team-lost", team=self.teams_text((state.losing_team,))))
        return state

    def teams_text(self, teams: tuple[tuple[int, ...], ...]) -> str:
        return " · ".join(" + ".join(self.names[s] for s in team) for team in teams)

    def tell(self, events: tuple[Event, ...]) -> None:
        for event in events:
            line = event_text(event, self.names, self.tr, you=HUMAN)
            if line:
                self.say(f"• {line}")

    def ask(self, state: GameState) -> Action:
        """Show the table and the moves, and read move numbers until one is a move (a
        number may open the choices of several cards of one rank, or go back)."""
        tr = self.tr
        view = view_for(state, HUMAN)
        self.show(view)
        menus = [(tr.t("term-your-turn"), choices(legal_actions(state, HUMAN), view.trump, tr))]
        while True:
            question, menu = menus[-1]
            labels = [choice.label for choice in menu]
            if len(menus) > 1:
                labels.append(tr.t("term-back"))
            self.say(question)
            for number, label in enumerate(labels, 1):
                self.say(f"  {number}. {label}")
            number = self.read_number(len(labels))
            if number > len(menu):
                menus.pop()
                continue
            choice = menu[number - 1]
            if choice.action is not None:
                return choice.action
            menus.append((choice.question, list(choice.then)))

    def read_number(self, count: int) -> int:
        """A number from 1 to ``count``, asked again until it is one; ``Quit`` on q or at
        the end of input."""
        while True:
            self.stdout.write(self.tr.t("term-prompt") + " ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.say()
                raise Quit
            answer = line.strip().lower()
            if answer in QUIT_WORDS:
                raise Quit
            if not answer.isdigit():
                self.say(self.tr.t("term-error-not-a-number"))
                continue
            number = int(answer)
            if not 1 <= number <= count:
                self.say(self.tr.t("term-error-out-of-range", count=count))
                continue
            return number

    def show(self, view: SeatView) -> None:
        tr = self.tr
        self.say()
        trump_card = view.trump_card
        # No face-up card of the trump suit (named by the dealer, Japanese, or after a
        # Northern change): the suit's sign stands for it.
        shown = SUIT_SYMBOLS[view.trump]
        if trump_card is not None and trump_card.suit == view.trump:
            shown = card_label(trump_card, tr)
        self.say(
            tr.t(
                "table-info",
                trump=shown,
                suit=tr.t(f"suit-{view.trump.letter}"),
                stock=view.stock_size,
                discard=view.discard_size,
            )
        )
        for seat, name in enumerate(self.names):
            if seat in view.out:
                continue
            mark = MARK_TO_ACT if seat in view.to_act else MARK_WAITING
            args = {
                "mark": mark,
                "name": name,
                "cards": tr.t("cards-count", count=view.hand_sizes[seat]),
            }
            part = role(view, seat)
            if part is None:
                self.say(tr.t("table-player", **args))
            else:
                self.say(tr.t("table-player-role", role=tr.t(part), **args))
        if view.table:
            self.say(tr.t("table-on-table", count=len(view.table), limit=view.limit or 0))
            pairs = "   ".join(
                f"{card_label(a, tr)}/{'?' if c is None else card_label(c, tr)}"
                for a, c in view.table
            )
            self.say(f"  {pairs}")
        else:
            self.say(tr.t("table-empty"))
        hand = hand_order(view.hand, view.trump)
        self.say(tr.t("hand-cards", count=len(hand), cards=cards_label(hand, tr)))


def run(options: Options, tr: Translator, stdin: TextIO, stdout: TextIO) -> int:
    """Play one game; 0 when it ended, 0 too when the player quit (q or end of input)."""
    game = TerminalGame(options, tr, stdin, stdout)
    try:
        game.play()
    except Quit:
        game.say(tr.t("term-bye"))
    return 0
