"""The generator's API: every grid unique, in the band it was asked for, by
our own grader; seeds reproduce; symmetry, minimality and givens bounds hold."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from grader.core.board import Board
from grader.core.geometry import geometry
from grader.formats import Grid
from grader.generator import (
    Generated,
    GenerationError,
    Generator,
    Settings,
    Target,
    TargetError,
    generate,
    is_symmetric,
    orbits,
    parse_targets,
    rating_bands,
    task_rng,
)
from grader.generator.fast import Closures
from grader.generator.search import ABOVE, BELOW, IN
from grader.kernel import c as native
from grader.kernel import solve
from grader.strategy.engine import Engine
from grader.strategy.grading import Grader
from grader.strategy.hierarchy import default_hierarchy

H = default_hierarchy()
GRADER = Grader(H)
CLOSURES = Closures(Engine(H))
RATINGS = [t.label for t in rating_bands(H)]


def check_grid(g: Generated, target: Target) -> None:
    """Exactly one solution, the one reported, and a fresh grade in the band."""
    geo = g.geo
    res = solve(geo, g.puzzle, 3)
    assert res.count == 1
    assert res.solution == g.solution
    assert all(p in (0, s) for p, s in zip(g.puzzle, g.solution, strict=True))
    again = GRADER.grade_grid(Grid(geo, g.puzzle))
    assert again.verdict == "ok"
    assert target.contains(again.level), (again.level, target)
    assert again.rating == g.result.rating and again.level == g.result.level
    assert again.score == g.result.score


def test_rating_bands_are_the_books() -> None:
    assert RATINGS == ["very easy", "easy", "medium", "difficult", "very difficult", "expert"]
    assert [(t.lo, t.hi) for t in rating_bands(H)] == [(1, 1), (2, 2), (3, 4), (5, 8),
                                                         (9, 12), (13, 14)]


@pytest.mark.parametrize("rating", RATINGS)
def test_every_rating_with_central_symmetry(rating: str) -> None:
    made = generate(rating, count=2, symmetry="central", seed=11)
    assert len(made) == 2
    target = parse_targets(rating, None, H)[0]
    for g in made:
        check_grid(g, target)
        assert g.result.rating == rating
        assert is_symmetric(g.geo, g.puzzle, "central")
        # the fast assessment agreed with the full grade every time
        assert g.stats.rejected == 0
    assert made[0].puzzle != made[1].puzzle


@pytest.mark.parametrize("method", ["top-down", "bottom-up", "guided"])
@pytest.mark.parametrize("rating", ["very easy", "medium", "expert"])
def test_every_method(method: str, rating: str) -> None:
    g, = generate(rating, count=1, method=method, seed=3)
    check_grid(g, parse_targets(rating, None, H)[0])


def test_levels_and_ranges() -> None:
    made = generate(level="5", count=2, seed=2, symmetry="mirror")
    assert [g.result.level for g in made] == [5, 5]
    for g in made:
        assert is_symmetric(g.geo, g.puzzle, "mirror")
    made = generate(level="3-4,13", count=4, seed=2, symmetry="diagonal")
    assert [g.result.level in (3, 4) for g in made] == [True, False, True, False]
    assert [g.result.rating for g in made][1::2] == ["expert", "expert"]
    for g in made:
        assert is_symmetric(g.geo, g.puzzle, "diagonal")
        check_grid(g, g.target)
    made = generate("easy..medium", count=2, seed=4)
    assert all(2 <= g.result.level <= 4 for g in made)


def test_same_seed_same_grids_and_prefixes() -> None:
    a = generate("difficult", count=3, seed=7, symmetry="central")
    b = generate("difficult", count=3, seed=7, symmetry="central")
    assert [g.puzzle for g in a] == [g.puzzle for g in b]
    assert [g.result.score for g in a] == [g.result.score for g in b]
    # grid i depends only on (seed, i): a shorter run is a prefix
    c = generate("difficult", count=2, seed=7, symmetry="central")
    assert [g.puzzle for g in c] == [g.puzzle for g in a[:2]]
    d = generate("difficult", count=3, seed=8, symmetry="central")
    assert [g.puzzle for g in d] != [g.puzzle for g in a]
    # seeds may be strings too
    e = generate("easy", count=1, seed="daily-2026-01-01")
    f = generate("easy", count=1, seed="daily-2026-01-01")
    assert e[0].puzzle == f[0].puzzle


def test_the_accelerator_does_not_change_the_grids() -> None:
    fast = generate("difficult", count=2, seed=5, symmetry="central")
    native.set_enabled(False)
    try:
        pure = generate("difficult", count=2, seed=5, symmetry="central")
    finally:
        native.set_enabled(True)
    assert [g.puzzle for g in fast] == [g.puzzle for g in pure]
    assert [g.result.score for g in fast] == [g.result.score for g in pure]


def test_jobs_give_the_serial_grids() -> None:
    serial = generate("medium", count=3, seed=21)
    parallel = generate("medium", count=3, seed=21, jobs=2)
    assert [g.puzzle for g in serial] == [g.puzzle for g in parallel]


def removable(geo_values: tuple[int, ...], g: Generated) -> list[int]:
    out = []
    for c, v in enumerate(g.puzzle):
        if v:
            fewer = list(g.puzzle)
            fewer[c] = 0
            if solve(g.geo, fewer, 2).count == 1:
                out.append(c)
    return out


@pytest.mark.parametrize("symmetry", ["none", "central"])
def test_minimal_grids_lose_uniqueness_without_any_given(symmetry: str) -> None:
    made = generate("easy", count=2, minimal=True, symmetry=symmetry, seed=9)
    for g in made:
        check_grid(g, g.target)
        assert removable(g.puzzle, g) == []
        assert is_symmetric(g.geo, g.puzzle, symmetry)


def test_grids_are_not_minimal_unless_asked() -> None:
    """Without --minimal, bottom-up grids keep givens that could go (so the
    test above is not trivially true); with it they do not."""
    made = generate("easy", count=2, seed=1, method="bottom-up")
    assert all(removable(g.puzzle, g) for g in made)
    made = generate("easy", count=2, seed=1, method="bottom-up", minimal=True)
    assert not any(removable(g.puzzle, g) for g in made)


def test_givens_bounds() -> None:
    for g in generate("expert", count=2, min_givens=30, seed=6):
        assert g.givens >= 30
        check_grid(g, g.target)
    for g in generate("easy", count=2, max_givens=24, seed=6):
        assert g.givens <= 24
        check_grid(g, g.target)


@pytest.mark.parametrize(("size", "box", "rating"), [
    (4, None, "very easy"), (6, None, "easy"), (6, (3, 2), "very easy"), (8, None, "medium"),
    (12, None, "difficult"), (16, None, "easy"),
])
def test_other_sizes(size: int, box: tuple[int, int] | None, rating: str) -> None:
    g, = generate(rating, count=1, size=size, box=box, seed=1, symmetry="central")
    assert g.geo.n == size
    if box is not None:
        assert (g.geo.a, g.geo.b) == box
    check_grid(g, parse_targets(rating, None, H)[0])
    assert is_symmetric(g.geo, g.puzzle, "central")


def test_timeout_gives_up_cleanly() -> None:
    # every 4x4 grid is very easy: an easy one never comes
    gen = Generator(Settings(2, 2))
    target = parse_targets("easy", None, H)[0]
    import time

    assert gen.generate(target, task_rng(1, 1), deadline=time.time() + 0.3) is None
    # generate() refuses it at once, saying why
    with pytest.raises(TargetError, match="every 4x4 grid"):
        generate("easy", size=4, count=2, timeout=0.3)
    # a request that is only (very) rare: the timeout keeps nothing
    assert generate("expert", count=2, min_givens=70, timeout=0.3) == []


def test_orbits_partition_the_cells() -> None:
    for a, b in ((2, 2), (2, 3), (3, 3), (3, 4)):
        geo = geometry(a, b)
        for sym in ("none", "central", "diagonal", "mirror"):
            orb = orbits(geo, sym)
            cells = sorted(c for o in orb for c in o)
            assert cells == list(range(geo.ncells))
            assert all(1 <= len(o) <= 2 for o in orb)
    geo = geometry(3, 3)
    assert (0, 80) in orbits(geo, "central") and (40,) in orbits(geo, "central")
    assert (1, 9) in orbits(geo, "diagonal") and (0, 8) in orbits(geo, "mirror")


def test_targets_parse_and_reject() -> None:
    assert parse_targets(None, None, H) == [Target(1, 14, "any")]
    assert parse_targets("Very-Difficult", None, H) == [Target(9, 12, "very difficult")]
    assert parse_targets("very_easy", None, H)[0].label == "very easy"
    assert [t.label for t in parse_targets("all", None, H)] == RATINGS
    assert parse_targets("medium..difficult", None, H) == [Target(3, 8, "medium..difficult")]
    assert parse_targets(None, "5..8", H) == [Target(5, 8, "levels 5-8")]
    assert parse_targets(None, "9", H) == [Target(9, 9, "level 9")]
    for rating, level, words in [
        ("hard", None, "unknown rating 'hard'"),
        ("expert..easy", None, "is empty"),
        (None, "15", "no rule has level 15"),
        (None, "x", "not a number"),
        (None, "8-5", "is empty"),
        ("easy", "3", "not both"),
        ("solved", None, "unknown rating"),
    ]:
        with pytest.raises(TargetError, match=words):
            parse_targets(rating, level, H)


def test_settings_reject_what_cannot_work() -> None:
    for settings, words in [
        (Settings(symmetry="spiral"), "unknown symmetry"),
        (Settings(method="sideways"), "unknown method"),
        (Settings(min_givens=40, max_givens=30), "more than"),
        (Settings(max_givens=5), "at least 17 givens"),
        (Settings(2, 3, max_givens=4), "at least 5 givens"),
        (Settings(min_givens=81), "already solved"),
        (Settings(min_givens=82), "outside 0..81"),
    ]:
        with pytest.raises(GenerationError, match=words):
            settings.check()


# -- the shortcuts the generator grades with are exact ----------------------
def sample_grids(count: int, seed: int) -> list[tuple[int, ...]]:
    gen = Generator(Settings(3, 3))
    rng = random.Random(seed)
    out = []
    anyt = Target(1, 14, "any")
    for _ in range(count):
        sol = gen.random_solution(rng)
        out.append(tuple(gen.descend(list(sol), anyt, rng)))
    return out


def test_levels_from_fixpoints_equal_the_engines() -> None:
    engine = Engine(H)
    closures = Closures(engine)
    geo = geometry(3, 3)
    seen = set()
    for values in sample_grids(40, 5):
        trace = engine.solve(Board.from_values(geo, values), max_level=12)
        level = trace.level if trace.solved else 13
        fast = closures.level(geo, values, 1, 12) or 13
        assert fast == level
        lv, closure, _ = closures.singles(geo, values)
        if level <= 2:
            assert lv == level
        else:
            assert lv == 3
            # grading the closure of the singles gives the same level
            again = engine.solve(Board.from_values(geo, closure), max_level=12)
            assert (again.level if again.solved else 13) == level
        seen.add(min(level, 13))
    assert {1, 2, 13} <= seen  # the sample covers easy and expert grids


def test_assess_classifies_like_the_grader() -> None:
    gen = Generator(Settings(3, 3))
    geo = gen.geo
    for values in sample_grids(25, 8):
        level = GRADER.grade_grid(Grid(geo, values)).level
        assert level is not None
        for t in rating_bands(H):
            status, _ = gen.assess(list(values), t)
            want = IN if t.contains(level) else BELOW if level < t.lo else ABOVE
            assert status == want, (level, t)
    # a grid with two solutions is never in a band
    values = list(sample_grids(1, 3)[0])
    values[values.index(next(v for v in values if v))] = 0
    while solve(geo, values, 2).count == 1:
        values[next(i for i, v in enumerate(values) if v)] = 0
    for t in rating_bands(H):
        assert gen.assess(values, t)[0] != IN


def test_from_values_gives_each_cell_what_its_peers_leave() -> None:
    rng = random.Random(4)
    for a, b in ((2, 2), (2, 3), (3, 3), (4, 4)):
        gen = Generator(Settings(a, b))
        sol = gen.random_solution(rng)
        values = [v if rng.random() < 0.4 else 0 for v in sol]
        board = Board.from_values(gen.geo, values)
        for c, v in enumerate(values):
            seen = {values[p] for p in gen.geo.peers[c]}
            want = 0 if v else sum(1 << (w - 1) for w in range(1, gen.geo.n + 1)
                                   if w not in seen)
            assert board.cands[c] == want


def test_random_solutions_are_valid_and_varied() -> None:
    for a, b in ((2, 2), (2, 3), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5)):
        gen = Generator(Settings(a, b))
        rng = random.Random(1)
        sols = {gen.random_solution(rng) for _ in range(3)}
        assert len(sols) == 3
        for sol in sols:
            assert Board.from_values(gen.geo, sol).conflicts() is None
            assert all(sol)


# -- the generated samples in puzzles/ ----------------------------------------
SAMPLES = {
    "generated-mixed-9x9.txt": dict(rating="all", count=24, size=9),
    "sizes-4x4.txt": dict(rating=None, count=4, size=4),
    "sizes-6x6.txt": dict(rating="all", count=6, size=6),
    "sizes-8x8.txt": dict(rating="all", count=6, size=8),
    "sizes-12x12.txt": dict(rating="all", count=6, size=12),
    "sizes-16x16.txt": dict(rating="all", count=6, size=16),
    "sizes-25x25.txt": dict(rating="all", count=6, size=25),
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_generated_samples_are_unique_and_rated_as_their_comment_says(name: str) -> None:
    from conftest import PUZZLES

    from grader.formats import iter_source

    path = PUZZLES / name
    if not path.exists():
        pytest.skip(f"{name} is not there")
    recs = list(iter_source(str(path)))
    assert recs and all(rec.grid is not None for rec in recs)
    for rec in recs:
        grid = rec.grid
        assert grid is not None and grid.size == SAMPLES[name]["size"]
        assert is_symmetric(grid.geo, grid.values, "central")
        if grid.size <= 16:
            r = GRADER.grade_grid(grid)
            assert r.verdict == "ok"
            comment = rec.extra["rest"].split("#", 1)[1].strip()
            assert comment.startswith(f"{r.rating}, level {r.level} ")
        else:
            # 25x25: grading them takes seconds each, and the exact solver
            # can search for minutes on a grid the rules solve in a blink:
            # one solution, by the solver or by the rules (which are sound)
            res = solve(grid.geo, grid.values, 2, max_nodes=20_000)
            if res.nodes <= 20_000:
                assert res.count == 1
            else:
                assert CLOSURES.run(grid.geo, grid.values, 12)[0]


@pytest.mark.parametrize("name", ["generated-mixed-9x9.txt", "sizes-8x8.txt"])
def test_generated_samples_come_from_their_command(name: str) -> None:
    """puzzles/README.md gives the command that made each file; it still
    makes the same grids (if the grader's levels change, regenerate them)."""
    from conftest import PUZZLES

    from grader.formats import iter_source

    spec = SAMPLES[name]
    made = generate(spec["rating"], count=spec["count"], size=spec["size"], seed=2026,
                    symmetry="central")
    got = [rec.grid.normalised() for rec in iter_source(str(PUZZLES / name)) if rec.grid]
    assert [g.result.puzzle for g in made] == got


def test_uniqueness_by_refutation_agrees_with_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """Big grids prove an erasure keeps the solution unique by refuting the
    other values of the erased cells; on 9x9 (forced here) it must say what
    the exact solver says."""
    from grader.generator import oracle

    monkeypatch.setattr(oracle, "CAPPED_FROM_SIDE", 9)
    gen = Generator(Settings(3, 3, symmetry="central"))
    rng = random.Random(12)
    answers = set()
    for values in sample_grids(6, 12):
        sol = solve(gen.geo, values, 1).solution
        assert sol is not None
        for orbit in orbits(gen.geo, "central"):
            if not values[orbit[0]]:
                # put one orbit back: a unique grid, then erase another one
                fuller = list(values)
                for c in orbit:
                    fuller[c] = sol[c]
                others = [o for o in orbits(gen.geo, "central") if fuller[o[0]] and o != orbit]
                other = others[rng.randrange(len(others))]
                fewer = fuller[:]
                for c in other:
                    fewer[c] = 0
                want = solve(gen.geo, fewer, 2).count == 1
                assert gen._unique_without(fewer, other, sol) == want
                answers.add(want)
    assert answers == {True, False}


def test_your_own_hierarchy(tmp_path: Path) -> None:
    """Without single candidate the shortcut for levels 1-2 is off and every
    level comes from fixpoints of the table's own rules (in Python: the
    accelerator needs both singles); the grids re-grade with that table."""
    from grader.strategy.hierarchy import load_hierarchy

    path = tmp_path / "h.toml"
    path.write_text('extends = "default"\n[[rules]]\ncode = "single-candidate"\nremove = true\n')
    h = load_hierarchy(path)
    gen = Generator(Settings(3, 3, hierarchy=h))
    assert gen.base == 1
    own = Grader(h)
    for rating in ("very easy", "medium", "difficult", "expert"):
        target = parse_targets(rating, None, h)[0]
        g = gen.generate(target, task_rng(3, 1, rating))
        assert g is not None and g.stats.rejected == 0
        again = own.grade_grid(Grid(gen.geo, g.puzzle))
        assert again.rating == rating and "single-candidate" not in again.techniques
