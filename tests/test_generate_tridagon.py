"""Nested trials from nothing: starts built around an anti-tridagon
(grader/generator/tridagon.py) and ``generate --rating expert --depth 2``."""

from __future__ import annotations

import random

import pytest
import typer
from typer.testing import CliRunner

from grader.cli.generate import generate_command
from grader.formats import iter_source
from grader.generator import Generator, Settings, generate, is_symmetric, tridagon
from grader.generator.climb import Climber
from grader.generator.diverse import bundled
from grader.generator.targets import Target, narrow, parse_score
from grader.kernel import solve
from grader.strategy.grading import Grader
from grader.strategy.hierarchy import default_hierarchy

GRADER = Grader(default_hierarchy())
APP = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
APP.command()(generate_command)


def regrade(values: tuple[int, ...]) -> object:
    grid = next(iter_source("".join(str(v) if v else "." for v in values))).grid
    assert grid is not None
    assert solve(grid.geo, grid.values, 2).count == 1
    return GRADER.grade_grid(grid)


@pytest.mark.parametrize("seed", range(20))
def test_an_anti_tridagon_cannot_hold_its_three_digits(seed: int) -> None:
    rng = random.Random(seed)
    pat = tridagon.random_pattern(rng)
    assert len(set(pat.cells)) == 12 and len(set(pat.digits)) == 3
    boxes = {(c // 27, c % 9 // 3) for c in pat.cells}
    assert len(boxes) == 4 and len({b for b, _ in boxes}) == len({s for _, s in boxes}) == 2
    for line in (lambda c: c // 9, lambda c: c % 9):
        counts = [sum(1 for c in pat.cells if line(c) == k) for k in range(9)]
        assert sorted(counts, reverse=True)[:6] == [2] * 6 and sum(counts) == 12
    # no filling with a, b, c; eleven of the cells can
    assert tridagon._fill(pat.cells, pat.digits, rng, {}) is None
    assert tridagon._fill(pat.cells[1:], pat.digits, rng, {}) is not None


def test_starts_keep_the_pattern_empty_and_have_one_solution() -> None:
    gen = Generator(Settings())
    for seed in range(5):
        solution, pat, guardian = tridagon.seeded_solution(gen, random.Random(seed))
        assert sorted(solution[c] in pat.digits for c in pat.cells) == [False] + [True] * 11
        assert solution[guardian] not in pat.digits
        values, sol = tridagon.start(gen, random.Random(seed))
        assert solve(gen.geo, values, 2).count == 1 and sol == solve(gen.geo, values, 1).solution
        assert gen.is_minimal(values)
    sym = Generator(Settings(symmetry="central"))
    values, _ = tridagon.start(sym, random.Random(1))
    assert is_symmetric(sym.geo, values, "central")


def test_depth_2_from_nothing_regrades_and_reproduces() -> None:
    made = generate("expert", depth=2, count=1, seed=5, timeout=300)
    assert len(made) == 1
    g = made[0]
    r = regrade(g.puzzle)
    # expert (13 or 14: the canonical level of a grid whose trials nest), as asked
    assert r.level == g.result.level and r.level in (13, 14)  # type: ignore[attr-defined]
    assert r.depth == 2 and r.rating == "expert"  # type: ignore[attr-defined]
    assert not bundled(81).near(g.puzzle)
    again = generate("expert", depth=2, count=1, seed=5, timeout=300)
    assert again[0].puzzle == g.puzzle


def test_cli_depth_2() -> None:
    r = CliRunner().invoke(APP, ["--rating", "expert", "--depth", "2", "-n", "1", "--seed", "5",
                                 "--timeout", "300"], env={"COLUMNS": "250"})
    assert r.exit_code == 0, r.stderr
    line, = r.stdout.splitlines()
    assert "trials nested to depth 2" in line


def test_level_14_and_its_score_ranges_start_from_anti_tridagons() -> None:
    # the starts of every 9x9 request at level 14; the user's grids with --like
    # and other sizes keep theirs
    h = default_hierarchy()
    level14 = Target(14, 14, "level 14")
    assert Climber(Generator(Settings(3, 3)), level14).seeded
    top = narrow(level14, h, None, parse_score("146..148"))
    assert Climber(Generator(Settings(3, 3)), top).seeded
    like = Settings(3, 3, like=(tuple(0 for _ in range(81)),))
    assert not Climber(Generator(like), level14).seeded
    assert not Climber(Generator(Settings(2, 3)), level14).seeded


@pytest.mark.parametrize("seed", [1, 2])
def test_level_14_from_nothing_regrades_apart_and_reproduces(seed: int) -> None:
    made = generate(level=14, count=3, seed=seed, timeout=300)
    assert len(made) == 3
    for g in made:
        r = regrade(g.puzzle)
        assert r.level == 14 and r.rating == "expert"  # type: ignore[attr-defined]
        assert not bundled(81).near(g.puzzle)
    assert all(sum(x != y for x, y in zip(a.puzzle, b.puzzle, strict=True)) >= 10
               for i, a in enumerate(made) for b in made[:i])
    assert [g.puzzle for g in generate(level=14, count=3, seed=seed, timeout=300)] == [
        g.puzzle for g in made]
