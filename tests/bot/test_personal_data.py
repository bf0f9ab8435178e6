"""What the bot keeps about a person, against a real Redis through the services: /mydata
shows all of it and nobody else's; /forget, confirmed with the token of the person's own
button, erases it all but what a game still running needs, leaves that game playable to its
end, and a stale or forged token changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from kit import CHAT, dealt, no, put_state, reason_of, yes
from redis.asyncio import Redis

from bot.i18n import translator
from bot.model import ChatGame, ChatSettings, GameRecord, Phase, Seat
from bot.schema.presses import Move
from bot.schema.stats import GameResult, PlayerResult
from bot.services import GameService, Player
from bot.services.people import PersonalData
from bot.storage import Storage
from bot.storage.tx import Writes
from engine import Attack, Card, Take, from_position
from engine.cards import deck_cards

# Ids long enough that no other key or value holds them by chance.
ANNA = Player(7_300_001, "Аня")
BORIS = Player(7_300_002, "Борис")
OTHER_CHAT = -1_007_300_009


def placeholder(language: str) -> str:
    return translator(language).t("player-forgotten")


@pytest.fixture
def service(storage: Storage) -> GameService:
    return GameService(storage, seed=lambda: f"{7:064x}")


@pytest.fixture
def data(storage: Storage) -> PersonalData:
    return PersonalData(storage)


async def counted(storage: Storage, chat_id: int, *players: tuple[Player, int, bool]) -> None:
    """A finished game in ``chat_id`` counted for ``players`` (player, place, the durak)."""
    result = GameResult(
        tuple(PlayerResult(p.user_id, p.name, place, durak) for p, place, durak in players),
        draw=False,
    )
    writes = Writes()
    storage.stats.queue(writes, chat_id, result)
    storage.stats.queue_vs_computers(writes, result, "hard")
    await writes.send(storage.redis)


async def both_known(storage: Storage) -> None:
    """Аня and Борис started the bot and played in two groups; Аня chose her own rules for
    her games with computers, and her game with them there is over."""
    for player in (ANNA, BORIS):
        await storage.users.mark_started(player.user_id)
    await counted(storage, CHAT, (ANNA, 1, False), (BORIS, 2, True))
    await counted(storage, OTHER_CHAT, (ANNA, 2, True), (BORIS, 1, False))
    await storage.settings.set(ANNA.user_id, ChatSettings(series=3))
    await storage.settings.set(BORIS.user_id, ChatSettings(series=5))
    own = ChatGame(ANNA.user_id, "solo1", ANNA.user_id, ChatSettings(), phase=Phase.FINISHED)
    own.players = [Seat(ANNA.user_id, ANNA.name), Seat(-1, "Федя", level="normal")]
    await storage.games.update(ANNA.user_id, lambda _record: (GameRecord(own), None))


def as_text(word: Any) -> str:
    return word.decode() if isinstance(word, bytes) else str(word)


async def traces(redis: Redis, prefix: str, player: Player) -> list[str]:
    """Every place under ``prefix`` that holds ``player``'s id or name: in a key's name,
    a string's value, a hash's fields or values, a set's or a list's members."""
    marks = (str(player.user_id), player.name)
    found = []

    def holds(word: Any) -> bool:
        return any(mark in as_text(word) for mark in marks)

    async for raw_key in redis.scan_iter(match=f"{prefix}:*", count=1000):
        key = raw_key.decode()
        kind = as_text(await redis.type(key))
        if holds(key):
            found.append(key)
        elif kind == "string" and holds(await redis.get(key)):
            found.append(f"{key} (value)")
        elif kind == "hash":
            found += [
                f"{key} {as_text(k)}"
                for k, v in (await redis.hgetall(key)).items()
                if holds(k) or holds(v)
            ]
        elif kind in ("set", "zset"):
            members = await (redis.smembers(key) if kind == "set" else redis.zrange(key, 0, -1))
            if any(holds(m) for m in members):
                found.append(f"{key} (member)")
        elif kind == "list" and any(holds(m) for m in await redis.lrange(key, 0, -1)):
            found.append(f"{key} (item)")
    return sorted(found)


def outside_the_outbox(prefix: str, found: list[str]) -> list[str]:
    """``found`` without the outbox's work on her private chat (its game was deleted): the
    chat on the work list and its change count, which the outbox clears once the chat shows
    it (no outbox runs in these tests; the end-to-end test sees them cleared)."""
    working = {f"{prefix}:outbox (member)", f"{prefix}:outbox:seq {ANNA.user_id}"}
    return [entry for entry in found if entry not in working]


async def test_mydata_shows_what_is_kept_about_the_person_and_nobody_elses(
    service: GameService, storage: Storage, data: PersonalData
) -> None:
    await both_known(storage)
    await dealt(service, ANNA, BORIS)  # a game running in CHAT

    found = await data.found(ANNA.user_id)
    kept = found.kept
    assert kept.started and kept.own_rules
    assert set(kept.chats) == {CHAT, OTHER_CHAT}
    assert {(row.user_id, row.name, row.games, row.durak) for row in kept.chats.values()} == {
        (ANNA.user_id, "Аня", 1, 0),
        (ANNA.user_id, "Аня", 1, 1),
    }
    assert (kept.totals.games, kept.totals.durak) == (2, 1)
    assert set(kept.versus) == {"hard"} and kept.versus["hard"].games == 2
    assert [(t.chat_id, t.phase, t.name) for t in found.playing] == [(CHAT, Phase.PLAYING, "Аня")]
    assert [(t.chat_id, t.name) for t in found.finished] == [(ANNA.user_id, "Аня")]
    assert "Борис" not in repr(found) and str(BORIS.user_id) not in repr(found)

    nobody = await data.found(7_300_099)
    assert nobody.nothing and not nobody.playing and not nobody.kept.chats


async def test_forget_erases_everything_kept_and_nobody_elses(
    service: GameService, storage: Storage, data: PersonalData, redis_prefix: str
) -> None:
    await both_known(storage)
    # A finished game in the group that Аня stopped: kept a day for "Play again".
    await dealt(service, ANNA, BORIS)
    await service.stop(CHAT, ANNA.user_id, ANNA.name, is_admin=no)
    assert await traces(storage.redis, redis_prefix, ANNA) != []
    boris_before = await traces(storage.redis, redis_prefix, BORIS)
    boris_found = await data.found(BORIS.user_id)

    token = await data.ask_forget(ANNA.user_id)
    forgotten = await data.forget(ANNA.user_id, token, placeholder)

    assert forgotten is not None and forgotten.playing == []
    # What is left of Аня: her id in the finished group game's seat (kept a day, for
    # "Play again"), her name gone from it.
    left = await traces(storage.redis, redis_prefix, ANNA)
    assert outside_the_outbox(redis_prefix, left) == [f"{redis_prefix}:game:{CHAT} (value)"]
    finished = await storage.games.get(CHAT)
    assert finished is not None
    assert [p.name for p in finished.game.players] == ["игрок", "Борис"]
    assert finished.stopped_by == "игрок"
    assert await storage.games.get(ANNA.user_id) is None
    assert (await data.found(ANNA.user_id)).nothing is False  # the finished game, a day
    assert await traces(storage.redis, redis_prefix, BORIS) == boris_before
    assert await data.found(BORIS.user_id) == boris_found


async def test_forget_during_a_running_game_leaves_it_playable_to_the_end(
    service: GameService, storage: Storage, data: PersonalData, redis_prefix: str
) -> None:
    await both_known(storage)
    await dealt(service, ANNA, BORIS)
    # The last bout: Аня attacks with 6♠, Борис cannot beat it (trump ♦) and takes.
    hands = [[Card.parse("6S")], [Card.parse("7H"), Card.parse("8H")]]
    rest = [card for card in deck_cards(36) if card not in hands[0] + hands[1]]
    ending = from_position(hands, trump=Card.parse("6D").suit, discard=rest, attacker=0)
    record = await put_state(service, ending)
    anna_seat = record.game.seat_of(ANNA.user_id)
    assert anna_seat is not None

    token = await data.ask_forget(ANNA.user_id)
    forgotten = await data.forget(ANNA.user_id, token, placeholder)

    assert forgotten is not None and [t.chat_id for t in forgotten.playing] == [CHAT]
    # The game needs her seat, her index entry and the mark that her hand may reach her.
    assert await storage.users.has_started(ANNA.user_id)
    assert await storage.users.games_of(ANNA.user_id) == {CHAT: record.game.game_id}
    assert (await storage.stats.user(ANNA.user_id)).games == 0
    assert {p.user_id for p in await storage.stats.chat(CHAT)} == {BORIS.user_id}

    game_id = record.game.game_id
    attack = Attack(anna_seat, (Card.parse("6S"),))
    played = await service.play(CHAT, game_id, 0, Move.of(attack), ANNA.user_id)
    assert reason_of(played) is None
    take = Take(1 - anna_seat)
    played = await service.play(CHAT, game_id, 1, Move.of(take), BORIS.user_id)
    assert reason_of(played) is None
    over = await storage.games.get(CHAT)
    assert over is not None and over.game.phase is Phase.FINISHED
    assert over.game.players[anna_seat].name == "Аня"  # she played on under her name
    # Counted like any game played after /forget; /forget again erases it.
    assert (await storage.stats.user(ANNA.user_id)).games == 1
    assert await storage.users.games_of(ANNA.user_id) == {}
    again = await data.forget(ANNA.user_id, await data.ask_forget(ANNA.user_id), placeholder)
    assert again is not None and again.playing == []
    assert (await storage.stats.user(ANNA.user_id)).games == 0
    assert not await storage.users.has_started(ANNA.user_id)  # no game needs it now
    left = await traces(storage.redis, redis_prefix, ANNA)
    assert outside_the_outbox(redis_prefix, left) == [f"{redis_prefix}:game:{CHAT} (value)"]


async def test_a_stale_or_forged_confirmation_changes_nothing(
    storage: Storage, data: PersonalData, redis_prefix: str
) -> None:
    await both_known(storage)
    before = await traces(storage.redis, redis_prefix, ANNA)
    older = await data.ask_forget(ANNA.user_id)
    newer = await data.ask_forget(ANNA.user_id)

    assert await data.forget(ANNA.user_id, older, placeholder) is None  # an older question's
    assert await data.forget(ANNA.user_id, "forged-token", placeholder) is None
    assert await data.forget(BORIS.user_id, newer, placeholder) is None  # someone else's
    assert await data.cancel_forget(ANNA.user_id, older) is False
    assert await data.cancel_forget(ANNA.user_id, newer) is True  # «Отмена»
    assert await data.forget(ANNA.user_id, newer, placeholder) is None  # cancelled
    after = await traces(storage.redis, redis_prefix, ANNA)
    assert after == before
    assert (await data.found(BORIS.user_id)).kept.started

    token = await data.ask_forget(ANNA.user_id)
    assert await data.forget(ANNA.user_id, token, placeholder) is not None
    await storage.users.mark_started(ANNA.user_id)  # she comes back
    assert await data.forget(ANNA.user_id, token, placeholder) is None  # spent
    assert await storage.users.has_started(ANNA.user_id)


async def test_a_finished_game_in_uk_names_her_in_ukrainian(
    service: GameService, storage: Storage, data: PersonalData
) -> None:
    await storage.settings.set(CHAT, ChatSettings(language="uk"))
    await dealt(service, ANNA, BORIS)
    await service.stop(CHAT, BORIS.user_id, BORIS.name, is_admin=yes)
    forgotten = await data.forget(ANNA.user_id, await data.ask_forget(ANNA.user_id), placeholder)
    assert forgotten is not None
    finished = await storage.games.get(CHAT)
    assert finished is not None
    assert [p.name for p in finished.game.players] == ["гравець", "Борис"]
    assert finished.stopped_by == "Борис"
