"""Helpers for the bulk-rating tests: run ``grade`` as a user would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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
                          capture_output=True, text=True, timeout=timeout, env=e)


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
