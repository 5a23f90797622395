"""Propagation, as the minimal-level strategy and trials (levels 13-14) need it.

Two modes compute the same closure (the rules are monotonic):

* :func:`fixpoint` (from :mod:`grader.kernel.python`) is the fast one, used to
  *decide* what a branch reaches; an engine's kernel may compute it in C.
* :func:`record_chain` applies one step at a time with the minimal-level
  strategy and records the steps, for the explanation of a trial that worked.

:func:`next_step_of` finds the next step of the strategy; the kernel of the
rules tells which rule it knows can move first, so the others need not search.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from grader.core.board import Board
from grader.core.rule import Rule
from grader.core.steps import Conflict, Step
from grader.kernel import kernel_of
from grader.kernel.python import SINGLES, fixpoint, has_fast_singles, singles_fixpoint

__all__ = ["SINGLES", "KernelDisagreement", "fixpoint", "has_fast_singles", "next_step_of",
           "plan", "record_chain", "singles_fixpoint"]


class KernelDisagreement(RuntimeError):
    """The kernel said a rule makes progress on a position, and the rule
    itself finds no step there: the C and Python implementations disagree.
    Never hidden by a fallback: it is a bug to report, with the grid."""

    def __init__(self, rule: Rule, board: Board) -> None:
        super().__init__(
            f"the {kernel_of((rule,)).name} kernel says rule {rule.code!r} makes progress on "
            f"this position but the rule finds no step; please report this grid: "
            f"{board.to_string()} (candidates: {board.candidate_string()})")
        self.rule = rule
        self.board = board


def plan(board: Board, rules: tuple[Rule, ...]) -> tuple[Sequence[int], int | None]:
    """Which rules to try, in order, to find the next step, and the position
    of the rule the kernel says makes progress first (-1: none of those it
    knows; None: it probed nothing, every rule is listed).  Rules the kernel
    does not know are always listed."""
    probed = kernel_of(rules).probe(board, rules)
    if probed is None:
        return range(len(rules)), None
    known, first = probed
    return _order(len(rules), tuple(known), first), first


@lru_cache(maxsize=1024)
def _order(n: int, known: tuple[int, ...], first: int) -> tuple[int, ...]:
    skip = set(known) - {first}
    return tuple(i for i in range(n) if i not in skip)


@lru_cache(maxsize=256)
def _tail(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    return rules[1:]


def next_step_of(board: Board, rules: tuple[Rule, ...]) -> Step | None:
    """The first step, in the order of ``rules``, that makes progress.

    Raises :class:`KernelDisagreement` when the rule the kernel named finds
    nothing."""
    if not rules:
        return None
    # the first rule is tried directly: it is the one that applies most often
    for step in rules[0].find(board):
        if board.progress(step):
            return step
    rest = _tail(rules)
    order, first = plan(board, rest)
    for i in order:
        for step in rest[i].find(board):
            if board.progress(step):
                return step
        if i == first:
            raise KernelDisagreement(rest[i], board)
    return None


def record_chain(board: Board, rules: Sequence[Rule],
                 stop: Callable[[Board], bool] | None = None,
                 limit: int = 10_000) -> tuple[list[Step], Conflict | None]:
    """Minimal-level propagation that records its steps (mutates ``board``).

    Stops at the first contradiction, when ``stop(board)`` holds, or at the
    fixpoint."""
    steps: list[Step] = []
    ordered = tuple(sorted(rules, key=lambda r: r.level))
    contradiction = kernel_of(ordered).contradiction
    while len(steps) < limit:
        c = contradiction(board)
        if c is not None:
            return steps, Conflict(c.reason, c.cells, c.region, c.value)
        if stop is not None and stop(board):
            return steps, None
        step = next_step_of(board, ordered)
        if step is None:
            return steps, None
        board.apply(step)
        steps.append(step)
    return steps, None
