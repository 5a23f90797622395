"""The application: the page, the API, the static files, and the limits.

Limits: a request body larger than ``max_body`` is refused (413) before it is
read; every answer carries a Content-Security-Policy that allows scripts,
styles and connections from the server only (no inline script, no style
attribute: the page has none); only the loopback names are accepted as Host
when the server listens on the loopback (a page elsewhere cannot reach it
through DNS rebinding); errors are JSON ``{"error": kind, "detail": message}``.
"""

from __future__ import annotations

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
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from grader.explainer.choices import HINT_LEVELS
from grader.web.options import ServeOptions
from grader.web.paths import DEFAULT_PATH, PATHS
from grader.web.pool import JobFailed, JobRefused, JobTimeout, PoolBusy
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
LOOPBACK = ("127.0.0.1", "localhost")


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
                      f"limit ({e}); the server goes on")

    async def busy(_: Request, e: Exception) -> JSONResponse:
        return _error(503, "busy", str(e))

    async def failed(_: Request, e: Exception) -> JSONResponse:
        return _error(500, "error", str(e))

    for exc, fn in ((BadRequest, bad), (JobRefused, bad), (RequestValidationError, invalid),
                    (HTTPException, http), (JobTimeout, timeout), (PoolBusy, busy),
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

    if options.host in LOOPBACK:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(LOOPBACK))
    app.add_middleware(Limits, max_body=options.max_body)
    return app
