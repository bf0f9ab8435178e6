"""What the bot keeps about one group chat's game: the lobby, the seats, the engine state,
what happened (``ChatGame``), and what the service keeps about it between presses
(``GameRecord``). One ``GameRecord`` is one Redis value (see ``bot.storage.games``); the
ids of the messages showing it are the outbox's (``bot.storage.outbox``).

Why hand-written ``to_dict``/``from_dict`` and not pydantic models:

- What is inside is mostly the engine's: ``GameState`` and ``HouseRules`` serialize
  themselves, versioned, with the standard library only (the engine has no third-party
  dependency). Pydantic models here would wrap them in custom serializers: a second
  mechanism around the first, not one instead of two.
- These are plain mutable dataclasses: the service's decisions change them in place and
  build them positionally (``Seat(user_id, name)``), and the stored keys are short
  (``id``, ``lang``, ``v``), not the attribute names.
- The format has one version and one upgrade path, ``bot.storage.games``, run on the raw
  JSON before ``from_dict``, which reads only the current format. Whatever it cannot read
  raises ``ValueError``/``KeyError``/``TypeError``, and ``bot.storage.games.decode`` turns
  that into ``UnreadableRecord`` (the record is moved aside, the bot plays on).
  ``tests/bot/test_records.py`` writes the current format out key by key: a change to
  these methods that changes what is stored fails there until it has an upgrade step.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Final

from engine import (
    Answered,
    Attacked,
    Believed,
    Blind,
    BoutStarted,
    Card,
    DeclaredTake,
    Drew,
    Event,
    GameState,
    HouseRules,
    LaidFaceDown,
    Passed,
    SeatView,
    view_for,
)

LOG_LINES = 6  # how many recent events the table shows


class LogKind(StrEnum):
    """What a ``ChatGame.log`` entry tells (its ``"e"``): the name of the engine event it was
    made from (``event_to_log``). Every engine event has one (checked in tests), so the
    table's narration can ``match`` on this and mypy checks that it tells every kind."""

    ATTACKED = "Attacked"
    THREW_IN = "ThrewIn"
    COVERED = "Covered"
    TRANSFERRED = "Transferred"
    PASSED = "Passed"
    DECLARED_TAKE = "DeclaredTake"
    TOOK = "Took"
    BEATEN_OFF = "BeatenOff"
    DREW = "Drew"
    PLAYER_OUT = "PlayerOut"
    BOUT_STARTED = "BoutStarted"
    GAME_OVER = "GameOver"
    RESIGNED = "Resigned"
    EXCHANGED = "Exchanged"  # R-SIX-1
    TRUMP_CHANGED = "TrumpChanged"  # R-TRUMP-3 (Northern)
    EPAULETTES = "Epaulettes"  # R-POG
    # The blind family (RULES.md section 14). A card laid face down is in no entry: a
    # ``LaidFaceDown`` names only the attack card it lies on, if any.
    MISPLAYED = "Misplayed"  # R-REV-3 (``"on"``: None for a throw-in)
    LAID_FACE_DOWN = "LaidFaceDown"  # R-CHI-2 (``"on"`` None), R-DOUBT-2
    ANSWERED = "Answered"  # R-CHI-2
    BELIEVED = "Believed"  # R-DOUBT-3 «верю»
    DOUBTED = "Doubted"  # R-DOUBT-3 «не верю»
    # The bot's own, no engine event: the trump the dealer named before the deal
    # (R-TRUMP-1; ``"suit"`` its letter, ``"auto"`` when the bot named it for them), and
    # in ``reversed`` the lowest trump shown at the deal (R-BLIND-5: ``lowest_trump_log``).
    TRUMP_NAMED = "TrumpNamed"
    LOWEST_TRUMP = "LowestTrump"


BOT_LOG_KINDS = frozenset({LogKind.TRUMP_NAMED, LogKind.LOWEST_TRUMP})
"""The log's kinds that are no engine event: what the bot itself tells."""


class Phase(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


def is_private_chat(chat_id: int) -> bool:
    """A person's private chat with the bot: its id is the user's, positive; groups have
    negative ids."""
    return chat_id > 0


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """A chat's house rules (RULES.md section 2), chosen by its admins."""

    rules: HouseRules = field(default_factory=HouseRules)
    turn_timeout: int = 60  # seconds; 0 = off
    series: int = 1  # games in a series: 1, 3, 5 or 10
    language: str = "ru"
    ai_level: str = "normal"  # the level of a computer player seated without naming one
    # After the game everybody may see every hand of it (the replay, the record): as at a
    # kitchen table, where the cards are turned over at the end. Off: each sees their own.
    show_hands_after: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.rules.to_dict(),
            "turn_timeout": self.turn_timeout,
            "series": self.series,
            "language": self.language,
            "ai_level": self.ai_level,
        } | ({} if self.show_hands_after else {"show_hands_after": False})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChatSettings:
        own = ("turn_timeout", "series", "language", "ai_level", "show_hands_after")
        rules = HouseRules.from_dict({k: v for k, v in data.items() if k not in own})
        return cls(
            rules=rules,
            turn_timeout=int(data.get("turn_timeout", 60)),
            series=int(data.get("series", 1)),
            language=str(data.get("language", "ru")),
            ai_level=str(data.get("ai_level", "normal")),
            show_hands_after=bool(data.get("show_hands_after", True)),
        )

    def played(self, *, private: bool) -> ChatSettings:
        """What games are played with: alone with computer players, in a private chat,
        there is no turn timer whatever ``turn_timeout`` says (nobody waits for the
        person), so it is never shown there as if there were one."""
        return replace(self, turn_timeout=0) if private else self


@dataclass(slots=True)
class Seat:
    """A player at the table; seat i of the engine is ``ChatGame.players[i]``.

    ``level``: a computer player's level (``engine.ai``), None for a person. A computer's
    ``user_id`` is negative (no Telegram user has one): it has no private chat, never
    times out, and its games are counted apart from people's. ``team``: in a lobby with
    teams, the team the player chose (0, 1, 2; ``bot.services.teams``), None if none.
    ``rating``: the rating the table shows beside the name, as it was when the game was
    dealt (``bot.storage.players.RatingStore.show_dealt``): a computer's level's, a
    person's once they have a rated game, else None."""

    user_id: int
    name: str
    language: str = "ru"  # the player's Telegram language, for their private chat
    level: str | None = None
    team: int | None = None
    rating: int | None = None

    @property
    def computer(self) -> bool:
        return self.level is not None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.user_id, "name": self.name, "lang": self.language}
        if self.level is not None:
            data["ai"] = self.level
        if self.team is not None:
            data["team"] = self.team
        if self.rating is not None:
            data["r"] = self.rating
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        level, team, rating = data.get("ai"), data.get("team"), data.get("r")
        return cls(
            int(data["id"]),
            str(data["name"]),
            str(data.get("lang", "ru")),
            None if level is None else str(level),
            None if team is None else int(team),
            None if rating is None else int(rating),
        )


@dataclass(slots=True)
class Series:
    """Games in a row at one table with a running tally (RULES.md §2 ``series``, R-OUT-6).

    ``length``: games in the series, taken from the settings when it began (they stay the
    game's settings for the whole series). ``number``: the game being played, or just
    played (1-based). ``durak``: user id -> how often that player was the durak in the
    games finished so far, for everyone still in the series; a draw adds to nobody's
    count, only to ``draws``. ``left``: user ids who left the series (they forfeit it and
    are not in the standings)."""

    length: int
    number: int = 1
    durak: dict[int, int] = field(default_factory=dict)
    draws: int = 0
    left: list[int] = field(default_factory=list)

    @classmethod
    def begin(cls, length: int, user_ids: Sequence[int]) -> Series:
        return cls(length, durak=dict.fromkeys(user_ids, 0))

    def in_series(self, user_id: int) -> bool:
        return user_id in self.durak

    def drop(self, user_id: int) -> bool:
        """``user_id`` leaves the series; False if they were not in it."""
        if user_id not in self.durak:
            return False
        del self.durak[user_id]
        self.left = [*self.left, user_id]
        return True

    def standings(self) -> list[tuple[int, int, int]]:
        """(place, user id, times the durak), fewest first; equal counts share a place
        (1, 1, 3, ...), the order among them is the order of the tally."""
        ordered = sorted(self.durak.items(), key=lambda item: item[1])
        rows: list[tuple[int, int, int]] = []
        for index, (user_id, count) in enumerate(ordered):
            shared = rows and rows[-1][2] == count
            rows.append((rows[-1][0] if shared else index + 1, user_id, count))
        return rows

    def winners(self) -> list[int]:
        """Who was the durak least often (ties share the win)."""
        return [user_id for place, user_id, _count in self.standings() if place == 1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "length": self.length,
            "number": self.number,
            "durak": {str(k): v for k, v in self.durak.items()},
            "draws": self.draws,
            "left": self.left,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Series:
        return cls(
            length=int(data["length"]),
            number=int(data.get("number", 1)),
            durak={int(k): int(v) for k, v in data.get("durak", {}).items()},
            draws=int(data.get("draws", 0)),
            left=[int(u) for u in data.get("left", [])],
        )


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What a rated game did to a person's rating (``bot.rating``): the points shown before
    and after it."""

    user_id: int
    before: int
    after: int

    def to_list(self) -> list[int]:
        return [self.user_id, self.before, self.after]

    @classmethod
    def from_list(cls, data: list[Any]) -> RatingChange:
        user_id, before, after = data
        return cls(int(user_id), int(before), int(after))


@dataclass(slots=True)
class Deal:
    """How a game was dealt and played, for its record at the end (docs/FAIR-DEAL.md):
    ``seed``, secret until the game ends (never shown, logged or handed to a page; only the
    finished game's record holds it; the table shows ``ChatGame.commitment``), the dealt
    position ``start`` and every action since, as engine action codes (``engine.codes``);
    a player's resignation is ``-1 - seat`` among them (``resigned``)."""

    seed: str
    start: GameState
    actions: list[int] = field(default_factory=list)

    @staticmethod
    def resigned(seat: int) -> int:
        """The code a resignation of ``seat`` is kept as (no engine action is negative)."""
        return -1 - seat

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "start": self.start.to_dict(),
            "a": self.actions,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Deal:
        return cls(
            seed=str(data["seed"]),
            start=GameState.from_dict(data["start"]),
            actions=[int(code) for code in data.get("a", [])],
        )


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as it is kept after its end, for its record, its replay and its
    review (``bot.storage.finished``): the seats, the settings it was played with, its
    ``deal`` (the seed revealed), the ``commitment`` its table showed, and when it ended."""

    chat_id: int
    game_id: str
    players: list[Seat]
    settings: ChatSettings
    deal: Deal
    commitment: str
    ended_at: float

    @classmethod
    def of(cls, game: ChatGame, now: float) -> FinishedGame | None:
        """``game`` as kept once it ended; None for a game dealt without its deal kept."""
        if game.deal is None or game.commitment is None:
            return None
        return cls(
            game.chat_id,
            game.game_id,
            list(game.players),
            game.settings,
            game.deal,
            game.commitment,
            now,
        )

    def seat_of(self, user_id: int) -> int | None:
        return next((s for s, p in enumerate(self.players) if p.user_id == user_id), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "chat": self.chat_id,
            "id": self.game_id,
            "players": [p.to_dict() for p in self.players],
            "settings": self.settings.to_dict(),
            "deal": self.deal.to_dict(),
            "commit": self.commitment,
            "at": self.ended_at,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FinishedGame:
        return cls(
            int(data["chat"]),
            str(data["id"]),
            [Seat.from_dict(p) for p in data["players"]],
            ChatSettings.from_dict(data["settings"]),
            Deal.from_dict(data["deal"]),
            str(data["commit"]),
            float(data["at"]),
        )


@dataclass(slots=True)
class ChatGame:
    """One group's lobby or game. ``version`` grows by one with every save and is checked
    atomically (compare-and-set), so two presses at once never lose an update. ``series``:
    the series this game belongs to, or None for a single game. ``naming``: under
    ``trump: dealer`` (R-TRUMP-1), the user id of the dealer who is to name the trump
    before the deal; the lobby is closed meanwhile (``bot.services.decisions``). ``outs``:
    the seats that left the game, one list per bout's end: those who left together share a
    place (R-OUT-6), which the engine's state does not keep (it keeps only their order).
    ``rated``: what the game did to its people's ratings, set by the write that finished it
    (``bot.storage.players.RatingStore``); empty for a game not rated. ``deal``: the seed,
    the dealt position and the actions since, while the game is played and once it ended
    (None in the lobby), and ``commitment``: what the table shows of the seed (FAIR-DEAL.md).
    """

    chat_id: int
    game_id: str
    creator_id: int
    settings: ChatSettings
    phase: Phase = Phase.LOBBY
    players: list[Seat] = field(default_factory=list)
    state: GameState | None = None
    log: list[dict[str, Any]] = field(default_factory=list)  # recent events, newest last
    version: int = 0
    series: Series | None = None
    naming: int | None = None
    outs: list[list[int]] = field(default_factory=list)
    rated: list[RatingChange] = field(default_factory=list)
    deal: Deal | None = None
    commitment: str | None = None

    @staticmethod
    def new_id() -> str:
        return secrets.token_urlsafe(4)[:6]

    @property
    def private(self) -> bool:
        """A game in a person's private chat with the bot, against computer players."""
        return is_private_chat(self.chat_id)

    def computers(self) -> list[int]:
        """The seats of computer players."""
        return [seat for seat, player in enumerate(self.players) if player.computer]

    def has_person(self) -> bool:
        return any(not player.computer for player in self.players)

    def seat_of(self, user_id: int) -> int | None:
        for seat, player in enumerate(self.players):
            if player.user_id == user_id:
                return seat
        return None

    @property
    def series_over(self) -> bool:
        """A series game that finished (not stopped: see ``GameRecord.stopped_by``) with
        the last game of the series played, or fewer than two players left in it."""
        series = self.series
        if series is None or self.phase is not Phase.FINISHED:
            return False
        return series.number >= series.length or len(series.durak) < 2

    def without_state(self) -> ChatGame:
        """The same game with its engine state and its deal taken out (``bot.ui.scene``:
        what a message or a page is drawn from never holds a card it may not show, nor the
        seed), sharing the rest."""
        return replace(self, state=None, deal=None)

    def to_dict(self) -> dict[str, Any]:
        return (
            {
                "chat": self.chat_id,
                "id": self.game_id,
                "creator": self.creator_id,
                "settings": self.settings.to_dict(),
                "phase": self.phase.value,
                "players": [p.to_dict() for p in self.players],
                "state": None if self.state is None else self.state.to_dict(),
                "log": self.log,
                "v": self.version,
                "series": None if self.series is None else self.series.to_dict(),
            }
            | ({} if self.naming is None else {"naming": self.naming})
            | ({"outs": self.outs} if self.outs else {})
            | ({"rated": [change.to_list() for change in self.rated]} if self.rated else {})
            | ({} if self.deal is None else {"deal": self.deal.to_dict()})
            | ({} if self.commitment is None else {"commit": self.commitment})
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChatGame:
        state = data.get("state")
        series = data.get("series")
        return cls(
            chat_id=int(data["chat"]),
            game_id=str(data["id"]),
            creator_id=int(data["creator"]),
            settings=ChatSettings.from_dict(data["settings"]),
            phase=Phase(data["phase"]),
            players=[Seat.from_dict(p) for p in data["players"]],
            state=None if state is None else GameState.from_dict(state),
            log=list(data.get("log", [])),
            version=int(data.get("v", 0)),
            series=None if series is None else Series.from_dict(series),
            naming=None if data.get("naming") is None else int(data["naming"]),
            outs=[[int(seat) for seat in bout] for bout in data.get("outs", [])],
            rated=[RatingChange.from_list(change) for change in data.get("rated", [])],
            deal=None if data.get("deal") is None else Deal.from_dict(data["deal"]),
            commitment=None if data.get("commit") is None else str(data["commit"]),
        )


def event_to_log(event: Event) -> dict[str, Any]:
    """An engine event as a JSON-safe dict for ``ChatGame.log``: ``{"e": "Took", "player":
    1, "cards": ["6S", "7H"]}`` (``"e"``: a ``LogKind``); cards as text, seats as ints."""
    entry: dict[str, Any] = {"e": type(event).__name__}
    for name, value in zip(event._fields, event, strict=True):
        if isinstance(value, tuple):
            entry[name] = [str(card) for card in value]
        elif isinstance(value, Card):
            entry[name] = str(value)
        else:
            entry[name] = value
    return entry


def shown_lowest_trump(view: SeatView) -> Card | None:
    """R-BLIND-5: in a ``reversed`` game just dealt whose first attacker the lowest trump
    decided (R-START-1), that card, held by ``view.attacker``, as ``view`` knows it: its
    holder remembers it in its slot, the others saw it in the holder's hand. None in any
    other game or position, and when the first attacker was chosen otherwise (by lot,
    ``no_trump_start``, ``next_game_start``): no card of theirs was shown then. A deal of
    the whole deck shows the dealer's last card too (R-DEAL-4), a trump: when the dealer
    holds both, the lower one is the lowest trump."""
    holder = view.attacker
    if view.rules.blind is not Blind.REVERSED or view.moves or holder is None:
        return None
    known = view.remembered if holder == view.seat else view.seen_in_hands[holder]
    return min((c for c in known if c is not None and c.suit == view.trump), default=None)


def lowest_trump_log(state: GameState) -> list[dict[str, Any]]:
    """The log's entry for the lowest trump a ``reversed`` deal showed everybody
    (``shown_lowest_trump``, from its holder's view), or none."""
    holder = None if state.bout is None else state.bout.attacker
    card = None if holder is None else shown_lowest_trump(view_for(state, holder))
    if holder is None or card is None:
        return []
    return [{"e": LogKind.LOWEST_TRUMP.value, "player": holder, "card": str(card)}]


# What the turn timer may do for a player (``bot.services.decisions.act_for_timed_out``):
# open, take, pass; in the blind family also lay a card face down, answer, believe.
TIMER_EVENTS: Final = (Attacked, DeclaredTake, Passed, LaidFaceDown, Answered, Believed)


def append_log(
    log: list[dict[str, Any]],
    events: Sequence[Event],
    *,
    timed_out: tuple[int, ...] = (),
    moves: int | None = None,
) -> list[dict[str, Any]]:
    """The log with ``events`` added, keeping the newest ``LOG_LINES`` worth telling: every
    event but the bookkeeping ones (passes, draws, the next bout's start).

    ``timed_out``: the turn timer played for these seats (``"timeout": true`` on the moves
    it made for them; their passes are told too, since nobody pressed them). ``moves``: the
    move count the events led to, kept with them so a view can tell they are the newest."""
    told = []
    for event in events:
        timer_move = isinstance(event, TIMER_EVENTS) and event.player in timed_out
        if isinstance(event, Passed | Drew | BoutStarted) and not timer_move:
            continue
        entry = event_to_log(event)
        if timer_move:
            entry["timeout"] = True
        if timed_out and moves is not None:
            entry["moves"] = moves
        told.append(entry)
    return (log + told)[-LOG_LINES:]


@dataclass(frozen=True, slots=True)
class LastGame:
    """The game a table played last, for "Play again": its final state and the players'
    ids by seat, so that the next deal follows R-DEAL-1/R-START-3."""

    state: GameState
    players: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"state": self.state.to_dict(), "players": list(self.players)}

    @classmethod
    def from_dict(cls, data: Any) -> LastGame | None:
        """The last game ``data`` holds; None if it cannot be read (the next deal is then
        a new table's: dealt by lot)."""
        try:
            return cls(GameState.from_dict(data["state"]), tuple(int(u) for u in data["players"]))
        except (ValueError, KeyError, TypeError):
            return None


@dataclass(slots=True)
class GameRecord:
    """A ``ChatGame`` plus what the service needs to keep about it between presses.

    ``bout_from``: the engine's move count when the current bout began; a press made on a
    keyboard drawn before that is stale.
    ``deadline``: when the bot acts for the people whose time runs out (epoch seconds), or
    None: as read, the deadline in force (the turn clock's start lowers it in the deadlines
    set alone, ``bot.turn_clock``); as set by a move, the latest it may be.
    ``computers_at``: since when a computer player is to act (the change that made it their
    turn), or None.
    ``stopped_by``: who stopped the game with /stop, or "" when the bot ended it because
    it can no longer show it (removed from the group): a stopped game has no result.
    ``previous``: the table's last game, for "Play again" (``LastGame``).
    ``gone``: the bot can no longer write to the group, so its table is never drawn again
    (only the hands).
    """

    game: ChatGame
    bout_from: int = 0
    deadline: float | None = None
    computers_at: float | None = None
    stopped_by: str | None = None
    previous: LastGame | None = None
    gone: bool = False

    @property
    def has_result(self) -> bool:
        """Finished by its play (a last move, a timeout, a resignation), not stopped: a
        result that counts."""
        return self.game.phase is Phase.FINISHED and self.stopped_by is None

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.game.to_dict(),
            "x": {
                "bout_from": self.bout_from,
                "deadline": self.deadline,
                "computers_at": self.computers_at,
                "stopped_by": self.stopped_by,
                "previous": None if self.previous is None else self.previous.to_dict(),
                "gone": self.gone,
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        extra = data.get("x") or {}
        deadline = extra.get("deadline")
        computers_at = extra.get("computers_at")
        previous = extra.get("previous")
        return cls(
            game=ChatGame.from_dict(data),
            bout_from=int(extra.get("bout_from", 0)),
            deadline=None if deadline is None else float(deadline),
            computers_at=None if computers_at is None else float(computers_at),
            stopped_by=extra.get("stopped_by"),
            previous=None if previous is None else LastGame.from_dict(previous),
            gone=bool(extra.get("gone", False)),
        )
