"""Where kept results go: an output file or standard output (JSON Lines or
CSV, through the one codec), or a table on the terminal."""

from __future__ import annotations

from typing import Any, TextIO

from grader.bulk.codec import Encoder, Result, to_model
from grader.bulk.tables import TABLE_PAGE, render_panel, results_table
from grader.core.textsafe import escape_controls
from grader.strategy.hierarchy import Hierarchy


class ResultWriter:
    """Writes results as JSON Lines or CSV to a stream.  A result's line comes
    encoded from its worker when it can (``text``); the CSV header goes before
    the first row (``header``: False when appending).  The run flushes the
    stream after each round of results."""

    def __init__(self, stream: TextIO | Any, fmt: str, fields: list[str] | None = None,
                 header: bool = True) -> None:
        self.stream = stream
        self.fmt = fmt
        self.encoder = Encoder(fmt, fields)
        self.header = header and fmt == "csv"

    def write(self, d: Result, text: str | None = None) -> None:
        if self.header:
            self.header = False
            self.stream.write(self.encoder.header(d))
        self.stream.write(text if text is not None else self.encoder.encode(d))

    def flush(self) -> None:
        self.stream.flush()


def data_stream(stream: TextIO | Any) -> TextIO | Any:
    """Where JSON Lines or CSV results go: ``stream``, or when it is a terminal
    a view of it that shows control characters as escapes (a CSV cell or a
    line of input is never sent to a terminal raw)."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError, OSError):
        tty = False
    return _TerminalStream(stream) if tty else stream


class _TerminalStream:
    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return int(self.stream.write(escape_controls(text)))

    def flush(self) -> None:
        self.stream.flush()


#: The width a table is laid out in when standard output is not a terminal.
WIDE = 10_000


class TableSink:
    """Results as a table on a console: in pages of :data:`TABLE_PAGE` rows as
    they come, the rest at the end (one grid alone: its panel)."""

    def __init__(self, console: Any, hierarchy: Hierarchy) -> None:
        self.console = console
        self.hierarchy = hierarchy
        self.rows: list[Any] = []
        self.paged = False

    def write(self, d: Result, text: str | None = None) -> None:
        self.rows.append(to_model(d))
        if len(self.rows) >= TABLE_PAGE:
            self._print(results_table(self.rows, None, self.console.width, self._cut))
            self.rows.clear()
            self.paged = True

    def flush(self) -> None:
        pass

    def finish(self, panel: bool, source: str | None) -> None:
        """Print what is left; ``panel``: one grid alone is shown as a panel."""
        if len(self.rows) == 1 and panel:
            self.console.print(render_panel(self.rows[0], self.hierarchy, source))
        elif self.rows:
            self._print(results_table(
                self.rows, None if self.paged else f"{len(self.rows)} grids",
                self.console.width, self._cut))

    @property
    def _cut(self) -> bool:
        """Cells are shortened to the terminal's width; never in a pipe or a file."""
        try:
            return bool(self.console.file.isatty())
        except (AttributeError, ValueError, OSError):
            return False

    def _print(self, table: Any) -> None:
        if self._cut:
            self.console.print(table)
        else:  # as wide as the table needs: nothing is cut
            from grader.core.terminal import SafeConsole

            c = self.console
            SafeConsole(file=c.file, width=WIDE, no_color=c.no_color, highlight=False,
                        force_terminal=c.is_terminal,
                        color_system=c.color_system if c.color_system else None).print(table)
