"""Why an action is illegal: ``IllegalAction`` and its stable ``Code``.

The codes are part of the engine's interface: the bot maps each one to a message (a
``match`` that mypy checks is complete), ``python -m engine.replay`` prints them, and tests
assert them. A code's value never changes; a new reason is a new member.
"""

from __future__ import annotations

from enum import StrEnum, unique


@unique
class Code(StrEnum):
    """A stable snake_case reason, one per rule an action can break."""

    GAME_OVER = "game_over"
    UNKNOWN_PLAYER = "unknown_player"
    PLAYER_OUT = "player_out"
    UNKNOWN_ACTION = "unknown_action"
    BOUT_ALREADY_OPENED = "bout_already_opened"
    NOT_YOUR_TURN = "not_your_turn"
    NO_CARDS = "no_cards"
    UNKNOWN_CARD = "unknown_card"
    DUPLICATE_CARD = "duplicate_card"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    MIXED_RANKS = "mixed_ranks"
    RANK_NOT_ON_TABLE = "rank_not_on_table"
    ONLY_FIRST_RANK = "only_first_rank"
    OVER_LIMIT = "over_limit"
    BOUT_NOT_OPENED = "bout_not_opened"
    DEFENDER_CANNOT_THROW = "defender_cannot_throw"
    NOT_A_THROWER = "not_a_thrower"
    ALREADY_PASSED = "already_passed"
    ATTACKER_HAS_PRIORITY = "attacker_has_priority"
    DEFENDER_CANNOT_PASS = "defender_cannot_pass"
    NOT_DEFENDER = "not_defender"
    ALREADY_TAKING = "already_taking"
    NOTHING_TO_TAKE = "nothing_to_take"
    NOT_UNCOVERED = "not_uncovered"
    DOES_NOT_BEAT = "does_not_beat"
    TRANSFER_DISABLED = "transfer_disabled"
    TRANSFER_AFTER_COVER = "transfer_after_cover"
    TRANSFER_RANK_MISMATCH = "transfer_rank_mismatch"
    TRANSFER_TOO_MANY = "transfer_too_many"
    TRANSFER_FIRST_BOUT = "transfer_first_bout"  # R-TR-4
    EXCHANGE_DISABLED = "exchange_disabled"  # R-SIX-1: the table plays without it
    EXCHANGE_TOO_LATE = "exchange_too_late"  # R-SIX-1: fewer than two cards in the stock
    NO_TRUMP_SIX = "no_trump_six"  # R-SIX-1: the player holds no lowest trump to give
    EPAULETTE_ATTACK = "epaulette_attack"  # R-POG-2: it can only be taken
    QUEEN_OF_HEARTS_COVERED = "queen_of_hearts_covered"  # R-TOP-2: nothing more thrown in
    # The blind family (RULES.md section 14).
    HAND_UNSEEN = "hand_unseen"  # R-BLIND-2: a player who cannot see their hand names slots
    SLOTS_NOT_PLAYED = "slots_not_played"  # a slot named where hands are seen
    NO_SUCH_SLOT = "no_such_slot"  # past the end of the hand
    ATTACK_FACE_DOWN = "attack_face_down"  # R-CHI-2: the attack card cannot be named
    NO_THROW_IN = "no_throw_in"  # R-CHI-2, R-DOUBT-1: nobody throws in
    NO_TAKE = "no_take"  # R-CHI-2: the defender answers with a card
    TAKE_AFTER_COVER = "take_after_cover"  # R-DOUBT-2: a take is made at once
    NOTHING_TO_JUDGE = "nothing_to_judge"  # R-DOUBT-3: only the attacker, once all is covered


class IllegalAction(ValueError):
    """An action the rules do not allow now. ``code`` says why, for programs; ``message``
    says it in English, for people."""

    def __init__(self, code: Code, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.code.value!r}, {self.message!r})"
