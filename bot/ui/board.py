"""The public part of a table, in words, shared by the group's table and every private hand:
trump, stock and discard, each player with their cards and role, the pairs on the table,
whose decision it is, the last moves, and at the end the finishing order. Everything here
takes the public ``TableView`` (RULES.md §11), never a hand."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, assert_never

from bot.i18n import Translator
from bot.model import ChatGame, LogKind
from bot.ui.common import SUIT_SYMBOLS, card_label, cards_label, name, names, place
from bot.ui.review import deck_line
from bot.ui.roles import role
from bot.ui.stats import series_lines
from engine import Blind, Card, HouseRules, Suit, TableView

MARK_TO_ACT = "👉"
FACE_DOWN = "🂠"  # a card lying face down, or one its viewer may not see (RULES.md section 14)
MARK_WAITING = "▫️"

# Log entries the end of a game tells in its finishing order instead (the durak, and why).
TOLD_AT_THE_END = frozenset({LogKind.RESIGNED, LogKind.GAME_OVER, LogKind.EPAULETTES})

# A team's mark beside its players' names (R-TEAM-1: at most three teams), by the team's
# place in ``TableView.teams``.
TEAM_MARKS = ("🔴", "🔵", "🟢")

# What the turn timer did for a player (``bot.model.append_log`` marks those entries).
TIMED_OUT_KINDS = {
    LogKind.ATTACKED: "attack",
    LogKind.DECLARED_TAKE: "take",
    LogKind.PASSED: "pass",
    LogKind.LAID_FACE_DOWN: "face-down",  # the blind family (R-BLIND-4)
    LogKind.BELIEVED: "believe",
}


def table_lines(
    game: ChatGame, view: TableView, tr: Translator, you: int | None = None
) -> list[str]:
    """A running game's table, the same in the group and in private (where ``you`` is the
    reader's seat): title, series, trump and counts, the players, the pairs, whose turn.
    Hands are counts only: a private message adds what its seat sees of them
    (``bot.ui.hand``)."""
    return [
        title_line(view.rules, tr),
        *series_lines(game, tr),
        info_line(view, tr),
        *deck_lines(game, tr),
        *misplays_lines(view, tr),
        *teams_lines(game, view, tr, you),
        "",
        *player_lines(game, view, tr, you),
        "",
        pairs_text(view, tr),
        turn_line(game, view, tr),
    ]


def finished_lines(
    game: ChatGame, view: TableView, tr: Translator, you: int | None = None
) -> list[str]:
    """A finished game: the finishing order with the durak, the series, the last moves."""
    lines = [tr.t("table-title-over"), "", *result_lines(game, view, tr, you)]
    if game.series is not None:
        lines += ["", *series_lines(game, tr)]
    return lines + log_lines(game, tr, skip=TOLD_AT_THE_END) + deck_lines(game, tr)


def deck_lines(game: ChatGame, tr: Translator) -> list[str]:
    """The commitment to the deck, from the game's first message to its last (FAIR-DEAL.md);
    none for a game dealt before decks were committed to."""
    return [] if game.commitment is None else [deck_line(game.commitment, tr)]


def title_line(rules: HouseRules, tr: Translator) -> str:
    """The game's name: podkidnoy or perevodnoy, or the blind game (RULES.md section 14)."""
    if rules.blind is not Blind.OFF:
        return tr.t("table-title-blind", blind=rules.blind.value)
    return tr.t("table-title", transfer="yes" if rules.transfer else "no")


def misplays_lines(view: TableView, tr: Translator) -> list[str]:
    """How many misplays the game has seen (R-REV-3: kept and shown), once there is one."""
    return [tr.t("table-misplays", count=view.misplays)] if view.misplays else []


def info_line(view: TableView, tr: Translator) -> str:
    """Trump, stock and discard. The trump is the face-up card while it is of the trump
    suit, else the suit alone: named by the dealer or Japanese (R-TRUMP-1/2, no card shown),
    or changed by the Northern bottom card (R-TRUMP-3)."""
    shown = view.trump_card
    trump = SUIT_SYMBOLS[view.trump]
    if shown is not None and shown.suit == view.trump:
        trump = card_label(shown, tr)
    line = tr.t(
        "table-info",
        trump=trump,
        suit=tr.t(f"suit-{view.trump.letter}"),
        stock=view.stock_size,
        discard=view.discard_size,
    )
    if view.bottom_card_hidden:  # Northern: the bottom card will set the trump
        line += "\n" + tr.t("table-northern-pending")
    return line


def team_mark(view: TableView, seat: int) -> str:
    """The mark of ``seat``'s team, or "" without teams."""
    for number, team in enumerate(view.teams):
        if seat in team:
            return TEAM_MARKS[number % len(TEAM_MARKS)]
    return ""


def teams_lines(
    game: ChatGame, view: TableView, tr: Translator, you: int | None = None
) -> list[str]:
    """The teams, one line each (R-TEAM-1), the reader's partners named as such."""
    lines = []
    for number, team in enumerate(view.teams):
        who = ", ".join(player_name(game, seat, tr, you) for seat in team)
        mark = TEAM_MARKS[number % len(TEAM_MARKS)]
        key = "table-team-yours" if you in team else "table-team"
        lines.append(tr.t(key, mark=mark, names=who))
    return lines


def pairs_text(view: TableView, tr: Translator) -> str:
    """The table of the current bout: ``7♠/9♠  8♦/?``, or a line saying it is empty. A card
    lying face down is a back, ``🂠``: the ``chinese`` opening (``🂠/?``), a ``doubt`` cover
    (``9♥/🂠``) but in its defender's own view, which holds the card (R-CHI-2, R-DOUBT-2)."""
    pairs = [
        f"{card_label(a, tr)}/{_cover_label(view, index, c, tr)}"
        for index, (a, c) in enumerate(view.table)
    ]
    if view.face_down_attack:  # not in ``view.table``: nobody may name it
        pairs.append(f"{FACE_DOWN}/?")
    if not pairs:
        return tr.t("table-empty")
    header = tr.t("table-on-table", count=len(pairs), limit=view.limit)
    return f"{header}\n<b>{'   '.join(pairs)}</b>"


def _cover_label(view: TableView, index: int, cover: Card | None, tr: Translator) -> str:
    if cover is not None:
        return card_label(cover, tr)
    return FACE_DOWN if index in view.face_down_covers else "?"


def player_name(game: ChatGame, seat: int, tr: Translator, you: int | None = None) -> str:
    """A player's name (HTML), marked "(ты)" for the reader of a private message."""
    if seat == you:
        return tr.t("player-you", name=name(game, seat))
    return name(game, seat)


def player_lines(
    game: ChatGame, view: TableView, tr: Translator, you: int | None = None
) -> list[str]:
    """Every player: whether they act now, their card count and role, or their place."""
    lines = []
    for seat in range(view.players):
        who = player_name(game, seat, tr, you)
        mark = team_mark(view, seat)
        if mark:
            partner = you is not None and seat != you and team_mark(view, you) == mark
            who = tr.t("player-partner" if partner else "player-team", mark=mark, name=who)
        if seat in view.out:
            lines.append(tr.t("table-player-out", name=who, place=place_of(view, seat, tr)))
            continue
        args = {
            "mark": MARK_TO_ACT if seat in view.to_act else MARK_WAITING,
            "name": who,
            "cards": tr.t("cards-count", count=view.hand_sizes[seat]),
        }
        part = role(view, seat)
        if part is None:
            lines.append(tr.t("table-player", **args))
        else:
            lines.append(tr.t("table-player-role", role=tr.t(part), **args))
    return lines


def place_of(view: TableView, seat: int, tr: Translator) -> str:
    return place(tr, view.out.index(seat) + 1)


def turn_line(game: ChatGame, view: TableView, tr: Translator) -> str:
    """Whose decision it is now, in a sentence."""
    assert view.attacker is not None and view.defender is not None
    defender = name(game, view.defender)
    attacker = name(game, view.attacker)
    if view.face_down_attack:  # ``chinese``: the defender answers it blind (R-CHI-2)
        return tr.t("table-turn-answer", attacker=attacker, defender=defender)
    if not view.table:
        return tr.t("table-turn-open", attacker=attacker, defender=defender)
    if view.rules.blind is Blind.DOUBT and view.all_covered:  # «верю» or not (R-DOUBT-3)
        return tr.t("table-turn-judge", attacker=attacker)
    throwers = [s for s in view.to_act if s != view.defender]
    covered = False
    if view.taking:
        parts = [tr.t("table-turn-taking", defender=defender)]
    elif view.defender in view.to_act:
        parts = [tr.t("table-turn-defend", defender=defender)]
    else:
        parts = [tr.t("table-turn-covered")]
        covered = True
    if throwers:
        parts.append(tr.t("table-turn-throwers", count=len(throwers), names=names(game, throwers)))
        if covered:
            parts.append(tr.t("table-turn-beaten-or"))
    return " ".join(parts)


def _cards(entry: dict[str, Any], key: str, tr: Translator) -> str:
    return cards_label((Card.parse(c) for c in entry[key]), tr)


def _card(entry: dict[str, Any], key: str, tr: Translator) -> str:
    return card_label(Card.parse(entry[key]), tr)


def narrate(entry: dict[str, Any], game: ChatGame, tr: Translator) -> str:
    """One line of the table's log (``bot.model.event_to_log`` entries) in words:
    "Петя берёт 5 карт"; a move the turn timer made says so. An entry of an unknown kind
    gives an empty string."""
    try:
        kind = LogKind(entry.get("e", ""))
    except ValueError:
        return ""
    who = name(game, entry["player"]) if "player" in entry else ""
    if entry.get("timeout") and kind in TIMED_OUT_KINDS:
        cards = _cards(entry, "cards", tr) if "cards" in entry else ""
        return tr.t("event-timed-out", name=who, kind=TIMED_OUT_KINDS[kind], cards=cards)
    if entry.get("timeout") and kind is LogKind.ANSWERED:  # its cards are the news
        return "⏰ " + narrate({**entry, "timeout": False}, game, tr)
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
            return tr.t("event-resigned", name=who, why=entry.get("why", "leave"))
        case LogKind.DREW:
            drawn = entry["drawn"] if "drawn" in entry else entry["count"]
            return tr.t("event-drew", name=who, count=drawn)
        case LogKind.PLAYER_OUT:
            return tr.t("event-player-out", name=who, place=place(tr, entry["place"]))
        case LogKind.EXCHANGED:
            card, took = _card(entry, "card", tr), _card(entry, "took", tr)
            return tr.t("event-exchanged", name=who, card=card, took=took)
        case LogKind.TRUMP_CHANGED:
            bottom = Card.parse(entry["card"])
            suit_name = tr.t(f"suit-{bottom.suit.letter}")
            drawn = card_label(bottom, tr)
            return tr.t("event-trump-changed", name=who, card=drawn, suit=suit_name)
        case LogKind.EPAULETTES:
            return tr.t("event-epaulettes", name=who)
        case LogKind.MISPLAYED:  # a ``Took`` by the same player follows
            card = _card(entry, "card", tr)
            if entry.get("on") is None:
                return tr.t("event-misplayed-throw-in", name=who, card=card)
            return tr.t("event-misplayed-cover", name=who, card=card, on=_card(entry, "on", tr))
        case LogKind.LAID_FACE_DOWN:  # the card itself is in no entry
            if entry.get("on") is None:
                return tr.t("event-laid-face-down-attack", name=who)
            return tr.t("event-laid-face-down-cover", name=who, on=_card(entry, "on", tr))
        case LogKind.ANSWERED:
            card, attack = _card(entry, "card", tr), _card(entry, "attack", tr)
            return tr.t("event-answered", name=who, card=card, attack=attack)
        case LogKind.BELIEVED:
            return tr.t("event-believed", name=who)
        case LogKind.DOUBTED:
            return tr.t(
                "event-doubted",
                name=who,
                covers=_cards(entry, "covers", tr),
                count=len(entry["covers"]),
                beaten="yes" if entry.get("beaten") else "no",
            )
        case LogKind.LOWEST_TRUMP:  # R-BLIND-5: shown to everybody at the deal
            return tr.t("event-lowest-trump", name=who, card=_card(entry, "card", tr))
        case LogKind.TRUMP_NAMED:
            named = Suit.parse(entry["suit"])
            return tr.t(
                "event-trump-named",
                name=who,
                symbol=SUIT_SYMBOLS[named],
                suit=tr.t(f"suit-{named.letter}"),
                auto="yes" if entry.get("auto") else "no",
            )
        case _:
            assert_never(kind)


def log_lines(game: ChatGame, tr: Translator, skip: Iterable[LogKind] = ()) -> list[str]:
    """The last moves (``ChatGame.log``) under a heading, or nothing."""
    skipped = set(skip)
    told = [
        line
        for line in (narrate(e, game, tr) for e in game.log if e.get("e") not in skipped)
        if line
    ]
    if not told:
        return []
    return ["", tr.t("table-log"), *(f"• {line}" for line in told)]


def result_lines(
    game: ChatGame, view: TableView, tr: Translator, you: int | None = None
) -> list[str]:
    """The end of a game: the finishing order, then the durak (why, if they left the game)
    or the draw. A game ended by a player leaving it lists in its order only who went out
    before, then who was still playing. The durak is named once."""
    resigned = None if view.durak is None else _resignation(game, view.durak)
    playing = _still_playing(resigned)
    went_out = [seat for seat in view.out if seat not in playing]
    lines = []
    if went_out:
        lines.append(tr.t("table-order"))
        lines += [
            tr.t("table-order-line", place=number, name=player_name(game, seat, tr, you))
            for number, seat in enumerate(went_out, start=1)
        ]
    if playing:
        names = ", ".join(player_name(game, seat, tr, you) for seat in playing)
        lines.append(tr.t("table-still-playing", names=names))
    if view.durak is None:
        lines.append(tr.t("table-draw"))
        return lines
    why = "none" if resigned is None else resigned.get("why")
    durak = player_name(game, view.durak, tr, you)
    if view.epaulettes:  # R-POG: said instead of the plain durak
        lines.append(tr.t("table-order-durak-epaulettes", name=durak))
    else:
        lines.append(
            tr.t("table-order-durak", name=durak, why=why if isinstance(why, str) else "leave")
        )
    if view.losing_team is not None and len(view.losing_team) > 1:  # R-TEAM-4
        who = ", ".join(player_name(game, seat, tr, you) for seat in view.losing_team)
        mark = team_mark(view, view.losing_team[0])
        key = "table-team-lost-yours" if you in view.losing_team else "table-team-lost"
        lines.append(tr.t(key, mark=mark, names=who))
    return lines + rating_lines(game, tr, you)


def rating_lines(game: ChatGame, tr: Translator, you: int | None = None) -> list[str]:
    """What a rated game did to its people's ratings (``ChatGame.rated``), or nothing."""
    seats = {player.user_id: seat for seat, player in enumerate(game.players)}
    lines = [
        tr.t(
            "table-rating-change",
            name=player_name(game, seats[change.user_id], tr, you),
            before=change.before,
            after=change.after,
            delta=signed(change.after - change.before),
        )
        for change in game.rated
        if change.user_id in seats
    ]
    return ["", tr.t("table-ratings"), *lines] if lines else []


def signed(number: int) -> str:
    """A change of points as people write it: +15, −7 (a minus sign), ±0."""
    if number == 0:
        return "±0"
    return f"+{number}" if number > 0 else f"−{-number}"


def _resignation(game: ChatGame, durak: int) -> dict[str, Any] | None:
    """The log entry of the durak leaving the game (/leave, left the group, removed), if
    that is how they lost it."""
    for entry in reversed(game.log):
        if entry.get("e") == LogKind.RESIGNED and entry.get("player") == durak:
            found: dict[str, Any] = entry
            return found
    return None


def _still_playing(resigned: dict[str, Any] | None) -> list[int]:
    """The seats a resignation ended the game for (``bot.services.decisions``); none for a
    game that ended otherwise, or was saved before resignations said so."""
    playing = None if resigned is None else resigned.get("playing")
    if not isinstance(playing, list):
        return []
    return [seat for seat in playing if isinstance(seat, int)]


def timed_out_now(game: ChatGame, view: TableView, seat: int) -> str | None:
    """What the turn timer just did for ``seat`` (``"take"``, ``"pass"``, ``"attack"``; in the
    blind family ``"slot"``, ``"face-down"``, ``"answer"``, ``"believe"``), if that is the
    last thing that happened; None otherwise."""
    for entry in reversed(game.log):
        if entry.get("moves") != view.moves:
            return None
        if entry.get("timeout") and entry.get("player") == seat:
            kind = LogKind(entry["e"])
            if kind is LogKind.ANSWERED:
                return "answer"
            if kind is LogKind.ATTACKED and view.blind and view.rules.blind is not Blind.DOUBT:
                return "slot"  # not the lowest card: slot 1 (R-BLIND-4)
            return TIMED_OUT_KINDS.get(kind)
    return None
