"""HTTP front of the fake: ``POST {base}/bot{token}/{method}`` -> Bot API JSON answers."""

from __future__ import annotations

import json
import time
from typing import Any

from aiohttp import web

from .api import BotApi
from .model import ApiError, JsonDict
from .world import FakeWorld


class BotApiServer:
    """Serves :class:`BotApi` over HTTP on 127.0.0.1 (a free port unless one is given)."""

    def __init__(self, world: FakeWorld, api: BotApi) -> None:
        self.world = world
        self.api = api
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        runner = web.AppRunner(
            app, handle_signals=False, shutdown_timeout=1.0, handler_cancellation=True
        )
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        self._runner = runner
        bound_host, bound_port = runner.addresses[0][:2]
        self.base_url = f"http://{bound_host}:{bound_port}"
        return self.base_url

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        arrived = time.monotonic()
        method = self.api.canonical_name(request.match_info["method"])
        error: ApiError | None = None
        result: Any = None
        params: JsonDict = {}
        try:
            params = await _read_params(request)
            if request.match_info["token"] != self.world.token:
                raise ApiError(401, "Unauthorized")
            result = await self.api.call(method, params)
        except ApiError as api_error:
            error = api_error
        self.world.log_call(method, params, arrived, error)
        if error is not None:
            return web.json_response(error.to_api(), status=error.code)
        return web.json_response({"ok": True, "result": result})


async def _read_params(request: web.Request) -> JsonDict:
    """Merge query string and body (multipart, urlencoded or JSON) into one dict."""
    params: JsonDict = dict(request.query)
    if request.method not in ("POST", "PUT") or not request.can_read_body:
        return params
    if request.content_type == "application/json":
        try:
            body = await request.json()
        except json.JSONDecodeError:
            raise ApiError(400, "Bad Request: can't parse JSON request body") from None
        if not isinstance(body, dict):
            raise ApiError(400, "Bad Request: JSON object expected")
        params.update(body)
        return params
    form = await request.post()
    for key, value in form.items():
        params[key] = value if isinstance(value, str) else f"<file {key}>"
    return params
