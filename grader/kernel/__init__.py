"""Kernels: the one boundary between the engine and the C accelerator.

A kernel computes the costly parts of grading: the closure of a set of rules
(their fixpoint, trials nested inside), the trial searches (the first
reductio, the first disjunction with a conclusion), the probe that tells
which rule can move next, contradiction checks and the exact solver.  Two
implementations give the same results (the tests compare them on every grid
size):

* :class:`PythonKernel`, the reference (:mod:`grader.kernel.python`);
* :class:`CKernel`, the accelerator (:mod:`grader.kernel.c`).

An engine chooses its kernel once, when it is made
(``Engine(kernel=...)``, ``Grader(kernel=...)``); every rule it builds
carries it in its :class:`~grader.core.rule.RuleContext`.  The default is
:func:`default_kernel`: the C one when it is built, unless the environment
says ``SUDOKU_GRADER_PURE=1`` (read when the default is asked for, not at
import).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol, runtime_checkable

from grader.core.board import Board, Contradiction
from grader.core.geometry import Geometry
from grader.core.rule import Rule
from grader.kernel import c as native
from grader.kernel import python as reference
from grader.kernel.c import Disjunction, Program
from grader.kernel.solver import BIG, SolveResult, solve_python


@runtime_checkable
class Kernel(Protocol):
    """What an engine asks of its kernel."""

    #: ``"c"`` or ``"python"``
    name: str

    def program(self, rules: Sequence[Rule]) -> Program | None:
        """``rules`` compiled for the accelerator; None for pure Python."""

    def closure(self, board: Board, rules: Sequence[Rule],
                solution: Sequence[int] | None = None) -> bool:
        """Propagate ``rules`` on ``board`` in place to their fixpoint; True
        on a contradiction.  ``solution`` (the grid's, when known) only saves
        work."""

    def reductio_first(self, board: Board, rules: Sequence[Rule],
                       solution: Sequence[int] | None, start: int) -> tuple[int, int] | None:
        """See :func:`grader.kernel.python.reductio_first`."""

    def disjunction_first(self, board: Board, rules: Sequence[Rule],
                          solution: Sequence[int] | None, max_alt: int,
                          start: int) -> Disjunction | None:
        """See :func:`grader.kernel.python.disjunction_first`."""

    def probe(self, board: Board, rules: tuple[Rule, ...]) -> tuple[list[int], int] | None:
        """(positions of the rules the kernel can probe, position of the first
        of them that makes progress or -1), or None when it probes nothing."""

    def steps(self, board: Board, rules: tuple[Rule, ...], limit: int) -> bytes:
        """Apply the minimal-level strategy of the plain ``rules`` (no trials)
        to ``board``, one step at a time, until none applies or ``limit``
        steps: the position in ``rules`` of each step's rule, in order.  The
        steps are the rules' own, so both kernels count the same ones."""

    def contradiction(self, board: Board) -> Contradiction | None:
        """The first contradiction on ``board`` (see ``Board.contradiction``)."""

    def solve(self, geo: Geometry, values: Sequence[int], limit: int = 2,
              max_nodes: int | None = None) -> SolveResult:
        """Count the solutions of ``values`` up to ``limit`` (the exact solver)."""


class PythonKernel:
    """The pure-Python reference."""

    name = "python"

    def program(self, rules: Sequence[Rule]) -> Program | None:
        return None

    def closure(self, board: Board, rules: Sequence[Rule],
                solution: Sequence[int] | None = None) -> bool:
        return reference.fixpoint(board, rules) is not None

    def reductio_first(self, board: Board, rules: Sequence[Rule],
                       solution: Sequence[int] | None, start: int) -> tuple[int, int] | None:
        return reference.reductio_first(board, rules, solution, start)

    def disjunction_first(self, board: Board, rules: Sequence[Rule],
                          solution: Sequence[int] | None, max_alt: int,
                          start: int) -> Disjunction | None:
        return reference.disjunction_first(board, rules, solution, max_alt, start)

    def probe(self, board: Board, rules: tuple[Rule, ...]) -> tuple[list[int], int] | None:
        return None

    def steps(self, board: Board, rules: tuple[Rule, ...], limit: int) -> bytes:
        return python_steps(board, rules, limit)

    def contradiction(self, board: Board) -> Contradiction | None:
        return board.contradiction()

    def solve(self, geo: Geometry, values: Sequence[int], limit: int = 2,
              max_nodes: int | None = None) -> SolveResult:
        return solve_python(geo, values, limit, max_nodes)

    def __repr__(self) -> str:
        return "PythonKernel()"


class KernelUnavailable(RuntimeError):
    """The C kernel was asked for but the extension is not built."""


class CKernel:
    """The C accelerator.  Rule sets it cannot compile (no singles among
    them, or a trial rule it does not know) run in the reference."""

    name = "c"

    def __init__(self) -> None:
        if not native.built():
            raise KernelUnavailable("the C accelerator grader.kernel._native is not built "
                                    "(pip install -e . builds it; see the README)")

    def program(self, rules: Sequence[Rule]) -> Program | None:
        return _compiled(tuple(rules))

    def closure(self, board: Board, rules: Sequence[Rule],
                solution: Sequence[int] | None = None) -> bool:
        prog = self.program(rules)
        if prog is None:
            return reference.fixpoint(board, rules) is not None
        return prog.closure(board, solution)

    def reductio_first(self, board: Board, rules: Sequence[Rule],
                       solution: Sequence[int] | None, start: int) -> tuple[int, int] | None:
        prog = self.program(rules)
        if prog is None:
            return reference.reductio_first(board, rules, solution, start)
        return prog.reductio_first(board, solution, start)

    def disjunction_first(self, board: Board, rules: Sequence[Rule],
                          solution: Sequence[int] | None, max_alt: int,
                          start: int) -> Disjunction | None:
        prog = self.program(rules)
        if prog is None:
            return reference.disjunction_first(board, rules, solution, max_alt, start)
        return prog.disjunction_first(board, solution, max_alt, start)

    def probe(self, board: Board, rules: tuple[Rule, ...]) -> tuple[list[int], int] | None:
        idx, descs = _probe_descs(rules)
        if not descs:
            return None
        first = native.c_first_progress(board, descs)
        return list(idx), idx[first] if first >= 0 else -1

    def steps(self, board: Board, rules: tuple[Rule, ...], limit: int) -> bytes:
        idx, descs = _probe_descs(rules)
        if len(idx) < len(rules):  # a rule written in Python: stepped in Python
            return python_steps(board, rules, limit)
        return native.c_steps(board, descs, limit)

    def contradiction(self, board: Board) -> Contradiction | None:
        hit = native.c_contradiction(board)
        if hit is None:
            return None
        kind, a, b = hit
        geo = board.geo
        if kind == 0:
            return Contradiction(f"cell {geo.cell_name(a)} has no candidate left", cells=(a,))
        if kind == 1:
            return Contradiction(f"{geo.symbol(b)} has no place left in "
                                 f"{geo.region_long_name(a)}", region=a, value=b)
        return board.conflicts()

    def solve(self, geo: Geometry, values: Sequence[int], limit: int = 2,
              max_nodes: int | None = None) -> SolveResult:
        count, sols, nodes = native.c_solve(geo, values, limit, max_nodes)
        return SolveResult(count, tuple(tuple(s) for s in sols), nodes, limit)

    def __repr__(self) -> str:
        return "CKernel()"


def python_steps(board: Board, rules: tuple[Rule, ...], limit: int) -> bytes:
    """:meth:`Kernel.steps` in Python: the first step of the first rule that
    has one, applied, until none has or ``limit`` steps."""
    out = bytearray()
    while len(out) < limit and not board.is_solved():
        for i, rule in enumerate(rules):
            step = next((s for s in rule.find(board) if board.progress(s)), None)
            if step is not None:
                board.apply(step)
                out.append(i)
                break
        else:
            break
    return bytes(out)


# Compiled forms, by rule set (rules are compared by identity; an engine's
# rule sets live as long as the engine).  Pure functions of their key.
@lru_cache(maxsize=256)
def _compiled(rules: tuple[Rule, ...]) -> Program | None:
    return native.compile_program(rules)


@lru_cache(maxsize=256)
def _probe_descs(rules: tuple[Rule, ...],
                 ) -> tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]]:
    return native.probe_descs(rules)


PYTHON = PythonKernel()
_C: list[CKernel] = []


def c_kernel() -> CKernel:
    """The C kernel (one object: it holds no state of its own)."""
    if not _C:
        _C.append(CKernel())
    return _C[0]


def default_kernel() -> Kernel:
    """The C kernel when the accelerator is built and the environment does
    not turn it off (``SUDOKU_GRADER_PURE=1``), else the pure-Python one."""
    return c_kernel() if native.available() else PYTHON


def kernel_named(name: str) -> Kernel:
    """``"c"``, ``"python"`` or ``"default"``."""
    if name == "python":
        return PYTHON
    if name == "c":
        return c_kernel()
    if name == "default":
        return default_kernel()
    raise ValueError(f"no kernel named {name!r} (c, python, default)")


def kernel_of(rules: Sequence[Rule]) -> Kernel:
    """The kernel the engine that built ``rules`` chose (the default for
    rules built outside an engine)."""
    for r in rules:
        kernel = getattr(getattr(r, "context", None), "kernel", None)
        if kernel is not None:
            return kernel
    return default_kernel()


def solve(geo: Geometry, values: Sequence[int], limit: int = 2,
          max_nodes: int | None = None, kernel: Kernel | None = None) -> SolveResult:
    """Count the solutions of the grid ``values`` (0 = empty) up to ``limit``
    with ``kernel`` (the default one when None): the exact solver, bitmask
    backtracking with singles and minimum-remaining-values branching.
    ``max_nodes`` bounds the search (``count`` is then a lower bound)."""
    return (kernel or default_kernel()).solve(geo, values, limit, max_nodes)


__all__ = ["BIG", "CKernel", "Kernel", "KernelUnavailable", "PYTHON", "PythonKernel",
           "SolveResult", "c_kernel", "default_kernel", "kernel_named", "kernel_of", "solve",
           "solve_python"]
