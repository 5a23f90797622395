"""Issue 30: fault injection in bulk runs.  ``grade -j 2 -o FILE`` is hit at a
random moment by SIGTERM, SIGINT, SIGHUP or SIGKILL -- the whole process
group (a scheduler, ``timeout``), the command alone, one worker, or every
worker -- then resumed; the output must equal a clean run's: the same
results, every grid exactly once, no traceback, no "internal error".

A gate (tests/bulk_helpers.gate_setup) holds one grid back until the test
opens it, so each signal lands while the run is going, after a chosen
number of lines (never timing luck).  By default 2 runs per signal; with
``--runslow`` 20 per signal (80 runs).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from bulk_helpers import (
    PUZZLES,
    complete_lines,
    first_grids,
    gate_grid,
    gate_setup,
    grade,
    jsonl,
    wait_for_lines,
    without_seconds,
)
from conftest import scaled

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists() or os.name != "posix",
                                reason="needs POSIX process groups and /proc")

SIGNALS = {"SIGTERM": signal.SIGTERM, "SIGINT": signal.SIGINT, "SIGHUP": signal.SIGHUP,
           "SIGKILL": signal.SIGKILL}
TARGETS = ("group", "command", "worker", "workers", "group-twice")
GRIDS = 120
FAST_RUNS, SLOW_RUNS = 2, 20


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The input, the gate, the hierarchy and the clean run's results."""
    d = tmp_path_factory.mktemp("faults")
    src = first_grids(PUZZLES / "se-medium-500.txt", GRIDS, d / "grids.txt")
    h, env = gate_setup(d / "site")
    at, env["GATE_GRID"] = gate_grid(src, GRIDS // 2)
    env["GATE_FILE"] = str(d / "open")
    (d / "open").touch()
    clean = d / "clean.jsonl"
    p = grade(str(src), "-o", str(clean), "-j", "2", "--hierarchy", str(h), env=env)
    assert p.returncode == 0, p.stderr
    return {"src": src, "h": h, "env": env, "at": at,
            "clean": without_seconds(jsonl(clean.read_text()))}


def _group(pgid: int) -> list[tuple[int, int]]:
    """(pid, parent pid) of every process of the group ``pgid``, from /proc."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # after "pid (name) "
        if fields[0] != "Z" and int(fields[2]) == pgid:
            out.append((int(entry), int(fields[1])))
    return out


def _workers(pid: int) -> list[int]:
    """The worker processes of the run ``pid``: children of its fork server
    (the fork server and the resource tracker are the command's children)."""
    return [p for p, parent in _group(pid) if p != pid and parent != pid]


def _signal(proc: subprocess.Popen[str], target: str, sig: int, rnd: random.Random) -> None:
    if target.startswith("group"):
        os.killpg(proc.pid, sig)
        if target == "group-twice":  # timeout(1) signals the command, then its group
            os.killpg(proc.pid, sig)
    elif target == "command":
        proc.send_signal(sig)
    else:
        workers = _workers(proc.pid)
        assert workers, "the run has no worker"
        for w in workers if target == "workers" else [rnd.choice(workers)]:
            with contextlib.suppress(ProcessLookupError):  # it was just replaced
                os.kill(w, sig)


def _one_run(setup: dict, tmp_path: Path, name: str, k: int) -> None:
    sig = SIGNALS[name]
    rnd = random.Random(f"{name}-{k}")
    target = TARGETS[(k * len(SIGNALS) + list(SIGNALS).index(name)) % len(TARGETS)]
    lines = rnd.randrange(0, setup["at"] - 1)  # the gate holds the run back after these
    env = dict(setup["env"], GATE_FILE=str(tmp_path / f"gate-{k}"))
    out = tmp_path / f"r-{k}.jsonl"
    args = [str(setup["src"]), "-o", str(out), "-j", "2", "-q", "--hierarchy", str(setup["h"])]
    proc = subprocess.Popen([sys.executable, "-m", "grader", "grade", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, NO_COLOR="1", **env), start_new_session=True)
    try:
        wait_for_lines(out, max(1, lines), proc)
        _signal(proc, target, sig, rnd)
        if target.startswith("worker"):
            (tmp_path / f"gate-{k}").touch()  # the run goes on to the end
        _, stderr = proc.communicate(timeout=scaled(120))
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    what = f"{name} to the {target} after {lines} lines"
    assert "Traceback" not in stderr and "internal error" not in stderr, (what, stderr)
    if target.startswith("worker"):
        assert proc.returncode == 0, (what, stderr)
    else:
        assert proc.returncode in (130, -sig), (what, proc.returncode, stderr)
        written = [json.loads(ln) for ln in complete_lines(out)]
        assert all(r["verdict"] == "ok" for r in written), (what, written)
        assert [r["index"] for r in written] == list(range(1, len(written) + 1)), what
        (tmp_path / f"gate-{k}").touch()
        p = grade(*args, "--resume", env=env)
        assert p.returncode == 0, (what, p.stderr)
    rows = jsonl(out.read_text())
    assert [r["index"] for r in rows] == list(range(1, GRIDS + 1)), what  # each grid once
    assert without_seconds(rows) == setup["clean"], what


@pytest.mark.parametrize("name", list(SIGNALS))
@pytest.mark.parametrize("k", range(FAST_RUNS))
def test_a_signal_at_a_random_moment_then_resume_equals_a_clean_run(
        setup: dict, tmp_path: Path, name: str, k: int) -> None:
    _one_run(setup, tmp_path, name, k)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SIGNALS))
@pytest.mark.parametrize("k", range(FAST_RUNS, SLOW_RUNS))
def test_more_signals_at_random_moments(setup: dict, tmp_path: Path, name: str, k: int) -> None:
    """With the default run's, 20 runs per signal: 80 in all."""
    _one_run(setup, tmp_path, name, k)
