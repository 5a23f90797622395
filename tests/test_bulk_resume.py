"""Bulk rating: nothing lost -- resume after kill -9, Ctrl-C, a line cut short."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from bulk_helpers import (
    BULK,
    PUZZLES,
    complete_lines,
    first_grids,
    gate_grid,
    gate_setup,
    grade,
    jsonl,
    run_grade,
    wait_for_lines,
    without_seconds,
)
from conftest import scaled

from grader.bulk.resume import ResumeCursor
from grader.bulk.sources import records

MEDIUM = PUZZLES / "se-medium-500.txt"



# -- resume --------------------------------------------------------------------------


def _start(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    e = dict(os.environ, COLUMNS="200", NO_COLOR="1", **env)
    return subprocess.Popen([sys.executable, "-m", "grader", "grade", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e)


@pytest.fixture(scope="module")
def medium300(tmp_path_factory: pytest.TempPathFactory
              ) -> tuple[Path, Path, dict[str, str], list[dict]]:
    """300 grids, the gate's hierarchy and environment, and the clean run.  The
    gate (see bulk_helpers.gate_setup) holds back a grid after the 150th: the
    runs below cannot end before the test opens it, however fast they grade."""
    d = tmp_path_factory.mktemp("resume")
    src = first_grids(MEDIUM, 300, d / "medium300.txt")
    h, env = gate_setup(d / "site")
    gate_at, env["GATE_GRID"] = gate_grid(src, 150)
    env["GATE_AT"] = str(gate_at)
    env["GATE_FILE"] = str(d / "open")
    (d / "open").touch()
    clean = d / "clean.jsonl"
    p = grade(str(src), "-o", str(clean), "-j", "2", "--hierarchy", str(h), env=env)
    assert p.returncode == 0, p.stderr
    return src, h, env, jsonl(clean.read_text())


def test_kill_9_then_resume_equals_a_clean_run(medium300, tmp_path: Path) -> None:
    src, h, env, clean = medium300
    env = dict(env, GATE_FILE=str(tmp_path / "gate"))
    out = tmp_path / "r.jsonl"
    proc = _start([str(src), "-o", str(out), "-j", "2", "--hierarchy", str(h)], env)
    try:
        wait_for_lines(out, 40, proc)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
    partial = [json.loads(ln) for ln in complete_lines(out)]
    assert 40 <= len(partial) < int(env["GATE_AT"]), "the gate holds the run back"
    assert [r["index"] for r in partial] == list(range(1, len(partial) + 1))
    (tmp_path / "gate").touch()
    p = grade(str(src), "-o", str(out), "-j", "2", "--resume", "--hierarchy", str(h), env=env)
    assert p.returncode == 0, p.stderr
    assert f"{len(partial)} from the earlier run" in p.stdout
    rows = jsonl(out.read_text())
    assert [r["index"] for r in rows] == list(range(1, 301))  # each grid exactly once
    assert without_seconds(rows) == without_seconds(clean)


def test_ctrl_c_stops_cleanly_with_the_summary_then_resume(medium300, tmp_path: Path) -> None:
    src, h, env, clean = medium300
    env = dict(env, GATE_FILE=str(tmp_path / "gate"))
    out = tmp_path / "r.csv"
    proc = _start([str(src), "-o", str(out), "-j", "2", "--hierarchy", str(h)], env)
    try:
        wait_for_lines(out, 30, proc)
    finally:
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=scaled(60))
    assert proc.returncode == 130, stderr
    assert "interrupted" in stdout and "--resume" in stdout
    assert "Traceback" not in stderr
    (tmp_path / "gate").touch()
    p = grade(str(src), "-o", str(out), "-j", "1", "--resume", "--hierarchy", str(h), env=env)
    assert p.returncode == 0, p.stderr
    with out.open() as fh:
        rows = list(csv.DictReader(fh))
    assert [int(r["index"]) for r in rows] == list(range(1, 301))
    assert [(r["puzzle"], r["rating"], r["level"]) for r in rows] == [
        (c["puzzle"], c["rating"], str(c["level"])) for c in clean]


def test_resume_drops_a_line_cut_short(medium60: Path, serial60: list[dict],
                                      tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    p = run_grade(medium60, output=out, jobs=1)
    text = out.read_text().splitlines(keepends=True)
    out.write_text("".join(text[:25]) + text[25][:40])  # a crash while writing line 26
    p = run_grade(medium60, output=out, jobs=2, resume=True)
    assert p.returncode == 0, p.stderr
    assert without_seconds(jsonl(out.read_text())) == without_seconds(serial60)


def test_resume_refuses_another_input(medium60: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    run_grade(BULK / "mixed.txt", output=out)
    p = run_grade(medium60, output=out, resume=True)
    assert p.returncode == 2
    assert "another input" in p.stderr and "Traceback" not in p.stderr


def test_resume_cursor_checks_index_and_puzzle(medium60: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    run_grade(medium60, output=out, jobs=1, where="index <= 10 or index == 20")
    cur = ResumeCursor(out)
    assert cur.last == 20 and cur.count == 11
    flags = [cur.skip(r) for r in records([str(medium60)])]
    assert [i + 1 for i, (done, row) in enumerate(flags) if done] == list(range(1, 21))
    assert [i + 1 for i, (done, row) in enumerate(flags) if row] == [*range(1, 11), 20]


