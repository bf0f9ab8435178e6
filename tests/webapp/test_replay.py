"""A finished game's replay ("Replay", docs/WEBAPP.md): ``GET /api/replay`` and what it is built
from (``bot.webapp.replay``), without a browser. Whole games are dealt from a fixed seed and
played to the end through the service, as the chat plays them, then read back as kept.

Each step holds the viewer's own hand as the engine had it; with the chat's hands turned
over after the game every hand and the deal's seed, without it no card of another seat's
hand and no seed; only those who played may open it, anybody else learns nothing; the
review's moments sit on the step after their action. And the links that open it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.i18n import translator
from bot.model import ChatSettings, FinishedGame
from bot.schema.presses import Move
from bot.services import GameService, Player
from bot.services.replays import record_names, steps
from bot.ui.common import card_label, sorted_hand
from bot.ui.review import action_words
from bot.ui.webapp import (
    TableLinks,
    read_replay_start_param,
    replay_button,
    replay_start_param,
)
from bot.webapp.replay import replay_view
from engine import Action, Blind, Card, GameState, HouseRules, legal_actions, to_act
from engine.deck_seed import commitment, short
from engine.record import action_to_dict
from engine.verify import verify

from .conftest import ANNA, BORIS, CHAT, MEMBER, STRANGER, TOKEN, Site
from .games import deal
from .hidden import cards_in
from .signing import sign_init_data

SEED = "5eed" * 16
MAX_MOVES = 1000
DIRECT = "https://t.me/durak_bot/table"


async def finished_game(
    site: Site,
    *,
    show_hands_after: bool = True,
    rules: HouseRules | None = None,
    chat: int = CHAT,
    players: tuple[Player, ...] = (ANNA, BORIS),
) -> FinishedGame:
    """A whole game at ``chat`` dealt from ``SEED`` and played to the end (``choice``), as
    kept once it ended."""
    storage = site.service.storage
    settings = ChatSettings(
        rules=rules or HouseRules(), turn_timeout=0, show_hands_after=show_hands_after
    )
    await storage.settings.set(chat, settings)
    service = GameService(storage, seed=lambda: SEED)
    record = await deal(service, chat, *players)
    state = record.game.state
    for _ in range(MAX_MOVES):
        assert state is not None
        if state.finished:
            break
        seat = to_act(state)[0]
        action = choice(state, seat)
        user = record.game.players[seat].user_id
        outcome = await service.play(chat, record.game.game_id, state.moves, Move.of(action), user)
        assert outcome.record is not None, outcome
        record, state = outcome.record, outcome.record.game.state
    else:
        raise AssertionError(f"the game did not end in {MAX_MOVES} moves")
    finished = await storage.finished.get(chat, record.game.game_id)
    assert finished is not None
    return finished


def choice(state: GameState, seat: int) -> Action:
    """A move that varies with the position, the same every run: covers, throw-ins and
    takes alike, so that some cards end the game unseen. In the blind family the last legal
    one (a ``reversed`` game played otherwise can go round and round)."""
    actions = legal_actions(state, seat)
    return actions[-1] if state.slots else actions[state.moves % len(actions)]


def hand_codes(state: GameState, seat: int) -> list[str]:
    """A hand as the page shows it: by suit, trumps last (in slot order in the blind family)."""
    if state.slots:
        return [str(card) for card in state.rows[seat]]
    return [str(card) for card in sorted_hand(state.hand(seat), state.trump)]


def named(step: dict[str, Any], cards: set[str], lang: str) -> set[str]:
    """Which of ``cards`` the step names: as a card's code anywhere in it, or in words
    («Т♠») in its text."""
    text = json.dumps(step, ensure_ascii=False)
    tr = translator(lang)
    in_words = {card for card in cards if card_label(Card.parse(card), tr) in text}
    return (cards_in(step) & cards) | in_words


def init_for(user_id: int, language: str = "ru") -> dict[str, str]:
    return {"Authorization": f"tma {sign_init_data(TOKEN, user_id, language_code=language)}"}


# -- what each step holds -----------------------------------------------------------------------


@pytest.mark.parametrize("shown", [True, False])
async def test_each_step_holds_the_viewers_own_hand_as_the_engine_had_it(
    site: Site, shown: bool
) -> None:
    finished = await finished_game(site, show_hands_after=shown)
    positions = list(steps(finished))
    for seat in range(len(finished.players)):
        view = replay_view(finished, seat, None, translator("ru"))
        assert view["you"] == seat and len(view["steps"]) == len(positions)
        for step, position in zip(view["steps"], positions, strict=True):
            assert step["index"] == position.index
            assert step["hand"] == hand_codes(position.state, seat)
            assert [p["cards"] for p in step["players"]] == [
                len(position.state.hand(s)) for s in range(position.state.players)
            ]
            assert step["stock"] == len(position.state.stock)


async def test_with_hands_not_shown_no_step_holds_another_seats_card_and_nothing_the_seed(
    site: Site,
) -> None:
    """``show_hands_after`` off: a step names no card of another seat's hand then (not as a
    card, not in words), the whole replay no card its viewer never saw, and no seed."""
    finished = await finished_game(site, show_hands_after=False)
    positions = list(steps(finished))
    start = finished.deal.start
    dealt = {str(c) for s in range(start.players) for c in start.hand(s)}
    dealt |= {str(c) for c in start.stock}
    # Laid on the table face up (the open game), so seen by all; and the turned-up trump.
    played = {str(c) for p in positions if p.action for c in Move.of(p.action).cards}
    public = played | {str(start.trump_card)}
    unseen = 0
    for seat, lang in ((0, "ru"), (1, "uk")):
        view = replay_view(finished, seat, None, translator(lang))
        whole = json.dumps(view, ensure_ascii=False)
        assert finished.deal.seed not in whole and "seed" not in whole
        assert set(view["deal"]) == {"game", "commitment", "short"}
        assert not view["hands_shown"]
        seen = set(public)  # the cards this viewer ever saw
        for step, position in zip(view["steps"], positions, strict=True):
            state = position.state
            others = {str(c) for s in range(state.players) if s != seat for c in state.hand(s)}
            assert not named(step, others, lang), f"step {step['index']} names another's card"
            assert all("hand" not in player for player in step["players"])
            seen |= set(step["hand"])
        never = dealt - seen
        unseen += len(never)
        assert not cards_in(view) & never
        tr = translator(lang)
        assert not {c for c in never if card_label(Card.parse(c), tr) in whole}
    assert unseen, "a game where each saw every card tests nothing here"


async def test_with_hands_shown_every_hand_and_the_deal_are_there(site: Site) -> None:
    finished = await finished_game(site, show_hands_after=True)
    view = replay_view(finished, 1, None, translator("uk"))
    for step, position in zip(view["steps"], steps(finished), strict=True):
        for seat, player in enumerate(step["players"]):
            assert player["hand"] == hand_codes(position.state, seat)
    deal = view["deal"]
    assert deal["seed"] == SEED and deal["commitment"] == commitment(SEED, finished.game_id)
    assert deal["short"] == short(deal["commitment"])
    assert deal["players"] == record_names(finished.players)
    start = finished.deal.start
    assert deal["stock"] == [str(card) for card in start.stock]
    record = {
        "rules": deal["rules"], "players": deal["players"], "dealer": deal["dealer"],
        "hands": deal["hands"], "stock": deal["stock"], "trump": deal["trump"], "actions": [],
        "deal": {"game": deal["game"], "seed": deal["seed"], "commitment": deal["commitment"]},
    }  # fmt: skip
    assert verify(record).ok  # what the page checks is what engine.verify checks


async def test_a_step_tells_what_happened_in_the_chats_words(site: Site) -> None:
    finished = await finished_game(site)
    tr = translator("ru")
    view = replay_view(finished, 0, None, tr)
    first, last = view["steps"][0], view["steps"][-1]
    assert first["title"] == tr.t("replay-page-dealt-title")
    dealer = finished.players[finished.deal.start.dealer].name
    assert first["lines"][0].startswith(dealer)
    moves = len(view["steps"]) - 1
    assert view["steps"][1]["title"] == tr.t("replay-page-step", move=1, moves=moves)
    state = list(steps(finished))[-1].state
    assert state.durak is not None and last["finished"]
    durak = finished.players[state.durak].name
    assert last["lines"][-1] == tr.t("event-game-over-durak", name=durak)
    assert last["players"][state.durak]["durak"]


async def test_r_rev_1_in_reversed_the_viewers_own_hand_is_backs_unless_turned_over(
    site: Site,
) -> None:
    """A blind game (R-REV-1): a seat never saw its own hand, so its replay shows a back a
    slot; with the hands turned over after the game, every hand in slot order (R-BLIND-2)."""
    rules = HouseRules(blind=Blind.REVERSED)
    hidden = await finished_game(site, show_hands_after=False, rules=rules)
    tr = translator("ru")
    view = replay_view(hidden, 0, None, tr)
    assert view["blind"] == "reversed"
    positions = list(steps(hidden))
    for step, position in zip(view["steps"], positions, strict=True):
        assert step["hand"] == []
        assert step["hand_backs"] == [
            tr.t("webapp-slot-back", slot=slot + 1) for slot in range(len(position.state.rows[0]))
        ]
        others = {str(c) for c in position.state.hand(1)}
        assert not named(step, others, "ru")
    shown = await finished_game(site, show_hands_after=True, rules=rules, chat=CHAT - 1)
    turned = replay_view(shown, 0, None, tr)
    for step, position in zip(turned["steps"], steps(shown), strict=True):
        assert step["hand"] == [str(card) for card in position.state.rows[0]]
        assert step["hand_backs"] == []


# -- the review's moments -----------------------------------------------------------------------


def review_of(finished: FinishedGame, seat: int, count: int = 2) -> dict[str, Any]:
    """A review of ``seat``'s first ``count`` decisions, each costing something."""
    names = record_names(finished.players)
    moments: list[dict[str, Any]] = []
    for position in steps(finished):
        action = position.action
        if action is None or action.player != seat or len(moments) == count:
            continue
        moments.append(
            {"index": position.index, "played": action_to_dict(action, names),
             "preferred": {"p": names[seat], "a": "take"}, "before": 0.61, "after": 0.437}
        )  # fmt: skip
    return {"game": finished.game_id, "decisions": 10, "moments": moments}


async def test_the_reviews_moments_sit_on_the_step_after_their_action(site: Site) -> None:
    finished = await finished_game(site)
    review = review_of(finished, 0)
    tr = translator("ru")
    view = replay_view(finished, 0, review, tr)
    assert len(view["moments"]) == 2
    for moment, raw in zip(view["moments"], review["moments"], strict=True):
        assert moment["step"] == raw["index"] + 1
        assert view["steps"][moment["step"]]["index"] == raw["index"]
        assert view["steps"][moment["step"]]["actor"] == 0
        assert (moment["before"], moment["after"]) == (61, 44)
        assert moment["text"] == tr.t(
            "review-moment",
            move=raw["index"] + 1,
            played=action_words(raw["played"], tr),
            preferred=action_words(raw["preferred"], tr),
            before=61,
            after=44,
        )
    assert view["moments"][0]["text"].startswith(f"Ход {review['moments'][0]['index'] + 1}: ")
    assert replay_view(finished, 0, None, tr)["moments"] == []


# -- the endpoint -------------------------------------------------------------------------------


async def test_a_player_gets_their_replay_with_their_review(site: Site) -> None:
    finished = await finished_game(site)
    storage = site.service.storage
    await storage.reviews.save(CHAT, finished.game_id, BORIS.user_id, review_of(finished, 1))
    response = await site.client.get(
        "/api/replay",
        params={"chat": str(CHAT), "game": finished.game_id},
        headers=init_for(BORIS.user_id, "uk"),
    )
    assert response.status == 200
    assert response.headers["Cache-Control"] == "no-store"
    body = await response.json()
    assert body["you"] == 1 and body["lang"] == "uk" and len(body["moments"]) == 2
    assert body == json.loads(json.dumps(replay_view(finished, 1, review_of(finished, 1),
                                                     translator("uk"))))  # fmt: skip
    page = await site.client.get("/replay", params={"chat": str(CHAT), "game": "x"})
    assert page.status == 200 and "static/replay.js" in await page.text()


async def test_anybody_who_did_not_play_learns_nothing_not_even_that_the_game_exists(
    site: Site,
) -> None:
    """A member of the group who watched, a stranger, and a player asking for a game that is
    not kept (another id, another chat) all get the same 404; a bad ``initData`` the 401."""
    finished = await finished_game(site)

    async def ask(user_id: int, chat: int, game: str) -> tuple[int, str]:
        response = await site.client.get(
            "/api/replay", params={"chat": str(chat), "game": game}, headers=init_for(user_id)
        )
        return response.status, await response.text()

    refused = await ask(ANNA.user_id, CHAT, "nosuch")
    assert refused[0] == 404
    assert json.loads(refused[1]) == {"text": translator("ru").t("replay-page-not-found")}
    assert await ask(MEMBER, CHAT, finished.game_id) == refused
    assert await ask(STRANGER, CHAT, finished.game_id) == refused
    assert await ask(ANNA.user_id, CHAT - 7, finished.game_id) == refused
    unsigned = await site.client.get(
        "/api/replay", params={"chat": str(CHAT), "game": finished.game_id}
    )
    assert unsigned.status == 401
    for params in ({"chat": "x", "game": finished.game_id}, {"chat": str(CHAT)}):
        malformed = await site.client.get(
            "/api/replay", params=params, headers=init_for(ANNA.user_id)
        )
        assert malformed.status == 400


# -- the links ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "page"),
    [
        ("https://durak.example/app/", "https://durak.example/app/replay?chat=-100123&game=Ab-_9z"),
        (
            "https://durak.example/app/index.html",
            "https://durak.example/app/replay?chat=-100123&game=Ab-_9z",
        ),
        ("https://durak.example/", "https://durak.example/replay?chat=-100123&game=Ab-_9z"),
        (
            "https://durak.example/app/?v=2",
            "https://durak.example/app/replay?v=2&chat=-100123&game=Ab-_9z",
        ),
    ],
)
def test_the_replay_page_lies_beside_the_tables(url: str, page: str) -> None:
    assert TableLinks(url).replay_page(-100123, "Ab-_9z") == page


@pytest.mark.parametrize(("chat", "game"), [(-1001234567890, "Ab-_9z"), (42, "_x_"), (-1, "Z")])
def test_a_replays_start_param_carries_its_chat_and_game(chat: int, game: str) -> None:
    param = replay_start_param(chat, game)
    assert len(param) <= 64 and all(c.isascii() and (c.isalnum() or c in "_-") for c in param)
    assert read_replay_start_param(param) == (chat, game)
    assert TableLinks("https://x/", DIRECT).replay_link(chat, game) == f"{DIRECT}?startapp={param}"
    assert read_replay_start_param(str(chat)) is None  # a table's own: just the chat


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_replay_button_is_the_page_in_private_and_the_direct_link_in_groups(
    lang: str,
) -> None:
    tr = translator(lang)
    links = TableLinks("https://durak.example/app/", DIRECT)
    private = replay_button(links, 5, "Ab-_9z", tr, private=True)
    assert private is not None and private.web_app is not None and private.url is None
    assert private.text == tr.t("button-replay") == "▶️ Повтор"
    assert private.web_app.url == links.replay_page(5, "Ab-_9z")
    group = replay_button(links, -100123, "Ab-_9z", tr, private=False)
    assert group is not None and group.web_app is None
    assert group.url == f"{DIRECT}?startapp=rm100123_Ab-_9z"
    assert replay_button(TableLinks("https://x/"), -100123, "g", tr, private=False) is None
    assert replay_button(None, 5, "g", tr, private=True) is None
