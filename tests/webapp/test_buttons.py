"""The buttons that open the Mini App ("Opening it"): «🃏 Стол» as a ``web_app``
button under a player's hand in private, a link to the app's direct link under a group's
table when it has a short name, and nothing at all without the Mini App."""

from __future__ import annotations

import pytest

from bot.i18n import translator
from bot.model import ChatGame, ChatSettings, Phase, Seat
from bot.ui.render import hand_scene, hand_view, table_scene, table_view
from bot.ui.webapp import TableLinks
from engine import new_game

GROUP = -1001234567890
URL = "https://durak.example/app/"
DIRECT = "https://t.me/durak_bot/table"


def game() -> ChatGame:
    return ChatGame(
        chat_id=GROUP,
        game_id="Ab-_9z",
        creator_id=100,
        settings=ChatSettings(),
        phase=Phase.PLAYING,
        players=[Seat(100, "Оля"), Seat(101, "Вася")],
        state=new_game(2, seed=22),
    )


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_hand_gets_a_web_app_button_that_opens_its_games_table(lang: str) -> None:
    tr = translator(lang)
    dealt = game()
    assert dealt.state is not None
    scene = hand_scene(dealt, dealt.state.acting[0])  # a keyboard of moves, then the button
    plain = hand_view(scene, tr).markup
    rendered = hand_view(scene, tr, links=TableLinks(URL)).markup
    assert plain is not None and rendered is not None
    assert rendered.inline_keyboard[:-1] == plain.inline_keyboard  # the keyboard as it was
    (button,) = rendered.inline_keyboard[-1]
    assert button.text == tr.t("button-webapp") and button.web_app is not None
    assert button.web_app.url == f"{URL}?chat={GROUP}"
    assert all(b.web_app is None for row in plain.inline_keyboard for b in row)


def test_a_groups_table_links_to_the_direct_link_only_with_a_short_name() -> None:
    tr = translator("ru")
    scene = table_scene(game())
    without = table_view(scene, tr, links=TableLinks(URL)).markup
    assert without == table_view(scene, tr).markup  # no short name: no link (no web_app)
    rendered = table_view(scene, tr, links=TableLinks(URL, DIRECT)).markup
    assert rendered is not None
    link = rendered.inline_keyboard[0][-1]
    assert (link.text, link.url) == (tr.t("button-webapp"), f"{DIRECT}?startapp={GROUP}")
    assert all(b.web_app is None for row in rendered.inline_keyboard for b in row)


def test_a_page_address_keeps_a_query_the_operator_put_in_it() -> None:
    assert TableLinks("https://x.example/app?v=2").page(-5) == "https://x.example/app?v=2&chat=-5"
