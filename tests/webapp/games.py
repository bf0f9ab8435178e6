"""A chat's game driven through the service, as the tests and the benchmarks of the Mini App
drive it: people seated and dealt, and a move by whoever must act."""

from __future__ import annotations

from bot.model import GameRecord
from bot.schema.presses import Move
from bot.services import Changed, GameService, Player
from engine import Action, Take, legal_actions


async def _no() -> bool:
    return False


async def deal(service: GameService, chat_id: int, dealer: Player, *more: Player) -> GameRecord:
    """``dealer`` and ``more`` at the chat's table, dealt (or, under ``trump: dealer``, the
    dealer asked for the trump: R-TRUMP-1)."""
    for player in (dealer, *more):
        await service.storage.users.mark_started(player.user_id)
    await service.new_lobby(chat_id, dealer, can_message=_no)
    for player in more:
        await service.join(chat_id, player, can_message=_no)
    outcome = await service.start(chat_id, dealer.user_id, is_admin=_no)
    assert isinstance(outcome, Changed), outcome
    return outcome.record


async def play_a_move(service: GameService, record: GameRecord) -> GameRecord:
    """Somebody whose turn it is in ``record`` acts, taking when they may (so that the game
    lasts); the record saved."""
    state = record.game.state
    assert state is not None
    actions = legal_actions(state, state.acting[0])
    return await play(
        service, record, next((a for a in actions if isinstance(a, Take)), actions[0])
    )


async def play(service: GameService, record: GameRecord, action: Action) -> GameRecord:
    """``action`` played by the person in its seat, through the service; the record saved."""
    game, state = record.game, record.game.state
    assert state is not None
    user_id = game.players[action.player].user_id
    outcome = await service.play(game.chat_id, game.game_id, state.moves, Move.of(action), user_id)
    assert isinstance(outcome, Changed), outcome
    return outcome.record
