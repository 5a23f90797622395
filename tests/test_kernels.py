"""Both kernels (the C accelerator and the pure-Python reference) compute the
same things, on every supported grid size, on positions hypothesis draws:
closures (fixpoints of the elimination rules), rule probes, contradiction
checks, the trial searches (first reductio, first disjunction with a
conclusion) and the exact solver.

Positions: a solved grid of the shape (a pattern, its symbols permuted),
some of its cells kept as givens, the candidates that follow, then a few
candidates removed at random (often making the position contradictory
somewhere down the line, which the kernels must find alike).

Without the C extension these tests skip, except in CI (``CI=true``) or with
``SUDOKU_GRADER_REQUIRE_NATIVE=1``, where they fail: a build that lost its
accelerator must not pass as green (see ``c_kernel_required`` in conftest).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.core.board import Board, Contradiction
from grader.core.geometry import Geometry, geometry
from grader.core.rule import Rule
from grader.formats import parse_grid_token
from grader.kernel import PYTHON, CKernel, Kernel, default_kernel, kernel_named
from grader.kernel import c as native
from grader.strategy.engine import Engine
from grader.strategy.trials.branches import closures, conclusions_of

pytestmark = pytest.mark.kernel

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


@pytest.fixture(scope="module")
def ck(c_kernel_required: CKernel) -> CKernel:
    return c_kernel_required


#: Every shape the project reads (default blocks, and the tall ones), with
#: the highest level of the rules compared on it: the whole table of
#: elimination rules up to 12x12; on larger grids the tuples (levels 10-12)
#: search too long in pure Python on positions with many candidates.
SHAPES = [((2, 2), 12), ((2, 3), 12), ((3, 2), 12), ((2, 4), 12), ((4, 2), 12), ((3, 3), 12),
          ((3, 4), 12), ((4, 3), 12), ((4, 4), 9), ((5, 5), 9), ((6, 6), 4)]
IDS = [f"{a * b}x{a * b}-{a}x{b}" for (a, b), _ in SHAPES]

_ENGINES: dict[tuple[str, int], tuple[Rule, ...]] = {}


def plain_rules(kernel: Kernel, max_level: int) -> tuple[Rule, ...]:
    """The elimination rules of the default table up to ``max_level``, built
    by an engine of ``kernel``."""
    key = (kernel.name, max_level)
    if key not in _ENGINES:
        engine = Engine(record=False, kernel=kernel)
        _ENGINES[key] = tuple(r for r in engine.rules(1)
                              if r.kind != "trial" and r.level <= max_level)
    return _ENGINES[key]


def solved(geo: Geometry, perm: list[int]) -> list[int]:
    """A solved grid of ``geo``: the usual pattern, symbols permuted."""
    a, b, n = geo.a, geo.b, geo.n
    return [perm[(b * (r % a) + r // a + c) % n] + 1 for r in range(n) for c in range(n)]


@st.composite
def positions(draw: st.DrawFn, geo: Geometry, min_keep: float) -> Board:
    n = geo.n
    perm = draw(st.permutations(range(n)))
    sol = solved(geo, list(perm))
    keep = draw(st.floats(min_value=min_keep, max_value=0.9))
    seed = draw(st.integers(0, 2**32 - 1))
    # a cheap deterministic choice of givens from the seed (hypothesis shrinks the seed)
    x = seed or 1
    values = []
    for v in sol:
        x = (x * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
        values.append(v if (x >> 33) / 2**31 < keep else 0)
    board = Board.from_values(geo, values)
    for cell, v in draw(st.lists(st.tuples(st.integers(0, geo.ncells - 1), st.integers(1, n)),
                                 max_size=n if n <= 6 else 4)):
        if board.cands[cell] >> (v - 1) & 1 and board.cands[cell] & (board.cands[cell] - 1):
            board.eliminate(cell, v)
    return board


def _snap(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(board.values), tuple(board.cands)


def _why(c: Contradiction | None) -> tuple[object, ...] | None:
    return None if c is None else (c.reason, c.cells, c.region, c.value)


def _min_keep(geo: Geometry) -> float:
    return 0.3 if geo.n <= 12 else 0.6


#: eight positions per shape (120 with --runslow), the same every run: the cost stays known
FEW = settings(max_examples=max(8, settings().max_examples // 5), deadline=None,
               derandomize=True,
               suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize(("shape", "max_level"), SHAPES, ids=IDS)
def test_closures_probes_and_contradictions_agree(ck: CKernel, shape: tuple[int, int],
                                                  max_level: int) -> None:
    geo = geometry(*shape)
    py_rules, c_rules = plain_rules(PYTHON, max_level), plain_rules(ck, max_level)
    seen = {"conflict": 0, "open": 0}

    @FEW
    @given(positions(geo, _min_keep(geo)))
    def check(board: Board) -> None:
        assert _snap(board) == _snap(board.copy())
        assert _why(PYTHON.contradiction(board)) == _why(ck.contradiction(board))
        assert PYTHON.probe(board, py_rules) is None
        probed = ck.probe(board, c_rules)
        assert probed is not None
        first = next((i for i, r in enumerate(py_rules)
                      if any(board.progress(s) for s in r.find(board))), -1)
        assert probed[1] == first, board.to_string()
        p, c = board.copy(), board.copy()
        conflict = PYTHON.closure(p, py_rules)
        assert conflict == ck.closure(c, c_rules), board.to_string()
        if not conflict:
            assert _snap(p) == _snap(c), board.to_string()
        seen["conflict" if conflict else "open"] += 1

    check()
    assert seen["open"] > 0


@pytest.mark.parametrize(("shape", "max_level"), SHAPES, ids=IDS)
def test_the_strategys_steps_agree(ck: CKernel, shape: tuple[int, int], max_level: int) -> None:
    """Grading's stepping of the plain rules (the minimal-level strategy, one
    step at a time): the same rules in the same order, to the same position."""
    geo = geometry(*shape)
    py_rules, c_rules = plain_rules(PYTHON, max_level), plain_rules(ck, max_level)
    seen = {"steps": 0}

    @FEW
    @given(positions(geo, _min_keep(geo)))
    def check(board: Board) -> None:
        p, c = board.copy(), board.copy()
        a = PYTHON.steps(p, py_rules, 200)
        b = ck.steps(c, c_rules, 200)
        assert a == b, board.to_string()
        assert _snap(p) == _snap(c), board.to_string()
        seen["steps"] += len(a)

    check()
    assert seen["steps"] > 0


@pytest.mark.parametrize("name", ["sizes-4x4", "sizes-6x6", "sizes-8x8", "generated-mixed-9x9",
                                  "sizes-12x12", "sizes-16x16"])
def test_the_strategys_steps_agree_on_the_bundled_grids(ck: CKernel, name: str) -> None:
    """From the givens to where the plain rules stop, every rule of the table
    (candidate lines to Swordfish) steps as in Python."""
    used: set[str] = set()
    for line in (PUZZLES / f"{name}.txt").read_text().splitlines():
        grid = parse_grid_token(line.split()[0])
        py_rules, c_rules = plain_rules(PYTHON, 12), plain_rules(ck, 12)
        p, c = grid.board(), grid.board()
        a = PYTHON.steps(p, py_rules, 10_000)
        assert a == ck.steps(c, c_rules, 10_000), line
        assert _snap(p) == _snap(c), line
        used |= {py_rules[i].family for i in a}
    assert "single-position" in used
    if name == "generated-mixed-9x9":
        assert {"candidate-lines", "naked-subset", "hidden-subset", "fish"} <= used, used


@pytest.mark.parametrize(("shape", "max_level"), SHAPES[:-1], ids=IDS[:-1])
def test_trial_searches_agree(ck: CKernel, shape: tuple[int, int], max_level: int) -> None:
    """The first assumptions that end in a contradiction (reductio) and the
    first pivots with a conclusion (disjunction), propagating with the
    singles, then (up to 9x9) with every elimination rule; with and without
    the solution as a hint."""
    geo = geometry(*shape)
    levels = (2, max_level) if geo.n <= 9 else (2,)
    found = {"reductio": 0, "disjunction": 0}

    @FEW
    @given(positions(geo, {4: 0.1, 16: 0.45, 25: 0.5}.get(geo.n, 0.35)), st.booleans())
    def check(board: Board, hint: bool) -> None:
        for level in levels:
            py_rules, c_rules = plain_rules(PYTHON, level), plain_rules(ck, level)
            work = board.copy()
            if ck.closure(work, c_rules):
                continue  # a contradictory position: nothing to assume
            if geo.n <= 6:
                work = board  # small grids close too easily: search before the closure
            sol = ck.solve(geo, work.values, 2)
            solution = sol.solution if hint and sol.count == 1 else None
            start = 0
            for _ in range(3):
                a = PYTHON.reductio_first(work, py_rules, solution, start)
                b = ck.reductio_first(work, c_rules, solution, start)
                assert a == b, (work.to_string(), start)
                if a is None:
                    break
                found["reductio"] += 1
                start = a[0] * 64 + a[1] + 1
            start = 0
            for _ in range(3):
                d = PYTHON.disjunction_first(work, py_rules, solution, 2, start)
                e = ck.disjunction_first(work, c_rules, solution, 2, start)
                assert (d is None) == (e is None), (work.to_string(), start)
                if d is None or e is None:
                    break
                assert d[:7] == e[:7] and d[7] is None, (work.to_string(), start)
                # the C kernel gives everything the pivot proves, as Python finds it
                alts, live = d[5], [i for i in range(len(d[5])) if not d[6] >> i & 1]
                assert e[7] == conclusions_of(
                    work, alts, closures(work, alts, live, py_rules, PYTHON, None), live)
                found["disjunction"] += 1
                start = d[0] + 1

    check()
    assert found["reductio"] > 0 and found["disjunction"] > 0, found


@pytest.mark.parametrize("shape", [s for s, _ in SHAPES], ids=IDS)
def test_exact_solvers_agree(ck: CKernel, shape: tuple[int, int]) -> None:
    """Counts, solutions and their order, and the nodes searched."""
    geo = geometry(*shape)
    keep = {16: 0.45, 25: 0.6, 36: 0.8}.get(geo.n, 0.25)  # pure Python on big grids is slow

    @FEW
    @given(positions(geo, keep), st.integers(1, 3))
    def check(board: Board, limit: int) -> None:
        a = PYTHON.solve(geo, board.values, limit)
        b = ck.solve(geo, board.values, limit)
        assert (a.count, a.solutions, a.nodes) == (b.count, b.solutions, b.nodes), \
            board.to_string()
        assert a.count >= 1  # the values come from a solved grid

    check()


def test_a_contradictory_grid_has_no_solution_in_both(ck: CKernel) -> None:
    geo = geometry(3, 3)
    bad = [1, 1] + [0] * 79
    assert PYTHON.solve(geo, bad, 2).count == 0 == ck.solve(geo, bad, 2).count


def test_the_default_kernel_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKU_GRADER_PURE", "1")
    assert default_kernel() is PYTHON
    assert Engine().kernel is PYTHON
    monkeypatch.setenv("SUDOKU_GRADER_PURE", "0")
    assert default_kernel().name == ("c" if native.built() else "python")
    assert kernel_named("python") is PYTHON


def test_an_engine_keeps_its_kernel_and_hands_it_to_every_rule(
        monkeypatch: pytest.MonkeyPatch) -> None:
    engine = Engine(kernel=PYTHON)
    monkeypatch.setenv("SUDOKU_GRADER_PURE", "0")  # too late: chosen once, when made
    assert engine.kernel is PYTHON
    for depth in (1, 2):
        for rule in engine.rules(depth):
            assert rule.context.kernel is PYTHON
            assert all(r.context.kernel is PYTHON for r in rule.context.propagation)
    # the older entry point follows the rules' kernel, not the environment
    assert native.program(tuple(r for r in engine.rules(1) if r.kind != "trial")) is None


def test_asking_for_the_c_kernel_without_the_extension_is_a_clear_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import grader.kernel as kernel_module

    monkeypatch.setattr(native, "_native", None)
    monkeypatch.setattr(kernel_module, "_C", [])
    with pytest.raises(kernel_module.KernelUnavailable, match="not built"):
        kernel_named("c")
    assert default_kernel() is PYTHON
