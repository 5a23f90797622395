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
