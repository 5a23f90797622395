"""Sudoku pairs: `pair generate --order K` makes a pair with exactly one joint
solution (checked by `pair solve`, an independent fresh solver) from which no
given can be removed (checked with assumptions on one solver); `pair solve`
fills a pair or says that none exists."""

from __future__ import annotations

from pathlib import Path

import pytest
from pysat.solvers import Solver
from typer.testing import CliRunner

from grader.cli.main import build_app
from grader.core.geometry import geometry
from grader.exact import get_engine, is_solution
from grader.exact.pairs import (
    generate_pair,
    given_indices,
    is_pair_solution,
    pair_oracle,
    solve_pair,
)
from grader.formats import iter_source

runner = CliRunner()
app = build_app()


def run(*args: str) -> tuple[int, str, str]:
    res = runner.invoke(app, ["pair", *args])
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise AssertionError(f"pair {args} raised {res.exception!r}") from res.exception
    assert "Traceback" not in res.stdout + res.stderr
    return res.exit_code, res.stdout, res.stderr


def _read(path: Path) -> list[tuple[int, ...]]:
    return [r.grid.values for r in iter_source(str(path)) if r.grid is not None]


@pytest.mark.parametrize("seed", [1, 2])
def test_generate_order_3_verified_by_pair_solve(tmp_path: Path, seed: int) -> None:
    out = tmp_path / "pair.txt"
    code, _, err = run("generate", "--order", "3", "--seed", str(seed), "-o", str(out))
    assert code == 0 and "order 3 pair (9x9)" in err
    a, b = _read(out)
    geo = geometry(3, 3)
    # pair solve: exactly one joint solution
    code, filled, err = run("solve", str(out))
    assert code == 0 and "exactly one solution" in err
    code, counted, _ = run("solve", str(out), "--count")
    assert counted.strip() == "1 joint solution"
    blocks = [r.grid.values for r in iter_source(str(_write(tmp_path, filled)))]
    sa, sb = blocks
    assert is_pair_solution(geo, a, b, sa, sb)
    # maximal holes: removing any single remaining given lets a second solution in,
    # each removal decided on ONE solver by assumptions (selector literals)
    givens = given_indices(a, b)
    with pair_oracle(geo, sa, sb) as oracle:
        assert oracle.unique(givens)
        calls_before = oracle.calls
        for i in givens:
            assert not oracle.unique([j for j in givens if j != i]), f"given {i} removable"
        assert oracle.calls == calls_before + len(givens)
    # and a few removals double-checked from scratch by a fresh solver
    for i in givens[:3] + givens[-3:]:
        a2, b2 = list(a), list(b)
        if i < geo.ncells:
            a2[i] = 0
        else:
            b2[i - geo.ncells] = 0
        assert solve_pair(geo, a2, b2, limit=2).count == 2


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "filled.txt"
    p.write_text(text)
    return p


def test_oracle_answers_with_assumptions_on_one_solver() -> None:
    gen = generate_pair(3, seed=4)
    geo = gen.geo
    with pair_oracle(geo, gen.solution_a, gen.solution_b) as oracle:
        solver = oracle.solver
        assert isinstance(solver, Solver)
        kept = given_indices(gen.puzzle_a, gen.puzzle_b)
        assert oracle.unique(kept)
        assert oracle.removable(kept) == []
        assert oracle.solver is solver  # never rebuilt
        assert not oracle.unique(kept[1:])  # one fewer given: a second solution
        assert oracle.unique(list(range(2 * geo.ncells)))  # everything given: unique


@pytest.mark.parametrize("order", [2, 3, 4])
def test_generated_pairs_are_unique_and_minimal(order: int) -> None:
    gen = generate_pair(order, seed=7)
    geo = gen.geo
    assert geo.n == order * order
    assert is_pair_solution(geo, gen.puzzle_a, gen.puzzle_b, gen.solution_a, gen.solution_b)
    assert all(x != y for x, y in zip(gen.solution_a, gen.solution_b, strict=True))
    res = solve_pair(geo, gen.puzzle_a, gen.puzzle_b, limit=2)
    assert res.count == 1 and res.solutions[0] == (gen.solution_a, gen.solution_b)
    assert gen.sat_calls == 2 * geo.ncells  # every cell tried once
    assert 0 < gen.givens < 2 * geo.ncells
    if order <= 3:
        with pair_oracle(geo, gen.solution_a, gen.solution_b) as oracle:
            assert oracle.removable(given_indices(gen.puzzle_a, gen.puzzle_b)) == []


def test_generate_is_deterministic() -> None:
    a = generate_pair(3, seed=11)
    b = generate_pair(3, seed=11)
    c = generate_pair(3, seed=12)
    assert (a.puzzle_a, a.puzzle_b) == (b.puzzle_a, b.puzzle_b)
    assert (a.puzzle_a, a.puzzle_b) != (c.puzzle_a, c.puzzle_b)


def test_each_grid_of_a_pair_alone_is_not_unique() -> None:
    """The pair constraint does work: here each half alone has several
    solutions; the other grid is needed to make the joint solution unique."""
    gen = generate_pair(3, seed=1)
    nat = get_engine("native")
    counts = [nat.solve(gen.geo, p, limit=2).count for p in (gen.puzzle_a, gen.puzzle_b)]
    assert counts == [2, 2]


def test_pair_solve_formats_and_no_solution(tmp_path: Path) -> None:
    gen = generate_pair(2, seed=3)
    f = tmp_path / "nt.txt"
    code, out, _ = run("generate", "--order", "2", "--seed", "3", "-f", "nt", "-o", str(f))
    assert code == 0
    lines = f.read_text().splitlines()
    assert all(ln.startswith("2 ") for ln in lines) and len(lines) == 2
    code, out, err = run("solve", str(f))
    assert code == 0
    got = out.strip().splitlines()
    assert got[0] == "2 " + "".join(map(str, gen.solution_a))
    assert got[1] == "2 " + "".join(map(str, gen.solution_b))
    # the same given in the same cell of both grids: no pair fills it
    bad = tmp_path / "bad.txt"
    bad.write_text("1" + "0" * 15 + "\n" + "1" + "0" * 15 + "\n")
    code, out, err = run("solve", str(bad))
    assert code == 1 and "no solution" in err and out == ""
    # an empty pair has many solutions: one is shown, the exit status says so
    empty = tmp_path / "empty.txt"
    empty.write_text("0" * 16 + "\n" + "0" * 16 + "\n")
    code, out, err = run("solve", str(empty))
    assert code == 1 and "at least 2 solutions" in err
    a, b = out.split()
    geo = geometry(2, 2)
    assert is_solution(geo, [0] * 16, [int(x) for x in a])
    assert all(x != y for x, y in zip(a, b, strict=True))


def test_pair_solve_bad_input(tmp_path: Path) -> None:
    one = tmp_path / "one.txt"
    one.write_text("0" * 81 + "\n")
    code, _, err = run("solve", str(one))
    assert code == 2 and "a pair is two grids, found 1" in err
    mixed = tmp_path / "mixed.txt"
    mixed.write_text("0" * 81 + "\n" + "0" * 16 + "\n")
    code, _, err = run("solve", str(mixed))
    assert code == 2 and "differ in size" in err
    code, _, err = run("solve", str(tmp_path / "missing.txt"))
    assert code == 2 and "missing.txt" in err


def test_generate_verify_and_pretty() -> None:
    code, out, err = run("generate", "--order", "3", "--seed", "9", "--verify", "--pretty")
    assert code == 0
    assert "verify: 1 joint solution; 0 givens removable" in err and "ok" in err
    assert err.count("+-------+-------+-------+") == 8  # two grids side by side


def test_pair_generate_timeout_keeps_a_unique_pair() -> None:
    """--timeout (the whole run, as for generate): the removals stop, the pair
    still has exactly one joint solution, and the command says so, exit 1."""
    from grader.exact.pairs import generate_pair, solve_pair

    gen = generate_pair(3, seed=1, timeout=0.0)
    assert not gen.complete and gen.givens == 162
    assert solve_pair(gen.geo, gen.puzzle_a, gen.puzzle_b, 2).count == 1
    full = generate_pair(3, seed=1)
    assert full.complete and full.givens < 162
    res = CliRunner().invoke(build_app(), ["pair", "generate", "--seed", "1", "--timeout",
                                           "0", "-f", "text"])
    assert res.exit_code == 1
    assert "some givens were not tried for removal" in res.stderr
