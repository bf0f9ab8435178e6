"""The game service: every change to a group's game goes through here.

Each method loads the chat's record, decides (the engine applies the rules), and saves the
result with one compare-and-set (``GameStore.update``); the decision functions are pure and
may run again on a newer record. Methods return an ``Outcome``
(``Changed`` or ``Refused``); they never talk to Telegram.
Where a decision needs Telegram (is this user an admin? can the bot write to them?), the
handler passes an async callable, asked only when needed.

Every write goes through ``update``: a write that ends a game (a last move, a timeout, a
resignation; not /stop) also counts it, in the same transaction: the series tally in the
record (here), the statistics beside it (``GameStore``, ``StatsStore.queue_finished``).
So a game is counted exactly once, however many presses race for its last move.

Deep-link payloads: ``t.me/<bot>?start=<payload>`` seats a user who has not started the
bot yet in the lobby they tried to join. Telegram allows 1-64 characters of A-Z a-z 0-9 _ -.

What to show when the group itself changed under its game: it became a supergroup
(``GameService.migrate_chat``) or the bot was removed from it (``GameService.bot_removed``).

Whoever finds out calls the same function with the service's outcome: the handlers of the
service messages and of ``my_chat_member`` (``bot.handlers.group``), or the outbox when a
send to the group fails (400 with ``migrate_to_chat_id``; 403 "bot was kicked" / "not a
member", through the hooks ``bot.app`` gives it). ``closed_notes`` is pure: ``(user id,
text)`` pairs, each in the player's language. They reach the outbox through ``Shows``: the
outbox (delivery) shows what services decide, and imports no service.
"""

from __future__ import annotations

import html
import logging
import re
import secrets
import time
from collections.abc import Callable
from typing import Protocol, TypeVar, assert_never

from bot.i18n import translator
from bot.model import ChatGame, ChatSettings, GameRecord, LastGame, Phase, Seat
from bot.schema.presses import Back, Move, Pick, Press
from bot.schema.refusals import Reason
from bot.schema.teams import next_team
from bot.storage import KEEP, Claim, Saved, SavedSettings, Storage
from bot.storage.games import Decide, DecideWithSettings
from engine import IllegalAction, Pass, SetupError, Suit, apply
from engine.deck_seed import SEED_BYTES

from .decisions import (
    LEAVE,
    LEFT_CHAT,
    MAX_NAME,
    Ask,
    LobbyGuard,
    Player,
    act_for_timed_out,
    advance,
    close_unshown,
    creator_or_admin,
    deal_or_ask,
    leave_series,
    left_players,
    name_for_late_dealer,
    name_trump,
    names_trump,
    next_series_game,
    people_to_act,
    pick,
    resign_player,
    schedule,
    series_lobby,
    series_pending,
    table_problem,
    tally_series,
    unschedule,
)
from .outcomes import Changed, Check, MemberCheck, Outcome, PressOutcome, Refused, Viewed

log = logging.getLogger(__name__)

T = TypeVar("T")
LobbyDecide = Callable[[GameRecord], tuple[Saved, Outcome]]
"""A change to an open lobby that its guard let through."""


async def _yes() -> bool:
    return True


class GameService:
    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        seed: Callable[[], str] = lambda: secrets.token_hex(SEED_BYTES),
    ) -> None:
        self.storage = storage
        self.games = storage.games
        self.clock = clock
        self.seed = seed

    # -- reading ----------------------------------------------------------------------------

    async def chat_settings(self, chat_id: int) -> ChatSettings:
        return await self.storage.settings.get(chat_id)

    async def games_of(self, user_id: int) -> list[GameRecord]:
        """The unfinished lobbies and games the user sits in."""
        records = []
        for chat_id, game_id in (await self.storage.users.games_of(user_id)).items():
            record = await self.games.get(chat_id)
            if record is not None and record.game.game_id == game_id:
                records.append(record)
        return records

    async def hand(self, chat_id: int, game_id: str, user_id: int) -> Viewed | Refused:
        """A player's hand for the "My cards" pop-up."""
        record = await self.games.get(chat_id)
        if record is None or record.game.game_id != game_id:
            return Refused(Reason.STALE_LOBBY, record)
        seat = record.game.seat_of(user_id)
        if seat is None or record.game.state is None:
            return Refused(Reason.NOT_PLAYER, record)
        return Viewed(record, seat)

    # -- the lobby --------------------------------------------------------------------------

    async def new_lobby(
        self, chat_id: int, player: Player, *, can_message: Check, once: Claim | None = None
    ) -> Outcome:
        """A lobby for this chat, unless one is running; the creator is seated if the bot can
        write to them."""
        current = await self.games.get(chat_id)
        if current is not None and current.game.phase is not Phase.FINISHED:
            return Refused(Reason.EXISTS, current)  # without asking Telegram anything
        reachable = await self.reachable(player.user_id, can_message)

        def decide(
            record: GameRecord | None, settings: ChatSettings
        ) -> tuple[Saved, SavedSettings, Outcome]:
            if record is not None and record.game.phase is not Phase.FINISHED:
                return KEEP, KEEP, Refused(Reason.EXISTS, record)
            game = ChatGame(chat_id, ChatGame.new_id(), player.user_id, settings)
            if reachable:
                game.players.append(player.seat())
            new = GameRecord(game)
            return new, KEEP, Changed(new, previous=record)

        return await self.update_with_settings(chat_id, decide, once=once)

    async def join(
        self,
        chat_id: int,
        player: Player,
        *,
        game_id: str | None = None,
        can_message: Check,
        once: Claim | None = None,
    ) -> Outcome:
        """Seat ``player`` in the lobby (of ``game_id``, if given), if the bot can write to
        them (``can_message``, asked only if the lobby would take them)."""
        guard = LobbyGuard(player.user_id, game_id, seated=False)

        def decide(record: GameRecord) -> tuple[Saved, Outcome]:
            game = record.game
            if len(game.players) >= game.settings.rules.max_players:
                return KEEP, Refused(Reason.LOBBY_FULL, record)
            game.players.append(player.seat())
            return record, Changed(record)

        async def reach(record: GameRecord) -> Refused | None:
            if await self.reachable(player.user_id, can_message):
                return None
            return Refused(Reason.NEED_START, record)

        return await self.in_lobby(chat_id, guard, decide, ask=reach, once=once)

    async def join_by_link(
        self, payload: str, player: Player, *, is_member: MemberCheck, once: Claim | None = None
    ) -> Outcome:
        """``/start <payload>`` in private: the user can now be written to; seat them, if
        they are a member of the group (a link travels: a banned user, or somebody who was
        never in the group, must not sit at its table)."""
        await self.storage.users.mark_started(player.user_id)
        parsed = parse_join_payload(payload)
        if parsed is None:
            return Refused(Reason.BAD_LINK)
        chat_id, game_id = parsed
        record = await self.games.get(chat_id)
        if record is None:
            moved = await self.storage.moved_to(chat_id)  # the group became a supergroup
            if moved is not None:
                chat_id, record = moved, await self.games.get(moved)
        refused = LobbyGuard(player.user_id, game_id, seated=False).refusal(record)
        if refused is not None:
            return refused  # without asking Telegram anything
        if not await is_member(chat_id):
            return Refused(Reason.NOT_MEMBER, record)
        return await self.join(chat_id, player, game_id=game_id, can_message=_yes, once=once)

    async def leave(
        self, chat_id: int, user_id: int, *, game_id: str | None = None, once: Claim | None = None
    ) -> Outcome:
        """Stand up from the lobby; in a running game, resign: the leaver is the durak (the
        engine's rule, so a game never waits for someone who has gone). Between the games
        of a series: leave the series."""
        now = self.clock()
        guard = LobbyGuard(user_id, game_id, seated=True)

        def decide(record: GameRecord | None) -> tuple[Saved, Outcome]:
            if record is not None and record.game.phase is Phase.PLAYING and game_id is None:
                return resign_player(record, user_id, now, LEAVE)
            if record is not None and game_id is None and series_pending(record):
                return leave_series(record, user_id)
            refused = guard.refusal(record)
            if refused is not None:
                return KEEP, refused
            assert record is not None
            seat = record.game.seat_of(user_id)
            assert seat is not None
            del record.game.players[seat]
            return record, Changed(record)

        return await self.update(chat_id, decide, once=once)

    async def start(
        self,
        chat_id: int,
        user_id: int,
        *,
        is_admin: Check,
        game_id: str | None = None,
        once: Claim | None = None,
    ) -> Outcome:
        """Deal: the creator or a group admin, with 2..max_players seated (join order)."""
        guard = LobbyGuard(user_id, game_id)
        allowed = creator_or_admin(user_id, is_admin, Reason.NOT_ALLOWED_START)
        seed = self.seed()
        now = self.clock()

        def decide(record: GameRecord) -> tuple[Saved, Outcome]:
            game = record.game
            if len(game.players) < 2:
                return KEEP, Refused(Reason.TOO_FEW, record)
            if not game.has_person():
                return KEEP, Refused(Reason.NO_PERSON, record)
            if len(game.players) > game.settings.rules.max_players:
                return KEEP, Refused(Reason.LOBBY_FULL, record)  # the rules changed since
            unplayable = table_problem(game.settings.rules, len(game.players))
            if unplayable is not None:
                return KEEP, Refused(unplayable, record)
            deal_or_ask(record, seed, now)
            return record, Changed(record)

        return await self.in_lobby(chat_id, guard, decide, ask=allowed, once=once)

    async def switch_team(
        self, chat_id: int, user_id: int, *, game_id: str, once: Claim | None = None
    ) -> Outcome:
        """A seated player moves to the next team of the lobby (R-TEAM-1)."""
        guard = LobbyGuard(user_id, game_id, seated=True)

        def decide(record: GameRecord) -> tuple[Saved, Outcome]:
            game = record.game
            team = next_team(game.players, game.settings.rules, user_id)
            seat = game.seat_of(user_id)
            if team is None or seat is None:
                return KEEP, Refused(Reason.NO_TEAMS, record)
            game.players[seat].team = team
            return record, Changed(record)

        return await self.in_lobby(chat_id, guard, decide, once=once)

    async def name_trump(
        self, chat_id: int, game_id: str, user_id: int, suit: Suit, *, once: Claim | None = None
    ) -> Outcome:
        """The dealer's suit under ``trump: dealer`` (R-TRUMP-1): deal with it."""
        seed = self.seed()
        now = self.clock()

        def decide(record: GameRecord | None) -> tuple[Saved, Outcome]:
            if record is None or record.game.game_id != game_id:
                return KEEP, Refused(Reason.STALE_LOBBY, record)
            return name_trump(record, user_id, suit, seed, now)

        return await self.update(chat_id, decide, once=once)

    async def again(
        self, chat_id: int, game_id: str, player: Player, *, once: Claim | None = None
    ) -> Outcome:
        """ "Play again" under a finished table: a new lobby with the same players, but for
        those who left (``left_players``)."""

        def decide(
            record: GameRecord | None, settings: ChatSettings
        ) -> tuple[Saved, SavedSettings, Outcome]:
            if record is None or record.game.game_id != game_id:
                return KEEP, KEEP, Refused(Reason.STALE_LOBBY, record)
            if record.game.phase is not Phase.FINISHED:
                return KEEP, KEEP, Refused(Reason.EXISTS, record)
            old = record.game
            game = ChatGame(chat_id, ChatGame.new_id(), player.user_id, settings)
            gone = left_players(old)
            stayed = [p for p in old.players if p.user_id not in gone]
            seats = stayed[: settings.rules.max_players]  # the rules may have changed
            game.players = [Seat(p.user_id, p.name, p.language, p.level) for p in seats]
            new = GameRecord(game)
            if old.state is not None and old.state.finished and record.stopped_by is None:
                new.previous = LastGame(old.state, tuple(p.user_id for p in old.players))
            return new, KEEP, Changed(new, previous=record)

        return await self.update_with_settings(chat_id, decide, once=once)

    async def stop(
        self, chat_id: int, user_id: int, name: str, *, is_admin: Check, once: Claim | None = None
    ) -> Outcome:
        """End the lobby or game at once (the creator or an admin)."""
        record = await self.games.get(chat_id)
        if record is None or record.game.phase is Phase.FINISHED:
            return Refused(Reason.NO_GAME, record)
        refused = await creator_or_admin(user_id, is_admin, Reason.NOT_ALLOWED_STOP)(record)
        if refused is not None:
            return refused
        game_id = record.game.game_id

        def decide(record: GameRecord | None) -> tuple[Saved, Outcome]:
            if record is None or record.game.game_id != game_id:
                return KEEP, Refused(Reason.NO_GAME, record)
            if record.game.phase is Phase.FINISHED:
                return KEEP, Refused(Reason.NO_GAME, record)
            record.game.phase = Phase.FINISHED
            record.stopped_by = name[:MAX_NAME]
            unschedule(record)
            return record, Changed(record)

        return await self.update(chat_id, decide, once=once)

    async def next_in_series(
        self, chat_id: int, game_id: str, player: Player, *, once: Claim | None = None
    ) -> Outcome:
        """ "Next game" under a finished game of a series: deal the next one at once, to
        the players still in the series (see ``bot.services.decisions``)."""
        seed = self.seed()
        now = self.clock()
        new_id = ChatGame.new_id()

        def decide(
            record: GameRecord | None, settings: ChatSettings
        ) -> tuple[Saved, SavedSettings, Outcome]:
            if record is None or record.game.game_id != game_id or not series_pending(record):
                return KEEP, KEEP, Refused(Reason.STALE_LOBBY, record)
            assert record.game.series is not None
            if not record.game.series.in_series(player.user_id):
                return KEEP, KEEP, Refused(Reason.NOT_PLAYER, record)
            language = settings.language  # the series keeps its rules; the language follows
            try:
                if names_trump(record):  # the dealer names the trump first (R-TRUMP-1)
                    new = series_lobby(record, game_id=new_id, language=language)
                    deal_or_ask(new, seed, now)
                else:
                    game = next_series_game(record, game_id=new_id, language=language, seed=seed)
                    new = GameRecord(game)
                    schedule(new, now)
            except SetupError as error:
                log.warning("cannot deal the next game of %s: %s", chat_id, error)
                return KEEP, KEEP, Refused(Reason.STALE_LOBBY, record)
            return new, KEEP, Changed(new, previous=record)

        return await self.update_with_settings(chat_id, decide, once=once)

    async def member_left(
        self, chat_id: int, user_id: int, why: str = LEFT_CHAT, *, once: Claim | None = None
    ) -> Outcome:
        """The user is no longer in the group (``why``: ``LEFT_CHAT`` or ``REMOVED``). In a
        lobby they stand up; in a running game they resign and are the durak; between the
        games of a series they leave it. Telegram may tell twice (a service message and a
        chat_member update): the second time nothing changes."""
        now = self.clock()

        def decide(record: GameRecord | None) -> tuple[Saved, Outcome]:
            if record is None:
                return KEEP, Refused(Reason.NO_GAME, record)
            game = record.game
            seat = game.seat_of(user_id)
            if game.phase is Phase.FINISHED:
                return leave_series(record, user_id)
            if seat is None:
                return KEEP, Refused(Reason.NOT_JOINED, record)
            if game.phase is Phase.LOBBY:
                del game.players[seat]
                if game.naming is not None:  # the deal waited on the trump: open it again
                    game.naming = None
                    record.deadline = None
                return record, Changed(record)
            if game.state is not None and seat in game.state.out:
                # Already out of this game, so not its durak; but gone from the series.
                if game.series is not None and game.series.drop(user_id):
                    return record, Changed(record)
                return KEEP, Refused(Reason.NOT_JOINED, record)
            return resign_player(record, user_id, now, why)

        outcome = await self.update(chat_id, decide, once=once)
        # After the game: its resignation is rated with them still at the table.
        await self.storage.ratings.left(chat_id, user_id)
        return outcome

    # -- the group itself -------------------------------------------------------------------

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> Outcome:
        """The group became a supergroup with a new id: its game, settings, statistics and
        admin cache move there in one transaction (``Storage.move_chat``), and play goes on
        in the new chat. Telegram tells twice (``migrate_to_chat_id`` in the old chat,
        ``migrate_from_chat_id`` in the new one) and a failed send tells too: any call
        after the first finds nothing left under the old id and changes nothing.

        A game still in play moves: a lobby, a running game, or a series waiting for its
        next game. It forgets its table message (messages of the old group cannot be
        edited in the new one; the table is posted there anew) and keeps the players' hand
        messages. A finished game stays under the old id until it expires: posting an old
        result into the new chat helps nobody. If the new chat already holds a game in play
        (somebody opened one there first), that one stays: it is the one people now see;
        the old one ends without a result, as if the bot had been removed, and is kept
        under the old id (``previous``: its players should be told).

        Returns ``Changed`` with the moved record (its ``chat_id`` is the new id;
        ``previous``: a finished game of the new chat it replaced, whose table loses its
        buttons), or for that clash with the new chat's game and the old one ``closed``;
        ``Refused(NO_GAME)`` (with the new chat's record, if any) when there was nothing to
        move (``bot.delivery.notices.show_migration`` shows each)."""

        def decide(old: GameRecord | None, new: GameRecord | None) -> tuple[Saved, Saved, Outcome]:
            if old is None or not _in_play(old):
                return KEEP, KEEP, Refused(Reason.NO_GAME, new)
            if new is not None and _in_play(new):
                close_unshown(old)
                return old, KEEP, Changed(new, closed=old)
            old.game.chat_id = new_chat_id
            return None, old, Changed(old, previous=new)

        outcome = await self.storage.move_chat(old_chat_id, new_chat_id, decide)
        if isinstance(outcome, Changed):
            clash = outcome.closed is not None
            log.info("group moved", extra={"chat": old_chat_id, "to": new_chat_id, "clash": clash})
        return outcome

    async def bot_removed(self, chat_id: int, *, once: Claim | None = None) -> Outcome:
        """The bot was removed from the group (or may no longer write there): a lobby or
        game there ends at once, without statistics (nobody can see it any more), and its
        table is never drawn again (``GameRecord.gone``); the hands say the game is over.
        Returns ``Changed`` with the ended record, also ``closed`` (its players should be
        told privately), or ``Refused(NO_GAME)`` when nothing was running (a finished game
        is only marked ``gone``). Idempotent: a second call changes nothing."""

        def decide(record: GameRecord | None) -> tuple[Saved, Outcome]:
            if record is None or record.gone:
                return KEEP, Refused(Reason.NO_GAME, record)
            if record.game.phase is Phase.FINISHED and not series_pending(record):
                record.gone = True
                return record, Refused(Reason.NO_GAME, record)
            close_unshown(record)
            return record, Changed(record, closed=record)

        outcome = await self.update(chat_id, decide, once=once)
        if isinstance(outcome, Changed):
            log.info("bot removed: game closed", extra={"chat": chat_id})
        return outcome

    # -- playing ----------------------------------------------------------------------------

    async def play(
        self,
        chat_id: int,
        game_id: str,
        moves: int,
        press: Press,
        user_id: int,
        *,
        once: Claim | None = None,
    ) -> PressOutcome:
        """A press on a private hand keyboard (or a page's move) drawn at ``moves``, decoded
        by ``bot.playing``.

        Stale (another game, a finished one, or a keyboard from before the current bout):
        refused. A keyboard older than the state but of this bout: the move is applied if
        it is still legal, so two players pressing at once are both served; but a pass made
        on an older table is refused, as the table it answered has changed."""
        now = self.clock()

        def decide(record: GameRecord | None) -> tuple[Saved, PressOutcome]:
            if record is None or record.game.game_id != game_id:
                return KEEP, Refused(Reason.STALE, record)
            game = record.game
            state = game.state
            seat = game.seat_of(user_id)
            if seat is None:
                return KEEP, Refused(Reason.NOT_PLAYER, record)
            if game.phase is Phase.FINISHED or state is None or state.finished:
                return KEEP, Refused(Reason.GAME_OVER, record)
            if moves > state.moves or moves < record.bout_from:
                return KEEP, Refused(Reason.STALE, record)
            match press:
                case Back():
                    return KEEP, Viewed(record, seat)
                case Pick(card):
                    return KEEP, pick(record, seat, card)
                case Move():
                    action = press.action(seat)
                case _:
                    assert_never(press)
            if isinstance(action, Pass) and moves < state.moves:
                # "Nothing more from me" was said about an older table: any new card since
                # cancels passes (R-BOUT-7), so ask again rather than pass for the player.
                return KEEP, Refused(Reason.STALE, record)
            try:
                after, events = apply(state, action)
            except IllegalAction as error:
                if moves < state.moves:
                    return KEEP, Refused(Reason.STALE, record)
                return KEEP, Refused(error.code, record)
            advance(record, after, list(events), now, played=[action])
            return record, Changed(record, events=tuple(events), seat=seat)

        outcome = await self.update(chat_id, decide, once=once)
        if outcome.record is None:
            # A keyboard drawn before the group became a supergroup: the game is there now.
            moved = await self.storage.moved_to(chat_id)
            if moved is not None:
                outcome = await self.update(moved, decide, once=once)
        return outcome

    async def expire_turn(self, chat_id: int) -> Outcome:
        """The sweeper found this chat's deadline passed: act for whoever is to act (or
        name the trump for a dealer who did not, R-TRUMP-1)."""
        now = self.clock()
        seed = self.seed()

        def decide(record: GameRecord | None) -> tuple[Saved, Outcome]:
            # No game to act in: the write drops the chat's deadline in the same transaction
            # (a game that expired leaves its deadline behind).
            if record is None:
                return None, Refused(Reason.NO_GAME)
            state = record.game.state
            if record.deadline is None:
                return KEEP, Refused(Reason.NO_GAME, record)  # every such write drops it
            if record.game.naming is not None and record.game.phase is Phase.LOBBY:
                if record.deadline > now:
                    return KEEP, Refused(Reason.NOT_DUE, record)
                return name_for_late_dealer(record, seed, now)
            if record.game.phase is not Phase.PLAYING or state is None or state.finished:
                record.deadline = None
                return record, Refused(Reason.NO_GAME, record)
            if record.deadline > now:
                return KEEP, Refused(Reason.NOT_DUE, record)
            timed_out = tuple(people_to_act(record.game))
            after, events, played = act_for_timed_out(state, timed_out)
            if after is state:  # nothing legal to do: should not happen; do not loop
                record.deadline = None
                return record, Refused(Reason.NO_GAME, record)
            advance(record, after, events, now, played=played, timed_out=timed_out)
            return record, Changed(record, events=tuple(events), timed_out=timed_out)

        return await self.update(chat_id, decide)

    # -- helpers ----------------------------------------------------------------------------

    async def in_lobby(
        self,
        chat_id: int,
        guard: LobbyGuard,
        decide: LobbyDecide,
        *,
        ask: Ask | None = None,
        once: Claim | None = None,
    ) -> Outcome:
        """Change the open lobby of ``chat_id`` with ``decide``, if ``guard`` lets it. What
        takes asking Telegram (``ask``) is asked before the compare-and-set, and only of a
        lobby the guard lets through as read; the guard is checked again on the record
        being saved."""
        if ask is not None:
            record = await self.games.get(chat_id)
            refused = guard.refusal(record)
            if refused is None:
                assert record is not None
                refused = await ask(record)
            if refused is not None:
                return refused

        def guarded(record: GameRecord | None) -> tuple[Saved, Outcome]:
            refused = guard.refusal(record)
            if refused is not None:
                return KEEP, refused
            assert record is not None
            return decide(record)

        return await self.update(chat_id, guarded, once=once)

    async def update(self, chat_id: int, decide: Decide[T], *, once: Claim | None = None) -> T:
        """``GameStore.update``, counting a game that this very write ends."""

        def counted(record: GameRecord | None) -> tuple[Saved, T]:
            playing = _playing(record)
            new, outcome = decide(record)
            self._count(playing, new)
            return new, outcome

        return await self.games.update(chat_id, counted, once=once)

    async def update_with_settings(
        self, chat_id: int, decide: DecideWithSettings[Outcome], *, once: Claim | None = None
    ) -> Outcome:
        """``GameStore.update_with_settings`` (the chat's settings read and compared in the
        same transaction), counting a game that this very write ends."""

        def counted(
            record: GameRecord | None, settings: ChatSettings
        ) -> tuple[Saved, SavedSettings, Outcome]:
            playing = _playing(record)
            new, new_settings, outcome = decide(record, settings)
            self._count(playing, new)
            return new, new_settings, outcome

        return await self.games.update_with_settings(chat_id, counted, once=once)

    def _count(self, was_playing: bool, new: object) -> None:
        """A write that ends a game by its play counts it in its series' tally."""
        if was_playing and isinstance(new, GameRecord) and new.has_result:
            tally_series(new.game)

    async def reachable(self, user_id: int, can_message: Check) -> bool:
        """Whether the bot may write to the user in private: known from /start, or found
        out by asking Telegram (then remembered)."""
        users = self.storage.users
        if await users.has_started(user_id):
            return True
        if await can_message():
            await users.mark_started(user_id)
            return True
        return False


def _playing(record: GameRecord | None) -> bool:
    return record is not None and record.game.phase is Phase.PLAYING


def _in_play(record: GameRecord) -> bool:
    """A lobby, a running game, or a series waiting for its next game."""
    return record.game.phase is not Phase.FINISHED or series_pending(record)


_JOIN_RE = re.compile(r"\Aj(-?[0-9]{1,20})_([A-Za-z0-9_-]{1,16})\Z")  # not \d: any Unicode digit


def join_payload(chat_id: int, game_id: str) -> str:
    return f"j{chat_id}_{game_id}"


def parse_join_payload(payload: str) -> tuple[int, str] | None:
    """(chat id, game id), or None if ``payload`` is not a join link."""
    match = _JOIN_RE.match(payload)
    if match is None:
        return None
    return int(match.group(1)), match.group(2)


def start_link(bot_username: str, payload: str) -> str:
    return f"https://t.me/{bot_username}?start={payload}"


class Shows(Protocol):
    """The part of ``Outbox`` these functions use."""

    def publish(self, record: GameRecord | None, *, superseded: bool = False) -> None: ...

    async def say(self, chat_id: int, text: str) -> None: ...


async def show_migration(outbox: Shows, outcome: Outcome) -> None:
    """The moved game in its new chat (its table posted anew there; a finished game of the
    new chat it replaced loses its buttons), or, if the new chat had a game of its own, the
    old one closed and its players told."""
    if not isinstance(outcome, Changed):
        return
    if outcome.closed is not None:
        await _closed(outbox, outcome.closed, closed_notes(outcome.closed, clash=True))
        return
    previous = outcome.previous
    if previous is not None and previous.game.phase is Phase.FINISHED:
        outbox.publish(previous, superseded=True)
    outbox.publish(outcome.record)


async def show_removal(outbox: Shows, outcome: Outcome, group: str | None = None) -> None:
    """A lobby or game closed because the bot was removed from the group (titled
    ``group``, if known): the hands say it is over (the table is not drawn:
    ``GameRecord.gone``) and each player is told why."""
    if isinstance(outcome, Changed) and outcome.closed is not None:
        await _closed(outbox, outcome.closed, closed_notes(outcome.closed, group=group))


async def _closed(outbox: Shows, record: GameRecord, notes: list[tuple[int, str]]) -> None:
    outbox.publish(record)
    for user_id, text in notes:
        await outbox.say(user_id, text)


def closed_notes(
    record: GameRecord, *, group: str | None = None, clash: bool = False
) -> list[tuple[int, str]]:
    """To every player of ``record``: it was closed because the bot was removed from the
    group (titled ``group``, if known), or, with ``clash``, because the group became a
    supergroup that already had a game of its own."""
    lobby = "yes" if record.game.state is None else "no"
    if clash:
        message, args = "gone-clash", {}
    elif group:
        message, args = "gone-removed", {"group": html.escape(group, quote=False)}
    else:
        message, args = "gone-removed-untitled", {}
    return [
        (player.user_id, translator(player.language).t(message, lobby=lobby, **args))
        for player in record.game.players
    ]
