"""Computer players at a group's table (``engine.ai``): seating them in a lobby, and
their moves.

A computer's move goes the way a person's press goes: the game is loaded, the engine
decides, and the move is saved with one compare-and-set that checks the position it was
chosen for is still the current one (``GameService.update``). Choosing takes time (the
``hard`` level searches), so it happens before the transaction, on the loaded state and
outside the event loop (``ComputerTurns``); a position that moved on meanwhile is chosen
for again. A computer sees only its seat's view: ``engine.ai.choose_action`` is given the
state and the seat and reads only ``view_for(state, seat)`` of it (the engine's guarantee,
tested there).
"""

from __future__ import annotations

from typing import Final

from bot.model import ChatGame, ChatSettings, GameRecord, Phase, Seat
from bot.schema.refusals import Reason
from bot.schema.settings import AI_LEVELS
from bot.storage import KEEP, Claim, Saved, SavedSettings
from engine import Action, IllegalAction, apply, legal_actions

from .checks import Check
from .decisions import Player, advance, computers_to_act
from .games import GameService
from .guard import LobbyGuard, creator_or_admin
from .outcomes import Changed, Outcome, Refused

# Names for computer players, one per seat at most (a table has at most eight seats). The
# tables write them with a robot in front: «🤖 Федя».
COMPUTER_NAMES: Final = ("Федя", "Маша", "Гоша", "Соня", "Лёва", "Ната", "Тёма", "Рита")


def computer_seat(taken: list[Seat], level: str) -> Seat:
    """The next computer player for a table where ``taken`` sit: the first name no
    computer there has and no person there is called (Маша adds a bot: it is not «🤖 Маша»);
    its user id, negative, follows from the name, so it is unique at the table. Names are
    chosen when the computer sits down: a person who joins later keeps their name, and the
    robot in front of the computer's tells the two apart."""
    used = {seat.user_id for seat in taken}
    people = set().union(*(_words(seat.name) for seat in taken if not seat.computer))
    free = [(i, name) for i, name in enumerate(COMPUTER_NAMES) if -(i + 1) not in used]
    if not free:
        raise ValueError("no free name for a computer player")
    # Only a table of people whose names take every free one gets a namesake.
    index, name = next(((i, n) for i, n in free if not _words(n) & people), free[0])
    return Seat(-(index + 1), name, level=level)


def _words(name: str) -> set[str]:
    """The words of a name, for comparing: «Маша Петрова» is called Маша, «Лёва» Лева."""
    return set(name.casefold().replace("ё", "е").split())


class ComputerSeats:
    """Seating computer players in a lobby, and applying their chosen moves."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def add(
        self,
        chat_id: int,
        player: Player,
        *,
        level: str | None = None,
        game_id: str | None = None,
        once: Claim | None = None,
    ) -> Outcome:
        """Seat a computer player of ``level`` (the chat's ``ai_level`` if None). Anybody at
        the group may; a full lobby refuses."""
        if level is not None and level not in AI_LEVELS:
            raise ValueError(f"unknown level {level!r}")

        def decide(record: GameRecord) -> tuple[Saved, Outcome]:
            game = record.game
            if len(game.players) >= game.settings.rules.max_players:
                return KEEP, Refused(Reason.LOBBY_FULL, record)
            game.players.append(computer_seat(game.players, level or game.settings.ai_level))
            return record, Changed(record)

        guard = LobbyGuard(player.user_id, game_id)
        return await self.service.in_lobby(chat_id, guard, decide, once=once)

    async def new_solo(self, chat_id: int, player: Player, *, once: Claim | None = None) -> Outcome:
        """``/newgame`` in a person's private chat (``chat_id``): a lobby there with the
        person and one computer player of the chat's level; the buttons add more (up to the
        chat's ``max_players``) or take them out. A lobby or game already there stays."""

        def decide(
            record: GameRecord | None, settings: ChatSettings
        ) -> tuple[Saved, SavedSettings, Outcome]:
            if record is not None and record.game.phase is not Phase.FINISHED:
                return KEEP, KEEP, Refused(Reason.EXISTS, record)
            game = ChatGame(chat_id, ChatGame.new_id(), player.user_id, settings)
            game.players = [player.seat()]
            game.players.append(computer_seat(game.players, settings.ai_level))
            new = GameRecord(game)
            return new, KEEP, Changed(new, previous=record)

        return await self.service.update_with_settings(chat_id, decide, once=once)

    async def remove(
        self,
        chat_id: int,
        user_id: int,
        *,
        is_admin: Check,
        game_id: str | None = None,
        once: Claim | None = None,
    ) -> Outcome:
        """Take the last computer player seated out of the lobby (its creator or an admin)."""
        guard = LobbyGuard(user_id, game_id)
        allowed = creator_or_admin(user_id, is_admin, Reason.NOT_ALLOWED_REMOVE_COMPUTER)

        def decide(record: GameRecord) -> tuple[Saved, Outcome]:
            seats = record.game.computers()
            if not seats:
                return KEEP, Refused(Reason.NO_COMPUTER, record)
            del record.game.players[seats[-1]]
            return record, Changed(record)

        return await self.service.in_lobby(chat_id, guard, decide, ask=allowed, once=once)

    async def move(
        self, chat_id: int, game_id: str, moves: int, seat: int, action: Action
    ) -> Outcome:
        """Play ``action``, chosen for computer ``seat`` at move ``moves`` of ``game_id``,
        if that is still the position: otherwise refused as ``STALE`` (choose again)."""
        now = self.service.clock()

        def decide(record: GameRecord | None) -> tuple[Saved, Outcome]:
            if record is None or record.game.game_id != game_id:
                return KEEP, Refused(Reason.STALE, record)
            game, state = record.game, record.game.state
            if game.phase is not Phase.PLAYING or state is None or state.moves != moves:
                return KEEP, Refused(Reason.STALE, record)
            if seat not in computers_to_act(game):
                return KEEP, Refused(Reason.STALE, record)
            try:
                after, events = apply(state, action)
            except IllegalAction:
                # A level must choose a legal action; should one not, the table goes on.
                after, events = apply(state, legal_actions(state, seat)[0])
            advance(record, after, list(events), now)
            return record, Changed(record, events=tuple(events), seat=seat)

        return await self.service.update(chat_id, decide)


def due_computer(record: GameRecord | None) -> tuple[int, str] | None:
    """The computer player to act in ``record`` now, with its level; None if none is."""
    if record is None:
        return None
    seats = computers_to_act(record.game)
    if not seats:
        return None
    level = record.game.players[seats[0]].level
    assert level is not None
    return seats[0], level
