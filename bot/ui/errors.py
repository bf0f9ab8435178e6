"""Refusals in words. The engine's: one message per ``engine.Code`` (``locales/*/table.ftl``,
``error-*``); the ``match`` is checked by mypy: a new code fails type checking until it has
a message here, and ``tests/bot/test_locales.py`` checks that every message exists. The
bot's own (``bot.schema.refusals.Reason``): the reason names its message, with the prefix
of the place it is said in (``Said``); ``tests/bot/test_bot_texts.py`` checks those."""

from __future__ import annotations

from enum import StrEnum
from typing import assert_never

from bot.i18n import Translator
from bot.schema.refusals import Reason
from engine import Code

UNKNOWN = "error-unknown"  # no code (should not happen): "you cannot do that now"


def error_message_id(code: Code) -> str:
    """The message id for an engine ``IllegalAction.code``."""
    match code:
        case Code.GAME_OVER:
            return "error-game-over"
        case Code.UNKNOWN_PLAYER:
            return "error-unknown-player"
        case Code.PLAYER_OUT:
            return "error-player-out"
        case Code.UNKNOWN_ACTION:
            return "error-unknown-action"
        case Code.BOUT_ALREADY_OPENED:
            return "error-bout-already-opened"
        case Code.NOT_YOUR_TURN:
            return "error-not-your-turn"
        case Code.NO_CARDS:
            return "error-no-cards"
        case Code.UNKNOWN_CARD:
            return "error-unknown-card"
        case Code.DUPLICATE_CARD:
            return "error-duplicate-card"
        case Code.CARD_NOT_IN_HAND:
            return "error-card-not-in-hand"
        case Code.MIXED_RANKS:
            return "error-mixed-ranks"
        case Code.RANK_NOT_ON_TABLE:
            return "error-rank-not-on-table"
        case Code.ONLY_FIRST_RANK:
            return "error-only-first-rank"
        case Code.OVER_LIMIT:
            return "error-over-limit"
        case Code.BOUT_NOT_OPENED:
            return "error-bout-not-opened"
        case Code.DEFENDER_CANNOT_THROW:
            return "error-defender-cannot-throw"
        case Code.NOT_A_THROWER:
            return "error-not-a-thrower"
        case Code.ALREADY_PASSED:
            return "error-already-passed"
        case Code.ATTACKER_HAS_PRIORITY:
            return "error-attacker-has-priority"
        case Code.DEFENDER_CANNOT_PASS:
            return "error-defender-cannot-pass"
        case Code.NOT_DEFENDER:
            return "error-not-defender"
        case Code.ALREADY_TAKING:
            return "error-already-taking"
        case Code.NOTHING_TO_TAKE:
            return "error-nothing-to-take"
        case Code.NOT_UNCOVERED:
            return "error-not-uncovered"
        case Code.DOES_NOT_BEAT:
            return "error-does-not-beat"
        case Code.TRANSFER_DISABLED:
            return "error-transfer-disabled"
        case Code.TRANSFER_AFTER_COVER:
            return "error-transfer-after-cover"
        case Code.TRANSFER_RANK_MISMATCH:
            return "error-transfer-rank-mismatch"
        case Code.TRANSFER_TOO_MANY:
            return "error-transfer-too-many"
        case Code.TRANSFER_FIRST_BOUT:
            return "error-transfer-first-bout"
        case Code.EXCHANGE_DISABLED:
            return "error-exchange-disabled"
        case Code.EXCHANGE_TOO_LATE:
            return "error-exchange-too-late"
        case Code.NO_TRUMP_SIX:
            return "error-no-trump-six"
        case Code.EPAULETTE_ATTACK:
            return "error-epaulette-attack"
        case Code.QUEEN_OF_HEARTS_COVERED:
            return "error-queen-of-hearts-covered"
        case Code.HAND_UNSEEN:
            return "error-hand-unseen"
        case Code.SLOTS_NOT_PLAYED:
            return "error-slots-not-played"
        case Code.NO_SUCH_SLOT:
            return "error-no-such-slot"
        case Code.ATTACK_FACE_DOWN:
            return "error-attack-face-down"
        case Code.NO_THROW_IN:
            return "error-no-throw-in"
        case Code.NO_TAKE:
            return "error-no-take"
        case Code.TAKE_AFTER_COVER:
            return "error-take-after-cover"
        case Code.NOTHING_TO_JUDGE:
            return "error-nothing-to-judge"
        case _:
            assert_never(code)


def error_text(code: Code | None, tr: Translator) -> str:
    """Why the engine refused, in the reader's language."""
    return tr.t(UNKNOWN if code is None else error_message_id(code))


class Said(StrEnum):
    """Where a refusal is said, as the prefix of its message."""

    REPLY = "reply"  # a reply to a command, in its chat and language
    POPUP = "answer"  # a press's pop-up, which only the presser sees, in their language
    START = "start"  # the private chat's answer to a join link


def refusal_message_id(reason: Reason | Code, said: Said) -> str:
    """The message that says ``reason`` where it is ``said`` (the engine's the same
    everywhere)."""
    if isinstance(reason, Code):
        return error_message_id(reason)
    return f"{said}-{reason}"


def refusal_text(reason: Reason | Code, said: Said, tr: Translator) -> str:
    """Why nothing changed, in the reader's language."""
    return tr.t(refusal_message_id(reason, said))


def popup_text(reason: Reason | Code, tr: Translator) -> str | None:
    """What a press's pop-up (or a page's answer) says about ``reason``; None for a press
    delivered again, whose first delivery said what there was to say."""
    if reason is Reason.DUPLICATE:
        return None
    return refusal_text(reason, Said.POPUP, tr)
