"""Issue 11: hostile input and faults -- no traceback, bounded time, nothing lost.

Each numbered case of the issue, reproduced as it was reported, then others of
the same kind.  Library functions are tested in process; the command line in
a subprocess only where exit codes, redirections or signals are the point."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bulk_helpers import grade, jsonl
from conftest import PUZZLES, scaled

from grader.bulk.pipeline import run
from grader.bulk.pool import InlinePool
from grader.bulk.resume import SETTING_LABELS, resume_settings
from grader.bulk.task import GradeConfig
from grader.bulk.where import Where, WhereError
from grader.exact.pairs import check_pair_order
from grader.formats import MAX_LINE_BYTES, InputError, iter_binary, iter_source, iter_text
from grader.formats.files import (
    OutputError,
    OutputLock,
    check_output_not_input,
    plot_path_problem,
    settings_differences,
    write_settings,
)
from grader.strategy.hierarchy import default_hierarchy

GOOD = [ln.split()[0] for ln in (PUZZLES / "se-easy-500.txt").read_text().splitlines()
        if ln.strip()]


def read(path: Path) -> list:
    return list(iter_source(str(path)))


def good_count(recs: list) -> int:
    return sum(1 for r in recs if r.grid is not None)


def run_cli(*args: str, stdin: object = None, stdout: object = subprocess.PIPE,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "grader", *args], stdin=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=scaled(timeout), env=env)


# -- 1-7: decoding and detection ---------------------------------------------------------
def test_1_csv_field_over_the_csv_limit_is_one_malformed_record(tmp_path: Path) -> None:
    f = tmp_path / "long.csv"
    rows = [f"{i},{GOOD[i]}" for i in range(10)]
    rows.insert(5, "99," + "1" * (140 * 1024))
    f.write_text("id,puzzle\n" + "\n".join(rows) + "\n")
    recs = read(f)
    assert len(recs) == 11 and good_count(recs) == 10
    bad = recs[5]
    assert bad.line == 7 and bad.grid is None
    assert "field larger than field limit" in bad.error
    assert [r.grid.normalised().replace(".", "0") for r in recs if r.grid] == GOOD[:10]


def test_2_deeply_nested_json_line_costs_that_line_only(tmp_path: Path) -> None:
    f = tmp_path / "deep.jsonl"
    lines = [json.dumps({"puzzle": GOOD[i % 500]}) for i in range(3010)]
    lines.insert(1500, "[" * 100_000 + "]" * 100_000)
    f.write_text("\n".join(lines) + "\n")
    recs = read(f)
    assert len(recs) == 3011 and good_count(recs) == 3010
    assert recs[1500].line == 1501 and "nested too deeply" in recs[1500].error


def test_3_json_integer_over_4300_digits_is_malformed() -> None:
    text = (json.dumps({"puzzle": GOOD[0]}) + "\n"
            + f'{{"puzzle": "{GOOD[1]}", "n": {"9" * 5000}}}\n'
            + json.dumps({"puzzle": GOOD[2]}) + "\n")
    recs = list(iter_text(io.StringIO(text), "<t>"))
    assert [r.error is None for r in recs] == [True, False, True]
    assert "4300" in recs[1].error


def test_4_binary_input_is_not_a_text_file_of_grids(tmp_path: Path) -> None:
    f = tmp_path / "prog"
    f.write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00" + bytes(range(256)) * 20)
    with pytest.raises(InputError, match="not a text file of grids"):
        read(f)
    with pytest.raises(InputError, match="not a text file of grids"):
        list(iter_binary(io.BytesIO(b"ab\x00cd\n" + GOOD[0].encode()), "<stdin>"))


def test_4_binary_on_standard_input_exits_2_without_traceback() -> None:
    with open(sys.executable, "rb") as fh:
        p = run_cli("grade", "-", stdin=fh)
    assert p.returncode == 2
    assert "not a text file of grids" in p.stderr and "Traceback" not in p.stderr


def test_a_nul_byte_after_the_first_bytes_is_one_malformed_line() -> None:
    data = ("\n".join(GOOD[:200]) + "\n").encode() + b"x\x00y\n" + GOOD[0].encode() + b"\n"
    recs = list(iter_binary(io.BytesIO(data), "<t>"))
    assert len(recs) == 202 and good_count(recs) == 201
    assert recs[200].line == 201 and "NUL" in recs[200].error


def test_5_a_latin1_byte_costs_its_line_only(tmp_path: Path) -> None:
    f = tmp_path / "latin1.txt"
    body = "".join(GOOD[i % 500] + "\n" for i in range(3000)).encode()
    tail = "".join(GOOD[i] + "\n" for i in range(4)).encode()
    f.write_bytes(body + b"caf\xe9 " + GOOD[0].encode() + b"\n" + tail)
    recs = read(f)
    assert len(recs) == 3005 and good_count(recs) == 3004
    bad = recs[3000]
    assert bad.line == 3001 and "not UTF-8" in bad.error and "0xe9" in bad.error


def test_a_line_over_the_line_limit_is_one_malformed_record() -> None:
    data = (GOOD[0] + "\n").encode() + b"1" * (MAX_LINE_BYTES + 10) + b"\n" \
        + (GOOD[1] + "\n").encode()
    recs = list(iter_binary(io.BytesIO(data), "<t>"))
    assert [(r.line, r.grid is not None) for r in recs] == [(1, True), (2, False), (3, True)]
    assert "longer than" in recs[1].error


def test_old_mac_line_ends_are_lines() -> None:
    data = "\r".join(GOOD[:3]).encode() + b"\r"
    recs = list(iter_binary(io.BytesIO(data), "<t>"))
    assert [(r.line, r.error) for r in recs] == [(1, None), (2, None), (3, None)]


def mixed_lines(n: int = 1000) -> tuple[list[str], list[int]]:
    """n lines: good, malformed, contradictory, comments and blank; and the line
    numbers that must give a record (the others are blank or comments)."""
    kinds = ["title of the collection", "garbage"]
    for i in range(n - 2):
        k = i % 10
        if k < 5:
            kinds.append(GOOD[i % 500])
        elif k == 5:
            kinds.append("xyz not a grid")
        elif k == 6:
            kinds.append(GOOD[i % 500][:-3])  # too short
        elif k == 7:
            kinds.append("11" + GOOD[i % 500][2:])  # a repeated given (contradictory)
        elif k == 8:
            kinds.append("# a comment")
        else:
            kinds.append("")
    want = [i + 1 for i, ln in enumerate(kinds) if ln.strip() and not ln.startswith("#")]
    return kinds, want


def test_6_every_line_not_blank_nor_comment_gives_one_record_in_order() -> None:
    lines, want = mixed_lines()
    recs = list(iter_text(io.StringIO("\n".join(lines) + "\n"), "<t>"))
    assert [r.line for r in recs] == want
    assert [r.index for r in recs] == list(range(1, len(want) + 1))
    assert recs[0].error == "no grid on this line" and recs[0].text == "title of the collection"


@pytest.mark.parametrize("first", ["123456789", '{"note": "made by hand"}', "id,puzzle",
                                   "Grid 01", "+-------+-------+-------+", "3 0000"])
def test_7_one_odd_first_line_does_not_decide_the_format(first: str) -> None:
    text = first + "\n" + "\n".join(GOOD[:100]) + "\n"
    recs = list(iter_text(io.StringIO(text), "<t>"))
    grids = [r for r in recs if r.grid is not None]
    assert [r.grid.normalised().replace(".", "0") for r in grids] == GOOD[:100]
    assert [r.line for r in grids] == list(range(2, 102))
    assert len(recs) - len(grids) <= 1  # the odd line: a malformed record (or a header)


def test_detection_still_reads_each_real_format() -> None:
    block = "\n".join(GOOD[0][i * 9:(i + 1) * 9] for i in range(9))
    cases = {
        "line": "\n".join(GOOD[:5]),
        "jsonl": "\n".join(json.dumps({"puzzle": g}) for g in GOOD[:5]),
        "csv": "id,puzzle\n" + "\n".join(f"{i},{g}" for i, g in enumerate(GOOD[:5])),
        "block": "\n\n".join([block] * 5),
        "nt": "\n".join(f"3 {g}" for g in GOOD[:5]),
    }
    for fmt, text in cases.items():
        recs = list(iter_text(io.StringIO(text + "\n"), "<t>"))
        assert len(recs) == 5 and all(r.grid is not None for r in recs), fmt
        assert {r.format for r in recs} == {fmt}, fmt


# -- 8: output that cannot be written ------------------------------------------------------
FULL = Path("/dev/full")


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full here")
@pytest.mark.parametrize("args", [
    ("grade", "{five}", "-f", "jsonl"),
    ("grade", "{five}"),
    ("explain", GOOD[0]),
    ("explain", GOOD[0], "-o", "/dev/full"),
    ("solve", "{five}"),
    ("solve", "{five}", "-o", "/dev/full"),
    ("generate", "--count", "1", "--seed", "3"),
    ("pair", "generate", "--order", "2"),
])
def test_8_a_full_disk_is_cannot_write_exit_2(tmp_path: Path, args: tuple[str, ...]) -> None:
    five = tmp_path / "five.txt"
    five.write_text("\n".join(GOOD[:5]) + "\n")
    argv = [a.format(five=five) for a in args]
    with FULL.open("w") as sink:
        p = run_cli(*argv, stdout=sink)
    assert p.returncode == 2, p.stderr
    assert "cannot write: No space left on device" in p.stderr
    assert "Traceback" not in p.stderr


def test_8_a_closed_pipe_is_a_quiet_exit(tmp_path: Path) -> None:
    many = tmp_path / "many.txt"
    many.write_text("\n".join(GOOD) + "\n")
    env = dict(os.environ, NO_COLOR="1")
    p = subprocess.run(f"{sys.executable} -m grader solve {many} | head -1", shell=True,
                       capture_output=True, text=True, timeout=scaled(120), env=env)
    assert len(p.stdout.splitlines()) == 1 and "Traceback" not in p.stderr


# -- 9: output that is the input -------------------------------------------------------------
def test_9_output_that_is_the_input_by_any_spelling(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    x = tmp_path / "x.jsonl"
    x.write_text(json.dumps({"puzzle": GOOD[0]}) + "\n")
    (tmp_path / "link.jsonl").symlink_to(x)
    os.link(x, tmp_path / "hard.jsonl")
    (tmp_path / "sub").mkdir()
    for src, dst in [("x.jsonl", x), ("./x.jsonl", Path("x.jsonl")),
                     ("sub/../x.jsonl", x), ("link.jsonl", x), ("hard.jsonl", x),
                     (str(x), Path("link.jsonl"))]:
        with pytest.raises(OutputError, match="the output is the input"):
            check_output_not_input([GOOD[1], src], [dst])
    check_output_not_input(["x.jsonl", GOOD[1]], [tmp_path / "other.jsonl", None])


def test_9_grade_refuses_its_own_input_and_touches_nothing(tmp_path: Path) -> None:
    src = tmp_path / "x.csv"
    text = "id,puzzle\n" + "\n".join(f"{i},{g}" for i, g in enumerate(GOOD[:60])) + "\n"
    src.write_text(text)
    p = grade(str(src), "-o", str(tmp_path / "." / "x.csv"), "--overwrite", "-j", "2")
    assert p.returncode == 2 and "the output is the input" in p.stderr
    assert src.read_text() == text
    with src.open("a") as sink:  # standard output appended to the input
        q = run_cli("grade", str(src), "-f", "jsonl", stdout=sink)
    assert q.returncode == 2 and "standard output" in q.stderr
    assert src.read_text() == text


# -- 10: two runs on one output ---------------------------------------------------------------
def test_10_the_output_lock(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    first = OutputLock(out).acquire()
    with pytest.raises(OutputError, match="being written by another run"):
        OutputLock(out).acquire()
    first.release()
    with OutputLock(out):
        pass


def test_10_a_second_resume_refuses_at_once_and_a_crash_frees_the_lock(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("\n".join(GOOD[:20]) + "\n")
    out = tmp_path / "out.jsonl"
    holder = subprocess.Popen([sys.executable, "-c",
                               "import sys, time; from grader.formats.files import OutputLock; "
                               f"lock = OutputLock(__import__('pathlib').Path({str(out)!r}))"
                               ".acquire(); "
                               "print('locked', flush=True); time.sleep(120)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        p = grade(str(src), "-o", str(out), "--resume")
        assert p.returncode == 2 and "being written by another run" in p.stderr
        assert out.read_text() == ""
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    p = grade(str(src), "-o", str(out), "--resume")
    assert p.returncode == 0, p.stderr
    assert [r["index"] for r in jsonl(out.read_text())] == list(range(1, 21))


# -- 11: --resume with other settings ---------------------------------------------------------
def test_11_settings_differences_say_what_differs(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    h = default_hierarchy()
    base = resume_settings(["a.txt"], "auto", None, None, h, False, False, False, None, None,
                           None)
    write_settings(out, base)
    assert settings_differences(out, base, SETTING_LABELS) == []
    other = {**base, "with_solution": True, "where": "level > 3"}
    assert settings_differences(out, other, SETTING_LABELS) == [
        "--with-solution: off there, on now", "--where: off there, level > 3 now"]
    singles = h.model_copy(update={"trials": h.trials.model_copy(
        update={"propagation": "singles"})})
    changed = resume_settings(["b.txt"], "auto", None, None, singles, False, False, False,
                              None, None, None)
    diffs = settings_differences(out, changed, SETTING_LABELS)
    assert diffs[0].startswith("another input: ") and diffs[1].startswith("--hierarchy")


def test_11_resume_refuses_other_settings(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("\n".join(GOOD[:8]) + "\n")
    out = tmp_path / "out.jsonl"
    out.write_text("")
    assert grade(str(src), "-o", str(out), "--resume").returncode == 0
    before = out.read_text()
    p = grade(str(src), "-o", str(out), "--resume", "--with-solution")
    assert p.returncode == 2 and "--with-solution: off there, on now" in p.stderr
    assert out.read_text() == before
    assert (tmp_path / "out.jsonl.meta.json").exists()


# -- 12: inputs that are missing or fail mid-run ------------------------------------------------
def test_12_a_missing_input_is_refused_before_any_work(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("\n".join(GOOD[:30]) + "\n")
    out = tmp_path / "out.jsonl"
    p = grade(str(src), str(tmp_path / "missing.txt"), "-j", "2", "-o", str(out))
    assert p.returncode == 2 and "missing.txt: cannot open" in p.stderr
    assert not out.exists()


def test_12_an_input_failing_mid_run_keeps_every_result_read_before() -> None:
    def failing():
        yield from iter_text(io.StringIO("\n".join(GOOD[:30])), "first.txt")
        raise InputError("second.txt: cannot read after line 0: Input/output error")

    emitted: list[int] = []
    with pytest.raises(InputError, match="second.txt"):
        run(failing(), InlinePool(GradeConfig()), lambda e, resumed: emitted.append(e.index))
    assert emitted == list(range(1, 31))


def test_12_binary_second_input_keeps_the_first_inputs_results(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("\n".join(GOOD[:30]) + "\n")
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"\x00\x01\x02" * 100)
    out = tmp_path / "out.jsonl"
    p = grade(str(src), str(binary), "-j", "2", "-o", str(out))
    assert p.returncode == 2 and "not a text file of grids" in p.stderr
    assert [r["index"] for r in jsonl(out.read_text())] == list(range(1, 31))


# -- 14: time limits of the solve engines -------------------------------------------------------
@pytest.mark.parametrize("engine", ["sat", "native", "csp", "cp"])
def test_14_every_engine_keeps_its_time_limit(engine: str) -> None:
    from grader.exact import get_engine

    pytest.importorskip({"sat": "pysat", "cp": "ortools"}.get(engine, "grader"))
    rec = next(iter(iter_source(str(Path(__file__).parent / "data" / "engines-36x36.nt.txt"))))
    eng = get_engine(engine)
    t0 = time.perf_counter()
    res = eng.solve(rec.grid.geo, rec.grid.values, 2, 0.5)
    took = time.perf_counter() - t0
    assert res.timed_out or res.count == 1
    assert took < 0.5 + 5, f"{engine} took {took:.1f} s for a 0.5 s limit"


# -- 15 and 16: requests checked before the run -------------------------------------------------
def test_15_pair_order_range_is_checked_up_front() -> None:
    for k in (2, 3, 4):
        check_pair_order(k)
    for k in (1, 5, 6):
        with pytest.raises(ValueError, match="orders 2 to 4"):
            check_pair_order(k)
    p = run_cli("pair", "generate", "--order", "6", timeout=60)
    assert p.returncode == 2 and "orders 2 to 4" in p.stderr


@pytest.mark.parametrize("text", [
    "(" * 5000 + "level > 1" + ")" * 5000,
    "not " * 5000 + "level",
    "level in " + "[" * 5000 + "1" + "]" * 5000,
    "level > " + "9" * 5000,
])
def test_16_where_deep_nesting_or_huge_numbers_are_clear_errors(text: str) -> None:
    with pytest.raises(WhereError, match="nested too deeply|number too long"):
        Where(text)


def test_16_where_names_are_checked_before_the_run() -> None:
    w = Where('levl > 3 or "x" in techniques or id == 7')
    assert w.unknown_names({"id"}) == ["levl"]
    w = Where("id == 7")
    assert w.unknown_names({"id"}) == []
    assert w({"index": 1}) is False  # a record without the column reads it as null


def test_16_plot_file_name_is_checked_before_the_run(tmp_path: Path) -> None:
    assert "not a picture file name" in (plot_path_problem(tmp_path / "h.txt") or "")
    assert "no folder" in (plot_path_problem(tmp_path / "no" / "h.png") or "")
    assert plot_path_problem(tmp_path / "h.png") is None
    t0 = time.perf_counter()
    src = tmp_path / "in.txt"
    src.write_text("\n".join(GOOD[:200]) + "\n")
    p = grade(str(src), "--plot", str(tmp_path / "h.txt"))
    assert p.returncode == 2 and "not a picture file name" in p.stderr
    assert "grids" not in p.stdout  # refused before the run, not after
    assert time.perf_counter() - t0 < scaled(60)


# -- others of the same kinds -----------------------------------------------------------------
@pytest.mark.parametrize(("name", "content"), [
    ("deep.jsonl", "[" * 100_000 + "]" * 100_000 + "\n"),
    ("big.jsonl", '{"index": ' + "9" * 5000 + ', "puzzle": "x"}\n'),
    ("bin.jsonl", None),
    ("other.csv", "a,b\n1,2\n"),
])
def test_resume_on_a_file_that_is_not_an_output_is_refused(tmp_path: Path, name: str,
                                                           content: str | None) -> None:
    from grader.bulk.resume import ResumeCursor, ResumeError

    out = tmp_path / name
    if content is None:
        out.write_bytes(b"\xff\xfe\x00binary\n")
    else:
        out.write_text(content)
    with pytest.raises(ResumeError):
        ResumeCursor(out)


def test_hierarchy_file_that_is_binary_or_too_deep_is_a_clear_error(tmp_path: Path) -> None:
    from grader.strategy.hierarchy import HierarchyError, load_hierarchy

    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00\x01")
    with pytest.raises(HierarchyError, match="nested too deeply"):
        load_hierarchy(deep)
    with pytest.raises(HierarchyError, match="not a UTF-8 text file"):
        load_hierarchy(binary)


def test_explain_reads_around_a_bad_line_and_refuses_binary(tmp_path: Path) -> None:
    from grader.explainer.position import load_position

    f = tmp_path / "mixed.txt"
    f.write_bytes(b"caf\xe9 au lait\n" + GOOD[0].encode() + b"\n")
    pos = load_position(str(f), index=2)
    assert pos.board is not None
    b = tmp_path / "prog"
    b.write_bytes(b"\x7fELF\x00\x00" + b"x" * 100)
    with pytest.raises(InputError, match="not a text file of grids"):
        load_position(str(b))


def test_csv_column_option_is_checked_against_the_header() -> None:
    text = "id,puzzle\n1," + GOOD[0] + "\n"
    with pytest.raises(InputError, match="no column named 'nope'"):
        list(iter_text(io.StringIO(text), "<t>", column="nope"))
    recs = list(iter_text(io.StringIO(GOOD[0] + "\n" + GOOD[1] + "\n"), "<t>", "csv"))
    assert [(r.line, r.error) for r in recs] == [(1, None), (2, None)]  # no header


def test_14_sat_loading_cut_by_a_deadline_goes_on_with_the_next_grid() -> None:
    """A 25x25 formula takes longer to load than a tiny time limit: the first
    grid times out, and the loading goes on where it stopped for the next ones,
    until the grids are solved."""
    pytest.importorskip("pysat")
    from grader.exact import get_engine

    path = Path(__file__).parent / "data" / "engines-25x25.nt.txt"
    rec = next(iter(iter_source(str(path))))
    eng = get_engine("sat")
    first = eng.solve(rec.grid.geo, rec.grid.values, 2, 0.01)
    assert first.timed_out and first.count == 0
    for _ in range(2000):
        res = eng.solve(rec.grid.geo, rec.grid.values, 2, 0.05)
        if res.count:
            break
    assert res.count >= 1  # the formula was loaded in pieces across the calls
