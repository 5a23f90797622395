"""``generate --se`` (issue 41): grids in a band of Sudoku Explainer's ratings,
with the other options, the same grids for the same seed, and clear refusals
of bands that no grid can have.  (Whether the band holds by Sudoku Explainer's
own serate is measured by ``python -m benchmarks generate_se --serate JAR``;
the tests need no Java.)"""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

import grader
from grader.cli.generate import generate_command
from grader.core.geometry import geometry_for_size
from grader.formats import parse_grid_token
from grader.generator import Generator, Settings, is_symmetric
from grader.generator.targets import Target, TargetError, narrow_se, parse_se
from grader.strategy.grading import Grader

APP = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
APP.command()(generate_command)
GRADER = Grader()
GEO = geometry_for_size(9)


def gen(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(APP, list(args), env={"COLUMNS": "250"})
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r.exit_code, r.stdout, r.stderr


def values(puzzle: str) -> list[int]:
    return [0 if ch == "." else int(ch) for ch in puzzle]


@pytest.mark.parametrize("band", ["2.0..4.0", "7..8"])
def test_every_grid_regrades_into_the_band(band: str) -> None:
    lo, hi = parse_se(band)
    code, out, err = gen("--se", band, "-n", "3", "--seed", "11", "-f", "jsonl", "-q")
    assert code == 0, err
    recs = [json.loads(line) for line in out.splitlines()]
    assert len(recs) == 3
    for rec in recs:
        assert lo <= rec["se"] <= hi, rec
        again = GRADER.grade_grid(parse_grid_token(rec["puzzle"]))
        assert again.se == rec["se"] and again.verdict == "ok"


def test_the_line_comment_says_the_rating_asked_for() -> None:
    code, out, err = gen("--se", "4..6", "-n", "2", "--seed", "3", "-q")
    assert code == 0, err
    for line in out.splitlines():
        puzzle, _, note = line.partition("  # ")
        se = GRADER.grade_grid(parse_grid_token(puzzle)).se
        assert se is not None and 4.0 <= se <= 6.0
        assert f", SE {se:.1f}, " in note


def test_the_same_seed_gives_the_same_grids() -> None:
    a = gen("--se", "6..8", "-n", "2", "--seed", "5", "-q")
    b = gen("--se", "6..8", "-n", "2", "--seed", "5", "-q", "-j", "2")
    assert a[0] == b[0] == 0 and a[1] == b[1] and len(a[1].splitlines()) == 2


def test_with_symmetry_minimal_and_a_rating() -> None:
    made = grader.generate(se="4..7", rating="expert", number=1, seed=9, symmetry="central",
                           minimal=True, jobs=1)
    check = Generator(Settings(symmetry="central"))
    for g in made:
        assert g.rating == "expert" and g.se is not None and 4.0 <= g.se <= 7.0
        v = values(g.puzzle)
        assert is_symmetric(GEO, v, "central") and check.is_minimal(v)


@pytest.mark.parametrize(("args", "says"), [
    (["--se", "12.5"], "ratings run from 1 (a full house) to under 12"),
    (["--se", "1.3..1.4"], "the nearest are 1.2 and 1.5"),
    (["--se", "9..8"], "is empty"),
    (["--se", "abc"], "expected numbers"),
    (["--se", "6..7", "--ep", "8.."], "EP is at most its ER"),
    (["--ep", "5..6", "--ed", "7.."], "ED is at most its EP"),
    (["--se", "5..6", "--size", "4"], "9x9 grids only"),
])
def test_a_band_no_grid_can_have_is_a_usage_error(args: list[str], says: str) -> None:
    code, _, err = gen(*args, "-q")
    assert code == 2 and says in " ".join(err.split()), err
    assert "Traceback" not in err


def test_ranges_parse_as_documented() -> None:
    assert parse_se("8.3") == (8.3, 8.3)
    assert parse_se("10..") == (10.0, 12.0)
    assert parse_se("..4") == (1.0, 4.0)
    t = narrow_se(Target(1, 14, "any"), parse_se("9..9.5"), None, None, 9)
    assert t.se == (9.0, 9.5) and t.by_se and "SE" in t.label
    with pytest.raises(TargetError):
        narrow_se(Target(1, 14, "any"), parse_se("3.1"), None, None, 9)
