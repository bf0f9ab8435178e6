"""What the replay page is sent (``GET /api/replay``): a finished game, step by step, as one
of its players may see it after the end. Pure functions of the kept game
(``bot.model.FinishedGame``), the viewer's seat, their review and their language.

Every step (``bot.services.replays.steps``: the deal, then the position after each action)
holds the table as it was (the trump, the stock and discard counts, the bout's pairs, who
attacks and defends, each seat's card count, who is out), the viewer's own hand as it was,
and what happened in the chat's own narration (``bot.ui.board.narrate``: what everybody at
the table read then).

The other hands, and the deal with its seed (for the page's own check of the deck,
docs/FAIR-DEAL.md), only where the chat turns the cards over after the game
(``ChatSettings.show_hands_after``). Without it a step is built from the viewer's seat view
(``engine.view_for``) and never from another seat's hand, so it holds no card of one; the
trump card is named only while it lies under the stock (in nobody's hand); and the JSON
holds no seed. In the blind family the viewer's own hand is what their seat saw of it: a
row of backs in ``reversed`` and ``chinese`` (R-REV-1, R-CHI-1), unless the hands are
turned over.

The page's words come with the data, in the viewer's language. A word with something only
the page finds out (a card its own check of the deck deals) comes with ``{placeholders}``
for the page to fill.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any, Final

from bot.i18n import Translator
from bot.model import ChatGame, FinishedGame, Seat, event_to_log
from bot.schema.reviews import Moment
from bot.services.replays import Step, record_of, steps
from bot.ui.board import narrate
from bot.ui.common import COMPUTER_MARK, SUIT_SYMBOLS, place, sorted_hand
from bot.ui.review import action_words
from bot.ui.roles import role
from engine import Blind, Card, Event, GameState, SeatView, apply, resign, view_for
from engine.cards import CARD_NAMES, CARDS
from engine.deck_seed import short

from .texts import page_texts

# The page's own words without a variable (besides the live page's, ``page_texts``).
PLAIN_TEXTS: Final = (
    "replay-page-title",
    "replay-page-first",
    "replay-page-back",
    "replay-page-forward",
    "replay-page-last",
    "replay-page-timeline",
    "replay-page-moments",
    "replay-page-deck-checking",
    "replay-page-deck-variant",
    "replay-page-deck-unavailable",
    "replay-page-deck-malformed",
)
# Words with what the page's check of the deck finds, as ``{name}`` for the page to fill.
PAGE_FILLS: Final = {
    "replay-page-deck-commitment": ("expected", "recorded"),
    "replay-page-deck-hand": ("name", "cards", "recorded"),
    "replay-page-deck-stock": ("cards", "recorded"),
    "replay-page-deck-trump": ("expected", "recorded"),
}


def replay_view(
    finished: FinishedGame, viewer_seat: int, review: dict[str, Any] | None, tr: Translator
) -> dict[str, Any]:
    """The game of ``finished`` as the player at ``viewer_seat`` may replay it, with their
    ``review`` (``ReviewStore``) marked on it, in ``tr``'s language."""
    shown = finished.settings.show_hands_after
    rules = finished.deal.start.rules
    built = _steps(finished, viewer_seat, shown, tr)
    return {
        "chat": finished.chat_id,
        "game": finished.game_id,
        "lang": tr.lang,
        "texts": replay_texts(finished, tr),
        "ranks": rank_words(tr),
        "players": [_player(seat, tr) for seat in finished.players],
        "you": viewer_seat,
        "hands_shown": shown,
        "blind": None if rules.blind is Blind.OFF else rules.blind.value,
        "steps": built,
        "moments": moments(review, len(built), tr),
        "deal": _deal(finished) if shown else _commitment_only(finished),
    }


def replay_texts(finished: FinishedGame, tr: Translator) -> dict[str, str]:
    """The page's words: the live page's (piles, seats, hands), the replay's own, and the
    lines of the deck's check with this game's commitment in them."""
    texts = page_texts(tr)
    texts.update({i: tr.t(i) for i in PLAIN_TEXTS})
    for message_id, names in PAGE_FILLS.items():
        texts[message_id] = tr.t(message_id, **{name: f"{{{name}}}" for name in names})
    commitment = short(finished.commitment)
    texts["replay-page-deck-ok"] = tr.t("replay-page-deck-ok", commitment=commitment)
    texts["replay-page-deck-hidden"] = tr.t("verify-hidden")
    texts["replay-page-deck-promised"] = tr.t("table-deck", commitment=commitment)
    if not finished.settings.show_hands_after:
        texts["replay-page-hands-hidden"] = tr.t("replay-hands-hidden")
    return texts


def rank_words(tr: Translator) -> dict[str, str]:
    """How the page names a card: its rank as written in its code ("10", "A") to the word
    of ``tr``'s language ("10", "Т"), the suit a symbol. The words of every rank, so that
    nothing in them tells which cards a game held."""
    spades = CARDS[: len(CARDS) // 4]
    return {str(card)[:-1]: tr.t(f"rank-{card.rank_name}") for card in spades}


def _player(seat: Seat, tr: Translator) -> dict[str, Any]:
    name = f"{COMPUTER_MARK} {seat.name}" if seat.computer else seat.name
    words = f"ai-level-{seat.level}"
    level = tr.t(words) if seat.level is not None and tr.has(words) else None
    return {"name": name, "computer": seat.computer, "level": seat.level, "level_text": level}


# -- the steps ------------------------------------------------------------------------------


def _steps(finished: FinishedGame, you: int, shown: bool, tr: Translator) -> list[dict[str, Any]]:
    game = _narrator(finished)
    positions = list(steps(finished))
    moves = len(positions) - 1
    built = []
    previous: GameState | None = None
    for number, step in enumerate(positions):
        if previous is None:
            title, lines = tr.t("replay-page-dealt-title"), _dealt_lines(game, step.state, tr)
        else:
            title = tr.t("replay-page-step", move=number, moves=moves)
            lines = _told(game, _events(previous, step), tr)
        built.append(_step(step, title, lines, you, shown, tr))
        previous = step.state
    return built


def _narrator(finished: FinishedGame) -> ChatGame:
    """The chat's game as far as its narration needs it (the seats' names)."""
    return ChatGame(
        finished.chat_id, finished.game_id, 0, finished.settings, players=finished.players
    )


def _events(previous: GameState, step: Step) -> tuple[Event, ...]:
    """What happened between ``previous`` and ``step``: the engine's events, told again."""
    if step.resigned is not None:
        return resign(previous, step.resigned)[1]
    assert step.action is not None
    return apply(previous, step.action)[1]


def _told(game: ChatGame, events: Iterable[Event], tr: Translator) -> list[str]:
    """The chat's lines for ``events``, as plain text (the chat's are HTML)."""
    lines = (narrate(event_to_log(event), game, tr) for event in events)
    return [html.unescape(line) for line in lines if line]


def _dealt_lines(game: ChatGame, state: GameState, tr: Translator) -> list[str]:
    trump = state.trump
    dealer = game.players[state.dealer]
    dealt = tr.t(
        "replay-page-dealt",
        dealer=f"{COMPUTER_MARK} {dealer.name}" if dealer.computer else dealer.name,
        symbol=SUIT_SYMBOLS[trump],
        suit=tr.t(f"suit-{trump.letter}"),
    )
    bout = state.bout
    if bout is None:
        return [dealt]
    started = {"e": "BoutStarted", "attacker": bout.attacker, "defender": bout.defender}
    return [dealt, html.unescape(narrate(started, game, tr))]


def _step(
    step: Step, title: str, lines: list[str], you: int, shown: bool, tr: Translator
) -> dict[str, Any]:
    state = step.state
    view = view_for(state, you)  # the public table, and the viewer's own hand
    seats = []
    for seat in range(state.players):
        part = role(view, seat)
        count = view.hand_sizes[seat]
        entry: dict[str, Any] = {
            "cards": count,
            "cards_text": tr.t("cards-count", count=count),
            "role": None if part is None else tr.t(part),
            "acting": seat in view.to_act,
            "place": place(tr, view.out.index(seat) + 1) if seat in view.out else None,
            "durak": view.durak == seat,
        }
        if shown:
            entry["hand"] = _codes(_hand(state, seat))
        seats.append(entry)
    action = step.action
    sent: dict[str, Any] = {
        "index": step.index,
        "title": title,
        "lines": lines,
        "actor": step.resigned if action is None else action.player,
        "trump": "SHDC"[view.trump],
        # The face-up trump card while it lies under the stock: once drawn it is in a hand.
        "trump_card": _code(view.trump_card) if view.trump_card_in_stock else None,
        "stock": view.stock_size,
        "discard": view.discard_size,
        "attacker": view.attacker,
        "defender": view.defender,
        "finished": view.finished,
        "players": seats,
        **(_whole_table(state) if shown else _seen_table(view)),
    }
    if shown:
        sent["hand"] = seats[you]["hand"]
        sent["hand_backs"] = []
    else:
        sent["hand"] = _codes(sorted_hand(view.hand, view.trump))
        # R-REV-1, R-CHI-1: a hand its holder did not see, a back for each slot.
        unseen = view.blind and view.rules.blind is not Blind.DOUBT
        sent["hand_backs"] = _slot_backs(len(view.rows[you]), tr) if unseen else []
    return sent


def _hand(state: GameState, seat: int) -> list[Card]:
    """A hand turned over: in slot order in the blind family (R-BLIND-2), else sorted."""
    if state.slots:
        return list(state.rows[seat])
    return sorted_hand(state.hand(seat), state.trump)


def _seen_table(view: SeatView) -> dict[str, Any]:
    """The bout as the viewer's seat saw it (``engine.view_for``): a card lying face down
    as a back (None), but the ``doubt`` covers the viewer laid himself (R-DOUBT-2)."""
    return {
        "table": [[_code(a), None if c is None else _code(c)] for a, c in view.table],
        "face_down_attack": view.face_down_attack,
        "face_down_covers": list(view.face_down_covers),
        "face_down_attacks": [],
    }


def _whole_table(state: GameState) -> dict[str, Any]:
    """The bout with every card turned over; the ones lying face down marked as such."""
    bout = state.bout
    pairs = () if bout is None else bout.pairs
    down = state.face_down
    return {
        "table": [[_code(a), None if c is None else _code(c)] for a, c in pairs],
        "face_down_attack": False,
        "face_down_covers": [
            i for i, (_, c) in enumerate(pairs) if c is not None and down >> c & 1
        ],
        "face_down_attacks": [i for i, (a, _) in enumerate(pairs) if down >> a & 1],
    }


def _code(card: Card | None) -> str | None:
    return None if card is None else CARD_NAMES[card]


def _codes(cards: Iterable[Card]) -> list[str]:
    return [CARD_NAMES[card] for card in cards]


# Per language, the accessible names of a hand's backs, slot 1 first (as the live page's).
_back_labels: dict[str, list[str]] = {}


def _slot_backs(count: int, tr: Translator) -> list[str]:
    known = _back_labels.setdefault(tr.lang, [])
    while len(known) < count:
        known.append(tr.t("webapp-slot-back", slot=len(known) + 1))
    return known[:count]


# -- the review and the deal ----------------------------------------------------------------


def moments(review: dict[str, Any] | None, step_count: int, tr: Translator) -> list[dict[str, Any]]:
    """The review's moments (``bot.schema.reviews``), costliest first, each at its step (the
    position after its action: action ``index`` is step ``index + 1``) and in the words of
    the chat's review (``bot.ui.review``: «Ход 14: … Лучше было покрыть 9♦ картой 7♠:
    61% → 44%»)."""
    if not review:
        return []
    marked = []
    for raw in review.get("moments", []):
        moment = Moment.from_dict(raw)
        if not 0 <= moment.index < step_count - 1:
            continue  # not an action of this game
        before, after = round(100 * moment.before), round(100 * moment.after)
        text = tr.t(
            "review-moment",
            move=moment.index + 1,
            played=action_words(moment.played, tr),
            preferred=action_words(moment.preferred, tr),
            before=before,
            after=after,
        )
        marked.append(
            {"index": moment.index, "step": moment.index + 1, "before": before, "after": after,
             "text": text}
        )  # fmt: skip
    return marked


def _deal(finished: FinishedGame) -> dict[str, Any]:
    """What the page needs to check the deck itself: the seed, the game id and the
    commitment, and the record's deal (its names, dealer, hands, stock, trump, rules)."""
    record = record_of(finished)
    return {
        **_commitment_only(finished),
        "seed": finished.deal.seed,
        "players": record["players"],
        "dealer": record["dealer"],
        "hands": record["hands"],
        "stock": record["stock"],
        "trump": record["trump"],
        "rules": {"deck": finished.deal.start.rules.deck, **record["rules"]},
    }


def _commitment_only(finished: FinishedGame) -> dict[str, Any]:
    return {
        "game": finished.game_id,
        "commitment": finished.commitment,
        "short": short(finished.commitment),
    }
