"""The HTTP session the bot talks to the Bot API with: aiogram's ``AiohttpSession``, with
requests sent as JSON and a cheaper check of successful responses.

aiogram sends every call as an HTML form: each value prepared, nested objects (a keyboard)
turned into JSON text, then the whole form URL-encoded, which quotes a Cyrillic text byte by
byte in Python. The Bot API takes the same parameters as a JSON body, which orjson writes in
C: here a call without files goes so, with the values aiogram prepares (its bot defaults,
its enums, its objects), skipping the same empty ones its form skips. A call with files
(none the bot makes today) goes as aiogram's form.

aiogram checks every response with ``Response[method.__returning__]``. pydantic keeps the
parametrized classes only weakly, so each time the garbage collector has freed one, the next
response builds it again, schema and validator included: under load that was 60 % of the
check and an eighth of the bot's CPU. Here the class is kept, once per return type: the
very class aiogram would build, so a successful response comes back exactly as aiogram
returns it. Anything else (an HTTP error status, ``"ok": false``, a body that does not
decode or validate) goes to aiogram's own ``check_response``, so every error is raised by
aiogram's code: the same exception types with the same fields.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, Final, cast

import orjson
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import EditMessageText, Response, TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import InlineKeyboardMarkup
from aiohttp import ClientError, ClientTimeout

from bot import jsontext
from bot.metrics import API_ERRORS, BOT_API, error_kind

if TYPE_CHECKING:
    from aiogram import Bot


JSON_HEADERS: Final = {"Content-Type": "application/json"}
EDIT_TEXT: Final = "editMessageText"


class ShownEdit(EditMessageText):
    """``editMessageText`` as the outbox sends it: the answer is checked as aiogram checks
    it (an error raises the same exception), but a message edited is not made into
    aiogram's ``Message``, which the outbox does not read: its model is about 75 µs of CPU
    an edit, alone."""

    __returning__ = dict[str, Any] | bool


@functools.cache
def response_type(returning: Any) -> type[Response[Any]]:
    """``Response[returning]``, built once per return type."""
    return Response[returning]


class TelegramSession(AiohttpSession):
    """Also counts, for the operator (``bot.metrics``), every failed call and when the Bot
    API last answered."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._edit_template: tuple[Bot, dict[str, Any]] | None = None

    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
    ) -> TelegramType:
        try:
            return await self._request(bot, method, timeout)
        except TelegramNetworkError:
            API_ERRORS.labels(method=method.__api_method__, kind="network").inc()
            raise

    async def _request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None
    ) -> TelegramType:
        body = self.json_body(bot, method)
        if body is None:
            return await super().make_request(bot, method, timeout)
        status, content = await self._post(
            bot, method.__api_method__, body, timeout, lambda: method
        )
        response = self.check_response(bot, method, status, content)
        return cast("TelegramType", response.result)

    async def edit_text(
        self,
        bot: Bot,
        chat_id: int,
        message_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        markup_json: str | None,
    ) -> None:
        """Edit a message the outbox shows (``ShownEdit``), its body written straight from
        the text and the keyboard as JSON text (``markup_json``, which the outbox wrote once
        for the digest of what the message shows too), not through aiogram's models: the
        same parameters, the bot's defaults included, at half the CPU alone (an edit of a
        group's table is most of the Bot API calls under load). An answer that is not a
        success is checked by aiogram (``check_response``): the same exceptions."""

        def method() -> ShownEdit:
            return ShownEdit(chat_id=chat_id, message_id=message_id, text=text, reply_markup=markup)

        body = self.edit_body(bot, chat_id, message_id, text, markup_json)
        try:
            status, content = await self._post(bot, EDIT_TEXT, body, None, method)
        except TelegramNetworkError:
            API_ERRORS.labels(method=EDIT_TEXT, kind="network").inc()
            raise
        if _edited(status, content):
            BOT_API.reached()
            return
        self.check_response(bot, method(), status, content)

    def edit_body(
        self, bot: Bot, chat_id: int, message_id: int, text: str, markup_json: str | None
    ) -> bytes:
        """The JSON body of ``edit_text``: what ``json_body`` makes of the same
        ``ShownEdit``, the keyboard's JSON text put in as it is."""
        payload = {**self._edit_defaults(bot), "chat_id": chat_id, "message_id": message_id}
        payload["text"] = text
        if markup_json is not None:
            payload["reply_markup"] = orjson.Fragment(markup_json)
        return jsontext.encode(payload)

    def _edit_defaults(self, bot: Bot) -> dict[str, Any]:
        """What aiogram adds to an edit from the bot's defaults (``parse_mode``): the
        parameters of an edit without a chat, a text or a keyboard of its own."""
        known = self._edit_template
        if known is None or known[0] is not bot:
            body = self.json_body(bot, ShownEdit(chat_id=0, message_id=0, text="-"))
            assert body is not None  # no files in an edit
            defaults = {
                key: value
                for key, value in jsontext.loads(body).items()
                if key not in ("chat_id", "message_id", "text")
            }
            known = self._edit_template = (bot, defaults)
        return known[1]

    async def _post(
        self,
        bot: Bot,
        api_method: str,
        body: bytes,
        timeout: int | None,
        method: Callable[[], TelegramMethod[Any]],
    ) -> tuple[int, str]:
        """POST ``body`` to the Bot API's ``api_method``: the status and the text of the
        answer; ``TelegramNetworkError`` (for ``method()``) as aiogram's own request raises
        it when no answer came."""
        session = await self.create_session()
        url = self.api.api_url(token=bot.token, method=api_method)
        try:
            async with session.post(
                url,
                data=body,
                headers=JSON_HEADERS,
                timeout=ClientTimeout(total=self.timeout if timeout is None else timeout),
            ) as resp:
                return resp.status, await resp.text()
        except TimeoutError as error:  # as aiogram's own request says them
            raise TelegramNetworkError(method=method(), message="Request timeout error") from error
        except ClientError as error:
            message = f"{type(error).__name__}: {error}"
            raise TelegramNetworkError(method=method(), message=message) from error

    def json_body(self, bot: Bot, method: TelegramMethod[TelegramType]) -> bytes | None:
        """The call's parameters as a JSON body: those of aiogram's form
        (``build_form_data``), each prepared as aiogram prepares it, as JSON values rather
        than JSON text; None if the call sends files (it goes as a form)."""
        files: dict[str, Any] = {}
        payload = {}
        for key, value in method.model_dump(warnings=False).items():
            prepared = self.prepare_value(value, bot=bot, files=files, _dumps_json=False)
            # The form leaves out what prepares to nothing or to empty text (it writes
            # False, 0 and empty objects as JSON text, which is not empty).
            if prepared is not None and prepared != "":
                payload[key] = prepared
        return None if files else jsontext.encode(payload)

    def check_response(
        self,
        bot: Bot,
        method: TelegramMethod[TelegramType],
        status_code: int,
        content: str,
    ) -> Response[TelegramType]:
        if HTTPStatus.OK <= status_code <= HTTPStatus.IM_USED:
            try:
                returning = response_type(method.__returning__)
                response = returning.model_validate(self.json_loads(content), context={"bot": bot})
            except Exception:  # aiogram's check below raises what it raises
                pass
            else:
                if response.ok:
                    BOT_API.reached()
                    return response
        else:
            BOT_API.reached()  # it answered, with an error
        API_ERRORS.labels(method=method.__api_method__, kind=error_kind(status_code)).inc()
        return super().check_response(
            bot=bot, method=method, status_code=status_code, content=content
        )


def _edited(status: int, content: str) -> bool:
    """Whether an edit's answer is a success as aiogram takes one (``ShownEdit``): an OK
    status, ``"ok": true`` and the message edited (or ``true``)."""
    if not HTTPStatus.OK <= status <= HTTPStatus.IM_USED:
        return False
    try:
        answer = jsontext.loads(content)
    except ValueError:
        return False
    return (
        isinstance(answer, dict)
        and answer.get("ok") is True
        and isinstance(answer.get("result"), dict | bool)
    )
