"""Issue 39: workers that read their own byte ranges and write their own parts
(grader.bulk.ranges).  The ranges read exactly the records the reader reads;
outputs are the same at every -j (but ``seconds``), as JSON Lines, CSV, on
standard output, with --where and --resume; a range whose worker died is
continued after its last grid done, never lost nor written twice."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from bulk_helpers import PUZZLES, first_grids, grade, jsonl, without_seconds

from grader.bulk.ranges import (
    SIDE,
    Planner,
    RangeJob,
    RangeWorker,
    iter_range,
    read_side,
)
from grader.bulk.task import GradeConfig
from grader.formats import iter_sources

GRID = ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..."
OTHER = ".......1.4.........2...........5.6.4..8...3....1.9....3..4..2...5.1........8.7..."


def _awkward(path: Path) -> Path:
    """A file of one grid per line with everything the reader copes with."""
    src = (PUZZLES / "bench-mixed.txt").read_text().splitlines()[:30]
    body = ["\ufeffpuzzle  # a header", "# a comment", "", *src[:5], "not a grid at all",
            f"id-7 {GRID} # rated", "   ", *src[5:12], f"{OTHER}\r{GRID}", "// comment",
            *src[12:20], "1234", *src[20:]]
    data = "\r\n".join(body[:10]).encode() + b"\r\n" + "\n".join(body[10:]).encode() \
        + b"\n\xff\xfe bad bytes\n" + GRID.encode()  # no newline at the end
    path.write_bytes(data)
    return path


def _fields(rec: object) -> tuple:
    return tuple(getattr(rec, k) for k in ("index", "line", "source", "text", "error",
                                           "format", "extra")) + (
        rec.grid.values if rec.grid is not None else None,)


@pytest.mark.parametrize("jobs", [1, 2, 5])
@pytest.mark.parametrize("after", [0, 3, 17])
def test_ranges_read_what_the_reader_reads(tmp_path: Path, jobs: int, after: int) -> None:
    a = _awkward(tmp_path / "a.txt")
    b = first_grids(PUZZLES / "se-easy-500.txt", 23, tmp_path / "b.txt")
    want = [_fields(r) for r in iter_sources([str(a), str(b)]) if r.index > after]
    planner = Planner([(str(a), False), (str(b), False)], str(tmp_path), jobs, after)
    got = []
    keys = []
    while (rt := planner.next()) is not None:
        keys.append(rt.key)
        got += [_fields(r) for r in iter_range(rt, None)]
        planner.measured(3, 0.001)
    assert got == want
    assert keys == list(range(len(keys))) and len(keys) > 2
    assert planner.total == want[-1][0] and planner.error is None


def _run(*args: str, env: dict[str, str] | None = None) -> list[dict]:
    p = grade(*args, "-q", env=env)
    assert p.returncode in (0, 1), p.stderr
    assert "Traceback" not in p.stderr
    return without_seconds(jsonl(p.stdout))


@pytest.mark.parametrize("extra", [[], ["--where", "level >= 3"], ["--max-level", "2"]])
def test_same_output_at_every_jobs(tmp_path: Path, extra: list[str]) -> None:
    a = _awkward(tmp_path / "a.txt")
    b = first_grids(PUZZLES / "se-easy-500.txt", 40, tmp_path / "b.txt")
    one = _run(str(a), str(b), "-f", "jsonl", "-j", "1", *extra)
    assert one
    for jobs in ("2", "3"):
        assert _run(str(a), str(b), "-f", "jsonl", "-j", jobs, *extra) == one
    # the old path (one grid a task) agrees
    assert _run(str(a), str(b), "-f", "jsonl", "-j", "2", *extra,
                env={"SUDOKU_GRADER_RANGES": "0"}) == one


def _strip_seconds_csv(text: str) -> list[str]:
    import csv
    import io

    rows = list(csv.reader(io.StringIO(text)))
    k = rows[0].index("seconds")
    return [",".join(r[:k] + r[k + 1:]) for r in rows]


def test_output_files_the_same(tmp_path: Path) -> None:
    src = first_grids(PUZZLES / "se-medium-500.txt", 60, tmp_path / "m.txt")
    for ext in ("jsonl", "csv"):
        outs = {}
        for jobs in ("1", "2"):
            out = tmp_path / f"out-{jobs}.{ext}"
            p = grade(str(src), "-o", str(out), "-j", jobs, "-q")
            assert p.returncode == 0, p.stderr
            text = out.read_text()
            outs[jobs] = (_strip_seconds_csv(text) if ext == "csv"
                          else without_seconds(jsonl(text)))
        assert outs["1"] == outs["2"] and len(outs["1"]) == 60 + (ext == "csv")


def test_resume_a_cut_output(tmp_path: Path) -> None:
    src = first_grids(PUZZLES / "se-easy-500.txt", 120, tmp_path / "e.txt")
    clean = tmp_path / "clean.jsonl"
    assert grade(str(src), "-o", str(clean), "-j", "1", "-q").returncode == 0
    lines = clean.read_text().splitlines(keepends=True)
    out = tmp_path / "cut.jsonl"
    for keep in (0, 1, 37, 119):
        out.write_text("".join(lines[:keep]) + lines[keep][:30])  # killed while writing
        meta = clean.with_name(clean.name + ".meta.json")  # beside the output, as left
        out.with_name(out.name + ".meta.json").write_text(meta.read_text())
        p = grade(str(src), "-o", str(out), "--resume", "-j", "2", "-q")
        assert p.returncode == 0, p.stderr
        assert without_seconds(jsonl(out.read_text())) == without_seconds(jsonl("".join(lines)))


def test_a_dead_workers_range_goes_on_after_its_last_grid(tmp_path: Path) -> None:
    src = first_grids(PUZZLES / "se-easy-500.txt", 30, tmp_path / "e.txt")
    planner = Planner([(str(src), False)], str(tmp_path), 1)
    planner.measured(100, 0.1)  # cheap grids: ranges of several
    while (rt := planner.next()) is not None and rt.hi - rt.lo < 5:
        pass
    assert rt is not None
    job = RangeJob(GradeConfig(encode="jsonl"), None, None, None, None)
    whole = RangeWorker(job).answer(rt)
    full = Path(rt.part).read_bytes()
    assert whole.graded == rt.hi - rt.lo and whole.summary.total == whole.graded
    # a worker died after two grids of the range: the next one goes on after them
    cut = sum(len(x) for x in full.splitlines(keepends=True)[:2])
    Path(rt.part).write_bytes(full[:cut] + b'{"index": 9')  # it was writing the third
    Path(rt.side).write_bytes(SIDE.pack(rt.lo + 3, cut, rt.lo + 2, 0))
    again = RangeWorker(job).answer(rt)
    redo = Path(rt.part).read_bytes()
    assert without_seconds(jsonl(redo.decode())) == without_seconds(jsonl(full.decode()))
    assert again.graded == rt.hi - rt.lo - 2  # each grid once
    assert again.summary.total == whole.summary.total
    assert read_side(rt.side)[1:3] == (len(redo), rt.hi)
    os.unlink(rt.part)


def test_se_off_on_the_command_line(tmp_path: Path) -> None:
    src = first_grids(PUZZLES / "bench-mixed.txt", 12, tmp_path / "m.txt")
    fast = _run(str(src), "-f", "jsonl", "-j", "2")
    off = _run(str(src), "-f", "jsonl", "-j", "2", "--se", "off")
    assert [r["level"] for r in off] == [r["level"] for r in fast]
    assert all(r["se"] is None and r["se_pattern"] is None for r in off)
    assert any(r["se"] is not None for r in fast)
    p = grade(str(src), "--se", "deep")
    assert p.returncode == 2 and all(f"'{v}'" in p.stderr for v in ("off", "fast", "full"))


def test_dask_local_runs_the_same_ranges(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    a = _awkward(tmp_path / "a.txt")
    one = _run(str(a), "-f", "jsonl", "-j", "1")
    out = tmp_path / "d.jsonl"
    p = grade(str(a), "--dask", "local", "-j", "2", "-o", str(out), "-q")
    assert p.returncode in (0, 1), p.stderr
    assert without_seconds(jsonl(out.read_text())) == one
