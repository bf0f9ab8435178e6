"""Why a service call changed nothing, as the name of the text that says so.

A ``Reason``'s value names its message in each place it can be said: a reply to a command
(``reply-<reason>``), a press's pop-up (``answer-<reason>``), the private chat's answer to
a join link (``start-<reason>``); ``bot.ui.refusals`` turns it into text. The engine's
refusals keep their own codes (``engine.Code``, said as ``error-<code>``)."""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    EXISTS = "exists"  # a lobby or game is already running in this chat
    NEED_START = "need-start"  # the user must start the bot in private first
    ALREADY_JOINED = "already-joined"
    LOBBY_FULL = "lobby-full"
    NO_LOBBY = "no-lobby"
    GAME_RUNNING = "game-running"  # joining or leaving a lobby while cards are played
    NOT_JOINED = "not-joined"
    # Only the lobby's creator or a group admin may do that: the text names the action.
    NOT_ALLOWED_START = "not-allowed-start"
    NOT_ALLOWED_STOP = "not-allowed-stop"
    NOT_ALLOWED_REMOVE_COMPUTER = "not-allowed-remove-computer"
    TOO_FEW = "too-few"
    # The chat's teams cannot be played by the number seated (R-TEAM-1): one reason per
    # ``teams`` value, whose text says which numbers can and how to fix it.
    TEAMS_PAIRS_COUNT = "teams-pairs-count"
    TEAMS_TRIPLES_COUNT = "teams-triples-count"
    NO_PERSON = "no-person"  # a game needs at least one person
    NO_COMPUTER = "no-computer"  # no computer player to remove
    NO_GAME = "no-game"
    NO_TEAMS = "no-teams"  # a team chosen where the rules have none
    NOT_DEALER = "not-dealer"  # a suit pressed by anybody but the dealer (R-TRUMP-1)
    STALE_LOBBY = "stale-lobby"  # a lobby or table button of another game
    NOT_PLAYER = "not-player"
    BAD_LINK = "bad-link"  # a join link that names no game
    NOT_MEMBER = "not-member"  # a join link followed by someone not in the group
    STALE = "stale"  # a hand keyboard of an older position or game
    MALFORMED = "malformed"  # an action code no button of ours carries
    GAME_OVER = "game-over"
    # Said to nobody: the same press again (its first delivery was answered), and a turn
    # deadline that moved on (the sweeper's business).
    DUPLICATE = "duplicate"
    NOT_DUE = "not-due"
