"""The C accelerator computes exactly what the pure-Python code computes.

Fixpoints, rule probes, contradiction checks, trial searches and the exact
solver are compared on real positions: grids of the bundled collections at
every stage of their solution, and positions where trials are needed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from grader.core.board import Board
from grader.formats import parse_grid_token
from grader.kernel import PYTHON, CKernel, solve, solve_python
from grader.kernel import c as native
from grader.strategy.engine import Engine
from grader.strategy.propagate import fixpoint

pytestmark = pytest.mark.kernel

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"


@pytest.fixture(autouse=True)
def ck(c_kernel_required: CKernel) -> CKernel:
    """Every test here needs the C kernel (skipped without it, failed in CI)."""
    return c_kernel_required


def _book() -> list[str]:
    out = []
    for name in ("book-figures.jsonl", "book-calibration.jsonl"):
        for line in (PUZZLES / name).read_text().splitlines():
            d = json.loads(line)
            if d.get("size", 9) == 9:
                out.append(d["puzzle"])
    return out


def _positions(engine: Engine, grids: list[str], per_grid: int, seed: int) -> list[Board]:
    """Positions met while solving ``grids``, a few per grid."""
    rnd = random.Random(seed)
    out = []
    for text in grids:
        board = parse_grid_token(text).board()
        seen = [board.copy()]
        for step in engine.steps(board):
            seen.append(board.copy())
            if step.level >= 13:
                break
        out.extend(rnd.sample(seen, min(per_grid, len(seen))))
    return out


def _perturbed(board: Board, rnd: random.Random) -> Board:
    """The position after a random (maybe wrong) placement: most such
    positions are contradictory somewhere down the line."""
    b = board.copy()
    empties = [c for c in range(b.geo.ncells) if not b.values[c] and b.cands[c]]
    if empties:
        c = rnd.choice(empties)
        b.place(c, rnd.choice(b.candidates(c)))
    return b


def _hard() -> list[str]:
    path = ROOT / "tests" / "data" / "top1465-sample.txt"
    return [ln.split()[0] for ln in path.read_text().splitlines()
            if ln.strip() and not ln.startswith("#")][:12]


def test_fixpoints_agree_with_python(ck: CKernel):
    engine = Engine(kernel=ck)
    plain = tuple(r for r in engine.rules(1) if r.kind != "trial")
    prog = native.program(plain)
    assert prog is not None and prog.depth == 0
    rnd = random.Random(7)
    checked = contradictions = 0
    for board in _positions(engine, _book() + _hard(), 3, 1):
        deeper = _perturbed(_perturbed(board, rnd), rnd)
        for b in (board, _perturbed(board, rnd), _perturbed(board, rnd), deeper):
            py, c = b.copy(), b.copy()
            conflict_py = fixpoint(py, plain) is not None
            conflict_c = prog.closure(c)
            assert conflict_py == conflict_c, b.to_string()
            if not conflict_py:
                assert (py.values, py.cands) == (c.values, c.cands), b.to_string()
            checked += 1
            contradictions += conflict_py
    assert checked > 300 and 0 < contradictions < checked


def test_first_progress_matches_the_rules(ck: CKernel):
    engine = Engine(kernel=ck)
    rules = tuple(r for r in engine.rules(1) if r.kind != "trial")
    idx, descs = native.probe_descs(rules)
    for board in _positions(engine, _book(), 4, 2):
        first = native.first_progress(board, descs)
        expected = -1
        for i, rule in enumerate(rules):
            if any(board.progress(s) for s in rule.find(board)):
                expected = i
                break
        assert (idx[first] if first >= 0 else -1) == expected, board.to_string()


def test_contradiction_checks_agree(ck: CKernel):
    engine = Engine(kernel=ck)
    rnd = random.Random(3)
    for board in _positions(engine, _book(), 2, 3):
        for b in (board, _perturbed(board, rnd)):
            fixpoint(b, [r for r in engine.rules(1) if r.kind != "trial"])
            a = ck.contradiction(b)
            p = PYTHON.contradiction(b)
            assert (a is None) == (p is None)
            if a is not None and p is not None:
                assert a.reason == p.reason


@pytest.mark.parametrize("name", ["fig4.5", "fig6.2"])
def test_trial_steps_are_the_same_with_and_without_the_accelerator(name, ck: CKernel):
    """The first trial steps of the book's expert grids, searched by C and by
    Python, with and without the solution hint: the same steps."""
    d = next(json.loads(x) for x in (PUZZLES / "book-figures.jsonl").read_text().splitlines()
             if json.loads(x)["name"] == name)
    grid = parse_grid_token(d["puzzle"])
    solution = tuple(int(ch) for ch in d["solution"])
    runs = []
    for kernel, hint in ((ck, True), (ck, False), (PYTHON, True), (PYTHON, False)):
        engine = Engine(record=True, kernel=kernel)
        board = grid.board()
        if hint:
            board.solution = solution
        trials = []
        for step in engine.steps(board):
            if step.level >= 13:
                trials.append((step.summary(), [(b.cell, b.value, len(b.steps),
                                                 b.conflict.reason if b.conflict else None)
                                                for b in step.branches]))
            if len(trials) == 2:
                break
        runs.append(trials)
    assert runs[0] and all(r == runs[0] for r in runs[1:])


def test_exact_solver_agrees_with_python(ck: CKernel):
    lines = (PUZZLES / "se-rated-9758.txt").read_text().splitlines()
    rnd = random.Random(5)
    for line in rnd.sample(lines, 40):
        grid = parse_grid_token(line.split()[1])
        a = solve(grid.geo, grid.values, 2, kernel=ck)
        b = solve_python(grid.geo, grid.values, 2)
        assert a.count == b.count == 1
        assert a.solution == b.solution
    # the same search: several solutions come in the same order, at every size
    for text in ("." * 81, "1" + "." * 143, "." * 256):
        grid = parse_grid_token(text)
        a = solve(grid.geo, grid.values, 4, kernel=ck)
        b = solve_python(grid.geo, grid.values, 4)
        assert a.count == b.count == 4 and a.solutions == b.solutions
    # two solutions, and none
    grid = parse_grid_token("." * 81)
    assert solve(grid.geo, grid.values, 2, kernel=ck).count == 2
    bad = parse_grid_token("11" + "." * 79)
    assert solve(bad.geo, bad.values, 2, kernel=ck).count == 0
    assert solve_python(bad.geo, bad.values, 2).count == 0
