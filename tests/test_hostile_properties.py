"""Issue 11, property-based (hypothesis): the reader, the format detection, the
--where parser and grading never raise on what they are given, and never lose
a line.  A few dozen examples each in the default run; many more with
--runslow (profiles in conftest.py)."""

from __future__ import annotations

import io
import random
from typing import get_args

from conftest import DATA, PUZZLES
from hypothesis import given
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
from grader.grading import Grader, Verdict

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
