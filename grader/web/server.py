"""The HTTP server: uvicorn on a socket bound first (port 0: a free one, no
race), the URL said once it listens, until Ctrl-C or SIGTERM.  Its protocol
(:mod:`.protocol`) closes idle and half-sent connections."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Any

from grader.web.options import ServeOptions, StartupError, missing_extra

#: The listening socket's backlog, which is also how many connections asyncio
#: accepts at once before the protocol sees any (less than the open files
#: the protocol keeps back: :data:`grader.web.protocol.RESERVED_FILES`).
ACCEPT_BURST = 64


def opening(options: ServeOptions) -> dict[str, Any] | None:
    """The grid the page opens with (from the command line), or None."""
    if options.grid is None:
        return None
    from grader.web.work import BadRequest, startup_position

    try:
        text, fmt, box = startup_position(options.grid, options.index, options.box,
                                          options.input_format)
    except BadRequest as e:
        raise StartupError(e.message) from None
    return {"grid": text, "input_format": fmt, "box": box}


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: a free port)."""
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on such sockets (without it an
    # answer's body waits 40 ms for the client's delayed ACK of its headers)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise StartupError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.listen(ACCEPT_BURST)
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    return f"http://{shown}:{port}/"


def run(options: ServeOptions, ready: Callable[[str], None] | None = None) -> None:
    """Serve until interrupted; ``ready(url)`` once the server listens (by
    default the URL is printed on standard output)."""
    missing = missing_extra()
    if missing is not None:
        raise StartupError(f"the web server needs the '{missing}' package: "
                           f"pip install 'sudoku-grader[web]'")
    import uvicorn

    from grader.web.app import create_app
    from grader.web.protocol import protocol

    start = opening(options)
    sock = bind(options.host, options.port)
    url = url_of(sock)
    app = create_app(options, start)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            http=protocol(options.idle_timeout, options.read_timeout),
                            backlog=ACCEPT_BURST,
                            timeout_graceful_shutdown=3)
    server = uvicorn.Server(config)
    say = ready or (lambda url: announce(url, options.open_browser))

    async def serve() -> None:
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.05)
        if server.started:
            say(url)
        await task

    try:
        asyncio.run(serve())
    finally:
        sock.close()


def announce(url: str, open_browser: bool = False) -> None:
    """Print the page's URL (and open it in the browser when asked)."""
    print(f"Serving the explainer on {url}  (Ctrl-C to stop)", flush=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
