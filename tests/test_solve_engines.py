"""The four exact engines (native, sat, csp, cp) behind one interface: they
agree with each other and with the book on its grids and on the bundled
collections, count solutions, never claim a solution for a grid without one,
handle every grid size, and serve as the verdict solver of the grader."""

from __future__ import annotations

from itertools import islice

import pytest
from conftest import DATA, PUZZLES, book_calibration, book_figures

from grader.core.geometry import geometry, geometry_for_size
from grader.exact import (
    DEFAULT_ENGINE,
    ENGINES,
    EngineError,
    ExactEngine,
    get_engine,
    given_conflict,
    is_solution,
)
from grader.formats import iter_source, parse_grid_token
from grader.kernel import SolveResult
from grader.strategy.grading import Grader

NAMES = ("native", "sat", "csp", "cp")
#: fig2.1's solution with a deadly rectangle (and 53 more cells) emptied: two solutions
TWO = ".42.7........3.....7....9..5.68.......1..53......41....6...2.1..2..5.7.8..36..5.."


@pytest.fixture(scope="module")
def engines() -> dict[str, ExactEngine]:
    return {name: get_engine(name) for name in NAMES}


def _sym(geo, values) -> str:
    return "".join(geo.symbols[v - 1] for v in values)


def test_registry_names_and_errors() -> None:
    assert tuple(ENGINES) == NAMES
    assert DEFAULT_ENGINE == "native"
    for name in NAMES:
        eng = get_engine(name.upper())
        assert eng.name == name
    with pytest.raises(EngineError, match="unknown engine 'z3'.*native, sat, csp, cp"):
        get_engine("z3")
    with pytest.raises(EngineError, match="unknown SAT solver 'nope'"):
        get_engine("sat", solver="nope")
    with pytest.raises(EngineError, match="unknown encoding"):
        get_engine("sat", encoding="ladder")
    with pytest.raises(EngineError, match="unknown CSP model"):
        get_engine("csp", model="quantum")
    with pytest.raises(EngineError, match="engine 'cp'"):
        get_engine("cp", colour="red")


def _book_grids() -> list[tuple[str, str, str]]:
    out = [(d["name"], d["puzzle"], d["solution"]) for d in book_figures().values()]
    out += [(f"grid {d['id']}", d["puzzle"], d["solution"]) for d in book_calibration()]
    return out


@pytest.mark.parametrize("name", NAMES)
def test_every_engine_finds_the_books_solutions(engines, name: str) -> None:
    eng = engines[name]
    for label, puzzle, solution in _book_grids():
        g = parse_grid_token(puzzle)
        res = eng.solve(g.geo, g.values, limit=2)
        assert res.count == 1, f"{name} on {label}: {res.count} solutions"
        assert _sym(g.geo, res.solution) == solution, f"{name} on {label}"
        assert isinstance(res, SolveResult) and res.complete and res.engine == name


def _collection_sample() -> list:
    grids = []
    for fname, step in (("se-easy-500.txt", 50), ("se-medium-500.txt", 50),
                        ("se-rated-9758.txt", 500)):
        grids += [r.grid for r in islice(iter_source(str(PUZZLES / fname)), 0, None, step)]
    # the hardest end of the rated sample (SE 9.x)
    rated = list(iter_source(str(PUZZLES / "se-rated-9758.txt")))
    grids += [r.grid for r in rated[-8:]]
    return grids


def test_engines_agree_on_the_bundled_collections(engines) -> None:
    grids = _collection_sample()
    assert len(grids) >= 40
    for g in grids:
        answers = {name: eng.solve(g.geo, g.values, limit=2) for name, eng in engines.items()}
        sols = {name: r.solutions for name, r in answers.items()}
        assert len(set(sols.values())) == 1, f"{g.normalised()}: {sols}"
        assert answers["native"].count == 1
        assert is_solution(g.geo, g.values, answers["native"].solution)


@pytest.mark.parametrize("name", NAMES)
def test_count_finds_two_on_a_two_solution_grid(engines, name: str) -> None:
    g = parse_grid_token(TWO)
    res = engines[name].solve(g.geo, g.values, limit=10)
    assert res.count == 2 and res.complete
    a, b = res.solutions
    assert a != b and all(is_solution(g.geo, g.values, s) for s in res.solutions)
    # they differ exactly on a rectangle of four cells
    diff = [c for c in range(81) if a[c] != b[c]]
    assert len(diff) == 4
    assert len({g.geo.cell_row[c] for c in diff}) == 2
    assert len({g.geo.cell_col[c] for c in diff}) == 2
    # limit 1 stops at the first
    assert engines[name].solve(g.geo, g.values, limit=1).count == 1


def _unsolvable_without_conflict() -> str:
    """fig2.1 with one wrong value added where no peer shows it: no given repeats,
    yet no solution (found by the native solver, then asked of every engine)."""
    fig = book_figures()["fig2.1"]
    g = parse_grid_token(fig["puzzle"])
    sol = [int(ch) for ch in fig["solution"]]
    for c, v in enumerate(g.values):
        if v:
            continue
        for w in range(1, 10):
            if w == sol[c] or any(g.values[p] == w for p in g.geo.peers[c]):
                continue
            vals = list(g.values)
            vals[c] = w
            return "".join(str(x) if x else "." for x in vals)
    raise AssertionError("no candidate found")


CONTRADICTIONS = {
    "same value twice in a row": "11" + "." * 79,
    "same value twice in a block": "1........" + ".1......." + "." * 63,
    "a cell without candidates": "12345678." + "........9" + "." * 63,
}


@pytest.mark.parametrize("name", NAMES)
def test_no_engine_claims_a_solution_for_a_contradictory_grid(engines, name: str) -> None:
    eng = engines[name]
    grids = dict(CONTRADICTIONS, wrong_value=_unsolvable_without_conflict())
    for label, text in grids.items():
        g = parse_grid_token(text)
        res = eng.solve(g.geo, g.values, limit=5)
        assert res.count == 0 and res.solutions == () and res.complete, f"{name}: {label}"
    assert given_conflict(geometry(3, 3), parse_grid_token(CONTRADICTIONS[
        "same value twice in a block"]).values)
    # 4x4 and 16x16 too
    for n in (4, 16):
        geo = geometry_for_size(n)
        vals = [0] * geo.ncells
        vals[0] = vals[geo.n + 1] = 1  # same block
        assert eng.solve(geo, vals, limit=2).count == 0


def _records(path: str) -> list:
    return list(iter_source(path))


@pytest.mark.parametrize("name", NAMES)
def test_every_size_from_4x4_to_16x16_including_rectangular_blocks(engines, name: str) -> None:
    recs = _records(str(DATA / "engines-sizes.txt"))
    sizes = sorted({r.grid.size for r in recs})
    assert sizes == [4, 6, 8, 9, 12, 16]
    assert {r.grid.geo.box for r in recs} >= {"2x3", "2x4", "3x4"}
    for rec in recs:
        g = rec.grid
        want = rec.extra["rest"].split("#")[1].strip()
        res = engines[name].solve(g.geo, g.values, limit=2)
        assert res.count == 1, f"{name} {g.size}x{g.size}: {res.count}"
        assert _sym(g.geo, res.solution) == want


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("n", [16, 25])
def test_16x16_and_25x25_nt_grids(engines, name: str, n: int) -> None:
    recs = _records(str(DATA / f"engines-{n}x{n}.nt.txt"))
    assert all(r.format == "nt" and r.grid.size == n for r in recs)
    for puzzle, solution in zip(recs[::2], recs[1::2], strict=True):
        g = puzzle.grid
        res = engines[name].solve(g.geo, g.values, limit=2)
        assert res.count == 1
        assert res.solution == solution.grid.values


@pytest.mark.parametrize("name", ["sat", "cp"])
def test_36x36_by_sat_and_cp(engines, name: str) -> None:
    recs = _records(str(DATA / "engines-36x36.nt.txt"))
    assert all(r.format == "nt" and r.grid.size == 36 for r in recs)
    puzzle, solution = recs[0].grid, recs[1].grid
    assert 36 in puzzle.values  # the 36th symbol, '@'
    res = engines[name].solve(puzzle.geo, puzzle.values, limit=2)
    assert res.count == 1 and res.solution == solution.values


def test_a_16x16_that_needs_search(engines) -> None:
    """A minimal 16x16 (singles alone do not finish it): native and sat agree."""
    rec = _records(str(DATA / "engines-16x16-minimal.txt"))[0]
    g = rec.grid
    want = parse_grid_token(rec.extra["rest"].split("#")[1].strip()).values
    nat = engines["native"].solve(g.geo, g.values, limit=2)
    assert nat.nodes > 1 and nat.count == 1 and nat.solution == want
    sat = engines["sat"].solve(g.geo, g.values, limit=2)
    assert sat.count == 1 and sat.solution == want


@pytest.mark.parametrize("name", NAMES)
def test_time_limit_stops_the_search_and_says_so(name: str) -> None:
    geo = geometry(3, 3)
    eng = get_engine(name)
    res = eng.solve(geo, [0] * 81, limit=10**7, time_limit=0.3)
    assert res.timed_out and not res.complete
    # how many solutions come in 0.3 s depends on the machine's load (CP-SAT
    # may find none while it starts): only that the count stopped short
    assert res.count < 10**7
    assert all(is_solution(geo, [0] * 81, s) for s in res.solutions[:50])


@pytest.mark.parametrize("name", NAMES)
def test_engines_are_the_graders_verdict_solver(name: str) -> None:
    grader = Grader(solver=get_engine(name))
    fig = book_figures()["fig2.1"]
    verdict, _, solution = grader.verdict(parse_grid_token(fig["puzzle"]))
    assert verdict == "ok" and "".join(map(str, solution)) == fig["solution"]
    assert grader.verdict(parse_grid_token(TWO))[0] == "multiple-solutions"
    assert grader.verdict(parse_grid_token(_unsolvable_without_conflict()))[0] == "no-solution"
    assert grader.verdict(parse_grid_token(CONTRADICTIONS["same value twice in a row"]))[0] \
        == "contradiction"
    r = grader.grade_grid(parse_grid_token(fig["puzzle"]))
    assert r.verdict == "ok" and r.level == 1


def test_results_are_deterministic(engines) -> None:
    g = parse_grid_token(TWO)
    for name in NAMES:
        first = get_engine(name).solve(g.geo, g.values, limit=5)
        again = engines[name].solve(g.geo, g.values, limit=5)
        assert first.solutions == again.solutions == tuple(sorted(first.solutions))


def test_is_solution_checks_independently() -> None:
    fig = book_figures()["fig2.1"]
    g = parse_grid_token(fig["puzzle"])
    sol = [int(ch) for ch in fig["solution"]]
    assert is_solution(g.geo, g.values, sol)
    swapped = sol[:]
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not is_solution(g.geo, g.values, swapped)
    other_givens = list(g.values)
    other_givens[2] = 9 if sol[2] != 9 else 8
    assert not is_solution(g.geo, other_givens, sol)
