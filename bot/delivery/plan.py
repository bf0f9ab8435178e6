"""What each message of a game should show, and which messages must change: pure functions
of the game record and of what the messages show now.

A game has message slots: its table in the group (``t:<game>``) and each player's hand in
private (``h:<game>:<user>``). ``slots_of`` lists them without rendering anything; each
``Slot`` carries a ``key`` that changes whenever what it shows may change (the game's
version, and for a hand the card its player picked). ``to_change`` compares them with what
the messages show (``Seen``): the sender (``bot.delivery.lane``) renders a message only when
its key moved on, and only just before it may go (``bot.delivery.drafts``), so under load
the changes a message could not show in time merge into one edit of the newest position.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass

from bot.model import ChatGame, GameRecord, Phase
from bot.storage.outbox import Shown
from engine import Card

# Who goes first within the budget over all chats (``budget.PriorityGate``): messages a
# person waits on (their buttons when they must act now, their lobby), then the players'
# views while others move (computers included), then the group's table (everybody can
# follow the game in private), then one-off replies. Within a class chats take turns; a
# table or a reply that waited long rises to the front, the players' views never do.
ACTING, WATCHING, TABLE, NOTE = 0, 1, 2, 3

Picks = dict[int, tuple[int, Card]]
"""User -> (the move count when the card was picked, the card): the two-step cover."""


@dataclass(frozen=True, slots=True)
class Slot:
    """One message of a game. ``may_send``: post a new message if the slot has none yet
    (a finished game only edits the hands that exist; a stopped one only edits)."""

    name: str
    chat_id: int
    key: str
    may_send: bool
    priority: int
    user_id: int | None = None  # the player, for hand slots
    seat: int | None = None
    waiting: int = 1  # the people waiting on this message (its weight in the budget's turns)
    # Whose open Mini App page shows what this message would (``bot.webapp.presence``): a
    # player's hand, and a solo game's one message once dealt. While it is open the message
    # waits, and catches up when the page closes.
    reader: int | None = None


@dataclass(frozen=True, slots=True)
class Seen:
    """What is known of a chat's messages besides the game: what each shows (``shown``, by
    slot name), which players the bot may write to in private (``started``), and whose Mini
    App page is open, until when (``paged``, Unix time)."""

    shown: Mapping[str, Shown]
    started: Set[int]
    paged: Mapping[int, float]


def held(slot: Slot, seen: Seen) -> bool:
    """``slot``'s message waits whatever the position: its player cannot be written to, or
    its reader plays on the Mini App's page now (it catches up when the page closes)."""
    if slot.user_id is not None and slot.user_id not in seen.started:
        return True
    return slot.reader is not None and slot.reader in seen.paged


def shows(slot: Slot, seen: Seen) -> bool:
    """``slot``'s message shows its position (or there is none, and none may be sent)."""
    shown = seen.shown.get(slot.name)
    if shown is None:
        return not slot.may_send
    return shown.key == slot.key


def to_change(slots: list[Slot], seen: Seen) -> list[Slot]:
    """The messages that must change to show their position, in the order of ``slots``."""
    return [slot for slot in slots if not held(slot, seen) and not shows(slot, seen)]


def table_slot(game_id: str) -> str:
    return f"t:{game_id}"


def hand_slot(game_id: str, user_id: int) -> str:
    return f"h:{game_id}:{user_id}"


def current_pick(record: GameRecord, user_id: int, picks: Picks) -> Card | None:
    """The card the player picked to cover with, while the position it was picked in lasts."""
    state = record.game.state
    picked = picks.get(user_id)
    if picked is None or state is None or record.game.phase is not Phase.PLAYING:
        return None
    moves, card = picked
    return card if moves == state.moves else None


def slots_of(record: GameRecord, picks: Picks) -> list[Slot]:
    """Every message slot of ``record``'s game, nothing rendered."""
    game = record.game
    if game.private:
        return _private_slots(record, picks)
    version = str(game.version)
    stopped = record.stopped_by is not None
    slots = [
        Slot(
            table_slot(game.game_id),
            game.chat_id,
            version,
            may_send=not stopped,
            priority=TABLE,
        )
    ]
    if record.gone:  # the bot can no longer write to the group: only the hands change
        slots = []
    state = game.state
    if state is None:
        return slots
    playing = game.phase is Phase.PLAYING
    acting = set(state.acting) if playing else set()
    people = sum(not player.computer for player in game.players)
    for seat, player in enumerate(game.players):
        if player.computer:  # no private chat: it plays through ``ComputerTurns``
            continue
        picked = current_pick(record, player.user_id, picks)
        slots.append(
            Slot(
                hand_slot(game.game_id, player.user_id),
                player.user_id,
                version if picked is None else f"{version}:{picked}",
                may_send=playing,
                priority=ACTING if seat in acting else WATCHING,
                user_id=player.user_id,
                seat=seat,
                waiting=people if seat in acting else 1,  # the table waits for its move
                reader=player.user_id,
            )
        )
    return slots


def _private_slots(record: GameRecord, picks: Picks) -> list[Slot]:
    """A game in a person's private chat has one message: the lobby, then the person's
    whole view of the table with their buttons (``table_slot``, so it is the same message),
    outside any group's budget."""
    game = record.game
    if record.gone:  # the person blocked the bot
        return []
    key, seat, reader = str(game.version), None, None
    person = person_seat(game)
    if game.state is not None and game.phase is not Phase.LOBBY and person is not None:
        seat, reader = person, game.players[person].user_id
        picked = current_pick(record, reader, picks)
        key = key if picked is None else f"{key}:{picked}"
    may_send = record.stopped_by is None
    priority = ACTING if _person_waits(record, person) else WATCHING
    name = table_slot(game.game_id)
    return [Slot(name, game.chat_id, key, may_send, priority, seat=seat, reader=reader)]


def _person_waits(record: GameRecord, person: int | None) -> bool:
    """Whether the person of a private game waits on its message: the lobby shows their own
    presses, and in play their buttons when they must act. While only computers move, or
    once the game is over, the message is news, not a wait."""
    game, state = record.game, record.game.state
    if record.stopped_by is not None:
        return False
    if game.phase is Phase.LOBBY:
        return True
    return game.phase is Phase.PLAYING and state is not None and person in state.acting


def person_seat(game: ChatGame) -> int | None:
    """The seat of the person in a private game (the others are computers)."""
    return next((seat for seat, p in enumerate(game.players) if not p.computer), None)


def player_slot(game: ChatGame, user_id: int) -> str:
    """The slot of the message that shows ``user_id`` their hand."""
    return table_slot(game.game_id) if game.private else hand_slot(game.game_id, user_id)
