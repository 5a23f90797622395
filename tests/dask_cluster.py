"""A real Dask cluster on the loopback for the tests: ``dask scheduler`` and
``dask worker`` processes, started with the ``dask`` extra's own command.

Every wait is on a line the process prints (the scheduler's address, a
worker's registration) or on the output a run writes, and every wait is
bounded; each process runs in a session of its own, so that stopping it
stops its children too (a worker's nanny and the worker it started).
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import subprocess
import sys
import sysconfig
import threading
import time
from collections.abc import Callable
from pathlib import Path

from conftest import scaled

#: The longest a process is waited for before the test fails (a loaded CI
#: machine starts a Dask process in a few seconds; this is far beyond it).
START_TIMEOUT = 90.0


def dask_command() -> list[str]:
    """The ``dask`` console script of this environment."""
    script = Path(sysconfig.get_path("scripts")) / "dask"
    if not script.exists():
        script = Path(sys.executable).parent / "dask"
    return [str(script)]


class Process:
    """A Dask process and the lines it prints, read as they come."""

    def __init__(self, name: str, args: list[str], cwd: Path) -> None:
        self.name = name
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"}
        self.proc = subprocess.Popen(args, cwd=cwd, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, env=env, start_new_session=True)
        self.lines: list[str] = []
        self.address = ""  # a worker's own, once started
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, name=f"read-{name}", daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def wait_for(self, pattern: str, timeout: float = START_TIMEOUT) -> re.Match[str]:
        """The first line (from now on) that matches ``pattern``."""
        deadline = time.monotonic() + timeout
        rx = re.compile(pattern)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: no line matching {pattern!r} within "
                                     f"{timeout:g} s:\n" + "\n".join(self.lines[-30:]))
            try:
                line = self._queue.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"{self.name} ended (exit {self.proc.wait()}) before "
                                     f"printing {pattern!r}:\n" + "\n".join(self.lines[-30:]))
            self.lines.append(line)
            m = rx.search(line)
            if m:
                return m

    def signal(self, sig: int) -> None:
        """Send ``sig`` to the process and everything it started."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, sig)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=scaled(30))


class Cluster:
    """A scheduler and its workers on 127.0.0.1 (free ports, loopback only)."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        self.scheduler: Process | None = None
        self.workers: list[Process] = []
        self.address = ""

    def start(self, workers: int = 2) -> Cluster:
        self.scheduler = Process("dask scheduler", [
            *dask_command(), "scheduler", "--host", "127.0.0.1", "--port", "0",
            "--dashboard-address", "127.0.0.1:0"], self.workdir)
        self.address = self.scheduler.wait_for(r"Scheduler at:\s+(tcp://127\.0\.0\.1:\d+)")[1]
        for i in range(workers):
            self.add_worker(f"w{i + 1}")
        for w in self.workers:
            w.address = w.wait_for(r"Start worker at:\s+(tcp://\S+)")[1]
            w.wait_for(r"Registered to:")
        return self

    def held_by(self, worker: Process) -> int:
        """How many tasks ``worker`` is computing or holds the results of (asked
        of the scheduler by a client of the test's own)."""
        from distributed import Client

        with Client(self.address, timeout=START_TIMEOUT, set_as_default=False) as client:
            processing = client.processing(workers=[worker.address]).get(worker.address, ())
            held = client.has_what(workers=[worker.address]).get(worker.address, ())
        return len(processing) + len(held)

    def add_worker(self, name: str) -> Process:
        local = self.workdir / name
        local.mkdir(exist_ok=True)
        w = Process(f"dask worker {name}", [
            *dask_command(), "worker", self.address, "--host", "127.0.0.1", "--name", name,
            "--nthreads", "1", "--nworkers", "1", "--dashboard-address", "127.0.0.1:0",
            "--local-directory", str(local), "--death-timeout", "60"], self.workdir)
        self.workers.append(w)
        return w

    def stop(self) -> None:
        for p in [*self.workers, *([self.scheduler] if self.scheduler else [])]:
            p.kill()


def wait_until(check: Callable[[], bool], what: str, timeout: float = START_TIMEOUT,
               alive: subprocess.Popen[str] | None = None) -> None:
    """Until ``check()``; fails after ``timeout`` or when ``alive`` ends first."""
    deadline = time.monotonic() + timeout
    while not check():
        if alive is not None and alive.poll() is not None:
            raise AssertionError(f"the run ended (exit {alive.returncode}) before {what}")
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {what}")
        time.sleep(0.02)


def count_lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0
