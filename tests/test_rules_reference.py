"""Completeness and soundness of every deterministic rule against naive
reference implementations written straight from RULES.md.

States: the candidates of real grids (book grids, and the grids of
tests/data/sizes.txt at 4x4 ... 16x16) with a seeded random share of the
*wrong* candidates removed, so every state is consistent with the known
solution and full of patterns.  On each state, the union of what a rule's
steps place or eliminate must equal what the reference finds, and no step may
contradict the solution."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from conftest import DATA, book_calibration, book_figures, make_rule

from grader import parse_grid_token
from grader.core.board import Board
from grader.core.geometry import Geometry, values_of
from grader.strategy.engine import check_step


# -- reference implementations (slow, obvious) ----------------------------------------------
def ref_single_position(b: Board) -> set:
    g = b.geo
    out = set()
    for cells in g.regions:
        placed = {b.values[c] for c in cells}
        for v in range(1, g.n + 1):
            pos = [c for c in cells if b.has(c, v)]
            if v not in placed and len(pos) == 1:
                out.add((pos[0], v))
    return out


def ref_single_candidate(b: Board) -> set:
    return {(c, values_of(m)[0]) for c, m in enumerate(b.cands)
            if not b.values[c] and m.bit_count() == 1}


def ref_candidate_lines(b: Board) -> set:
    g = b.geo
    out = set()
    n = g.n
    for k, blk in enumerate(g.blocks):
        for v in range(1, n + 1):
            pos = [c for c in blk if b.has(c, v)]
            if not pos:
                continue
            for line_of, lines in ((g.cell_row, g.rows), (g.cell_col, g.cols)):
                if len({line_of[c] for c in pos}) == 1:
                    out |= {(c, v) for c in lines[line_of[pos[0]]]
                            if g.cell_block[c] != k and b.has(c, v)}
    for line in g.rows + g.cols:
        for v in range(1, n + 1):
            pos = [c for c in line if b.has(c, v)]
            if pos and len({g.cell_block[c] for c in pos}) == 1:
                out |= {(c, v) for c in g.blocks[g.cell_block[pos[0]]]
                        if c not in line and b.has(c, v)}
    return out


def ref_multiple_lines(b: Board) -> set:
    g = b.geo
    out = set()
    for groups, line_of in ((g.bands, g.cell_row), (g.stacks, g.cell_col)):
        for group in groups:
            for v in range(1, g.n + 1):
                lines = {k: {line_of[c] for c in g.blocks[k] if b.has(c, v)} for k in group}
                for size in range(2, len(group)):
                    for combo in combinations(group, size):
                        if any(not lines[k] for k in combo):
                            continue
                        union = set().union(*(lines[k] for k in combo))
                        if len(union) != size:
                            continue
                        out |= {(c, v) for k in group if k not in combo for c in g.blocks[k]
                                if line_of[c] in union and b.has(c, v)}
    return out


def ref_naked(b: Board, sizes: range) -> set:
    out = set()
    for cells in b.geo.regions:
        empties = [c for c in cells if not b.values[c]]
        for k in sizes:
            if k >= len(empties):
                continue
            for combo in combinations(empties, k):
                union = 0
                for c in combo:
                    union |= b.cands[c]
                if union.bit_count() == k:
                    out |= {(c, v) for c in empties if c not in combo
                            for v in values_of(b.cands[c] & union)}
    return out


def ref_hidden(b: Board, sizes: range) -> set:
    out = set()
    for cells in b.geo.regions:
        empties = [c for c in cells if not b.values[c]]
        unplaced = [v for v in range(1, b.geo.n + 1) if v not in {b.values[c] for c in cells}]
        for k in sizes:
            if k >= len(empties):
                continue
            for combo in combinations(unplaced, k):
                where = {c for c in empties for v in combo if b.has(c, v)}
                if len(where) == k:
                    out |= {(c, v) for c in where for v in b.candidates(c) if v not in combo}
    return out


def ref_fish(b: Board, k: int) -> set:
    g = b.geo
    out = set()
    for base_lines, cover_of in ((g.rows, g.cell_col), (g.cols, g.cell_row)):
        cover_lines = g.cols if base_lines is g.rows else g.rows
        for v in range(1, g.n + 1):
            cand = []
            for i, line in enumerate(base_lines):
                cov = {cover_of[c] for c in line if b.has(c, v)}
                if 2 <= len(cov) <= k:
                    cand.append((i, cov))
            for combo in combinations(cand, k):
                cover = set().union(*(cov for _, cov in combo))
                if len(cover) != k:
                    continue
                base = {i for i, _ in combo}
                out |= {(c, v) for j in cover for c in cover_lines[j]
                        if b.has(c, v) and c not in {x for i in base for x in base_lines[i]}}
    return out


REFERENCE = {
    "single-position": ref_single_position,
    "single-candidate": ref_single_candidate,
    "candidate-lines": ref_candidate_lines,
    "multiple-lines": ref_multiple_lines,
    "naked-pair": lambda b: ref_naked(b, range(2, 3)),
    "naked-triple": lambda b: ref_naked(b, range(3, 4)),
    "naked-tuple": lambda b: ref_naked(b, range(4, b.geo.n)),
    "hidden-pair": lambda b: ref_hidden(b, range(2, 3)),
    "hidden-triple": lambda b: ref_hidden(b, range(3, 4)),
    "hidden-tuple": lambda b: ref_hidden(b, range(4, b.geo.n)),
    "x-wing": lambda b: ref_fish(b, 2),
    "swordfish": lambda b: ref_fish(b, 3),
}


# -- states ---------------------------------------------------------------------------------
def thinned(puzzle: str, solution: list[int], box, share: float, seed: str,
            place: float = 0.0) -> Board:
    """The grid's candidates with a random ``share`` of the wrong ones removed
    (and a ``place`` share of cells filled from the solution)."""
    grid = parse_grid_token(puzzle, box=box)
    geo: Geometry = grid.geo
    rnd = random.Random(seed)
    values = list(grid.values)
    for c in range(geo.ncells):
        if not values[c] and rnd.random() < place:
            values[c] = solution[c]
    b = Board.from_values(geo, values)
    for c in range(geo.ncells):
        for v in b.candidates(c):
            if v != solution[c] and rnd.random() < share:
                b.eliminate(c, v)
    return b


def states() -> list[tuple[str, Board, list[int]]]:
    out = []
    grids = [(f"cal{d['id']}", d["puzzle"], d["solution"], None) for d in book_calibration()[::3]]
    grids += [(n, f["puzzle"], f["solution"], None) for n, f in book_figures().items()
              if n in ("fig3.8", "fig4.5", "fig6.2")]
    for line in (DATA / "sizes.txt").read_text().splitlines():
        if not line.startswith("#"):
            box, p, s = line.split()
            if box != "5x5":
                grids.append((f"size{box}", p, s, tuple(int(x) for x in box.split("x"))))
    for name, puzzle, sol, box in grids:
        syms = "123456789ABCDEFGHIJKLMNOP"
        solution = [syms.index(ch) + 1 for ch in sol]
        for share, place in ((0.3, 0.0), (0.6, 0.2)):
            seed = f"{name}-{share}"
            out.append((f"{name}-{share}", thinned(puzzle, solution, box, share, seed, place),
                        solution))
    return out


STATES = states()


@pytest.mark.parametrize("code", sorted(REFERENCE))
def test_rule_matches_the_reference(code: str) -> None:
    rule = make_rule(code)
    found_any = 0
    for name, board, solution in STATES:
        if code == "naked-tuple" and board.geo.n > 9 or \
                code == "hidden-tuple" and board.geo.n > 9:
            continue  # the naive reference is exponential in n
        steps = list(rule.find(board))
        got = set()
        for s in steps:
            check_step(s, solution)
            got |= set(s.placements) | set(s.eliminations)
            assert board.progress(s), (name, s.summary())
        want = REFERENCE[code](board)
        missing, extra = want - got, got - want
        assert not missing and not extra, (name, code, sorted(missing)[:5], sorted(extra)[:5])
        found_any += bool(want)
    assert found_any >= 3, f"the states exercise {code} too rarely ({found_any})"
