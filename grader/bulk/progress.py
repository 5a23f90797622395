"""The progress bar of a run, on standard error (a terminal only): grids, rate, ETA."""

from __future__ import annotations

import time
from typing import Any

from grader.bulk.pipeline import Entry
from grader.bulk.sources import count_lines


class Progress:
    """Called with each entry handed back; draws at most ten times a second."""

    def __init__(self, sources: list[str], enabled: bool, console: Any) -> None:
        self.bar: Any = None
        self.done = 0
        self.base: dict[str, int] = {}
        self._last = 0.0
        self._t0 = time.perf_counter()
        if not enabled:
            return
        from rich.progress import (
            BarColumn,
            SpinnerColumn,
            TaskProgressColumn,
            TextColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as Bar

        total: int | None = 0
        for src in sources:
            k = count_lines(src)
            if k is None or total is None:
                total = None
            else:
                self.base[src] = total
                total += k
        self.bar = Bar(SpinnerColumn(), TextColumn("[bold]{task.fields[grids]}[/] grids"),
                       BarColumn(), TaskProgressColumn(),
                       TextColumn("{task.fields[rate]} grids/s"), TimeRemainingColumn(),
                       console=console, transient=True)
        self.task = self.bar.add_task("grading", total=total or None, grids=0, rate="-")
        self.bar.start()

    def __call__(self, e: Entry) -> None:
        self.done += 1
        if self.bar is None:
            return
        now = time.perf_counter()
        if now - self._last < 0.1:
            return
        self._last = now
        rate = self.done / max(now - self._t0, 1e-9)
        self.bar.update(self.task, completed=self.base.get(e.source, 0) + e.line,
                        grids=self.done, rate=f"{rate:.1f}")

    def advance(self, grids: int, source: str, line: int) -> None:
        """``grids`` more grids handed back, the last on ``line`` of ``source``."""
        self.done += grids
        if self.bar is None or not grids:
            return
        now = time.perf_counter()
        if now - self._last < 0.1:
            return
        self._last = now
        rate = self.done / max(now - self._t0, 1e-9)
        self.bar.update(self.task, completed=self.base.get(source, 0) + line,
                        grids=self.done, rate=f"{rate:.1f}")

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
