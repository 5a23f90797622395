"""A killed command leaves no worker behind (grader.bulk.orphans)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from conftest import scaled

psutil = pytest.importorskip("psutil")


def _children(pid: int, want: int, wait: float = 30.0) -> list:
    """The worker processes of ``pid`` once ``want`` of them run (polled; the
    wait scales to the machine)."""
    proc = psutil.Process(pid)
    end = time.monotonic() + scaled(wait)
    while time.monotonic() < end:
        kids = [k for k in proc.children(recursive=True)
                if "resource_tracker" not in " ".join(k.cmdline())]
        if len(kids) >= want:
            return kids
        time.sleep(0.2)
    raise AssertionError(f"{want} workers did not start")


def _wait_until_watched(pid: int, kids: list, wait: float = 30.0) -> None:
    """Polled until every worker among ``kids`` (the processes of the fork
    server that ``pid`` started) runs the thread that ends it with its parent
    (grader.bulk.orphans): then a killed parent is the case the tests are
    about, however slowly the machine starts the workers."""
    end = time.monotonic() + scaled(wait)
    while time.monotonic() < end:
        try:
            workers = [k for k in kids if k.ppid() != pid]
            if workers and all(k.num_threads() >= 2 for k in workers):
                return
        except psutil.Error:
            pass
        time.sleep(0.05)
    raise AssertionError("the workers did not start watching their parent")


@contextlib.contextmanager
def _hard_search(tmp_path, **pipes) -> Iterator[tuple[subprocess.Popen, list]]:
    """A long hard search on two workers (``generate`` as a user runs it) and
    its workers once they run; whatever the test leaves running is killed."""
    # far more grids than the run makes before the test stops it
    cmd = [sys.executable, "-m", "grader", "generate", "--level", "14", "-n", "2000",
           "-j", "2", "-q", "--seed", "3", "--timeout", "120", "-o", str(tmp_path / "g.txt")]
    parent = subprocess.Popen(cmd, **pipes)
    kids: list = []
    try:
        kids = _children(parent.pid, 2)
        _wait_until_watched(parent.pid, kids)
        yield parent, kids
    finally:
        if parent.poll() is None:
            parent.kill()
        for k in kids:
            if k.is_running():
                k.kill()


def test_generate_workers_end_when_the_command_is_killed(tmp_path) -> None:
    # The parent is killed with SIGKILL, which it cannot catch: the workers
    # notice and end within seconds.
    with _hard_search(tmp_path, stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL) as (parent, kids):
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=scaled(10))
        gone, alive = psutil.wait_procs(kids, timeout=scaled(10))
        assert not alive, f"workers still running after their parent was killed: {alive}"


def test_generate_stopped_with_sigterm_says_interrupted(tmp_path) -> None:
    # SIGTERM (kill, a scheduler's stop) is Ctrl-C: the run says so, exits
    # 130, and neither a traceback nor a leaked-semaphore warning is printed;
    # the workers end with it.
    with _hard_search(tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                      text=True) as (parent, kids):
        parent.send_signal(signal.SIGTERM)
        _, stderr = parent.communicate(timeout=scaled(30))
        assert parent.returncode == 130, stderr
        assert "interrupted" in stderr
        assert "Traceback" not in stderr and "leaked" not in stderr, stderr
        gone, alive = psutil.wait_procs(kids, timeout=scaled(10))
        assert not alive
