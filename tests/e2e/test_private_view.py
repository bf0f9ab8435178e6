"""A whole game followed from the private messages alone: the real bot, the fake
Telegram with the production budget for the group (its table lags), a real Redis."""

from __future__ import annotations

import random
import re
import time
from functools import partial

import pytest

from bot.i18n import translator
from bot.model import ChatSettings, GameRecord, Phase
from bot.storage import SettingsStore
from bot.ui.board import TOLD_AT_THE_END, narrate
from bot.ui.common import card_label
from engine import Card

from .conftest import World
from .harness import Table, plain, shown_deadline

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

RU = translator("ru")
CARD = re.compile(r"(?:10|[2-9]|[ВДКТ])[♠♥♦♣]")  # a card as the Russian texts write it


def label(card: Card) -> str:
    return card_label(card, RU)


def public_cards(log: list[dict[str, object]]) -> set[str]:
    """Every card the log shows face up (played, covered, transferred, taken)."""
    seen: set[str] = set()
    for entry in log:
        for key in ("cards", "card", "on"):
            value = entry.get(key)
            for text in value if isinstance(value, list) else [value] if value else []:
                seen.add(label(Card.parse(str(text))))
    return seen


def hands_show(table: Table, record: GameRecord) -> bool:
    """Every hand message shows ``record`` (the group's table may still lag behind)."""
    return not [d for d in table.outdated(record) if not d.startswith("table:")]


def shown_deadlines(table: Table, record: GameRecord) -> list[float]:
    messages = [table.hand_message(record, table.by_id[p.user_id]) for p in record.game.players]
    return [d for d in map(shown_deadline, messages) if d is not None]


async def clock_started(table: Table, record: GameRecord) -> GameRecord:
    """``record`` once its turn clock started: the players who must act were shown their
    buttons, so the deadline moved from the move's time plus a grace to the delivery's."""
    latest = max(shown_deadlines(table, record))
    return await table.wait_record(
        lambda r: (
            r.game.version == record.game.version
            and r.deadline is not None
            and r.deadline < latest + 2
        ),
        timeout=5,
    )


async def test_a_three_player_game_can_be_followed_from_the_private_messages_alone(
    world: World,
) -> None:
    table = world.table(3)
    settings = SettingsStore(world.redis, world.keys, ChatSettings())
    await settings.set(table.group.id, ChatSettings(turn_timeout=60))
    await table.start_game()
    rng = random.Random(9)
    face_up: set[str] = set()
    positions = 0
    for _ in range(1000):
        record = await table.settled()
        await world.fake.wait_for(partial(hands_show, table, record), timeout=10)
        if record.game.phase is Phase.PLAYING:
            record = await clock_started(table, record)
        game, state = record.game, record.game.state
        assert state is not None
        face_up |= public_cards(game.log)
        if state.trump_card is not None:
            face_up.add(label(state.trump_card))
        if state.bout is not None:
            face_up |= {label(c) for pair in state.bout.pairs for c in pair if c is not None}
        now = time.time()
        for seat, player in enumerate(game.players):
            message = table.hand_message(record, table.by_id[player.user_id])
            assert message is not None and message.text is not None
            text = message.text
            lines = text.splitlines()
            tr = translator(player.language)
            if game.phase is Phase.PLAYING:
                for other, opponent in enumerate(game.players):
                    if other in state.out:
                        continue
                    mark = "👉" if other in state.acting else "▫️"
                    count = tr.t("cards-count", count=state.hands[other].bit_count())
                    assert any(
                        line.startswith(f"{mark} {opponent.name}") and count in line
                        for line in lines
                    ), f"{player.name} does not see {opponent.name}: {text}"
                deadlines = [e for e in message.entities if e["type"] == "date_time"]
                assert len(deadlines) == 1, text
                shown = deadlines[0]["unix_time"]
                assert record.deadline is not None
                # Never later than the real deadline, and not long before it.
                assert record.deadline - 3 <= shown <= record.deadline
                assert now + 50 <= shown <= now + 60
            told = [e for e in game.log if e["e"] not in TOLD_AT_THE_END]  # the end: below
            if told:
                assert plain(narrate(told[-1], game, tr)) in text
            if game.phase is Phase.FINISHED:
                assert state.durak is not None
                durak = game.players[state.durak].name
                if state.durak == seat:
                    durak = tr.t("player-you", name=durak)
                assert plain(tr.t("table-order-durak", name=durak, why="none")) in text
            own = {label(c) for c in state.hand(seat)}
            hidden = set(CARD.findall(text)) - own - face_up
            assert hidden == set(), f"{player.name} is shown {hidden}"
        positions += 1
        if game.phase is Phase.FINISHED:
            break
        await table.press_random(record, rng)
    assert positions > 20 and record.game.phase is Phase.FINISHED
    await table.says_game_over()
