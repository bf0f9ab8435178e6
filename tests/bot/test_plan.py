"""Which messages of a game must change (``bot.delivery.plan.to_change``): a pure function of
the game and of what its messages show, who may be written to, and whose Mini App page is
open."""

from __future__ import annotations

import pytest
from kit import ANNA, BORIS, Clock, dealt

from bot.delivery.plan import TABLE, Seen, Slot, hand_slot, slots_of, to_change
from bot.model import GameRecord
from bot.services import GameService
from bot.storage import Storage
from bot.storage.outbox import Shown

PEOPLE = {ANNA.user_id, BORIS.user_id}


@pytest.fixture
async def record(storage: Storage, clock: Clock) -> GameRecord:
    return await dealt(GameService(storage, clock=clock, seed=lambda: f"{42:064x}"), ANNA, BORIS)


def showing(slots: list[Slot]) -> dict[str, Shown]:
    """Every message sent, showing its slot's position."""
    return {slot.name: Shown(100 + n, "digest", slot.key) for n, slot in enumerate(slots)}


def names(slots: list[Slot]) -> list[str]:
    return [slot.name for slot in slots]


async def test_every_message_changes_until_it_shows_the_position(record: GameRecord) -> None:
    slots = slots_of(record, {})
    assert names(to_change(slots, Seen({}, PEOPLE, {}))) == names(slots)
    assert to_change(slots, Seen(showing(slots), PEOPLE, {})) == []


async def test_a_message_showing_an_older_position_changes(record: GameRecord) -> None:
    slots = slots_of(record, {})
    shown = showing(slots)
    table = next(slot for slot in slots if slot.priority == TABLE)
    shown[table.name] = Shown(1, "digest", "an older version")
    assert names(to_change(slots, Seen(shown, PEOPLE, {}))) == [table.name]


async def test_a_hand_waits_for_a_player_who_cannot_be_written_to(record: GameRecord) -> None:
    slots = slots_of(record, {})
    changing = to_change(slots, Seen({}, {ANNA.user_id}, {}))
    assert hand_slot(record.game.game_id, BORIS.user_id) not in names(changing)
    assert hand_slot(record.game.game_id, ANNA.user_id) in names(changing)


async def test_a_hand_waits_while_its_page_is_open(record: GameRecord) -> None:
    slots = slots_of(record, {})
    shown = showing(slots)
    moved_on = {name: Shown(s.message_id, s.digest, "older") for name, s in shown.items()}
    changing = to_change(slots, Seen(moved_on, PEOPLE, {ANNA.user_id: 2e9}))
    assert hand_slot(record.game.game_id, ANNA.user_id) not in names(changing)
    assert len(changing) == len(slots) - 1


async def test_a_stopped_game_posts_no_new_table(record: GameRecord) -> None:
    record.stopped_by = "Аня"
    slots = slots_of(record, {})
    table = next(slot for slot in slots if slot.priority == TABLE)
    assert table.name not in names(to_change(slots, Seen({}, PEOPLE, {})))
    old = Shown(1, "digest", "older")
    assert table.name in names(to_change(slots, Seen({table.name: old}, PEOPLE, {})))
