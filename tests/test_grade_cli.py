"""``grade`` as a user runs it: formats, the JSON Lines contract, exit codes, bad input."""

from __future__ import annotations

import csv
import io

from bulk_helpers import BULK, PUZZLES, grade, jsonl, run_grade

from grader.strategy.grading import CONTRACT_FIELDS

EASY = "050703060007000800000816000000030000005000100730040086906000204840572093000409000"


def test_one_grid_gives_a_panel_and_exit_0() -> None:
    p = grade(EASY)
    assert p.returncode == 0, p.stderr
    assert "rating" in p.stdout and "9x9 grid" in p.stdout
    assert "grids" not in p.stdout  # no bulk summary for one grid


def test_jsonl_contract_fields_and_order() -> None:
    p = run_grade(PUZZLES / "book-calibration.txt", output_format="jsonl", jobs=2)
    assert p.returncode == 0, p.stderr
    rows = jsonl(p.stdout)
    assert len(rows) == 31
    assert [r["index"] for r in rows] == list(range(1, 32))
    for r in rows:
        assert tuple(r) == CONTRACT_FIELDS
        assert r["verdict"] == "ok" and r["level"] >= 1 and r["rating"]
    # the book's ratings: the comment after each grid says it
    lines = [ln for ln in (PUZZLES / "book-calibration.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    assert [r["line"] for r in rows] == [
        i + 1 for i, ln in enumerate((PUZZLES / "book-calibration.txt").read_text()
                                     .splitlines()) if ln in lines]


def test_mixed_collection_reports_every_bad_grid_with_its_line() -> None:
    p = run_grade(BULK / "mixed.txt", output_format="jsonl", jobs=2)
    assert p.returncode == 1  # some grids are not ok
    rows = jsonl(p.stdout)
    got = [(r["line"], r["verdict"]) for r in rows]
    assert got == [(2, "ok"), (3, "malformed"), (4, "contradiction"), (5, "ok"),
                   (6, "malformed"), (7, "no-solution"), (8, "multiple-solutions"), (9, "ok")]
    by_line = {r["line"]: r for r in rows}
    assert "80 symbols" in by_line[3]["message"]
    assert "'x' at position 41" in by_line[6]["message"]
    assert "1" in by_line[4]["message"]
    for r in rows:
        if r["verdict"] == "ok":
            assert r["level"] is not None and r["rating"]
        else:
            assert r["level"] is None and r["rating"] is None


def test_summary_names_each_bad_grid_with_file_and_line(tmp_path) -> None:
    out = tmp_path / "r.jsonl"
    p = run_grade(BULK / "mixed.txt", output=out, jobs=2)
    assert p.returncode == 1, p.stderr
    s = p.stdout
    assert "8 grids" in s
    assert "grids not ok (5)" in s
    for line, verdict in ((3, "malformed"), (4, "contradiction"), (6, "malformed"),
                          (7, "no-solution"), (8, "multiple-solutions")):
        row = next(ln for ln in s.splitlines() if f"mixed.txt:{line} " in ln and verdict in ln)
        assert row
    assert len(jsonl(out.read_text())) == 8


def test_csv_output_matches_jsonl() -> None:
    pj = run_grade(BULK / "mixed.txt", output_format="jsonl", jobs=1)
    pc = run_grade(BULK / "mixed.txt", output_format="csv", jobs=1)
    rows = list(csv.DictReader(io.StringIO(pc.stdout)))
    assert list(rows[0]) == list(CONTRACT_FIELDS)
    for r, j in zip(rows, jsonl(pj.stdout), strict=True):
        assert int(r["index"]) == j["index"] and r["verdict"] == j["verdict"]
        assert r["techniques"] == ";".join(f"{k}={v}" for k, v in j["techniques"].items())


def test_stdin_and_table() -> None:
    text = (BULK / "mixed.txt").read_text()
    p = grade("-", stdin=text)
    assert p.returncode == 1
    assert "8 grids" in p.stdout and "contradiction" in p.stdout


def test_usage_errors_exit_2() -> None:
    p = grade("no-such-file.txt")
    assert p.returncode == 2 and "cannot open" in p.stderr and "Traceback" not in p.stderr
    p = grade(EASY, "--where", "rating ==")
    assert p.returncode == 2 and "--where" in p.stderr
    p = grade(EASY, "--resume")
    assert p.returncode == 2 and "--output" in p.stderr
    p = grade(EASY, "--sort", "colour")
    assert p.returncode == 2 and "--sort" in p.stderr
    p = grade(EASY, "--where", "ratng == 'expert'")
    assert p.returncode == 2 and "unknown field 'ratng'" in p.stderr


def test_output_refuses_to_clobber(tmp_path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text('{"index": 1, "puzzle": "x"}\n')
    p = grade(EASY, "-o", str(out))
    assert p.returncode == 2 and "--resume" in p.stderr and "--overwrite" in p.stderr
    p = grade(EASY, "-o", str(out), "--overwrite")
    assert p.returncode == 0, p.stderr
    assert jsonl(out.read_text())[0]["puzzle"] == EASY.replace("0", ".")


def test_check_engine_gives_the_same_verdicts() -> None:
    base = jsonl(run_grade(BULK / "mixed.txt", output_format="jsonl", jobs=1).stdout)
    p = run_grade(BULK / "mixed.txt", output_format="jsonl", jobs=2, check_engine="csp")
    assert p.returncode == 1, p.stderr
    got = jsonl(p.stdout)
    assert [(r["verdict"], r["level"]) for r in got] == [(r["verdict"], r["level"]) for r in base]
    p = run_grade(EASY, check_engine="no-such-engine")
    assert p.returncode == 2 and "unknown engine" in p.stderr
