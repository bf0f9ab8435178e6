"""Teams in the lobby (R-TEAM-1): which team each seated player will play for, and the seats
that make the teams alternate around the table.

A player may choose a team in the lobby (``Seat.team``); whoever has not chosen (or chose a
team already full) plays for the team of their place in join order, or the smallest. At
«Начать» the players are seated so that seat s plays for team s mod k (k teams), which is
how the engine forms
the teams: partners never sit side by side. Pure functions of the seated players and the
rules, shared by the lobby's view and the deal, so the lobby shows the teams the deal makes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.model import Seat
from engine import HouseRules, Teams


def team_count(rules: HouseRules, players: int) -> int:
    """How many teams ``players`` make under ``rules`` (0 without teams): pairs make two
    teams of four players and three of six (a lobby still gathering shows two up to four
    players, three beyond); triples make two."""
    if rules.teams is Teams.OFF:
        return 0
    if rules.teams is Teams.TRIPLES:
        return 2
    return 3 if players > 4 else 2


def teams_of(players: Sequence[Seat], rules: HouseRules) -> list[list[Seat]]:
    """The teams the seated players make, each in join order: a player's choice while
    their team has room; who has not chosen, the team of their place in join order
    (alternating, as the seats do) while it has room, else the smallest. [] without
    teams."""
    count = team_count(rules, len(players))
    if count == 0:
        return []
    size = max(1, math.ceil(len(players) / count))
    groups: list[list[Seat]] = [[] for _ in range(count)]
    free = []
    for index, player in enumerate(players):
        team = player.team
        if team is not None and team < count and len(groups[team]) < size:
            groups[team].append(player)
        else:
            free.append((index, player))
    for index, player in free:  # the team of their seat in join order, while it has room
        team = index % count
        if len(groups[team]) >= size:
            team = min(range(count), key=lambda t: len(groups[t]))
        groups[team].append(player)
    for group in groups:  # each team in join order
        group.sort(key=players.index)
    return groups


def seated_by_team(players: Sequence[Seat], rules: HouseRules) -> list[Seat]:
    """The players in seat order for the deal: seat s plays for team s mod k (R-TEAM-1).
    Without teams, or with teams of unequal size (the start refuses that count), the join
    order."""
    groups = teams_of(players, rules)
    if not groups or len({len(group) for group in groups}) != 1:
        return list(players)
    count = len(groups)
    return [groups[seat % count][seat // count] for seat in range(len(players))]


def next_team(players: Sequence[Seat], rules: HouseRules, user_id: int) -> int | None:
    """The team ``user_id`` moves to when they press «Сменить команду»: the next one after
    the team they are in now (round the teams). None without teams or if they are not
    seated."""
    groups = teams_of(players, rules)
    for number, group in enumerate(groups):
        if any(player.user_id == user_id for player in group):
            return (number + 1) % len(groups)
    return None
