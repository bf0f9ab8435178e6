"""The blind family at the terminal (RULES.md section 14): the games offered with their
explanations in both languages, whole games of each played to the end through ``run`` with
scripted input, every screen showing only what the person's seat sees at that moment, and
the covers of many attack cards grouped by the card they cover."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import Translator, translator
from engine import (
    Attack,
    AttackSlot,
    Believe,
    Blind,
    Card,
    Defend,
    DefendSlot,
    Doubt,
    Event,
    GameState,
    HouseRules,
    Suit,
    ThrowSlot,
    apply,
    from_position,
    legal_actions,
    new_game,
    view_for,
)
from engine.cards import CARDS, cards_of, deck_cards
from engine.record import load_record
from engine.view import SeatView
from terminal.__main__ import parse, parser
from terminal.game import Options, TerminalGame
from terminal.menu import choices
from terminal.seats import HUMAN, seat_names
from terminal.session import run
from terminal.texts import BACK, card_label, event_text

LANGS = ("ru", "uk")
GAMES = (Blind.REVERSED, Blind.CHINESE, Blind.DOUBT)
MOVE_LIMIT = 5_000  # a guard: no game asks this many questions
NUMBERED = re.compile(r"  (\d+)\. (.*)$")


def c(text: str) -> list[Card]:
    return [Card.parse(x) for x in text.split()]


def position(blind: Blind, hands: list[list[Card]], attacker: int) -> GameState:
    """Trumps ♠, the stock empty, the rest of the deck discarded."""
    discard = [x for x in deck_cards(36) if not any(x in h for h in hands)]
    rules = HouseRules(blind=blind)
    return from_position(hands, rules=rules, trump=Suit.SPADES, discard=discard, attacker=attacker)


# --- offered -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_list_rules_explains_each_blind_game_in_the_games_language(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse(["--list-rules", "--lang", lang])
    assert exit_info.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    at = lines.index("blind=off (default); also reversed, chinese, doubt")
    tr = translator(lang)
    assert lines[at + 1 : at + 4] == [
        f"  blind={game}: {tr.t(f'term-game-{game}')}. {tr.t(f'term-about-{game}')}"
        for game in GAMES
    ]
    other = translator("uk" if lang == "ru" else "ru")
    assert all(other.t(f"term-about-{game}") not in lines for game in GAMES)


def test_the_help_names_the_blind_games() -> None:
    text = " ".join(parser().format_help().split())
    assert "--rules blind=reversed, blind=chinese or blind=doubt" in text


@pytest.mark.parametrize("game", GAMES)
def test_a_blind_game_is_chosen_as_a_house_rule(
    game: Blind, capsys: pytest.CaptureFixture[str]
) -> None:
    options, _ = parse(["--players", "3", "--rules", f"blind={game}", "--seed", "1"])
    assert options.rules == HouseRules(blind=game)
    with pytest.raises(SystemExit) as exit_info:  # R-BLIND-1
        parse(["--rules", f"blind={game}", "transfer=on"])
    assert exit_info.value.code == 2
    assert f"blind: {game} is played without transfer" in capsys.readouterr().err


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_a_blind_game_starts_with_its_name_and_what_it_is(lang: str, game: Blind) -> None:
    tr = translator(lang)
    out = io.StringIO()
    run(Options(rules=HouseRules(blind=game), seed=1), tr, io.StringIO(""), out)
    first = out.getvalue().splitlines()
    assert first[:2] == [f"🃏 {tr.t(f'term-game-{game}')}", tr.t(f"term-about-{game}")]


def started(game: Blind, seed: int, lang: str) -> list[str]:
    """The lines a game of three shows before the person's first move is asked (the input
    ends there: the game stops)."""
    out = io.StringIO()
    options = Options(players=3, rules=HouseRules(blind=game), seed=seed)
    run(options, translator(lang), io.StringIO(""), out)
    return out.getvalue().split(translator(lang).t("term-your-turn"))[0].splitlines()


@pytest.mark.parametrize("lang", LANGS)
def test_r_blind_5_a_reversed_game_starts_by_telling_the_lowest_trump_and_its_holder(
    lang: str,
) -> None:
    """Who holds the lowest trump and which card it is, told as the bot's table tells it;
    to the person holding it in the second person, with the slot it went back to."""
    tr = translator(lang)
    names = seat_names(3, tr)
    holders = set()
    for seed in range(1, 7):
        state = new_game(3, rules=HouseRules(blind=Blind.REVERSED), seed=seed)
        holder = None if state.bout is None else state.bout.attacker
        trumps = [card for card in cards_of(sum(state.hands)) if card.suit == state.trump]
        low = min(trumps)
        assert holder is not None and low in state.hand(holder)
        holders.add(holder == HUMAN)
        label = card_label(low, tr)
        lines = started(Blind.REVERSED, seed, lang)
        if holder == HUMAN:
            slot = f"{BACK}{state.rows[HUMAN].index(low) + 1}"
            assert f"• {tr.t('term-you-lowest-trump', card=label)}" in lines
            assert f"• {tr.t('hand-lowest-trump-slot', slot=slot, card=label)}" in lines
        else:
            told = tr.t("event-lowest-trump", name=names[holder], card=label)
            assert f"• {told}" in lines
            assert not any(BACK in line and label in line for line in lines)  # no slot said
    assert holders == {True, False}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", [Blind.CHINESE, Blind.DOUBT])
def test_r_blind_5_other_blind_games_tell_no_lowest_trump(lang: str, game: Blind) -> None:
    tr = translator(lang)
    told = tr.t("event-lowest-trump", name="\0", card="\0").split("\0")[0]
    yours = tr.t("term-you-lowest-trump", card="\0").split("\0")[0]
    for seed in range(1, 7):
        lines = started(game, seed, lang)
        assert not any(told in line or yours in line for line in lines)


# --- whole games ---------------------------------------------------------------------------


class Player:
    """The game's input: at a move menu a number drawn from its lines (never «назад»), at
    the menu after the game «сохранить запись», then «выйти»."""

    def __init__(self, screen: io.StringIO, tr: Translator, seed: int) -> None:
        self.screen = screen
        self.tr = tr
        self.rng = random.Random(seed)
        self.after = ["2", "3"]
        self.asked = 0

    def readline(self) -> str:
        self.asked += 1
        assert self.asked < MOVE_LIMIT, "the game did not end"
        lines = self.screen.getvalue().splitlines()
        if lines[-1].startswith(self.tr.t("term-prompt-next")):
            return self.after.pop(0) + "\n"
        menu = []
        for line in reversed(lines[:-1]):
            match = NUMBERED.match(line)
            if not match:
                break
            menu.append(match[2])
        count = len(menu) - (menu[0] == self.tr.t("term-back"))
        return f"{self.rng.randint(1, count)}\n"


def shown_cards(view: SeatView) -> set[Card]:
    """The cards the seat sees on its screen: its hand, the faces of the rows it sees, the
    table as it sees it, the trump card."""
    cards = set(view.hand)
    cards |= {card for row in view.rows for card in row if card is not None}
    cards |= {card for pair in view.table for card in pair if card is not None}
    if view.trump_card is not None:
        cards.add(view.trump_card)
    return cards


def told_cards(events: tuple[Event, ...]) -> set[Card]:
    """The cards the events name: every event is told to the whole table."""
    cards: set[Card] = set()
    for event in events:
        for value in event:
            values = value if isinstance(value, tuple) else (value,)
            cards |= {v for v in values if isinstance(v, Card)}
    return cards


def cards_in(text: str, tr: Translator) -> set[Card]:
    labels = {card_label(card, tr): card for card in CARDS}
    pattern = "|".join(sorted(map(re.escape, labels), key=len, reverse=True))
    return {labels[found] for found in re.findall(pattern, text)}


def play_blind(game: Blind, players: int, lang: str, seed: int, tmp_path: Path) -> dict[str, Any]:
    """A whole game through ``run``, saved as a record at its end; what was on the screen
    between one «Твой ход:» and the next, and what the seat could see then."""
    tr = translator(lang)
    screen = io.StringIO()
    rules = HouseRules(blind=game)
    options = Options(players=players, level="easy", rules=rules, seed=seed, records=tmp_path)
    assert run(options, tr, Player(screen, tr, seed), screen) == 0
    out = screen.getvalue()
    (path,) = tmp_path.iterdir()
    record = load_record(json.loads(path.read_text(encoding="utf-8")))
    # Replayed: before each of the person's moves, the cards shown and those hidden. The
    # deal shows everybody the cards its ``known`` holds (in ``reversed`` the lowest trump
    # is told, R-BLIND-5), as a move's events would; a record's start does not keep them.
    dealt = TerminalGame(options, tr, io.StringIO(""), io.StringIO()).deal(seed)
    assert dealt.hands == record.start.hands
    state = record.start
    told = {card for known in dealt.known for card in cards_of(known)}
    decisions: list[dict[str, Any]] = []
    for action in record.actions:
        if action.player == HUMAN:
            view = view_for(state, HUMAN)
            shown = shown_cards(view)
            face_down = [x for x in cards_of(state.face_down) if x not in shown]
            decision = {"state": state, "action": action, "shown": shown, "told": told}
            decisions.append(decision | {"face_down": face_down})
            told = set()
        state, events = apply(state, action)
        told |= told_cards(events)
    assert state.finished
    return {"out": out, "tr": tr, "decisions": decisions, "told_after": told, "end": state}


def check_screens(played: dict[str, Any]) -> list[set[Card]]:
    """Every stretch of the screen names only cards the seat saw then: those of the view it
    was asked with (its menu), of the events told since, of the view it is asked with next.
    Returns what was hidden from the seat at each of its moves and not named on its screen."""
    out, tr, decisions = played["out"], played["tr"], played["decisions"]
    chunks = out.split(tr.t("term-your-turn"))
    assert len(chunks) == len(decisions) + 1
    hidden_each = []
    before: set[Card] = set()
    for number, chunk in enumerate(chunks):
        if number < len(decisions):
            decision = decisions[number]
            now, told = decision["shown"], decision["told"]
        else:
            now, told = set(), played["told_after"]
        allowed = before | told | now
        named = cards_in(chunk, tr)
        assert named <= allowed, (sorted(map(str, named - allowed)), chunk)
        if number < len(decisions):
            hidden_each.append(set(CARDS) - allowed)
        before = now
    return hidden_each


@pytest.mark.parametrize(
    ("players", "lang", "seed"),
    [(2, "ru", 1), (3, "uk", 2), (4, "ru", 3), (3, "ru", 3)],  # the last: you hold the lowest trump
)
def test_a_whole_reversed_game_never_shows_your_own_cards(
    players: int, lang: str, seed: int, tmp_path: Path
) -> None:
    """R-REV-1: the others' hands face up in slot order, one's own as numbered backs; one's
    own cards are named only once turned up (played, misplayed, taken)."""
    played = play_blind(Blind.REVERSED, players, lang, seed, tmp_path)
    hidden = check_screens(played)
    out, tr = played["out"], played["tr"]
    chunks = out.split(tr.t("term-your-turn"))
    unseen_own = 0
    for number, (decision, hidden_now) in enumerate(zip(played["decisions"], hidden, strict=True)):
        state = decision["state"]
        own = set(cards_of(state.hands[HUMAN]))
        unseen_own += len(own & hidden_now)
        backs = " ".join(f"{BACK}{slot}" for slot in range(1, len(own) + 1))
        assert chunks[number].endswith(tr.t("hand-cards", count=len(own), cards=backs) + "\n")
    assert unseen_own > 20  # the check above had own cards to keep hidden
    # The others' rows, face up, in slot order.
    first = played["decisions"][0]["state"]
    names = seat_names(players, tr)
    for seat in range(1, players):
        row = " ".join(card_label(card, tr) for card in first.rows[seat])
        assert f"{names[seat]}: {row}" in out
    assert any(tr.t("term-misplays", count=n) in out for n in range(1, 100))  # R-REV-3


@pytest.mark.parametrize(("players", "lang", "seed"), [(2, "uk", 4), (3, "ru", 5)])
def test_a_whole_chinese_game_shows_every_hand_as_backs(
    players: int, lang: str, seed: int, tmp_path: Path
) -> None:
    """R-CHI-1/2: no hand face up, a face-down opening a back on the table; a card is named
    once turned up by the answer."""
    played = play_blind(Blind.CHINESE, players, lang, seed, tmp_path)
    hidden = check_screens(played)
    out, tr = played["out"], played["tr"]
    trump_card = played["decisions"][0]["state"].trump_card
    assert all(decision["shown"] <= {trump_card} for decision in played["decisions"])
    assert all(len(h) > 20 for h in hidden)
    assert f"\n  {BACK}/?\n" in out  # a face-down attack card the person answers
    names = seat_names(players, tr)
    assert not any(line.startswith(f"{name}: ") for name in names for line in out.splitlines())
    assert played["end"].finished


@pytest.mark.parametrize(("players", "lang", "seed"), [(2, "ru", 6), (3, "uk", 3), (3, "ru", 5)])
def test_a_whole_doubt_game_never_shows_anothers_face_down_cover(
    players: int, lang: str, seed: int, tmp_path: Path
) -> None:
    """R-DOUBT-2/3/5: another's covers are backs until «не верю» turns them up; one's own
    hand as usual, and one's own covers face down with their faces."""
    played = play_blind(Blind.DOUBT, players, lang, seed, tmp_path)
    hidden = check_screens(played)
    out, tr = played["out"], played["tr"]
    judged = 0
    for decision, hidden_now in zip(played["decisions"], hidden, strict=True):
        state = decision["state"]
        bout = state.bout
        assert bout is not None
        if bout.defender != HUMAN and decision["face_down"]:
            assert isinstance(decision["action"], Believe | Doubt)  # R-DOUBT-3
            judged += set(decision["face_down"]) <= hidden_now
    assert judged > 3  # check_screens had others' covers to keep hidden
    assert f"{BACK}   " in out or f"{BACK}\n" in out  # another's cover, a back
    # One's own covers, face down with their faces, on the screen of the next cover.
    chunks = out.split(tr.t("term-your-turn"))
    own = 0
    for number, decision in enumerate(played["decisions"]):
        state = decision["state"]
        if state.bout.defender == HUMAN and state.face_down:
            own += 1
            for card in cards_of(state.face_down):
                assert f"{BACK}{card_label(card, tr)}" in chunks[number]
            assert tr.t("term-face-down-yours", back=BACK) in chunks[number]
    assert own > 0
    assert any(isinstance(d["action"], Doubt) for d in played["decisions"])


# --- the screen and the menu, move by move ---------------------------------------------------


def screen_of(state: GameState, lang: str = "ru") -> tuple[str, TerminalGame]:
    tr = translator(lang)
    out = io.StringIO()
    table = TerminalGame(Options(players=state.players, seed=1), tr, io.StringIO(""), out)
    table.show(view_for(state, HUMAN))
    return out.getvalue(), table


def test_doubt_shows_your_own_covers_and_anothers_as_backs() -> None:
    """R-DOUBT-2: the defender sees the cover he laid; the attacker sees backs."""
    ten, seven, nine_h, nine_c = c("10H 7C 9H 9C")
    defending = position(Blind.DOUBT, [c("6S 10H QD 7C"), c("9H 9C KD")], attacker=1)
    defending, _ = apply(defending, Attack(1, (nine_h, nine_c)))
    defending, _ = apply(defending, Defend(0, ten, nine_h))
    out, _ = screen_of(defending)
    assert "  9♥/🂠10♥   9♣/?\n" in out
    assert "🂠 — твоя карта рубашкой вверх: её видишь только ты" in out
    attacking = position(Blind.DOUBT, [c("9H 9C KD"), c("6S 10H QD 7C")], attacker=0)
    attacking, _ = apply(attacking, Attack(0, (nine_h, nine_c)))
    attacking, _ = apply(attacking, Defend(1, ten, nine_h))
    attacking, _ = apply(attacking, Defend(1, seven, nine_c))
    out, _ = screen_of(attacking)
    assert "  9♥/🂠   9♣/🂠\n" in out
    assert "10♥" not in out and "7♣" not in out and "твоя карта" not in out


def test_reversed_shows_the_others_faces_and_your_backs() -> None:
    state = position(Blind.REVERSED, [c("9H KS 6C"), c("10H 7D QC")], attacker=0)
    out, _ = screen_of(state, "uk")
    assert "🤖 Федя: 10♥ 7♦ Д♣\n" in out
    assert "Твої карти (3): 🂠1 🂠2 🂠3\n" in out
    assert "9♥" not in out and "К♠" not in out and "6♣" not in out


def test_chinese_shows_a_face_down_opening_as_a_back() -> None:
    state = position(Blind.CHINESE, [c("9H KS 6C"), c("10H 7D QC")], attacker=1)
    state, _ = apply(state, AttackSlot(1, 2))
    out, _ = screen_of(state)
    assert "На столе (1 из 1):\n  🂠/?\n" in out
    assert "Твои карты (3): 🂠1 🂠2 🂠3\n" in out
    assert not cards_in(out.split("\n", 2)[2], translator("ru"))  # below the trump line


@pytest.mark.parametrize("lang", LANGS)
def test_covers_of_several_attack_cards_are_grouped_by_the_card_covered(lang: str) -> None:
    """A reversed defender with four slots against two attack cards: two lines and «take»,
    not eight covers; each line asks which slot, and the chosen cover is played."""
    state = position(Blind.REVERSED, [c("10H 7D QC JH"), c("9H 9C KS")], attacker=1)
    state, _ = apply(state, AttackSlot(1, 1))  # 9♥
    state, _ = apply(state, ThrowSlot(1, 1))  # 9♣
    tr = translator(lang)
    view = view_for(state, HUMAN)
    menu = choices(legal_actions(state, HUMAN), view, tr)
    nine_c = Card.parse("9C")
    assert [choice.label for choice in menu] == [
        tr.t("term-choice-cover", on="9♥"),
        tr.t("term-choice-cover", on="9♣"),
        tr.t("term-action-take"),
    ]
    assert menu[1].question == tr.t("term-which-cover", on="9♣")
    assert [choice.action for choice in menu[1].then] == [
        DefendSlot(HUMAN, slot, nine_c) for slot in range(1, 5)
    ]
    out = io.StringIO()
    table = TerminalGame(Options(seed=1), tr, io.StringIO("2\n5\n2\n3\n"), out)
    action = table.ask(state)  # 9♣, back, 9♣ again, slot 3 (the Q♣)
    assert action == DefendSlot(HUMAN, 3, nine_c)
    text = out.getvalue()
    assert f"  5. {tr.t('term-back')}" in text
    _, events = apply(state, action)
    assert event_text(events[0], seat_names(2, tr), tr, you=HUMAN) == tr.t(
        "term-you-covered", on="9♣", card=card_label(Card.parse("QC"), tr)
    )


def test_covers_of_one_attack_card_are_listed_as_they_are() -> None:
    state = position(Blind.REVERSED, [c("10H 7D QC"), c("9H KS 6C")], attacker=1)
    state, _ = apply(state, AttackSlot(1, 1))
    tr = translator("ru")
    menu = choices(legal_actions(state, HUMAN), view_for(state, HUMAN), tr)
    assert [choice.label for choice in menu] == [
        *(tr.t("term-action-cover-slot", slot=slot, on="9♥") for slot in (1, 2, 3)),
        tr.t("term-action-take"),
    ]
