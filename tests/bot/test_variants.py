"""The regional variants in the bot (RULES.md section 13): their settings, the
start refused for a team count that cannot play, teams chosen in the lobby, the dealer
naming the trump, the exchange button, what the table and the private views tell (the
exchange, the Northern change, epaulettes, the losing team), and that no view shows a card
its reader may not see under any variant."""

from __future__ import annotations

import random

import pytest
from kit import ANNA, BORIS, CHAT, GLEB, VERA, Clock, no, reason_of, seated
from test_private_view import compare_with_hidden_dealt_anew
from views import NAMES, buttons, cards, chat_game, check_html, play, position, random_game

from bot.i18n import SUPPORTED, translator
from bot.model import ChatSettings, GameRecord, LogKind, Phase, Seat, append_log
from bot.schema.refusals import Reason
from bot.schema.settings import VARIANT_KEYS, SettingError, choices, token
from bot.schema.stats import GameResult, PlayerResult, game_result
from bot.schema.teams import next_team, seated_by_team, teams_of
from bot.services import Changed, GameService
from bot.services.computers import ComputerSeats
from bot.services.decisions import first_dealer, seating
from bot.services.settings import changed
from bot.storage import Storage
from bot.storage.tx import Writes
from bot.ui.board import narrate
from bot.ui.common import card_label, name
from bot.ui.lobby import lobby_view, rules_text
from bot.ui.render import hand_scene, hand_view, table_scene, table_view
from bot.ui.settings import button_name, error_text, settings_menu, settings_view, value_about
from bot.ui.stats import leaderboard_text, personal_text
from engine import (
    Attack,
    Card,
    Defend,
    Epaulettes,
    Exchange,
    Exchanged,
    GameOver,
    HouseRules,
    Pogony,
    Suit,
    Teams,
    TrumpChanged,
    TrumpChoice,
    legal_actions,
    new_game,
)
from engine.rules import player_counts, variant_combinations

DEFAULT = ChatSettings()


# -- settings ----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", VARIANT_KEYS)
def test_every_variant_key_takes_each_of_its_values_by_set(key: str) -> None:
    """R-VAR: each key of section 13 is a /set key with its values (deck 52 and 6 seats, so
    that every value can be played)."""
    base = changed(DEFAULT, "deck", "52")
    for value in choices(base, key):
        assert token(changed(base, key, value), key) == value


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_combination_never_played_is_refused_with_its_reason(lang: str) -> None:
    """R-VAR-1: teams at a table of at most three, the exchange without a face-up trump:
    refused when chosen, with a reason that says how to fix it; nothing changes."""
    tr = translator(lang)
    small = changed(DEFAULT, "max_players", "3")
    with pytest.raises(SettingError) as raised:
        changed(small, "teams", "pairs")
    assert raised.value.code == "impossible" and raised.value.problem == "teams_need_seats"
    text = error_text(raised.value, small, tr)
    assert tr.t("setting-teams") in text and "4" in text
    dealer = changed(DEFAULT, "trump", "dealer")
    with pytest.raises(SettingError) as raised:
        changed(dealer, "trump_six_exchange", "on")
    assert raised.value.problem == "exchange_needs_turned_trump"
    assert tr.t("setting-trump-six-exchange") in error_text(raised.value, dealer, tr)
    exchange = changed(DEFAULT, "trump_six_exchange", "on")
    with pytest.raises(SettingError):
        changed(exchange, "trump", "japanese")
    with pytest.raises(SettingError):  # and the other way round: the deck makes too few seats
        changed(changed(DEFAULT, "teams", "triples"), "deck", "24")


@pytest.mark.parametrize("lang", SUPPORTED)
def test_each_variant_value_has_its_meaning_one_press_away(lang: str) -> None:
    """The button of a variant opens its values with what each means (even a switch of two
    values, which would otherwise flip unseen)."""
    tr = translator(lang)
    view = settings_view(DEFAULT, tr)
    datas = dict(buttons(view.markup))
    for key in VARIANT_KEYS:
        label = next(text for text in datas if text.startswith(button_name(key, tr)))
        assert datas[label] == f"cfg:open:{key}:", (key, datas[label])
        menu = settings_menu(DEFAULT, key, tr)
        check_html(menu.text)
        for value in choices(DEFAULT, key):
            about = value_about(key, value, tr)
            assert about is not None and about in menu.text, (key, value)


@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_rules_and_the_lobby_line_tell_the_variants(lang: str) -> None:
    tr = translator(lang)
    settings = changed(changed(DEFAULT, "teams", "pairs"), "pogony", "title")
    text = rules_text(settings, tr)
    assert tr.t("setting-teams-pairs-about") in text
    assert tr.t("setting-pogony-title-about") in text
    game = chat_game(None, 2, lang)
    game.settings = settings
    lobby = lobby_view(game, tr).text
    assert tr.t("setting-teams-pairs") in lobby and tr.t("setting-pogony-title") in lobby


# -- teams in the lobby (R-TEAM-1) --------------------------------------------------------


def _seats(n: int, teams: dict[int, int] | None = None) -> list[Seat]:
    chosen = teams or {}
    return [Seat(i, NAMES[i], team=chosen.get(i)) for i in range(n)]


def test_r_team_1_seats_alternate_and_keep_the_chosen_teams() -> None:
    pairs = HouseRules(teams=Teams.PAIRS)
    players = _seats(4, {0: 0, 1: 0})  # 0 and 1 want to play together
    order = [p.user_id for p in seated_by_team(players, pairs)]
    assert {order[0], order[2]} == {0, 1} and {order[1], order[3]} == {2, 3}
    six = _seats(6, {5: 0})
    assert [len(team) for team in teams_of(six, HouseRules(teams=Teams.TRIPLES))] == [3, 3]
    order = [p.user_id for p in seated_by_team(six, HouseRules(teams=Teams.TRIPLES))]
    assert 5 in order[0::2]
    assert [len(team) for team in teams_of(six, pairs)] == [2, 2, 2]
    assert [p.user_id for p in seated_by_team(_seats(3), HouseRules())] == [0, 1, 2]
    assert next_team(players, pairs, 0) == 1 and next_team(players, HouseRules(), 0) is None


@pytest.fixture
def service(storage: Storage) -> GameService:
    return GameService(storage, clock=Clock(), seed=lambda: f"{42:064x}")


async def set_rules(storage: Storage, **rules: object) -> None:
    settings = ChatSettings(rules=HouseRules(**rules), turn_timeout=30)  # type: ignore[arg-type]
    await storage.settings.set(CHAT, settings)


async def test_the_start_says_why_the_teams_cannot_play_and_how_to_fix_it(
    service: GameService, storage: Storage
) -> None:
    """R-TEAM-1 at «Начать»: three players cannot play in pairs; nothing is dealt."""
    await set_rules(storage, teams=Teams.PAIRS)
    await seated(service, ANNA, BORIS, VERA)
    refused = await service.start(CHAT, ANNA.user_id, is_admin=no)
    assert reason_of(refused) is Reason.TEAMS_PAIRS_COUNT
    assert refused.record is not None and refused.record.game.phase is Phase.LOBBY
    for lang in SUPPORTED:
        text = translator(lang).t("answer-teams-pairs-count")
        assert "/set teams off" in text and len(text) <= 200
    await service.storage.users.mark_started(GLEB.user_id)
    assert isinstance(await service.join(CHAT, GLEB, can_message=no), Changed)
    switched = await service.switch_team(CHAT, ANNA.user_id, game_id=refused.record.game.game_id)
    assert isinstance(switched, Changed)
    started = await service.start(CHAT, ANNA.user_id, is_admin=no)
    assert isinstance(started, Changed)
    game = started.record.game
    assert game.state is not None and game.state.teams == ((0, 2), (1, 3))
    # Anna moved to the second team: she sits at an odd seat, her partner across.
    assert game.seat_of(ANNA.user_id) in (1, 3)


# -- the dealer names the trump (R-TRUMP-1) -----------------------------------------------


async def asking_the_dealer(service: GameService, storage: Storage) -> GameRecord:
    """Anna and Boris under ``trump: dealer``, «Начать» pressed: the dealer is asked."""
    await set_rules(storage, trump=TrumpChoice.DEALER)
    await seated(service, ANNA, BORIS)
    asked = await service.start(CHAT, ANNA.user_id, is_admin=no)
    assert isinstance(asked, Changed)
    return asked.record


async def test_r_trump_1_the_dealer_names_the_trump_and_nobody_else(
    service: GameService, storage: Storage
) -> None:
    asked = await asking_the_dealer(service, storage)
    game = asked.game
    assert game.phase is Phase.LOBBY and game.naming in (ANNA.user_id, BORIS.user_id)
    assert asked.deadline == 1000.0 + 30  # the turn timer from the start press
    other = BORIS if game.naming == ANNA.user_id else ANNA
    game_id = game.game_id
    assert reason_of(await service.name_trump(CHAT, game_id, other.user_id, Suit.CLUBS)) is (
        Reason.NOT_DEALER
    )
    assert reason_of(await service.join(CHAT, VERA, can_message=no)) is Reason.GAME_RUNNING
    tr = translator("ru")
    lobby = lobby_view(game, tr)
    assert tr.t("btn-trump", symbol="♥", suit=tr.t("suit-H")) in dict(buttons(lobby.markup))
    named = await service.name_trump(CHAT, game_id, game.naming, Suit.HEARTS)
    assert isinstance(named, Changed)
    dealt = named.record.game
    assert dealt.phase is Phase.PLAYING and dealt.state is not None
    assert dealt.state.trump is Suit.HEARTS and dealt.state.trump_card is None
    assert dealt.players[dealt.state.dealer].user_id == game.naming  # who named deals
    entry = dealt.log[0]
    assert entry["e"] == LogKind.TRUMP_NAMED and entry["suit"] == "H" and "auto" not in entry
    assert "♥" in narrate(entry, dealt, tr)


async def test_a_dealer_whose_time_runs_out_gets_a_suit_said_so(
    service: GameService, storage: Storage
) -> None:
    await asking_the_dealer(service, storage)
    assert reason_of(await service.expire_turn(CHAT)) is Reason.NOT_DUE
    service.clock.now += 31  # type: ignore[attr-defined]
    timed_out = await service.expire_turn(CHAT)
    assert isinstance(timed_out, Changed)
    game = timed_out.record.game
    assert game.phase is Phase.PLAYING and game.state is not None
    entry = game.log[0]
    assert entry["e"] == LogKind.TRUMP_NAMED and entry["auto"] is True
    assert game.state.trump is Suit.parse(entry["suit"])
    for lang in SUPPORTED:
        tr = translator(lang)
        assert "🎲" in narrate(entry, game, tr)


async def test_a_computer_dealer_names_the_trump_at_once(
    service: GameService, storage: Storage
) -> None:
    await set_rules(storage, trump=TrumpChoice.DEALER)
    record = await seated(service, ANNA)
    computers = ComputerSeats(service)
    for _ in range(3):
        await computers.add(CHAT, ANNA, level="easy", game_id=record.game.game_id)
    for attempt in range(20):  # the dealer is drawn by lot: a seed where a computer deals
        seed = f"{attempt:064x}"
        service.seed = lambda seed=seed: seed  # type: ignore[misc]
        lobby = await service.games.get(CHAT)
        assert lobby is not None
        players, _ = seating(lobby)
        if players[first_dealer(lobby, seed)].computer:
            break
    started = await service.start(CHAT, ANNA.user_id, is_admin=no)
    assert isinstance(started, Changed)
    game = started.record.game
    assert game.phase is Phase.PLAYING and game.naming is None
    assert game.log[0]["e"] == LogKind.TRUMP_NAMED and "auto" not in game.log[0]


# -- what the table and the private views tell ------------------------------------------------


@pytest.mark.parametrize("lang", SUPPORTED)
def test_r_six_1_the_holder_sees_the_exchange_button_and_the_log_tells_it(lang: str) -> None:
    tr = translator(lang)
    rules = HouseRules(trump_six_exchange=True)
    for seed in range(200):
        state = new_game(4, rules=rules, seed=seed)
        holder = next((s for s in state.acting if Exchange(s) in legal_actions(state, s)), None)
        if holder is not None:
            break
    assert holder is not None and state.trump_card is not None
    game = chat_game(state, 4, lang)
    view = hand_view(hand_scene(game, holder), tr)
    low = Card.of({36: 4}[36], state.trump)
    label = tr.t("btn-exchange", card=card_label(low, tr), took=card_label(state.trump_card, tr))
    assert label.startswith("🔄") and label in dict(buttons(view.markup))
    assert buttons(view.markup)[0][0] == label  # first: it comes before the move
    game.log = append_log([], [Exchanged(holder, low, state.trump_card)])
    assert narrate(game.log[0], game, tr) == tr.t(
        "event-exchanged",
        name=name(game, holder),
        card=card_label(low, tr),
        took=card_label(state.trump_card, tr),
    )


@pytest.mark.parametrize("lang", SUPPORTED)
def test_r_trump_3_the_change_is_told_and_the_table_shows_the_new_trump(lang: str) -> None:
    tr = translator(lang)
    state = new_game(2, rules=HouseRules(trump=TrumpChoice.NORTHERN), seed=3)
    game = chat_game(state, 2, lang)
    assert tr.t("table-northern-pending") in table_view(table_scene(game), tr).text
    entry = append_log([], [TrumpChanged(1, Card.parse("7C"))])[0]
    told = narrate(entry, game, tr)
    assert tr.t("suit-C") in told and "🔀" in told


@pytest.mark.parametrize("lang", SUPPORTED)
def test_r_pog_and_r_team_4_the_result_says_epaulettes_and_the_losing_team(lang: str) -> None:
    """Played to the end under pairs and epaulettes: the result names the losing team
    (both partners) in the group and in private, and the durak's epaulettes when he has
    them («🤡 Вера — дурак с погонами»)."""
    tr = translator(lang)
    rules = HouseRules(teams=Teams.PAIRS, pogony=Pogony.TITLE)
    found_team = False
    for seed in range(60):
        *_, game = random_game(4, seed, rules)
        state = game.state
        assert state is not None and state.finished
        if state.durak is None:
            continue
        text = table_view(table_scene(game), tr).text
        check_html(text)
        assert state.losing_team is not None
        names = ", ".join(name(game, seat) for seat in state.losing_team)
        mark = "🔴" if state.losing_team[0] == 0 else "🔵"
        assert tr.t("table-team-lost", mark=mark, names=names) in text
        found_team = True
        for seat in range(4):
            private = hand_view(hand_scene(game, seat), tr).text
            you = ", ".join(
                tr.t("player-you", name=name(game, s)) if s == seat else name(game, s)
                for s in state.losing_team
            )
            key = "table-team-lost-yours" if seat in state.losing_team else "table-team-lost"
            assert tr.t(key, mark=mark, names=you) in private
    assert found_team
    # R-POG-1 (RULES.md 13.5): Ann leads her last two sixes, Bob covers both and is left
    # with the 9♣: the durak with epaulettes.
    rules = HouseRules(pogony=Pogony.TITLE)
    state = position("6S 6H", "7S 7H 9C", trump=Suit.DIAMONDS, rules=rules)
    state = play(
        state,
        Attack(0, cards("6S 6H")),
        Defend(1, Card.parse("7S"), Card.parse("6S")),
        Defend(1, Card.parse("7H"), Card.parse("6H")),
    )
    assert state.finished and state.epaulettes
    game = chat_game(state, 2, lang)
    text = table_view(table_scene(game), tr).text
    assert tr.t("table-order-durak-epaulettes", name=name(game, 1)) in text
    assert "🤡" in text
    game.log = append_log([], [Epaulettes(1), GameOver(1)])
    assert narrate(game.log[0], game, tr) == tr.t("event-epaulettes", name=name(game, 1))


@pytest.mark.parametrize("lang", SUPPORTED)
def test_r_team_5_partners_are_marked_and_see_nothing_more(lang: str) -> None:
    tr = translator(lang)
    state = new_game(4, rules=HouseRules(teams=Teams.PAIRS), seed=7)
    game = chat_game(state, 4, lang)
    for seat in range(4):
        text = hand_view(hand_scene(game, seat), tr).text
        check_html(text)
        partner, mark = (seat + 2) % 4, "🔴" if seat % 2 == 0 else "🔵"
        assert tr.t("player-partner", mark=mark, name=name(game, partner)) in text
        assert tr.t("table-team-yours", mark=mark, names="").strip() in text
        other = "🔵" if mark == "🔴" else "🔴"
        for opponent in ((seat + 1) % 4, (seat + 3) % 4):
            assert tr.t("player-team", mark=other, name=name(game, opponent)) in text
            assert tr.t("player-partner", mark=other, name=name(game, opponent)) not in text


# -- privacy over the variants ---------------------------------------------------------------


@pytest.mark.parametrize("index", range(8))
def test_what_is_hidden_from_a_seat_never_changes_its_message_under_the_variants(
    index: int,
) -> None:
    """Privacy by construction, over a sample of the variant combinations (the engine's own
    sample, ``variant_combinations``: the first ones play every value of every new key):
    dealing the cards a seat cannot see differently (a partner's, the Northern bottom card)
    changes nothing in its message."""
    rng = random.Random(index)
    rules = variant_combinations()[index * 5 % 40]
    players = rng.choice(player_counts(rules))
    tr = translator(SUPPORTED[index % 2])
    games = random_game(players, index, rules)
    compared, _ = compare_with_hidden_dealt_anew(games, players, tr, rng, every=5)
    assert compared >= 3, rules


# -- epaulettes in /stats (R-POG) -----------------------------------------------------------


async def test_r_pog_epaulettes_are_counted_in_stats_and_shown(storage: Storage) -> None:
    rules = HouseRules(pogony=Pogony.TITLE)
    state = position("6S 6H", "7S 7H 9C", trump=Suit.DIAMONDS, rules=rules)
    state = play(
        state,
        Attack(0, cards("6S 6H")),
        Defend(1, Card.parse("7S"), Card.parse("6S")),
        Defend(1, Card.parse("7H"), Card.parse("6H")),
    )
    game = chat_game(state, 2)
    result = game_result(game)
    assert result is not None and [p.epaulettes for p in result.players] == [False, True]
    plain_loss = GameResult(
        (PlayerResult(100, "Оля", 1, False), PlayerResult(101, "Вася", 2, True)), False
    )
    for counted in (result, plain_loss):
        writes = Writes()
        storage.stats.queue(writes, CHAT, counted)
        await writes.send(storage.redis)
    vasya = next(p for p in await storage.stats.chat(CHAT) if p.user_id == 101)
    assert (vasya.games, vasya.durak, vasya.epaulettes) == (2, 2, 1)
    assert (await storage.stats.user(101)).epaulettes == 1
    for lang in SUPPORTED:
        tr = translator(lang)
        board = leaderboard_text([vasya], 0, 1, tr)
        assert tr.t("stats-line-epaulettes", count=1) in board
        assert tr.t("stats-me-epaulettes", times=tr.t("series-times", count=1)) in (
            personal_text(vasya, tr)
        )
        five = tr.t("stats-me-epaulettes", times=tr.t("series-times", count=5))
        assert five != tr.t("stats-me-epaulettes", times=tr.t("series-times", count=2))
