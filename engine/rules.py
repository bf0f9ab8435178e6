"""House rules: the points the sources disagree on (RULES.md section 2), defaults in place."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, fields
from enum import StrEnum
from itertools import product
from random import Random
from typing import Any, Final

from .cards import DECK_SIZES

FULL_CEILING: Final = 6
FIRST_BOUT_CEILING: Final = 5


class ThrowIn(StrEnum):
    NEIGHBORS = "neighbors"
    ALL = "all"
    NEIGHBORS_FIRST_RANK = "neighbors_first_rank"


class FirstBoutLimit(StrEnum):
    NONE = "none"
    FIRST_BOUT = "first_bout"
    UNTIL_FIRST_BEATEN = "until_first_beaten"


class NoTrumpStart(StrEnum):
    DEALER_LEFT = "dealer_left"
    RANDOM = "random"


class NextGameStart(StrEnum):
    FROM_UNDER_FOOL = "from_under_fool"
    UNDER_FOOL = "under_fool"
    LOWEST_TRUMP = "lowest_trump"


class Teams(StrEnum):
    """R-TEAM-1: who plays together."""

    OFF = "off"
    PAIRS = "pairs"
    TRIPLES = "triples"


class TrumpChoice(StrEnum):
    """R-DEAL-3, R-TRUMP-1..3: how the trump suit is decided."""

    TURNED = "turned"
    DEALER = "dealer"
    JAPANESE = "japanese"
    NORTHERN = "northern"


class TopCard(StrEnum):
    """R-TOP-1/2: a queen above the trumps."""

    OFF = "off"
    QUEEN_OF_SPADES = "queen_of_spades"
    QUEEN_OF_HEARTS = "queen_of_hearts"


class Pogony(StrEnum):
    """R-POG-1/2: the durak with epaulettes."""

    OFF = "off"
    TITLE = "title"
    STRICT = "strict"


class Blind(StrEnum):
    """R-BLIND-1: the blind family, where cards are played unseen and a wrong play is
    punished instead of refused (RULES.md section 14)."""

    OFF = "off"
    REVERSED = "reversed"  # оборотный: everybody sees the others' hands, not their own
    CHINESE = "chinese"  # китайский: nobody sees any hand; one card against one
    DOUBT = "doubt"  # неверный дурень: covers face down, believed or doubted


class Problem(StrEnum):
    """Stable codes of the combinations that cannot be played (R-VAR-1): a ``RulesError``
    or ``SetupError`` carries one in ``problem`` so a program (the bot) can say why."""

    UNKNOWN_KEY = "unknown_key"
    BAD_VALUE = "bad_value"
    TEAMS_NEED_SEATS = "teams_need_seats"  # the deck or max_players seats too few players
    TEAMS_PLAYER_COUNT = "teams_player_count"  # teams with a player count R-TEAM-1 lacks
    EXCHANGE_NEEDS_TURNED_TRUMP = "exchange_needs_turned_trump"
    TRUMP_NOT_NAMED = "trump_not_named"  # trump: dealer and no suit named
    TRUMP_NAMED_NOT_DEALER = "trump_named_not_dealer"  # a suit named, but not trump: dealer
    JAPANESE_TRUMP_IS_DIAMONDS = "japanese_trump_is_diamonds"
    BLIND_EXCLUDES = "blind_excludes"  # R-BLIND-1: teams, transfer, the exchange, pogony


# R-TEAM-1: the player counts each ``teams`` value plays with.
TEAM_PLAYER_COUNTS: Final = {Teams.OFF: (), Teams.PAIRS: (4, 6), Teams.TRIPLES: (6,)}


class RulesError(ValueError):
    """A house-rule key or value that does not exist, or a combination that cannot be
    played; ``problem`` names which (a ``Problem``)."""

    def __init__(self, message: str, problem: Problem = Problem.BAD_VALUE) -> None:
        super().__init__(message)
        self.problem = problem


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The rules that change play. Bot-only settings (turn timeout, series, language) live
    with the bot; ``from_dict`` accepts and ignores them so one settings dict serves both."""

    deck: int = 36
    max_players: int = 0  # 0: as many as the deck allows, deck / 6
    throw_in: ThrowIn = ThrowIn.NEIGHBORS
    first_bout_limit: FirstBoutLimit = FirstBoutLimit.NONE
    no_trump_start: NoTrumpStart = NoTrumpStart.DEALER_LEFT
    next_game_start: NextGameStart = NextGameStart.FROM_UNDER_FOOL
    transfer: bool = False
    transfer_first_bout: bool = True  # R-TR-4; no effect without ``transfer``
    teams: Teams = Teams.OFF
    trump: TrumpChoice = TrumpChoice.TURNED
    top_card: TopCard = TopCard.OFF
    trump_six_exchange: bool = False
    pogony: Pogony = Pogony.OFF
    blind: Blind = Blind.OFF

    def __post_init__(self) -> None:
        for key, enum in ENUMS.items():  # "pairs" given for Teams.PAIRS: the member
            value = getattr(self, key)
            if not isinstance(value, enum):
                object.__setattr__(self, key, _parse_value(key, value))
        if self.deck not in DECK_SIZES:
            raise RulesError(f"deck must be one of {', '.join(map(str, DECK_SIZES))}")
        if self.max_players == 0:
            object.__setattr__(self, "max_players", self.deck // 6)
        if not 2 <= self.max_players <= self.deck // 6:
            raise RulesError(
                f"max_players must be 2..{self.deck // 6} with a {self.deck}-card deck"
            )
        counts = TEAM_PLAYER_COUNTS[self.teams]
        if counts and min(counts) > self.max_players:  # R-VAR-1
            raise RulesError(
                f"teams: {self.teams} needs {' or '.join(map(str, counts))} players, and this"
                f" table seats at most {self.max_players}",
                Problem.TEAMS_NEED_SEATS,
            )
        if self.trump_six_exchange and self.trump is not TrumpChoice.TURNED:  # R-VAR-1
            raise RulesError(
                "trump_six_exchange needs trump: turned (a face-up trump card to take)",
                Problem.EXCHANGE_NEEDS_TURNED_TRUMP,
            )
        if self.blind is not Blind.OFF:  # R-BLIND-1
            clashing = [key for key in BLIND_EXCLUDES if getattr(self, key) != BLIND_EXCLUDES[key]]
            if clashing:
                raise RulesError(
                    f"blind: {self.blind} is played without {', '.join(clashing)}",
                    Problem.BLIND_EXCLUDES,
                )

    def player_problem(self, players: int) -> str | None:
        """Why these rules cannot start a game of ``players``, or None if they can: the
        one check that depends on the table (R-TEAM-1). The bot asks before «Начать»."""
        counts = TEAM_PLAYER_COUNTS[self.teams]
        if counts and players not in counts:
            return (
                f"teams: {self.teams} is played by {' or '.join(map(str, counts))} players,"
                f" not {players}"
            )
        return None

    def team_of(self, players: int) -> tuple[int, ...]:
        """Per seat, the seats of its team as a bit mask (R-TEAM-1): seats alternate, so
        seat s plays with s + k, s + 2k... where k is the number of teams; without teams
        every seat is its own team. Call ``player_problem`` first."""
        if self.teams is Teams.OFF:
            return tuple(1 << seat for seat in range(players))
        size = 2 if self.teams is Teams.PAIRS else 3
        step = players // size  # the number of teams
        masks = []
        for seat in range(players):
            first = seat % step
            masks.append(sum(1 << (first + k * step) for k in range(size)))
        return tuple(masks)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values; the keys of section 13 only when they are not at their
        defaults, so that the stored states and records of the plain game stay as they
        were (``from_dict`` reads a key left out as its default)."""
        known = _WRITTEN_RULES.get(self)
        if known is None:
            # Every field is a flat value, so no ``asdict``: its deep copy cost more than
            # the rest of saving a game.
            values = {f.name: getattr(self, f.name) for f in fields(self)}
            known = {
                key: (str(v) if isinstance(v, StrEnum) else v)
                for key, v in values.items()
                if key not in VARIANT_DEFAULTS or VARIANT_DEFAULTS[key] != v
            }
            _keep(_WRITTEN_RULES, self, known)
        return dict(known)  # the caller's own: it may add to it

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HouseRules:
        """Rules from JSON-ish values; missing keys take their defaults (RULES.md section 2).

        When ``deck`` is given without ``max_players``, the maximum follows the deck.
        """
        # Every stored game holds its rules, read on every move: the same few sets of
        # values come again and again, and a HouseRules never changes once made. The
        # type is in the key so that 1 is not taken for True.
        try:
            key = (tuple(data.items()), tuple(map(type, data.values())))
            known = _READ_RULES.get(key)
        except TypeError:  # a value that cannot be a key (a list): not one of ours
            key, known = None, None
        if known is not None and type(known) is cls:
            return known
        values: dict[str, Any] = {}
        for field in fields(cls):
            if field.name not in data:
                continue
            values[field.name] = _parse_value(field.name, data[field.name])
        unknown = set(data) - {f.name for f in fields(cls)} - BOT_ONLY_KEYS
        if unknown:
            raise RulesError(f"unknown house rule {sorted(unknown)[0]!r}", Problem.UNKNOWN_KEY)
        rules = cls(**values)
        if key is not None:
            _keep(_READ_RULES, key, rules)
        return rules


# Rules read from and written to stored games, as they come again (``from_dict``,
# ``to_dict``); at most this many of each are kept.
_READ_RULES: dict[tuple[tuple[tuple[str, Any], ...], tuple[type, ...]], HouseRules] = {}
_WRITTEN_RULES: dict[HouseRules, dict[str, Any]] = {}
_RULES_KEPT: Final = 256


def _keep(cache: dict[Any, Any], key: Any, value: Any) -> None:
    """Put ``value`` in ``cache``, emptied first when it holds ``_RULES_KEPT`` already."""
    if len(cache) >= _RULES_KEPT:
        cache.clear()
    cache[key] = value


# The keys of RULES.md section 13 and R-TR-4, with their defaults (the plain game).
VARIANT_DEFAULTS: Final[dict[str, object]] = {
    "transfer_first_bout": True,
    "teams": Teams.OFF,
    "trump": TrumpChoice.TURNED,
    "top_card": TopCard.OFF,
    "trump_six_exchange": False,
    "pogony": Pogony.OFF,
    "blind": Blind.OFF,
}

# R-BLIND-1: the keys a blind game keeps at these values.
BLIND_EXCLUDES: Final[dict[str, object]] = {
    "teams": Teams.OFF,
    "transfer": False,
    "trump_six_exchange": False,
    "pogony": Pogony.OFF,
}

BOT_ONLY_KEYS: Final = frozenset({"turn_timeout", "series", "language"})

# The house rules whose values are an enum's members, by key (the bot's settings read them).
ENUMS: Final[dict[str, type[StrEnum]]] = {
    "throw_in": ThrowIn,
    "first_bout_limit": FirstBoutLimit,
    "no_trump_start": NoTrumpStart,
    "next_game_start": NextGameStart,
    "teams": Teams,
    "trump": TrumpChoice,
    "top_card": TopCard,
    "pogony": Pogony,
    "blind": Blind,
}
_BOOLEANS: Final = frozenset({"transfer", "transfer_first_bout", "trump_six_exchange"})


def _parse_value(key: str, value: Any) -> Any:
    if key in ENUMS:
        enum = ENUMS[key]
        if value is False and "off" in enum.__members__.values():
            value = "off"  # ``--rules teams=off`` reads "off" as false
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(m.value for m in enum)
            raise RulesError(f"{key} must be one of {allowed}, not {value!r}") from None
    if key in _BOOLEANS:
        if not isinstance(value, bool):
            raise RulesError(f"{key} must be true or false, not {value!r}")
        return value
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{key} must be a whole number, not {value!r}")
    return value


def all_combinations() -> tuple[HouseRules, ...]:
    """Every combination of the rules that change how a hand is played: ``throw_in`` x
    ``first_bout_limit`` x ``no_trump_start`` x ``transfer`` x ``deck`` (108 in all), each
    with as many players as its deck allows. The property tests and the computer players'
    tests play each; ``next_game_start`` is left at its default (it only picks who opens
    the next game of a series). The keys of section 13 are sampled apart, by
    ``variant_combinations``: all their combinations with these would be thousands."""
    return tuple(
        HouseRules(
            deck=deck,
            throw_in=throw_in,
            first_bout_limit=first_bout_limit,
            no_trump_start=no_trump_start,
            transfer=transfer,
        )
        for throw_in, first_bout_limit, no_trump_start, transfer, deck in product(
            ThrowIn, FirstBoutLimit, NoTrumpStart, (False, True), DECK_SIZES
        )
    )


def player_counts(rules: HouseRules) -> tuple[int, ...]:
    """The player counts a game with ``rules`` may start with (R-TEAM-1, ``max_players``)."""
    counts = TEAM_PLAYER_COUNTS[rules.teams] or tuple(range(2, rules.max_players + 1))
    return tuple(n for n in counts if n <= rules.max_players)


def variant_combinations(count: int = 40, seed: int = 21) -> tuple[HouseRules, ...]:
    """A sample of the section 13 variants for the property, lockstep and computer-player
    tests: all 432 combinations of ``teams`` x ``trump`` x ``top_card`` x
    ``trump_six_exchange`` x ``pogony`` x ``transfer_first_bout`` less the ones R-VAR-1
    refuses are too many to play each on every run, so ``count`` of them are drawn with a
    fixed ``seed``, first one for every value of every new key (so each value is played),
    then at random; each is paired with random values of the older keys (``deck`` as
    large as its teams need, ``transfer`` on for half of them). The same arguments give
    the same list, so a failure names a combination that comes back."""
    rng = Random(seed)
    keys: dict[str, list[Any]] = {
        "teams": list(Teams),
        "trump": list(TrumpChoice),
        "top_card": list(TopCard),
        "trump_six_exchange": [False, True],
        "pogony": list(Pogony),
        "transfer_first_bout": [True, False],
    }
    wanted = [(key, value) for key, values in keys.items() for value in values]
    combos: list[HouseRules] = []
    seen: set[HouseRules] = set()
    attempts = 0
    while len(combos) < count and attempts < 100 * count:
        attempts += 1
        values: dict[str, Any] = {key: rng.choice(options) for key, options in keys.items()}
        if wanted:
            key, value = wanted.pop(0)
            values[key] = value
        if values["trump_six_exchange"] and values["trump"] is not TrumpChoice.TURNED:
            values["trump"] = TrumpChoice.TURNED
        decks = [52, 36] if values["teams"] is not Teams.OFF else list(DECK_SIZES)
        if values["teams"] is Teams.PAIRS:
            decks.append(24)
        values.update(
            deck=rng.choice(decks),
            throw_in=rng.choice(list(ThrowIn)),
            first_bout_limit=rng.choice(list(FirstBoutLimit)),
            no_trump_start=rng.choice(list(NoTrumpStart)),
            transfer=values["transfer_first_bout"] is False or rng.random() < 0.5,
        )
        rules = HouseRules(**values)
        if rules not in seen:
            seen.add(rules)
            combos.append(rules)
    return tuple(combos)


def parse_rule(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` of a house rule on a command line (``--rules``), the value as JSON-ish
    (numbers, true/false/on/off); ``HouseRules.from_dict`` then checks the pairs."""
    key, _, value = text.partition("=")
    if not key or not value:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    parsed: Any = value
    if value.isdigit():
        parsed = int(value)
    elif value.lower() in ("true", "false", "on", "off"):
        parsed = value.lower() in ("true", "on")
    return key, parsed
