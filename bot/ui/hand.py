"""A player's private message: the whole table as that player may see it (``HandScene``:
the seat's view, never the whole state), their hand, what is expected now, and a button for
every legal action (``engine.legal_actions``), nothing else."""

from __future__ import annotations

import time
from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.model import LogKind
from bot.ui.board import (
    FACE_DOWN,
    finished_lines,
    log_lines,
    place_of,
    player_name,
    table_lines,
    timed_out_now,
)
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
from bot.ui.table import after_buttons, finish_button
from bot.ui.webapp import TableLinks, private_table_button
from engine import (
    Action,
    Attack,
    AttackSlot,
    Believe,
    Blind,
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


def plays_by_slot(view: SeatView) -> bool:
    """The seat may not see its own hand and acts by naming slots (R-BLIND-2): ``reversed``
    and ``chinese``. In ``doubt`` every player sees their hand and plays by card."""
    return view.rules.blind in (Blind.REVERSED, Blind.CHINESE)


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
    judge: list[InlineKeyboardButton] = []  # «✅ Верю | ❌ Не верю» (``doubt``, R-DOUBT-3)
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
        elif isinstance(action, Believe | Doubt):
            judge.append(keys.button(action_label(action, tr), encode_action(action)))
        elif isinstance(action, Pass):
            last_row.append(keys.button(_pass_label(view, tr), encode_action(action)))
        else:  # a play by slot: ``_slot_keyboard`` draws those hands
            last_row.append(keys.button(action_label(action, tr), encode_action(action)))
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
    rows += [transfers, judge, last_row]  # "↪️ 9♠ | ↪️ 9♥ | ↪️ 9♣", then "Беру" on its own row
    return keyboard(rows)


def _slot_keyboard(
    keys: _Keys, view: SeatView, actions: Sequence[Action], tr: Translator, on: Card | None
) -> InlineKeyboardMarkup | None:
    """The keyboard of a seat that plays by slot (R-BLIND-2): its slots as numbered backs,
    «🂠1 🂠2 🂠3», at most three to a row, then «🫴 Беру» or «Пас» on a row of their own. An
    opening, a throw-in and a ``chinese`` answer play the pressed slot at once. Every slot
    is offered, legal or not (R-BLIND-3): the engine lists them all.

    A ``reversed`` defender facing one uncovered card covers it with the slot pressed
    («🂠3 → 7♠»). Facing several, he first presses the card to cover («Покрыть 7♠»), then a
    slot (``on``: the card picked; with «↩️ Назад»). Why a step rather than a row of slots
    per uncovered card: up to six such rows of a hand that grows with every take would
    outgrow a phone's screen, and Telegram's hundred buttons. Why this step: it is the open
    game's pick step (``Pick``, the stored pick, ``decisions.pick``) with the attack card
    picked instead of the cover; an attack card is public, so nothing else had to change."""
    slots: list[InlineKeyboardButton] = []
    covers: dict[Card, list[DefendSlot]] = {}  # attack card -> the slots that may cover it
    last_row: list[InlineKeyboardButton] = []
    for action in actions:
        if isinstance(action, DefendSlot) and action.on is not None:
            covers.setdefault(action.on, []).append(action)
        elif isinstance(action, AttackSlot | ThrowSlot | DefendSlot):
            slots.append(keys.button(action_label(action, tr), encode_action(action)))
        elif isinstance(action, Pass):
            last_row.append(keys.button(_pass_label(view, tr), encode_action(action)))
        else:  # «Беру»
            last_row.append(keys.button(action_label(action, tr), encode_action(action)))
    if on is not None and on in covers:
        back = keys.button(tr.t("btn-back"), BACK)
        return keyboard([_actions_row(keys, covers[on], tr), [back]])
    targets: list[InlineKeyboardButton] = []
    if len(covers) == 1:  # one card to cover: the slots cover it directly
        slots += _actions_row(keys, next(iter(covers.values())), tr)
    else:
        targets = [
            keys.button(tr.t("btn-cover", on=card_label(card, tr)), encode_pick(card))
            for card in covers
        ]
    return keyboard([slots, targets, last_row])


def _actions_row(
    keys: _Keys, actions: Sequence[Action], tr: Translator
) -> list[InlineKeyboardButton]:
    return [keys.button(action_label(a, tr), encode_action(a)) for a in actions]


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
    assert view.defender is not None and view.attacker is not None
    defender = name(game, view.defender)
    if picked is not None:
        if plays_by_slot(view):  # the attack card to cover was picked
            return [*lines, tr.t("hand-pick-slot", on=card_label(picked, tr))]
        return [*lines, tr.t("hand-pick-target", card=card_label(picked, tr))]
    if not actions:
        if seat == view.defender and view.taking:
            return [*lines, tr.t("hand-taking-wait")]
        if seat == view.defender and view.face_down_covers and view.all_covered:
            return [*lines, tr.t("hand-judge-wait", attacker=name(game, view.attacker))]
        return [*lines, tr.t("hand-wait", names=names(game, view.to_act))]
    blind = _blind_status(scene, defender, tr)
    if blind is not None:
        return [*lines, blind]
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
    lines.append(tr.t(key, defender=defender, more=more))
    if plays_by_slot(view):  # a throw-in of a rank not on the table is a misplay (R-REV-3)
        lines.append(tr.t("hand-throw-risk"))
    return lines


def _blind_status(scene: HandScene, defender: str, tr: Translator) -> str | None:
    """What the blind family expects of a seat that may act, where it differs from the open
    game's words (RULES.md section 14); None where those words hold."""
    view, actions = scene.view, scene.actions
    blind = view.rules.blind
    if blind is Blind.OFF:
        return None
    if any(isinstance(a, Believe | Doubt) for a in actions):  # R-DOUBT-3
        return tr.t("hand-judge", defender=defender)
    if blind is Blind.DOUBT:
        if view.seat != view.defender or not view.table:
            return None  # the opening is the open game's
        if any(isinstance(a, Take) for a in actions):
            return tr.t("hand-defend-doubt")
        return tr.t("hand-defend-doubt-rest")  # the take comes before any cover
    if view.face_down_attack:  # ``chinese``: answer the card lying face down (R-CHI-2)
        return tr.t("hand-answer")
    if not view.table:
        key = "hand-attack-face-down" if blind is Blind.CHINESE else "hand-attack-slot"
        return tr.t(key, defender=defender)
    if view.seat != view.defender:
        return None  # a throw-in: the open game's words and a warning
    targets = [a.on for a in actions if isinstance(a, DefendSlot) and a.on is not None]
    if len(set(targets)) == 1:
        return tr.t("hand-defend-slot", on=card_label(targets[0], tr))
    return tr.t("hand-defend-slot-target") if targets else None


def deadline_line(deadline: float, tr: Translator) -> str:
    """When the decision due now times out, as a time each player's app shows in their own
    time zone (Telegram's date-time entity; older apps show the UTC time written in it).
    Rounded down: the time shown is never later than the real one."""
    at = int(deadline)
    written = time.strftime("%H:%M:%S UTC", time.gmtime(at))
    return tr.t("hand-deadline", time=f'<tg-time unix="{at}" format="T">{written}</tg-time>')


def _hand_line(view: SeatView, tr: Translator) -> str:
    if plays_by_slot(view):  # the own row as its player sees it: backs, «🂠1 🂠2 🂠3»
        row = view.rows[view.seat]
        if not row:
            return tr.t("hand-no-cards")
        return tr.t("hand-slots", count=len(row), slots=_slots_label(row, tr))
    if not view.hand:
        return tr.t("hand-no-cards")
    return tr.t("hand-cards", count=len(view.hand), cards=hand_label(view.hand, view.trump, tr))


def _slots_label(row: Sequence[Card | None], tr: Translator) -> str:
    """A row of slots (R-BLIND-2), a card where its viewer sees it, else the slot's
    numbered back: «🂠1 🂠2 🂠3»."""
    return " ".join(
        tr.t("btn-slot", slot=number) if card is None else card_label(card, tr)
        for number, card in enumerate(row, start=1)
    )


def _rows_lines(scene: HandScene, tr: Translator) -> list[str]:
    """The other hands the seat sees (``reversed``, R-REV-1), each face up in slot order
    («Петя: 7♠ 9♥ Т♦»), under a heading; nothing where it sees only backs. Drawn from the
    seat's view (``SeatView.rows``): a back stays a back."""
    game, view = scene.game, scene.view
    lines = [
        tr.t(
            "hand-row",
            name=player_name(game, seat, tr),
            cards=" ".join(FACE_DOWN if c is None else card_label(c, tr) for c in row),
        )
        for seat, row in enumerate(view.rows)
        if seat != view.seat and any(c is not None for c in row)
    ]
    return [tr.t("hand-rows"), *lines, ""] if lines else []


def _lowest_trump_lines(scene: HandScene, tr: Translator) -> list[str]:
    """R-BLIND-5: to the holder of the lowest trump a ``reversed`` deal showed everybody
    (the log's ``LOWEST_TRUMP``, while the log tells it), the slot the card went back to.
    Drawn from the seat's view: it remembers that card in that slot (``remembered``; the
    slot moves left as cards before it leave), so nothing else of the row is named."""
    view = scene.view
    for entry in scene.game.log:
        if entry.get("e") != LogKind.LOWEST_TRUMP or entry.get("player") != view.seat:
            continue
        card = Card.parse(entry["card"])
        if card in view.remembered:
            slot = tr.t("btn-slot", slot=view.remembered.index(card) + 1)
            return [tr.t("hand-lowest-trump-slot", slot=slot, card=card_label(card, tr))]
    return []


def _finished_view(scene: HandScene, tr: Translator) -> Rendered:
    view = scene.view
    lines = finished_lines(scene.game, view, tr, you=view.seat)
    if view.hand:
        lines += ["", _hand_line(view, tr)]
    # Alone with computers there is no group table: its buttons are here. The review and
    # the deck's check are everybody's, in private too.
    rows = [[finish_button(scene.game, tr)]] if scene.game.private else []
    rows += after_buttons(scene.game, tr)
    return Rendered(fit(lines), keyboard(rows))


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
    cards it can cover and Back. A seat that plays by slot (``reversed``) picks the attack
    card instead, and is offered the slots that may cover it. A ``picked`` card that covers
    nothing now is ignored.
    ``links``: with the Mini App, a last row «🃏 Стол» that opens it (``bot.ui.webapp``).

    The blind family (RULES.md section 14): what the seat sees and nothing more, from its
    view: in ``reversed`` the other hands face up in slot order and its own as numbered
    backs, in ``chinese`` its own backs, in ``doubt`` its hand as usual; a card lying face
    down is a back on the table. Its slots are its buttons (``_slot_keyboard``)."""
    game, view = scene.game, scene.view
    if view.finished:
        return _finished_view(scene, tr)
    by_slot = plays_by_slot(view)
    targets = [a for a in scene.actions if isinstance(a, Defend) and a.card == picked]
    slots = [a for a in scene.actions if isinstance(a, DefendSlot) and a.on == picked]
    if picked is None or not (slots if by_slot else targets):
        picked = None
    lines = table_lines(game, view, tr, you=view.seat)
    if scene.deadline is not None:
        lines.append(deadline_line(scene.deadline, tr))
    end = [
        "",
        *_rows_lines(scene, tr),
        _hand_line(view, tr),
        *_lowest_trump_lines(scene, tr),
        "",
        *_status(scene, picked, tr),
    ]
    told = log_lines(game, tr)
    if len("\n".join([*lines, *told, *end])) <= MAX_TEXT:  # the moves give way to the hand
        lines += told
    lines += end
    keys = _Keys(scene)
    if by_slot:
        markup = _slot_keyboard(keys, view, scene.actions, tr, picked)
    elif picked is not None:
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
    trump = SUIT_SYMBOLS[view.trump]
    count = view.hand_sizes[view.seat]
    if plays_by_slot(view) and count:  # its owner does not see it either (R-BLIND-2)
        return tr.t(
            "popup-hand-unseen", cards=tr.t("cards-count", count=count), count=count, trump=trump
        )
    if not hand:
        return tr.t("popup-no-cards")
    for cards in (hand_label(hand, view.trump, tr), cards_label(sorted_hand(hand, view.trump), tr)):
        text = tr.t("popup-hand", count=len(hand), cards=cards, trump=trump)
        if len(text) <= MAX_POPUP:
            return text
    return text[: MAX_POPUP - 1] + "…"
