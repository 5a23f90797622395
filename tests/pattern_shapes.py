"""What each family's name promises of its cells and links, checked on the
board a step was found on, independently of the family's own code.

:func:`check_step` raises AssertionError, naming the step, where a link is not
what it claims (a strong link whose two candidates are not the only ones of
their cell or unit, a weak link between candidates that can both be true) or
where the cells and links do not form the pattern the name says (a
skyscraper: two strong links on one digit in parallel lines whose ends see
each other; an XY-Wing: a bivalue pivot whose two bivalue pincers see it and
share the third value; ...), or where a conclusion does not follow from the
shape (a cell that loses a digit sees every end that may hold it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from grader.core.board import Board
from grader.core.geometry import values_of
from grader.core.steps import Arc, Step

ROW, COL, BOX = 0, 1, 2


def kind(board: Board, unit: int) -> int:
    return board.geo.region_kind[unit]


def sees(board: Board, a: int, b: int) -> bool:
    return a != b and any(r in board.geo.cell_regions[b] for r in board.geo.cell_regions[a])


def places(board: Board, unit: int, d: int) -> list[int]:
    return [c for c in board.geo.regions[unit] if board.cands[c] >> (d - 1) & 1]


def has(board: Board, cell: int, d: int) -> bool:
    return not board.values[cell] and bool(board.cands[cell] >> (d - 1) & 1)


# -- links ----------------------------------------------------------------------
def check_arc(board: Board, arc: Arc, grouped_box: bool = False) -> None:
    """A link is what it claims on ``board``: a strong link's ends (two
    candidates, or groups) are every place of the value in its unit (or the
    two values of a bivalue cell); a weak link's ends all see each other (or
    are two values of one cell).  ``grouped_box`` is kept for callers; a
    grouped link names its groups (``a_group``, ``b_group``)."""
    (a, da), (b, db) = arc.a, arc.b
    ends_a, ends_b = arc.a_group or (a,), arc.b_group or (b,)
    assert a in ends_a and b in ends_b, f"{arc}: an end's cell is not in its group"
    assert all(has(board, c, da) for c in ends_a) and all(has(board, c, db) for c in ends_b), (
        f"{arc}: a candidate is not there")
    if a == b and not arc.grouped:
        assert da != db, f"{arc}: one candidate linked to itself"
        if arc.strong:
            assert board.cands[a] == (1 << (da - 1)) | (1 << (db - 1)), (
                f"{arc}: strong inside a cell with more than these two values")
        return
    assert da == db, f"{arc}: two cells linked on different values"
    if not arc.strong:
        assert all(sees(board, x, y) for x in ends_a for y in ends_b), (
            f"{arc}: weak link between cells that do not see each other")
        return
    assert arc.unit >= 0, f"{arc}: a strong link without its unit"
    unit_cells = set(board.geo.regions[arc.unit])
    assert set(ends_a) | set(ends_b) <= unit_cells, f"{arc}: an end outside its unit"
    spots = places(board, arc.unit, da)
    if arc.grouped:
        assert set(spots) <= set(ends_a) | set(ends_b), (
            f"{arc}: {da} has places {spots} in unit {arc.unit} outside the two groups")
        return
    assert sorted(spots) == sorted((a, b)), (
        f"{arc}: {da} has places {spots} in unit {arc.unit}, not just these two")


def alternating(arcs: Sequence[Arc]) -> bool:
    """Strong first and last, strong and weak by turns, each link starting
    where the one before ended."""
    return (bool(arcs) and arcs[0].strong and arcs[-1].strong
            and all(x.strong != y.strong and x.b == y.a
                    for x, y in zip(arcs, arcs[1:], strict=False)))


def ends_see(board: Board, step: Step, ends: Sequence[tuple[int, int]]) -> None:
    """Every elimination of digit d sees every end that holds d (or is the
    cell of two ends with different values)."""
    for c, d in step.eliminations:
        on = [e for e in ends if e[1] == d]
        assert on, f"{step.name}: removes {d} from r{c // 9 + 1}c{c % 9 + 1}, no end holds it"
        same_cell = len({e[0] for e in ends}) == 1 and c == ends[0][0]
        assert same_cell or all(sees(board, c, e[0]) for e in on), (
            f"{step.name}: r{c // 9 + 1}c{c % 9 + 1}<>{d} does not see every end")


# -- the families ---------------------------------------------------------------
def strong_link_chain(board: Board, step: Step) -> None:
    arcs = step.pattern.arcs
    d = step.pattern.values[0]
    assert alternating(arcs) and all(x.a[1] == d == x.b[1] for x in arcs), step.summary()
    strongs = [a for a in arcs if a.strong]
    want = {"skyscraper": 2, "two-string kite": 2, "turbot fish": 2,
            "strong-link chain (3 links)": 3, "strong-link chain (4 links)": 4}[step.name]
    assert len(strongs) == want, step.summary()
    kinds = [kind(board, a.unit) for a in strongs]
    if step.name == "skyscraper":  # parallel lines, ends on a crossing line
        assert kinds[0] == kinds[1] != BOX, step.summary()
    if step.name == "two-string kite":  # a row and a column, ends in one box
        assert sorted(kinds) == [ROW, COL], step.summary()
        w = arcs[1]
        assert board.geo.cell_block[w.a[0]] == board.geo.cell_block[w.b[0]], step.summary()
    ends_see(board, step, [arcs[0].a, arcs[-1].b])


def empty_rectangle(board: Board, step: Step) -> None:
    arcs = step.pattern.arcs
    assert len(arcs) == 4 and [a.strong for a in arcs] == [True, False, True, False]
    assert kind(board, arcs[2].unit) == BOX, step.summary()
    ends_see(board, step, [arcs[0].a, arcs[2].b])


def wing(board: Board, step: Step) -> None:
    (p, _), (q1, _), (q2, _) = step.pattern.cells
    x, y, z = step.pattern.values
    assert sees(board, p, q1) and sees(board, p, q2), step.summary()
    assert board.cands[q1] == (1 << (x - 1)) | (1 << (z - 1)), step.summary()
    assert board.cands[q2] == (1 << (y - 1)) | (1 << (z - 1)), step.summary()
    pivot = {x, y} if step.name == "XY-Wing" else {x, y, z}
    assert set(values_of(board.cands[p])) == pivot, step.summary()
    ends = [(q1, z), (q2, z)] + ([(p, z)] if step.name == "XYZ-Wing" else [])
    ends_see(board, step, ends)


def als_wing(board: Board, step: Step) -> None:
    group = step.pattern.cells_with("als")
    w = step.pattern.cells_with("pincer")[0]
    x, z = step.pattern.values
    assert any(all(c in board.geo.regions[r] for c in group) for r in range(3 * board.geo.n)), (
        f"{step.summary()}: the set's cells share no unit")
    union = 0
    for c in group:
        union |= board.cands[c]
    assert union.bit_count() == len(group) + 1, f"{step.summary()}: not an almost locked set"
    assert board.cands[w] == (1 << (x - 1)) | (1 << (z - 1)), step.summary()
    assert all(sees(board, w, c) for c in group if has(board, c, x)), step.summary()
    zs = [c for c in group if has(board, c, z)]
    if not (zs and all(sees(board, w, c) for c in zs)):
        ends_see(board, step, [(c, z) for c in [*group, w] if has(board, c, z)])
        return
    # doubly linked (x and z both restricted common): a digit of the set other
    # than x and z is in the set, x and z each in the set or in w
    for c, d in step.eliminations:
        where = f"{step.name}: r{c // 9 + 1}c{c % 9 + 1}<>{d}"
        assert c not in group and c != w, f"{where} is inside the wing"
        on = [e for e in (group if d not in (x, z) else [*group, w]) if has(board, e, d)]
        assert on, f"{where}: no cell of the wing holds it"
        assert all(sees(board, c, e) for e in on), f"{where} does not see every {d} of the wing"


def chain(board: Board, step: Step) -> None:
    """From an assumption to its negation: assume the start on, weak links
    first and last, reach it off (it is removed); or assume it off, strong
    links first and last, reach it on (it is placed).  Links alternate."""
    arcs = step.pattern.arcs
    assert arcs and all(x.strong != y.strong and x.b == y.a
                        for x, y in zip(arcs, arcs[1:], strict=False)), (
        step.summary())
    if step.name == "X-chain":
        assert len({v for a in arcs for v in (a.a[1], a.b[1])}) == 1, step.summary()
    start = arcs[0].a
    assert arcs[-1].b == start, f"{step.summary()}: the chain does not come back to its start"
    if step.eliminations:
        assert not arcs[0].strong and not arcs[-1].strong, step.summary()
        assert step.eliminations == (start,), step.summary()
    else:
        assert arcs[0].strong and arcs[-1].strong, step.summary()
        assert step.placements == (start,), step.summary()


def y_cycle(board: Board, step: Step) -> None:
    """A loop of links, strong and weak by turns (read from the hint's own
    chain: a bivalue loop, or a cycle of Sudoku Explainer's search on X, Y or
    both links): either every candidate that starts a weak link is true or
    every one that ends one is, so a removed candidate outside the loop's
    cells sees one of each holding its value."""
    arcs = step.pattern.arcs
    assert arcs and arcs[-1].b == arcs[0].a, f"{step.summary()}: not a loop"
    assert len(arcs) % 2 == 0 and all(
        x.b == y.a and x.strong != y.strong for x, y in zip(arcs, arcs[1:], strict=False)), (
        f"{step.summary()}: links do not alternate")
    for a in arcs:
        if a.a[0] == a.b[0] and a.strong:
            assert board.cands[a.a[0]].bit_count() == 2, step.summary()
    on = [a.a for a in arcs if not a.strong]
    off = [a.b for a in arcs if not a.strong]
    loop = {c for a in arcs for c in (a.a[0], a.b[0])}
    for c, d in step.eliminations:
        assert c not in loop, f"{step.summary()}: removes from a cell of the loop"
        assert any(e[1] == d and sees(board, c, e[0]) for e in on) and any(
            e[1] == d and sees(board, c, e[0]) for e in off), (
            f"{step.summary()}: r{c // 9 + 1}c{c % 9 + 1}<>{d} does not see both sides")


def unique_rectangle(board: Board, step: Step) -> None:
    corners = [c for c, _ in step.pattern.cells][:4]
    g = board.geo
    assert len({g.cell_row[c] for c in corners}) == 2, step.summary()
    assert len({g.cell_col[c] for c in corners}) == 2, step.summary()
    assert len({g.cell_block[c] for c in corners}) == 2, step.summary()
    x, y = step.pattern.values[:2]
    assert all(has(board, c, x) and has(board, c, y) for c in corners), step.summary()


def quad(board: Board, step: Step) -> None:
    cs = step.pattern.cells_with("subset")
    (region, _), = step.pattern.regions
    assert len(cs) == 4 and all(c in board.geo.regions[region] for c in cs), step.summary()
    if step.name == "naked quad":
        union = 0
        for c in cs:
            union |= board.cands[c]
        assert union.bit_count() == 4, step.summary()
        assert all(c not in cs and c in board.geo.regions[region]
                   and board.cands[c] >> (d - 1) & 1 for c, d in step.eliminations), step.summary()
    else:
        assert all(c in cs for c, _ in step.eliminations), step.summary()
        kept = set(values_of(board.cands[cs[0]]))
        for c in cs[1:]:
            kept |= set(values_of(board.cands[c]))
        confined = [d for d in kept
                    if all(c in cs for c in places(board, region, d))]
        assert len(confined) >= 4, step.summary()


def jellyfish(board: Board, step: Step) -> None:
    d = step.pattern.values[0]
    base = step.pattern.regions_with("base")
    cover = step.pattern.regions_with("cover")
    assert len(base) == len(cover) == 4, step.summary()
    assert all(any(c in board.geo.regions[r] for r in cover)
               for b in base for c in places(board, b, d)), step.summary()
    assert all(any(c in board.geo.regions[r] for r in cover)
               and not any(c in board.geo.regions[b] for b in base)
               for c, _ in step.eliminations), step.summary()


def bug(board: Board, step: Step) -> None:
    extra = set(step.pattern.cells_with("extra"))
    open_cells = [c for c in range(board.geo.ncells) if not board.values[c]]
    assert all(board.cands[c].bit_count() == 2 for c in open_cells if c not in extra), (
        step.summary())
    assert all(board.cands[c].bit_count() == 3 for c in extra), step.summary()


SHAPES: dict[str, Callable[[Board, Step], None]] = {
    "quad": quad,
    "jellyfish": jellyfish,
    "bug": bug,
    "strong-link-chain": strong_link_chain,
    "empty-rectangle": empty_rectangle,
    "wing": wing,
    "als-wing": als_wing,
    "chain": chain,
    "y-cycle": y_cycle,
}


def check_step(board: Board, step: Step) -> None:
    """``step`` (of the pattern path, found on ``board``) is what its name says."""
    grouped = step.family == "empty-rectangle"
    for arc in step.pattern.arcs:
        check_arc(board, arc, grouped_box=grouped)
    shape = SHAPES.get(step.family)
    if shape is not None:
        shape(board, step)
    if step.name.startswith("unique rectangle"):
        unique_rectangle(board, step)
