"""Helpers for the bulk-rating tests: run ``grade`` as a user would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import scaled

ROOT = Path(__file__).resolve().parent.parent
BULK = Path(__file__).resolve().parent / "data" / "bulk"
PUZZLES = ROOT / "puzzles"


def grade(*args: str, stdin: str | None = None, env: dict[str, str] | None = None,
          timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """``python -m grader grade ARGS`` in a subprocess (no terminal)."""
    e = dict(os.environ)
    e.update({"COLUMNS": "200", "NO_COLOR": "1"})
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "grader", "grade", *args], input=stdin,
                          capture_output=True, text=True, timeout=scaled(timeout), env=e)


def jsonl(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def without_seconds(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def first_grids(path: Path, n: int, dest: Path) -> Path:
    """The first ``n`` grid lines of a one-grid-per-line file, written to ``dest``."""
    lines = [ln for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    dest.write_text("\n".join(lines[:n]) + "\n")
    return dest


def run_grade(*inputs: str | Path, **options: object) -> subprocess.CompletedProcess[str]:
    """``grade INPUTS`` in this process, through the library:
    ``grade_collection(GradeOptions(inputs=INPUTS, **options))`` (option names
    as the command line's: ``output_format="jsonl"``, ``jobs=2``, ``where=...``).

    Returns what a subprocess would: the exit status (2 with ``error: ...`` on
    standard error for a refused request), standard output (the results, and
    what the command prints there: tables, the summary) and standard error."""
    import contextlib
    import io

    from rich.console import Console

    from grader.bulk import GradeOptions, GradeUsageError, grade_collection

    data, shown, errors = io.StringIO(), io.StringIO(), io.StringIO()
    out = Console(file=shown, width=200, highlight=False, soft_wrap=True, no_color=True)
    err = Console(file=errors, width=200, highlight=False, soft_wrap=True, no_color=True)
    opts = GradeOptions(inputs=tuple(str(i) for i in inputs), **options)  # type: ignore[arg-type]
    with contextlib.redirect_stdout(data):
        try:
            code = grade_collection(opts, out=out, err=err).exit_code
        except GradeUsageError as e:
            err.print(f"error: {e}", markup=False)
            code = e.code
    return subprocess.CompletedProcess(["grade", *map(str, inputs)], code,
                                       data.getvalue() + shown.getvalue(), errors.getvalue())


# -- a gate: one grid that waits until the test lets it through -----------------------

GATE_RULE = '''
import os
import time

from grader.core.rule import Rule


class Gate(Rule):
    """Finds nothing; on the grid of GATE_GRID it first waits until the file
    GATE_FILE exists, so that a run cannot end before the test says so."""

    family = ""

    def find(self, board):
        grid, gate = os.environ.get("GATE_GRID"), os.environ.get("GATE_FILE")
        if grid and gate and all(board.values[i] == int(ch)
                                 for i, ch in enumerate(grid) if ch not in ".0"):
            while not os.path.exists(gate):
                time.sleep(0.01)
        return iter(())
'''


def gate_setup(folder: Path) -> tuple[Path, dict[str, str]]:
    """A rule plugin that holds one grid back (installed in ``folder``) and a
    hierarchy that uses it: ``(hierarchy file, environment)``.  Set
    ``GATE_GRID`` (the grid held back) and ``GATE_FILE`` (created to let it
    through) in the environment of each run."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "gaterule.py").write_text(GATE_RULE)
    dist = folder / "gaterule-0.1.dist-info"
    dist.mkdir(exist_ok=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: gaterule\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[sudoku_grader.rules]\ngate = gaterule:Gate\n")
    h = folder / "gate.toml"
    h.write_text('extends = "default"\n[[rules]]\ncode = "gate"\nname = "Gate"\nlevel = 2\n'
                 'plugin = "gate"\n')
    env = {"PYTHONPATH": str(folder) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return h, env


def complete_lines(path: Path) -> list[str]:
    """The lines of ``path`` that end with a newline (a run killed while
    writing may leave the last one cut short)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    lines = text.split("\n")
    return [ln for ln in lines[:-1] if ln.strip()]


def wait_for_lines(path: Path, n: int, proc: subprocess.Popen[str],
                   limit: float = 120) -> int:
    """Wait until ``path`` holds ``n`` complete lines; fail if the run ends
    first (or after ``limit`` seconds: a hung run)."""
    import time

    deadline = time.monotonic() + scaled(limit)
    while True:
        have = len(complete_lines(path))
        if have >= n:
            return have
        assert proc.poll() is None, f"the run ended with {have} of {n} lines"
        assert time.monotonic() < deadline, f"{have} of {n} lines after {limit} s"
        time.sleep(0.01)


def gate_grid(src: Path, start: int) -> tuple[int, str]:
    """``(index, puzzle)`` of the first grid of ``src`` from ``start`` on that
    needs level 3 or more (so the gate, at level 2, is asked about it)."""
    rows = jsonl(run_grade(src, output_format="jsonl", jobs=1).stdout)
    for r in rows[start - 1:]:
        if r["verdict"] == "ok" and r["level"] >= 3:
            return r["index"], r["puzzle"]
    raise AssertionError(f"no grid of level 3 or more from {start} on in {src}")


# -- a job for the pool of processes whose tasks wait, crash or answer on demand ------


class GateJob:
    """A :class:`~grader.bulk.processes.Job` for tests: a task ``(n, what)``
    answers ``n`` at once (``what`` "go"), once the file ``gate`` exists
    ("wait"), or ends its worker with exit status 3 ("crash").  A task whose
    worker died is answered ``("failed", n, verdict, message)``."""

    preload: tuple[str, ...] = ()

    def __init__(self, gate: str) -> None:
        self.gate = gate

    def start(self, timeout: float | None) -> GateJob:
        return self

    def answer(self, task: tuple[int, str]) -> int:
        import time

        n, what = task
        if what == "crash":
            os._exit(3)
        while what == "wait" and not os.path.exists(self.gate):
            time.sleep(0.01)
        return n

    def failed(self, task: tuple[int, str], verdict: str, message: str,
               seconds: float) -> tuple[str, int, str, str]:
        return ("failed", task[0], verdict, message)
