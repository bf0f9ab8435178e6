"""Computer players at blind tables (RULES.md section 14) are honest (R-BLIND-6): swapping
the cards a seat cannot see (its own unseen slots in ``reversed`` and ``chinese``, the
others' unseen cards, the face-down cards it did not lay, the stock, the covers believed
unseen) leaves its view and every level's decision with the same seed as they were. And
they play every blind game to its end."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import Blind, GameState, HouseRules, apply, legal_actions, new_game, to_act, view_for
from engine.ai import choose_action
from engine.ai.blind import blind_knowledge, blind_world
from engine.cards import Card, cards_of

BLINDS = [Blind.REVERSED, Blind.CHINESE, Blind.DOUBT]
LEVELS = ["easy", "normal", "hard"]


def positions(blind: Blind, count: int, seed: int) -> list[tuple[GameState, int]]:
    """Positions of random blind games, each with a seat that acts there."""
    rng = random.Random(seed)
    found: list[tuple[GameState, int]] = []
    while len(found) < count:
        state = new_game(
            rng.randint(2, 4), rules=HouseRules(blind=blind), seed=rng.randrange(2**32)
        )
        for _ in range(rng.randrange(60)):
            if state.finished:
                break
            seat = rng.choice(to_act(state))
            state, _ = apply(state, rng.choice(legal_actions(state, seat)))
        if not state.finished:
            found.append((state, rng.choice(to_act(state))))
    return found


def permute_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """``state`` with every card hidden from ``seat`` moved to the place of another one."""
    data: dict[str, Any] = state.to_dict()
    blind = state.rules.blind
    rows = [text.split() for text in data["hands"]]
    # What everybody saw go into a hand counts while it is still there: the rest of it
    # (cards since played) says nothing about where a hidden card may go.
    known = [state.known[s] & state.hands[s] for s in range(state.players)]
    data["known"] = [" ".join(str(c) for c in cards_of(mask)) for mask in known]
    places: list[tuple[list[str], int]] = []
    for holder, row in enumerate(rows):
        sees = (holder == seat) == (blind is Blind.DOUBT)
        if blind is Blind.CHINESE or not sees:
            places += [
                (row, i) for i, name in enumerate(row) if not known[holder] >> _card(name) & 1
            ]
    stock = data["stock"].split()
    face_up = None if state.trump_card is None else str(state.trump_card)
    places += [(stock, i) for i, name in enumerate(stock) if name != face_up]
    bout = data.get("bout")
    down = set(data.get("down", "").split())
    table: list[str] = []
    if bout is not None:
        table = bout["attacks"].split() + bout["covers"].split()
        defender = bout["d"]
        for i, name in enumerate(table):
            if name in down and not (blind is Blind.DOUBT and seat == defender):
                places.append((table, i))
    unseen = data.get("unseen", "").split()
    places += [(unseen, i) for i in range(len(unseen))]
    cards = [where[i] for where, i in places]
    rng.shuffle(cards)
    for (where, i), name in zip(places, cards, strict=True):
        where[i] = name
    data["hands"] = [" ".join(row) for row in rows]
    data["stock"] = " ".join(stock)
    if bout is not None:
        count = len(bout["attacks"].split())
        bout["attacks"], bout["covers"] = " ".join(table[:count]), " ".join(table[count:])
        on_table = set(table)
        data["down"] = " ".join(
            sorted(c for c in cards if c in on_table)
            + [c for c in down if c in on_table and c not in cards]
        )
        if not data["down"]:
            data.pop("down")
    discard = set(data["discard"].split()) - set(data.get("unseen", "").split()) | set(unseen)
    data["discard"] = " ".join(sorted(discard))
    if unseen:
        data["unseen"] = " ".join(unseen)
    return GameState.from_dict(data)


def _card(name: str) -> int:
    return int(Card.parse(name))


@pytest.mark.parametrize("blind", BLINDS)
@pytest.mark.parametrize("level", LEVELS)
def test_r_blind_6_hidden_cards_never_change_a_decision(blind: Blind, level: str) -> None:
    rng = random.Random(3)
    compared = 0
    for index, (state, seat) in enumerate(positions(blind, 8, seed=4)):
        before = choose_action(state, seat, level, seed=index, iterations=8)
        for _ in range(3):
            other = permute_hidden(state, seat, rng)
            assert view_for(other, seat) == view_for(state, seat)
            assert choose_action(other, seat, level, seed=index, iterations=8) == before
            compared += 1
    assert compared == 24


def test_the_swaps_move_cards() -> None:
    """The test above can fail: its swaps change the hidden cards' places."""
    rng = random.Random(1)
    moved = 0
    for state, seat in positions(Blind.REVERSED, 8, seed=2):
        other = permute_hidden(state, seat, rng)
        moved += other.rows[seat] != state.rows[seat]
    assert moved >= 6


def test_r_doubt_3_the_record_survives_copies_and_every_world() -> None:
    """R-DOUBT-3: the defenders' records are public, so a copy of the position and every
    world ``hard`` deals from a seat's view keep them (and the judgment that reads them)."""
    rng = random.Random(5)
    for played, seat in positions(Blind.DOUBT, 4, seed=6):
        data = played.to_dict()
        data["doubted"] = [3 + s for s in range(played.players)]
        data["caught"] = list(range(played.players))
        state = GameState.from_dict(data)
        position = state.position()
        assert GameState(position.copy()).doubted == state.doubted
        knowledge = blind_knowledge(view_for(state, seat), state.discard & ~state.unseen)
        world = GameState(blind_world(knowledge, rng))
        assert (world.doubted, world.caught) == (state.doubted, state.caught)
