"""Issue 11, property-based (hypothesis): the reader, the format detection, the
--where parser and grading never raise on what they are given, and never lose
a line.  A few dozen examples each in the default run; many more with
--runslow (profiles in conftest.py)."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import math
import random
import tempfile
from pathlib import Path
from typing import get_args

from conftest import DATA, PUZZLES
from hypothesis import example, given, settings
from hypothesis import strategies as st

from grader.bulk.where import Where, WhereError
from grader.formats import (
    BINARY_SNIFF_BYTES,
    InputError,
    Record,
    is_header_row,
    iter_binary,
    parse_grid_token,
)
from grader.strategy.grading import Grader, Verdict

GOOD = [ln.split()[0] for ln in (PUZZLES / "se-easy-500.txt").read_text().splitlines()
        if ln.strip()][:60]
FORMATS = ("auto", "line", "nt", "block", "csv", "jsonl")


def check_records(recs: list[Record]) -> None:
    """What holds for the records of any input."""
    assert [r.index for r in recs] == list(range(1, len(recs) + 1))
    lines = [r.line for r in recs]
    assert lines == sorted(lines) and len(set(lines)) == len(lines)
    for r in recs:
        assert (r.grid is None) == (r.error is not None), r


def read_bytes(data: bytes, fmt: str = "auto") -> list[Record] | None:
    """The records of ``data``, or None when it is refused as a whole (binary,
    or a forced CSV whose header cannot be read)."""
    try:
        return list(iter_binary(io.BytesIO(data), "<h>", fmt))
    except InputError as e:
        msg = str(e)
        assert ("not a text file of grids" in msg and b"\0" in data[:BINARY_SNIFF_BYTES]) \
            or (fmt == "csv" and "CSV header" in msg), msg
        return None


@given(st.binary(max_size=3000), st.sampled_from(FORMATS))
def test_arbitrary_bytes_never_raise(data: bytes, fmt: str) -> None:
    recs = read_bytes(data, fmt)
    if recs is not None:
        check_records(recs)


LINE_BYTES = st.one_of(
    st.binary(max_size=120).filter(lambda b: not any(c in b for c in b"\n\r\0")),
    st.sampled_from([g.encode() for g in GOOD[:5]] + [b"# comment", b"", b"  ", b"id,puzzle",
                                                        b'{"puzzle": "' + GOOD[0].encode() + b'"}',
                                                        b"caf\xe9", b"3 " + GOOD[1].encode()]),
)


def content_lines(lines: list[bytes], header_rule: bool) -> int:
    """How many records a one-record-per-line reading must give."""
    n = 0
    first = True
    for k, raw in enumerate(lines):
        if k == 0 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            text, good = raw.decode("utf-8"), True
        except UnicodeDecodeError:
            text, good = raw.decode("utf-8", errors="replace"), False
        comment = text.lstrip().startswith(("#", "//"))
        if comment or (good and not text.strip()):
            continue
        if first and header_rule and good and is_header_row(text):
            first = False
            continue
        first = False
        n += 1
    return n


@given(st.lists(LINE_BYTES, max_size=40), st.sampled_from(["line", "jsonl"]))
def test_every_line_gives_one_record_or_is_blank_or_a_comment(lines: list[bytes],
                                                              fmt: str) -> None:
    recs = read_bytes(b"\n".join(lines) + b"\n", fmt)
    assert recs is not None
    check_records(recs)
    assert len(recs) == content_lines(lines, header_rule=fmt == "line")


TEXT = st.text(alphabet=st.characters(blacklist_characters="\r\n\x00",
                                      blacklist_categories=("Cs",)), max_size=100)
MUTATION = st.tuples(st.sampled_from(["replace", "insert", "corrupt", "append"]),
                     st.integers(0, 10_000), TEXT)


@given(st.lists(MUTATION, max_size=12))
def test_mutated_files_keep_every_intact_grid(mutations: list[tuple[str, int, str]]) -> None:
    lines: list[tuple[str, bool]] = [(g, True) for g in GOOD[:30]]  # (text, intact)
    for kind, pos, text in mutations:
        k = pos % (len(lines) + 1)
        if kind == "insert" or k == len(lines):
            lines.insert(k, (text, False))
        elif kind == "replace":
            lines[k] = (text, False)
        elif kind == "corrupt":
            old = lines[k][0]
            j = pos % max(1, len(old))
            lines[k] = (old[:j] + text[:3] + old[j + 1:], False)
        else:
            lines[k] = (lines[k][0] + " " + text, lines[k][1] and not text.strip())
    data = "\n".join(t for t, _ in lines).encode() + b"\n"
    recs = read_bytes(data)
    assert recs is not None
    check_records(recs)
    at = {r.line: r for r in recs}
    for lineno, (text, intact) in enumerate(lines, start=1):
        if intact:
            rec = at.get(lineno)
            assert rec is not None and rec.grid is not None, (lineno, text, rec)
            assert rec.grid.normalised() == parse_grid_token(text.strip()).normalised()
    if not any(r.format == "block" for r in recs):
        want = content_lines([t.encode() for t, _ in lines], header_rule=False)
        assert len(recs) in (want, want - 1)  # a header line (CSV, or naming the column)


WHERE_WORDS = ["(", ")", "[", "]", ",", "not", "and", "or", "in", "==", "!=", "<", ">=", "=",
               "level", "rating", "techniques", "score", "givens", "nosuchfield", "1", "-2.5e3",
               '"expert"', "'x-wing'", "null", "true", "9" * 120, '"unterminated']


@given(st.one_of(TEXT, st.lists(st.sampled_from(WHERE_WORDS), max_size=30).map(" ".join)))
def test_where_parser_on_arbitrary_strings(text: str) -> None:
    try:
        w = Where(text)
    except WhereError:
        return
    result = {"index": 1, "line": 1, "puzzle": GOOD[0], "size": 9, "verdict": "ok",
              "level": 3, "rating": "easy", "score": 20.5, "depth": 1, "steps": 40,
              "techniques": {"single-position": 30}, "hardest": "single-position",
              "seconds": 0.01, "message": None}
    try:
        assert w(result) in (True, False)
    except WhereError as e:
        assert "unknown field" in str(e)


def solutions() -> list[tuple[str, str]]:
    """(box, solution) of one grid of every size (tests/data/sizes.txt)."""
    out = []
    for line in (DATA / "sizes.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            box, _, solution = line.split()
            out.append((box, solution))
    return out


SOLUTIONS = solutions()
VERDICTS = set(get_args(Verdict))
GRADER = Grader()


@given(st.sampled_from(SOLUTIONS), st.randoms(use_true_random=False), st.floats(0.0, 0.7),
       st.integers(0, 2))
def test_grade_random_grids_of_every_size(case: tuple[str, str], rnd: random.Random,
                                          holes: float, overwrites: int) -> None:
    box, solution = case
    a, b = (int(x) for x in box.split("x"))
    n = a * b
    grid = parse_grid_token(solution, box=(a, b))
    relabel = list(range(1, n + 1))
    rnd.shuffle(relabel)
    values = [relabel[v - 1] for v in grid.values]
    if n > 9:
        holes = min(holes, 0.3)  # large sparse grids are the slow tests' business
    for c in rnd.sample(range(n * n), int(holes * n * n)):
        values[c] = 0
    for _ in range(overwrites):
        values[rnd.randrange(n * n)] = rnd.randint(1, n)
    g = type(grid)(grid.geo, tuple(values))
    res = GRADER.grade_grid(g)
    assert res.verdict in VERDICTS
    if overwrites == 0:
        assert res.verdict in ("ok", "multiple-solutions")


# -- issue 30: each reader, the numeric options, and resumed outputs --------------------

CELL = st.text(alphabet=st.characters(blacklist_characters="\r\n\x00",
                                      blacklist_categories=("Cs",)), max_size=30)


def _good_grids(recs: list[Record]) -> list[str]:
    return [r.grid.normalised() for r in recs if r.grid is not None]


def _norm(grid: str) -> str:
    return parse_grid_token(grid).normalised()


@given(st.lists(st.tuples(st.booleans(), CELL, CELL), max_size=25),
       st.sampled_from(["csv", "auto"]))
def test_csv_rows_each_intact_grid_once_in_order(rows: list[tuple[bool, str, str]],
                                                 fmt: str) -> None:
    import csv

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["id", "puzzle", "note"])
    want = []
    for k, (intact, junk, note) in enumerate(rows):
        grid = GOOD[k % len(GOOD)] if intact else junk
        w.writerow([str(k), grid, note])
        if intact:
            want.append(_norm(grid))
    recs = read_bytes(buf.getvalue().encode(), fmt)
    assert recs is not None
    check_records(recs)
    if fmt == "csv":
        assert len(recs) == len(rows)  # one record per row, the header none
    got = _good_grids(recs)
    # a junk cell may hold a grid too: the intact ones come in order, each once
    it = iter(got)
    assert all(any(g == x for x in it) for g in want), (want, got)


JSON_JUNK = st.one_of(CELL, st.integers(), st.none(), st.lists(st.integers(), max_size=3),
                      st.dictionaries(CELL, st.integers(), max_size=2))


@given(st.lists(st.tuples(st.sampled_from(["good", "junk", "text"]), JSON_JUNK), max_size=25))
def test_jsonl_lines_each_intact_grid_once_in_order(lines: list[tuple[str, object]]) -> None:
    out, want = [], []
    for k, (kind, junk) in enumerate(lines):
        if kind == "good":
            out.append(json.dumps({"id": k, "puzzle": GOOD[k % len(GOOD)], "x": junk}))
            want.append(_norm(GOOD[k % len(GOOD)]))
        elif kind == "junk":
            out.append(json.dumps({"puzzle": junk}))
        else:
            out.append(str(junk).replace("\n", " ").replace("\r", " ") or "{")
    recs = read_bytes(("\n".join(out) + "\n").encode(), "jsonl")
    assert recs is not None
    check_records(recs)
    it = iter(_good_grids(recs))
    assert all(any(g == x for x in it) for g in want)


def _block(grid: str) -> list[str]:
    rows = [grid[i:i + 9] for i in range(0, 81, 9)]
    return [" ".join(r[j:j + 3] for j in range(0, 9, 3)) for r in rows]


@given(st.lists(st.tuples(st.booleans(), st.lists(CELL, min_size=1, max_size=4)), max_size=8))
def test_blocks_each_intact_grid_once_in_order(blocks: list[tuple[bool, list[str]]]) -> None:
    text, want = [], []
    for k, (intact, junk) in enumerate(blocks):
        if intact:
            text += _block(GOOD[k % len(GOOD)])
            want.append(_norm(GOOD[k % len(GOOD)]))
        else:
            text += [j for j in junk if j.strip()] or ["x"]
        text.append("")
    recs = read_bytes("\n".join(text).encode(), "block")
    assert recs is not None
    check_records(recs)
    it = iter(_good_grids(recs))
    assert all(any(g == x for x in it) for g in want)


PENCIL_WORDS = st.sampled_from(["123", "4", ".", "0", "|", "---+---", "56789", "9", "12",
                                "1" * 729, "." * 729, "1" * 64, "x", "", "#"])


@given(st.one_of(TEXT, st.lists(st.lists(PENCIL_WORDS, max_size=10).map(" ".join),
                                max_size=12).map("\n".join)),
       st.sampled_from(["pencil", "auto"]), st.integers(-2, 3))
def test_pencil_marks_reader_never_raises_anything_else(text: str, fmt: str, index: int) -> None:
    from grader.explainer.core import ExplainError
    from grader.explainer.position import parse_position

    with contextlib.suppress(ExplainError, InputError):
        parse_position(text, "<h>", index, None, fmt)


RESULT_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
                          st.floats(allow_nan=True, allow_infinity=True), CELL,
                          st.lists(CELL, max_size=3), st.dictionaries(CELL, st.integers(),
                                                                      max_size=3))


@given(st.one_of(TEXT, st.lists(st.sampled_from(WHERE_WORDS), max_size=30).map(" ".join)),
       st.dictionaries(st.sampled_from(["level", "rating", "score", "techniques", "depth",
                                        "verdict", "note", "seconds", "givens"]),
                       RESULT_VALUES, max_size=6))
def test_where_on_results_of_any_shape(text: str, fields: dict) -> None:
    try:
        w = Where(text)
    except WhereError:
        return
    result = {"index": 1, "line": 1, "puzzle": GOOD[0], "verdict": "ok", **fields}
    with contextlib.suppress(WhereError):
        assert w({**result, "note": "x"}) in (True, False)


NUMBERS = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                    st.integers(-10**30, 10**30), st.sampled_from([1e308, 1e300, 1e9, 3e7]))


@given(NUMBERS)
def test_time_limits_mean_a_limit_or_none_or_are_refused(value: float) -> None:
    from grader.bulk.options import GradeOptions, GradeUsageError, normalized

    try:
        opts = normalized(GradeOptions(inputs=("x",), time_limit=value))
    except GradeUsageError as e:
        assert not value > 0 and "--time-limit" in str(e)
        return
    t = opts.time_limit
    assert t is None or (0 < t < 1e9 and math.isfinite(t))


@given(st.integers(0, 10**30), st.one_of(st.none(), st.integers(0, 10**6)))
def test_jobs_are_capped_by_cpus_memory_and_grids(requested: int, tasks: int | None) -> None:
    from grader.bulk.capacity import plan_jobs, usable_cpus

    jobs, note = plan_jobs(requested, tasks)
    assert 1 <= jobs <= usable_cpus()
    assert tasks is None or jobs <= max(1, tasks)
    if requested > usable_cpus():  # said why, unless -q
        assert note is not None and note.startswith(f"-j {requested}: {jobs} worker")


@settings(max_examples=12)
@given(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.none()),
       st.integers(0, 10**25))
def test_grade_with_any_numbers_never_fails_inside(time_limit: float | None, jobs: int) -> None:
    from bulk_helpers import run_grade

    p = run_grade(FIVE, output_format="jsonl", time_limit=time_limit, jobs=jobs, quiet=True)
    if p.returncode == 2:
        assert p.stderr.startswith("error: --time-limit") and p.stderr.count("\n") == 1
        return
    assert p.returncode in (0, 1), p.stderr  # 1: a grid timed out
    rows = [json.loads(ln) for ln in p.stdout.splitlines()]
    assert [r["index"] for r in rows] == [1, 2, 3, 4, 5]
    assert {r["verdict"] for r in rows} <= {"ok", "timeout"}


@functools.cache
def _five() -> str:
    d = Path(tempfile.mkdtemp(prefix="hostile-props-"))
    (d / "five.txt").write_text("\n".join(GOOD[:5]) + "\n")
    return str(d / "five.txt")


FIVE = _five()
RESUME_GRIDS = 20


@functools.cache
def _resume_base(fmt: str) -> tuple[str, list[str], str, list[tuple]]:
    """(input, the lines of a clean output, its meta, the clean results)."""
    from bulk_helpers import run_grade

    from grader.bulk.resume import read_output

    d = Path(tempfile.mkdtemp(prefix="hostile-resume-"))
    src = d / "in.txt"
    src.write_text("\n".join(GOOD[:RESUME_GRIDS]) + "\n")
    out = d / f"clean.{fmt}"
    assert run_grade(src, output=out, jobs=1).returncode == 0
    lines = out.read_text().splitlines(keepends=True)
    meta = Path(str(out) + ".meta.json").read_text()
    return str(src), lines, meta, _key(read_output(out))


def _key(rows: object) -> list[tuple]:
    return sorted((d["index"], d["puzzle"], d["verdict"], d["level"], d["rating"], d["steps"])
                  for d in rows)  # type: ignore[attr-defined]


DAMAGE = st.lists(st.tuples(st.sampled_from(["cut", "repeat", "swap", "drop", "text", "row",
                                             "meta", "blank"]),
                            st.integers(0, 10**6), CELL), max_size=4)


@settings(max_examples=30)
@given(st.sampled_from(["jsonl", "csv"]), st.integers(0, RESUME_GRIDS), DAMAGE)
@example("jsonl", 3, [("drop", 0, ""), ("swap", 1, "")])  # grid 1 was lost, then out of order
@example("csv", 20, [("repeat", 5, ""), ("repeat", 5, "")])
@example("jsonl", 10, [("row", 3, "")])
def test_resume_of_a_damaged_output_refuses_or_grades_each_grid_once(
        fmt: str, done: int, damage: list[tuple[str, int, str]]) -> None:
    from bulk_helpers import run_grade

    from grader.bulk.resume import read_output

    src, clean_lines, meta, clean = _resume_base(fmt)
    head = clean_lines[:1] if fmt == "csv" else []
    lines = head + clean_lines[len(head):len(head) + done]  # an interrupted run
    for kind, pos, text in damage:
        body = len(lines) - len(head)
        k = len(head) + pos % body if body else len(head)
        if kind == "repeat" and body:
            lines.insert(k, lines[k])
        elif kind == "swap" and body > 1:
            j = len(head) + (pos // 7) % body
            lines[k], lines[j] = lines[j], lines[k]
        elif kind == "drop" and body:
            del lines[k]
        elif kind == "text":
            lines.insert(k, text + "\n")
        elif kind == "row" and body:
            lines.insert(k, lines[k].replace("1", "2", 1))  # another index or another grid
        elif kind == "blank":
            lines.insert(k, "\n")
        elif kind == "meta":
            meta = meta[: pos % (len(meta) + 1)]
    data = "".join(lines)
    if any(kind == "cut" for kind, _, _ in damage):
        data = data[: damage[0][1] % (len(data) + 1)]
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / f"r.{fmt}"
        out.write_text(data)
        Path(str(out) + ".meta.json").write_text(meta)
        p = run_grade(src, output=out, jobs=1, resume=True, quiet=True)
        assert p.returncode in (0, 2), p.stderr
        if p.returncode == 2:  # refused, in one line, the file named
            assert p.stderr.startswith("error: ") and p.stderr.count("\n") == 1, p.stderr
            assert "r." in p.stderr, p.stderr
            return
        rows = list(read_output(out))
        assert sorted(r["index"] for r in rows) == list(range(1, RESUME_GRIDS + 1))
        assert _key(rows) == clean
