"""Checking a finished game's deck: ``python -m engine.verify RECORD``.

A record the bot exports at a game's end carries, beside GAME-RECORD.md's fields, the deal's
``"deal": {"game": ID, "seed": HEX, "commitment": HEX}``. The check recomputes the commitment
from the seed and the game id, the deck from the seed (``engine.deck_seed``), deals it as the
rules deal (R-DEAL-1..4, with the record's dealer) and compares the hands, the stock and the
trump with the record's start; then it replays the actions. It prints one line and exits 0
when everything matches, 1 when something does not (the line says what), 2 when the record
cannot be read.

    verdict = verify(json.loads(text))   # verdict.ok, verdict.line
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import Card, cards_of
from .deck_seed import SeedError, commitment, short, shuffled_deck
from .game import SetupError, new_game
from .record import Record, RecordError, load_record
from .replay import read_json, run
from .rules import TrumpChoice
from .state import GameState

EXIT_OK: Final = 0
EXIT_MISMATCH: Final = 1
EXIT_MALFORMED: Final = 2
USAGE: Final = "usage: python -m engine.verify RECORD (a finished game's record; - reads stdin)"


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether the record's deal follows from its seed, and the one line that says so."""

    ok: bool
    line: str


@dataclass(frozen=True, slots=True)
class Deal:
    """The record's ``deal``: the game id, the seed and the commitment the table showed."""

    game: str
    seed: str
    commitment: str


def verify(data: object) -> Verdict:
    """The verdict on a parsed record; ``RecordError`` when it is malformed or holds no
    ``deal``."""
    record = load_record(data)
    assert isinstance(data, dict)  # load_record checked it
    deal = read_deal(data.get("deal"))
    expected = commitment(deal.seed, deal.game)
    if expected != deal.commitment:
        return Verdict(
            False,
            f"FAILED: the seed and game {deal.game} commit to #{short(expected)}, "
            f"not to the record's #{short(deal.commitment)}",
        )
    start = record.start
    if start.bouts_played or start.discard or start.out:
        return Verdict(False, "FAILED: the record does not start at the deal")
    try:
        dealt = redeal(record, deal.seed)
    except SetupError as error:
        return Verdict(False, f"FAILED: the deck cannot be dealt so: {error}")
    differs = difference(dealt, start, record.names)
    if differs is not None:
        return Verdict(False, f"FAILED: the seed deals another game: {differs}")
    outcome = run(record)
    if not outcome.ok:
        assert outcome.error is not None
        return Verdict(
            False, f"FAILED: action {outcome.applied} is illegal: {outcome.error.message}"
        )
    cards = len(shuffled_deck(deal.seed, start.rules.deck))
    return Verdict(
        True,
        f"ok: game {deal.game}: the seed gives the commitment #{short(expected)} and the deal "
        f"({cards} cards, {start.players} players), and the {len(record.actions)} actions "
        "replay",
    )


def read_deal(raw: object) -> Deal:
    """The record's ``deal`` object, checked for shape."""
    if not isinstance(raw, dict):
        raise RecordError("the record holds no deal to check (its key 'deal')")
    fields = {}
    for key in ("game", "seed", "commitment"):
        value = raw.get(key)
        if not isinstance(value, str) or not value:
            raise RecordError(f"deal.{key} must be a text")
        fields[key] = value
    try:
        commitment(fields["seed"], fields["game"])
    except SeedError as error:
        raise RecordError(f"deal.seed: {error}") from None
    return Deal(fields["game"], fields["seed"], fields["commitment"].lower())


def redeal(record: Record, seed: str) -> GameState:
    """The game the seed deals at the record's table: its rules, players and dealer, the
    named trump under ``trump: dealer`` (R-TRUMP-1), the record's first attacker."""
    start = record.start
    rules = start.rules
    bout = start.bout
    return new_game(
        start.players,
        rules=rules,
        seed=seed,
        dealer=start.dealer,
        attacker=None if bout is None else bout.attacker,
        trump=start.trump if rules.trump is TrumpChoice.DEALER else None,
        game_number=start.game_number,
        order=shuffled_deck(seed, rules.deck),
    )


def difference(dealt: GameState, start: GameState, names: Sequence[str]) -> str | None:
    """What differs between the seed's deal and the record's start (None: nothing)."""
    for seat, name in enumerate(names):
        mine, theirs = _hand(dealt, seat), _hand(start, seat)
        if mine != theirs:
            return f"{name} would hold {_texts(mine)}, the record says {_texts(theirs)}"
    if dealt.stock != start.stock:
        return f"the stock would be {_texts(dealt.stock)}, the record says {_texts(start.stock)}"
    if dealt.trump != start.trump:
        return f"the trump would be {dealt.trump.letter}, the record says {start.trump.letter}"
    return None


def _hand(state: GameState, seat: int) -> Sequence[Card]:
    """A hand as dealt: in slot order in the blind family (R-BLIND-2), else sorted."""
    return state.rows[seat] if state.slots else tuple(cards_of(state.hands[seat]))


def _texts(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards) or "nothing"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        print(__doc__.strip() + "\n\n" + USAGE)
        return EXIT_OK
    try:
        if len(args) != 1:
            raise RecordError(USAGE)
        verdict = verify(read_json(args[0]))
    except RecordError as error:
        print(f"engine.verify: {error}", file=sys.stderr)
        return EXIT_MALFORMED
    print(verdict.line)
    return EXIT_OK if verdict.ok else EXIT_MISMATCH


if __name__ == "__main__":
    raise SystemExit(main())
