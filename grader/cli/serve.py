"""``serve``: the explainer in the browser, a local web application.

The command parses its options into a :class:`~grader.web.ServeOptions` and
hands it to :func:`grader.web.serve`; the server itself needs the ``web``
extra (FastAPI, uvicorn, Jinja2), which the command names when it is missing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer

from grader.cli.common import box_option, check_plugins, fail, hierarchy_option
from grader.cli.options import BoxOpt, Color, ColorOpt, HierarchyOpt, VersionOpt

ServeGridArg = Annotated[str | None, typer.Argument(
    metavar="[FILE|GRID]", show_default=False,
    help="The grid the page opens with: a grid, pencil marks, or a file of grids (with "
         "--index).  Without it the page starts empty: paste a grid there.")]
ServeIndexOpt = Annotated[int, typer.Option(
    "--index", min=1, metavar="N", help="Which grid of the file (1-based).")]
ServeFormatOpt = Annotated[str, typer.Option(
    "--input-format", "-i", metavar="FORMAT",
    help="How to read FILE|GRID: auto, line, nt, block, csv, jsonl or pencil.")]
HostOpt = Annotated[str, typer.Option(
    "--host", metavar="ADDRESS",
    help="The address to listen on (the loopback: only this computer can open the page).")]
PortOpt = Annotated[int, typer.Option(
    "--port", "-p", min=0, max=65535, metavar="PORT", show_default="a free port",
    help="The port to listen on.")]
ServeJobsOpt = Annotated[int, typer.Option(
    "--jobs", "-j", min=0, metavar="N", show_default="0 = one per usable CPU, at most 4",
    help="Worker processes explaining grids; capped as grade -j is, at the usable CPUs and "
         "the memory available (a note says so).")]
ServeTimeLimitOpt = Annotated[float, typer.Option(
    "--time-limit", metavar="SECONDS", min=0.05,
    help="Seconds of work per request (explaining a grid) before the answer is a timeout "
         "(504); the server goes on.")]
QueueTimeOpt = Annotated[float, typer.Option(
    "--queue-time", metavar="SECONDS", min=0.05,
    help="Seconds a request may wait for a free worker (the others busy) before the "
         "answer is 503.")]
IdleTimeoutOpt = Annotated[float, typer.Option(
    "--idle-timeout", metavar="SECONDS", min=0.05,
    help="Seconds a connection may stay open without a request before it is closed.")]
ReadTimeoutOpt = Annotated[float, typer.Option(
    "--read-timeout", metavar="SECONDS", min=0.05,
    help="Seconds a client has to send a whole request (headers and body) from its first "
         "byte; past that the answer is 408 and the connection is closed.")]
OpenOpt = Annotated[bool, typer.Option(
    "--open", help="Open the page in the web browser.")]
ServeQuietOpt = Annotated[bool, typer.Option(
    "--quiet", "-q", help="Print the page's URL alone, with no sentence around it.")]


def _bare_url(open_browser: bool) -> Callable[[str], None]:
    """``serve -q``: the URL alone on standard output (for a script to read)."""

    def ready(url: str) -> None:
        print(url, flush=True)
        if open_browser:
            import webbrowser

            webbrowser.open(url)

    return ready


def serve_command(
    grid: ServeGridArg = None, index: ServeIndexOpt = 1, input_format: ServeFormatOpt = "auto",
    box: BoxOpt = None, host: HostOpt = "127.0.0.1", port: PortOpt = 0,
    jobs: ServeJobsOpt = 0, time_limit: ServeTimeLimitOpt = 10.0,
    queue_time: QueueTimeOpt = 30.0, idle_timeout: IdleTimeoutOpt = 5.0,
    read_timeout: ReadTimeoutOpt = 10.0, hierarchy: HierarchyOpt = None,
    open_browser: OpenOpt = False,
    quiet: ServeQuietOpt = False, color: ColorOpt = Color.auto, version: VersionOpt = None,
) -> None:
    """Explain grids in the browser: enter a grid, step, undo, ask for hints, make
    your own moves.

    Listens on 127.0.0.1, a free port, and prints the page's URL; Ctrl-C stops it.
    Needs the web extra: pip install 'sudoku-grader[web]'.

    \b
    python -m grader serve
    python -m grader serve puzzles/book-figures.txt --index 10 --open
    python -m grader serve GRID --port 8000 --time-limit 20
    """
    from grader.cli.options import job_count
    from grader.web import ServeOptions, StartupError, missing_extra, serve

    missing = missing_extra()
    if missing is not None:
        fail(f"serve needs the web extra ('{missing}' is not installed): "
             f"pip install 'sudoku-grader[web]'")
    box_option(box)  # checked here, used as text
    h = hierarchy_option(hierarchy)
    check_plugins(h)
    if jobs:  # capped as grade -j is, with the same note
        jobs = job_count(jobs, command="serve")
    opts = ServeOptions(grid=grid, index=index, box=box, input_format=input_format,
                        host=host, port=port, jobs=jobs, time_limit=time_limit,
                        queue_time=queue_time, idle_timeout=idle_timeout,
                        read_timeout=read_timeout, hierarchy=h, open_browser=open_browser)
    try:
        serve(opts, _bare_url(open_browser) if quiet else None)
    except StartupError as e:
        fail(str(e))
