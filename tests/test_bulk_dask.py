"""--dask: a LocalCluster gives the same output, order and resume as the local path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bulk_helpers import PUZZLES, first_grids, grade, jsonl, without_seconds
from conftest import scaled

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


def _graded_on_a_worker(cfg: object, tasks: list, timeout: float | None) -> list[dict]:
    """``tasks`` graded as a Dask worker thread grades a chunk: the run's plugin set
    up (no cluster: the worker object is only named in messages), then the chunk."""
    import pickle

    from grader.bulk.dask_worker import GradePlugin, grade_chunk, identity

    name = f"test-{timeout}"
    plugin = GradePlugin(name, cfg, timeout, identity())  # type: ignore[arg-type]
    plugin.setup(worker=None)
    try:
        answers, seconds = grade_chunk(name, pickle.dumps(tasks))
    finally:
        plugin.teardown(worker=None)
    assert seconds >= 0
    return [d for d, _ in answers]


def test_dask_timeout_interrupts_the_grid_in_its_thread() -> None:
    from grader.bulk.task import GradeConfig
    from grader.formats import parse_grid_token

    # the hardest grids need trials: a tiny deadline interrupts them inside the worker thread
    hard = parse_grid_token(
        "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..")
    task = (1, 1, 3, 3, hard.values)
    res = _graded_on_a_worker(GradeConfig(), [task], 0.001)
    assert res[0]["verdict"] == "timeout" and res[0]["index"] == 1
    res = _graded_on_a_worker(GradeConfig(), [task], None)
    assert res[0]["verdict"] == "ok" and res[0]["level"] >= 13


def test_a_chunk_without_its_plugin_names_the_problem() -> None:
    from grader.bulk.dask_worker import WorkerMismatch, grade_chunk

    with pytest.raises(WorkerMismatch, match="has not received the run's configuration"):
        grade_chunk("no-such-run", b"")


def test_mismatch_says_what_differs() -> None:
    from grader.bulk.dask_worker import mismatch

    here = ("1.0", ("a = m:A (d 1.0)",))
    assert mismatch("tcp://w:1", here, here) is None
    assert mismatch("tcp://w:1", here, ("0.9", here[1])) == (
        "the Dask worker tcp://w:1 runs sudoku-grader 0.9, this command 1.0: install the "
        "same version on every worker")
    assert "lacks a = m:A (d 1.0)" in (mismatch("tcp://w:1", here, ("1.0", ())) or "")
    assert "has b = m:B (e 2), which this command lacks" in (
        mismatch("tcp://w:1", here, ("1.0", (*here[1], "b = m:B (e 2)"))) or "")


def test_chunks_follow_the_measured_cost_of_a_grid() -> None:
    from grader.bulk.dask import CHUNK_SECONDS, FIRST_CHUNK, ChunkSize

    c = ChunkSize(cap=1000)
    assert c.size == FIRST_CHUNK  # nothing measured yet
    c.measured(10, 10 * 0.0002)  # easy grids: 0.2 ms each
    assert c.size == min(1000, int(CHUNK_SECONDS / 0.0002))
    for _ in range(20):
        c.measured(5, 5 * 0.5)  # hard grids, half a second each
    assert c.size == 1
    c = ChunkSize(cap=64)
    c.measured(100, 1e-6)
    assert c.size == 64  # never above the cap


@pytest.mark.slow
def test_unreachable_scheduler_is_a_usage_error() -> None:
    p = grade(str(PUZZLES / "book-calibration.txt"), "--dask", "tcp://127.0.0.1:9",
              "-f", "jsonl", timeout=scaled(120))
    assert p.returncode == 2
    assert "Traceback" not in p.stderr and "Dask" in p.stderr


def test_a_worker_that_differs_refuses_the_run_and_its_chunks() -> None:
    """Setup on a worker of another version fails, naming both versions; a chunk
    sent there anyway (a worker that joined later) fails with the same words."""
    from grader.bulk.dask_worker import GradePlugin, WorkerMismatch, grade_chunk
    from grader.bulk.task import GradeConfig

    plugin = GradePlugin("test-other", GradeConfig(), None, ("0.0.0-other", ()))
    with pytest.raises(WorkerMismatch, match=r"runs sudoku-grader \S+, this command "
                                             r"0\.0\.0-other: install the same version"):
        plugin.setup(worker=None)
    try:
        with pytest.raises(WorkerMismatch, match="this command 0.0.0-other"):
            grade_chunk("test-other", b"")
    finally:
        plugin.teardown(worker=None)


class _Future:
    """A chunk's future as the pool sees it: its status and its exception."""

    def __init__(self, status: str, exc: BaseException | None = None) -> None:
        self.status, self.exc = status, exc

    def exception(self) -> BaseException | None:
        return self.exc


def _pool_of(futures: dict) -> Any:
    """A DaskPool with no cluster: only what a failed chunk touches."""
    from grader.bulk.dask import ChunkSize, DaskPool
    from grader.bulk.task import GradeConfig

    pool = object.__new__(DaskPool)
    pool.cfg, pool.address, pool._lost = GradeConfig(), "tcp://x:1", None
    pool._futures, pool._count, pool.chunks = futures, sum(map(len, futures.values())), \
        ChunkSize(8)
    pool.sent = []
    pool._send = lambda tasks: (pool._futures.__setitem__(_Future("pending"), tasks),
                                pool.sent.append(tasks))
    return pool


def test_a_chunk_that_kills_its_workers_is_split_then_its_grid_is_an_error() -> None:
    from distributed.scheduler import KilledWorker

    tasks = [(i, i, 2, 2, (0,) * 16) for i in (1, 2, 3)]
    chunk = _Future("error", KilledWorker("k", "tcp://w:1", 3))
    pool = _pool_of({chunk: tasks})
    out: list = []
    pool._failed(chunk, out)
    assert out == [] and pool.sent == [[t] for t in tasks]
    assert pool.outstanding() == 3
    single = next(f for f, t in pool._futures.items() if t == [tasks[1]])
    single.status, single.exc = "error", KilledWorker("k", "tcp://w:2", 3)
    pool._failed(single, out)
    assert [(d["index"], d["verdict"], d["message"]) for d, _ in out] == [
        (2, "error", "the Dask workers died on this grid")]
    assert pool.outstanding() == 2 and pool._lost is None


def test_a_cancelled_chunk_is_a_lost_scheduler_and_other_failures_stop_the_run() -> None:
    from grader.bulk.dask import ClusterLost

    task = (1, 1, 2, 2, (0,) * 16)
    cancelled = _Future("cancelled")
    pool = _pool_of({cancelled: [task]})
    pool._failed(cancelled, [])
    assert isinstance(pool._lost, ClusterLost)
    assert str(pool._lost) == "lost the connection to the Dask scheduler at tcp://x:1"
    broken = _Future("error", ValueError("boom"))
    pool = _pool_of({broken: [task]})
    pool._failed(broken, [])
    assert str(pool._lost) == "a Dask task failed: ValueError: boom"


def test_the_chunks_in_flight_are_bounded() -> None:
    """However long the input, the pool takes grids only while it has fewer than
    ``slots`` chunks in flight: memory does not grow with the input."""
    pool = _pool_of({})
    pool.slots, pool._pending = 3, []
    pool.chunks.size = 4
    taken = 0
    while pool.free() > 0:
        pool.submit((taken, taken, 2, 2, (0,) * 16))
        taken += 1
    assert taken == 12 and len(pool._futures) == 3 and pool.outstanding() == 12
    assert [len(t) for t in pool._futures.values()] == [4, 4, 4]


def test_a_worker_without_sudoku_grader_is_named() -> None:
    task = (1, 1, 2, 2, (0,) * 16)
    # how Dask hands back a task that a worker could not even unpickle
    bare = _Future("error", Exception("ModuleNotFoundError(\"No module named 'grader'\")"))
    pool = _pool_of({bare: [task]})
    pool._failed(bare, [])
    assert str(pool._lost).startswith("a Dask worker cannot load sudoku-grader (")
    assert str(pool._lost).endswith("): install the same version on every worker")
