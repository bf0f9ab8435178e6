"""A finished game is kept with its deal: its record replays, its deck verifies, and the seed
is readable only once the game ended (docs/FAIR-DEAL.md)."""

from __future__ import annotations

import json

from kit import ANNA, BORIS, CHAT, GLEB, VERA, Clock, dealt, yes

from bot.delivery.drafts import render
from bot.delivery.plan import slots_of
from bot.i18n import translator
from bot.model import GameRecord
from bot.schema.presses import Move
from bot.services import GameService
from bot.services.replays import checked, record_of, record_text, steps
from bot.storage import Storage
from bot.webapp.views import page_state
from engine import legal_actions, to_act
from engine.deck_seed import commitment, short
from engine.record import load_record
from engine.replay import run

SEED = "c0ffee" * 10 + "c0de"


def service_of(storage: Storage, clock: Clock) -> GameService:
    return GameService(storage, clock=clock, seed=lambda: SEED)


async def play_out(service: GameService, record: GameRecord, moves: int = 10_000) -> GameRecord:
    """Every seat plays its first legal action, ``moves`` times or to the end."""
    for _ in range(moves):
        state = record.game.state
        assert state is not None
        if state.finished:
            break
        seat = to_act(state)[0]
        action = legal_actions(state, seat)[0]
        user = record.game.players[seat].user_id
        outcome = await service.play(CHAT, record.game.game_id, state.moves, Move.of(action), user)
        assert outcome.record is not None, outcome
        record = outcome.record
    return record


async def test_a_finished_game_is_kept_and_its_deck_verifies(
    storage: Storage, clock: Clock
) -> None:
    service = service_of(storage, clock)
    record = await dealt(service, ANNA, BORIS, VERA)
    game_id = record.game.game_id
    assert record.game.commitment == commitment(SEED, game_id)
    assert await storage.finished.get(CHAT, game_id) is None  # nothing readable yet
    record = await play_out(service, record)
    assert record.game.state is not None and record.game.state.finished

    kept = await storage.finished.latest(CHAT)
    assert kept is not None and kept.game_id == game_id and kept.deal.seed == SEED
    verdict = checked(kept)
    assert verdict.ok, verdict.line
    assert f"#{short(commitment(SEED, game_id))}" in verdict.line
    exported = json.loads(record_text(kept))
    assert exported == record_of(kept) and exported["players"] == ["Аня", "Борис", "Вера"]
    replayed = run(load_record(exported))
    assert replayed.ok and replayed.state.durak == record.game.state.durak
    positions = list(steps(kept))
    assert positions[-1].state == record.game.state
    assert len(positions) == len(exported["actions"]) + 1


async def test_a_resigned_game_ends_its_record_with_a_note(storage: Storage, clock: Clock) -> None:
    service = service_of(storage, clock)
    await play_out(service, await dealt(service, ANNA, BORIS, VERA), moves=5)
    await service.leave(CHAT, BORIS.user_id)
    kept = await storage.finished.latest(CHAT)
    assert kept is not None
    exported = record_of(kept)
    assert exported["resigned"] == ["Борис"] and len(exported["actions"]) == 5
    assert checked(kept).ok
    last = list(steps(kept))[-1]
    assert last.resigned == 1 and last.state.finished and last.state.durak == 1


async def test_a_stopped_game_keeps_no_record(storage: Storage, clock: Clock) -> None:
    service = service_of(storage, clock)
    record = await play_out(service, await dealt(service, ANNA, BORIS), moves=3)
    stopped = await service.stop(CHAT, ANNA.user_id, ANNA.name, is_admin=yes)
    assert stopped.record is not None and await storage.finished.latest(CHAT) is None
    assert record.game.deal is not None


async def test_no_page_or_message_of_a_game_being_played_holds_its_seed(
    storage: Storage, clock: Clock
) -> None:
    """What a page is sent (``page_state``) and what every message shows are drawn from the
    game without its deal (``ChatGame.without_state``): the seed stays on the server."""
    service = service_of(storage, clock)
    record = await play_out(service, await dealt(service, ANNA, BORIS, VERA), moves=7)
    assert record.game.deal is not None and record.game.deal.seed == SEED
    tr = translator("ru")
    for user in (ANNA, BORIS, VERA, GLEB):
        assert SEED not in json.dumps(page_state(record, user.user_id, tr), ensure_ascii=False)
    for slot in slots_of(record, {}):
        shown = render(record, slot, {}, clock(), None)
        assert SEED not in shown.text and SEED not in str(shown.markup)
