"""The explainer in the browser: ``python -m grader serve``.

A local web application: type or paste a grid (any format ``explain`` reads,
pencil marks included) and step through its explanation, go back, jump to a
step, ask for the three hints, undo and redo, and make moves of your own;
hints and steps then go on from your position, as ``explain --moves`` does.
The page is one Jinja2 template, a stylesheet and one small script (no build
step, nothing loaded from elsewhere); everything it shows comes from the JSON
API under ``/api`` (its OpenAPI schema at ``/api/openapi.json``).

Modules:

* :mod:`.options` -- :class:`ServeOptions`, what the command hands over;
* :mod:`.work` -- the work on grids, done in worker processes (the only
  module here that imports the grader's engine);
* :mod:`.paths` -- the solution paths a page can follow (the pattern path,
  the default, and the book's);
* :mod:`.views` -- a computed path drawn and written for the page;
* :mod:`.pool` -- the worker processes, each job under a deadline, a bounded
  time in the queue, cancelled when its client leaves;
* :mod:`.service` -- the cache of computed paths in front of the pool;
* :mod:`.models`, :mod:`.routes`, :mod:`.app` -- the API and the application;
* :mod:`.server` -- the HTTP server (uvicorn) on a free port;
* :mod:`.protocol` -- its HTTP protocol, which closes idle and half-sent
  connections.

Nothing here imports FastAPI until the server starts: ``import grader.web``
stays cheap, and :func:`missing_extra` tells the command what to install.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grader.web.options import ServeOptions, StartupError, missing_extra

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["ServeOptions", "StartupError", "missing_extra", "serve"]


def serve(options: ServeOptions, ready: Callable[[str], None] | None = None) -> None:
    """Serve the explainer until interrupted; ``ready(url)`` once it listens."""
    from grader.web.server import run

    run(options, ready)
