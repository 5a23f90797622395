"""Issue 30: faults that lost or corrupted results.  Each numbered case of the
issue, then others of the same kind.  Library functions in process; the
command line in a subprocess where exit codes, signals, encodings or the
environment are the point.  Fault injection over whole runs is in
tests/test_fault_injection.py, the properties in test_hostile_properties.py."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from bulk_helpers import GateJob, grade, jsonl, run_grade, without_seconds
from conftest import PUZZLES, scaled

from grader.bulk.processes import ProcessPool

GOOD = [ln.split()[0] for ln in (PUZZLES / "se-easy-500.txt").read_text().splitlines()
        if ln.strip()]
G = GOOD[0]


def cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120,
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m grader ARGS`` as a user runs it (no terminal)."""
    e = dict(os.environ, COLUMNS="120", NO_COLOR="1")
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True,
                          text=True, timeout=scaled(timeout), env=e, cwd=cwd,
                          stdin=subprocess.DEVNULL, errors="replace")


def clean_exit(p: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr, p.stderr


@pytest.fixture
def five(tmp_path: Path) -> Path:
    f = tmp_path / "five.txt"
    f.write_text("\n".join(GOOD[:5]) + "\n")
    return f


# -- 1: a worker stopped from outside is no grid's failure -----------------------------


def _pool(tmp_path: Path) -> tuple[ProcessPool, Path]:
    gate = tmp_path / "gate"
    return ProcessPool(GateJob(str(gate)), 1), gate


def _answers(pool: ProcessPool, n: int) -> list:
    got: list = []
    deadline = time.monotonic() + scaled(60)
    while len(got) < n and time.monotonic() < deadline:
        got += pool.wait(block=True)
    return got


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL, signal.SIGUSR1])
def test_1_a_worker_killed_once_is_replaced_and_its_grids_graded_again(
        tmp_path: Path, sig: int) -> None:
    pool, gate = _pool(tmp_path)
    try:
        for n, what in [(1, "wait"), (2, "go"), (3, "go")]:
            pool.submit((n, what))
        assert pool.wait(block=False) == []  # sent; the first task waits at the gate
        os.kill(pool.workers[0].proc.pid, sig)
        assert pool.wait(block=True) == []  # the death: nothing answered for it
        gate.touch()
        assert sorted(_answers(pool, 3)) == [1, 2, 3]
        assert pool.replaced == 1
    finally:
        pool.close(kill=True)


def test_1_a_grid_that_kills_its_worker_alone_is_an_error(tmp_path: Path) -> None:
    pool, gate = _pool(tmp_path)
    gate.touch()
    try:
        for task in [(1, "go"), (2, "crash"), (3, "go")]:
            pool.submit(task)
        got = _answers(pool, 3)
        failed = [a for a in got if isinstance(a, tuple)]
        assert sorted(a for a in got if isinstance(a, int)) == [1, 3]
        assert failed == [("failed", 2, "error", "the worker process died (exit 3) on this grid")]
    finally:
        pool.close(kill=True)


def test_1_once_stopping_a_dead_worker_is_neither_replaced_nor_answered(tmp_path: Path) -> None:
    pool, _ = _pool(tmp_path)
    try:
        pool.submit((1, "wait"))
        pool.wait(block=False)
        pool.interrupt()
        os.kill(pool.workers[0].proc.pid, signal.SIGTERM)
        pool.workers[0].proc.join(10)
        assert pool.wait(block=True) == [] and pool.outstanding() == 0
        assert pool.replaced == 0
    finally:
        pool.close(kill=True)


def test_1_stop_signals_are_one_interrupt_held_while_a_result_is_written() -> None:
    from grader.bulk.interrupts import atomic, stop_signals_as_interrupt, stopping

    old = signal.getsignal(signal.SIGHUP)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under nohup: left alone
    try:
        with stop_signals_as_interrupt():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            steps = []
            with pytest.raises(KeyboardInterrupt), atomic():
                os.kill(os.getpid(), signal.SIGTERM)
                steps.append("after the signal")  # the block runs whole
            assert steps == ["after the signal"] and stopping()
            os.kill(os.getpid(), signal.SIGTERM)  # a second signal is absorbed
            os.kill(os.getpid(), signal.SIGINT)
        assert not stopping()
    finally:
        signal.signal(signal.SIGHUP, old)


def test_1_timeout_on_the_process_group_writes_no_error_and_resume_completes(
        tmp_path: Path) -> None:
    """The issue's reproduction: timeout(1) signals the command, then its group."""
    from bulk_helpers import complete_lines, gate_grid, gate_setup, wait_for_lines

    src = tmp_path / "m.txt"
    src.write_text((PUZZLES / "se-medium-500.txt").read_text())
    h, env = gate_setup(tmp_path / "site")
    _, env["GATE_GRID"] = gate_grid(src, 50)
    env["GATE_FILE"] = str(tmp_path / "gate")
    out = tmp_path / "t.jsonl"
    cmd = ["timeout", "600", sys.executable, "-m", "grader", "grade", str(src), "-j", "2",
           "-q", "-o", str(out), "--hierarchy", str(h)]
    proc = subprocess.Popen(cmd, env=dict(os.environ, **env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    wait_for_lines(out, 20, proc)
    os.kill(proc.pid, signal.SIGTERM)  # timeout passes it on to the command, then the group
    _, stderr = proc.communicate(timeout=scaled(60))
    assert "Traceback" not in stderr
    written = [json.loads(ln) for ln in complete_lines(out)]
    assert written and all(r["verdict"] == "ok" for r in written)
    (tmp_path / "gate").touch()
    p = grade(str(src), "-j", "2", "-q", "-o", str(out), "--resume", "--hierarchy", str(h),
              env=env)
    assert p.returncode == 0, p.stderr
    assert [r["index"] for r in jsonl(out.read_text())] == list(range(1, 501))


def test_1_resume_grades_again_what_an_older_version_wrote_as_a_stopped_worker(
        tmp_path: Path) -> None:
    """The issue's second half: --resume kept the 'error' lines that a group
    signal made; they are dropped and their grids graded again."""
    src = tmp_path / "in.txt"
    src.write_text("\n".join(GOOD[:30]) + "\n")
    out = tmp_path / "r.jsonl"
    assert run_grade(src, output=out, jobs=1).returncode == 0
    clean = jsonl(out.read_text())
    cut = [dict(r) for r in clean[:20]]
    for k, how in ((5, "exit 255"), (19, "signal 15")):
        cut[k].update(verdict="error", level=None, rating=None,
                      message=f"the worker process died ({how}) on this grid")
    cut[8].update(verdict="error", message="the worker process died (signal 11) on this grid")
    out.write_text("".join(json.dumps(r) + "\n" for r in cut))
    p = run_grade(src, output=out, jobs=1, resume=True)
    assert "dropped 2 grid(s) written as failed because their worker was stopped" in p.stderr
    rows = sorted(jsonl(out.read_text()), key=lambda r: r["index"])
    assert [r["index"] for r in rows] == list(range(1, 31))
    assert rows[8]["verdict"] == "error"  # a crash is the grid's own result: kept
    assert without_seconds(rows[:8] + rows[9:]) == without_seconds(clean[:8] + clean[9:])


# -- 2: resume refuses a damaged output, or repairs it without losing anything ----------


@pytest.fixture
def done(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    """An input of 40 grids and the output of a run cut after 30."""
    src = tmp_path / "in.txt"
    src.write_text("\n".join(GOOD[:40]) + "\n")
    out = tmp_path / "r.jsonl"
    assert run_grade(src, output=out, jobs=1).returncode == 0
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:30]))
    return src, out, lines


def _resume(src: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return run_grade(src, output=out, jobs=1, resume=True)


def test_2_a_line_written_twice_is_dropped_and_each_grid_is_there_once(done) -> None:
    src, out, lines = done
    out.write_text("".join(lines[:20] + lines[19:30]))  # line 20 twice
    p = _resume(src, out)
    assert p.returncode == 0, p.stderr
    assert "dropped 1 line(s) that repeated an earlier line exactly (line 21)" in p.stderr
    rows = jsonl(out.read_text())
    assert [r["index"] for r in rows] == list(range(1, 41))
    assert without_seconds(rows[:30]) == without_seconds(jsonl("".join(lines[:30])))


def test_2_one_grid_twice_with_different_results_is_refused(done) -> None:
    src, out, lines = done
    other = json.loads(lines[19])
    other["seconds"] += 1
    out.write_text("".join(lines[:20]) + json.dumps(other) + "\n" + "".join(lines[20:30]))
    before = out.read_text()
    p = _resume(src, out)
    assert p.returncode == 2
    assert "r.jsonl:21: grid 20 is written twice, with different results (lines 20 and 21)" \
        in p.stderr
    assert out.read_text() == before  # nothing lost, nothing added


@pytest.mark.parametrize(("damage", "message"), [
    (lambda ls: ls[:10] + ls[11:30], "r.jsonl:11: grid 11 is missing (line 11 holds grid 12)"),
    (lambda ls: [ls[1], ls[0], *ls[3:30]], "grid 3 is missing"),
    (lambda ls: ls[:30] + ['{"index": 999, "puzzle": "x"}\n'], "grid 31 is missing"),
    (lambda ls: ls[:15] + ["not json\n"] + ls[15:30], "r.jsonl:16: not valid JSON"),
    (lambda ls: ls[:15] + ['{"index": 0, "puzzle": "x"}\n'], "grid index 0"),
    (lambda ls: ls[:15] + [ls[15][:40] + "\n"] + ls[16:30], "r.jsonl:16: not valid JSON"),
])
def test_2_a_damaged_output_is_refused_naming_file_and_line(done, damage, message) -> None:
    src, out, lines = done
    out.write_text("".join(damage(lines)))
    before = out.read_text()
    p = _resume(src, out)
    assert p.returncode == 2 and message in p.stderr, p.stderr
    assert p.stderr.count("\n") == 1 and out.read_text() == before


def test_2_a_grid_beyond_the_input_is_refused_when_the_input_ends(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("\n".join(GOOD[:10]) + "\n")
    out = tmp_path / "w.jsonl"
    run_grade(src, output=out, jobs=1, where="level >= 1")
    lines = out.read_text().splitlines(keepends=True)
    extra = json.loads(lines[3])
    extra["index"] = 99
    out.write_text("".join(lines[:5]) + json.dumps(extra) + "\n")
    p = run_grade(src, output=out, jobs=1, where="level >= 1", resume=True)
    assert p.returncode == 2
    assert "w.jsonl:6: grid 99 is not in the input (it has 10 grids)" in p.stderr


def test_2_lines_in_another_order_are_kept(done) -> None:
    src, out, lines = done
    out.write_text("".join(reversed(lines[:30])))
    p = _resume(src, out)
    assert p.returncode == 0, p.stderr
    assert sorted(r["index"] for r in jsonl(out.read_text())) == list(range(1, 41))


@pytest.mark.parametrize("meta", ["{broken", "[]", '{"settings": 3}', "\xff"])
def test_2_a_broken_meta_is_refused(done, meta: str) -> None:
    src, out, _ = done
    Path(str(out) + ".meta.json").write_text(meta, encoding="latin-1")
    p = _resume(src, out)
    assert p.returncode == 2 and "r.jsonl.meta.json" in p.stderr and "--overwrite" in p.stderr


def test_2_a_csv_row_cut_in_the_middle_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("\n".join(GOOD[:10]) + "\n")
    out = tmp_path / "r.csv"
    run_grade(src, output=out, jobs=1)
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:4]) + lines[4][:30] + "\n" + "".join(lines[5:8]))
    p = run_grade(src, output=out, jobs=1, resume=True)
    assert p.returncode == 2 and "r.csv:5: not a row of grade's CSV output" in p.stderr


def test_2_a_sorted_output_cut_to_top_is_finished(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("\n".join(GOOD[:30]) + "\n")
    out = tmp_path / "s.jsonl"
    assert run_grade(src, output=out, jobs=1, sort="score", top=5).returncode == 0
    before = out.read_text()
    p = run_grade(src, output=out, jobs=1, sort="score", top=5, resume=True)
    assert p.returncode == 0 and out.read_text() == before


# -- 3: outputs that are not regular files --------------------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    f = tmp_path / "pipe.jsonl"
    os.mkfifo(f)
    return f


def test_3_grade_refuses_an_output_that_is_a_named_pipe(five: Path, fifo: Path) -> None:
    for extra in ([], ["--resume"]):
        p = cli("grade", str(five), "-o", str(fifo), *extra, timeout=30)
        assert p.returncode == 2 and "is a named pipe, not a regular file" in p.stderr
        clean_exit(p)


def test_3_the_output_lock_refuses_a_named_pipe(fifo: Path) -> None:
    from grader.formats.files import OutputError, OutputLock

    with pytest.raises(OutputError, match="named pipe"):
        OutputLock(fifo).acquire()


@pytest.mark.parametrize("args", [
    ("explain", G, "-o", "{fifo}"), ("solve", G, "-o", "{fifo}"),
    ("generate", "-n", "1", "--seed", "1", "-q", "-o", "{fifo}"),
])
def test_3_a_named_pipe_no_program_reads_ends_at_once(fifo: Path, args: tuple[str, ...]) -> None:
    p = cli(*(a.format(fifo=fifo) for a in args), timeout=30)
    assert p.returncode == 2 and "cannot write: no program reads this named pipe" in p.stderr
    clean_exit(p)


def test_3_a_named_pipe_that_is_read_is_written(fifo: Path) -> None:
    from grader.formats.files import write_output

    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    deadline = time.monotonic() + scaled(10)
    while True:  # until the reader has opened its end
        try:
            write_output(fifo, "hello\n")
            break
        except OSError:
            assert time.monotonic() < deadline
            time.sleep(0.01)
    reader.join(10)
    assert got == ["hello\n"]


# -- 4: numbers: infinite, huge, not a number -------------------------------------------


@pytest.mark.parametrize("args", [
    ("--time-limit", "inf"), ("--time-limit", "1e308", "-j", "2"), ("--timeout", "1e300"),
    ("--time-limit", "1e9", "-j", "2"),
])
def test_4_an_infinite_or_huge_time_limit_is_no_limit(five: Path, args: tuple[str, ...]) -> None:
    p = cli("grade", str(five), "-f", "jsonl", *args)
    assert p.returncode == 0, p.stderr
    clean_exit(p)
    assert [r["verdict"] for r in jsonl(p.stdout)] == ["ok"] * 5


@pytest.mark.parametrize(("args", "message"), [
    (("solve", G, "--count", "--limit", "99999999999999999999999"),
     "--limit 99999999999999999999999: at most 100,000,000 solutions"),
    (("pair", "solve", "-", "--limit", "99999999999999999999999"), "at most 100,000,000"),
    (("generate", "-n", "99999999999999999999999", "--seed", "1"),
     "--number 99999999999999999999999: at most 1,000,000 grids a run"),
])
def test_4_a_count_beyond_reach_is_refused_in_one_line(args: tuple[str, ...],
                                                       message: str) -> None:
    p = cli(*args, timeout=30)
    assert p.returncode == 2 and message in p.stderr, p.stderr
    clean_exit(p)


@pytest.mark.parametrize("args", [
    ("grade", "{five}", "--time-limit", "nan"), ("solve", G, "--time-limit", "nan"),
    ("generate", "-n", "1", "--timeout", "nan"), ("grade", "{five}", "--time-limit", "-inf"),
])
def test_4_not_a_number_is_a_usage_error(five: Path, args: tuple[str, ...]) -> None:
    p = cli(*(a.format(five=five) for a in args), timeout=30)
    assert p.returncode == 2
    clean_exit(p)


def test_4_numbers_as_the_commands_use_them() -> None:
    import math

    from grader.bulk.options import GradeOptions, GradeUsageError, normalized

    assert normalized(GradeOptions(time_limit=math.inf)).time_limit is None
    assert normalized(GradeOptions(time_limit=1e300)).time_limit is None
    assert normalized(GradeOptions(time_limit=2.5)).time_limit == 2.5
    for bad in (math.nan, 0.0, -1.0):
        with pytest.raises(GradeUsageError, match="--time-limit"):
            normalized(GradeOptions(time_limit=bad))


def test_4_generate_past_its_timeout_stops_without_sending_every_task() -> None:
    t0 = time.monotonic()
    p = cli("generate", "-n", "1000000", "-s", "4", "--seed", "1", "-q", "--timeout", "1",
            "-j", "2", timeout=60)
    assert p.returncode == 1 and "not made" in p.stderr
    assert time.monotonic() - t0 < scaled(30)


# -- 5: encodings and the environment ---------------------------------------------------


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("args", [("grade", "{five}", "-j1"), ("explain", G),
                                  ("grade", "{five}", "-j1", "-o", "{out}")])
def test_5_any_output_encoding(tmp_path: Path, five: Path, encoding: str,
                               args: tuple[str, ...]) -> None:
    out = tmp_path / "x.jsonl"
    p = cli(*(a.format(five=five, out=out) for a in args), env={"PYTHONIOENCODING": encoding})
    assert p.returncode == 0, p.stderr
    clean_exit(p)
    if "-o" in args:
        assert len(jsonl(out.read_text())) == 5
    else:
        assert p.stdout.strip()
        if "explain" in args:
            assert "+---" in p.stdout or "+-" in p.stdout  # box drawing in ASCII


def test_5_a_character_the_encoding_lacks_is_replaced_not_fatal() -> None:
    import codecs

    from grader.core.textsafe import ERROR_HANDLER

    text = "┏━┯┓ ·→é✓ \udcff"
    assert codecs.encode(text, "ascii", ERROR_HANDLER) == b"+-++ .->ev \\xff"


@pytest.mark.parametrize(("value", "on"), [("1", True), ("true", True), ("YES", True),
                                           (" on ", True), ("0", False), ("", False),
                                           ("false", False), ("no", False), ("off", False),
                                           ("2", False)])
def test_5_on_off_environment_variables(monkeypatch: pytest.MonkeyPatch, value: str,
                                        on: bool) -> None:
    from grader.about import accelerator_disabled
    from grader.core.textsafe import env_flag

    monkeypatch.setenv("SUDOKU_GRADER_DEBUG", value)
    monkeypatch.setenv("SUDOKU_GRADER_PURE", value)
    assert env_flag("SUDOKU_GRADER_DEBUG") is on
    assert accelerator_disabled() is on


def test_5_debug_0_is_one_line_not_a_traceback(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from grader.cli.guard import guarded

    def boom() -> None:
        raise ZeroDivisionError("boom")

    monkeypatch.setenv("SUDOKU_GRADER_DEBUG", "0")
    with pytest.raises(SystemExit) as e:
        guarded("grade", boom)
    assert e.value.code == 2
    assert "internal error: ZeroDivisionError: boom" in capsys.readouterr().err
    monkeypatch.setenv("SUDOKU_GRADER_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        guarded("grade", boom)


@pytest.mark.parametrize("columns", ["0", "1", "5", "999999999", "abc", "-3"])
def test_5_any_columns_shows_the_table(five: Path, columns: str) -> None:
    p = cli("grade", str(five), env={"COLUMNS": columns})
    assert p.returncode == 0
    assert p.stdout.count("very easy") >= 5  # the five rows, whatever COLUMNS says


# -- 6: plugins: loaded only when used, a bad one named ---------------------------------

BAD_PLUGINS = {
    # an import that never ends (until the test says so: no core is kept busy)
    "waitplug": "import os, time\nwhile not os.path.exists(os.environ.get('PLUG_STOP', '/')):\n"
                "    time.sleep(0.01)\n",
    "exitplug": "import sys\nsys.exit(3)\n",
    "intplug": "raise KeyboardInterrupt\n",
}
HOOKS = '''
import sys
from grader.core.rule import Rule


class InitBoom(Rule):
    family = "t30-init"

    def __init__(self, spec, context=None):
        raise RuntimeError("init boom")


class FindExit(Rule):
    family = "t30-exit"

    def find(self, board):
        sys.exit(7)


class SumBoom(Rule):
    family = "t30-sum"

    def find(self, board):
        yield from ()

    @staticmethod
    def summarize(step):
        raise ValueError("summary boom")
'''


def _install(site: Path, module: str, source: str, eps: dict[str, str]) -> None:
    (site / f"{module}.py").write_text(source)
    info = site / f"{module}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n")
    lines = "".join(f"{k} = {v}\n" for k, v in eps.items())
    (info / "entry_points.txt").write_text(f"[sudoku_grader.rules]\n{lines}")


@pytest.fixture
def bad_site(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    site = tmp_path / "site"
    site.mkdir()
    for name, source in BAD_PLUGINS.items():
        _install(site, name, source, {name: f"{name}:Rule"})
    _install(site, "t30hooks", HOOKS, {"initboom": "t30hooks:InitBoom",
                                       "findexit": "t30hooks:FindExit"})
    return site, {"PYTHONPATH": str(site) + os.pathsep + os.environ.get("PYTHONPATH", ""),
                  "PLUG_STOP": str(tmp_path / "stop")}


def test_6_plugins_the_hierarchy_does_not_use_are_not_even_imported(
        bad_site: tuple[Path, dict[str, str]], five: Path) -> None:
    _, env = bad_site
    for args in (("grade", str(five), "-q"), ("explain", G, "-q")):
        t0 = time.monotonic()
        p = cli(*args, env=env, timeout=60)
        assert p.returncode == 0, p.stderr
        assert time.monotonic() - t0 < scaled(8)  # the endless import is never started
        clean_exit(p)


@pytest.mark.parametrize(("plugin", "message"), [
    ("exitplug", "rule plugin 'exitplug' (exitplug:Rule) failed to load: SystemExit: 3"),
    ("intplug", "failed to load: KeyboardInterrupt"),
    ("initboom", "rule 'x' (package t30hooks) failed in __init__(): RuntimeError: init boom"),
])
def test_6_a_plugin_the_hierarchy_uses_that_breaks_is_named(
        bad_site: tuple[Path, dict[str, str]], tmp_path: Path, five: Path, plugin: str,
        message: str) -> None:
    _, env = bad_site
    h = tmp_path / "h.toml"
    h.write_text(f'extends = "default"\n[[rules]]\ncode = "x"\nlevel = 2\nplugin = "{plugin}"\n')
    for args in (("grade", str(five)), ("explain", G)):
        p = cli(*args, "--hierarchy", str(h), env=env, timeout=60)
        assert p.returncode in (1, 2) and message in p.stderr, p.stderr
        assert p.stderr.strip().count("\n") == 0
        clean_exit(p)


def test_6_a_plugin_calling_sys_exit_in_find_is_a_rule_error(
        bad_site: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    _, env = bad_site
    h = tmp_path / "h.toml"
    h.write_text('extends = "default"\n[[rules]]\ncode = "fx"\nbefore = "single-position"\n'
                 'plugin = "findexit"\n')
    p = cli("grade", G, "-f", "jsonl", "-j", "1", "--hierarchy", str(h), env=env)
    assert p.returncode == 1, p.stderr
    row = jsonl(p.stdout)[0]
    assert row["verdict"] == "rule-error" and "failed in find(): SystemExit: 7" in row["message"]


def test_6_listing_every_plugin_survives_broken_ones(
        bad_site: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    from grader.strategy import plugins

    site, env = bad_site
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PLUG_STOP", env["PLUG_STOP"])
    monkeypatch.setattr(plugins, "LOAD_SECONDS", 0.5)
    try:
        plugins.reset()
        found = plugins.discover()
        assert "single-position" in found.rules
        assert "did not finish loading within 0.5 s" in found.broken["waitplug"]
        assert "SystemExit: 3" in found.broken["exitplug"]
        assert "KeyboardInterrupt" in found.broken["intplug"]
    finally:
        Path(env["PLUG_STOP"]).touch()  # the endless import ends
        monkeypatch.undo()
        for m in ("t30hooks", "exitplug", "intplug", "waitplug"):
            sys.modules.pop(m, None)
        plugins.reset()


def test_6_a_plugins_hooks_fail_as_rule_errors(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from grader.core.board import Board
    from grader.core.rule import RuleError
    from grader.strategy.hierarchy import RuleSpec

    (tmp_path / "t30direct.py").write_text(HOOKS.replace("t30-", "t30d-"))
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("t30direct")
    try:
        spec = RuleSpec(code="x", level=2)
        with pytest.raises(RuleError, match=r"'x'.*__init__\(\): RuntimeError: init boom"):
            mod.InitBoom(spec)
        board = Board.from_values(parse(G).geo, parse(G).values)
        with pytest.raises(RuleError, match=r"find\(\): SystemExit: 7"):
            list(mod.FindExit(spec).find(board))
        step = mod.SumBoom(spec).make(board, placements=[(0, 1)])
        with pytest.raises(RuleError, match=r"summarize\(\): ValueError: summary boom"):
            step.summary()  # the step speaks with its own rule's (failing) words
    finally:
        sys.modules.pop("t30direct", None)


def parse(text: str):
    from grader.formats import parse_grid_token

    return parse_grid_token(text)


def test_6_defining_a_rule_does_not_scan_the_installed_distributions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata

    from grader.core import rule

    calls: list[int] = []
    real = importlib.metadata.packages_distributions
    monkeypatch.setattr(importlib.metadata, "packages_distributions",
                        lambda: calls.append(1) or real())
    rule.distributions.cache_clear()
    try:
        cls = type("Outside", (rule.Rule,), {"__module__": "somepackage.rules",
                                             "family": "t30-outside"})
        assert calls == []  # defining it looks nothing up
        assert cls(rule_spec()).package == "somepackage" and calls == [1]  # naming it does
    finally:
        rule.distributions.cache_clear()


def rule_spec():
    from grader.strategy.hierarchy import RuleSpec

    return RuleSpec(code="o", level=2)


def test_6_a_plain_grade_does_not_scan_the_installed_distributions(five: Path) -> None:
    code = ("import importlib.metadata as m, sys\n"
            "m.packages_distributions = lambda: sys.exit('scanned')\n"
            "sys.argv = ['grade', sys.argv[1], '-q']\n"
            "from grader.cli.main import grade_main\n"
            "grade_main()\n")
    p = subprocess.run([sys.executable, "-c", code, str(five)], capture_output=True, text=True,
                       timeout=scaled(60))
    assert p.returncode == 0, p.stderr


# -- 7: CSV never starts a spreadsheet formula (OWASP) ----------------------------------

FORMULAS = ["=cmd|' /C calc'!A0", '=HYPERLINK("http://x","y")', "-cmd|calc!A0", "+SUM(1)",
            "@SUM(1)", "\tx", "'quoted"]


def _cells(text: str) -> list[str]:
    return [c for row in csv.reader(io.StringIO(text)) for c in row]


def _safe(cell: str) -> bool:
    try:
        float(cell)
        return True  # a number
    except ValueError:
        return not cell.startswith(("=", "+", "-", "@", "\t", "\r"))


def test_7_formulas_in_kept_columns_and_malformed_rows_are_marked_text(tmp_path: Path) -> None:
    f = tmp_path / "formula.csv"
    with f.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["puzzle", "=cmd", "note"])
        for i, cell in enumerate(FORMULAS):
            w.writerow([GOOD[i], cell, "-5"])
        w.writerow(["=HYPERLINK(1)", "x", "y"])
    t = tmp_path / "formula.txt"
    t.write_text("\n".join(["=cmd|calc!A0", "-cmd|calc!A0", "+x", "@x", G]) + "\n")
    for args in ((str(f), "-f", "csv", "--keep-columns"), (str(t), "-f", "csv")):
        p = cli("grade", *args)
        assert p.returncode == 1, p.stderr  # a malformed row
        cells = _cells(p.stdout)
        assert all(_safe(c) for c in cells), [c for c in cells if not _safe(c)]
    p = cli("grade", str(f), "-f", "csv", "--keep-columns")
    assert "'=cmd|' /C calc'!A0" in _cells(p.stdout) and "'=cmd" in _cells(p.stdout)
    assert "''quoted" in _cells(p.stdout) and "'-5" in _cells(p.stdout)


def test_7_numbers_stay_numbers_and_every_cell_round_trips() -> None:
    from grader.bulk.codec import Encoder, decode_csv_row

    enc = Encoder("csv", ["index", "puzzle", "score", "level", "note", "=x"])
    d = {"index": 3, "puzzle": "=1+1", "score": -1.5, "level": 2, "note": "'-a", "=x": "@y"}
    header, line = enc.header(), enc.encode(d)
    assert header == "index,puzzle,score,level,note,'=x\n"
    assert line == "3,'=1+1,-1.5,2,''-a,'@y\n"
    row = next(csv.DictReader(io.StringIO(header + line)))
    assert decode_csv_row(row) == d


def test_7_a_csv_output_with_formulas_resumes_to_the_same_file(tmp_path: Path) -> None:
    f = tmp_path / "formula.csv"
    f.write_text("puzzle,cmd\n" + "".join(f"{g},=A{i}\n" for i, g in enumerate(GOOD[:20]))
                 + "=bad,x\n")
    out = tmp_path / "r.csv"
    run_grade(f, output=out, jobs=1, keep_columns=True)
    clean = out.read_text().splitlines(keepends=True)
    out.write_text("".join(clean[:11]))
    p = run_grade(f, output=out, jobs=1, keep_columns=True, resume=True)
    assert p.returncode == 1, p.stderr
    # without seconds, schema and the kept column
    strip = [ln.rsplit(",", 3)[0] for ln in clean]
    assert [ln.rsplit(",", 3)[0] for ln in out.read_text().splitlines(keepends=True)] == strip


# -- 8: what reaches a terminal: control characters escaped, no markup ------------------


def test_8_escape_sequences_in_a_file_name_are_shown_not_sent(tmp_path: Path) -> None:
    name = "esc\x1b]0;PWNED\x07\x1b[2J.txt"
    (tmp_path / name).write_text("\n".join(GOOD[:3]) + "\n")
    for args, stream in (((name, "-o", "o.jsonl"), "stdout"), ((name,), "stdout"),
                         (("nope\x1b[2J.txt",), "stderr")):
        p = cli("grade", *args, cwd=tmp_path)
        text = getattr(p, stream)
        assert "\x1b" not in p.stdout + p.stderr and "\x07" not in p.stdout + p.stderr
        assert "\\x1b" in text, text
        clean_exit(p)
    p = cli("explain", "nope\x1b[2J.txt", cwd=tmp_path)
    assert p.returncode == 2 and "nope\\x1b[2J.txt" in p.stderr


def test_8_markup_in_a_file_name_or_a_rule_name_is_text(tmp_path: Path) -> None:
    (tmp_path / "[bold red]x.txt").write_text("\n".join(GOOD[:3]) + "\n")
    p = cli("grade", "[bold red]x.txt", cwd=tmp_path)
    assert p.returncode == 0 and "[bold red]x.txt:1" in p.stdout
    h = tmp_path / "h.toml"
    h.write_text('extends = "default"\n[[rules]]\ncode = "single-position"\n'
                 'name = "[/]\\u001b[2J[link=x]y"\nlevel = 1\n')
    for args in (("grade", G), ("grade", "[bold red]x.txt"), ("explain", G)):
        p = cli(*args, "--hierarchy", str(h), cwd=tmp_path)
        assert p.returncode == 0, p.stderr
        clean_exit(p)
        assert "[/]\\x1b[2J[link=x]y" in p.stdout and "\x1b" not in p.stdout


def test_8_the_safe_console_escapes_text_and_keeps_its_own_styles() -> None:
    from rich.text import Text

    from grader.core.terminal import SafeConsole

    buf = io.StringIO()
    console = SafeConsole(file=buf, force_terminal=True, color_system="standard", width=80)
    console.print(Text("a\x1b[2Jb\u202ec", style="bold"))
    out = buf.getvalue()
    assert "a\\x1b[2Jb\\u202ec" in out and "\x1b[1m" in out and "\x1b[2J" not in out


# -- 9: Markdown from names holding HTML ---------------------------------------------------


def test_9_markdown_escapes_html_in_names_of_a_hierarchy(tmp_path: Path) -> None:
    h = tmp_path / "h.toml"
    h.write_text('extends = "default"\n[[rules]]\ncode = "single-position"\n'
                 'name = "<img src=x onerror=alert(1)><script>alert(2)</script>"\nlevel = 1\n'
                 'reference = "<b>p. 1</b>"\n')
    for depth in ("short", "teach"):
        p = cli("explain", G, "-f", "markdown", "--detail", depth, "--hierarchy", str(h))
        assert p.returncode == 0, p.stderr
        assert not re.search(r"(?<!\\)<[A-Za-z/!?]", p.stdout)  # no tag a renderer would open
        assert "\\<img src=x onerror=alert(1)>\\<script>" in p.stdout
        assert "<-" in p.stdout or "=>" in p.stdout  # our own arrows stay


# -- 10: --jobs within the CPUs, the memory and the grids --------------------------------


def test_10_jobs_are_capped_and_said(monkeypatch: pytest.MonkeyPatch) -> None:
    from grader.bulk import capacity

    monkeypatch.setattr(capacity, "usable_cpus", lambda: 2)
    monkeypatch.setattr(capacity, "available_memory", lambda: 1 << 40)
    assert capacity.plan_jobs(32) == (2, "-j 32: 2 workers (2 CPUs available)")
    assert capacity.plan_jobs(0) == (2, None) and capacity.plan_jobs(2) == (2, None)
    assert capacity.plan_jobs(2, tasks=1) == (1, None)
    monkeypatch.setattr(capacity, "available_memory", lambda: 100 * 2**20)
    jobs, note = capacity.plan_jobs(2)
    assert jobs == 1 and note is not None and "memory for 1 worker" in note


def test_10_grade_and_generate_say_when_they_start_fewer_workers(five: Path,
                                                                 tmp_path: Path) -> None:
    from grader.bulk.capacity import usable_cpus

    many = str(usable_cpus() + 30)
    big = tmp_path / "big.txt"
    big.write_text("\n".join(GOOD[:200]) + "\n")
    p = cli("grade", str(big), "-j", many, "-f", "jsonl")
    assert p.returncode == 0 and f"note: -j {many}: {usable_cpus()} worker" in p.stderr
    assert len(jsonl(p.stdout)) == 200
    p = cli("grade", str(big), "-j", many, "-f", "jsonl", "-q")
    assert p.returncode == 0 and p.stderr == ""
    p = cli("generate", "-n", "2", "--seed", "1", "-j", many)
    assert p.returncode == 0 and f"generate: note: -j {many}:" in p.stderr



# -- others of the same kinds ---------------------------------------------------------------


def test_a_run_stopped_and_continued_gives_no_grid_a_timeout(tmp_path: Path) -> None:
    """Ctrl-Z or kill -STOP (a scheduler pausing a job), then -CONT: the time
    stopped is nobody's, even past --time-limit (grader.bulk.clock)."""
    from bulk_helpers import gate_grid, gate_setup, wait_for_lines

    src = tmp_path / "m.txt"
    src.write_text("\n".join(ln.split()[0] for ln in
                             (PUZZLES / "se-medium-500.txt").read_text().splitlines()[:60]))
    h, env = gate_setup(tmp_path / "site")
    at, env["GATE_GRID"] = gate_grid(src, 20)
    env["GATE_FILE"] = str(tmp_path / "gate")
    out = tmp_path / "r.jsonl"
    args = [str(src), "-j", "2", "-q", "-o", str(out), "--time-limit", "2", "--hierarchy",
            str(h)]
    proc = subprocess.Popen([sys.executable, "-m", "grader", "grade", *args],
                            env=dict(os.environ, **env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        wait_for_lines(out, at - 1, proc)  # the gated grid is in flight
        os.killpg(proc.pid, signal.SIGSTOP)
        time.sleep(3)  # stopped: longer than the time limit
        os.killpg(proc.pid, signal.SIGCONT)
        (tmp_path / "gate").touch()
        proc.communicate(timeout=scaled(120))
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 0
    assert {r["verdict"] for r in jsonl(out.read_text())} == {"ok"}


def test_a_meta_file_that_is_a_named_pipe_is_refused_not_waited_on(five: Path,
                                                                  tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    os.mkfifo(str(out) + ".meta.json")
    p = cli("grade", str(five), "-o", str(out), "-q", timeout=30)
    assert p.returncode == 2 and "r.jsonl.meta.json: is a named pipe" in p.stderr
    os.unlink(str(out) + ".meta.json")
    assert cli("grade", str(five), "-o", str(out), "-q", "--overwrite").returncode == 0
    os.unlink(str(out) + ".meta.json")
    os.mkfifo(str(out) + ".meta.json")
    p = cli("grade", str(five), "-o", str(out), "-q", "--resume", timeout=30)
    assert p.returncode == 2 and "is a named pipe" in p.stderr


def test_what_a_plugin_prints_never_mixes_with_the_results(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _install(site, "t30noisy", 'print("IMPORTED")\nfrom grader.core.rule import Rule\n'
             'class Noisy(Rule):\n    family = "t30-noisy"\n    def find(self, board):\n'
             '        print("FIND")\n        return iter(())\n', {"noisy": "t30noisy:Noisy"})
    h = tmp_path / "h.toml"
    h.write_text('extends = "default"\n[[rules]]\ncode = "noisy"\nlevel = 2\nplugin = "noisy"\n')
    src = tmp_path / "m.txt"
    src.write_text("\n".join(ln.split()[0] for ln in
                             (PUZZLES / "se-medium-500.txt").read_text().splitlines()[:20]))
    p = cli("grade", str(src), "-f", "jsonl", "-j", "2", "--hierarchy", str(h),
            env={"PYTHONPATH": str(site)})
    assert p.returncode == 0, p.stderr
    assert len(jsonl(p.stdout)) == 20 and "FIND" in p.stderr and "IMPORTED" in p.stderr


def test_names_of_a_hierarchy_in_the_rules_table_and_the_plot(five: Path,
                                                             tmp_path: Path) -> None:
    h = tmp_path / "h.toml"
    h.write_text('extends = "default"\nname = "[/]x $a^{2}$"\n[[rules]]\n'
                 'code = "single-position"\nname = "sp $\\\\frac{a}{b$ [/]"\nlevel = 1\n')
    for args in (("rules",), ("grade", "--list-rules")):
        p = cli(*args, "--hierarchy", str(h))
        assert p.returncode == 0 and "'[/]x $a^{2}$'" in p.stdout, p.stderr
    pytest.importorskip("matplotlib")
    p = cli("grade", str(five), "--hierarchy", str(h), "--plot", str(tmp_path / "p.png"), "-q")
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "p.png").stat().st_size > 0


def test_sighup_to_the_group_of_generate_is_a_clean_stop(tmp_path: Path) -> None:
    """The hard search shares counters through multiprocessing: its resource
    tracker, killed by SIGHUP and relaunched, printed a traceback."""
    out = tmp_path / "g.txt"
    cmd = [sys.executable, "-m", "grader", "generate", "--level", "14", "-n", "2000", "-j",
           "2", "-q", "--seed", "3", "-o", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + scaled(60)
        while not (out.exists() and out.read_text().count("\n") >= 1):  # it is making grids
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGHUP)
        _, stderr = proc.communicate(timeout=scaled(60))
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130 and "interrupted" in stderr
    assert "Traceback" not in stderr and "resource_tracker" not in stderr, stderr
