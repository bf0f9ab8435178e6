"""Stored game records: every record names its format version, older formats are upgraded
when read, and a record the bot cannot read is moved aside for an operator (one warning)
instead of stopping the bot: the chat then simply has no game."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kit import ANNA, CHAT, no, reason_of, yes
from redis.asyncio import Redis

from bot.metrics import REGISTRY
from bot.model import ChatGame, ChatSettings, GameRecord, Phase, Seat, append_log
from bot.schema.refusals import Reason
from bot.services import Changed, GameService
from bot.storage import Storage
from bot.storage.games import (
    BROKEN_TTL,
    SCHEMA,
    UPGRADES,
    NewerRecord,
    UnreadableRecord,
    decode,
    encode,
    upgrade,
)
from engine import GameState, HouseRules, apply, legal_actions, new_game

# A lobby as version 1 of the bot stored it: no "schema", no "x.gone".
VERSION_1 = {
    "chat": CHAT,
    "id": "abc123",
    "creator": 1,
    "settings": {"deck": 36, "turn_timeout": 60, "series": 1, "language": "ru"},
    "phase": "lobby",
    "players": [{"id": 1, "name": "Аня", "lang": "ru"}],
    "state": None,
    "table_msg": 17,
    "hand_msgs": {},
    "log": [],
    "v": 4,
    "series": None,
    "x": {"bout_from": 0, "presses": [], "deadline": None, "stopped_by": None, "previous": None},
}


@pytest.fixture
def service(storage: Storage) -> GameService:
    return GameService(storage, seed=lambda: f"{42:064x}")


def test_a_record_names_its_format_version() -> None:
    record = decode(json.dumps(VERSION_1))
    assert json.loads(encode(record))["schema"] == SCHEMA


def test_a_version_1_record_is_upgraded_when_read() -> None:
    record = decode(json.dumps(VERSION_1))
    assert record.game.game_id == "abc123"
    assert record.game.version == 4 and record.gone is False
    assert decode(encode(record)) == record
    assert upgrade(VERSION_1)["x"]["gone"] is False


# A finished game as version 2 stored it: no computer players yet.
VERSION_2 = {
    **VERSION_1,
    "schema": 2,
    "x": {**VERSION_1["x"], "gone": False},  # type: ignore[dict-item]
}


def test_a_version_2_record_is_upgraded_when_read() -> None:
    record = decode(json.dumps(VERSION_2))
    assert record.computers_at is None and record.game.settings.ai_level == "normal"
    assert upgrade(VERSION_2)["settings"]["ai_level"] == "normal"
    assert decode(encode(record)) == record


# A game as version 3 stored it: with the ids of its messages.
VERSION_3 = {**VERSION_2, "schema": 3, "hand_msgs": {"1": 41}}


def test_a_version_3_record_is_upgraded_when_read() -> None:
    """Message ids are only the outbox's (``bot.storage.outbox``); a record that
    still carries them loads without them."""
    record = decode(json.dumps(VERSION_3))
    assert record.game.game_id == "abc123" and record.game.version == 4
    assert {"table_msg", "hand_msgs"}.isdisjoint(upgrade(VERSION_3))
    assert {"table_msg", "hand_msgs"}.isdisjoint(json.loads(encode(record)))


# The current format, written out: ``bot.model`` and ``GameRecord`` serialize by hand, so
# this pins every key. Changing what is stored means a new SCHEMA and an upgrade step.
SEED = "5e" * 32
CURRENT = {
    "schema": 7,
    "chat": CHAT,
    "id": "abc123",
    "creator": 1,
    "settings": {
        "deck": 36,
        "max_players": 4,
        "throw_in": "all",
        "first_bout_limit": "none",
        "no_trump_start": "dealer_left",
        "next_game_start": "from_under_fool",
        "transfer": True,
        "turn_timeout": 30,
        "series": 3,
        "language": "uk",
        "ai_level": "hard",
    },
    "phase": "finished",
    "players": [
        {"id": 1, "name": "Аня", "lang": "ru", "r": 1565},
        {"id": 2, "name": "Борис", "lang": "uk"},
        {"id": -1, "name": "Федя", "lang": "ru", "ai": "hard", "r": 2143},
    ],
    "state": None,
    "log": [{"e": "Resigned", "player": 1, "why": "left"}, {"e": "GameOver", "durak": 1}],
    "v": 9,
    "series": {"length": 3, "number": 2, "durak": {"1": 1, "2": 0}, "draws": 1, "left": [3]},
    "x": {
        "bout_from": 7,
        "deadline": 1234.5,
        "computers_at": 1230.0,
        "stopped_by": None,
        "previous": None,
        "gone": False,
    },
    "deal": {"seed": SEED, "start": new_game(3, seed=SEED).to_dict(), "a": [1234, -2]},
    "commit": "3fa9c1" + "0" * 58,
}


def test_the_current_format_is_read_and_written_back_unchanged() -> None:
    record = decode(json.dumps(CURRENT))
    game = record.game
    assert game.settings.rules.transfer and game.settings.series == 3
    assert game.series is not None and game.series.durak == {1: 1, 2: 0}
    assert record.deadline == 1234.5 and record.bout_from == 7
    assert json.loads(encode(record)) == CURRENT


def test_a_version_6_record_is_read_as_it_is() -> None:
    """Version 6 kept no doubt counts in its state; they read as zeros (R-DOUBT-3)."""
    version_6 = {**CURRENT, "schema": 6}
    assert json.loads(encode(decode(json.dumps(version_6)))) == CURRENT


# A game as version 5 stored it: no deal kept, no commitment shown.
VERSION_5 = {
    **{key: value for key, value in CURRENT.items() if key not in ("deal", "commit")},
    "schema": 5,
}


def test_a_version_5_record_is_read_as_it_is() -> None:
    """A game dealt before its deal was kept plays on, and ends without a record."""
    record = decode(json.dumps(VERSION_5))
    assert record.game.deal is None and record.game.commitment is None
    assert json.loads(encode(record)) == {**VERSION_5, "schema": SCHEMA}


# A game as version 4 stored it: no ratings, no blind games.
VERSION_4 = {
    **VERSION_5,
    "schema": 4,
    "players": [{k: v for k, v in p.items() if k != "r"} for p in VERSION_5["players"]],  # type: ignore[attr-defined]
}


def test_a_version_4_record_is_read_as_it_is() -> None:
    record = decode(json.dumps(VERSION_4))
    assert [seat.rating for seat in record.game.players] == [None, None, None]
    assert json.loads(encode(record)) == {**VERSION_4, "schema": SCHEMA}


def test_a_blind_game_is_stored_with_its_rule() -> None:
    """A worker of version 4 could not read this rule: the version above its own tells it
    to leave the record to a newer worker."""
    blind = {**CURRENT, "settings": {**CURRENT["settings"], "transfer": False, "blind": "doubt"}}  # type: ignore[dict-item]
    record = decode(json.dumps(blind))
    assert record.game.settings.rules.blind == "doubt"
    assert json.loads(encode(record)) == blind


def test_the_presses_a_record_once_remembered_are_read_past() -> None:
    """Records once kept the ids of their latest presses (``x.presses``); claims do that
    now (``bot.storage.workers``), and a record that still holds them reads the same."""
    older = {**CURRENT, "x": {**CURRENT["x"], "presses": ["q1", "q2"]}}  # type: ignore[dict-item]
    assert json.loads(encode(decode(json.dumps(older)))) == CURRENT


# Names as Telegram sends them: any text but lone surrogates (not valid UTF-8, so Redis could
# not hold them either way), quotes, backslashes and control characters included.
NAMES = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)


def played(players: int, seed: int, moves: int) -> tuple[GameState, list[dict[str, Any]]]:
    """A game of ``players`` after up to ``moves`` moves chosen by ``seed``, and its log."""
    state = new_game(players, rules=HouseRules(), seed=seed)
    log: list[dict[str, Any]] = []
    for step in range(moves):
        if state.finished:
            break
        seat = next(s for s in range(state.players) if legal_actions(state, s))
        options = legal_actions(state, seat)
        state, events = apply(state, options[(seed + step) % len(options)])
        log = append_log(log, events, moves=state.moves)
    return state, log


@settings(max_examples=60, deadline=None)
@given(
    names=st.lists(NAMES, min_size=2, max_size=4),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 60),
)
def test_a_record_is_written_as_the_standard_json_writes_it(
    names: list[str], seed: int, moves: int
) -> None:
    """The text a record is stored as (``bot.jsontext``, orjson) is the standard library's
    compact JSON to the letter: records written by an earlier build read and write back the
    same, and workers of both builds read each other's during a rolling restart."""
    state, _log = played(len(names), seed, moves)
    game = ChatGame(
        chat_id=-1001234567890123,
        game_id="g",
        creator_id=1,
        settings=ChatSettings(),
        phase=Phase.PLAYING,
        players=[Seat(10**9 + s, name) for s, name in enumerate(names)],
        state=state,
    )
    record = GameRecord(game, deadline=1_764_681_234.123456, stopped_by='p"1')
    stored = {"schema": SCHEMA, **record.to_dict()}
    standard = json.dumps(stored, ensure_ascii=False, separators=(",", ":"))
    assert encode(record) == standard
    assert decode(standard).to_dict() == record.to_dict()


def test_every_older_version_has_an_upgrade_step() -> None:
    assert sorted(UPGRADES) == list(range(1, SCHEMA))


@pytest.mark.parametrize(
    "raw",
    [
        "not json",
        b"\xff\xfe",
        "[]",
        json.dumps({**VERSION_1, "phase": "dancing"}),
        json.dumps({**VERSION_1, "state": {"v": 99}}),  # an engine state of another format
        json.dumps({k: v for k, v in VERSION_1.items() if k != "players"}),
    ],
)
def test_a_record_this_version_cannot_read_is_unreadable(raw: str | bytes) -> None:
    with pytest.raises(UnreadableRecord):
        decode(raw)


async def test_an_unreadable_game_is_moved_aside_once_and_the_chat_plays_on(
    service: GameService, storage: Storage, redis: Redis, caplog: pytest.LogCaptureFixture
) -> None:
    raw = json.dumps({**VERSION_1, "phase": "dancing"})
    await redis.set(storage.keys.game(CHAT), raw)
    with caplog.at_level(logging.WARNING, logger="bot.storage.games"):
        assert await service.games.get(CHAT) is None
        assert await service.games.get(CHAT) is None
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and str(CHAT) in warnings[0].getMessage()
    assert await redis.get(storage.keys.game(CHAT)) is None
    assert await redis.get(storage.keys.broken(CHAT)) == raw.encode()
    assert 0 < await redis.ttl(storage.keys.broken(CHAT)) <= BROKEN_TTL
    # /stop says there is no game; /newgame opens one.
    assert reason_of(await service.stop(CHAT, ANNA.user_id, "Аня", is_admin=yes)) is Reason.NO_GAME
    await storage.users.mark_started(ANNA.user_id)
    assert isinstance(await service.new_lobby(CHAT, ANNA, can_message=no), Changed)


async def test_a_game_a_newer_version_saved_is_left_as_it_is(
    service: GameService, storage: Storage, redis: Redis
) -> None:
    """A rolling upgrade, or a rollback: nothing here reads, writes or moves it aside."""
    raw = json.dumps({**VERSION_1, "schema": SCHEMA + 1})
    await redis.set(storage.keys.game(CHAT), raw)
    counted = REGISTRY.get_sample_value("durak_games_newer_total") or 0.0
    with pytest.raises(NewerRecord):
        await service.games.get(CHAT)
    with pytest.raises(NewerRecord):
        await service.stop(CHAT, ANNA.user_id, "Аня", is_admin=yes)
    assert await redis.get(storage.keys.game(CHAT)) == raw.encode()
    assert await redis.get(storage.keys.broken(CHAT)) is None
    assert REGISTRY.get_sample_value("durak_games_newer_total") == counted + 2


async def test_a_write_over_an_unreadable_game_keeps_the_old_value_aside(
    storage: Storage, redis: Redis
) -> None:
    await redis.set(storage.keys.game(CHAT), "garbage")
    seen: list[GameRecord | None] = []

    def decide(record: GameRecord | None) -> tuple[GameRecord, None]:
        seen.append(record)
        return GameRecord(ChatGame(CHAT, "g1", 1, ChatSettings())), None

    await storage.games.update(CHAT, decide)  # straight into the compare-and-set
    assert seen == [None]
    stored = await storage.games.get(CHAT)
    assert stored is not None and stored.game.game_id == "g1"
    assert await redis.get(storage.keys.broken(CHAT)) == b"garbage"


def test_a_last_game_that_cannot_be_read_leaves_the_next_deal_to_lot() -> None:
    """``previous`` is only for dealing the next game (R-DEAL-1); if it cannot be read the
    record still reads, as a new table's."""
    damaged = {**CURRENT, "x": {**CURRENT["x"], "previous": {"state": {"v": 99}}}}  # type: ignore[dict-item]
    assert decode(json.dumps(damaged)).previous is None
