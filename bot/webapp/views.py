"""What a page is sent: one viewer's view of a chat's game, as JSON-ready data.

Built from the same scenes the chat renders (``bot.ui.scene``): a seated player gets
``hand_scene`` (their seat's ``view_for`` and legal actions), anybody else ``table_scene``
(the public view). A scene holds no hidden card, so neither can what is built from it.
Words are put in here, in the viewer's language (card counts need Fluent's plural forms);
the page only lays them out.

The blind family (RULES.md section 14) is drawn from the same views: a seat's row of slots
as its viewer sees it (``TableView.rows``: a card, or a back), the player's own unseen hand
as backs in slot order, a card lying face down on the table as a back (only the ``doubt``
defender's own view holds the covers he laid), and the slot actions with their slot.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

from bot.i18n import Translator
from bot.model import ChatGame, GameRecord, Phase
from bot.schema.presses import SLOT_KINDS, Move, MoveKind
from bot.turn_clock import started_deadline
from bot.ui.board import team_mark
from bot.ui.callbacks import TRUMP_SUITS, encode_action
from bot.ui.common import SUIT_SYMBOLS, card_label, place, plain_name, sorted_hand
from bot.ui.hand import exchange_label
from bot.ui.roles import role
from bot.ui.scene import HandScene, TableScene, hand_scene, table_scene
from engine import Action, Blind, Card, GameState, SeatView, TableView, Transfer, apply
from engine.cards import CARD_NAMES

# ``7H``, ``10S``: the engine's own name, the page's key for a card. Looked up, not a
# function of ours: a page names twenty cards and more, and a call each was a tenth of it.
card_code: Final[Callable[[int], str]] = CARD_NAMES.__getitem__


def page_state(
    record: GameRecord, user_id: int, tr: Translator, now: float | None = None
) -> dict[str, Any]:
    """The game of ``record`` as ``user_id`` may see it (their seat's view, or the public
    one), with the words in ``tr``'s language."""
    game = record.game
    base: dict[str, Any] = {
        "type": "state",
        "chat": game.chat_id,
        "game": game.game_id,
        "version": game.version,
        "phase": game.phase.value,
        "stopped": record.stopped_by is not None,
    }
    seat = game.seat_of(user_id)
    if game.state is None or game.phase is Phase.LOBBY:
        naming = [game.players[s].user_id == game.naming for s in range(len(game.players))]
        base["players"] = [
            # The dealer acts by naming the trump (R-TRUMP-1), not by a move.
            {"name": plain_name(game, s), "acting": acts, "acting_text": tr.t("webapp-naming-now")}
            if acts
            else {"name": plain_name(game, s), "acting": False}
            for s, acts in enumerate(naming)
        ]
        if game.naming is not None:
            base.update(_naming(record, user_id, tr))
        return base
    base["turn_seconds"] = game.settings.turn_timeout or None  # the clock's full turn
    if seat is not None:
        deadline = started_deadline(record, time.time() if now is None else now)
        scene: HandScene | TableScene = hand_scene(game, seat, deadline=deadline)
    else:
        scene = table_scene(game)
    view = scene.view
    base.update(_table(game, scene, view, tr))
    base["team_lost"] = _team_lost(game, view, seat, tr)
    if isinstance(scene, HandScene):
        base["seat"] = seat
        base["deadline"] = scene.deadline
        base["hand"] = [card_code(c) for c in sorted_hand(scene.view.hand, view.trump)]
        base["hand_backs"] = _hand_backs(scene.view, tr)
        base["actions"] = [_action(a, scene.view, tr, game.state) for a in scene.actions]
        base["pass_label"] = _pass_label(view)
    else:
        base["seat"] = None
        base["deadline"] = started_deadline(record, time.time() if now is None else now)
        base["hand"] = []
        base["hand_backs"] = []
        base["actions"] = []
    if scene.game.phase is Phase.PLAYING and not view.finished:
        base["status"] = _status(scene, tr)
    return base


def _table(
    game: ChatGame, scene: HandScene | TableScene, view: TableView, tr: Translator
) -> dict[str, Any]:
    you = scene.view.seat if isinstance(scene, HandScene) else None
    public = _public_table(game, view, tr)
    players = public["players"]  # without teams, the same on every page (no team named)
    if view.teams:
        players = [{**player, **_team(view, seat, you, tr)} for seat, player in enumerate(players)]
    labels = public["labels"]
    seen: list[Card] = []  # the cards this viewer sees besides the public ones
    if isinstance(scene, HandScene):
        seen += scene.view.hand
    if view.blind:
        # R-REV-1: the hands this viewer sees face up, each in slot order (R-BLIND-2); a
        # row of backs only (its own, any in ``chinese`` and ``doubt``) is its count.
        rows = [[None if c is None else card_code(c) for c in row] for row in view.rows]
        players = [
            {**player, "row": row} if any(row) else player
            for player, row in zip(players, rows, strict=True)
        ]
        seen += [c for row in view.rows for c in row if c is not None]
    table = public["table"]
    if any(view.table[i][1] is not None for i in view.face_down_covers):
        # R-DOUBT-2: the defender's own page shows the covers he laid face down.
        table = _table_pairs(view.table)
        seen += [c for i in view.face_down_covers if (c := view.table[i][1]) is not None]
    if seen:
        labels = {**labels, **{card_code(c): card_label(c, tr) for c in seen}}
    return {**public, "players": players, "table": table, "labels": labels}


def _table_pairs(pairs: tuple[tuple[Card, Card | None], ...]) -> list[list[str | None]]:
    return [
        [card_code(attack), None if cover is None else card_code(cover)] for attack, cover in pairs
    ]


# The last table built for every viewer alike: a move is sent to every page of its game at
# once, each in the same words, and only the seats' teams and the viewer's own cards differ
# (in the blind family also the hands it sees face up and the covers it laid face down).
# Built from whichever page's view comes first, so without what only that seat sees; held
# with the record's game, its version and its engine state (never changed in place), so a
# game changed in any way is built anew.
_last_public: tuple[ChatGame, int, object, str, dict[str, Any]] | None = None


def _public_table(game: ChatGame, view: TableView, tr: Translator) -> dict[str, Any]:
    """What every page of ``game`` shows alike, in ``tr``'s language: the seats without
    their teams, the cards on the table and the trump card, with their names."""
    global _last_public  # noqa: PLW0603 (a cache of one, like engine.view.public_view's)
    last = _last_public
    if (
        last is not None
        and last[0] is game
        and last[1] == game.version
        and last[2] is game.state
        and last[3] == tr.lang
    ):
        return last[4]
    public = _build_public_table(game, view, tr)
    _last_public = (game, game.version, game.state, tr.lang, public)
    return public


def _build_public_table(game: ChatGame, view: TableView, tr: Translator) -> dict[str, Any]:
    players = []
    for seat in range(view.players):
        part = role(view, seat)
        players.append(
            {
                "name": plain_name(game, seat),
                "cards": view.hand_sizes[seat],
                "cards_text": tr.t("cards-count", count=view.hand_sizes[seat]),
                "role": None if part is None else tr.t(part),
                "acting": seat in view.to_act,
                "place": place(tr, view.out.index(seat) + 1) if seat in view.out else None,
                "finished_as": view.out.index(seat) + 1 if seat in view.out else None,
                "computer": game.players[seat].computer,
                "durak": view.durak == seat,
                "team": None,  # with teams, each page names them its own way (``_team``)
                "team_text": None,
                **_rating(game.players[seat].rating, tr),
            }
        )
    pairs = view.table
    if view.face_down_covers:  # R-DOUBT-2: face down, whoever's view this is built from
        down = view.face_down_covers
        pairs = tuple((a, None if i in down else c) for i, (a, c) in enumerate(pairs))
    public_cards = [c for pair in pairs for c in pair if c is not None]
    if view.trump_card is not None:
        public_cards.append(view.trump_card)
    return {
        "players": players,
        "trump": "SHDC"[view.trump],
        "trump_card": None if view.trump_card is None else card_code(view.trump_card),
        "stock": view.stock_size,
        "discard": view.discard_size,
        "table": _table_pairs(pairs),
        # The blind family (RULES.md section 14): which game, the ``chinese`` opening lying
        # face down (not in ``table``), the ``doubt`` covers lying face down (their pairs'
        # indices in ``table``; None there but on the defender's own page).
        "blind": view.rules.blind.value if view.blind else None,
        "face_down_attack": view.face_down_attack,
        "face_down_covers": list(view.face_down_covers),
        "defender": view.defender,
        "attacker": view.attacker,
        "moves": view.moves,
        "finished": view.finished,
        "durak": view.durak,
        "labels": {card_code(c): card_label(c, tr) for c in public_cards},
    }


def _rating(rating: int | None, tr: Translator) -> dict[str, Any]:
    """A seat's rating as of the deal (``Seat.rating``), and in words; nothing if none."""
    if rating is None:
        return {}
    return {"rating": rating, "rating_text": tr.t("webapp-rating", rating=rating)}


def _team(view: TableView, seat: int, you: int | None, tr: Translator) -> dict[str, Any]:
    """``seat``'s team (R-TEAM-1): its number, and in words its mark as the chat shows it
    (``bot.ui.board.team_mark``), the viewer's partners and own seat named as such."""
    number = next((n for n, team in enumerate(view.teams) if seat in team), None)
    if number is None:
        return {"team": None, "team_text": None}
    mark = team_mark(view, seat)
    if seat == you:
        key = "webapp-team-yours"
    elif you is not None and you in view.teams[number]:
        key = "webapp-team-partner"
    else:
        key = "webapp-team"
    return {"team": number, "team_text": tr.t(key, mark=mark)}


def _team_lost(game: ChatGame, view: TableView, you: int | None, tr: Translator) -> str | None:
    """The losing team at the end, in the chat's words (``bot.ui.board.result_lines``,
    R-TEAM-4): None without teams or before the end."""
    lost = view.losing_team
    if lost is None or len(lost) < 2:
        return None
    names = ", ".join(_name(game, seat, you, tr) for seat in lost)
    key = "table-team-lost-yours" if you in lost else "table-team-lost"
    return tr.t(key, mark=team_mark(view, lost[0]), names=names)


def _name(game: ChatGame, seat: int, you: int | None, tr: Translator) -> str:
    """A player's name, «(ты)» after the viewer's own as on the page's seats."""
    name = plain_name(game, seat)
    return f"{name} ({tr.t('webapp-you')})" if seat == you else name


def _naming(record: GameRecord, user_id: int, tr: Translator) -> dict[str, Any]:
    """Before the deal under ``trump: dealer`` (R-TRUMP-1): who names the trump, and for
    the dealer alone the chat's suit buttons (their ``LobbyOp`` code and words)."""
    game = record.game
    dealer = game.seat_of(game.naming) if game.naming is not None else None
    name = "" if dealer is None else plain_name(game, dealer)
    yours = game.naming == user_id
    suits = [
        {
            "op": op.value,
            "suit": suit.letter,
            "label": tr.t("btn-trump", symbol=SUIT_SYMBOLS[suit], suit=tr.t(f"suit-{suit.letter}")),
        }
        for op, suit in TRUMP_SUITS.items()
    ]
    return {
        "naming": {
            "seat": dealer,
            "text": tr.t("webapp-naming-yours" if yours else "webapp-naming", name=name),
        },
        "suits": suits if yours else [],
        "deadline": record.deadline,
    }


def _action(
    action: Action, view: SeatView, tr: Translator, state: GameState | None
) -> dict[str, Any]:
    """One legal action: its code (the chat keyboard's ``HandPress.act``), its kind, and its
    cards (for a cover: the card, then the attack card it covers); the exchange (R-SIX-1),
    which has no card of its own, carries the chat button's words («🔄 6♦ ↔ Т♦»). A slot
    action (R-BLIND-2) carries its slot, from 1, and as its cards only the attack card a
    cover is laid on (none in ``chinese``, where it lies face down). A transfer names the
    seat it passes the attack to (``to``: R-TR-1, the next defender as the engine picks it),
    where the page lets the card be dropped."""
    move = Move.of(action)
    sent: dict[str, Any] = {
        "act": encode_action(action),
        "kind": move.kind.value,
        "cards": [card_code(c) for c in move.cards],
    }
    if move.kind in SLOT_KINDS:
        sent["slot"] = move.slot
    elif move.kind is MoveKind.EXCHANGE:
        sent["label"] = exchange_label(view, tr)
    elif isinstance(action, Transfer) and state is not None:
        bout = apply(state, action)[0].bout
        sent["to"] = None if bout is None else bout.defender
    return sent


# Per language, the accessible names of the backs of a hand unseen, slot 1 first.
_back_labels: dict[str, list[str]] = {}


def _hand_backs(view: SeatView, tr: Translator) -> list[str]:
    """The seat's own hand when it may not see it (``reversed``, ``chinese``: R-REV-1,
    R-CHI-1): a back for each slot, in slot order, each with its accessible name; no card
    of it (a person's page shows backs, not what a perfect memory holds). [] otherwise."""
    if not view.blind or view.rules.blind is Blind.DOUBT:
        return []
    count = len(view.rows[view.seat])
    known = _back_labels.setdefault(tr.lang, [])
    while len(known) < count:
        known.append(tr.t("webapp-slot-back", slot=len(known) + 1))
    return known[:count]


def _pass_label(view: TableView) -> str:
    """The id of the pass button's word, as on the chat keyboard."""
    if view.taking:
        return "btn-pass-taking"
    if view.all_covered:
        return "btn-pass-beaten"
    return "btn-pass"


def _status(scene: HandScene | TableScene, tr: Translator) -> str:
    """Whose decision it is, in the viewer's words."""
    game, view = scene.game, scene.view
    if isinstance(scene, HandScene) and scene.actions:
        return tr.t("webapp-your-turn")
    acting = [plain_name(game, s) for s in view.to_act]
    return tr.t("webapp-waiting", names=", ".join(acting))
