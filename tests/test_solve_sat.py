"""The SAT engine: the classic, extended and reduced encodings have the sizes
their formulas say, the DIMACS file solves to the same grid with an
independent solver, and uniqueness comes from a blocking clause."""

from __future__ import annotations

from itertools import combinations
from math import comb
from pathlib import Path

import pytest
from conftest import book_figures
from pysat.formula import CNF
from pysat.solvers import Solver
from typer.testing import CliRunner

from grader.cli.main import build_app
from grader.core.geometry import geometry_for_size
from grader.exact import get_engine, is_solution
from grader.exact.sat import classic_size, encode, read_dimacs_map, write_dimacs
from grader.formats import parse_grid_token

FIG = book_figures()["fig2.1"]


@pytest.mark.parametrize("n", [4, 6, 8, 9, 12, 16])
def test_blank_grid_classic_encoding_has_n_cubed_variables(n: int) -> None:
    geo = geometry_for_size(n)
    enc = encode(geo, [0] * geo.ncells, "classic")
    assert enc.nvars == n ** 3
    # at least one per cell (n^2), at most one per cell, each value at most once per
    # row, column and block: four families of n^2 * C(n, 2) pairwise clauses
    assert enc.nclauses == n * n + 4 * n * n * comb(n, 2) == n * n + 2 * n ** 3 * (n - 1)
    assert classic_size(n) == (enc.nvars, enc.nclauses)
    clauses = list(enc.clauses)
    assert len(clauses) == enc.nclauses
    assert sum(1 for cl in clauses if len(cl) == n) == n * n
    assert sum(1 for cl in clauses if len(cl) == 2) == 4 * n * n * comb(n, 2)
    ext = encode(geo, [0] * geo.ncells, "extended")
    assert ext.nvars == n ** 3 and ext.nclauses == enc.nclauses + 3 * n * n


def test_9x9_counts_and_givens_as_unit_clauses() -> None:
    g = parse_grid_token(FIG["puzzle"])
    givens = g.givens
    enc = encode(g.geo, g.values, "classic")
    assert (enc.nvars, enc.nclauses) == (729, 11745 + givens)
    units = [cl for cl in enc.clauses if len(cl) == 1]
    assert sorted(u[0] for u in units) == sorted(
        c * 9 + v for c, v in enumerate(g.values) if v)


def _reduced_formula(geo, values) -> tuple[int, int]:
    """Variables and clauses of the reduced encoding, computed from sets."""
    n = geo.n
    cands = {}
    for c, v in enumerate(values):
        if not v:
            cands[c] = set(range(1, n + 1)) - {values[p] for p in geo.peers[c]}
    nvars = sum(len(s) for s in cands.values())
    nclauses = len(cands) + sum(comb(len(s), 2) for s in cands.values())
    for cells in geo.regions:
        for v in range(1, n + 1):
            k = sum(1 for c in cells if c in cands and v in cands[c])
            nclauses += comb(k, 2)
    return nvars, nclauses


@pytest.mark.parametrize("puzzle", [FIG["puzzle"], book_figures()["fig6.2"]["puzzle"]])
def test_reduced_encoding_matches_its_formula_and_is_smaller(puzzle: str) -> None:
    g = parse_grid_token(puzzle)
    red = encode(g.geo, g.values, "reduced")
    assert (red.nvars, red.nclauses) == _reduced_formula(g.geo, g.values)
    classic = encode(g.geo, g.values, "classic")
    assert red.nvars < classic.nvars / 2 and red.nclauses < classic.nclauses / 4
    # every variable stands for an empty cell and one of its candidates
    for x in range(1, red.nvars + 1):
        c, v = red.var_cell[x]
        assert g.values[c] == 0 and all(g.values[p] != v for p in g.geo.peers[c])


def _decode_with_header(path: Path, model: list[int]) -> dict[tuple[int, int], int]:
    """Parse the DIMACS comment header independently of the code under test."""
    mapping = {}
    for line in path.read_text().splitlines():
        if line.startswith("c var ") and line.split()[2].isdigit():
            x, r, c, v = map(int, line.split()[2:6])
            mapping[x] = (r, c, v)
    cells = {}
    for lit in model:
        if lit > 0 and lit in mapping:
            r, c, v = mapping[lit]
            assert (r, c) not in cells
            cells[(r, c)] = v
    return cells


@pytest.mark.parametrize("kind", ["classic", "reduced"])
def test_dimacs_file_solved_by_another_solver_gives_the_same_solution(tmp_path: Path,
                                                                      kind: str) -> None:
    g = parse_grid_token(FIG["puzzle"])
    path = tmp_path / f"fig2.1-{kind}.cnf"
    enc = write_dimacs(g.geo, g.values, path, kind)
    text = path.read_text()
    assert f"p cnf {enc.nvars} {enc.nclauses}" in text
    assert text.count("\nc var ") == enc.nvars
    assert "c var 1 " in text
    cnf = CNF(from_file=str(path))
    assert (cnf.nv, len(cnf.clauses)) == (enc.nvars, enc.nclauses)
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:  # not the default solver
        assert s.solve()
        model = s.get_model()
        cells = _decode_with_header(path, model)
        grid = [g.values[r * 9 + c] for r in range(9) for c in range(9)]
        for (r, c), v in cells.items():
            grid[(r - 1) * 9 + (c - 1)] = v
        assert "".join(map(str, grid)) == FIG["solution"]
        # uniqueness by a blocking clause: no other model on the cells' variables
        s.add_clause([-x for x in model if x > 0])
        assert not s.solve()
    assert len(read_dimacs_map(path)) == enc.nvars


def test_classic_variable_numbering_formula(tmp_path: Path) -> None:
    g = parse_grid_token(FIG["puzzle"])
    path = tmp_path / "f.cnf"
    write_dimacs(g.geo, g.values, path)
    mapping = read_dimacs_map(path)
    for x, (r, c, v) in mapping.items():
        assert x == ((r - 1) * 9 + (c - 1)) * 9 + v


@pytest.mark.parametrize("solver", ["cadical153", "glucose4", "minisat22", "lingeling"])
@pytest.mark.parametrize("encoding", ["classic", "extended", "reduced"])
def test_solvers_and_encodings_agree(solver: str, encoding: str) -> None:
    eng = get_engine("sat", solver=solver, encoding=encoding)
    for name in ("fig2.1", "fig4.5", "fig6.2"):
        fig = book_figures()[name]
        g = parse_grid_token(fig["puzzle"])
        res = eng.solve(g.geo, g.values, limit=2)
        assert res.count == 1
        assert "".join(map(str, res.solution)) == fig["solution"]
        assert res.stats["encoding"] == encoding and res.stats["calls"] == 2


def test_incremental_solver_retires_each_grids_blocking_clauses() -> None:
    """One solver per grid size: a grid's blocking clauses must not hide the
    same solution from a later grid."""
    two = parse_grid_token(
        ".42.7........3.....7....9..5.68.......1..53......41....6...2.1..2..5.7.8..36..5..")
    inc = get_engine("sat")
    fresh = get_engine("sat", incremental=False)
    r1 = inc.solve(two.geo, two.values, limit=5)
    assert r1.count == 2
    for sol in r1.solutions:  # each full solution as a grid of its own
        again = inc.solve(two.geo, sol, limit=2)
        assert again.count == 1 and again.solution == sol
    r2 = inc.solve(two.geo, two.values, limit=5)
    assert r2.solutions == r1.solutions == fresh.solve(two.geo, two.values, limit=5).solutions


def test_blank_4x4_has_288_solutions() -> None:
    geo = geometry_for_size(4)
    res = get_engine("sat").solve(geo, [0] * 16, limit=1000)
    assert res.count == 288 and res.complete
    assert len(set(res.solutions)) == 288
    assert all(is_solution(geo, [0] * 16, s) for s in res.solutions)
    # every pair of solutions differs somewhere (blocking clauses work)
    assert all(a != b for a, b in combinations(res.solutions[:20], 2))


def test_dimacs_option_writes_the_file_and_reports_both_encodings(tmp_path: Path) -> None:
    out = tmp_path / "grid.cnf"
    res = CliRunner().invoke(build_app(), ["solve", FIG["puzzle"], "--dimacs", str(out)])
    assert res.exit_code == 0, res.output
    assert "classic: 729 variables" in res.stderr
    red = encode(parse_grid_token(FIG["puzzle"]).geo, parse_grid_token(FIG["puzzle"]).values,
                 "reduced")
    assert f"reduced: {red.nvars} variables, {red.nclauses} clauses" in res.stderr
    assert out.read_text().startswith("c Sudoku 9x9")
    assert res.stdout == ""  # the grid is not solved
