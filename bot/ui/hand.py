"""A player's private message: the whole table as that player may see it (``HandScene``:
the seat's view, never the whole state), their hand, what is expected now, and a button for
every legal action (``engine.legal_actions``), nothing else."""

from __future__ import annotations

import time
from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.ui.board import finished_lines, log_lines, place_of, table_lines, timed_out_now
from bot.ui.callbacks import BACK, HandPress, encode_action, encode_pick
from bot.ui.common import (
    MAX_BUTTONS,
    MAX_POPUP,
    MAX_ROW,
    MAX_TEXT,
    SUIT_SYMBOLS,
    Rendered,
    card_label,
    cards_label,
    fit,
    hand_label,
    keyboard,
    name,
    names,
    sorted_hand,
    suit_groups,
)
from bot.ui.scene import HandScene
from bot.ui.table import finish_button
from bot.ui.webapp import TableLinks, private_table_button
from engine import (
    Action,
    Attack,
    AttackSlot,
    Believe,
    Card,
    Defend,
    DefendSlot,
    Doubt,
    Exchange,
    Pass,
    SeatView,
    Take,
    Throw,
    ThrowSlot,
    Transfer,
)
from engine.cards import LOWEST_RANK_BY_DECK, sort_key


def exchange_label(view: SeatView, tr: Translator) -> str:
    """The exchange's button (R-SIX-1): the seat's lowest trump for the face-up card,
    ``🔄 6♦ ↔ Т♦``."""
    low = Card.of(LOWEST_RANK_BY_DECK[view.rules.deck], view.trump)
    assert view.trump_card is not None  # the exchange needs the face-up card (R-VAR-1)
    return tr.t("btn-exchange", card=card_label(low, tr), took=card_label(view.trump_card, tr))


def action_label(action: Action, tr: Translator) -> str:
    """An action in a few words, as on its button: ``6♠+6♥``, ``Беру``, ``↪️ 7♦`` (transfer);
    a cover as ``9♠ → 7♠`` (the covering card, then the covered one). The exchange's
    button needs the view: ``exchange_label``. A card unseen is its slot's back, ``🂠3``
    (R-BLIND-2)."""
    if isinstance(action, Attack | Throw):
        return "+".join(card_label(c, tr) for c in action.cards)
    if isinstance(action, Defend):
        return f"{card_label(action.card, tr)} → {card_label(action.on, tr)}"
    if isinstance(action, Take):
        return tr.t("btn-take")
    if isinstance(action, Pass):
        return tr.t("btn-pass")
    if isinstance(action, Exchange):
        return tr.t("btn-exchange-short")
    if isinstance(action, AttackSlot | ThrowSlot):
        return tr.t("btn-slot", slot=action.slot)
    if isinstance(action, DefendSlot):
        if action.on is None:
            return tr.t("btn-slot", slot=action.slot)
        return tr.t("btn-slot-cover", slot=action.slot, on=card_label(action.on, tr))
    if isinstance(action, Believe):
        return tr.t("btn-believe")
    if isinstance(action, Doubt):
        return tr.t("btn-doubt")
    return tr.t("btn-transfer", card=card_label(action.card, tr))


def _pass_label(view: SeatView, tr: Translator) -> str:
    if view.taking:
        return tr.t("btn-pass-taking")
    if view.all_covered:
        return tr.t("btn-pass-beaten")
    return tr.t("btn-pass")


class _Keys:
    """Buttons for one seat's keyboard, all carrying the game and the move count."""

    def __init__(self, scene: HandScene) -> None:
        self.chat = scene.game.chat_id
        self.game = scene.game.game_id
        self.moves = scene.view.moves

    def button(self, text: str, act: str) -> InlineKeyboardButton:
        data = HandPress(chat=self.chat, game=self.game, moves=self.moves, act=act).pack()
        return InlineKeyboardButton(text=text, callback_data=data)


def _targets_keyboard(
    keys: _Keys, targets: Sequence[Defend], tr: Translator
) -> InlineKeyboardMarkup | None:
    rows = [
        [
            keys.button(tr.t("btn-cover", on=card_label(a.on, tr)), encode_action(a))
            for a in targets
        ],
        [keys.button(tr.t("btn-back"), BACK)],
    ]
    return keyboard(rows)


def _hand_keyboard(
    keys: _Keys, view: SeatView, actions: Sequence[Action], tr: Translator, reserved: int = 0
) -> InlineKeyboardMarkup | None:
    """Every legal action as a button, in at most ``MAX_BUTTONS`` less ``reserved`` (buttons
    that follow: the Mini App's)."""
    trump = view.trump
    singles: dict[Card, tuple[str, str]] = {}  # card -> (label, act)
    sets: list[Attack | Throw] = []
    covers: dict[Card, list[Defend]] = {}
    transfers: list[InlineKeyboardButton] = []
    last_row: list[InlineKeyboardButton] = []
    first_row: list[InlineKeyboardButton] = []  # the exchange, before the move it precedes
    for action in actions:
        if isinstance(action, Exchange):
            first_row.append(keys.button(exchange_label(view, tr), encode_action(action)))
        elif isinstance(action, Attack | Throw):
            if len(action.cards) == 1:
                card = action.cards[0]
                singles[card] = (card_label(card, tr), encode_action(action))
            elif len({c.rank for c in action.cards}) == 1:
                sets.append(action)  # several cards of one rank (R-BOUT-1)
        elif isinstance(action, Defend):
            covers.setdefault(action.card, []).append(action)
        elif isinstance(action, Transfer):
            transfers.append(keys.button(action_label(action, tr), encode_action(action)))
        elif isinstance(action, Take):
            last_row.append(keys.button(tr.t("btn-take"), encode_action(action)))
        else:
            last_row.append(keys.button(_pass_label(view, tr), encode_action(action)))
    for card, options in covers.items():
        if len(options) == 1:  # one target fits: cover it directly
            singles[card] = (card_label(card, tr), encode_action(options[0]))
        else:  # several targets: pick the card first, then the target
            singles[card] = (card_label(card, tr) + "…", encode_pick(card))
    rows = [first_row]
    rows += [
        [keys.button(*singles[card]) for card in group] for group in suit_groups(singles, trump)
    ]
    budget = MAX_BUTTONS - reserved - len(singles) - len(transfers) - len(last_row) - len(first_row)
    sets.sort(key=lambda a: (a.cards[0].rank, len(a.cards), [sort_key(c, trump) for c in a.cards]))
    set_buttons = [
        keys.button(
            "+".join(card_label(c, tr) for c in sorted_hand(a.cards, trump)), encode_action(a)
        )
        for a in sets[: max(budget, 0)]
    ]
    rows += [set_buttons[start : start + MAX_ROW] for start in range(0, len(set_buttons), MAX_ROW)]
    rows += [transfers, last_row]  # "↪️ 9♠ | ↪️ 9♥ | ↪️ 9♣", then "Беру" on a row of its own
    return keyboard(rows)


def _status(scene: HandScene, picked: Card | None, tr: Translator) -> list[str]:
    """What is expected of this player now, in a line or two."""
    game, view, actions = scene.game, scene.view, scene.actions
    seat = view.seat
    lines = []
    timer = timed_out_now(game, view, seat)
    if timer is not None:
        lines.append(tr.t("hand-timed-out", kind=timer))
    if seat in view.out:
        return [*lines, tr.t("hand-out", place=place_of(view, seat, tr))]
    assert view.defender is not None
    defender = name(game, view.defender)
    if picked is not None:
        return [*lines, tr.t("hand-pick-target", card=card_label(picked, tr))]
    if not actions:
        if seat == view.defender and view.taking:
            return [*lines, tr.t("hand-taking-wait")]
        return [*lines, tr.t("hand-wait", names=names(game, view.to_act))]
    if not view.table:
        return [*lines, tr.t("hand-attack", defender=defender)]
    if seat == view.defender:
        can_cover = any(isinstance(a, Defend) for a in actions)
        if any(isinstance(a, Transfer) for a in actions):
            key = "hand-defend-transfer" if can_cover else "hand-defend-transfer-only"
        else:
            key = "hand-defend" if can_cover else "hand-defend-take"
        return [*lines, tr.t(key)]
    assert view.limit is not None
    more = tr.t("hand-throw-more", left=view.limit - len(view.table))
    if view.taking:
        key = "hand-throw-taking"
    elif view.all_covered:
        key = "hand-throw-covered"
    else:
        key = "hand-throw"
    return [*lines, tr.t(key, defender=defender, more=more)]


def deadline_line(deadline: float, tr: Translator) -> str:
    """When the decision due now times out, as a time each player's app shows in their own
    time zone (Telegram's date-time entity; older apps show the UTC time written in it).
    Rounded down: the time shown is never later than the real one."""
    at = int(deadline)
    written = time.strftime("%H:%M:%S UTC", time.gmtime(at))
    return tr.t("hand-deadline", time=f'<tg-time unix="{at}" format="T">{written}</tg-time>')


def _hand_line(view: SeatView, tr: Translator) -> str:
    if not view.hand:
        return tr.t("hand-no-cards")
    return tr.t("hand-cards", count=len(view.hand), cards=hand_label(view.hand, view.trump, tr))


def _finished_view(scene: HandScene, tr: Translator) -> Rendered:
    view = scene.view
    lines = finished_lines(scene.game, view, tr, you=view.seat)
    if view.hand:
        lines += ["", _hand_line(view, tr)]
    # Alone with computers there is no group table: its buttons are here.
    markup = keyboard([[finish_button(scene.game, tr)]]) if scene.game.private else None
    return Rendered(fit(lines), markup)


def hand_view(
    scene: HandScene,
    tr: Translator,
    *,
    picked: Card | None = None,
    links: TableLinks | None = None,
) -> Rendered:
    """One player's private message, a whole table as that player may see it: trump, stock
    and discard, every player with card count and role, the table, whose decision it is and
    until when (with a turn timer), the last moves, the hand (by suit, trumps last), what to
    do now, and buttons for exactly the legal actions. After the game: the result.

    ``picked``: the cover card chosen in the pick step; the keyboard then offers the attack
    cards it can cover and Back. A ``picked`` card that covers nothing now is ignored.
    ``links``: with the Mini App, a last row «🃏 Стол» that opens it (``bot.ui.webapp``)."""
    game, view = scene.game, scene.view
    if view.finished:
        return _finished_view(scene, tr)
    targets = [a for a in scene.actions if isinstance(a, Defend) and a.card == picked]
    if not targets:
        picked = None
    lines = table_lines(game, view, tr, you=view.seat)
    if scene.deadline is not None:
        lines.append(deadline_line(scene.deadline, tr))
    end = ["", _hand_line(view, tr), "", *_status(scene, picked, tr)]
    told = log_lines(game, tr)
    if len("\n".join([*lines, *told, *end])) <= MAX_TEXT:  # the moves give way to the hand
        lines += told
    lines += end
    keys = _Keys(scene)
    if picked is not None:
        markup = _targets_keyboard(keys, targets, tr)
    else:
        markup = _hand_keyboard(keys, view, scene.actions, tr, reserved=0 if links is None else 1)
    if links is not None:
        rows = [] if markup is None else markup.inline_keyboard
        markup = InlineKeyboardMarkup(
            inline_keyboard=[*rows, [private_table_button(links, game.chat_id, tr)]]
        )
    return Rendered(fit(lines), markup)


def hand_popup(view: SeatView, tr: Translator) -> str:
    """The hand in short plain text for a pop-up that only its owner sees (<= 200 chars)."""
    hand = view.hand
    if not hand:
        return tr.t("popup-no-cards")
    trump = SUIT_SYMBOLS[view.trump]
    for cards in (hand_label(hand, view.trump, tr), cards_label(sorted_hand(hand, view.trump), tr)):
        text = tr.t("popup-hand", count=len(hand), cards=cards, trump=trump)
        if len(text) <= MAX_POPUP:
            return text
    return text[: MAX_POPUP - 1] + "…"
