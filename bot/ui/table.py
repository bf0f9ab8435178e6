"""The group's live table message: public facts only, never a hand (RULES.md §11). In a
series, the game's number and the tally, and after a game the next-game button or the
standings (``bot.ui.stats``)."""

from __future__ import annotations

from typing import Any, assert_never

from aiogram.types import InlineKeyboardButton

from bot.i18n import Translator
from bot.model import ChatGame, LogKind, Phase
from bot.ui.callbacks import LobbyPress
from bot.ui.common import (
    Rendered,
    card_label,
    cards_label,
    fit,
    info_line,
    keyboard,
    name,
    names,
    pairs_text,
    place,
)
from bot.ui.lobby import lobby_view
from bot.ui.stats import series_lines
from engine import Card, GameState

MARK_TO_ACT = "👉"
MARK_WAITING = "▫️"


def _cards(entry: dict[str, Any], key: str, tr: Translator) -> str:
    return cards_label((Card.parse(c) for c in entry[key]), tr)


def _card(entry: dict[str, Any], key: str, tr: Translator) -> str:
    return card_label(Card.parse(entry[key]), tr)


def narrate(entry: dict[str, Any], game: ChatGame, tr: Translator) -> str:
    """One line of the table's log (``bot.model.event_to_log`` entries) in words:
    "Петя берёт 5 карт". An entry of an unknown kind gives an empty string."""
    try:
        kind = LogKind(entry.get("e", ""))
    except ValueError:
        return ""
    who = name(game, entry["player"]) if "player" in entry else ""
    match kind:
        case LogKind.GAME_OVER:
            durak = entry.get("durak")
            if durak is None:
                return tr.t("event-game-over-draw")
            return tr.t("event-game-over-durak", name=name(game, durak))
        case LogKind.BEATEN_OFF:
            return tr.t(
                "event-beaten-off", name=name(game, entry["defender"]), count=len(entry["cards"])
            )
        case LogKind.BOUT_STARTED:
            return tr.t(
                "event-bout-started",
                attacker=name(game, entry["attacker"]),
                defender=name(game, entry["defender"]),
            )
        case LogKind.ATTACKED:
            return tr.t("event-attacked", name=who, cards=_cards(entry, "cards", tr))
        case LogKind.THREW_IN:
            return tr.t("event-threw-in", name=who, cards=_cards(entry, "cards", tr))
        case LogKind.COVERED:
            card, on = _card(entry, "card", tr), _card(entry, "on", tr)
            return tr.t("event-covered", name=who, card=card, on=on)
        case LogKind.TRANSFERRED:
            card, target = _card(entry, "card", tr), name(game, entry["to"])
            return tr.t("event-transferred", name=who, card=card, target=target)
        case LogKind.PASSED:
            return tr.t("event-passed", name=who)
        case LogKind.DECLARED_TAKE:
            return tr.t("event-declared-take", name=who)
        case LogKind.TOOK:
            return tr.t("event-took", name=who, count=len(entry["cards"]))
        case LogKind.RESIGNED:
            why = entry.get("why")
            if why in ("left", "removed"):
                return tr.t(f"series-event-{why}", name=who)
            return tr.t("event-resigned", name=who)
        case LogKind.DREW:
            drawn = entry["drawn"] if "drawn" in entry else entry["count"]
            return tr.t("event-drew", name=who, count=drawn)
        case LogKind.PLAYER_OUT:
            return tr.t("event-player-out", name=who, place=place(tr, entry["place"]))
        case _:
            assert_never(kind)


def _log_lines(game: ChatGame, tr: Translator) -> list[str]:
    told = [line for line in (narrate(e, game, tr) for e in game.log) if line]
    if not told:
        return []
    return ["", tr.t("table-log"), *(f"• {line}" for line in told)]


def _player_line(game: ChatGame, state: GameState, seat: int, tr: Translator) -> str:
    if seat in state.out:
        return tr.t(
            "table-player-out", name=name(game, seat), place=place(tr, state.out.index(seat) + 1)
        )
    bout = state.bout
    role = None
    if bout is not None:
        if seat == bout.attacker:
            role = "role-attacker"
        elif seat == bout.defender:
            role = "role-taking" if bout.taking else "role-defender"
        elif seat in state.acting:
            role = "role-thrower"
    args = {
        "mark": MARK_TO_ACT if seat in state.acting else MARK_WAITING,
        "name": name(game, seat),
        "cards": tr.t("cards-count", count=state.hands[seat].bit_count()),
    }
    if role is None:
        return tr.t("table-player", **args)
    return tr.t("table-player-role", role=tr.t(role), **args)


def _turn_line(game: ChatGame, state: GameState, tr: Translator) -> str:
    bout = state.bout
    assert bout is not None
    defender = name(game, bout.defender)
    if not bout.attacks:
        return tr.t("table-turn-open", attacker=name(game, bout.attacker), defender=defender)
    throwers = [s for s in state.acting if s != bout.defender]
    covered = False
    if bout.taking:
        parts = [tr.t("table-turn-taking", defender=defender)]
    elif bout.defender in state.acting:
        parts = [tr.t("table-turn-defend", defender=defender)]
    else:
        parts = [tr.t("table-turn-covered")]
        covered = True
    if throwers:
        parts.append(tr.t("table-turn-throwers", count=len(throwers), names=names(game, throwers)))
        if covered:
            parts.append(tr.t("table-turn-beaten-or"))
    return " ".join(parts)


def _my_cards_button(game: ChatGame, tr: Translator) -> InlineKeyboardButton:
    data = LobbyPress(game=game.game_id, op="cards").pack()
    return InlineKeyboardButton(text=tr.t("btn-my-cards"), callback_data=data)


def _again_button(game: ChatGame, tr: Translator) -> InlineKeyboardButton:
    data = LobbyPress(game=game.game_id, op="again").pack()
    return InlineKeyboardButton(text=tr.t("btn-again"), callback_data=data)


def _next_button(game: ChatGame, tr: Translator) -> InlineKeyboardButton:
    series = game.series
    assert series is not None
    data = LobbyPress(game=game.game_id, op="next").pack()
    text = tr.t("btn-next-game", number=series.number + 1, length=series.length)
    return InlineKeyboardButton(text=text, callback_data=data)


def _durak_lines(game: ChatGame, durak: int, tr: Translator) -> list[str]:
    """Who is the durak, and why if they left the game (/leave, or left the group)."""
    lines = [tr.t("table-durak", name=name(game, durak))]
    for entry in reversed(game.log):
        if entry.get("e") == LogKind.RESIGNED and entry.get("player") == durak:
            why = entry.get("why")
            if why in ("leave", "left", "removed"):
                lines.append(tr.t(f"series-why-{why}", name=name(game, durak)))
            break
    return lines


def _finished_view(game: ChatGame, state: GameState, tr: Translator) -> Rendered:
    lines = [tr.t("table-title-over"), ""]
    if state.durak is None:
        lines.append(tr.t("table-draw"))
    else:
        lines += _durak_lines(game, state.durak, tr)
    lines += ["", tr.t("table-order")]
    lines += [
        tr.t("table-order-line", place=number, name=name(game, seat))
        for number, seat in enumerate(state.out, start=1)
    ]
    if state.durak is not None:
        lines.append(tr.t("table-order-durak", name=name(game, state.durak)))
    if game.series is not None:
        lines += ["", *series_lines(game, tr)]
    lines += _log_lines(game, tr)
    pending = game.series is not None and not game.series_over
    button = _next_button(game, tr) if pending else _again_button(game, tr)
    return Rendered(fit(lines), keyboard([[button]]))


def table_view(game: ChatGame, tr: Translator) -> Rendered:
    """The group's table: trump, stock and discard, every player with card count and role,
    the pairs on the table, whose move it is, the last events; a "My cards" button. After
    the game: the durak or a draw, the finishing order and a "Play again" button. In the
    lobby phase (or with no engine state yet) this is the lobby."""
    state = game.state
    if state is None or game.phase is Phase.LOBBY:
        return lobby_view(game, tr)
    if state.finished:
        return _finished_view(game, state, tr)
    lines = [
        tr.t("table-title", transfer="yes" if state.rules.transfer else "no"),
        *series_lines(game, tr),
        info_line(state, tr),
        "",
        *(_player_line(game, state, seat, tr) for seat in range(state.players)),
        "",
        pairs_text(state, tr),
        _turn_line(game, state, tr),
        *_log_lines(game, tr),
    ]
    return Rendered(fit(lines), keyboard([[_my_cards_button(game, tr)]]))
