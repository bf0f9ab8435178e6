"""A player's private hand message: the hand, the table, what is expected now, and a button
for every legal action (``engine.legal_actions``), nothing else."""

from __future__ import annotations

from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.model import ChatGame
from bot.ui.callbacks import BACK, HandPress, encode_action, encode_pick
from bot.ui.common import (
    MAX_BUTTONS,
    MAX_POPUP,
    MAX_ROW,
    SUIT_SYMBOLS,
    Rendered,
    card_label,
    cards_label,
    fit,
    hand_label,
    info_line,
    keyboard,
    name,
    names,
    pairs_text,
    place,
    sorted_hand,
    suit_groups,
)
from engine import (
    Action,
    Attack,
    Card,
    Defend,
    GameState,
    Pass,
    Take,
    Throw,
    Transfer,
    legal_actions,
)
from engine.cards import sort_key


def action_label(action: Action, tr: Translator) -> str:
    """An action in a few words, as on its button: ``6♠+6♥``, ``Беру``, ``↪️ 7♦`` (transfer);
    a cover as ``9♠ → 7♠`` (the covering card, then the covered one)."""
    if isinstance(action, Attack | Throw):
        return "+".join(card_label(c, tr) for c in action.cards)
    if isinstance(action, Defend):
        return f"{card_label(action.card, tr)} → {card_label(action.on, tr)}"
    if isinstance(action, Take):
        return tr.t("btn-take")
    if isinstance(action, Pass):
        return tr.t("btn-pass")
    return tr.t("btn-transfer", card=card_label(action.card, tr))


def _pass_label(state: GameState, tr: Translator) -> str:
    bout = state.bout
    if bout is not None and bout.taking:
        return tr.t("btn-pass-taking")
    if bout is not None and None not in bout.covers:
        return tr.t("btn-pass-beaten")
    return tr.t("btn-pass")


class _Keys:
    """Buttons for one seat's keyboard, all carrying the game and the move count."""

    def __init__(self, game: ChatGame, state: GameState) -> None:
        self.chat = game.chat_id
        self.game = game.game_id
        self.moves = state.moves

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
    keys: _Keys, state: GameState, actions: Sequence[Action], tr: Translator
) -> InlineKeyboardMarkup | None:
    trump = state.trump
    singles: dict[Card, tuple[str, str]] = {}  # card -> (label, act)
    sets: list[Attack | Throw] = []
    covers: dict[Card, list[Defend]] = {}
    transfers: list[InlineKeyboardButton] = []
    last_row: list[InlineKeyboardButton] = []
    for action in actions:
        if isinstance(action, Attack | Throw):
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
            last_row.append(keys.button(_pass_label(state, tr), encode_action(action)))
    for card, options in covers.items():
        if len(options) == 1:  # one target fits: cover it directly
            singles[card] = (card_label(card, tr), encode_action(options[0]))
        else:  # several targets: pick the card first, then the target
            singles[card] = (card_label(card, tr) + "…", encode_pick(card))
    rows = [
        [keys.button(*singles[card]) for card in group] for group in suit_groups(singles, trump)
    ]
    budget = MAX_BUTTONS - len(singles) - len(transfers) - len(last_row)
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


def _status(
    game: ChatGame,
    state: GameState,
    seat: int,
    actions: Sequence[Action],
    picked: Card | None,
    tr: Translator,
) -> list[str]:
    """What is expected of this player now, in a line or two."""
    if state.finished:
        if state.durak == seat:
            lines = [tr.t("hand-over-durak-you")]
        elif state.durak is not None:
            lines = [tr.t("hand-over-durak", name=name(game, state.durak))]
        else:
            lines = [tr.t("hand-over-draw")]
        if seat in state.out:
            lines.append(tr.t("hand-over-place", place=place(tr, state.out.index(seat) + 1)))
        return lines
    if seat in state.out:
        return [tr.t("hand-out", place=place(tr, state.out.index(seat) + 1))]
    bout = state.bout
    assert bout is not None
    defender = name(game, bout.defender)
    if picked is not None:
        return [tr.t("hand-pick-target", card=card_label(picked, tr))]
    if not actions:
        if seat == bout.defender and bout.taking:
            return [tr.t("hand-taking-wait")]
        return [tr.t("hand-wait", names=names(game, state.acting))]
    if not bout.attacks:
        return [tr.t("hand-attack", defender=defender)]
    if seat == bout.defender:
        can_cover = any(isinstance(a, Defend) for a in actions)
        if any(isinstance(a, Transfer) for a in actions):
            return [tr.t("hand-defend-transfer" if can_cover else "hand-defend-transfer-only")]
        return [tr.t("hand-defend" if can_cover else "hand-defend-take")]
    more = tr.t("hand-throw-more", left=bout.limit - len(bout.attacks))
    if bout.taking:
        return [tr.t("hand-throw-taking", defender=defender, more=more)]
    if None not in bout.covers:
        return [tr.t("hand-throw-covered", defender=defender, more=more)]
    return [tr.t("hand-throw", defender=defender, more=more)]


def hand_view(game: ChatGame, seat: int, tr: Translator, *, picked: Card | None = None) -> Rendered:
    """One player's private message: the hand (by suit, trumps last), trump and stock, the
    table, what to do now, and buttons for exactly the legal actions.

    ``picked``: the cover card chosen in the pick step; the keyboard then offers the attack
    cards it can cover and Back. A ``picked`` card that covers nothing now is ignored."""
    state = game.state
    if state is None:
        return Rendered(tr.t("hand-no-game"))
    if not 0 <= seat < state.players:
        return Rendered(tr.t("hand-not-seated"))
    hand = state.hand(seat)
    actions = legal_actions(state, seat)
    targets = [a for a in actions if isinstance(a, Defend) and a.card == picked]
    if not targets:
        picked = None
    lines = [tr.t("hand-title"), info_line(state, tr), ""]
    if not state.finished:
        lines += [pairs_text(state, tr), ""]
    if hand:
        lines.append(tr.t("hand-cards", count=len(hand), cards=hand_label(hand, state.trump, tr)))
    else:
        lines.append(tr.t("hand-no-cards"))
    lines += ["", *_status(game, state, seat, actions, picked, tr)]
    keys = _Keys(game, state)
    if picked is not None:
        markup = _targets_keyboard(keys, targets, tr)
    else:
        markup = _hand_keyboard(keys, state, actions, tr)
    return Rendered(fit(lines), markup)


def hand_popup(game: ChatGame, seat: int, tr: Translator) -> str:
    """The hand in short plain text for a pop-up that only its owner sees (<= 200 chars)."""
    state = game.state
    if state is None:
        return tr.t("popup-no-game")
    if not 0 <= seat < state.players:
        return tr.t("popup-not-playing")
    hand = state.hand(seat)
    if not hand:
        return tr.t("popup-no-cards")
    trump = SUIT_SYMBOLS[state.trump]
    for cards in (
        hand_label(hand, state.trump, tr),
        cards_label(sorted_hand(hand, state.trump), tr),
    ):
        text = tr.t("popup-hand", count=len(hand), cards=cards, trump=trump)
        if len(text) <= MAX_POPUP:
            return text
    return text[: MAX_POPUP - 1] + "…"
