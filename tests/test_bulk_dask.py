"""--dask: a LocalCluster gives the same output, order and resume as the local path."""

from __future__ import annotations

from pathlib import Path

import pytest
from bulk_helpers import PUZZLES, first_grids, grade, jsonl, without_seconds

pytest.importorskip("distributed")


def test_dask_local_equals_local_and_resumes(tmp_path: Path) -> None:
    src = first_grids(PUZZLES / "se-medium-500.txt", 80, tmp_path / "m80.txt")
    local = grade(str(src), "-f", "jsonl", "-j", "2")
    assert local.returncode == 0, local.stderr
    want = without_seconds(jsonl(local.stdout))

    out = tmp_path / "d.jsonl"
    # an interrupted run: the first 30 results are already there
    out.write_text("".join(ln + "\n" for ln in local.stdout.splitlines()[:30]))
    p = grade(str(src), "-o", str(out), "--resume", "--dask", "local", "-j", "2")
    assert p.returncode == 0, p.stderr
    assert "30 from the earlier run" in p.stdout
    assert without_seconds(jsonl(out.read_text())) == want


@pytest.mark.slow
def test_dask_fresh_run_equals_local(tmp_path: Path) -> None:
    src = first_grids(PUZZLES / "se-medium-500.txt", 80, tmp_path / "m80.txt")
    local = grade(str(src), "-f", "jsonl", "-j", "1")
    p = grade(str(src), "-f", "jsonl", "--dask", "local", "-j", "2")
    assert p.returncode == 0, p.stderr
    assert without_seconds(jsonl(p.stdout)) == without_seconds(jsonl(local.stdout))


def test_dask_timeout_interrupts_the_grid_in_its_thread() -> None:
    from grader.bulk.dask import grade_chunk
    from grader.bulk.task import GradeConfig
    from grader.formats import parse_grid_token

    # the hardest grids need trials: a tiny deadline interrupts them inside the worker thread
    hard = parse_grid_token(
        "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..")
    task = (1, 1, 3, 3, hard.values)
    res = [d for d, _ in grade_chunk(GradeConfig(), [task], 0.001)]
    assert res[0]["verdict"] == "timeout" and res[0]["index"] == 1
    res = [d for d, _ in grade_chunk(GradeConfig(), [task], None)]
    assert res[0]["verdict"] == "ok" and res[0]["level"] >= 13


@pytest.mark.slow
def test_unreachable_scheduler_is_a_usage_error() -> None:
    p = grade(str(PUZZLES / "book-calibration.txt"), "--dask", "tcp://127.0.0.1:9",
              "-f", "jsonl", timeout=120)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr and "Dask" in p.stderr
