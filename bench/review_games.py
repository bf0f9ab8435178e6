"""Reviews («Разбор») waiting in the bot while a load runs (``bench.load --reviews N``).

``play_games(n, seed)`` plays ``n`` whole games of two seats with the engine alone, each dealt
as the bot deals (a seed of 64 hex digits, its deck ``engine.deck_seed.shuffled_deck``) and
both seats moved by ``normal`` (``engine.ai.choose_action``), the actions kept as engine codes.
``Reviewers.ask`` gives each game a person of its own: the game becomes one the person played
alone in their private chat (chat id = their user id; seat 0 the person, seat 1 a ``normal``
computer), kept where the bot keeps finished games (``FinishedStore.queue_keep``), and the
person presses Start with the link that asks for its review (``/start r<chat>_<game>``,
``review_payload``); it returns once the bot said to each of them that their review is in
line («📈 Разбор в очереди...»). ``Reviewers.delivered`` then tells when each review reached
the fake (the bot's message to the person that begins «📈 Разбор игры»).

The bot makes reviews in a pool of its own at the lowest CPU priority (``os.nice(19)``,
``bot.services.reviews``): ``review_pids`` tells its processes from the computers' pool by
their nice value, higher than the bot's (unless the bot itself runs at 19).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from redis.asyncio import Redis

from bot.config import Settings
from bot.i18n import translator
from bot.model import ChatGame, ChatSettings, Deal, Phase, Seat
from bot.services.replays import review_payload
from bot.storage.finished import FinishedStore
from bot.storage.keys import Keys
from bot.storage.tx import Writes
from engine import GameState, apply, new_game
from engine.ai import choose_action, who_acts
from engine.codes import encode
from engine.deck_seed import commitment, shuffled_deck
from tests.e2e.fake_telegram import CallRecord, FakeTelegram, FakeUser
from tests.e2e.fake_telegram.world import FLOOD_COUNTED_METHODS

LEVEL: Final = "normal"  # both seats' play, and the computer's seat in the kept game
LANGUAGE: Final = "ru"  # the reviewers' language
RECORDS_TTL: Final = int(Settings.model_fields["records_days"].default) * 86_400
ANSWERED_WITHIN: Final = 120.0  # seconds for the bot to say a review is in line
_GAME: Final = "\x00"  # stands for the game id in a message, to cut what comes before it


@dataclass(frozen=True, slots=True)
class Played:
    """A whole game: its seed, the dealt position and every action as an engine code."""

    seed: str
    start: GameState
    actions: list[int]


def play_games(count: int, seed: int) -> list[Played]:
    """``count`` games of two ``normal`` seats, the same for the same ``seed``."""
    return [
        play(hashlib.sha256(f"review {seed} {index}".encode()).hexdigest())
        for index in range(count)
    ]


def play(seed: str) -> Played:
    """One game dealt from ``seed`` (64 hex digits) and played to its end."""
    rules = ChatSettings().rules
    start = state = new_game(2, rules=rules, seed=seed, order=shuffled_deck(seed, rules.deck))
    actions: list[int] = []
    while not state.finished:
        action = choose_action(state, who_acts(state), LEVEL, seed=f"{seed}:{state.moves}")
        actions.append(encode(action))
        state, _ = apply(state, action)
    return Played(seed, start, actions)


def kept_game(played: Played, person: FakeUser) -> ChatGame:
    """``played`` as the game ``person`` played alone in private against a computer, ended."""
    game_id = played.seed[:6]
    deal = Deal(played.seed, played.start, list(played.actions))
    return ChatGame(
        chat_id=person.id,
        game_id=game_id,
        creator_id=person.id,
        settings=ChatSettings(rules=played.start.rules).played(private=True),
        phase=Phase.FINISHED,
        players=[Seat(person.id, person.first_name, LANGUAGE), Seat(-1, "Бот", level=LEVEL)],
        deal=deal,
        commitment=commitment(played.seed, game_id),
    )


def _opening(message_id: str, **args: object) -> str:
    """What a message of the reviews says before the game's id."""
    return translator(LANGUAGE).t(message_id, game=_GAME, **args).partition(_GAME)[0].strip()


@dataclass
class Reviewers:
    """The people who asked for a review each, and the fake's calls to their chats."""

    fake: FakeTelegram
    people: list[FakeUser] = field(default_factory=list)
    asked_at: float = 0.0  # time.time() when the first asked, for the bot's log
    mark: int = 0  # the fake's call log from the asks on

    @property
    def chats(self) -> frozenset[int]:
        return frozenset(person.id for person in self.people)

    async def ask(self, redis: Redis, namespace: str, games: list[Played]) -> None:
        """Keep each of ``games`` for a new person, who then asks for its review (see the
        module's docstring); return once the bot answered each that it is in line."""
        fake = self.fake
        self.people = [
            fake.add_user(f"Разбор {index + 1}", username=f"r{index}", language_code=LANGUAGE)
            for index in range(len(games))
        ]
        kept = [
            kept_game(played, person) for played, person in zip(games, self.people, strict=True)
        ]
        store, writes = FinishedStore(redis, Keys(namespace), RECORDS_TTL), Writes()
        for game in kept:
            store.queue_keep(writes, game, time.time())
        await writes.send(redis)
        self.asked_at, self.mark = time.time(), fake.mark()
        tr = translator(LANGUAGE)
        queued = {tr.t("review-queued", ahead=ahead) for ahead in range(len(games) + 1)}
        review = _opening("review-clean", decisions=1)

        async def answered(person: FakeUser) -> None:
            chat = fake.private_chat(person)
            message = await fake.wait_for_bot_message(chat, timeout=ANSWERED_WITHIN)
            text = message.text or ""
            if text not in queued and not text.startswith(review):
                raise RuntimeError(f"{person.first_name} asked for a review, was told {text!r}")

        for person, game in zip(self.people, kept, strict=True):
            fake.user_starts_bot(person, review_payload(game.chat_id, game.game_id))
        await asyncio.gather(*(answered(person) for person in self.people))

    def calls(self, since: int = 0) -> list[CallRecord]:
        """The bot's calls about the reviewers' chats, from ``since`` (a ``fake.mark()``)."""
        chats = self.chats
        if not chats:
            return []
        return [call for call in self.fake.calls(since=since) if call.chat_id in chats]

    def sent(self, start: float, until: float) -> int:
        """Sends and edits the fake accepted in the reviewers' chats in ``[start, until)``."""
        return sum(
            1
            for call in self.calls(self.mark)
            if call.ok and call.method in FLOOD_COUNTED_METHODS and start <= call.at < until
        )

    def said(self, message_id: str) -> dict[int, float]:
        """Person -> when (``time.monotonic()``) the fake first had the bot's message
        ``message_id`` (of ``bot.app``'s reviews: ``review-clean`` for the review itself,
        whose opening ``review-title`` shares, or ``review-waiting``) in their chat."""
        opening = _opening(message_id, decisions=1)
        found: dict[int, float] = {}
        for call in self.calls(self.mark):
            text = str(call.params.get("text") or "")
            if call.ok and call.method == "sendMessage" and text.startswith(opening):
                assert call.chat_id is not None
                found.setdefault(call.chat_id, call.at)
        return found

    def delivered(self) -> dict[int, float]:
        """Person -> when their review reached the fake."""
        return self.said("review-clean")


class OtherActivity:
    """When the bot last called the Bot API (but ``getUpdates``) about a chat other than
    ``ignored``: a load's display settles whatever reviews are still being sent."""

    def __init__(self, fake: FakeTelegram, ignored: frozenset[int]) -> None:
        self.fake = fake
        self.ignored = ignored
        self.seen = fake.mark()
        self.at = fake.world.last_bot_activity

    def last(self) -> float:
        if not self.ignored:
            return self.fake.world.last_bot_activity
        for call in self.fake.calls(since=self.seen):
            if call.chat_id not in self.ignored:
                self.at = max(self.at, call.at)
        self.seen = self.fake.mark()
        return self.at


def nice_of(pid: int) -> int:
    """A process's nice value (Linux ``/proc``)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def review_pids(pool: list[int], bot_pids: list[int]) -> set[int]:
    """Of the processes the bot started (``pool``), those of the reviews' pool: niced above
    the bot (``bot.services.reviews`` lowers its own to the least priority)."""
    found: set[int] = set()
    with contextlib.suppress(OSError):
        bot = min(nice_of(pid) for pid in bot_pids)
        for pid in pool:
            with contextlib.suppress(OSError):
                if nice_of(pid) > bot:
                    found.add(pid)
    return found
