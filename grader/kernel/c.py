"""The boundary with the optional C accelerator :mod:`grader.kernel._native`.

Everything that crosses into C goes through this module:

* :func:`available` is the one place that asks whether the accelerator is on
  (built, and not turned off by ``SUDOKU_GRADER_PURE=1``, read at each call);
  :func:`grader.kernel.default_kernel` asks it when an engine is made.
* :class:`~grader.core.table.NativeRule` (re-exported here) is how a rule
  tells the accelerator what it is; this module checks the C module's table
  against it when it loads the extension (:func:`check_tables`) and refuses
  a build that differs.
* :class:`Program`: a set of rules compiled for the accelerator (closure,
  reductio and disjunction searches), made by :func:`compile_program`.

Engines do not call this module directly: they hold a kernel
(:mod:`grader.kernel`), the C one or the pure-Python one.  The module-level
functions :func:`program`, :func:`first_progress`, :func:`contradiction`,
:func:`solve` and :func:`set_enabled` are the older entry points, kept as thin
wrappers.
"""

from __future__ import annotations

import functools
import importlib
import itertools
import os
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from grader.core.board import Board
from grader.core.env import accelerator_disabled
from grader.core.geometry import Geometry
from grader.core.table import (
    MAXN,
    MAXRULES,
    PARAMS,
    TRIAL_FAMILIES,
    Family,
    NativeBuildError,
    NativeRule,
    NativeRuleError,
    check_tables,
    describe,
)

__all__ = ["MAXN", "MAXRULES", "PARAMS", "TRIAL_FAMILIES", "Family", "NativeBuildError",
           "NativeRule", "NativeRuleError", "Program", "PythonRule", "available", "built",
           "check_tables", "compile_program", "describe", "optional_module", "program", "requested",
           "set_enabled", "solve", "stats"]

if TYPE_CHECKING:
    from grader.core.rule import Rule

def optional_module(name: str) -> Any:
    """The accelerator module ``grader.kernel.<name>`` (``_native``,
    ``_expert``, ``_serate``) when it is built, else None."""
    try:
        return importlib.import_module(f"grader.kernel.{name}")
    except ImportError:  # pragma: no cover - depends on the build
        return None


def _load() -> Any:
    module = optional_module("_native")
    if module is not None:
        check_tables(module)
    return module


_native: Any = _load()


def built() -> bool:
    """Whether the C accelerator is built (whatever the environment says)."""
    return _native is not None


def requested() -> bool:
    """Whether the environment allows the accelerator (``SUDOKU_GRADER_PURE``
    not 1, true, yes or on), read now."""
    return not accelerator_disabled()


def available() -> bool:
    """Whether the C accelerator is built and enabled: the one place that asks."""
    return _native is not None and requested()


def set_enabled(enabled: bool) -> None:
    """Turn the default kernel of engines made from now on to C (when built)
    or pure Python, through ``SUDOKU_GRADER_PURE``.  Kept for old callers:
    pass ``kernel=`` to :class:`~grader.strategy.engine.Engine` instead."""
    os.environ["SUDOKU_GRADER_PURE"] = "0" if enabled else "1"


def __getattr__(name: str) -> Any:
    if name == "_disabled":  # read by older callers
        return not available()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: A pivot with a conclusion (see :meth:`Program.disjunction_first`); the
#: last item, everything it proves, is None where it was not computed.
Disjunction = tuple[int, str, int, int, int, list[tuple[int, int]], int,
                    list[tuple[bool, int, int]] | None]


# -- compiled programs --------------------------------------------------------
def _geo(geo: Geometry) -> Any:
    return _geo_capsule(geo.a, geo.b)


@dataclass(frozen=True)
class Program:
    """A set of propagation rules compiled for the accelerator."""

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
        return [cb.on(board.geo) for cb in self.callbacks]

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
                          start: int) -> Disjunction | None:
        """First pivot (in the order of ``DisjunctiveConstruction``, pivots with
        up to ``max_alt`` alternatives) at or after index ``start`` with a
        conclusion: (index, "place" | "elim", cell, value, region or -1,
        alternatives, bitmask of the alternatives that end in a contradiction,
        everything the pivot proves as
        ``grader.strategy.trials.branches.conclusions_of`` lists it)."""
        hit = _native.disjunction_first(
            _geo(board.geo), board.values, board.cands, self.rules, self.has_disj,
            self.has_red, max_alt, self.depth, solution, start, self._cbs(board))
        if hit is None:
            return None
        idx, kind, cell, value, region, alts, dead, targets = hit
        return (int(idx), "place" if kind == 0 else "elim", int(cell), int(value), int(region),
                [(int(c), int(v)) for c, v in alts], int(dead), targets)


_tags = itertools.count(1)
_rule_tags: weakref.WeakKeyDictionary[Rule, int] = weakref.WeakKeyDictionary()


class PythonRule:
    """A plugin's rule as the C fixpoint calls it: ``(values, cands)`` in,
    the position after every step its ``find()`` makes in one pass out (None
    when it makes none).  The fixpoint of monotonic rules does not depend on
    the order of the deductions, so the closure is the pure-Python one."""

    __slots__ = ("rule", "geo")

    def __init__(self, rule: Rule, geo: Geometry | None = None) -> None:
        self.rule = rule
        self.geo = geo

    def on(self, geo: Geometry) -> PythonRule:
        """This rule for boards of ``geo`` (a new object: programs are shared)."""
        return self if self.geo is geo else PythonRule(self.rule, geo)

    def __call__(self, values: list[int], cands: list[int]) -> tuple[list[int], list[int]] | None:
        assert self.geo is not None
        board = Board(self.geo, values, cands)
        progress = False
        for step in list(self.rule.find(board)):
            if board.progress(step):
                board.apply(step)
                progress = True
        return (board.values, board.cands) if progress else None


def _tag(rule: Rule) -> int:
    """A number that tells this rule object apart in the accelerator's memo."""
    tag = _rule_tags.get(rule)
    if tag is None:
        tag = _rule_tags[rule] = next(_tags) & 0x3FFFFFFF
    return tag


def compile_program(rules: Sequence[Rule]) -> Program | None:
    """Compile propagation ``rules`` (plain rules, plus trial rules of one
    inner depth) for the accelerator, or None when it cannot run them (not
    built, no singles among them, or a trial rule it does not know).  Rules
    it does not know (plugins) are called back in Python at their turn."""
    if _native is None:
        return None
    plain: list[tuple[int, int, int]] = []
    callbacks: list[PythonRule] = []
    singles = has_disj = has_red = depth = 0
    max_alt = 2
    for r in rules:
        desc = r.accelerated()
        if r.kind == "trial":
            if desc is None or not desc.is_trial:
                return None
            has_disj |= desc.family is Family.DISJUNCTION
            has_red |= desc.family is Family.REDUCTIO
            depth = max(depth, desc.param("depth"))
            max_alt = max(max_alt, desc.param("max_alternatives"))
        elif desc is None:
            if len(callbacks) >= MAXRULES:
                return None
            plain.append(NativeRule.of(Family.PYTHON, index=len(callbacks),
                                       tag=_tag(r)).encode())
            callbacks.append(PythonRule(r))
        elif desc.family is Family.SINGLES:
            singles += 1
        else:
            plain.append(desc.encode())
    if singles < 2 or len(plain) > MAXRULES:
        return None
    return Program(tuple(plain), has_disj, has_red, max_alt, depth, tuple(callbacks))


def probe_descs(rules: Sequence[Rule]) -> tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]]:
    """Positions and compiled descriptions of the non-trial ``rules`` the
    accelerator knows (for :func:`first_progress`)."""
    idx: list[int] = []
    descs: list[tuple[int, int, int]] = []
    for i, r in enumerate(rules):
        if r.kind == "trial":
            continue
        d = r.accelerated()
        if d is not None:
            idx.append(i)
            descs.append(d.encode())
    return tuple(idx), tuple(descs)


def c_first_progress(board: Board, descs: Sequence[tuple[int, int, int]]) -> int:
    """Index of the first compiled description that can make progress now, or -1."""
    return int(_native.first_progress(_geo(board.geo), board.values, board.cands, descs))


def c_steps(board: Board, descs: Sequence[tuple[int, int, int]], limit: int) -> bytes:
    """The minimal-level strategy over the compiled plain rules ``descs``, one
    step at a time, applied to ``board`` in place: the index of each step's
    rule, in order (see ``steps`` in ``_native.c``)."""
    out, (vals, cands) = _native.steps(_geo(board.geo), board.values, board.cands, descs, limit)
    board.values[:] = vals
    board.cands[:] = cands
    return bytes(out)


def c_contradiction(board: Board) -> tuple[int, int, int] | None:
    """The first contradiction as (kind, a, b), see ``Board.contradiction``."""
    hit = _native.contradiction(_geo(board.geo), board.values, board.cands)
    return None if hit is None else (int(hit[0]), int(hit[1]), int(hit[2]))


def c_solve(geo: Geometry, values: Sequence[int], limit: int,
            max_nodes: int | None) -> tuple[int, list[list[int]], int]:
    """Exact solving in C: (count, solutions, nodes)."""
    count, sols, nodes = _native.solve(_geo(geo), list(values), limit,
                                       -1 if max_nodes is None else max_nodes)
    return int(count), sols, int(nodes)


def stats() -> dict[str, int]:
    """The C work counters since the module was loaded (for benchmarks)."""
    return dict(_native.stats()) if _native is not None else {}


# -- the older entry points ---------------------------------------------------
def program(rules: Sequence[Rule], options: dict[str, Any] | None = None) -> Program | None:
    """The program the kernel of ``rules`` (the one their engine chose)
    runs them with: None when that kernel is the pure-Python one."""
    for r in rules:
        kernel = getattr(getattr(r, "context", None), "kernel", None)
        if kernel is not None:
            return kernel.program(rules)
    return compile_program(rules) if available() else None


def first_progress(board: Board, descs: Sequence[tuple[int, int, int]]) -> int:
    return c_first_progress(board, descs)


def contradiction(board: Board) -> tuple[int, int, int] | None:
    return c_contradiction(board)


def solve(geo: Geometry, values: Sequence[int], limit: int,
          max_nodes: int | None) -> tuple[int, list[list[int]], int] | None:
    """Exact solving in C, or None without the accelerator."""
    return c_solve(geo, values, limit, max_nodes) if available() else None


@functools.cache
def _geo_capsule(a: int, b: int) -> Any:
    """The C geometry of a shape (immutable, made once per shape)."""
    return _native.geometry(a, b)
