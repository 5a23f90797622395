"""The expert families: the patterns and chains of Sukaku Explainer in the
order they are tried, and the search for the first family with a hint at a
position (in C when the accelerator is built, else in Python, with the same
hints in the same order).

This module sits below the engine: the engine asks :func:`easiest_hints` to
choose which trial to apply (the easiest pattern the position holds), and the
rating walk (:mod:`grader.strategy.expert.walker`, above the engine) asks
:func:`first_family`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from grader.core.board import Board
from grader.strategy.expert import accel
from grader.strategy.expert.chains import StaticGraph
from grader.strategy.expert.dynamic import Dynamic
from grader.strategy.expert.hint import Hint, Position
from grader.strategy.expert.links import empty_rectangles, strong_link_chains
from grader.strategy.expert.rectangles import (
    hidden_quads,
    jellyfish,
    naked_quads,
    unique_rectangles,
)
from grader.strategy.expert.wings import (
    aligned_pair_exclusions,
    aligned_triplet_exclusions,
    als_wings,
    bugs,
    xy_wings,
    xyz_wings,
)
from grader.strategy.serate.rate import producer_hints


class Context:
    """One position and the searches its families share."""

    def __init__(self, board: Board, kernel: str | None = None) -> None:
        self.pos = Position(board)
        self.board = board
        #: the kernel whose chaining producers run (None: the default one)
        self.kernel = kernel
        self._graph: StaticGraph | None = None
        self._dynamic: Dynamic | None = None

    @property
    def graph(self) -> StaticGraph:
        if self._graph is None:
            self._graph = StaticGraph(self.pos)
        return self._graph

    @property
    def dynamic(self) -> Dynamic:
        if self._dynamic is None:
            self._dynamic = Dynamic(self.pos)
        return self._dynamic


Finder = Callable[[Context], Iterator[Hint]]


#: The names of the producers' hints by shape (the pattern families' names).
PRODUCER_NAMES = {"contradiction": "Nishio", "cell": "cell forcing chains",
                  "region": "region forcing chains", "forcing": "forcing chain",
                  "cycle": "Y-cycle"}


def _producer(producer: str) -> Finder:
    """Sudoku Explainer's own chaining producer (grader.strategy.serate): the
    one hint it applies, its easiest (SE applies one hint per step)."""
    def find(x: Context) -> Iterator[Hint]:
        b = x.board
        if (b.geo.a, b.geo.b) != (3, 3):
            return
        for h in producer_hints(b.values, b.cands, producer, x.kernel):
            yield Hint(PRODUCER_NAMES.get(h.shape, h.shape), h.tenths,
                       (h.placement,) if h.placement else (), h.removable, ())
            return
    return find


#: The families in the order they are tried (Sukaku Explainer's order), with
#: their number in the C accelerator (-1: Python only).
FAMILIES: tuple[tuple[str, Finder, int], ...] = (
    ("strong-link chain, 2 links", lambda x: strong_link_chains(x.pos, 2), 0),
    ("XY-Wing", lambda x: xy_wings(x.pos), 1),
    ("empty rectangle", lambda x: empty_rectangles(x.pos), 20),
    ("XYZ-Wing", lambda x: xyz_wings(x.pos), 2),
    ("unique rectangle", lambda x: unique_rectangles(x.pos), 3),
    ("naked quad", lambda x: naked_quads(x.pos), 17),
    ("jellyfish", lambda x: jellyfish(x.pos), 4),
    ("hidden quad", lambda x: hidden_quads(x.pos), 18),
    ("strong-link chain, 3 links", lambda x: strong_link_chains(x.pos, 3), 5),
    ("WXYZ-Wing", lambda x: als_wings(x.pos, 4), 6),
    ("BUG", lambda x: bugs(x.pos), 7),
    ("strong-link chain, 4 links", lambda x: strong_link_chains(x.pos, 4), 8),
    ("VWXYZ-Wing", lambda x: als_wings(x.pos, 5), 9),
    ("aligned pair exclusion", lambda x: aligned_pair_exclusions(x.pos), 10),
    ("UVWXYZ-Wing", lambda x: als_wings(x.pos, 6), 11),
    ("chains and cycles", _producer("cycles"), -1),
    ("TUVWXYZ-Wing", lambda x: als_wings(x.pos, 7), 16),
    ("aligned triplet exclusion", lambda x: aligned_triplet_exclusions(x.pos), 19),
    ("Nishio", _producer("nishio"), -1),
    ("multiple chains", _producer("multiple"), -1),
    ("dynamic chains", lambda x: x.dynamic.hints(), 15),
)


def _segments() -> list[tuple[int, int, int]]:
    """Runs of FAMILIES: (start, end, C index of the start or -1), a run
    being one Python-only family or families with consecutive C numbers."""
    out: list[tuple[int, int, int]] = []
    for i, (_, _, cidx) in enumerate(FAMILIES):
        if out and cidx >= 0 and out[-1][2] >= 0 and out[-1][2] + i - out[-1][0] == cidx:
            out[-1] = (out[-1][0], i + 1, out[-1][2])
        else:
            out.append((i, i + 1, cidx))
    return out


SEGMENTS = _segments()

def first_family(board: Board, last: int = len(FAMILIES), first: int = 0,
                 kernel: str | None = None) -> tuple[str, list[Hint]] | None:
    """The first family (among ``FAMILIES[first:last]``) with a useful hint on
    ``board``, and all its useful hints in the order found.  ``kernel``: the
    engine's kernel (``"c"`` or ``"python"``), the default one when None."""
    found = _first(board, first, last, kernel)
    return None if found is None else (FAMILIES[found[0]][0], found[1])


def _first(board: Board, first: int, last: int,
           kernel: str | None = None) -> tuple[int, list[Hint]] | None:
    """(index in FAMILIES, useful hints) of the first family from ``first``
    to ``last - 1`` with a useful hint."""
    if not accel.available(board, kernel):
        return _first_python(board, first, last)
    ctx: Context | None = None
    for start, end, cidx in SEGMENTS:
        start, lo = max(start, first), start
        end = min(end, last)
        if start >= end:
            continue
        if cidx >= 0:
            got = accel.first_family(board, cidx + start - lo, cidx + end - lo)
            if got is None:
                continue
            fam, raw = got
            index = lo + fam - cidx
            hints = [h for h in raw if useful(board, h)]
        else:
            ctx = ctx or Context(board, kernel)
            index = start
            hints = [h for h in FAMILIES[start][1](ctx) if useful(board, h)]
        if hints:
            return index, hints
    return None


def _first_python(board: Board, first: int, last: int) -> tuple[int, list[Hint]] | None:
    ctx = Context(board, "python")
    for index in range(first, last):
        hints = [h for h in FAMILIES[index][1](ctx) if useful(board, h)]
        if hints:
            return index, hints
    return None


def first_family_python(board: Board, last: int = len(FAMILIES),
                        ) -> tuple[str, list[Hint]] | None:
    """:func:`first_family` in pure Python."""
    found = _first_python(board, 0, last)
    return None if found is None else (FAMILIES[found[0]][0], found[1])


#: The families the engine consults to choose its trials (see
#: :func:`easiest_hints`): the patterns and strong-link chains that are cheap
#: to search.  Passed over: uniqueness patterns (unique rectangles and loops,
#: BUG), whose conclusions rest on the grid having one solution, which no trial
#: (it only propagates) shows; aligned exclusions, and the chains, cycles and
#: dynamic families, which cost more to search at every trial than the trial
#: itself (such trials are named by their shape: forcing chains).
CONSULTED = (
    "strong-link chain, 2 links", "XY-Wing", "empty rectangle", "XYZ-Wing", "naked quad",
    "jellyfish", "hidden quad", "strong-link chain, 3 links", "WXYZ-Wing",
    "strong-link chain, 4 links", "VWXYZ-Wing", "UVWXYZ-Wing",
)


def _consulted_runs() -> tuple[tuple[int, int], ...]:
    """Runs of consecutive consulted families: (first, last + 1)."""
    runs: list[tuple[int, int]] = []
    for i, (name, _, _) in enumerate(FAMILIES):
        if name not in CONSULTED:
            continue
        if runs and runs[-1][1] == i:
            runs[-1] = (runs[-1][0], i + 1)
        else:
            runs.append((i, i + 1))
    return tuple(runs)


CONSULTED_RUNS = _consulted_runs()


def easiest_hints(board: Board, kernel: str | None = None) -> list[Hint]:
    """The useful hints of the first consulted family that has one on
    ``board``, easiest first (ties in the order found); empty when none has.
    Only 9x9 grids are searched (the rated size)."""
    if (board.geo.a, board.geo.b) != (3, 3):
        return []
    for first, last in CONSULTED_RUNS:
        found = _first(board, first, last, kernel)
        if found is not None:
            return sorted(found[1], key=lambda h: h.rating)
    return []


def useful(board: Board, hint: Hint) -> bool:
    for c, _ in hint.placements:
        if not board.values[c]:
            return True
    return any(board.cands[c] >> (d - 1) & 1 for c, d in hint.eliminations)


