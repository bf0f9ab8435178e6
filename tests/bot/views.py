"""Games and checks the rendering tests share: a chat game around an engine state, positions
written by hand, random games with their log, and checks that a text is Telegram HTML and a
keyboard fits a phone."""

from __future__ import annotations

import random
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

from aiogram.filters.callback_data import MAX_CALLBACK_LENGTH
from aiogram.types import InlineKeyboardMarkup

from bot.model import ChatGame, ChatSettings, Phase, Seat, append_log
from bot.schema.presses import Move
from bot.ui.callbacks import decode_press
from bot.ui.common import MAX_LABEL, MAX_TEXT
from engine import (
    Action,
    Card,
    GameState,
    HouseRules,
    Suit,
    TrumpChoice,
    apply,
    from_position,
    legal_actions,
    new_game,
)
from engine.cards import deck_cards

NAMES = ["Оля", "<b>Вася</b>", "Петя & Co", "Маша", "Дима", "Юля", "Саша", "Женя"]
ESCAPED_VASYA = "&lt;b&gt;Вася&lt;/b&gt;"


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def chat_game(state: GameState | None, players: int, lang: str = "ru") -> ChatGame:
    rules = state.rules if state is not None else HouseRules()
    game = ChatGame(
        chat_id=-1001234567890,
        game_id="Ab-_9z",
        creator_id=100,
        settings=ChatSettings(rules=rules, language=lang),
        phase=Phase.LOBBY if state is None else Phase.PLAYING,
        players=[Seat(100 + i, NAMES[i]) for i in range(players)],
        state=state,
    )
    if state is not None and state.finished:
        game.phase = Phase.FINISHED
    return game


def position(
    *hands: str, trump: Suit, attacker: int = 0, rules: HouseRules | None = None
) -> GameState:
    """A position with an empty stock: every card not in a hand is in the discard."""
    rules = rules or HouseRules()
    held = [cards(h) for h in hands]
    named = {c for h in held for c in h}
    rest = [c for c in deck_cards(rules.deck) if c not in named]
    return from_position(held, rules=rules, trump=trump, discard=rest, attacker=attacker)


def play(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state, _ = apply(state, action)
    return state


def random_game(players: int, seed: int, rules: HouseRules) -> Iterator[ChatGame]:
    """Every position of one game played with random legal actions, log included (under
    ``trump: dealer`` the dealer names a suit that follows from ``seed``)."""
    rng = random.Random(seed)
    trump = Suit(seed % 4) if rules.trump is TrumpChoice.DEALER else None
    state = new_game(players, rules=rules, seed=seed, trump=trump)
    yield chat_game(state, players)
    log: list[dict[str, Any]] = []
    for _ in range(3000):
        if state.finished:
            return
        seat = rng.choice(state.acting)
        state, events = apply(state, rng.choice(legal_actions(state, seat)))
        log = append_log(log, events)
        game = chat_game(state, players)
        game.log = log
        yield game
    raise AssertionError("the game did not end")


def buttons(markup: InlineKeyboardMarkup | None) -> list[tuple[str, str]]:
    if markup is None:
        return []
    return [(b.text, b.callback_data or "") for row in markup.inline_keyboard for b in row]


class _Html(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.ok = True
        self.plain: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # <tg-time>: a date-time entity (the turn deadline in a private hand)
        self.ok &= tag in {"b", "i"} or (tag == "tg-time" and "unix" in dict(attrs))
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        self.ok &= bool(self.stack) and self.stack.pop() == tag

    def handle_data(self, data: str) -> None:
        self.plain.append(data)


def check_html(text: str) -> str:
    """Asserts ``text`` is Telegram HTML within limits; returns its plain text."""
    assert len(text) <= MAX_TEXT
    parser = _Html()
    parser.feed(text)
    parser.close()
    assert parser.ok and not parser.stack, text
    assert "{" not in text, text
    return "".join(parser.plain)


def check_layout(markup: InlineKeyboardMarkup | None) -> None:
    """At most three buttons a row and short labels: a phone shows them whole."""
    if markup is None:
        return
    assert all(1 <= len(row) <= 3 for row in markup.inline_keyboard), buttons(markup)
    assert sum(len(row) for row in markup.inline_keyboard) <= 100
    for text, data in buttons(markup):
        assert text.strip()
        assert len(text) <= MAX_LABEL, text
        assert len(data.encode()) <= MAX_CALLBACK_LENGTH


def decode_action(code: str, seat: int) -> Action:
    """The action the button ``code`` plays when ``seat`` presses it."""
    press = decode_press(code)
    assert isinstance(press, Move), press
    return press.action(seat)
