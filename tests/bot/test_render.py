"""Rendering: the lobby, the group's table and the private hand, in ru and uk, for real
engine states; privacy of the table, exactly the legal actions on the hand keyboard."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import product
from typing import get_args

import pytest
from views import (
    ESCAPED_VASYA,
    buttons,
    cards,
    chat_game,
    check_html,
    check_layout,
    decode_action,
    play,
    position,
    random_game,
)

from bot.i18n import SUPPORTED, Translator, translator
from bot.model import (
    BOT_LOG_KINDS,
    ChatGame,
    ChatSettings,
    LogKind,
    Phase,
    Series,
    append_log,
    event_to_log,
)
from bot.schema.presses import Pick
from bot.schema.settings import VARIANT_KEYS
from bot.ui.callbacks import (
    BACK,
    HandPress,
    LobbyPress,
    decode_press,
)
from bot.ui.render import (
    MAX_POPUP,
    Rendered,
    action_label,
    card_label,
    error_text,
    hand_popup,
    hand_scene,
    hand_view,
    lobby_view,
    narrate,
    rules_line,
    rules_text,
    table_scene,
    table_view,
)
from engine import (
    Action,
    Attack,
    Attacked,
    BeatenOff,
    BoutStarted,
    Card,
    Code,
    Covered,
    DeclaredTake,
    Defend,
    Drew,
    Event,
    FirstBoutLimit,
    GameOver,
    GameState,
    HouseRules,
    NextGameStart,
    NoTrumpStart,
    Pass,
    Passed,
    PlayerOut,
    Resigned,
    Suit,
    Take,
    ThrewIn,
    Throw,
    ThrowIn,
    Took,
    Transfer,
    Transferred,
    apply,
    legal_actions,
    new_game,
)
from engine.cards import CARDS, deck_cards
from tests.soak import sized


def decode_pick(code: str) -> Card:
    press = decode_press(code)
    assert isinstance(press, Pick), press
    return press.card


def offered(game: ChatGame, seat: int, tr: Translator) -> set[Action]:
    """Every action the seat can reach from its keyboard: directly or via the pick step.
    Checks on the way that every button decodes to a legal action or a pick step."""
    state = game.state
    assert state is not None
    legal = set(legal_actions(state, seat))
    rendered = hand_view(hand_scene(game, seat), tr)
    check_html(rendered.text)
    check_layout(rendered.markup)
    reached: set[Action] = set()
    for _text, data in buttons(rendered.markup):
        press = HandPress.unpack(data)
        assert (press.chat, press.game, press.moves) == (game.chat_id, game.game_id, state.moves)
        step = decode_press(press.act)
        if isinstance(step, Pick):
            card = step.card
            picked = hand_view(hand_scene(game, seat), tr, picked=card)
            check_html(picked.text)
            check_layout(picked.markup)
            targets = buttons(picked.markup)
            assert HandPress.unpack(targets[-1][1]).act == BACK
            covers = [decode_action(HandPress.unpack(d).act, seat) for _, d in targets[:-1]]
            assert len(covers) >= 2, "a single target is covered directly"
            assert all(isinstance(a, Defend) and a.card == card for a in covers)
            reached.update(covers)
        else:
            reached.add(decode_action(press.act, seat))
    assert reached <= legal, reached - legal
    return reached


def must_offer(actions: list[Action]) -> set[Action]:
    """Legal actions the keyboard must offer: all but throws mixing ranks in one press
    (those cards can be thrown one by one)."""
    return {
        a
        for a in actions
        if not isinstance(a, Attack | Throw) or len({c.rank for c in a.cards}) == 1
    }


def hidden_cards(state: GameState) -> set[Card]:
    """Cards in hands that nobody else has seen: the table view must never name them."""
    shown = {state.trump_card} if state.trump_card is not None else set()
    hidden: set[Card] = set()
    for hand, known in zip(state.hands, state.known, strict=True):
        hidden |= {CARDS[c] for c in range(52) if (hand & ~known) >> c & 1}
    return hidden - shown


GAMES = [
    (2, 1, HouseRules()),
    (2, 7, HouseRules(deck=24, max_players=4, transfer=True)),
    (4, 2, HouseRules()),
    (4, 3, HouseRules(throw_in=ThrowIn.ALL, transfer=True)),
    (6, 4, HouseRules(throw_in=ThrowIn.NEIGHBORS_FIRST_RANK)),
    (6, 5, HouseRules(transfer=True, first_bout_limit=FirstBoutLimit.FIRST_BOUT)),
    (8, 6, HouseRules(deck=52, max_players=8, throw_in=ThrowIn.ALL)),
]


@pytest.mark.parametrize(("players", "seed", "rules"), GAMES)
def test_whole_games_render_within_the_rules(players: int, seed: int, rules: HouseRules) -> None:
    """Every position: the table names no hidden card, a private message none but its
    player's own; every hand button is a legal action and every legal action has a button;
    texts are valid HTML within Telegram's limits."""
    for index, game in enumerate(random_game(players, seed, rules)):
        state = game.state
        assert state is not None
        tr = translator(SUPPORTED[index % 2])
        table = table_view(table_scene(game), tr)
        plain = check_html(table.text)
        check_layout(table.markup)
        leaked = [card_label(c, tr) for c in hidden_cards(state) if card_label(c, tr) in plain]
        assert leaked == [], f"the table shows {leaked}"
        for seat in range(players):
            reached = offered(game, seat, tr)
            assert must_offer(legal_actions(state, seat)) <= reached
            assert len(hand_popup(hand_scene(game, seat).view, tr)) <= MAX_POPUP
            private = check_html(hand_view(hand_scene(game, seat), tr).text)
            secret = hidden_cards(state) - set(state.hand(seat))
            leaked = [card_label(c, tr) for c in secret if card_label(c, tr) in private]
            assert leaked == [], f"seat {seat} is shown {leaked}"
    assert game.state is not None and game.state.finished


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_keyboard_fits_a_phone(lang: str) -> None:
    """Many random positions, every seat: the hand (and its pick step), the table and the
    lobby have at most three buttons a row, each label at most ``MAX_LABEL`` characters."""
    tr = translator(lang)
    rng = random.Random(9)
    for seed in range(sized(10, 40)):  # positions of 10 random games, of 40 in CI
        players = rng.randint(2, 6)
        rules = HouseRules(
            deck=rng.choice((36, 52)),
            max_players=6,
            transfer=rng.random() < 0.6,
            throw_in=rng.choice(list(ThrowIn)),
        )
        for game in random_game(players, seed, rules):
            check_layout(table_view(table_scene(game), tr).markup)
            for seat in range(players):
                offered(game, seat, tr)
        for seated in range(7):
            check_layout(lobby_view(chat_game(None, seated, lang), tr).markup)
        check_layout(table_view(table_scene(game), tr).markup)  # finished: «Play again»
        game.series = Series(10, number=9, durak={100: 0, 101: 0})
        check_layout(table_view(table_scene(game), tr).markup)  # «Next game (10 of 10)»


@pytest.mark.parametrize("lang", SUPPORTED)
def test_three_transfers_show_the_cards_first_three_to_a_row(lang: str) -> None:
    """``[Беру] [↪️ Перевести 9♠] [↪️ Перевести 9♥] [↪️ Перевести 9♣]`` was cut to
    «↪️ Перев…» on a phone: the transfers are short, on a row of their own."""
    tr = translator(lang)
    rules = HouseRules(transfer=True)
    state = position("9D 6S 7S", "9S 9H 9C", "6C 10C QD KD", trump=Suit.CLUBS, rules=rules)
    state = play(state, Attack(0, cards("9D")))
    rendered = hand_view(hand_scene(chat_game(state, 3, lang), 1), tr)
    assert rendered.markup is not None
    check_layout(rendered.markup)
    *_, transfers, take = rendered.markup.inline_keyboard
    nines = [card_label(Card.parse(c), tr) for c in ("9S", "9H", "9C")]
    assert [b.text for b in transfers] == [f"↪️ {nine}" for nine in nines]
    assert [b.text for b in take] == [tr.t("btn-take")]


@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_defend_prompt_offers_only_what_the_buttons_do(lang: str) -> None:
    """Nothing covers 10♠ (no trump, no higher spade): the prompt says so and does not ask
    to cover; with a ten to transfer it offers the transfer."""
    tr = translator(lang)
    state = play(position("10S 6D", "7S 8H", trump=Suit.CLUBS), Attack(0, cards("10S")))
    rendered = hand_view(hand_scene(chat_game(state, 2, lang), 1), tr)
    assert [t for t, _ in buttons(rendered.markup)] == [tr.t("btn-take")]
    assert tr.t("hand-defend-take") in rendered.text
    assert tr.t("hand-defend") not in rendered.text
    rules = HouseRules(transfer=True)
    state = position("10S 6D", "10H 8H", "6C 7C 8C", trump=Suit.CLUBS, rules=rules)
    state = play(state, Attack(0, cards("10S")))
    rendered = hand_view(hand_scene(chat_game(state, 3, lang), 1), tr)
    assert {decode_action(HandPress.unpack(d).act, 1) for _, d in buttons(rendered.markup)} == {
        Transfer(1, Card.parse("10H")),
        Take(1),
    }
    assert tr.t("hand-defend-transfer-only") in rendered.text


@pytest.mark.parametrize(
    ("lang", "left", "words"),
    [
        ("ru", 1, "Можно подкинуть ещё одну карту или спасовать."),
        ("ru", 2, "Можно подкинуть ещё до 2 карт или спасовать."),
        ("ru", 5, "Можно подкинуть ещё до 5 карт или спасовать."),
        ("uk", 1, "Можна підкинути ще одну карту або спасувати."),
        ("uk", 3, "Можна підкинути ще до 3 карт або спасувати."),
    ],
)
def test_the_thrower_is_told_how_many_cards_more_in_words(lang: str, left: int, words: str) -> None:
    """Not «Можно подкинуть (ещё до 1)»: how many more cards, with plural forms."""
    tr = translator(lang)
    defender = " ".join(["8S", "8H", "8D", "9S", "9H", "9D"][: left + 1])  # as many as it may take
    state = position("6S 6H 7S", defender, "QS QH", trump=Suit.CLUBS)
    state = play(state, Attack(0, cards("6S")))
    assert state.bout is not None and state.bout.limit - len(state.bout.attacks) == left
    rendered = hand_view(hand_scene(chat_game(state, 3, lang), 0), tr)
    assert words in rendered.text


@pytest.mark.parametrize("lang", SUPPORTED)
def test_lobby_lists_players_in_join_order_with_join_leave_start(lang: str) -> None:
    tr = translator(lang)
    game = chat_game(None, 3, lang)
    rendered = lobby_view(game, tr)
    plain = check_html(rendered.text)
    assert plain.index("Оля") < plain.index("<b>Вася</b>") < plain.index("Петя & Co")
    assert ESCAPED_VASYA in rendered.text
    assert "Петя &amp; Co" in rendered.text
    assert rules_line(game.settings, tr) in plain
    ops = [LobbyPress.unpack(d).op for _, d in buttons(rendered.markup)]
    assert ops == ["join", "leave", "bot+", "start"]
    assert all(LobbyPress.unpack(d).game == game.game_id for _, d in buttons(rendered.markup))


def test_an_empty_lobby_invites_players() -> None:
    tr = translator("ru")
    rendered = lobby_view(chat_game(None, 0), tr)
    assert tr.t("lobby-nobody") in rendered.text


@pytest.mark.parametrize(("lang", "players"), list(product(SUPPORTED, (2, 4, 6))))
def test_table_shows_trump_counts_roles_and_my_cards(lang: str, players: int) -> None:
    tr = translator(lang)
    state = new_game(players, seed=players)
    game = chat_game(state, players, lang)
    rendered = table_view(table_scene(game), tr)
    plain = check_html(rendered.text)
    assert state.trump_card is not None
    assert card_label(state.trump_card, tr) in plain
    assert str(len(state.stock)) in plain
    assert tr.t("cards-count", count=6) in plain
    assert tr.t("role-attacker") in plain and tr.t("role-defender") in plain
    assert ESCAPED_VASYA in rendered.text
    assert "<b>Вася</b>" in plain  # shown as typed, not as markup
    assert [LobbyPress.unpack(d).op for _, d in buttons(rendered.markup)] == ["cards"]


@pytest.mark.parametrize("lang", SUPPORTED)
def test_table_shows_the_pairs_whose_move_and_the_log(lang: str) -> None:
    tr = translator(lang)
    state = position("7S 7C AD", "9H 8S 8C", trump=Suit.HEARTS)
    state, events = apply(state, Attack(0, cards("7S 7C")))
    game = chat_game(state, 2, lang)
    game.log = append_log([], events)
    state, events = apply(state, Defend(1, Card.parse("8S"), Card.parse("7S")))
    game.state, game.log = state, append_log(game.log, events)
    plain = check_html(table_view(table_scene(game), tr).text)
    assert f"{card_label(Card.parse('7S'), tr)}/{card_label(Card.parse('8S'), tr)}" in plain
    assert f"{card_label(Card.parse('7C'), tr)}/?" in plain
    assert check_html(tr.t("table-turn-defend", defender=ESCAPED_VASYA)) in plain
    assert narrate(event_to_log(events[0]), game, tr) in table_view(table_scene(game), tr).text


def finished_game(draw: bool, lang: str) -> ChatGame:
    if draw:  # both hands empty when the stock is: nobody is the durak (R-OUT-5)
        state = position("7S", "9S", trump=Suit.SPADES)
        moves: tuple[Action, ...] = (
            Attack(0, cards("7S")),
            Defend(1, Card.parse("9S"), Card.parse("7S")),
        )
    else:  # the defender cannot beat and takes; seat 0 is out, seat 1 the durak
        state = position("7S", "6S 8H", trump=Suit.SPADES)
        moves = (Attack(0, cards("7S")), Take(1))
    game = chat_game(state, 2, lang)
    for move in moves:
        state, events = apply(state, move)
        game.log = append_log(game.log, events)
    game.state = state
    game.phase = Phase.FINISHED
    assert state.finished and (state.durak is None) == draw
    return game


@pytest.mark.parametrize(("lang", "draw"), list(product(SUPPORTED, (False, True))))
def test_finished_table_shows_durak_or_draw_order_and_play_again(lang: str, draw: bool) -> None:
    tr = translator(lang)
    game = finished_game(draw, lang)
    rendered = table_view(table_scene(game), tr)
    check_html(rendered.text)
    if draw:
        assert tr.t("table-draw") in rendered.text
    else:
        assert tr.t("table-order-durak", name=ESCAPED_VASYA, why="none") in rendered.text
        assert tr.t("table-order-line", place=1, name="Оля") in rendered.text
    assert [LobbyPress.unpack(d).op for _, d in buttons(rendered.markup)] == ["again"]
    for seat in (0, 1):
        hand = hand_view(hand_scene(game, seat), tr)
        check_html(hand.text)
        assert hand.markup is None


@pytest.mark.parametrize("lang", SUPPORTED)
def test_hand_is_sorted_by_suit_with_trumps_last(lang: str) -> None:
    tr = translator(lang)
    state = position("AH 6S 7H QS 10D 6H", "9C", trump=Suit.HEARTS)
    rendered = hand_view(hand_scene(chat_game(state, 2, lang), 0), tr)
    order = ["6S", "QS", "10D", "6H", "7H", "AH"]
    plain = check_html(rendered.text)
    line = next(line for line in plain.splitlines() if card_label(Card.parse("QS"), tr) in line)
    positions = [line.index(card_label(Card.parse(c), tr)) for c in order]
    assert positions == sorted(positions)
    labels = [t for t, _ in buttons(rendered.markup)]
    assert labels[:6] == [card_label(Card.parse(c), tr) for c in order]


@pytest.mark.parametrize("lang", SUPPORTED)
def test_several_cards_of_one_rank_open_with_one_button(lang: str) -> None:
    tr = translator(lang)
    state = position("6S 6H 6D 9C", "7S 8S 9S 10S", trump=Suit.CLUBS)
    game = chat_game(state, 2, lang)
    labels = {
        t: HandPress.unpack(d).act for t, d in buttons(hand_view(hand_scene(game, 0), tr).markup)
    }
    six = {s: card_label(Card.parse(f"6{s}"), tr) for s in "SHD"}
    assert decode_action(labels[f"{six['S']}+{six['H']}+{six['D']}"], 0) == Attack(
        0, cards("6S 6H 6D")
    )
    assert decode_action(labels[f"{six['S']}+{six['D']}"], 0) == Attack(0, cards("6S 6D"))


@pytest.mark.parametrize("lang", SUPPORTED)
def test_cover_picks_the_card_then_the_target_with_back(lang: str) -> None:
    """9♥ (trump) beats both 7♠ and 7♣: pick it, then the target. 8♠ fits only 7♠ and
    8♣ only 7♣: those buttons cover at once."""
    tr = translator(lang)
    state = position("7S 7C AD", "9H 8S 8C", trump=Suit.HEARTS)
    state = play(state, Attack(0, cards("7S 7C")))
    game = chat_game(state, 2, lang)
    acts = {
        t: HandPress.unpack(d).act for t, d in buttons(hand_view(hand_scene(game, 1), tr).markup)
    }
    nine = card_label(Card.parse("9H"), tr)
    assert decode_pick(acts[nine + "…"]) == Card.parse("9H")
    assert decode_action(acts[card_label(Card.parse("8S"), tr)], 1) == Defend(
        1, Card.parse("8S"), Card.parse("7S")
    )
    assert decode_action(acts[tr.t("btn-take")], 1) == Take(1)
    picked = hand_view(hand_scene(game, 1), tr, picked=Card.parse("9H"))
    assert tr.t("hand-pick-target", card=nine) in picked.text
    step = [HandPress.unpack(d).act for _, d in buttons(picked.markup)]
    assert [decode_action(a, 1) for a in step[:-1]] == [
        Defend(1, Card.parse("9H"), Card.parse("7S")),
        Defend(1, Card.parse("9H"), Card.parse("7C")),
    ]
    assert step[-1] == BACK
    assert buttons(picked.markup)[-1][0] == tr.t("btn-back")
    # A stale pick (a card that covers nothing now) shows the whole hand again.
    assert hand_view(hand_scene(game, 1), tr, picked=Card.parse("AD")) == hand_view(
        hand_scene(game, 1), tr
    )


@pytest.mark.parametrize("lang", SUPPORTED)
def test_transfer_take_and_pass_have_their_own_row(lang: str) -> None:
    tr = translator(lang)
    rules = HouseRules(transfer=True)
    state = position("7S 7C 9D", "7H 8S KC", "6C 10C QD", trump=Suit.DIAMONDS, rules=rules)
    state = play(state, Attack(0, cards("7S")))
    game = chat_game(state, 3, lang)
    rendered = hand_view(hand_scene(game, 1), tr)
    assert rendered.markup is not None
    transfer, take = (
        [decode_action(HandPress.unpack(b.callback_data or "").act, 1) for b in row]
        for row in rendered.markup.inline_keyboard[-2:]
    )
    assert (transfer, take) == ([Transfer(1, Card.parse("7H"))], [Take(1)])
    assert tr.t("hand-defend-transfer") in rendered.text
    state = play(state, Take(1))
    game = chat_game(state, 3, lang)
    thrower = hand_view(hand_scene(game, 0), tr)
    assert thrower.markup is not None
    row = thrower.markup.inline_keyboard[-1]
    assert [b.text for b in row] == [tr.t("btn-pass-taking")]
    assert decode_action(HandPress.unpack(row[0].callback_data or "").act, 0) == Pass(0)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_waiting_player_gets_no_buttons(lang: str) -> None:
    tr = translator(lang)
    state = new_game(3, seed=11)
    game = chat_game(state, 3, lang)
    waiting = next(s for s in range(3) if s not in state.acting)
    rendered = hand_view(hand_scene(game, waiting), tr)
    assert rendered.markup is None
    assert (
        "Оля" in rendered.text or ESCAPED_VASYA in rendered.text or "Петя &amp; Co" in rendered.text
    )


@pytest.mark.parametrize("lang", SUPPORTED)
def test_popup_fits_200_characters_even_for_a_huge_hand(lang: str) -> None:
    tr = translator(lang)
    rules = HouseRules(deck=52, max_players=8)
    everything = " ".join(str(c) for c in deck_cards(52) if str(c) not in ("2S", "3S"))
    state = position(everything, "2S", "3S", trump=Suit.HEARTS, rules=rules, attacker=1)
    popup = hand_popup(hand_scene(chat_game(state, 3, lang), 0).view, tr)
    assert len(popup) <= MAX_POPUP
    assert "<" not in popup
    small = hand_popup(hand_scene(chat_game(state, 3, lang), 1).view, tr)
    assert card_label(Card.parse("2S"), tr) in small


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_event_kind_is_narrated(lang: str) -> None:
    tr = translator(lang)
    game = chat_game(new_game(3, seed=1), 3, lang)
    s7, s9, h7 = Card.parse("7S"), Card.parse("9S"), Card.parse("7H")
    events: list[Event] = [
        Attacked(0, (s7, h7)),
        ThrewIn(2, (h7,)),
        Covered(1, s9, s7),
        Transferred(1, h7, 2),
        Passed(0),
        DeclaredTake(1),
        Took(1, (s7, s9, h7, s7, s9)),
        BeatenOff(1, (s7, s9)),
        Drew(0, 3),
        PlayerOut(0, 1),
        BoutStarted(0, 1, 6),
        GameOver(1),
        GameOver(None),
        Resigned(2),
    ]
    for event in events:
        line = narrate(event_to_log(event), game, tr)
        check_html(line)
        assert line, event
        if not isinstance(event, GameOver | BoutStarted) or event == GameOver(1):
            assert "Оля" in line or ESCAPED_VASYA in line or "Петя &amp; Co" in line
    assert tr.t("cards-count", count=5).split()[0] in narrate(event_to_log(events[6]), game, tr)
    assert narrate({"e": "SomethingNew"}, game, tr) == ""


def test_every_engine_event_has_a_log_kind() -> None:
    """``narrate`` matches on ``LogKind`` (mypy checks it tells every kind): a new engine
    event must become a kind, or the table would leave it out silently."""
    assert {cls.__name__ for cls in get_args(Event)} == set(LogKind) - BOT_LOG_KINDS


def all_settings() -> Iterator[ChatSettings]:
    for throw_in, limit, no_trump, next_start, transfer in product(
        ThrowIn, FirstBoutLimit, NoTrumpStart, NextGameStart, (False, True)
    ):
        rules = HouseRules(
            throw_in=throw_in,
            first_bout_limit=limit,
            no_trump_start=no_trump,
            next_game_start=next_start,
            transfer=transfer,
        )
        yield ChatSettings(rules=rules)
    for deck, timeout, series, language in product(
        (24, 36, 52), (0, 30, 60), (1, 3, 10), SUPPORTED
    ):
        yield ChatSettings(
            rules=HouseRules(deck=deck, max_players=deck // 6),
            turn_timeout=timeout,
            series=series,
            language=language,
        )


@pytest.mark.parametrize("lang", SUPPORTED)
def test_rules_explain_every_setting_one_line_each(lang: str) -> None:
    tr = translator(lang)
    for settings in all_settings():
        text = rules_text(settings, tr)
        check_html(text)
        # a title, eleven keys (RULES.md §2) and the six variants of section 13
        assert len(text.splitlines()) == 12 + len(VARIANT_KEYS)
        line = rules_line(settings, tr)
        assert "\n" not in line
        assert str(settings.rules.deck) in line


def test_rules_tell_the_settings_apart() -> None:
    tr = translator("ru")
    settings = set(all_settings())
    assert len({rules_text(s, tr) for s in settings}) == len(settings)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_error_codes_map_to_messages(lang: str) -> None:
    tr = translator(lang)
    assert error_text(Code.DOES_NOT_BEAT, tr) == tr.t("error-does-not-beat")
    assert error_text(None, tr) == tr.t("error-unknown")
    texts = {error_text(code, tr) for code in Code}
    assert len(texts) == len(Code)  # every code has its own message


@pytest.mark.parametrize("lang", SUPPORTED)
def test_action_labels(lang: str) -> None:
    tr = translator(lang)
    six_s, six_h = card_label(Card.parse("6S"), tr), card_label(Card.parse("6H"), tr)
    assert action_label(Attack(0, cards("6S 6H")), tr) == f"{six_s}+{six_h}"
    assert action_label(Take(1), tr) == tr.t("btn-take")
    assert six_s in action_label(Transfer(1, Card.parse("6S")), tr)
    assert six_h in action_label(Defend(1, Card.parse("6H"), Card.parse("6S")), tr)


def test_rendered_is_a_frozen_value() -> None:
    rendered = Rendered("x")
    with pytest.raises(AttributeError):
        rendered.text = "y"  # type: ignore[misc]
