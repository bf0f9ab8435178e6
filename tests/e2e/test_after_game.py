"""After a game, through the real bot and the fake Telegram: the deck's commitment on the
table from the game's first message, a seed nobody could read before the end, the record
with its deck checked («Проверить колоду», ``/replay``), and the review («Разбор») in
private (docs/FAIR-DEAL.md)."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.i18n import private_language, translator
from bot.model import FinishedGame
from bot.ui.callbacks import LobbyOp
from engine.deck_seed import commitment, short
from engine.verify import verify

from .conftest import World, open_world
from .harness import plain

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

RU = translator("ru")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    """The production budget per group, and reviews made in a thread of the bot's own
    process: a pool process at the lowest priority may wait long on a busy test machine
    (``tests/bot/test_reviews.py`` checks the pool's priority)."""
    async for opened in open_world(
        redis_url,
        lambda: tmp_path_factory.mktemp("bot"),
        MESSAGES_PER_SECOND="500",
        REVIEW_PROCESSES="0",
    ):
        yield opened


async def kept(world: World, chat_id: int, game_id: str) -> FinishedGame:
    raw = await world.redis.get(world.keys.finished(chat_id, game_id))
    assert raw is not None, "the finished game was not kept"
    return FinishedGame.from_dict(json.loads(raw))


async def test_the_deck_is_promised_first_and_its_seed_shown_only_at_the_end(
    world: World,
) -> None:
    table = world.table(2)
    dealt = await table.start_game()
    game_id, promised = dealt.game.game_id, dealt.game.commitment
    assert promised is not None
    line = plain(RU.t("table-deck", commitment=short(promised)))
    # The table's first message of the game, and each player's, already promise the deck.
    await table.settled()
    first = table.table_message(dealt)
    assert first is not None and line in (first.text or "")
    for player in table.players:
        hand = table.hand_message(dealt, player)
        assert hand is not None and line in (hand.text or "")
    record = await table.play_to_end(random.Random(5))
    await table.says_game_over()
    finished = await kept(world, table.group.id, game_id)
    seed = finished.deal.seed
    assert commitment(seed, game_id) == promised

    # Nobody could read the seed: no message in any chat, no version of one, no log line.
    texts = [
        text
        for chat in world.fake.world.chats.values()
        for message in world.fake.messages(chat, include_deleted=True)
        for text in (message.text, *(version.text for version in message.history))
        if text
    ]
    assert texts and not any(seed in text for text in texts)
    assert seed not in world.bot.log()

    # «Проверить колоду»: the record, as a file, and its check in one line; Telegram failing
    # to take the file at first (a server error, then "retry after") only delays it.
    end = table.table_message(record)
    assert end is not None
    since = world.fake.last_message_id(table.group)
    world.fake.server_error("sendDocument", times=1)
    world.fake.too_many_requests("sendDocument", retry_after=1, times=1)
    await table.press_lobby(table.players[1], end, LobbyOp.VERIFY)
    sent = await world.fake.wait_for(
        lambda: next(
            (
                m
                for m in world.fake.messages(table.group)
                if m.message_id > since and m.document is not None
            ),
            None,
        ),
        timeout=90,  # the group's budget: the game's last moves spent it
    )
    assert sent.document is not None and sent.document.file_name == f"durak-{game_id}.json"
    assert RU.t("verify-ok", commitment=short(promised)) in (sent.text or "")
    exported = json.loads(sent.document.content)
    assert exported["deal"] == {"game": game_id, "seed": seed, "commitment": promised}
    assert verify(exported).ok
    failed = [call for call in world.fake.calls("sendDocument") if not call.ok]
    assert len(failed) == 2

    # «Разбор»: the presser's review, in their private chat.
    person = table.players[0]
    tr = translator(private_language(person.language_code))
    private = world.fake.private_chat(person)
    before = world.fake.last_message_id(private)
    answer = await table.press_lobby(person, end, LobbyOp.REVIEW)
    assert answer == tr.t("review-queued", ahead=0)
    # «📈 Разбор игры <id>», then the costliest moments, or that none cost much.
    heading = plain(tr.t("review-clean", game=game_id, decisions=1)).split(":")[0]
    review = await world.fake.wait_for_bot_message(private, heading, since=before, timeout=120)
    assert review.text is not None and review.text.startswith(heading)
    kept_review = await world.redis.get(world.keys.review(table.group.id, game_id, person.id))
    assert kept_review is not None


async def test_a_table_that_hides_the_hands_keeps_its_record_to_itself(world: World) -> None:
    table = world.table(2)
    await table.all_start_bot()
    await table.set_rule("show_hands_after", "off")
    await table.gather()
    await table.deal()
    record = await table.play_to_end(random.Random(6))
    await table.says_game_over()
    end = table.table_message(record)
    assert end is not None
    answer = await table.press_lobby(table.players[0], end, LobbyOp.VERIFY)
    assert answer == RU.t("verify-hidden")
    since = world.fake.last_message_id(table.group)
    world.fake.user_sends(table.players[1], table.group, "/replay")
    # A reply waits for the group's budget, which the game's last moves spent.
    reply = await world.fake.wait_for_bot_message(
        table.group, plain(RU.t("replay-hands-hidden")), since=since, timeout=90
    )
    assert reply.document is None
