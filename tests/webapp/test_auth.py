"""Who opened the Mini App (``bot.webapp.auth.identify``): only an ``initData`` signed with
this bot's token, naming a user, and fresh enough is accepted ("Who you are")."""

from __future__ import annotations

import time
from urllib.parse import parse_qsl, urlencode

import pytest
from aiogram.types import User

from bot.webapp.auth import Viewer, identify, socket_init_data

from .signing import sign, sign_init_data, socket_protocols

TOKEN = "123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
OTHER_TOKEN = "654321:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"
DAY = 86_400.0


def check(init_data: str | None, *, now: float | None = None) -> Viewer | None:
    return identify(init_data, TOKEN, max_age=DAY, now=time.time() if now is None else now)


def test_a_valid_init_data_names_its_user_language_and_start_param() -> None:
    signed = sign_init_data(TOKEN, 42, language_code="uk", start_param="-100123")
    viewer = check(signed)
    assert viewer is not None
    assert (viewer.user_id, viewer.language, viewer.start_param) == (42, "uk", "-100123")


@pytest.mark.parametrize(
    ("first", "last", "name"),
    [("Аня", None, "Аня"), ("Аня", "Петрова", "Аня Петрова"), ("Аня", "", "Аня")],
)
def test_a_viewer_is_named_as_the_chat_names_them(first: str, last: str | None, name: str) -> None:
    """First name and last, as aiogram's ``User.full_name`` (the chat's presses) builds it."""
    viewer = check(sign_init_data(TOKEN, 42, first_name=first, last_name=last))
    assert viewer is not None and viewer.name == name
    assert name == User(id=42, is_bot=False, first_name=first, last_name=last).full_name


def test_a_tampered_user_is_refused() -> None:
    fields = dict(parse_qsl(sign_init_data(TOKEN, 42)))
    fields["user"] = fields["user"].replace('"id":42', '"id":43')
    assert check(urlencode(fields)) is None


def test_a_tampered_hash_is_refused() -> None:
    fields = dict(parse_qsl(sign_init_data(TOKEN, 42)))
    fields["hash"] = ("0" if fields["hash"][0] != "0" else "1") + fields["hash"][1:]
    assert check(urlencode(fields)) is None


def test_a_field_added_after_signing_is_refused() -> None:
    assert check(sign_init_data(TOKEN, 42) + "&start_param=-100999") is None


def test_another_bots_token_is_refused() -> None:
    assert check(sign_init_data(OTHER_TOKEN, 42)) is None


@pytest.mark.parametrize("age", [DAY + 1, 30 * DAY])
def test_a_stale_init_data_is_refused(age: float) -> None:
    now = time.time()
    assert check(sign_init_data(TOKEN, 42, auth_date=now - age), now=now) is None


def test_an_init_data_just_within_its_age_is_accepted() -> None:
    now = time.time()
    assert check(sign_init_data(TOKEN, 42, auth_date=now - DAY + 5), now=now) is not None


def test_an_init_data_from_the_future_is_refused() -> None:
    now = time.time()
    assert check(sign_init_data(TOKEN, 42, auth_date=now + 3600), now=now) is None


@pytest.mark.parametrize("init_data", [None, "", "hash=", "user=%7B%7D", "%%%", "a&b&c"])
def test_a_missing_or_malformed_init_data_is_refused(init_data: str | None) -> None:
    assert check(init_data) is None


def test_a_signed_init_data_without_a_user_is_refused() -> None:
    fields = dict(parse_qsl(sign_init_data(TOKEN, 42)))
    del fields["user"], fields["hash"]
    assert check(sign(TOKEN, fields)) is None  # the signature holds, but nobody is named


def test_a_sockets_init_data_comes_from_its_protocols_header() -> None:
    """The page's ``new WebSocket(url, ["tma", base64url(initData)])`` (static/app.js): what
    the header carries is the initData itself, checked as any other."""
    signed = sign_init_data(TOKEN, 42, first_name="Андрій")
    header = ", ".join(socket_protocols(signed))
    assert header.startswith("tma, ") and "=" not in header and "%" not in header
    assert socket_init_data(header) == signed
    viewer = check(socket_init_data(header))
    assert viewer is not None and viewer.user_id == 42


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "tma",
        "tma, ",
        "chat, dG1h",
        "dG1h, tma",
        "tma, dG1h, extra",
        "tma, not*base64",
        "tma, //79",  # base64 of bytes that are not UTF-8
        "tma, тма",
    ],
)
def test_a_sockets_protocols_header_of_another_form_carries_no_init_data(
    header: str | None,
) -> None:
    assert socket_init_data(header) is None
