"""HTTP front of the fake: ``POST {base}/bot{token}/{method}`` -> Bot API JSON answers."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from aiohttp import web

from .api import BotApi
from .faults import Fault
from .model import ApiError, FakeDocument, JsonDict
from .world import FakeWorld


class BotApiServer:
    """Serves :class:`BotApi` over HTTP on 127.0.0.1 (a free port unless one is given)."""

    def __init__(self, world: FakeWorld, api: BotApi) -> None:
        self.world = world
        self.api = api
        self._runner: web.AppRunner | None = None
        self._stalled: set[asyncio.Task[web.Response | None]] = set()
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
        stalled = list(self._stalled)
        for task in stalled:
            task.cancel()
        await asyncio.gather(*stalled, return_exceptions=True)
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        arrived = time.monotonic()
        method = self.api.canonical_name(request.match_info["method"])
        params: JsonDict = {}
        try:
            params = await _read_params(request)
            if request.match_info["token"] != self.world.token:
                raise ApiError(401, "Unauthorized")
        except ApiError as error:
            self.world.log_call(method, params, arrived, error)
            return web.json_response(error.to_api(), status=error.code)
        fault = self.world.take_fault(method, params)
        if fault is None:
            return await self._answer(method, params, arrived)
        # A stalled call runs to its end even if the client disconnects meanwhile (aiohttp
        # then cancels this handler), as a request already accepted by Telegram would.
        task = asyncio.ensure_future(self._faulted(fault, method, params, arrived))
        self._stalled.add(task)
        task.add_done_callback(self._stalled.discard)
        response = await asyncio.shield(task)
        if response is None:  # drop the connection: the client gets no answer at all
            if request.transport is not None:
                request.transport.close()
            raise web.HTTPInternalServerError()  # never written: the transport is closing
        return response

    async def _answer(
        self, method: str, params: JsonDict, arrived: float, fault: Fault | None = None
    ) -> web.Response:
        error: ApiError | None = None
        result: Any = None
        try:
            result = await self.api.call(method, params)
        except ApiError as api_error:
            error = api_error
        self.world.log_call(method, params, arrived, error, fault=fault)
        if error is not None:
            return web.json_response(error.to_api(), status=error.code)
        return web.json_response({"ok": True, "result": result})

    async def _faulted(
        self, fault: Fault, method: str, params: JsonDict, arrived: float
    ) -> web.Response | None:
        if fault.delay > 0:
            await asyncio.sleep(fault.delay)
        if fault.drop_connection:
            self.world.log_call(method, params, arrived, None, fault=fault, dropped=True)
            return None
        if fault.error is not None:
            self.world.log_call(method, params, arrived, fault.error, fault=fault)
            return web.json_response(fault.error.to_api(), status=fault.error.code)
        return await self._answer(method, params, arrived, fault)


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
        if isinstance(value, str):
            params[key] = value
        elif isinstance(value, web.FileField):  # kept whole, for sendDocument
            params[key] = FakeDocument(value.filename, value.file.read())
        else:
            params[key] = f"<file {key}>"
    return params
