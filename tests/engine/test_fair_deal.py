"""A deal anyone can check (docs/FAIR-DEAL.md): the seed's deck, the commitment, and
``python -m engine.verify``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import HouseRules, TrumpChoice, apply, legal_actions, new_game, to_act
from engine.cards import cards_of
from engine.deck_seed import SeedError, commitment, in_card_order, shuffled_deck
from engine.record import RecordError, export_record
from engine.verify import verify

DOC = Path(__file__).resolve().parents[2] / "docs" / "FAIR-DEAL.md"
SEED = bytes(range(32)).hex()
NAMES = ["ann", "bob", "cat", "dan"]


def finished_record(
    seed: str, game: str, players: int = 2, rules: HouseRules | None = None
) -> dict[str, Any]:
    """A whole game dealt from ``seed`` and played by the first legal action, as the bot
    exports it."""
    rules = rules or HouseRules()
    start = new_game(players, rules=rules, seed=seed, order=shuffled_deck(seed, rules.deck))
    state, actions = start, []
    while not state.finished:
        seat = to_act(state)[0]
        action = legal_actions(state, seat)[0]
        state, _ = apply(state, action)
        actions.append(action)
    record = export_record(start, actions, NAMES[:players])
    record["deal"] = {"game": game, "seed": seed, "commitment": commitment(seed, game)}
    return record


def test_the_documented_test_vector_holds() -> None:
    text = DOC.read_text(encoding="utf-8")
    vectors = dict(re.findall(r"^- (\d\d) cards: `([^`]+)`", text, re.MULTILINE))
    assert set(vectors) == {"24", "36", "52"}
    for size, cards in vectors.items():
        assert " ".join(map(str, shuffled_deck(SEED, int(size)))) == cards
    full = re.search(r"commitment for the game `abc123`:\s+`([0-9a-f]{64})`", text)
    assert full is not None and commitment(SEED, "abc123") == full.group(1)
    dealt = new_game(2, seed=SEED, dealer=1, order=shuffled_deck(SEED, 36))
    assert [str(card) for card in dealt.stock[-3:]] == ["8S", "AD", "AS"]
    hands = re.search(r"first player holds\s+`([^`]+)`, the dealer `([^`]+)`", text)
    assert hands is not None
    for seat, cards in enumerate(hands.groups()):
        assert set(cards.split()) == {str(card) for card in cards_of(dealt.hands[seat])}


def test_the_shuffle_moves_every_card_and_keeps_the_deck() -> None:
    for size in (24, 36, 52):
        deck = shuffled_deck(SEED, size)
        assert sorted(deck) == sorted(in_card_order(size)) and deck != in_card_order(size)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32).map(bytes.hex),
    game=st.text(min_size=1, max_size=8),
    players=st.integers(2, 4),
    trump=st.sampled_from([TrumpChoice.TURNED, TrumpChoice.NORTHERN, TrumpChoice.JAPANESE]),
)
def test_a_deal_from_its_seed_verifies(
    seed: str, game: str, players: int, trump: TrumpChoice
) -> None:
    verdict = verify(finished_record(seed, game, players, HouseRules(trump=trump)))
    assert verdict.ok, verdict.line
    assert verdict.line.startswith(f"ok: game {game}: the seed gives the commitment #")


def test_a_tampered_commitment_fails() -> None:
    record = finished_record(SEED, "abc123")
    record["deal"]["commitment"] = commitment(SEED, "abc124")
    verdict = verify(record)
    assert not verdict.ok and "commit to #580ca2, not to the record's" in verdict.line


def test_a_tampered_seed_fails() -> None:
    record = finished_record(SEED, "abc123")
    record["deal"]["seed"] = "ff" + SEED[2:]
    verdict = verify(record)
    assert not verdict.ok and "commit to" in verdict.line


def test_a_tampered_deck_fails() -> None:
    record = finished_record(SEED, "abc123")
    ann, stock = record["hands"]["ann"], record["stock"]
    ann[0], stock[0] = stock[0], ann[0]
    verdict = verify(record)
    assert not verdict.ok
    assert verdict.line.startswith("FAILED: the seed deals another game: ann would hold")


def test_a_record_that_does_not_start_at_the_deal_fails() -> None:
    record = finished_record(SEED, "abc123")
    record["bouts_played"] = 2
    assert verify(record).line == "FAILED: the record does not start at the deal"


def test_a_record_without_a_deal_or_with_a_bad_seed_is_malformed() -> None:
    record = finished_record(SEED, "abc123")
    del record["deal"]
    with pytest.raises(RecordError, match="no deal"):
        verify(record)
    record["deal"] = {"game": "abc123", "seed": "xyz", "commitment": "00"}
    with pytest.raises(RecordError, match=r"deal\.seed"):
        verify(record)
    with pytest.raises(SeedError):
        shuffled_deck("0" * 63, 36)


def test_the_command_says_it_in_one_line(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(finished_record(SEED, "abc123", 3)))
    bad = finished_record(SEED, "abc123", 3)
    bad["deal"]["commitment"] = "0" * 64
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(bad))
    broken = tmp_path / "broken.json"
    broken.write_text("{")

    def verify_file(path: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "engine.verify", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )

    ok, failed, malformed = verify_file(good), verify_file(tampered), verify_file(broken)
    assert (ok.returncode, failed.returncode, malformed.returncode) == (0, 1, 2)
    assert ok.stdout.count("\n") == 1 and ok.stdout.startswith("ok: game abc123")
    assert failed.stdout.startswith("FAILED: the seed and game abc123 commit to #")
    assert malformed.stdout == "" and malformed.stderr.startswith("engine.verify: not valid JSON")
