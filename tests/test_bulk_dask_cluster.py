"""--dask against a real cluster: ``dask scheduler`` and two ``dask worker``
processes on the loopback, as a user starts them (``tests/dask_cluster.py``).

The output must be the local run's, byte for byte once ``seconds`` is
blanked: with every worker up, with a worker killed in the middle of the run
(the other one finishes it, every grid exactly once), and after the scheduler
stops in the middle (a one-line message, exit status 1) and ``--resume``
completes the file on another cluster.  "In the middle" does not depend on
timing: the run is paused (SIGSTOP) once it has written its first lines, the
worker or the scheduler is stopped, and the run goes on (SIGCONT).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from bulk_helpers import PUZZLES, first_grids, grade, run_grade
from dask_cluster import Cluster, count_lines, wait_until

pytest.importorskip("distributed")

SECONDS = re.compile(r'"seconds": [-+0-9.eE]+')
#: How long a run on the test cluster may take at most (a few seconds on 2 cores).
RUN_TIMEOUT = 300


def blank(text: str) -> str:
    """JSON Lines with every ``seconds`` blanked (the only field that may differ)."""
    return SECONDS.sub('"seconds": null', text)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory,
            request: pytest.FixtureRequest) -> Cluster:
    """A scheduler and two workers shared by the tests that leave them up."""
    c = Cluster(tmp_path_factory.mktemp("cluster"))
    request.addfinalizer(c.stop)
    return c.start()


@pytest.fixture
def fresh_cluster(tmp_path: Path) -> Iterator[Callable[[], Cluster]]:
    """Clusters of one test's own, to stop parts of (all stopped at the end)."""
    started: list[Cluster] = []

    def start() -> Cluster:
        c = Cluster(tmp_path / f"cluster{len(started)}")
        started.append(c)
        return c.start()

    yield start
    for c in started:
        c.stop()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """``mixed``: grids of every size and rating, a malformed line; ``long``: 1,200
    rated grids (a few seconds on two workers)."""
    d = tmp_path_factory.mktemp("inputs")
    bad = d / "bad.txt"
    bad.write_text("not a grid\n" + "1" * 81 + "\n")
    return {
        "mixed": [str(first_grids(PUZZLES / "se-rated-9758.txt", 150, d / "rated150.txt")),
                  str(PUZZLES / "sizes-4x4.txt"), str(PUZZLES / "sizes-6x6.txt"),
                  str(PUZZLES / "sizes-16x16.txt"), str(bad),
                  str(PUZZLES / "generated-mixed-9x9.txt")],
        "long": [str(first_grids(PUZZLES / "se-rated-9758.txt", 1200, d / "rated1200.txt"))],
    }


@pytest.fixture(scope="module")
def local(inputs: dict[str, list[str]],
          tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str]]:
    """Each input graded locally (``-j 2``): exit status and the output file's text."""
    d = tmp_path_factory.mktemp("local")
    out: dict[str, tuple[int, str]] = {}
    for name, files in inputs.items():
        path = d / f"{name}.jsonl"
        p = grade(*files, "-j", "2", "-o", str(path), "-q", timeout=RUN_TIMEOUT)
        assert p.returncode in (0, 1), p.stderr
        out[name] = (p.returncode, path.read_text())
    return out


def start_run(files: list[str], address: str, out: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    return subprocess.Popen([sys.executable, "-m", "grader", "grade", *files, "--dask", address,
                             "-o", str(out), "-q"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def paused_mid_run(p: subprocess.Popen[str], out: Path, total: int) -> None:
    """Pause the run once it has written some results, and check that it is
    in the middle: still running, and not all of its results written."""
    wait_until(lambda: count_lines(out) >= 20, "the run writes its first results",
               timeout=RUN_TIMEOUT, alive=p)
    os.kill(p.pid, signal.SIGSTOP)
    assert p.poll() is None and count_lines(out) < total, "the run ended before the test"


def test_real_cluster_output_equals_local(cluster: Cluster, inputs: dict[str, list[str]],
                                          local: dict[str, tuple[int, str]],
                                          tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    p = grade(*inputs["mixed"], "--dask", cluster.address, "-o", str(out), "-q",
              timeout=RUN_TIMEOUT)
    code, want = local["mixed"]
    assert p.returncode == code, p.stderr
    assert '"verdict": "malformed"' in want and '"size": 16' in want
    assert blank(out.read_text()) == blank(want)


def run_paused(grids: list[str], address: str, out: Path, want: str,
               act: Callable[[], None]) -> tuple[int, str]:
    """A run against the cluster, stopped (SIGSTOP) half way through, ``act``
    done meanwhile, then continued to its end: (exit status, standard error)."""
    p = start_run(grids, address, out)
    try:
        paused_mid_run(p, out, want.count("\n"))
        act()
    finally:
        os.kill(p.pid, signal.SIGCONT)
        _, err = p.communicate(timeout=RUN_TIMEOUT)
    return p.returncode, err


def test_a_worker_killed_mid_run(fresh_cluster: Callable[[], Cluster],
                                 inputs: dict[str, list[str]],
                                 local: dict[str, tuple[int, str]], tmp_path: Path) -> None:
    c = fresh_cluster()
    out = tmp_path / "out.jsonl"
    code, want = local["long"]

    def kill_a_worker() -> None:
        assert c.held_by(c.workers[0]) > 0  # chunks graded there, or results kept there
        c.workers[0].kill()  # the nanny and its worker, with the chunks they hold

    returncode, err = run_paused(inputs["long"], c.address, out, want, kill_a_worker)
    assert returncode == code, err
    assert blank(out.read_text()) == blank(want)  # every grid once, in order


def test_scheduler_stopped_mid_run_then_resume(cluster: Cluster,
                                               fresh_cluster: Callable[[], Cluster],
                                               inputs: dict[str, list[str]],
                                               local: dict[str, tuple[int, str]],
                                               tmp_path: Path) -> None:
    c = fresh_cluster()
    out = tmp_path / "out.jsonl"
    code, want = local["long"]

    def stop_the_scheduler() -> None:
        assert c.scheduler is not None
        c.scheduler.signal(signal.SIGTERM)
        c.scheduler.proc.wait(timeout=RUN_TIMEOUT)

    returncode, err = run_paused(inputs["long"], c.address, out, want, stop_the_scheduler)
    assert returncode == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"grade: error: lost the connection to the Dask scheduler at "
                               f"{c.address}"), err
    assert f"--resume to continue {out}" in lines[0], err
    written = blank(out.read_text())
    assert written.count("\n") < want.count("\n") and blank(want).startswith(written)

    q = grade(*inputs["long"], "--dask", cluster.address, "-o", str(out), "--resume", "-q",
              timeout=RUN_TIMEOUT)
    assert q.returncode == code, q.stderr
    assert blank(out.read_text()) == blank(want)


def test_a_worker_of_another_version_is_refused(cluster: Cluster,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from grader.bulk import dask_worker

    monkeypatch.setattr(dask_worker, "identity", lambda: ("0.0.0-other", ()))
    p = run_grade(PUZZLES / "sizes-4x4.txt", output_format="jsonl", dask=cluster.address)
    assert p.returncode == 2
    assert re.search(r"error: cannot start the workers: the Dask worker tcp://127\.0\.0\.1:\d+ "
                     r"runs sudoku-grader \S+, this command 0\.0\.0-other: install the same "
                     r"version on every worker", p.stderr), p.stderr
