"""The consoles the commands print with: :class:`SafeConsole`.

Everything a command prints through rich goes through one place where the
text of each piece is known apart from rich's own styling (the segments of
a render): there every control character of the *text* is escaped
(:func:`grader.core.textsafe.escape_controls`), so that a file name, a line of
input, a rule name or a message never sends an escape sequence to the
terminal, while colours, the progress bar and links still work.

:func:`console_width`: a ``COLUMNS`` that no terminal has (0, 5, a million)
is ignored, so a table is never drawn in no columns at all.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.segment import Segment

from grader.core.textsafe import escape_controls

#: The narrowest and widest ``COLUMNS`` taken as given.
MIN_COLUMNS, MAX_COLUMNS = 20, 10_000


class SafeConsole(Console):
    """A rich console that escapes control characters in what it prints.

    A closed pipe (``grade ... | head``) raises :class:`BrokenPipeError`,
    which the commands end quietly with exit status 0, where rich's own
    console would exit with 1.

    ``:emoji:`` codes are never replaced (``emoji=False``): a file name such
    as ``no:thumbs_up:file.txt`` or a place such as ``c.jsonl:100:`` is
    printed as it is."""

    def __init__(self, *args: Any, **options: Any) -> None:
        options.setdefault("emoji", False)
        super().__init__(*args, **options)

    def on_broken_pipe(self) -> None:
        import errno

        if self.quiet:
            return
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        self.quiet = True  # nothing more is written to the closed pipe
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            seg if seg.control or not seg.text else
            Segment(escape_controls(seg.text), seg.style, seg.control) for seg in buffer)


def print_uncut(console: Console, renderable: Any) -> None:
    """Print on ``console``: at its width on a terminal; in a pipe or a file as
    wide as the text needs (a table with a long file name is never cut)."""
    if console.is_terminal:
        console.print(renderable)
        return
    SafeConsole(file=console.file, width=MAX_COLUMNS, no_color=console.no_color,
                highlight=False, force_terminal=False,
                color_system=console.color_system or None).print(renderable)


def console_width() -> int | None:
    """The width to give a console: None (rich's own choice) unless
    ``COLUMNS`` is a number outside :data:`MIN_COLUMNS`..:data:`MAX_COLUMNS`,
    then the terminal's width (80 when there is none), within those bounds."""
    raw = os.environ.get("COLUMNS", "").strip()
    if not raw.isdigit() or MIN_COLUMNS <= int(raw) <= MAX_COLUMNS:
        return None
    try:
        width = os.get_terminal_size(1).columns
    except (OSError, ValueError):
        width = 80
    return max(MIN_COLUMNS, min(MAX_COLUMNS, width or 80))


def make_console(stderr: bool = False, **options: Any) -> SafeConsole:
    """A :class:`SafeConsole` (standard output, or standard error), with a sane
    width unless ``width`` is given."""
    if "width" not in options:
        options["width"] = console_width()
    return SafeConsole(stderr=stderr, **options)
