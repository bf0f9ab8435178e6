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
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, Final, cast

import orjson
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType
from aiohttp import ClientError, ClientTimeout

from bot.metrics import API_ERRORS, BOT_API, error_kind

if TYPE_CHECKING:
    from aiogram import Bot


JSON_HEADERS: Final = {"Content-Type": "application/json"}


@functools.cache
def response_type(returning: Any) -> type[Response[Any]]:
    """``Response[returning]``, built once per return type."""
    return Response[returning]


class TelegramSession(AiohttpSession):
    """Also counts, for the operator (``bot.metrics``), every failed call and when the Bot
    API last answered."""

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
        session = await self.create_session()
        url = self.api.api_url(token=bot.token, method=method.__api_method__)
        try:
            async with session.post(
                url,
                data=body,
                headers=JSON_HEADERS,
                timeout=ClientTimeout(total=self.timeout if timeout is None else timeout),
            ) as resp:
                content = await resp.text()
        except TimeoutError as error:  # as aiogram's own request says them
            raise TelegramNetworkError(method=method, message="Request timeout error") from error
        except ClientError as error:
            message = f"{type(error).__name__}: {error}"
            raise TelegramNetworkError(method=method, message=message) from error
        response = self.check_response(bot, method, resp.status, content)
        return cast("TelegramType", response.result)

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
        return None if files else orjson.dumps(payload)

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
