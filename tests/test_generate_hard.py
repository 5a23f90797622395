"""The hard search: level 14, nested trials, score ranges and ``--like``:
grids re-grade as requested, keep apart, reproduce; impossible requests are
refused at once, with why."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from grader.cli.generate import generate_command
from grader.formats import iter_source
from grader.generator import TargetError, generate, parse_targets
from grader.generator.diverse import DISTANCE, NearIndex, bundled, distance
from grader.generator.targets import narrow, parse_depth, parse_score
from grader.kernel import c as native
from grader.kernel import solve
from grader.strategy.grading import Grader
from grader.strategy.hierarchy import default_hierarchy

H = default_hierarchy()
GRADER = Grader(H)
LIKE_FILE = Path(__file__).parent / "data" / "level14-like.txt"
LIKE = [r.grid.values for r in iter_source(str(LIKE_FILE)) if r.grid is not None]
APP = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
APP.command()(generate_command)


def gen(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(APP, list(args), env={"COLUMNS": "250"})
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r.exit_code, r.stdout, r.stderr


def regrade(values: tuple[int, ...]) -> object:
    grid = next(iter_source("".join(str(v) if v else "." for v in values))).grid
    assert grid is not None
    assert solve(grid.geo, grid.values, 2).count == 1
    return GRADER.grade_grid(grid)


def test_like_level_14_regrades_keeps_apart_and_reproduces() -> None:
    made = generate(level=14, count=3, seed=1, like=LIKE, timeout=300)
    assert len(made) == 3
    for g in made:
        r = regrade(g.puzzle)
        assert r.verdict == "ok" and r.level == 14  # type: ignore[attr-defined]
        assert r.score == g.result.score  # type: ignore[attr-defined]
        assert distance(g.puzzle, LIKE[0]) >= DISTANCE
        assert not bundled(81).near(g.puzzle)
    for a, b in itertools.combinations(made, 2):
        assert distance(a.puzzle, b.puzzle) >= DISTANCE
    again = generate(level=14, count=3, seed=1, like=LIKE, timeout=300)
    assert [g.puzzle for g in again] == [g.puzzle for g in made]
    other = generate(level=14, count=1, seed=2, like=LIKE, timeout=300)
    assert other[0].puzzle != made[0].puzzle


@pytest.mark.slow
def test_like_with_jobs_gives_the_serial_grids() -> None:
    serial = generate(level=14, count=5, seed=4, like=LIKE, timeout=300)
    parallel = generate(level=14, count=5, seed=4, like=LIKE, jobs=2, timeout=300)
    assert [g.puzzle for g in parallel] == [g.puzzle for g in serial]


@pytest.mark.slow
def test_level_14_from_nothing() -> None:
    made = generate(level=14, count=2, seed=3, timeout=600)
    assert len(made) == 2
    for g in made:
        assert regrade(g.puzzle).level == 14  # type: ignore[attr-defined]
    assert distance(made[0].puzzle, made[1].puzzle) >= DISTANCE


def test_score_range_at_the_top_with_like() -> None:
    made = generate(level=14, score="148..150", count=1, seed=5, like=LIKE, timeout=300)
    assert len(made) == 1
    r = regrade(made[0].puzzle)
    assert r.level == 14 and 148 <= r.score <= 150  # type: ignore[attr-defined]


def test_depth_and_score_narrow_the_band() -> None:
    expert = parse_targets("expert", None, H)[0]
    t = narrow(expert, H, parse_depth("2", H), None)
    assert (t.lo, t.hi, t.depth) == (13, 14, (2, 2)) and "depth 2" in t.label
    t = narrow(parse_targets(None, None, H)[0], H, None, parse_score("141..145"))
    assert (t.lo, t.hi) == (14, 14)
    t = narrow(parse_targets(None, None, H)[0], H, parse_depth("0", H), None)
    assert (t.lo, t.hi) == (1, 12)
    assert parse_depth("2..", H) == (2, 6)
    assert parse_score("..135") == (0.0, 135.0)
    for bad in ("x", "3..2", "7"):
        with pytest.raises(TargetError):
            parse_depth(bad, H)
    for bad in ("a..b", "150..130", "-5..3"):
        with pytest.raises(TargetError):
            parse_score(bad)


def test_depth_and_score_filters_on_ordinary_requests() -> None:
    g, = generate(level=13, depth=1, count=1, seed=6)
    assert g.result.level == 13 and g.result.depth == 1
    g, = generate("medium", score="30..34.5", count=1, seed=6)
    r = regrade(g.puzzle)
    assert 30 <= r.score <= 34.5 and r.rating == "medium"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("args", "words"), [
    (["--min-givens", "80", "--rating", "expert"], "single position"),
    (["--min-givens", "77", "--level", "2"], "at most 4 empty cells"),
    (["--size", "4", "--rating", "expert"], "every 4x4 grid"),
    (["--size", "4", "--level", "2"], "every 4x4 grid"),
    (["--score", "150..130"], "is empty"),
    (["--rating", "expert", "--score", "20..25"], "no grid of expert"),
    (["--rating", "easy", "--depth", "2"], "no grid of easy"),
    (["--depth", "9"], "at most to depth 6"),
    (["--level", "13,14", "--depth", "2"], "one rating or level at a time"),
])
def test_impossible_requests_are_refused_at_once(args: list[str], words: str) -> None:
    code, out, errtext = gen(*args, "--seed", "1")
    assert code == 2
    assert out == ""
    assert words in errtext
    assert "Traceback" not in errtext


def test_like_file_errors_name_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "two.txt"
    bad.write_text("# mine\n" + "." * 81 + "\n")
    code, _, errtext = gen("--like", str(bad), "--level", "14")
    assert code == 2 and f"{bad}:2:" in errtext and "several solutions" in errtext
    code, _, errtext = gen("--like", str(tmp_path / "missing.txt"), "--level", "14")
    assert code == 2 and "missing.txt" in errtext
    small = tmp_path / "small.txt"
    small.write_text("1234341221434321\n")
    code, _, errtext = gen("--like", str(small), "--level", "14")
    assert code == 2 and "--size 4" in errtext


def test_cli_like_level_14_and_timeout() -> None:
    code, out, errtext = gen("--like", str(LIKE_FILE), "--level", "14", "-n", "2",
                             "--seed", "1", "--timeout", "300")
    assert code == 0, errtext
    lines = out.splitlines()
    assert len(lines) == 2 and all("level 14" in ln for ln in lines)
    # a bound that cannot be met: the run stops, says so and exits 1
    code, out, errtext = gen("--depth", "3", "--rating", "expert", "-n", "1",
                             "--seed", "1", "--timeout", "2")
    assert code == 1 and "timeout" in errtext


def test_near_index_is_exact() -> None:
    base = list(LIKE[0])
    idx = NearIndex(81)
    idx.add(base)
    empties = [c for c, v in enumerate(base) if not v]
    for k in range(12):
        other = base[:]
        for c in empties[:k]:
            other[c] = 9
        assert idx.near(other) == (k < DISTANCE)
        assert distance(other, base) == k
    # the project's own grids are in the bundled index
    mixed = Path(__file__).parent.parent / "puzzles" / "generated-mixed-9x9.txt"
    rec = next(iter_source(str(mixed)))
    assert rec.grid is not None and bundled(81).near(rec.grid.values)


def test_progress_shows_grids_found_and_moves_per_second(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    out = tmp_path / "grids.txt"
    args = ["-m", "grader", "generate", "--like", str(LIKE_FILE), "--level", "14", "-n", "3",
            "--seed", "1", "-o", str(out)]
    child = pexpect.spawn(sys.executable, args, encoding="utf-8", timeout=300,
                          dimensions=(24, 160))
    child.expect(r"\d+ hard grids found, [\d,]+ moves/s")  # on a terminal only
    child.expect(r"3 of 3 grids")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert len(out.read_text().splitlines()) == 3
    # --quiet: nothing on standard error, even on a terminal
    child = pexpect.spawn(sys.executable, [*args[:-2], "-q"], encoding="utf-8", timeout=300,
                          dimensions=(24, 160))
    child.expect(pexpect.EOF)
    child.close()
    assert "hard grids found" not in (child.before or "")
    assert child.exitstatus == 0


@pytest.mark.slow
def test_the_accelerator_does_not_change_the_hard_search() -> None:
    fast = generate(level=14, count=1, seed=1, like=LIKE, timeout=600)
    native.set_enabled(False)
    try:  # about two minutes in pure Python
        pure = generate(level=14, count=1, seed=1, like=LIKE, timeout=600)
    finally:
        native.set_enabled(True)
    assert [g.puzzle for g in pure] == [g.puzzle for g in fast]
    assert [g.result.score for g in pure] == [g.result.score for g in fast]


def test_like_explores_for_any_rating() -> None:
    mixed = Path(__file__).parent.parent / "puzzles" / "generated-mixed-9x9.txt"
    mine = [r.grid.values for r in itertools.islice(iter_source(str(mixed)), 3)
            if r.grid is not None]
    made = generate("difficult", count=3, seed=2, like=mine, timeout=300)
    assert len(made) == 3
    for g in made:
        assert regrade(g.puzzle).rating == "difficult"  # type: ignore[attr-defined]
        assert all(distance(g.puzzle, m) >= DISTANCE for m in mine)
    for a, b in itertools.combinations(made, 2):
        assert distance(a.puzzle, b.puzzle) >= DISTANCE


def test_the_depth_1_bottleneck_is_0_exactly_when_trials_nest() -> None:
    """benchmarks/nested_basin.py (the study of issue 15's depth 2): the
    rounds of depth-1 reductio reach the fixpoint of every depth-1 rule, so
    a bottleneck of 0 is what the grader's depth 2 means."""
    import importlib.util

    path = Path(__file__).parent.parent / "benchmarks" / "nested_basin.py"
    spec = importlib.util.spec_from_file_location("nested_basin", path)
    assert spec is not None and spec.loader is not None
    basin = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(basin)
    cl = basin.climber()
    nested = "..3......4...8..36..83..1...4..6..73...9...1......2.....4.7..686........7.....5.."
    for text in (nested, "".join(str(v) if v else "." for v in LIKE[0])):
        values = [int(ch) if ch != "." else 0 for ch in text]
        res = solve(cl.geo, values, 2)
        assert res.count == 1 and res.solution is not None
        _, tier, bneck, counts = basin.profile(cl, values, res.solution)
        r = regrade(tuple(values))
        assert tier == 0 and r.level == 14  # type: ignore[attr-defined]
        assert (bneck == 0) == (r.depth == 2) == cl.stuck(values, res.solution)  # type: ignore[attr-defined]
        assert bneck == min(counts)
