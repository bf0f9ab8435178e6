"""The Mini App's server (``bot.webapp.server``) over a real Redis: 401 for anything but a
valid ``initData``; each viewer's own view and nothing hidden; a move made on the socket
goes through the chat keyboard's service call, with its refusals and their texts; every
open page hears of every move ("Who you are", "Playing", "Live")."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse, WSServerHandshakeError, web
from redis.asyncio import Redis

from bot.i18n import translator
from bot.model import ChatGame, ChatSettings, GameRecord, Phase
from bot.schema.presses import Move
from bot.schema.refusals import Reason
from bot.services import Changed, Refused
from bot.ui.board import TEAM_MARKS
from bot.ui.callbacks import encode_action
from bot.ui.errors import Said, refusal_text
from bot.ui.render import error_text
from bot.webapp.server import SocketPage
from engine import Attack, Code, HouseRules, Suit, Teams, TrumpChoice, legal_actions

from .conftest import ANNA, BORIS, CHAT, GLEB, MEMBER, STRANGER, TOKEN, VERA, Site, open_site
from .hidden import cards_in, hidden_from
from .signing import sign_init_data, socket_protocols

WAIT = 10.0  # seconds: a deadline for what should take milliseconds
LOBBY = GameRecord(ChatGame(CHAT, "g1", 1, ChatSettings()))


def init_for(user_id: int, **kwargs: Any) -> str:
    return sign_init_data(TOKEN, user_id, **kwargs)


async def open_page(
    site: Site, user_id: int, version: int = -1, language: str = "ru"
) -> ClientWebSocketResponse:
    """A page of ``user_id``, whose Telegram speaks ``language``, showing ``version``."""
    init = init_for(user_id, language_code=language)
    ws = await site.client.ws_connect(
        "/ws", params={"chat": str(CHAT), "version": str(version)}, protocols=socket_protocols(init)
    )
    hello = await ws.receive_json(timeout=WAIT)
    assert hello["type"] == "hello" and hello["texts"]["webapp-your-turn"]
    return ws


async def next_state(ws: ClientWebSocketResponse) -> dict[str, Any]:
    while True:
        message = await ws.receive_json(timeout=WAIT)
        if message["type"] == "state":
            return dict(message)


async def answer_to(ws: ClientWebSocketResponse) -> dict[str, Any]:
    """The answer to the page's last tap (states that come first are skipped)."""
    while True:
        message = await ws.receive_json(timeout=WAIT)
        if message["type"] == "answer":
            return dict(message)


def tampered(user_id: int) -> str:
    return init_for(user_id).replace("%22id%22%3A1", "%22id%22%3A2")


BAD_INIT = {
    "missing": None,
    "tampered": tampered(ANNA.user_id),
    "stale": init_for(ANNA.user_id, auth_date=time.time() - 2 * 86_400),
    "another bot's token": sign_init_data(
        "654321:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB", ANNA.user_id
    ),
}


@pytest.mark.parametrize("case", BAD_INIT)
async def test_every_door_answers_401_and_nothing_else_without_a_valid_init_data(
    site: Site, case: str
) -> None:
    record = await site.deal()
    init = BAD_INIT[case]
    assert init != init_for(ANNA.user_id)
    headers = {} if init is None else {"Authorization": f"tma {init}"}
    state = await site.client.get("/api/state", params={"chat": str(CHAT)}, headers=headers)
    move = await site.client.post(
        "/api/move",
        json={"chat": CHAT, "game": "x", "moves": 0, "act": "k", "id": "1"},
        headers=headers,
    )
    for response in (state, move):
        assert response.status == 401
        assert await response.text() == "401: Unauthorized"
    protocols = () if init is None else socket_protocols(init)
    with pytest.raises(WSServerHandshakeError) as refused:
        await site.client.ws_connect("/ws", params={"chat": str(CHAT)}, protocols=protocols)
    assert refused.value.status == 401
    assert (await site.record()).game.version == record.game.version


async def test_a_socket_carries_its_init_data_in_its_protocols_not_its_url(site: Site) -> None:
    """Proxies log URLs: the socket's ``initData`` goes in ``Sec-WebSocket-Protocol``, and the
    server chooses ``tma``, as a browser requires of a socket that asked for protocols."""
    await site.deal()
    ws = await open_page(site, ANNA.user_id)
    assert ws.protocol == "tma"
    await ws.close()
    init = init_for(ANNA.user_id)
    with pytest.raises(WSServerHandshakeError) as refused:
        await site.client.ws_connect("/ws", params={"chat": str(CHAT), "init": init})
    assert refused.value.status == 401


async def test_a_socket_is_not_compressed_though_the_browser_offers_it(site: Site) -> None:
    """Browsers offer permessage-deflate; the server declines it (``server.socket``: CPU on
    every move and a zlib window per open page, for messages of about a kilobyte)."""
    await site.deal()
    init = init_for(ANNA.user_id)
    ws = await site.client.ws_connect(
        "/ws", params={"chat": str(CHAT)}, protocols=socket_protocols(init), compress=15
    )
    assert ws.compress == 0
    await ws.close()


async def test_a_player_sees_their_own_hand_and_no_hidden_card(site: Site) -> None:
    record = await site.deal()
    state = record.game.state
    assert state is not None
    for player, seat in ((ANNA, 0), (BORIS, 1)):
        response = await site.client.get(
            "/api/state",
            params={"chat": str(CHAT)},
            headers={"Authorization": f"tma {init_for(player.user_id)}"},
        )
        assert response.status == 200
        body = await response.json()
        assert body["seat"] == seat
        assert set(body["hand"]) == {str(c) for c in state.hand(seat)}
        assert not cards_in(body) & hidden_from(state, seat)
        legal = {encode_action(a) for a in legal_actions(state, seat)}
        assert {a["act"] for a in body["actions"]} == legal  # the chat keyboard's buttons


async def test_a_member_who_does_not_play_sees_the_public_view_and_a_stranger_nothing(
    site: Site,
) -> None:
    record = await site.deal()
    state = record.game.state
    assert state is not None
    every_hand = {str(c) for seat in range(state.players) for c in state.hand(seat)}
    every_hand.discard(str(state.trump_card))  # face up under the stock: public
    watcher = await site.client.get(
        "/api/state",
        params={"chat": str(CHAT)},
        headers={"Authorization": f"tma {init_for(MEMBER)}"},
    )
    body = await watcher.json()
    assert body["seat"] is None and body["hand"] == [] and body["actions"] == []
    assert [p["cards"] for p in body["players"]] == [6, 6]
    assert not cards_in(body) & every_hand
    stranger = await site.client.get(
        "/api/state",
        params={"chat": str(CHAT)},
        headers={"Authorization": f"tma {init_for(STRANGER)}"},
    )
    assert stranger.status == 404  # as for a chat with no game
    assert "hand" not in await stranger.text()


async def test_a_move_on_the_socket_is_played_and_every_page_hears_of_it(site: Site) -> None:
    record = await site.deal()
    state = record.game.state
    assert state is not None
    attacker = state.bout.attacker if state.bout is not None else 0
    mover = (ANNA, BORIS)[attacker]
    pages = {p.user_id: await open_page(site, p.user_id) for p in (ANNA, BORIS)}
    first = {uid: await next_state(ws) for uid, ws in pages.items()}
    assert first[mover.user_id]["version"] == record.game.version
    action = next(a for a in legal_actions(state, attacker) if isinstance(a, Attack))
    await pages[mover.user_id].send_json(
        {"type": "move", "game": record.game.game_id, "moves": state.moves,
         "act": encode_action(action), "id": "tap-1"}
    )  # fmt: skip
    # A move played is answered by its position, on every page, the mover's too.
    for ws in pages.values():
        after = await ws.receive_json(timeout=WAIT)
        assert after["type"] == "state" and after["version"] == record.game.version + 1
        assert after["table"] == [[str(action.cards[0]), None]]
    assert [r.game.version for r in site.published] == [record.game.version + 1]
    await pages[mover.user_id].send_json(
        {"type": "move", "game": record.game.game_id, "moves": state.moves,
         "act": encode_action(action), "id": "tap-1"}
    )  # fmt: skip
    # The same tap again (a socket that resent it) changes nothing, and says nothing: the
    # next word on the socket answers the tap after it, a refusal.
    await pages[mover.user_id].send_json(
        {"type": "move", "game": record.game.game_id, "moves": state.moves,
         "act": "zz", "id": "tap-2"}
    )  # fmt: skip
    refusal = await pages[mover.user_id].receive_json(timeout=WAIT)
    assert refusal == {
        "type": "answer",
        "id": "tap-2",
        "text": translator("ru").t("answer-malformed"),
    }
    assert (await site.record()).game.version == record.game.version + 1
    for ws in pages.values():
        await ws.close()


async def test_refusals_have_the_chat_pop_ups_texts(site: Site) -> None:
    record = await site.deal()
    state = record.game.state
    assert state is not None
    attacker = state.bout.attacker if state.bout is not None else 0
    defender = 1 - attacker
    players = (ANNA, BORIS)
    ws = await open_page(site, players[defender].user_id, language=players[defender].language)
    tr = translator(players[defender].language)  # the pop-ups speak the presser's language
    card = state.hand(defender)[0]
    cases = [
        # Not the defender's turn to attack: the engine's reason, as in the chat.
        (encode_action(Attack(defender, (card,))), state.moves, None),
        # A keyboard (table) older than the bout: stale.
        (encode_action(Attack(defender, (card,))), state.moves + 5, "answer-stale"),
        ("zz", state.moves, "answer-malformed"),
        ("s" + f"{int(card):02d}", state.moves, "answer-malformed"),  # a pick: never sent
    ]
    for act, moves, key in cases:
        await ws.send_json(
            {"type": "move", "game": record.game.game_id, "moves": moves, "act": act, "id": act}
        )
        answer = await ws.receive_json(timeout=WAIT)
        while answer["type"] != "answer":
            answer = await ws.receive_json(timeout=WAIT)
        if key is None:
            refused = await site.service.play(
                CHAT, record.game.game_id, moves, Move.of(Attack(defender, (card,))),
                players[defender].user_id,
            )  # fmt: skip
            assert isinstance(refused, Refused) and isinstance(refused.reason, Code)
            assert answer["text"] == error_text(refused.reason, tr)
        else:
            assert answer["text"] == tr.t(key)
    assert (await site.record()).game.version == record.game.version
    await ws.send_str("not json")
    assert (await ws.receive_json(timeout=WAIT))["text"] == tr.t("answer-malformed")
    await ws.close()


async def test_a_move_made_in_the_chat_reaches_the_page_and_a_reconnect_catches_up(
    site: Site,
) -> None:
    record = await site.deal()
    state = record.game.state
    assert state is not None
    attacker = state.bout.attacker if state.bout is not None else 0
    players = (ANNA, BORIS)
    watcher = players[1 - attacker]
    # A page that already shows this version is sent nothing until the game changes.
    ws = await open_page(site, watcher.user_id, version=record.game.version)
    action = next(a for a in legal_actions(state, attacker) if isinstance(a, Attack))
    outcome = await site.service.play(
        CHAT, record.game.game_id, state.moves, Move.of(action),
        players[attacker].user_id,
    )  # fmt: skip
    assert isinstance(outcome, Changed)
    shown = await next_state(ws)
    assert shown["version"] == record.game.version + 1  # not the version it already had
    await ws.close()
    # A page that reconnects with an older version is sent the newest at once.
    again = await open_page(site, watcher.user_id, version=record.game.version)
    assert (await next_state(again))["version"] == record.game.version + 1
    await again.close()


async def test_the_page_and_its_files_come_from_this_server_only(site: Site) -> None:
    page = await site.client.get("/")
    html = await page.text()
    assert page.status == 200
    csp = page.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "https://telegram.org" in csp
    sources = [part.split('"')[1] for part in html.split("src=")[1:]]
    assert sources == [
        "https://telegram.org/js/telegram-web-app.js",
        "static/cards.js",
        "static/page.js",
        "static/frame.js",
        "static/prefs.js",
        "static/table.js",
        "static/motion.js",
        "static/play.js",
        "static/app.js",
    ]
    styles = [part.split('"')[1] for part in html.split('rel="stylesheet" href=')[1:]]
    assert styles == ["static/base.css", "static/table.css"]
    for path in [*sources[1:], *styles]:
        assert (await site.client.get("/" + path)).status == 200


async def test_a_move_through_one_worker_reaches_a_page_on_another(
    site: Site, redis: Redis, redis_prefix: str
) -> None:
    """Workers share moves through Redis (``{p}:live``): two servers, a page on each."""
    record = await site.deal()
    state = record.game.state
    assert state is not None
    attacker = state.bout.attacker if state.bout is not None else 0
    mover, watcher = (ANNA, BORIS)[attacker], (ANNA, BORIS)[1 - attacker]
    async with open_site(redis, redis_prefix) as other:
        here = await open_page(site, mover.user_id, language=mover.language)
        there = await open_page(other, watcher.user_id, language=watcher.language)
        for ws in (here, there):
            assert (await next_state(ws))["version"] == record.game.version
        action = next(a for a in legal_actions(state, attacker) if isinstance(a, Attack))
        await here.send_json(
            {"type": "move", "game": record.game.game_id, "moves": state.moves,
             "act": encode_action(action), "id": "tap"}
        )  # fmt: skip
        assert (await next_state(there))["version"] == record.game.version + 1
        await here.close()
        await there.close()


async def test_r_team_1_a_player_sees_their_partner_and_a_watcher_both_teams(site: Site) -> None:
    await site.house_rules(HouseRules(teams=Teams.PAIRS))
    record = await site.deal(VERA, GLEB)
    state = record.game.state
    assert state is not None and state.teams == ((0, 2), (1, 3))
    game = record.game
    anna = game.seat_of(ANNA.user_id)
    assert anna is not None
    partner = (anna + 2) % 4
    ws = await open_page(site, ANNA.user_id)
    seats = (await next_state(ws))["players"]
    tr = translator("ru")
    mark = TEAM_MARKS[anna % 2]
    assert seats[partner]["team_text"] == tr.t("webapp-team-partner", mark=mark)
    assert seats[anna]["team_text"] == tr.t("webapp-team-yours", mark=mark)
    assert {seats[s]["team"] for s in (anna, partner)} == {anna % 2}
    for rival in ((anna + 1) % 4, (anna + 3) % 4):
        assert seats[rival]["team_text"] == tr.t("webapp-team", mark=TEAM_MARKS[1 - anna % 2])
    await ws.close()
    watcher = await open_page(site, MEMBER)
    watched = (await next_state(watcher))["players"]
    assert [p["team_text"] for p in watched] == [
        tr.t("webapp-team", mark=TEAM_MARKS[s % 2]) for s in range(4)
    ]  # nobody is a member's partner
    await watcher.close()


async def test_r_trump_1_the_dealer_names_the_trump_on_the_page_as_with_the_chats_buttons(
    site: Site,
) -> None:
    await site.house_rules(HouseRules(trump=TrumpChoice.DEALER))
    asked = await site.deal()
    game = asked.game
    assert game.phase is Phase.LOBBY and game.naming is not None
    players = (ANNA, BORIS)
    dealer, other = players if game.naming == ANNA.user_id else players[::-1]
    pages = {p.user_id: await open_page(site, p.user_id, language=p.language) for p in players}
    shown = {uid: await next_state(ws) for uid, ws in pages.items()}
    assert [s["op"] for s in shown[dealer.user_id]["suits"]] == ["tS", "tH", "tD", "tC"]
    assert shown[other.user_id]["suits"] == []
    assert dealer.name in shown[other.user_id]["naming"]["text"]

    taps = itertools.count()

    async def tap(user_id: int, op: str) -> object:
        ws, press_id = pages[user_id], f"{op}-{next(taps)}"  # each tap names itself
        await ws.send_json({"type": "trump", "game": game.game_id, "op": op, "id": press_id})
        answer = await answer_to(ws)
        assert answer["id"] == press_id
        return answer["text"]

    def popup(reason: Reason, language: str) -> str:
        return refusal_text(reason, Said.POPUP, translator(language))

    # Anybody but the dealer, and a code no suit button has: refused with the chat's words.
    assert await tap(other.user_id, "tH") == popup(Reason.NOT_DEALER, other.language)
    assert await tap(dealer.user_id, "tX") == translator(dealer.language).t("answer-malformed")
    assert (await site.record()).game.version == game.version and not site.published
    # The dealer's suit deals the game: answered by the dealt position, which every page
    # sees, and so does the chat.
    await pages[dealer.user_id].send_json(
        {"type": "trump", "game": game.game_id, "op": "tH", "id": "tH"}
    )
    for ws in pages.values():
        dealt = await ws.receive_json(timeout=WAIT)
        assert dealt["phase"] == "playing" and dealt["trump"] == "H" and "suits" not in dealt
    record = await site.record()
    assert record.game.state is not None and record.game.state.trump is Suit.HEARTS
    assert [r.game.version for r in site.published] == [record.game.version]
    # The same suit pressed again: that lobby is dealt already, as the chat says.
    assert await tap(dealer.user_id, "tH") == popup(Reason.STALE_LOBBY, dealer.language)
    for ws in pages.values():
        await ws.close()


def test_a_page_on_uvloops_socket_is_sent_its_view_at_once() -> None:
    """The bot runs on uvloop (``bot.__main__.new_event_loop``), whose transports have
    asyncio's methods but not its classes: a page on such a socket with nothing unsent is
    shown in the move's own task (``SocketPage.may_wait`` false), not one task a page."""
    uvloop = pytest.importorskip("uvloop")

    async def check() -> None:
        accepted: list[asyncio.StreamWriter] = []
        server = await asyncio.start_server(lambda _r, w: accepted.append(w), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            assert not isinstance(writer.transport, asyncio.WriteTransport)  # uvloop's own
            page = SocketPage(web.WebSocketResponse(), ANNA.user_id, translator("ru"), -1, None)
            assert page.may_wait(LOBBY)  # no transport known: it may have to wait
            page = SocketPage(
                web.WebSocketResponse(), ANNA.user_id, translator("ru"), -1, None, writer.transport
            )
            assert not page.may_wait(LOBBY)
        finally:
            for end in (writer, *accepted):
                end.close()
                await end.wait_closed()
            server.close()
            await server.wait_closed()

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(check())
