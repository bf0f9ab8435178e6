"""What a renderer of a game is given: never the engine's whole ``GameState``.

A scene is the chat's record of the game with the engine state taken out (names, series,
log, ids) and a view of that state: ``TableScene`` holds the public view (the group's
table), ``HandScene`` one seat's view (``engine.view_for``) with that seat's legal actions
beside it. The only cards a scene holds are public ones and its seat's own hand, so a
renderer given a scene cannot show anybody else's hidden card, even by mistake.

    table_view(table_scene(game), tr)
    hand_view(hand_scene(game, seat, deadline=...), tr)
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.model import ChatGame
from engine import Action, SeatView, TableView, legal_actions, public_view, view_for


@dataclass(frozen=True, slots=True)
class TableScene:
    game: ChatGame  # without its state (``game.state`` is None)
    view: TableView


@dataclass(frozen=True, slots=True)
class HandScene:
    game: ChatGame  # without its state (``game.state`` is None)
    view: SeatView
    actions: tuple[Action, ...]  # what the seat may do now (``engine.legal_actions``)
    deadline: float | None = None  # when the decision due now times out (Unix time)


def table_scene(game: ChatGame) -> TableScene:
    state = game.state
    if state is None:
        raise ValueError("a table scene needs a dealt game")
    return TableScene(game.without_state(), public_view(state))


def hand_scene(game: ChatGame, seat: int, *, deadline: float | None = None) -> HandScene:
    state = game.state
    if state is None or not 0 <= seat < state.players:
        raise ValueError(f"seat {seat} has no hand in this game")
    actions = tuple(legal_actions(state, seat))
    return HandScene(game.without_state(), view_for(state, seat), actions, deadline)
