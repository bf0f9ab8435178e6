"""The blind family in the chat (RULES.md section 14), in ru and uk: each private message
shows exactly what its seat sees (in ``reversed`` the other hands face up and its own as
numbered backs, in ``chinese`` backs only, in ``doubt`` its hand and the covers as backs
but to their defender), the group's table only counts and backs; the hand keyboard plays by
slot («🂠1 🂠2 …», a pick step for the card to cover) and judges («✅ Верю», «❌ Не верю»)."""

from __future__ import annotations

import html
import random
from typing import Any

import pytest
from views import NAMES, buttons, cards, chat_game, check_html, check_layout, play, position

from bot.i18n import SUPPORTED, Translator, translator
from bot.model import ChatGame, ChatSettings, GameRecord, Series, append_log
from bot.schema.presses import Back, Move, Pick
from bot.schema.refusals import Reason
from bot.services.decisions import begin_game, next_series_game, pick
from bot.services.outcomes import Refused, Viewed
from bot.ui.callbacks import HandPress, decode_press
from bot.ui.common import MAX_POPUP, Rendered, card_label
from bot.ui.render import hand_popup, hand_scene, hand_view, lobby_view, table_scene, table_view
from engine import (
    Action,
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
    NextGameStart,
    Pass,
    Suit,
    Take,
    ThrowIn,
    ThrowSlot,
    apply,
    legal_actions,
    new_game,
)
from tests.e2e.blind_seen import Sight, named
from tests.soak import sized

REVERSED = HouseRules(blind=Blind.REVERSED)
CHINESE = HouseRules(blind=Blind.CHINESE)
DOUBT = HouseRules(blind=Blind.DOUBT)
BACK_CARD = "🂠"


def escaped(seat: int) -> str:
    return html.escape(NAMES[seat], quote=False)


def labels(text: str, tr: Translator) -> str:
    """``"9H KS"`` as the texts write it: «9♥ К♠»."""
    return " ".join(card_label(c, tr) for c in cards(text))


def shown(rendered: Rendered) -> list[str]:
    """Everything a message shows: its text and its buttons' labels."""
    return [check_html(rendered.text), *(text for text, _ in buttons(rendered.markup))]


def presses(rendered: Rendered, seat: int) -> dict[str, Action | Pick | Back]:
    """Each button's label and what pressing it does (an action of ``seat``, or a UI step)."""
    found: dict[str, Action | Pick | Back] = {}
    for text, data in buttons(rendered.markup):
        step = decode_press(HandPress.unpack(data).act)
        found[text] = step.action(seat) if isinstance(step, Move) else step
    return found


def logged(state: GameState, players: int, lang: str, *events: tuple[Event, ...]) -> ChatGame:
    game = chat_game(state, players, lang)
    game.log = append_log([], [e for batch in events for e in batch])
    return game


# -- reversed: the other hands face up, the own as numbered backs (R-REV-1) ---------------


@pytest.mark.parametrize("lang", SUPPORTED)
def test_reversed_shows_the_other_hands_in_slot_order_and_the_own_as_backs(lang: str) -> None:
    tr = translator(lang)
    state = position("9H KS 6C", "10H 7D QC", "8S 8H", trump=Suit.SPADES, rules=REVERSED)
    game = chat_game(state, 3, lang)
    mine = hand_view(hand_scene(game, 0), tr)
    text = check_html(mine.text)
    assert html.unescape(tr.t("hand-row", name=escaped(1), cards=labels("10H 7D QC", tr))) in text
    assert html.unescape(tr.t("hand-row", name=escaped(2), cards=labels("8S 8H", tr))) in text
    assert tr.t("hand-slots", count=3, slots="🂠1 🂠2 🂠3") in mine.text
    assert named(" ".join(shown(mine))).isdisjoint(cards("9H KS 6C"))  # never the own cards
    assert presses(mine, 0) == {f"🂠{n}": AttackSlot(0, n) for n in (1, 2, 3)}
    assert tr.t("hand-attack-slot", defender=escaped(1)) in mine.text
    assert tr.t("table-title-blind", blind="reversed") in mine.text
    # The group sees counts only.
    group = table_view(table_scene(game), tr)
    assert named(" ".join(shown(group))) == set()
    assert tr.t("cards-count", count=3) in group.text and "🂠" not in group.text


@pytest.mark.parametrize("lang", SUPPORTED)
def test_reversed_defender_covers_one_card_by_slot_at_once(lang: str) -> None:
    tr = translator(lang)
    state = position("9H KS 6C", "10H 7D QC", trump=Suit.SPADES, rules=REVERSED)
    state = play(state, AttackSlot(0, 1))
    game = chat_game(state, 2, lang)
    rendered = hand_view(hand_scene(game, 1), tr)
    nine = Card.parse("9H")
    on = card_label(nine, tr)
    assert presses(rendered, 1) == {
        **{tr.t("btn-slot-cover", slot=n, on=on): DefendSlot(1, n, nine) for n in (1, 2, 3)},
        tr.t("btn-take"): Take(1),
    }
    assert tr.t("hand-defend-slot", on=on) in rendered.text
    rows = rendered.markup.inline_keyboard if rendered.markup else []
    assert [b.text for b in rows[-1]] == [tr.t("btn-take")]  # «Беру» on a row of its own
    check_layout(rendered.markup)
    # The attacker may throw in by slot or pass, and is told what a wrong rank costs.
    thrower = hand_view(hand_scene(game, 0), tr)
    assert presses(thrower, 0) == {
        "🂠1": ThrowSlot(0, 1),
        "🂠2": ThrowSlot(0, 2),
        tr.t("btn-pass"): Pass(0),
    }
    assert tr.t("hand-throw-risk") in thrower.text


@pytest.mark.parametrize("lang", SUPPORTED)
def test_reversed_defender_picks_the_card_to_cover_then_the_slot(lang: str) -> None:
    """Two cards uncovered: «Покрыть 9♥» / «Покрыть 9♣» first (the pick step), then the
    slots that cover the card picked, and «Назад»."""
    tr = translator(lang)
    rules = HouseRules(blind=Blind.REVERSED, throw_in=ThrowIn.ALL)
    state = position("9H KS 9C", "10H 7D QC", "8S 8H", trump=Suit.SPADES, rules=rules)
    state = play(state, AttackSlot(0, 1), ThrowSlot(0, 2))
    game = chat_game(state, 3, lang)
    scene = hand_scene(game, 1)
    nine, club = Card.parse("9H"), Card.parse("9C")
    first = hand_view(scene, tr)
    assert presses(first, 1) == {
        tr.t("btn-cover", on=card_label(nine, tr)): Pick(nine),
        tr.t("btn-cover", on=card_label(club, tr)): Pick(club),
        tr.t("btn-take"): Take(1),
    }
    assert tr.t("hand-defend-slot-target") in first.text
    picked = hand_view(scene, tr, picked=club)
    on = card_label(club, tr)
    assert presses(picked, 1) == {
        **{tr.t("btn-slot-cover", slot=n, on=on): DefendSlot(1, n, club) for n in (1, 2, 3)},
        tr.t("btn-back"): Back(),
    }
    assert tr.t("hand-pick-slot", on=on) in picked.text
    check_layout(picked.markup)
    # A card of nobody's table (or of the seat's own hand) is no pick: the whole keyboard.
    for stale in (Card.parse("10H"), Card.parse("AS")):
        assert hand_view(scene, tr, picked=stale) == first


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_misplay_is_told_and_counted(lang: str) -> None:
    """R-REV-3/4: the group reads the misplay and the take, and how many misplays so far."""
    tr = translator(lang)
    state = position("9H KS 6C", "10H 7D QC", trump=Suit.SPADES, rules=REVERSED)
    state, attacked = apply(state, AttackSlot(0, 1))
    state, misplayed = apply(state, DefendSlot(1, 2, Card.parse("9H")))  # the 7♦
    game = logged(state, 2, lang, attacked, misplayed)
    group = table_view(table_scene(game), tr).text
    nine, seven = (card_label(Card.parse(c), tr) for c in ("9H", "7D"))
    assert tr.t("event-misplayed-cover", name=escaped(1), card=seven, on=nine) in group
    assert tr.t("table-misplays", count=1) in group


# -- the lowest trump shown at the deal (R-BLIND-5) ----------------------------------------


def dealt(rules: HouseRules, players: int, lang: str, seed: str) -> ChatGame:
    """A lobby of ``players`` under ``rules`` dealt as «Начать» deals it (``begin_game``)."""
    lobby = chat_game(None, players, lang)
    lobby.settings = ChatSettings(rules=rules, language=lang)
    record = GameRecord(lobby)
    begin_game(record, seed, 1000.0)
    return record.game


def lowest_trump(state: GameState) -> tuple[int, Card]:
    """Who holds the lowest trump and which card it is, from the whole state (the test's
    oracle, not the views the bot renders from)."""
    card, seat = min(
        ((card, seat) for seat in range(state.players) for card in state.hand(seat)),
        key=lambda found: (found[0].suit != state.trump, found[0]),
    )
    return seat, card


def messages_of(game: ChatGame, tr: Translator) -> list[Rendered]:
    """The group's table, then each seat's message."""
    assert game.state is not None
    return [
        table_view(table_scene(game), tr),
        *(hand_view(hand_scene(game, seat), tr) for seat in range(game.state.players)),
    ]


def opening_words(tr: Translator) -> tuple[str, str]:
    """What every line about a shown lowest trump begins with, whoever and whatever it is."""
    told = tr.t("event-lowest-trump", name="\0", card="\0").split("\0")[0]
    slot = tr.t("hand-lowest-trump-slot", slot="\0", card="\0").split("\0")[1]
    return told, slot


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_r_blind_5_a_reversed_deal_shows_everybody_the_lowest_trump_and_its_holder(
    lang: str, players: int
) -> None:
    """The group's table and every private table say who holds the lowest trump and which
    card it is; the holder's own table also says which of their slots it went back to, and
    names no other card of their hand. After an earlier slot is played, the slot said
    moves left with the card (R-BLIND-2)."""
    tr = translator(lang)
    for seed in (f"{n:064x}" for n in range(4)):
        game = dealt(REVERSED, players, lang, seed)
        state = game.state
        assert state is not None
        holder, low = lowest_trump(state)
        assert low.suit == state.trump and state.bout is not None
        assert state.bout.attacker == holder
        told = tr.t("event-lowest-trump", name=escaped(holder), card=card_label(low, tr))
        slot = state.rows[holder].index(low) + 1
        said = tr.t("hand-lowest-trump-slot", slot=f"🂠{slot}", card=card_label(low, tr))
        group, *hands = messages_of(game, tr)
        assert told in group.text and said not in group.text
        for seat, rendered in enumerate(hands):
            assert told in rendered.text
            assert (said in rendered.text) is (seat == holder)
        own = named(" ".join(shown(hands[holder])))
        assert own & set(state.hand(holder)) == {low}
        if slot > 1:  # the first slot played: the card moves one place left
            moved, events = apply(state, AttackSlot(holder, 1))
            game.state = moved
            game.log = append_log(game.log, events)
            after = hand_view(hand_scene(game, holder), tr).text
            moved_on = tr.t("hand-lowest-trump-slot", slot=f"🂠{slot - 1}", card=card_label(low, tr))
            assert told in after and moved_on in after


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize("rules", [CHINESE, DOUBT])
def test_r_blind_5_no_other_blind_game_shows_a_lowest_trump_at_the_deal(
    lang: str, rules: HouseRules
) -> None:
    """In ``chinese`` nobody has seen a card and the first attacker is drawn by lot; in
    ``doubt`` every player sees their own hand as in the open game: neither says it."""
    tr = translator(lang)
    told, slot = opening_words(tr)
    for seed in (f"{n:064x}" for n in range(4)):
        game = dealt(rules, 3, lang, seed)
        assert game.log == []
        for rendered in messages_of(game, tr):
            assert told not in rendered.text and slot not in rendered.text


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize("start", list(NextGameStart))
def test_r_blind_5_a_later_reversed_game_shows_it_when_the_lowest_trump_starts_it(
    lang: str, start: NextGameStart
) -> None:
    """The next game of a series: the lowest trump is shown under ``next_game_start:
    lowest_trump`` only; otherwise the first attacker follows from the last game."""
    tr = translator(lang)
    told, _ = opening_words(tr)
    rules = HouseRules(blind=Blind.REVERSED, next_game_start=start)
    nine = Card.parse("9H")
    done = play(position("9H", "JH 8C", trump=Suit.SPADES, rules=rules), AttackSlot(0, 1))
    done = play(done, DefendSlot(1, 1, nine))
    assert done.durak == 1
    last = chat_game(done, 2, lang)
    last.series = Series.begin(3, [p.user_id for p in last.players])
    for seed in (f"{n:064x}" for n in range(4)):
        game = next_series_game(GameRecord(last), game_id="Cd-_0y", language=lang, seed=seed)
        texts = [rendered.text for rendered in messages_of(game, tr)]
        if start is NextGameStart.LOWEST_TRUMP:
            assert game.state is not None
            holder, low = lowest_trump(game.state)
            line = tr.t("event-lowest-trump", name=escaped(holder), card=card_label(low, tr))
            assert all(line in text for text in texts)
        else:
            assert game.log == [] and not any(told in text for text in texts)


# -- chinese: backs only (R-CHI-1) -------------------------------------------------------


@pytest.mark.parametrize("lang", SUPPORTED)
def test_chinese_shows_backs_only_and_the_opening_face_down(lang: str) -> None:
    tr = translator(lang)
    state = position("9H KS 6C", "10H 7D QC", "8S 8H", trump=Suit.SPADES, rules=CHINESE)
    state, events = apply(state, AttackSlot(0, 2))
    game = logged(state, 3, lang, events)
    hands = {card for seat in range(3) for card in state.hand(seat)} | {Card.parse("KS")}
    group = table_view(table_scene(game), tr)
    views = [group, *(hand_view(hand_scene(game, seat), tr) for seat in range(3))]
    for rendered in views:
        assert named(" ".join(shown(rendered))).isdisjoint(hands)
        assert f"<b>{BACK_CARD}/?</b>" in rendered.text  # the opening, as a back
        assert tr.t("table-turn-answer", attacker=escaped(0), defender=escaped(1)) in (
            rendered.text
        )
        assert tr.t("hand-row", name=escaped(1), cards="🂠 🂠 🂠") not in rendered.text
    defender = views[2]
    assert tr.t("hand-slots", count=3, slots="🂠1 🂠2 🂠3") in defender.text
    assert tr.t("hand-answer") in defender.text
    assert presses(defender, 1) == {f"🂠{n}": DefendSlot(1, n, None) for n in (1, 2, 3)}
    assert tr.t("hand-slots", count=2, slots="🂠1 🂠2") in views[1].text  # the attacker
    assert buttons(views[1].markup) == []


@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_popup_of_a_hand_its_owner_cannot_see_names_no_card(lang: str) -> None:
    tr = translator(lang)
    for rules in (REVERSED, CHINESE):
        state = new_game(3, rules=rules, seed=4)
        for seat in range(3):
            text = hand_popup(hand_scene(chat_game(state, 3, lang), seat).view, tr)
            assert len(text) <= MAX_POPUP and named(text) <= {state.trump_card}
            assert "🂠1" in text and tr.t("cards-count", count=6) in text


# -- doubt: covers face down (R-DOUBT-2/3) -------------------------------------------------


@pytest.mark.parametrize("lang", SUPPORTED)
def test_doubt_covers_are_backs_but_to_their_defender_and_the_attacker_judges(lang: str) -> None:
    tr = translator(lang)
    state = position("9H 9C KD", "6S 10H QD 7C", "8S 8H", trump=Suit.SPADES, rules=DOUBT)
    state, opened = apply(state, Attack(0, cards("9H 9C")))
    state, first = apply(state, Defend(1, Card.parse("10H"), Card.parse("9H")))
    state, second = apply(state, Defend(1, Card.parse("7C"), Card.parse("9C")))
    game = logged(state, 3, lang, opened, first, second)
    covers = set(cards("10H 7C"))
    backs = f"<b>{labels('9H', tr)}/🂠   {labels('9C', tr)}/🂠</b>"
    attacker = hand_view(hand_scene(game, 0), tr)
    assert presses(attacker, 0) == {
        tr.t("btn-believe"): Believe(0),
        tr.t("btn-doubt"): Doubt(0),
    }
    assert tr.t("hand-judge", defender=escaped(1)) in attacker.text
    assert tr.t("hand-cards", count=1, cards=labels("KD", tr)) in attacker.text  # as usual
    judge = tr.t("table-turn-judge", attacker=escaped(0))
    for rendered in (
        attacker,
        hand_view(hand_scene(game, 2), tr),
        table_view(table_scene(game), tr),
    ):
        assert backs in rendered.text and judge in rendered.text
        assert named(" ".join(shown(rendered))).isdisjoint(covers)
    defender = hand_view(hand_scene(game, 1), tr)
    assert (
        f"<b>{labels('9H', tr)}/{labels('10H', tr)}   {labels('9C', tr)}/{labels('7C', tr)}</b>"
        in (defender.text)
    )
    assert tr.t("hand-judge-wait", attacker=escaped(0)) in defender.text
    assert buttons(defender.markup) == []
    # «Верю»: the covers go to the discard unseen; nobody but the defender is ever told them.
    believed, told = apply(state, Believe(0))
    game = logged(believed, 3, lang, opened, first, second, told)
    for rendered in (
        hand_view(hand_scene(game, 0), tr),
        hand_view(hand_scene(game, 2), tr),
        table_view(table_scene(game), tr),
    ):
        assert named(" ".join(shown(rendered))).isdisjoint(covers)
        assert tr.t("event-believed", name=escaped(0)) in rendered.text


@pytest.mark.parametrize("lang", SUPPORTED)
def test_doubt_defender_covers_face_down_with_any_card_or_takes_at_once(lang: str) -> None:
    tr = translator(lang)
    state = position("9H KD", "6S 10H 7C", trump=Suit.SPADES, rules=DOUBT)
    state = play(state, Attack(0, cards("9H")))
    rendered = hand_view(hand_scene(chat_game(state, 2, lang), 1), tr)
    nine = Card.parse("9H")
    assert presses(rendered, 1) == {
        **{card_label(c, tr): Defend(1, c, nine) for c in cards("6S 10H 7C")},  # 7♣: a bluff
        tr.t("btn-take"): Take(1),
    }
    assert tr.t("hand-defend-doubt") in rendered.text


# -- the game's name -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize("rules", [REVERSED, CHINESE, DOUBT])
def test_the_lobby_and_the_table_name_the_blind_game(lang: str, rules: HouseRules) -> None:
    tr = translator(lang)
    title = tr.t("table-title-blind", blind=rules.blind.value)
    lobby = chat_game(None, 2, lang)
    lobby.settings = ChatSettings(rules=rules, language=lang)
    assert lobby_view(lobby, tr).text.startswith(title)
    game = chat_game(new_game(2, rules=rules, seed=1), 2, lang)
    assert table_view(table_scene(game), tr).text.startswith(title)


# -- the pick step's check (``decisions.pick``) -------------------------------------------


def test_a_seat_that_cannot_see_its_hand_picks_an_attack_card_never_its_own() -> None:
    """The answer to a pick must not tell a ``reversed`` defender whether a card is in his
    hand (R-BLIND-3): only an uncovered attack card he may cover is a pick."""
    rules = HouseRules(blind=Blind.REVERSED, throw_in=ThrowIn.ALL)
    state = position("9H KS 9C", "10H 7D QC", "8S 8H", trump=Suit.SPADES, rules=rules)
    state = play(state, AttackSlot(0, 1))
    record = GameRecord(chat_game(state, 3))
    assert pick(record, 1, Card.parse("9H")) == Viewed(record, 1, Card.parse("9H"))
    for card in cards("10H AS KS"):  # his own, nobody's, the attacker's
        assert pick(record, 1, card) == Refused(Reason.STALE, record)
    assert pick(record, 2, Card.parse("9H")) == Refused(Reason.STALE, record)  # not acting
    # In ``doubt`` every player sees their hand: the open game's pick of a cover card.
    state = play(
        position("9H KD", "6S 10H", trump=Suit.SPADES, rules=DOUBT), Attack(0, cards("9H"))
    )
    record = GameRecord(chat_game(state, 2))
    assert pick(record, 1, Card.parse("10H")) == Viewed(record, 1, Card.parse("10H"))
    assert pick(record, 1, Card.parse("9H")) == Refused(Reason.STALE, record)


# -- privacy: what is hidden from a seat never changes its message ------------------------


def messages(state: GameState, players: int, lang: str) -> list[Rendered]:
    """The group's table and every seat's message."""
    tr = translator(lang)
    game = chat_game(state, players, lang)
    return [table_view(table_scene(game), tr)] + [
        hand_view(hand_scene(game, seat), tr) for seat in range(players)
    ]


@pytest.mark.parametrize("lang", SUPPORTED)
def test_cards_hidden_from_a_seat_can_be_dealt_anew_without_changing_its_message(
    lang: str,
) -> None:
    """``reversed``: a seat's own cards in another order; ``chinese``: any hands of the same
    sizes, and another card face down; ``doubt``: other covers face down."""
    a = messages(position("9H KS 6C", "10H 7D", trump=Suit.SPADES, rules=REVERSED), 2, lang)
    b = messages(position("6C 9H KS", "10H 7D", trump=Suit.SPADES, rules=REVERSED), 2, lang)
    assert a[1] == b[1]  # seat 0 sees the same
    assert a[2] != b[2]  # seat 1 sees the other order
    opened = AttackSlot(0, 2)
    a = messages(
        play(position("9H KS 6C", "10H 7D", trump=Suit.SPADES, rules=CHINESE), opened), 2, lang
    )
    b = messages(
        play(position("7D 6C 10H", "9H KS", trump=Suit.SPADES, rules=CHINESE), opened), 2, lang
    )
    assert a == b
    hands = ("9H KD", "6S 10H QD", "8S 8H")
    start = play(position(*hands, trump=Suit.SPADES, rules=DOUBT), Attack(0, cards("9H")))
    a = messages(play(start, Defend(1, Card.parse("10H"), Card.parse("9H"))), 3, lang)
    b = messages(play(start, Defend(1, Card.parse("QD"), Card.parse("9H"))), 3, lang)
    assert a[0] == b[0] and a[3] == b[3]  # the group and seat 2
    assert a[2] != b[2]  # the defender sees his own covers and hand


# -- whole games --------------------------------------------------------------------------


def reached(game: ChatGame, seat: int, tr: Translator, sight: Sight) -> set[Action]:
    """Every action the seat's keyboard reaches, directly or through the pick step; checks
    on the way that each message names no card the seat has not seen and fits a phone."""
    scene = hand_scene(game, seat)
    rendered = hand_view(scene, tr)
    found: set[Action] = set()
    for text, data in buttons(rendered.markup):
        press = HandPress.unpack(data)
        assert (press.game, press.moves) == (game.game_id, scene.view.moves)
        step = decode_press(press.act)
        if isinstance(step, Move):
            found.add(step.action(seat))
            continue
        assert isinstance(step, Pick), text
        picked = hand_view(scene, tr, picked=step.card)
        assert sight.unseen_in(shown(picked), seat) == set()
        check_layout(picked.markup)
        *covers, back = presses(picked, seat).values()
        assert isinstance(back, Back) and covers
        found |= {cover for cover in covers if isinstance(cover, Action)}
    assert sight.unseen_in(shown(rendered), seat) == set(), rendered.text
    check_layout(rendered.markup)
    return found


def must_offer(actions: list[Action]) -> set[Action]:
    """All legal actions but openings mixing ranks (none exist here: a blind opening is one
    card, or in ``doubt`` several of one rank)."""
    return {a for a in actions if not isinstance(a, Attack) or len({c.rank for c in a.cards}) == 1}


BLIND_GAMES = [
    (players, seed, rules)
    for rules in (REVERSED, CHINESE, DOUBT)
    for players, seed in ((2, 1), (3, 2), (4, 3))
]


@pytest.mark.parametrize(("players", "seed", "rules"), BLIND_GAMES)
def test_whole_blind_games_show_each_seat_only_what_it_saw(
    players: int, seed: int, rules: HouseRules
) -> None:
    """Every position of a game played at random: no message names a card its reader has
    not seen (the group's table: nothing but public cards); every keyboard reaches exactly
    the legal actions; texts are HTML within Telegram's limits."""
    rng = random.Random(seed)
    state = new_game(players, rules=rules, seed=seed)
    sight = Sight()
    log: list[dict[str, Any]] = []
    for index in range(sized(400, 3000)):
        sight.look(state)
        lang = SUPPORTED[index % 2]
        tr = translator(lang)
        game = chat_game(state, players, lang)
        game.log = log
        group = table_view(table_scene(game), tr)
        assert sight.unseen_in(shown(group), None) == set(), group.text
        for seat in range(players):
            assert reached(game, seat, tr, sight) == must_offer(legal_actions(state, seat))
            popup = hand_popup(hand_scene(game, seat).view, tr)
            assert len(popup) <= MAX_POPUP and sight.unseen_in(popup, seat) == set()
        if state.finished:
            return
        state, events = apply(state, rng.choice(legal_actions(state, rng.choice(state.acting))))
        log = append_log(log, events)
    assert rules.blind is Blind.REVERSED  # a long random game: seen far enough
