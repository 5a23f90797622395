"""A canonical form of a grid under the Sudoku symmetries (for ``grade --dedupe``).

Two grids are *equivalent* when one becomes the other by

* relabelling the digits (any permutation of 1..n),
* permuting the rows inside each band and the columns inside each stack,
* permuting the bands and the stacks,
* transposing (for square blocks, a == b; a grid with a x b blocks transposes
  into one with b x a blocks, so a 3x2-block grid and the 2x3-block grid it
  transposes to are equivalent too).

The canonical form is the **minimal** grid of the class in the lexicographic
order of its cells read row by row, with an empty cell smaller than any digit
and the digits relabelled by order of first appearance ("minlex").  It is
computed row by row: every transformation whose first k rows give the
smallest possible k-row prefix is kept, the others are dropped.  The column
side is kept as an ordered partition of the columns (columns whose order is
not yet decided stay together), so the search only branches where rows or
digits really tie.

The form is exact for every size.  Grids with a great deal of symmetry (an
almost empty 16x16 grid, say) could make the search long, so it has a budget
of search states (:data:`BUDGET`); past it the grid's own text is its key,
with a ``!`` in front: such a grid is then only recognised when repeated
exactly.  The budget is reached or not identically for every grid of a class,
so two equivalent grids never get different kinds of keys.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations, product

from grader.core.geometry import SYMBOLS
from grader.formats import Grid

#: The most search work (rows compared plus states made) before giving up (see
#: the module doc): a fraction of a second.
BUDGET = 250_000

Groups = tuple[tuple[int, ...], ...]
# A search state: (matrix id, rows chosen, column groups, digit labels, labels used)
State = tuple[int, tuple[int, ...], Groups, tuple[int, ...], int]


class BudgetExceeded(Exception):
    pass


def _row_string(row: list[int], groups: Groups, labels: tuple[int, ...],
                used: int) -> tuple[int, ...]:
    out: list[int] = []
    nxt = used + 1
    for g in groups:
        if len(g) == 1:
            v = row[g[0]]
            if not v:
                out.append(0)
            else:
                lab = labels[v]
                if lab:
                    out.append(lab)
                else:
                    out.append(nxt)
                    nxt += 1
            continue
        zeros = 0
        mapped: list[int] = []
        new = 0
        for c in g:
            v = row[c]
            if not v:
                zeros += 1
            elif labels[v]:
                mapped.append(labels[v])
            else:
                new += 1
        out.extend([0] * zeros)
        if mapped:
            mapped.sort()
            out.extend(mapped)
        if new:
            out.extend(range(nxt, nxt + new))
            nxt += new
    return tuple(out)


def _refine(row: list[int], groups: Groups, labels: tuple[int, ...],
            used: int) -> Iterator[tuple[Groups, tuple[int, ...], int]]:
    """Every column order and labelling that gives a row its minimal string."""
    fixed: list[list[tuple[int, ...]]] = []  # per group: the groups it becomes (before new)
    free: list[list[int]] = []  # per group: its columns with digits not yet labelled
    for g in groups:
        zeros = tuple(c for c in g if not row[c])
        mapped = sorted((labels[row[c]], c) for c in g if row[c] and labels[row[c]])
        new = [c for c in g if row[c] and not labels[row[c]]]
        parts: list[tuple[int, ...]] = [zeros] if zeros else []
        parts.extend((c,) for _, c in mapped)
        fixed.append(parts)
        free.append(new)
    for orders in product(*(permutations(f) for f in free)):
        lab = list(labels)
        nxt = used
        new_groups: list[tuple[int, ...]] = []
        for parts, order in zip(fixed, orders, strict=True):
            new_groups.extend(parts)
            for c in order:
                nxt += 1
                lab[row[c]] = nxt
                new_groups.append((c,))
        yield tuple(new_groups), tuple(lab), nxt


def minlex(values: tuple[int, ...] | list[int], a: int, b: int,
           budget: int = BUDGET) -> tuple[int, ...]:
    """The minimal equivalent of a grid (values row by row, 0 empty, ``a x b`` blocks),
    with the digits relabelled by first appearance.  Raises BudgetExceeded."""
    n = a * b
    if a > b:  # work in the default shape: transpose into b x a blocks
        values = [values[c * n + r] for r in range(n) for c in range(n)]
        a, b = b, a
    m0 = [list(values[r * n:(r + 1) * n]) for r in range(n)]
    mats = [m0]
    if a == b:
        mats.append([[m0[c][r] for c in range(n)] for r in range(n)])
    stacks = n // b  # number of stacks (b columns each)
    zero_labels = (0,) * (n + 1)
    work = 0

    # --- the first row: choose the matrix, the row, the stack order
    best: tuple[int, ...] | None = None
    firsts: list[tuple[int, int, list[int]]] = []
    for mi, m in enumerate(mats):
        for r in range(n):
            counts = [sum(1 for c in range(s * b, s * b + b) if m[r][c]) for s in range(stacks)]
            key = tuple(sorted(counts))
            string = tuple(x for k in key for x in [0] * (b - k) + [1] * k)
            if best is None or string < best:
                best, firsts = string, []
            if string == best:
                firsts.append((mi, r, counts))
    states: list[State] = []
    for mi, r, counts in firsts:
        row = mats[mi][r]
        order_sets = set()
        # every stack order that sorts the stacks by their number of digits
        for perm in permutations(range(stacks)):
            if all(counts[perm[i]] <= counts[perm[i + 1]] for i in range(stacks - 1)):
                order_sets.add(perm)
        for perm in sorted(order_sets):
            groups: Groups = tuple(tuple(range(s * b, s * b + b)) for s in perm)
            for g2, lab, used in _refine(row, groups, zero_labels, 0):
                states.append((mi, (r,), g2, lab, used))
                work += n
                if work > budget:
                    raise BudgetExceeded
    assert best is not None
    count = iter(range(1, n + 1))
    prefix = [tuple(next(count) if x else 0 for x in best)]

    # --- the other rows, one at a time
    for k in range(1, n):
        best = None
        winners: list[tuple[State, int]] = []
        for st in states:
            mi, rows, groups, labels, used = st
            m = mats[mi]
            if k % a:
                band = rows[-1] // a
                cands = [r for r in range(band * a, band * a + a) if r not in rows]
            else:
                done = {r // a for r in rows}
                cands = [r for r in range(n) if r // a not in done]
            work += len(cands) * n
            if work > budget:
                raise BudgetExceeded
            for r in cands:
                s = _row_string(m[r], groups, labels, used)
                if best is None or s < best:
                    best, winners = s, []
                if s == best:
                    winners.append((st, r))
        states = []
        for st, r in winners:
            mi, rows, groups, labels, used = st
            for g2, lab, u2 in _refine(mats[mi][r], groups, labels, used):
                states.append((mi, rows + (r,), g2, lab, u2))
                work += n
                if work > budget:
                    raise BudgetExceeded
        assert best is not None
        prefix.append(best)
    return tuple(x for row in prefix for x in row)


def canonical_form(grid: Grid, budget: int = BUDGET) -> str:
    """The canonical form of a grid as text ('.' for empty), or ``!`` and the
    grid itself when the search budget is exceeded (see the module doc)."""
    geo = grid.geo
    try:
        cells = minlex(grid.values, geo.a, geo.b, budget)
    except BudgetExceeded:
        return "!" + grid.normalised()
    return "".join(SYMBOLS[v - 1] if v else "." for v in cells)


def canonical_key(text: str, box: tuple[int, int] | None = None) -> str:
    """The canonical form of a grid given as text (convenience for scripts and tests)."""
    from grader.formats import parse_grid_token

    return canonical_form(parse_grid_token(text, box=box))
