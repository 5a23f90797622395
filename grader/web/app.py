"""The application: the page, the API, the static files, and the limits.

Limits: a request body larger than ``max_body`` is refused (413) before it is
read; every answer carries a Content-Security-Policy that allows scripts,
styles and connections from the server only (no inline script, no style
attribute: the page has none); only the loopback names are accepted as Host
when the server listens on the loopback, IPv4 or IPv6 (a page elsewhere
cannot reach it through DNS rebinding: :class:`LoopbackHosts`); a request
whose client leaves before its answer is cancelled, with the work it waits
for (:class:`Abandoned`); errors are JSON ``{"error": kind, "detail": message}``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from grader.explainer.choices import HINT_LEVELS
from grader.web.options import ServeOptions, is_loopback
from grader.web.paths import DEFAULT_PATH, PATHS
from grader.web.pool import JobFailed, JobRefused, JobTimeout, PoolBusy, QueueTimeout
from grader.web.routes import router
from grader.web.service import Service
from grader.web.work import BadRequest

HERE = Path(__file__).resolve().parent
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
HEADERS = [(b"content-security-policy", CSP.encode()),
           (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"),
           (b"x-frame-options", b"DENY"),
           (b"cross-origin-opener-policy", b"same-origin")]


#: A refused body is read (and dropped) up to this size, so that the client,
#: still sending, reads the answer instead of a reset connection; past it the
#: connection is closed.
DRAIN = 8 * 1024 * 1024


async def _drain(receive: Receive, length: int) -> None:
    if length > DRAIN:
        return
    seen = 0
    while seen <= DRAIN:
        message = await receive()
        seen += len(message.get("body", b""))
        if message["type"] != "http.request" or not message.get("more_body"):
            return


class Limits:
    """ASGI middleware: the security headers on every answer (and a
    Server-Timing header: the milliseconds the server took), and the body
    limit (by Content-Length, and by counting the bytes of a body sent without
    it)."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body
        self.too_large = f"the request is larger than {max_body} bytes"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                took = f"app;dur={(time.perf_counter() - t0) * 1000:.1f}".encode()
                message["headers"] = [*message.get("headers", []), *HEADERS,
                                      (b"server-timing", took)]
            await send(message)

        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await self._refuse(headed)
            await _drain(receive, int(length) if length.isdigit() else DRAIN)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_body:  # answered 413 by the application's handler
                raise HTTPException(413, self.too_large)
            return message

        await self.app(scope, counted, headed)
        if seen > self.max_body:
            await _drain(receive, DRAIN)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"error": "too-large", "detail": self.too_large}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


def host_name(header: str) -> str:
    """The name of a Host header, without its port: ``[::1]:8000`` -> ``::1``,
    ``localhost:8000`` -> ``localhost``, ``::1`` -> ``::1``; a header of
    another shape (``[::1].evil.example``, a port that is not a number) comes
    back whole, and no name is like it."""
    h = header.strip()
    if h.startswith("["):
        name, bracket, port = h[1:].partition("]")
        ok = bracket and (not port or (port[0] == ":" and port[1:].isdigit()))
        return name if ok else h
    if h.count(":") == 1:
        name, _, port = h.partition(":")
        return name if port.isdigit() else h
    return h


class LoopbackHosts:
    """ASGI middleware for a server on the loopback: only a loopback name
    (``localhost``, ``127.x.x.x``, ``::1``, with or without a port) is
    accepted as Host, anything else (or none) is refused with 400 -- a page of
    another site that a DNS name rebinds to the loopback cannot use the server."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1")
        if host and is_loopback(host_name(host)):
            await self.app(scope, receive, send)
            return
        body = json.dumps({"error": "bad-host",
                           "detail": f"the Host {host!r} is not the loopback: the server "
                                     f"answers only localhost, 127.0.0.1 and [::1]"}).encode()
        await send({"type": "http.response.start", "status": 400,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class Abandoned:
    """ASGI middleware: a request whose client leaves (closes the connection)
    before the answer starts is cancelled, and with it the work it waits for
    (out of the queue, or stopped in its worker).  Once the request's body is
    read, a watcher waits for the next message of the connection: it comes
    when the client leaves (or once the answer is sent)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        read = asyncio.Event()
        answered = False
        left = False
        handler = asyncio.current_task()
        assert handler is not None

        async def reading() -> Message:
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body"):
                read.set()
            return message

        async def sending(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.start":
                answered = True
            await send(message)

        async def watch() -> None:
            nonlocal left
            await read.wait()
            message = await receive()
            if message["type"] == "http.disconnect" and not answered:
                left = True
                handler.cancel()

        watcher = asyncio.get_running_loop().create_task(watch())
        try:
            await self.app(scope, reading, sending)
        except asyncio.CancelledError:
            if not left:
                raise
            # the client is gone: nothing to answer, nobody to tell
            handler.uncancel()
        finally:
            watcher.cancel()


def _error(status: int, kind: str, detail: str) -> JSONResponse:
    return JSONResponse({"error": kind, "detail": detail}, status_code=status,
                        headers={"cache-control": "no-store"})


def _handlers(app: FastAPI) -> None:
    async def bad(_: Request, e: Exception) -> JSONResponse:
        assert isinstance(e, BadRequest | JobRefused)
        return _error(400, e.kind, e.message)

    async def invalid(_: Request, e: Exception) -> JSONResponse:
        assert isinstance(e, RequestValidationError)
        what = "; ".join(f"{'.'.join(str(p) for p in err.get('loc', ())[1:]) or 'body'}: "
                         f"{err.get('msg', '')}" for err in e.errors())
        return _error(422, "invalid-request", what or "the request is not valid JSON")

    async def http(_: Request, e: Exception) -> JSONResponse:
        assert isinstance(e, HTTPException)
        return _error(e.status_code, "too-large" if e.status_code == 413 else "http",
                      str(e.detail))

    async def timeout(_: Request, e: Exception) -> JSONResponse:
        return _error(504, "timeout", f"the work on this grid took longer than the time "
                      f"limit ({e}); the server goes on (start it with a longer --time-limit "
                      f"to allow more)")

    async def busy(_: Request, e: Exception) -> JSONResponse:
        answer = _error(503, "busy", str(e))
        answer.headers["retry-after"] = "1"
        return answer

    async def queued(_: Request, e: Exception) -> JSONResponse:
        assert isinstance(e, QueueTimeout)
        answer = _error(503, "queue-timeout", str(e))
        answer.headers["retry-after"] = str(max(1, round(e.seconds)))
        return answer

    async def failed(_: Request, e: Exception) -> JSONResponse:
        return _error(500, "error", str(e))

    for exc, fn in ((BadRequest, bad), (JobRefused, bad), (RequestValidationError, invalid),
                    (HTTPException, http), (JobTimeout, timeout), (QueueTimeout, queued),
                    (PoolBusy, busy),
                    (JobFailed, failed)):
        app.add_exception_handler(exc, fn)


def page_state(request: Request, options: ServeOptions, start: dict[str, Any]) -> dict[str, Any]:
    """What the page starts from: the URL's grid (or the server's), moves, frame."""
    q = request.query_params

    def number(name: str, default: int) -> int:
        text = q.get(name, "")
        return int(text) if text.isdigit() and len(text) < 8 else default

    grid = q.get("grid")
    base = start if grid is None else {"grid": grid, "input_format": q.get("fmt", "auto"),
                                       "box": q.get("box") or None}
    return {**base, "index": number("index", 1), "moves": q.get("moves", ""),
            "step": number("step", 0), "path": q.get("path", DEFAULT_PATH),
            "default_path": DEFAULT_PATH, "hints": list(HINT_LEVELS),
            "paths": [{"name": k, "label": p.label, "available": p.available}
                      for k, p in PATHS.items()],
            "max_body": options.max_body, "time_limit": options.time_limit}


def create_app(options: ServeOptions, start: dict[str, Any] | None = None) -> FastAPI:
    """The application; ``start``: the grid the page opens with when its URL
    names none (``grid``, ``input_format``, ``box``)."""
    from grader import about

    service = Service(options)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.close()

    app = FastAPI(title="sudoku-grader explainer", version=about.version(),
                  description="Explain Sudoku grids step by step: the API of the page "
                              "`python -m grader serve` serves.", lifespan=lifespan,
                  docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")
    app.state.service = service
    app.include_router(router)
    _handlers(app)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    env = Environment(loader=FileSystemLoader(HERE / "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    template = env.get_template("index.html")
    opening = start or {"grid": "", "input_format": "auto", "box": None}

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def page(request: Request) -> HTMLResponse:
        state = page_state(request, options, opening)
        return HTMLResponse(template.render(state=state, grid=state["grid"]),
                            headers={"cache-control": "no-store"})

    app.add_middleware(Abandoned)
    if is_loopback(options.host):
        app.add_middleware(LoopbackHosts)
    app.add_middleware(Limits, max_body=options.max_body)
    return app
