"""Helpers of the web tests: ``python -m grader serve`` on the loopback, the
grids they use, and the system's Chromium for the browser tests."""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: fig2.1 of the book: 52 single positions
EASY = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"
EASY_SOLUTION = "642579831159438276378216954536827149481965327297341685865792413924153768713684592"
#: grid 10 of puzzles/book-figures.txt: level 13, trials of depth 1, 57 steps
DEPTH1 = ".....4.78.5.9.64....9..862..96...3....2.6.7......9..5...4.7.......6.3.....7..2.9."
#: the first grid of the hardest database: trials nested to depth 2 (about a second)
DEPTH2 = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"

#: a minimal 16x16 (tests/data/engines-16x16-minimal.txt): its path takes
#: more than 30 s to walk (measured on the 2-core development machine)
SLOW16 = (ROOT / "tests" / "data" / "engines-16x16-minimal.txt").read_text(
    encoding="utf-8").split("\n")[1].split()[0]


def slow_grid(k: int) -> str:
    """:data:`SLOW16` with its symbols shifted by ``k``: another grid as slow."""
    symbols = "123456789ABCDEFG"
    return "".join(ch if ch == "." else symbols[(symbols.index(ch) + k) % 16] for ch in SLOW16)


#: how the browser tests start Chromium (the system's, never a downloaded one)
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium() -> str | None:
    """The system's Chromium, or None."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None


def needs_web() -> None:
    """Skip the calling module when the web extra is not installed."""
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    pytest.importorskip("uvicorn", reason="the web extra is not installed")
    pytest.importorskip("httpx", reason="httpx (test extra) is not installed")


class Server:
    """``python -m grader serve ARGS`` in a process of its own, on a free port
    of the loopback; ``url`` once it listens."""

    def __init__(self, *args: str, files: int | None = None) -> None:
        self.args = args
        self.files = files  # the server's limit of open files (RLIMIT_NOFILE), if given
        self.url = ""
        self.proc: subprocess.Popen[str] | None = None

    def _limit(self) -> None:
        import resource

        if self.files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.files, self.files))

    def __enter__(self) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "grader", "serve", *self.args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     cwd=ROOT, env=env,
                                     preexec_fn=self._limit if self.files else None)
        lines: queue.Queue[str] = queue.Queue()
        out = self.proc.stdout
        assert out is not None
        threading.Thread(target=lambda: [lines.put(ln) for ln in out], daemon=True).start()
        end = time.monotonic() + 120
        line = ""
        while not line:  # polled: a server that exits at once is said at once
            try:
                line = lines.get(timeout=0.2)
            except queue.Empty:
                if self.proc.poll() is not None:
                    err = self.proc.stderr.read() if self.proc.stderr else ""
                    raise RuntimeError(f"the server exited ({self.proc.returncode}): {err}") \
                        from None
                if time.monotonic() > end:
                    self.__exit__()
                    raise RuntimeError("the server did not start within 120 s") from None
        found = re.search(r"http://\S+", line)
        if not found:
            err = self.proc.stderr.read() if self.proc.stderr else ""
            self.__exit__()
            raise RuntimeError(f"the server said {line!r}: {err}")
        self.url = found.group(0)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def candidate_of(grid: str, cell: tuple[int, int], wrong: bool) -> int:
    """A candidate of ``cell`` (1-based row, column) in ``grid`` that is (or,
    ``wrong``, is not) its value in the solution."""
    from grader.api import grade
    from grader.core.board import Board

    board = Board.from_string(grid)
    c = (cell[0] - 1) * 9 + cell[1] - 1
    solution = grade(grid).solution
    assert solution is not None
    right = int(solution[c])
    others = [v for v in board.candidates(c) if v != right]
    return others[0] if wrong else right
