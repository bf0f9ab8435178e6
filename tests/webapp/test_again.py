"""«Play again» on a Mini App page (``{"type": "again", game, id}`` on its socket): the chat's
button under a finished table, over the page's socket. It makes the same new lobby through
the same service call, for whoever may see the table, once however often it is sent, and is
refused with the chat's pop-ups; a stranger learns nothing."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse
from redis.asyncio import Redis

from bot.i18n import translator
from bot.model import GameRecord, Phase
from bot.schema.refusals import Reason
from bot.services import Claim, Outcome, Player, Refused
from bot.ui.errors import Said, refusal_text
from engine import Code

from .conftest import ANNA, BORIS, CHAT, MEMBER, TOKEN, Site, open_site
from .games import play_a_move
from .signing import sign_init_data, socket_protocols

WAIT = 10.0  # seconds: a deadline for what should take milliseconds
MAX_MOVES = 1000  # a game played by ``play_a_move`` ends well before
# As Telegram names Boris to a page: his full name (the chat's ``User.full_name``).
BORIS_FIRST, BORIS_LAST = "Борис", "Бойко"
taps = itertools.count()


async def open_page(
    site: Site, user_id: int, *, first_name: str = "Аня", last_name: str | None = None,
    language: str = "ru",
) -> ClientWebSocketResponse:  # fmt: skip
    """A page of ``user_id`` at the group's table, its hello read."""
    init = sign_init_data(
        TOKEN, user_id, first_name=first_name, last_name=last_name, language_code=language
    )
    ws = await site.client.ws_connect(
        "/ws", params={"chat": str(CHAT)}, protocols=socket_protocols(init)
    )
    assert (await ws.receive_json(timeout=WAIT))["type"] == "hello"
    return ws


async def borises_page(site: Site) -> ClientWebSocketResponse:
    return await open_page(
        site, BORIS.user_id, first_name=BORIS_FIRST, last_name=BORIS_LAST, language="uk"
    )


async def finished(site: Site) -> GameRecord:
    """Anna and Boris's game at the group's table, played to its end."""
    record = await site.deal()
    for _ in range(MAX_MOVES):
        if record.game.phase is Phase.FINISHED:
            return record
        record = await play_a_move(site.service, record)
    raise AssertionError(f"the game did not end in {MAX_MOVES} moves")


def tap_id() -> str:
    """A tap's own id, as a page names each tap."""
    return f"tap-{next(taps)}"


async def press_again(ws: ClientWebSocketResponse, game_id: str, press_id: str) -> None:
    await ws.send_json({"type": "again", "game": game_id, "id": press_id})


async def answers_before_the_next_tap(ws: ClientWebSocketResponse) -> list[dict[str, Any]]:
    """The answers the page is sent before the answer to a tap sent now (one no button
    has): a socket answers its taps in their order, so these answer the taps before."""
    await ws.send_json({"type": "move", "game": "g", "moves": 0, "act": "zz", "id": "last"})
    answers: list[dict[str, Any]] = []
    while True:
        message = await ws.receive_json(timeout=WAIT)
        if message["type"] != "answer":
            continue
        if message["id"] == "last":
            return answers
        answers.append(message)


async def answer_to(ws: ClientWebSocketResponse, press_id: str | None) -> str:
    """The text that answers tap ``press_id`` (None: a message too malformed to name it)."""
    while True:
        message = await ws.receive_json(timeout=WAIT)
        if message["type"] == "answer":
            assert message["id"] == press_id, message
            return str(message["text"])


async def lobby_shown(ws: ClientWebSocketResponse, game_id: str) -> dict[str, Any]:
    """The first view of game ``game_id`` the page is sent (views of the old one skipped)."""
    while True:
        message = await ws.receive_json(timeout=WAIT)
        if message["type"] == "state" and message["game"] == game_id:
            return dict(message)


def popup(reason: Reason | Code, language: str) -> str:
    return refusal_text(reason, Said.POPUP, translator(language))


async def test_a_players_again_after_the_end_makes_the_new_lobby_with_the_same_players(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = await finished(site)
    asked: list[Player] = []
    again = site.service.again

    async def noted(chat_id: int, game_id: str, player: Player, *, once: Claim | None) -> Outcome:
        asked.append(player)
        return await again(chat_id, game_id, player, once=once)

    monkeypatch.setattr(site.service, "again", noted)
    pages = [await open_page(site, ANNA.user_id), await borises_page(site)]
    await press_again(pages[1], old.game.game_id, tap_id())
    # Played, so answered by the new lobby, which every page is sent, and nothing else.
    assert await answers_before_the_next_tap(pages[1]) == []
    new = await site.record()
    assert new.game.game_id != old.game.game_id and new.game.phase is Phase.LOBBY
    assert [p.user_id for p in new.game.players] == [ANNA.user_id, BORIS.user_id]
    assert new.game.creator_id == BORIS.user_id  # the presser, as under the chat's button
    # The presser as the chat's middleware makes them: full name, language.
    assert asked == [Player(BORIS.user_id, f"{BORIS_FIRST} {BORIS_LAST}", "uk")]
    for ws in pages:
        shown = await lobby_shown(ws, new.game.game_id)
        assert shown["phase"] == "lobby" and shown["version"] == new.game.version
        assert [p["name"] for p in shown["players"]] == [ANNA.name, BORIS.name]
    # Published once, so that the chat gets its new lobby message too.
    assert [(r.game.game_id, r.game.version) for r in site.published] == [
        (new.game.game_id, new.game.version)
    ]
    for ws in pages:
        await ws.close()


async def test_again_sent_twice_with_the_same_id_plays_once(site: Site) -> None:
    old = await finished(site)
    ws = await open_page(site, ANNA.user_id)
    press_id = tap_id()
    await press_again(ws, old.game.game_id, press_id)
    await press_again(ws, old.game.game_id, press_id)  # a socket that resent it
    # The second says nothing: its first sending said it all (the chat's duplicate press).
    assert await answers_before_the_next_tap(ws) == []
    new = await site.record()
    assert new.game.phase is Phase.LOBBY and new.game.creator_id == ANNA.user_id
    assert [r.game.game_id for r in site.published] == [new.game.game_id]
    await ws.close()


async def test_again_before_the_end_is_refused_with_the_chats_words(site: Site) -> None:
    playing = await site.deal()
    ws = await borises_page(site)
    press_id = tap_id()
    await press_again(ws, playing.game.game_id, press_id)
    # The service's own refusal, in the presser's language.
    assert await answer_to(ws, press_id) == popup(Reason.EXISTS, "uk")
    assert (await site.record()).game.version == playing.game.version
    assert site.published == []
    await ws.close()


async def test_again_under_a_stale_game_is_refused_with_the_chats_words(site: Site) -> None:
    old = await finished(site)
    anna, boris = await open_page(site, ANNA.user_id), await borises_page(site)
    press_id = tap_id()
    await press_again(anna, "nope", press_id)
    assert await answer_to(anna, press_id) == popup(Reason.STALE_LOBBY, "ru")
    assert (await site.record()).game.game_id == old.game.game_id and site.published == []
    # Anna's «again» made the new lobby: Boris's, under the same old table, is stale.
    await press_again(anna, old.game.game_id, tap_id())
    assert await answers_before_the_next_tap(anna) == []
    new = await lobby_shown(boris, (await site.record()).game.game_id)
    press_id = tap_id()
    await press_again(boris, old.game.game_id, press_id)
    assert await answer_to(boris, press_id) == popup(Reason.STALE_LOBBY, "uk")
    assert (await site.record()).game.game_id == new["game"]
    assert [r.game.game_id for r in site.published] == [new["game"]]
    for ws in (anna, boris):
        await ws.close()


async def test_a_malformed_again_is_refused_as_malformed(site: Site) -> None:
    old = await finished(site)
    ws = await open_page(site, ANNA.user_id)
    game_id = old.game.game_id
    malformed = [
        {"type": "again", "id": "no-game"},
        {"type": "again", "game": 5, "id": "game-a-number"},
        {"type": "again", "game": "g" * 65, "id": "game-too-long"},
        {"type": "again", "game": game_id},
        {"type": "again", "game": game_id, "id": "x" * 41},
        {"type": "agian", "game": game_id, "id": "unknown-type"},
    ]
    for body in malformed:
        await ws.send_json(body)
        # Too malformed to name the tap it answers, as for a move.
        assert await answer_to(ws, None) == translator("ru").t("answer-malformed"), body
    record = await site.record()
    assert record.game.version == old.game.version and site.published == []
    await ws.close()


async def test_a_stranger_learns_nothing_and_a_member_watching_may_press_it(
    redis: Redis, redis_prefix: str
) -> None:
    group = {ANNA.user_id, BORIS.user_id, MEMBER}

    async def members(chat_id: int, user_id: int) -> bool:
        return chat_id == CHAT and user_id in group

    async with open_site(redis, redis_prefix, watch=members) as site:
        old = await finished(site)
        ws = await open_page(site, MEMBER)  # a member of the group, watching
        group.discard(MEMBER)  # who left it since: their page is still open
        # Told what the chat's button says with no game in the chat at all.
        no_game = await site.service.again(CHAT - 1, "g", Player(MEMBER, "Аня"))
        assert isinstance(no_game, Refused)
        words = popup(no_game.reason, "ru")
        for game_id in (old.game.game_id, "nope"):
            press_id = tap_id()
            await press_again(ws, game_id, press_id)
            assert await answer_to(ws, press_id) == words
        assert (await site.record()).game.version == old.game.version
        assert site.published == []
        # Back in the group, the same person may make it, as the chat's button lets them.
        group.add(MEMBER)
        await press_again(ws, old.game.game_id, tap_id())
        assert await answers_before_the_next_tap(ws) == []
        new = await site.record()
        assert new.game.phase is Phase.LOBBY and new.game.creator_id == MEMBER
        assert [p.user_id for p in new.game.players] == [ANNA.user_id, BORIS.user_id]
        await ws.close()
