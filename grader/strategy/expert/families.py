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

import functools
import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from grader.core.board import Board
from grader.kernel import families_header
from grader.strategy.expert import accel
from grader.strategy.expert.chains import StaticGraph
from grader.strategy.expert.dynamic import Dynamic
from grader.strategy.expert.hint import Hint, Position
from grader.strategy.plugins import declared_families
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


def producer(b: Board, kernel: str | None, name: str) -> Iterator[Hint]:
    """Sudoku Explainer's own chaining producer ``name`` (``"cycles"``,
    ``"nishio"``, ``"multiple"``; grader.strategy.serate): the one hint it
    applies, its easiest (SE applies one hint per step).  The finder of the
    families declared with ``"walk": "python"`` (chains and cycles, Nishio,
    multiple chains): the walk runs it, not their C twin (C number -1 in
    :func:`table`); it calls C itself through producer_hints when ``kernel``
    allows."""
    if (b.geo.a, b.geo.b) != (3, 3):
        return
    for h in producer_hints(b.values, b.cands, name, kernel):
        yield Hint(PRODUCER_NAMES.get(h.shape, h.shape), h.tenths,
                   (h.placement,) if h.placement else (), h.removable, ())
        return


def _finder(decl: Mapping[str, Any]) -> Finder:
    """A family's finder from its declaration: ``finder`` ("module:name", a
    dotted name for a method), called with the context's ``uses`` (``pos``,
    ``graph``, ``dynamic``) and then ``args``."""
    module, _, attr = str(decl["finder"]).partition(":")
    uses = tuple(decl.get("uses", ("pos",)))
    args = tuple(decl.get("args", ()))
    fn: Any = None

    def find(x: Context) -> Iterator[Hint]:
        nonlocal fn
        if fn is None:  # imported on first use: the C twins never need it
            fn = importlib.import_module(module)
            for part in attr.split("."):
                fn = getattr(fn, part)
        return fn(*(getattr(x, u) for u in uses), *args)

    return find


@dataclass(frozen=True)
class Table:
    """The families as rules/patterns/ declares them, in the order they are
    tried (Sukaku Explainer's order)."""

    #: (name, finder, number in the C accelerator or -1: Python only)
    families: tuple[tuple[str, Finder, int], ...]
    #: runs of ``families``: (start, end, C number of the start or -1)
    segments: tuple[tuple[int, int, int], ...]
    #: the names of the families the engine consults (see :func:`easiest_hints`)
    consulted: tuple[str, ...]
    #: runs of consecutive consulted families: (first, last + 1)
    consulted_runs: tuple[tuple[int, int], ...]


def _c_number(decl: Mapping[str, Any]) -> int:
    """A family's number in the C accelerator for the walk, -1 (its Python
    finder) when it has no C twin or declares ``"walk": "python"`` (its C twin
    is still built, for its hint codes and :mod:`accel`'s other callers)."""
    if "c" not in decl or decl.get("walk") == "python":
        return -1
    return int(decl["c"]["index"])


@functools.cache
def table() -> Table:
    """The families' table, read from the declarations on first use (the
    modules that declare them import the engine, which imports this one)."""
    decls = families_header.ordered(declared_families())
    accel.bind(tuple(name for name, _ in families_header.hint_codes(decls)),
               families_header.signature(decls))
    fams = tuple((str(d["name"]), _finder(d), _c_number(d)) for d in decls)
    consulted = tuple(str(d["name"]) for d in decls if d.get("consulted"))
    return Table(fams, _segments(fams), consulted, _consulted_runs(fams, consulted))


def __getattr__(name: str) -> Any:
    """``FAMILIES``, ``SEGMENTS``, ``CONSULTED`` and ``CONSULTED_RUNS``: the
    fields of :func:`table`, as module attributes."""
    field = {"FAMILIES": "families", "SEGMENTS": "segments", "CONSULTED": "consulted",
             "CONSULTED_RUNS": "consulted_runs"}.get(name)
    if field is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(table(), field)


def _segments(fams: tuple[tuple[str, Finder, int], ...]) -> tuple[tuple[int, int, int], ...]:
    """Runs of FAMILIES: (start, end, C index of the start or -1), a run
    being one Python-only family or families with consecutive C numbers."""
    out: list[tuple[int, int, int]] = []
    for i, (_, _, cidx) in enumerate(fams):
        if out and cidx >= 0 and out[-1][2] >= 0 and out[-1][2] + i - out[-1][0] == cidx:
            out[-1] = (out[-1][0], i + 1, out[-1][2])
        else:
            out.append((i, i + 1, cidx))
    return tuple(out)


def first_family(board: Board, last: int | None = None, first: int = 0,
                 kernel: str | None = None) -> tuple[str, list[Hint]] | None:
    """The first family (among ``FAMILIES[first:last]``, all when ``last`` is
    None) with a useful hint on ``board``, and all its useful hints in the
    order found.  ``kernel``: the engine's kernel (``"c"`` or ``"python"``),
    the default one when None."""
    fams = table().families
    found = _first(board, first, len(fams) if last is None else last, kernel)
    return None if found is None else (fams[found[0]][0], found[1])


def _first(board: Board, first: int, last: int,
           kernel: str | None = None) -> tuple[int, list[Hint]] | None:
    """(index in FAMILIES, useful hints) of the first family from ``first``
    to ``last - 1`` with a useful hint."""
    tab = table()
    if not accel.available(board, kernel):
        return _first_python(board, first, last)
    ctx: Context | None = None
    for start, end, cidx in tab.segments:
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
            hints = [h for h in tab.families[start][1](ctx) if useful(board, h)]
        if hints:
            return index, hints
    return None


def _first_python(board: Board, first: int, last: int) -> tuple[int, list[Hint]] | None:
    ctx = Context(board, "python")
    fams = table().families
    for index in range(first, last):
        hints = [h for h in fams[index][1](ctx) if useful(board, h)]
        if hints:
            return index, hints
    return None


def first_family_python(board: Board, last: int | None = None,
                        ) -> tuple[str, list[Hint]] | None:
    """:func:`first_family` in pure Python."""
    fams = table().families
    found = _first_python(board, 0, len(fams) if last is None else last)
    return None if found is None else (fams[found[0]][0], found[1])


#: The families the engine consults to choose its trials (see
#: :func:`easiest_hints`; ``consulted`` in their declarations): the patterns
#: and strong-link chains that are cheap to search.  Passed over: uniqueness
#: patterns (unique rectangles and loops, BUG), whose conclusions rest on the
#: grid having one solution, which no trial (it only propagates) shows;
#: aligned exclusions, and the chains, cycles and dynamic families, which cost
#: more to search at every trial than the trial itself (such trials are named
#: by their shape: forcing chains).
def _consulted_runs(fams: tuple[tuple[str, Finder, int], ...],
                    consulted: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """Runs of consecutive consulted families: (first, last + 1)."""
    runs: list[tuple[int, int]] = []
    for i, (name, _, _) in enumerate(fams):
        if name not in consulted:
            continue
        if runs and runs[-1][1] == i:
            runs[-1] = (runs[-1][0], i + 1)
        else:
            runs.append((i, i + 1))
    return tuple(runs)


def easiest_hints(board: Board, kernel: str | None = None) -> list[Hint]:
    """The useful hints of the first consulted family that has one on
    ``board``, easiest first (ties in the order found); empty when none has.
    Only 9x9 grids are searched (the rated size)."""
    if (board.geo.a, board.geo.b) != (3, 3):
        return []
    for first, last in table().consulted_runs:
        found = _first(board, first, last, kernel)
        if found is not None:
            return sorted(found[1], key=lambda h: h.rating)
    return []


def useful(board: Board, hint: Hint) -> bool:
    for c, _ in hint.placements:
        if not board.values[c]:
            return True
    return any(board.cands[c] >> (d - 1) & 1 for c, d in hint.eliminations)


