"""Series and statistics in words: the series lines of the table (game N of M, the tally,
the standings), the group's leaderboard and a player's own totals (/stats). Pure."""

from __future__ import annotations

import html
from collections.abc import Sequence

from bot.i18n import Translator
from bot.model import ChatGame
from bot.schema.settings import AI_LEVELS
from bot.schema.stats import MyRating, PlayerStats, Rated
from bot.ui.common import fit


def _user_name(game: ChatGame, user_id: int) -> str:
    for player in game.players:
        if player.user_id == user_id:
            return html.escape(player.name, quote=False)
    return str(user_id)


def _percent(rate: float) -> int:
    return round(rate * 100)


def series_lines(game: ChatGame, tr: Translator) -> list[str]:
    """Nothing for a single game. In a series: which game this is and the tally; once the
    series is over, the winners and the standings instead of the tally."""
    series = game.series
    if series is None:
        return []
    lines = [tr.t("series-game", number=series.number, length=series.length)]
    if not game.series_over:
        tally = " · ".join(
            tr.t("series-tally-entry", name=_user_name(game, user_id), count=count)
            for user_id, count in series.durak.items()
        )
        lines.append(tr.t("series-tally", tally=tally))
        if series.draws:
            lines.append(tr.t("series-draws", count=series.draws))
        return lines
    early = series.number < series.length
    lines.append(tr.t("series-over-early" if early else "series-over"))
    winners = series.winners()
    if winners:
        names = ", ".join(_user_name(game, user_id) for user_id in winners)
        lines.append(tr.t("series-winner", count=len(winners), names=names))
    lines.append(tr.t("series-standings"))
    lines += [
        tr.t(
            "series-standing",
            place=place,
            name=_user_name(game, user_id),
            times=tr.t("series-times", count=count),
        )
        for place, user_id, count in series.standings()
    ]
    if series.draws:
        lines.append(tr.t("series-draws", count=series.draws))
    return lines


def leaderboard_text(
    ranked: Sequence[PlayerStats], unranked: int, min_games: int, tr: Translator
) -> str:
    """The group's /stats: the ranked players, best first, and how many played too little;
    while nobody has played enough, that alone (no empty table)."""
    if not ranked and not unranked:
        return tr.t("stats-empty")
    if not ranked:
        return tr.t("stats-none-ranked", count=unranked, min=min_games)
    lines = [tr.t("stats-title"), tr.t("stats-rule", min=min_games), ""]
    lines += [
        tr.t(
            "stats-line",
            place=place,
            name=html.escape(player.name, quote=False),
            rate=_percent(player.durak_rate),
            games=tr.t("games-count", count=player.games),
            wins=player.wins,
        )
        + (
            " " + tr.t("stats-line-epaulettes", count=player.epaulettes)
            if player.epaulettes
            else ""
        )
        for place, player in enumerate(ranked, start=1)
    ]
    if unranked:
        lines.append(tr.t("stats-unranked", count=unranked, min=min_games))
    return fit(lines)


def personal_text(
    stats: PlayerStats, tr: Translator, versus: dict[str, PlayerStats] | None = None
) -> str:
    """/stats in private: the user's totals over every chat, then their record against
    computer players by level (``versus``), counted apart. No game with people: says so,
    and whether there are games against computers below."""
    against = _versus_lines(versus or {}, tr)
    if not stats.games:
        return fit([tr.t("stats-me-only-computers" if against else "stats-me-empty"), *against])
    places = " · ".join(
        tr.t(
            "stats-me-place",
            place=tr.t("place-short", place=place),
            times=tr.t("series-times", count=count),
        )
        for place, count in sorted(stats.places.items())
    )
    lines = [
        tr.t("stats-me-title"),
        tr.t("stats-me-games", games=tr.t("games-count", count=stats.games)),
        tr.t(
            "stats-me-durak",
            times=tr.t("series-times", count=stats.durak),
            rate=_percent(stats.durak_rate),
        ),
        tr.t("stats-me-wins", times=tr.t("series-times", count=stats.wins)),
    ]
    if stats.epaulettes:
        lines.append(
            tr.t("stats-me-epaulettes", times=tr.t("series-times", count=stats.epaulettes))
        )
    if stats.draws:
        lines.append(tr.t("stats-me-draws", count=stats.draws))
    if places:
        lines.append(tr.t("stats-me-places", places=places))
    return fit([*lines, *against])


def _versus_lines(versus: dict[str, PlayerStats], tr: Translator) -> list[str]:
    """The record against computers by level, under its title; nothing without a game."""
    lines = [
        tr.t(
            "stats-vs-line",
            level=tr.t(f"ai-level-{level}"),
            games=tr.t("games-count", count=record.games),
            times=tr.t("series-times", count=record.durak),
            draws=record.draws,
        )
        for level in AI_LEVELS
        if (record := versus.get(level)) is not None and record.games
    ]
    return ["", tr.t("stats-vs-title"), *lines] if lines else []


def top_text(rows: Sequence[Rated], min_games: int, tr: Translator) -> str:
    """/top in a group: its rated people, highest first, the computer levels among them for
    reference; while nobody has played enough rated games there, how ratings are made."""
    if all(row.level is not None for row in rows):
        return tr.t("top-empty", min=min_games)
    lines = [tr.t("top-title"), tr.t("top-rule", min=min_games), ""]
    for row in rows:
        if row.level is not None:
            level = tr.t(f"ai-level-{row.level}")
            lines.append(tr.t("top-computer", level=level, points=row.points))
            continue
        lines.append(
            tr.t(
                "top-line",
                place=row.place,
                name=html.escape(row.name, quote=False),
                points=row.points,
                games=tr.t("games-count", count=row.games),
            )
        )
    return fit(lines)


def my_rating_line(mine: MyRating, tr: Translator, *, here: bool) -> str:
    """A person's rating and place: in the group (``here``), or among everybody."""
    if here:
        return tr.t("stats-rating-here", points=mine.points, place=mine.place, count=mine.of)
    games = tr.t("games-count", count=mine.games)
    return tr.t("stats-rating-me", points=mine.points, place=mine.place, count=mine.of, games=games)
