"""Shared pieces of the service tests (real Redis, no Telegram): the players, a clock the
test sets, answers to "may the bot write to them?" / "is this an admin?", and shortcuts
that seat players, deal, or put the chat's running game into a given position."""

from __future__ import annotations

from bot.model import GameRecord
from bot.schema.refusals import Reason
from bot.services import Changed, GameService, Outcome, Player, PressOutcome, Refused, Viewed
from bot.storage.games import decode, encode
from engine import Card, Code, GameState, from_position
from engine.cards import deck_cards

CHAT = -1001
ANNA, BORIS, VERA, GLEB = (
    Player(i, name) for i, name in enumerate(["Аня", "Борис", "Вера", "Глеб"], 1)
)


def spoiled(record: GameRecord) -> GameRecord:
    """A copy of ``record`` as another writer leaves it: changed, as every real write of a
    game is (here, its turn deadline)."""
    other = decode(encode(record))
    other.deadline = (other.deadline or 0.0) + 1.0
    return other


class Clock:
    """``time.time`` for the service, moved on by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def yes() -> bool:
    return True


async def no() -> bool:
    return False


async def member(chat_id: int) -> bool:
    """Everybody is a member of every group (``join_by_link``'s question)."""
    return True


def reason_of(outcome: Outcome | PressOutcome | Viewed) -> Reason | Code | None:
    """Why ``outcome`` changed nothing; None if it is no refusal."""
    return outcome.reason if isinstance(outcome, Refused) else None


async def seated(service: GameService, *players: Player, chat: int = CHAT) -> GameRecord:
    """A lobby opened by the first player, the others joined; all started the bot."""
    for player in players:
        await service.storage.users.mark_started(player.user_id)
    outcome = await service.new_lobby(chat, players[0], can_message=no)
    for player in players[1:]:
        outcome = await service.join(chat, player, can_message=no)
    assert outcome.record is not None
    return outcome.record


async def dealt(service: GameService, *players: Player, chat: int = CHAT) -> GameRecord:
    """``seated``, then dealt by the lobby's creator."""
    await seated(service, *players, chat=chat)
    outcome = await service.start(chat, players[0].user_id, is_admin=no)
    assert isinstance(outcome, Changed) and outcome.record is not None
    return outcome.record


async def put_state(service: GameService, state: GameState, chat: int = CHAT) -> GameRecord:
    """The chat's running game continues from ``state`` (a test shortcut: the game is not
    the one its seed dealt any more, so it ends without a record)."""

    def decide(record: GameRecord | None) -> tuple[GameRecord, GameRecord]:
        assert record is not None
        record.game.state = state
        record.game.deal = None
        record.bout_from = 0
        return record, record

    return await service.games.update(chat, decide)


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def position(hands: list[str], trump: str, attacker: int) -> GameState:
    """An endgame: these hands, trump ``trump`` (a suit's letter), the stock empty, the rest
    of the 36 cards in the discard; seats without cards are out."""
    dealt = [cards(text) for text in hands]
    used = {card for hand in dealt for card in hand}
    rest = [card for card in deck_cards(36) if card not in used]
    return from_position(dealt, trump=Card.parse(f"6{trump}").suit, discard=rest, attacker=attacker)
