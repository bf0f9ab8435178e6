"""A finished game is kept with its deal: its record replays, its deck verifies, and the seed
is readable only once the game ended (docs/FAIR-DEAL.md)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from kit import ANNA, BORIS, CHAT, GLEB, VERA, Clock, dealt, yes

from bot.delivery.drafts import render
from bot.delivery.plan import slots_of
from bot.i18n import translator
from bot.model import ChatSettings, GameRecord
from bot.schema.presses import Move
from bot.services import GameService
from bot.services.replays import checked, record_of, record_text, steps
from bot.storage import Storage
from bot.webapp.views import page_state
from engine import Blind, HouseRules, legal_actions, to_act
from engine.deck_seed import commitment, short
from engine.record import load_record
from engine.replay import replay, run, state_to_record_dict

SEED = "c0ffee" * 10 + "c0de"


def service_of(storage: Storage, clock: Clock) -> GameService:
    return GameService(storage, clock=clock, seed=lambda: SEED)


async def play_out(
    service: GameService,
    record: GameRecord,
    moves: int = 10_000,
    rng: random.Random | None = None,
) -> GameRecord:
    """Every seat plays its first legal action, ``moves`` times or to the end; with ``rng``,
    a random seat of ``to_act`` plays a random legal action (in ``reversed`` the first slot
    may be a misplay every time: the game would never end)."""
    for _ in range(moves):
        state = record.game.state
        assert state is not None
        if state.finished:
            break
        seats = to_act(state)
        seat = seats[0] if rng is None else rng.choice(seats)
        actions = legal_actions(state, seat)
        action = actions[0] if rng is None else rng.choice(actions)
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


def judged(actions: list[dict[str, Any]]) -> set[str]:
    return {a["a"] for a in actions if a["a"] in ("believe", "doubt")}


def by_slot(actions: list[dict[str, Any]]) -> list[bool]:
    """For each attack, throw-in and cover of a record: whether it names a slot."""
    return ["slot" in a for a in actions if a["a"] in ("attack", "throw", "defend")]


@pytest.mark.parametrize("blind", [Blind.REVERSED, Blind.CHINESE, Blind.DOUBT])
async def test_a_finished_blind_game_replays_from_its_record(
    storage: Storage, clock: Clock, blind: Blind
) -> None:
    """RULES.md section 14 through the bot: a blind game dealt and played to its end, its
    record exported as ``/replay`` sends it, and ``engine.replay`` on that record ends in the
    game's own final position: every row in slot order (R-BLIND-2), the misplays, who left
    in which order and the durak or the draw (GAME-RECORD.md, the blind family)."""
    await storage.settings.set(CHAT, ChatSettings(rules=HouseRules(blind=blind)))
    service = service_of(storage, clock)
    record = await dealt(service, ANNA, BORIS, VERA)
    record = await play_out(service, record, rng=random.Random(3))
    final = record.game.state
    assert final is not None and final.finished and final.rules.blind is blind

    kept = await storage.finished.latest(CHAT)
    assert kept is not None and kept.game_id == record.game.game_id
    exported = json.loads(record_text(kept))
    assert exported == record_of(kept) and exported["rules"]["blind"] == blind.value
    names = exported["players"]
    assert names == ["Аня", "Борис", "Вера"]
    result = replay(load_record(exported))
    assert result == {"ok": True, "state": state_to_record_dict(final, names)}
    assert result["state"]["status"] == "finished"
    assert (result["state"]["slots"], result["state"]["misplays"]) == (True, final.misplays)
    assert list(steps(kept))[-1].state == final
    # The game was played as its variant is: what the record holds shows it.
    actions = exported["actions"]
    if blind is Blind.REVERSED:  # by slot, and some wrong guesses punished (R-REV-4)
        assert all(by_slot(actions)) and final.misplays >= 1
    elif blind is Blind.CHINESE:  # by slot, the face-down attack card never named (R-CHI-2)
        assert all(by_slot(actions)) and not any("on" in a for a in actions)
        assert final.misplays == 0
    else:  # cards named, and both judgments made (R-DOUBT-3)
        assert not any(by_slot(actions)) and judged(actions) == {"believe", "doubt"}
        assert final.misplays == 0


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
