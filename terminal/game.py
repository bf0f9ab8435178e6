"""The game loop: the table and the hand, the numbered moves (grouped as ``terminal.menu``
says), the computer players' turns.

Seat 0 is the person at the keyboard; the others are computer players of one level, each
move after the pause the bot makes (``Options.pace``). When several seats may act at once,
the defender moves first (``engine.ai.who_acts``), the order the arena uses too, so a
thrower always sees the cover before adding a card. ``terminal.session`` plays the games
one after another and ends each with its summary.

Everything shown to the person comes from their seat's view (``view_for``), never from the
state, so the blind family (RULES.md section 14) shows what that seat sees: in ``reversed``
the other hands face up and one's own as numbered backs, in ``chinese`` every hand as
backs and a face-down opening as a back on the table, in ``doubt`` one's own hand and the
covers laid face down as backs (to the defender who laid them, with their faces).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol, TextIO

from bot.i18n import Translator
from bot.ui.roles import role
from engine import (
    Action,
    Blind,
    Card,
    Event,
    GameState,
    HouseRules,
    Suit,
    TrumpChoice,
    apply,
    legal_actions,
    new_game,
    next_game,
    public_view,
    view_for,
)
from engine.ai import choose_action, choose_trump, who_acts
from engine.view import SeatView

from .menu import choices
from .seats import HUMAN, marked_name, seat_names, team_lines
from .texts import (
    BACK,
    SUIT_SYMBOLS,
    card_label,
    cards_label,
    event_text,
    hand_order,
    lowest_trump_lines,
    plain,
    role_text,
    row_label,
)

SEED_RANGE = 1_000_000  # a drawn seed short enough to type again
DealSeed = int | str  # the first game's is --seed, the next ones' follow from it
QUIT_WORDS = frozenset({"q", "quit", "exit", "выход", "вихід"})
MARK_TO_ACT = "👉"
MARK_WAITING = "  "


class Lines(Protocol):
    """Where the answers come from: standard input, or a test's player."""

    def readline(self) -> str: ...


class Quit(Exception):
    """The player asked to leave (q, or the end of input)."""


@dataclass(frozen=True, slots=True)
class Options:
    """A table: ``pace`` is the pause before each computer move, in seconds (the command
    line's default is the bot's); ``records`` the folder saved records go to."""

    players: int = 2
    level: str = "normal"
    rules: HouseRules = field(default_factory=HouseRules)
    seed: int | None = None
    pace: float = 0.0
    records: Path = Path()


@dataclass(frozen=True, slots=True)
class Played:
    """A game to its end: where it started, every action, where it ended (a record)."""

    start: GameState
    actions: tuple[Action, ...]
    end: GameState


class TerminalGame:
    def __init__(
        self,
        options: Options,
        tr: Translator,
        stdin: Lines,
        stdout: TextIO,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if options.seed is None:  # drawn here, so that it can be shown and typed again
            options = replace(options, seed=random.SystemRandom().randrange(SEED_RANGE))
        self.options = options
        self.tr = tr
        self.stdin = stdin
        self.stdout = stdout
        self.sleep = sleep
        self.names = seat_names(options.players, tr)

    def say(self, text: str = "") -> None:
        self.stdout.write(plain(text) + "\n")
        self.stdout.flush()

    def deal(self, seed: DealSeed, previous: GameState | None = None) -> GameState:
        """The first game at the table, or the next one after ``previous`` (R-DEAL-1: the
        loser deals; R-START-3: ``next_game_start`` says who opens)."""
        rules = self.options.rules
        # R-TRUMP-1: the suit is named before the deal; here the dealer names one at random
        # (the table shows it), whoever deals.
        named = choose_trump(seed) if rules.trump is TrumpChoice.DEALER else None
        if previous is None:
            return new_game(self.options.players, rules=rules, seed=seed, trump=named)
        return next_game(previous, seed=seed, trump=named)

    def play(self, start: GameState, seed: DealSeed) -> Played:
        """One game from ``start`` to its end; ``Quit`` if the player leaves."""
        tr, options = self.tr, self.options
        blind = options.rules.blind
        if blind is Blind.OFF:
            self.say(tr.t("table-title", transfer="yes" if options.rules.transfer else "no"))
        else:  # the game's name and, since few know these games, what it is
            self.say(f"🃏 {tr.t(f'term-game-{blind}')}")
            self.say(tr.t(f"term-about-{blind}"))
        level = tr.t(f"term-level-{options.level}")
        self.say(tr.t("term-title", players=options.players, level=level))
        self.say(tr.t("term-hint"))
        for line in team_lines(public_view(start), self.names, tr):  # R-TEAM-1
            self.say(line)
        for line in lowest_trump_lines(view_for(start, HUMAN), self.names, tr):  # R-BLIND-5
            self.say(f"• {line}")
        state, actions = start, []
        told_out = False
        while state.bout is not None:
            seat = who_acts(state)
            if seat == HUMAN:
                action = self.ask(state)
            else:
                # As the bot waits (its AI_PAUSE), so that a person can follow each move.
                if options.pace > 0:
                    self.sleep(options.pace)
                action = choose_action(state, seat, options.level, seed=f"{seed}:{state.moves}")
            state, events = apply(state, action)
            actions.append(action)
            self.tell(events, state.trump)
            if HUMAN in state.out and not told_out and state.bout is not None:
                self.say(tr.t("term-you-are-out"))
                told_out = True
        return Played(start, tuple(actions), state)

    def tell(self, events: tuple[Event, ...], trump: Suit) -> None:
        for event in events:
            line = event_text(event, self.names, self.tr, you=HUMAN, trump=trump)
            if line:
                self.say(f"• {line}")

    def ask(self, state: GameState) -> Action:
        """Show the table and the moves, and read move numbers until one is a move (a
        number may open the choices of several cards of one rank, or go back)."""
        tr = self.tr
        view = view_for(state, HUMAN)
        self.show(view)
        menus = [(tr.t("term-your-turn"), choices(legal_actions(state, HUMAN), view, tr))]
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

    def read_number(self, count: int, prompt: str = "term-prompt") -> int:
        """A number from 1 to ``count``, asked again until it is one; ``Quit`` on q or at
        the end of input."""
        while True:
            self.stdout.write(self.tr.t(prompt) + " ")
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
        if view.bottom_card_hidden:  # R-TRUMP-3: the bottom card will set the trump
            self.say(tr.t("table-northern-pending"))
        for seat in range(view.players):
            if seat in view.out:
                continue
            args = {
                "mark": MARK_TO_ACT if seat in view.to_act else MARK_WAITING,
                "name": marked_name(view, seat, self.names, tr),
                "cards": tr.t("cards-count", count=view.hand_sizes[seat]),
            }
            part = role(view, seat)
            if part is None:
                self.say(tr.t("table-player", **args))
            else:
                self.say(tr.t("table-player-role", role=role_text(part, tr, seat == HUMAN), **args))
        for seat in range(view.players):  # ``reversed``: the other hands, face up
            row = view.rows[seat] if view.rows else ()
            if seat != HUMAN and seat not in view.out and any(c is not None for c in row):
                name = marked_name(view, seat, self.names, tr)
                self.say(tr.t("term-row", name=name, cards=row_label(row, tr)))
        if view.misplays:  # R-REV-3: kept and shown
            self.say(tr.t("term-misplays", count=view.misplays))
        self.show_table(view)
        if view.rules.blind in (Blind.REVERSED, Blind.CHINESE):  # R-REV-1, R-CHI-1
            # Backs only, as the bot's page shows them: which slot holds a card the player
            # saw go there is theirs to remember (R-CHI-1).
            row = view.rows[HUMAN]
            self.say(tr.t("hand-cards", count=len(row), cards=row_label(row, tr)))
            return
        hand = hand_order(view.hand, view.trump)
        self.say(tr.t("hand-cards", count=len(hand), cards=cards_label(hand, tr)))

    def show_table(self, view: SeatView) -> None:
        """The cards on the table, each attack card over its cover: «?» while uncovered,
        a back for a card lying face down (R-CHI-2, R-DOUBT-2); the defender's own
        face-down covers with their faces after the back, and a line saying so."""
        tr = self.tr
        if not view.table and not view.face_down_attack:
            self.say(tr.t("table-empty"))
            return
        count = len(view.table) + view.face_down_attack
        self.say(tr.t("table-on-table", count=count, limit=view.limit or 0))
        down = set(view.face_down_covers)

        def cover(index: int, card: Card | None) -> str:
            if index not in down:
                return "?" if card is None else card_label(card, tr)
            return BACK if card is None else BACK + card_label(card, tr)

        pairs = [f"{card_label(a, tr)}/{cover(i, c)}" for i, (a, c) in enumerate(view.table)]
        if view.face_down_attack:  # ``chinese``: the opening, not in ``table``
            pairs.insert(0, f"{BACK}/?")
        self.say("  " + "   ".join(pairs))
        if any(view.table[i][1] is not None for i in down):
            self.say(tr.t("term-face-down-yours", back=BACK))
