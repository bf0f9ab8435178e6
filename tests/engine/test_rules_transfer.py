"""RULES.md section 10: the transfer variant (R-TR-1..3), house rule `transfer`."""

from __future__ import annotations

from helpers import card, cards, house, of_type, play, position, refused

from engine import (
    Action,
    BeatenOff,
    BoutStarted,
    Drew,
    GameState,
    Took,
    Transfer,
    Transferred,
    legal_actions,
    to_act,
    view_for,
)

TRANSFER = house(transfer=True)


def transfers(state: GameState, seat: int) -> list[Action]:
    return [a for a in legal_actions(state, seat) if isinstance(a, Transfer)]


# --- R-TR-1 ------------------------------------------------------------------------------


def test_r_tr_1_transfer_makes_the_defender_the_attacker() -> None:
    """R-TR-1: before covering, the defender may put down a card of the attack rank: it
    becomes an attack card, the defender becomes the primary attacker and the next active
    player defends."""
    state = position("7H 9C", "7D 10C JC QC", "8H 9D 10H JH", trump="S", rules=TRANSFER)
    state, _ = play(state, "0: attack 7H")
    assert transfers(state, 1) == [Transfer(1, card("7D"))]
    state, events = play(state, "1: transfer with 7D")
    assert events == [Transferred(1, card("7D"), 2)]
    assert state.bout is not None
    assert (state.bout.attacker, state.bout.defender) == (1, 2)
    assert state.bout.pairs == ((card("7H"), None), (card("7D"), None))
    assert to_act(state) == (2,)
    state, events = play(state, "2: cover 7H with 8H", "2: cover 7D with 9D", "0: pass")
    assert sorted(of_type(events, BeatenOff)[0].cards) == sorted(cards("7H 7D 8H 9D"))
    assert of_type(events, BoutStarted) == [BoutStarted(2, 0, 1)]


def test_r_tr_1_no_transfer_after_a_cover_or_with_another_rank() -> None:
    """R-TR-1: only before any card of the bout is covered, only with the attack rank."""
    state = position("7H 7C", "8H 7D 10C JC", "9D 9H 10H JH", trump="S", rules=TRANSFER)
    state, _ = play(state, "0: attack 7H 7C")
    assert refused(state, "1: transfer with 10C") == "transfer_rank_mismatch"
    state, _ = play(state, "1: cover 7H with 8H")
    assert transfers(state, 1) == []
    assert refused(state, "1: transfer with 7D") == "transfer_after_cover"


def test_transfer_off_in_podkidnoy() -> None:
    """House rule transfer=off (the default): no transfers at all."""
    state = position("7H 9C", "7D 10C JC QC", "8H 9D 10H JH", trump="S")
    state, _ = play(state, "0: attack 7H")
    assert transfers(state, 1) == []
    assert refused(state, "1: transfer with 7D") == "transfer_disabled"


# --- R-TR-2 ------------------------------------------------------------------------------


def test_r_tr_2_new_defender_must_hold_enough_cards() -> None:
    """R-TR-2: a transfer needs the new defender to hold at least as many cards as there
    will be attack cards (two attack cards + the transfer = three)."""
    short = position("7H 7C", "7D 10C JC QC", "8H 9H", trump="S", rules=TRANSFER)
    short, _ = play(short, "0: attack 7H 7C")
    assert transfers(short, 1) == []
    assert refused(short, "1: transfer with 7D") == "transfer_too_many"
    enough = position("7H 7C", "7D 10C JC QC", "8H 9H 10H", trump="S", rules=TRANSFER)
    enough, events = play(enough, "0: attack 7H 7C", "1: transfer with 7D")
    assert events[1:] == [Transferred(1, card("7D"), 2)]
    assert view_for(enough, 0).limit == 3


# --- R-TR-3 ------------------------------------------------------------------------------


def test_r_tr_3_limit_recomputed_from_the_new_defender() -> None:
    """R-TR-3: the limit is recomputed from the new defender's hand at the transfer."""
    state = position("7H 7S 7C", "7D 10C JC QC KC AC", "8H 9H 10H", trump="D", rules=TRANSFER)
    assert view_for(state, 0).limit == 6
    state, _ = play(state, "0: attack 7H", "1: transfer with 7D")
    assert view_for(state, 0).limit == 3
    assert {str(a) for a in legal_actions(state, 0)} == {"0: throw 7S", "0: throw 7C", "0: pass"}
    assert refused(state, "0: throw 7S 7C") == "over_limit"


def test_r_tr_3_transfers_chain_back_to_the_original_attacker() -> None:
    """R-TR-3: transfers can chain around the table, back to the original attacker."""
    state = position("7H 9C 10C JH", "7D JC QC KC", "7C 8H 9H 10H", trump="S", rules=TRANSFER)
    state, events = play(state, "0: attack 7H", "1: transfer with 7D", "2: transfer with 7C")
    assert events[1:] == [Transferred(1, card("7D"), 2), Transferred(2, card("7C"), 0)]
    assert state.bout is not None
    assert (state.bout.attacker, state.bout.defender, state.bout.limit) == (2, 0, 3)


def test_r_tr_3_two_players_transfer_back() -> None:
    """R-TR-3: with two players a transfer goes straight back to the attacker."""
    state = position("7H 9C 10C", "7D JC QC", trump="S", rules=TRANSFER)
    state, events = play(state, "0: attack 7H", "1: transfer with 7D")
    assert events[1:] == [Transferred(1, card("7D"), 0)]
    assert state.bout is not None
    assert (state.bout.attacker, state.bout.defender) == (1, 0)


def before_7h_is_transferred() -> GameState:
    """Three players with transfers, a stock left: 0 can open with 7H, 1 pass it on with 7D,
    and 2 cover both (8H, 9D) or take."""
    return position(
        "7H 10C JC QC KC AC",
        "7D JS QS KS AS 6H",
        "8H 9D 10H JH QH KH",
        trump="S",
        rest="stock",
        rules=TRANSFER,
    )


def test_r_tr_1_the_transferring_player_draws_first() -> None:
    """R-TR-1 with R-DRAW-2: after a transfer the former defender is the primary attacker,
    so draws first; the new defender draws last and, having beaten off, attacks next."""
    state = before_7h_is_transferred()
    state, _ = play(state, "0: attack 7H", "1: transfer with 7D", "2: cover 7H with 8H")
    _, events = play(state, "2: cover 7D with 9D")
    assert sorted(of_type(events, BeatenOff)[0].cards) == sorted(cards("7H 7D 8H 9D"))
    assert of_type(events, Drew) == [Drew(1, 1), Drew(0, 1), Drew(2, 2)]
    assert of_type(events, BoutStarted) == [BoutStarted(2, 0, 6)]


def test_r_tr_1_a_transferred_bout_taken() -> None:
    """R-TR-1 with R-END-2: the new defender takes; the player after them attacks next."""
    state = before_7h_is_transferred()
    _, events = play(state, "0: attack 7H", "1: transfer with 7D", "2: take")
    took = of_type(events, Took)
    assert [t.player for t in took] == [2]
    assert sorted(took[0].cards) == sorted(cards("7H 7D"))
    assert of_type(events, Drew) == [Drew(1, 1), Drew(0, 1)]
    assert of_type(events, BoutStarted) == [BoutStarted(0, 1, 6)]
