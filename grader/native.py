"""Bridge to the optional C accelerator :mod:`grader._native`.

The accelerator evaluates trial branches (fixpoints of the elimination rules,
nested trials) and solves grids exactly.  It is used only when every rule
involved is a built-in one it knows: each rule says so through
:meth:`grader.rule.Rule.native`.  Otherwise, and when the extension is not
built, the pure-Python code runs and gives the same results (the tests check
that both agree).

Set ``SUDOKU_GRADER_PURE=1`` in the environment to disable the accelerator.
"""

from __future__ import annotations

import functools
import itertools
import os
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .geometry import Geometry

if TYPE_CHECKING:
    from .board import Board
    from .rule import Rule

_native: Any
try:  # pragma: no cover - depends on the build
    import importlib

    _native = importlib.import_module("grader._native")
except ImportError:  # pragma: no cover
    _native = None

_disabled = os.environ.get("SUDOKU_GRADER_PURE", "") not in ("", "0")
_GEOS: dict[tuple[int, int], Any] = {}

#: Native descriptions of single position and single candidate (family 0).
SINGLE_POSITION_DESC = (0, 1, 0)
SINGLE_CANDIDATE_DESC = (0, 2, 0)


def available() -> bool:
    """Whether the C accelerator is built and enabled."""
    return _native is not None and not _disabled


def set_enabled(enabled: bool) -> None:
    """Turn the accelerator on or off (for tests and comparisons)."""
    global _disabled
    _disabled = not enabled


def _geo(geo: Geometry) -> Any:
    key = (geo.a, geo.b)
    cap = _GEOS.get(key)
    if cap is None:
        cap = _native.geometry(geo.a, geo.b)
        _GEOS[key] = cap
    return cap


@dataclass(frozen=True)
class Program:
    """A set of propagation rules translated for the accelerator."""

    rules: tuple[tuple[int, int, int], ...]
    has_disj: int
    has_red: int
    max_alt: int
    depth: int
    #: The rules written in Python (plugins), called back by the C fixpoint
    #: when its own rules are stuck (indexed by their description's p1).
    callbacks: tuple[PythonRule, ...] = ()

    def _cbs(self, board: Board) -> list[PythonRule] | None:
        if not self.callbacks:
            return None
        for cb in self.callbacks:
            cb.geo = board.geo
        return list(self.callbacks)

    def closure(self, board: Board, solution: Sequence[int] | None = None) -> bool:
        """Propagate ``board`` in place to the fixpoint; True on a contradiction."""
        conflict, (vals, cands) = _native.closure(
            _geo(board.geo), board.values, board.cands, self.rules, self.has_disj,
            self.has_red, self.max_alt, self.depth, solution, self._cbs(board))
        board.values[:] = vals
        board.cands[:] = cands
        return bool(conflict)

    def reductio_first(self, board: Board, solution: Sequence[int] | None,
                       start: int) -> tuple[int, int] | None:
        """First candidate (cell order, values ascending) at or after position
        ``start`` (``cell * 64 + value``) whose assumption ends in a contradiction;
        candidates agreeing with ``solution`` are skipped (they never can)."""
        hit = _native.reductio_first(
            _geo(board.geo), board.values, board.cands, self.rules, self.has_disj,
            self.has_red, self.max_alt, self.depth, solution, start, self._cbs(board))
        return None if hit is None else (int(hit[0]), int(hit[1]))

    def disjunction_first(self, board: Board, solution: Sequence[int] | None, max_alt: int,
                          start: int,
                          ) -> tuple[int, str, int, int, int, list[tuple[int, int]], int] | None:
        """First pivot (in the order of ``DisjunctiveConstruction``, pivots with
        up to ``max_alt`` alternatives) at or after index ``start`` with a
        conclusion: (index, "place" | "elim", cell, value, region or -1,
        alternatives, bitmask of the alternatives that end in a contradiction)."""
        hit = _native.disjunction_first(
            _geo(board.geo), board.values, board.cands, self.rules, self.has_disj,
            self.has_red, max_alt, self.depth, solution, start, self._cbs(board))
        if hit is None:
            return None
        idx, kind, cell, value, region, alts, dead = hit
        return (int(idx), "place" if kind == 0 else "elim", int(cell), int(value), int(region),
                [(int(c), int(v)) for c, v in alts], int(dead))


#: The family number of a rule written in Python, run by a call back.
FAM_PYTHON = 6
_tags = itertools.count(1)
_rule_tags: weakref.WeakKeyDictionary[Rule, int] = weakref.WeakKeyDictionary()


class PythonRule:
    """A plugin's rule as the C fixpoint calls it: ``(values, cands)`` in,
    the position after every step its ``find()`` makes in one pass out (None
    when it makes none).  The fixpoint of monotonic rules does not depend on
    the order of the deductions, so the closure is the pure-Python one."""

    __slots__ = ("rule", "geo")

    def __init__(self, rule: Rule) -> None:
        self.rule = rule
        self.geo: Geometry | None = None

    def __call__(self, values: list[int], cands: list[int]) -> tuple[list[int], list[int]] | None:
        assert self.geo is not None
        board = _board_class()(self.geo, values, cands)
        progress = False
        for step in list(self.rule.find(board)):
            if board.progress(step):
                board.apply(step)
                progress = True
        return (board.values, board.cands) if progress else None


@functools.cache
def _board_class() -> type[Board]:
    from .board import Board  # board imports this module

    return Board


def _tag(rule: Rule) -> int:
    """A number that tells this rule object apart in the accelerator's memo."""
    tag = _rule_tags.get(rule)
    if tag is None:
        tag = _rule_tags[rule] = next(_tags) & 0x3FFFFFFF
    return tag


def program(rules: Sequence[Rule], options: dict[str, Any] | None = None) -> Program | None:
    """Translate propagation ``rules`` (plain rules, plus trial rules of one
    inner depth) for the accelerator, or None when it cannot run them.  Rules
    it does not know (plugins) are called back in Python at their turn."""
    if not available():
        return None
    plain: list[tuple[int, int, int]] = []
    callbacks: list[PythonRule] = []
    singles = 0
    has_disj = has_red = 0
    depth = 0
    max_alt = 2
    for r in rules:
        if r.kind == "trial":
            code = r.accelerated()
            if code is None:
                return None
            if code[0] == "disj":
                has_disj = 1
            elif code[0] == "reductio":
                has_red = 1
            else:
                return None
            depth = max(depth, int(code[1]))
            max_alt = max(max_alt, int(code[2]))
            continue
        desc = r.accelerated()
        if desc is None:
            plain.append((FAM_PYTHON, len(callbacks), _tag(r)))
            callbacks.append(PythonRule(r))
            continue
        if desc[0] == 0:
            singles += 1
            continue
        plain.append((int(desc[0]), int(desc[1]), int(desc[2])))
    if singles < 2:
        return None
    return Program(tuple(plain), has_disj, has_red, max_alt, depth, tuple(callbacks))


def first_progress(board: Board, descs: Sequence[tuple[int, int, int]]) -> int:
    """Index of the first rule description that can make progress now, or -1."""
    return int(_native.first_progress(_geo(board.geo), board.values, board.cands, descs))


def contradiction(board: Board) -> tuple[int, int, int] | None:
    """The first contradiction as (kind, a, b), see ``Board.contradiction``."""
    hit = _native.contradiction(_geo(board.geo), board.values, board.cands)
    return None if hit is None else (int(hit[0]), int(hit[1]), int(hit[2]))


def solve(geo: Geometry, values: Sequence[int], limit: int,
          max_nodes: int | None) -> tuple[int, list[list[int]], int] | None:
    """Exact solving in C: (count, solutions, nodes), or None without the accelerator."""
    if not available():
        return None
    count, sols, nodes = _native.solve(_geo(geo), list(values), limit,
                                       -1 if max_nodes is None else max_nodes)
    return int(count), sols, int(nodes)
