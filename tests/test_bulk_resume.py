"""Bulk rating: nothing lost -- resume after kill -9, Ctrl-C, a line cut short."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bulk_helpers import BULK, PUZZLES, first_grids, grade, jsonl, run_grade, without_seconds

from grader.bulk.resume import ResumeCursor
from grader.bulk.sources import records

MEDIUM = PUZZLES / "se-medium-500.txt"



# -- resume --------------------------------------------------------------------------


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _start(args: list[str]) -> subprocess.Popen[str]:
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1")
    return subprocess.Popen([sys.executable, "-m", "grader", "grade", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _wait_for_lines(path: Path, n: int, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while _lines(path) < n and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.fixture(scope="module")
def medium300(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    d = tmp_path_factory.mktemp("resume")
    src = first_grids(MEDIUM, 300, d / "medium300.txt")
    clean = d / "clean.jsonl"
    p = grade(str(src), "-o", str(clean), "-j", "2")
    assert p.returncode == 0, p.stderr
    return src, jsonl(clean.read_text())


def test_kill_9_then_resume_equals_a_clean_run(medium300, tmp_path: Path) -> None:
    src, clean = medium300
    out = tmp_path / "r.jsonl"
    proc = _start([str(src), "-o", str(out), "-j", "2"])
    _wait_for_lines(out, 40, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    partial = jsonl(out.read_text())
    assert 0 < len(partial) < 300, "the run should have been stopped half-way"
    assert [r["index"] for r in partial] == list(range(1, len(partial) + 1))
    p = grade(str(src), "-o", str(out), "-j", "2", "--resume")
    assert p.returncode == 0, p.stderr
    assert f"{len(partial)} from the earlier run" in p.stdout
    rows = jsonl(out.read_text())
    assert [r["index"] for r in rows] == list(range(1, 301))  # each grid exactly once
    assert without_seconds(rows) == without_seconds(clean)


def test_ctrl_c_stops_cleanly_with_the_summary_then_resume(medium300, tmp_path: Path) -> None:
    src, clean = medium300
    out = tmp_path / "r.csv"
    proc = _start([str(src), "-o", str(out), "-j", "2"])
    _wait_for_lines(out, 30, proc)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stdout and "--resume" in stdout
    assert "Traceback" not in stderr
    p = grade(str(src), "-o", str(out), "-j", "1", "--resume")
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


