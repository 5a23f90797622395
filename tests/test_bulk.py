"""Bulk rating: parallel = serial, streaming in bounded memory, timeouts and dead
workers, the summary.  (Resume: test_bulk_resume.py; selection: test_bulk_select.py.)"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from bulk_helpers import PUZZLES, grade, jsonl, run_grade, without_seconds
from conftest import scaled

from grader.bulk.pipeline import run
from grader.bulk.pool import InlinePool
from grader.bulk.processes import ProcessPool
from grader.bulk.sources import records
from grader.bulk.summary import Summary
from grader.bulk.task import GradeConfig, task_of
from grader.strategy.hierarchy import default_hierarchy

MEDIUM = PUZZLES / "se-medium-500.txt"



# -- parallel, ordered, streaming ----------------------------------------------------


def test_parallel_output_equals_serial(medium60: Path, serial60: list[dict]) -> None:
    p = run_grade(medium60, output_format="jsonl", jobs=2)
    assert p.returncode == 0, p.stderr
    rows = jsonl(p.stdout)
    assert [r["index"] for r in rows] == list(range(1, 61))
    assert without_seconds(rows) == without_seconds(serial60)
    assert {r["rating"] for r in rows} >= {"easy", "medium"}


def _counting(recs, log):  # type: ignore[no-untyped-def]
    for r in recs:
        log.append(r.index)
        yield r


@pytest.mark.parametrize("pool_kind", ["inline", "process"])
def test_reading_stays_within_the_window(medium60: Path, pool_kind: str) -> None:
    cfg = GradeConfig()
    pool = InlinePool(cfg) if pool_kind == "inline" else ProcessPool(cfg, 2)
    read: list[int] = []
    lag: list[int] = []
    emitted: list[int] = []

    def emit(e, resumed):  # type: ignore[no-untyped-def]
        emitted.append(e.index)
        lag.append(len(read) - len(emitted))

    stats = run(_counting(records([str(medium60)]), read), pool, emit, window=8)
    assert emitted == list(range(1, 61)) and stats.graded == 60
    assert max(lag) <= 8  # never more than the window between reading and writing


#: Level 14 with trials nested to depth 2: about 2 s with the accelerator, 4 s without.
SLOW = "..3......4...8..36..83..1...4..6..73...9...1......2.....4.7..686........7.....5.."


def test_a_slow_grid_does_not_hold_back_the_results_done_before_it(medium60: Path,
                                                                   tmp_path: Path) -> None:
    """Without a timeout a worker batches its results; the grids it finished before
    a slow one still reach the parent (to be written, or kept on Ctrl-C) while the
    slow one is being graded."""
    quick = medium60.read_text().splitlines()[:3]
    src = tmp_path / "quick-then-slow.txt"
    src.write_text("\n".join([*quick, SLOW]) + "\n")
    pool = ProcessPool(GradeConfig(), 1)
    try:
        for rec in records([str(src)]):
            pool.submit(task_of(rec))
        got: list[dict] = []
        while len(got) < 3:
            got += [d for d, _ in pool.wait(block=True)]
        assert [r["index"] for r in got] == [1, 2, 3]
        assert pool.outstanding() == 1  # the slow grid is still being graded
        while pool.outstanding():
            got += [d for d, _ in pool.wait(block=True)]
        assert got[3]["index"] == 4 and got[3]["level"] == 14 and got[3]["depth"] == 2
    finally:
        pool.close(kill=True)


def test_worker_timeout_and_crash_do_not_stop_the_run(tmp_path: Path) -> None:
    """A plugin rule that hangs on one grid and kills its process on another."""
    grids = [ln.split()[0] for ln in MEDIUM.read_text().splitlines()[:6]]
    # grids 1 and 4 need level 3: the level-2 plugin is asked about them when levels
    # 1-2 stall
    hang, crash = grids[0], grids[3]
    (tmp_path / "hangrule.py").write_text(
        "import os, signal, time\n"
        "from grader.core.rule import Rule\n"
        "def _is(board, text):\n"
        "    return all(board.values[i] == int(ch)\n"
        "               for i, ch in enumerate(text) if ch not in '.0')\n"
        "class Hang(Rule):\n"
        "    family = ''\n"
        "    def find(self, board):\n"
        "        if _is(board, os.environ['HANG_GRID']):\n"
        "            time.sleep(600)\n"
        "        if _is(board, os.environ['CRASH_GRID']):\n"
        "            os.kill(os.getpid(), signal.SIGKILL)\n"
        "        return iter(())\n")
    dist = tmp_path / "hangrule-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: hangrule\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[sudoku_grader.rules]\nhang = hangrule:Hang\n")
    h = tmp_path / "h.toml"
    h.write_text('extends = "default"\n[[rules]]\ncode = "hang"\nname = "Hang"\nlevel = 2\n'
                 'plugin = "hang"\n')
    src = tmp_path / "six.txt"
    src.write_text("\n".join(grids) + "\n")
    env = {"PYTHONPATH": str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "HANG_GRID": hang, "CRASH_GRID": crash}
    t0 = time.monotonic()
    p = grade(str(src), "--hierarchy", str(h), "-f", "jsonl", "-j", "2", "--timeout", "3",
              env=env)
    assert time.monotonic() - t0 < min(scaled(120), 500)  # the hung grid did not hold it 600 s
    rows = jsonl(p.stdout)
    assert p.returncode == 1, p.stderr
    assert [r["index"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[0]["verdict"] == "timeout" and "3 s" in rows[0]["message"]
    assert rows[3]["verdict"] == "error" and "worker process died" in rows[3]["message"]
    assert "signal 9" in rows[3]["message"]
    assert all(r["verdict"] == "ok" for i, r in enumerate(rows) if i not in (0, 3))


def test_summary_counts() -> None:
    s = Summary(default_hierarchy())
    rows = [
        {"index": 1, "line": 1, "verdict": "ok", "rating": "easy", "level": 2, "seconds": 0.5,
         "techniques": {"single-position": 3, "single-candidate": 1}},
        {"index": 2, "line": 2, "verdict": "ok", "rating": "expert", "level": 14,
         "seconds": 2.0, "depth": 2, "techniques": {"single-position": 9, "reductio": 2}},
        {"index": 3, "line": 3, "verdict": "malformed", "seconds": 0.0, "message": "bad"},
    ]
    for r in rows:
        s.add(r, "f.txt")
    assert s.verdicts == {"ok": 2, "malformed": 1}
    assert s.techniques["single-position"] == 2 and s.steps["single-position"] == 12
    assert s.levels[14] == 1 and s.depths[2] == 1
    assert [x[1] for x in s.slowest] == [2, 1, 3]
    assert s.bad == [("f.txt", 3, 3, "malformed", "bad")]

