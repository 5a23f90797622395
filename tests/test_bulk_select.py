"""Bulk rating: --where, --min/--max-level, --sort/--top, --keep-columns, summary, plot."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from bulk_helpers import BULK, jsonl, run_grade, without_seconds

from grader.bulk.resume import read_output
from grader.bulk.where import Where, WhereError

# -- select and sort --------------------------------------------------------------------


def test_where_language() -> None:
    d = {"verdict": "ok", "rating": "expert", "level": 13, "score": 131.5, "depth": 1,
         "techniques": {"single-position": 30, "reductio": 1}, "hardest": "reductio",
         "puzzle": "1." * 40 + "1", "size": 9, "se": "8.3"}
    assert Where('rating == "expert"')(d)
    assert Where("level >= 9 and depth > 0")(d)
    assert not Where("level >= 9 and not depth")(d)
    assert Where("'reductio' in techniques and hardest != 'x-wing'")(d)
    assert Where('rating in ["expert", "very difficult"]')(d)
    assert Where('"x-wing" not in techniques')(d)
    assert Where("se > 8")(d)  # an input column, compared as a number
    assert Where("givens == 41")(d)
    assert not Where("message != null")(d)
    assert not Where("level < 5 or (score < 100 and rating = 'expert')")(d)
    for bad in ("rating ==", "level >> 3", "__import__('os')", "(level > 3", "'a' 'b'"):
        with pytest.raises(WhereError):
            Where(bad)(d)
    with pytest.raises(WhereError, match="unknown field"):
        Where("colour == 'red'")(d)


def test_where_min_level_sort_and_top(serial60: list[dict], medium60: Path) -> None:
    p = run_grade(medium60, output_format="jsonl", jobs=1, where='rating == "medium"', min_level=3)
    want = [r for r in serial60 if r["rating"] == "medium" and r["level"] >= 3]
    assert without_seconds(jsonl(p.stdout)) == without_seconds(want) and want
    p = run_grade(medium60, output_format="jsonl", jobs=1, max_level=2)
    assert [r["index"] for r in jsonl(p.stdout)] == [r["index"] for r in serial60
                                                     if r["level"] <= 2]
    p = run_grade(medium60, output_format="jsonl", jobs=1, sort="score", top=5)
    best = sorted(serial60, key=lambda r: (-r["score"], r["index"]))[:5]
    assert [r["index"] for r in jsonl(p.stdout)] == [r["index"] for r in best]


def test_sort_with_output_sorts_the_file_at_the_end(serial60, medium60, tmp_path) -> None:
    out = tmp_path / "hard.jsonl"
    p = run_grade(medium60, output=out, sort="level", jobs=2)
    assert p.returncode == 0, p.stderr
    rows = jsonl(out.read_text())
    assert [r["index"] for r in rows] == [r["index"] for r in sorted(
        serial60, key=lambda r: (-r["level"], r["index"]))]


def test_keep_columns_from_csv(tmp_path: Path) -> None:
    p = run_grade(BULK / "rated.csv", output_format="jsonl", keep_columns=True,
                  where="se_rating >= 2.5")
    rows = jsonl(p.stdout)
    assert len(rows) == 6
    assert rows[0]["id"] == "003edf964711" and rows[0]["se_rating"] == "2.5"
    out = tmp_path / "k.csv"
    run_grade(BULK / "rated.csv", output=out, keep_columns=True)
    with out.open() as fh:
        header = next(csv.reader(fh))
    assert header[-2:] == ["id", "se_rating"]


def test_summary_only_and_plot(medium60: Path, serial60: list[dict], tmp_path: Path) -> None:
    png = tmp_path / "h.png"
    p = run_grade(medium60, summary_only=True, plot=png)
    assert p.returncode == 0, p.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    s = p.stdout
    assert "60 grids" in s and "grids/s" in s
    assert "ratings" in s and "levels" in s and "slowest grids" in s
    assert "techniques (grids needing each)" in s
    n_easy = sum(1 for r in serial60 if r["rating"] == "easy")
    line = next(ln for ln in s.splitlines() if ln.startswith("easy "))
    assert line.split()[1] == str(n_easy) and "█" in line
    assert '"index"' not in s  # no results, only the summary


def test_read_output_roundtrips_csv(tmp_path: Path) -> None:
    out = tmp_path / "m.csv"
    run_grade(BULK / "mixed.txt", output=out)
    rows = list(read_output(out))
    assert [r["verdict"] for r in rows][:3] == ["ok", "malformed", "contradiction"]
    assert isinstance(rows[0]["techniques"], dict) and rows[0]["level"] >= 1
