"""Entry points of Sudoku Explainer's scale: the rating loop below 4.0 and
the chaining tiers, in C when the accelerator (grader/kernel/_serate.c) is built
and in use, else in Python (same hints, same order; the tests compare them).

``SETTINGS``: how deep the walk searches the chaining tiers, by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from grader.kernel import c as native
from grader.strategy.serate.chainhint import chain_name, nested_suffix
from grader.strategy.serate.easy import easy_walk
from grader.strategy.serate.grid import candidates_of
from grader.strategy.serate.multiple import tier_base
from grader.strategy.serate.tiers import MAX_LEVEL, ChainStep, chain_step_python

_mod: Any = native.optional_module("_serate")

#: The names of the rules below 4.0 by the accelerator's codes.
EASY_NAMES = (
    "full house", "hidden single in a block", "hidden single in a line", "direct pointing",
    "direct claiming", "direct hidden pair", "naked single", "direct hidden triplet", "pointing",
    "claiming", "naked pair", "X-Wing", "hidden pair", "naked triplet", "swordfish",
    "hidden triplet",
)
#: The hint shapes by the accelerator's codes.
SHAPES = ("contradiction", "double", "cell", "region", "forcing", "cycle")

#: The walk's settings: the deepest chaining level searched.  "fast" (the
#: default) stops at the dynamic forcing chains (+), level 1; "full" goes to
#: Sudoku Explainer 1.2.1's last level.
SETTINGS = {"fast": 1, "full": MAX_LEVEL}
DEFAULT_SETTING = "fast"


def available(kernel: str | None = None) -> bool:
    """Whether the accelerator is built and in use (by the kernel named, or
    the default kernel when None)."""
    in_use = native.available() if kernel is None else kernel == "c"
    return _mod is not None and in_use


@dataclass(frozen=True)
class EasyRun:
    """The rating loop below 4.0 on a grid: its largest step (tenths, 0 when
    none) and that step's name, the steps made, and, when it stops before the
    end, where (None when the grid is solved)."""

    tenths: int
    name: str | None
    steps: int
    values: list[int] | None = None
    cands: list[int] | None = None

    @property
    def solved(self) -> bool:
        return self.values is None


def easy_run(values: Sequence[int], cands: Sequence[int] | None = None,
             kernel: str | None = None) -> EasyRun:
    """Run the loop from a 9x9 position (``cands``: bit ``v - 1`` for ``v``;
    None: every candidate the values allow)."""
    if available(kernel):
        top, code, steps, vs, cs = _mod.easy_walk(values, cands)
        return EasyRun(top, EASY_NAMES[code] if code >= 0 else None, steps, vs, cs)
    vs = list(values)
    cs = candidates_of(vs) if cands is None else list(cands)
    top, name, steps = easy_walk(vs, cs)
    if all(vs):
        return EasyRun(top, name, steps)
    return EasyRun(top, name, steps, vs, cs)


def chain_step(values: Sequence[int], cands: Sequence[int], first: int = 0,
               last: int = MAX_LEVEL, kernel: str | None = None) -> ChainStep | None:
    """The hint that rates a position where only chains are left: the easiest
    of the first dynamic chaining level from ``first`` to ``last`` with one."""
    if not available(kernel):
        return chain_step_python(values, cands, first, last)
    got = _mod.chain_step(list(values), list(cands), first, last)
    if got is None:
        return None
    level, (shape, tenths, _, complexity, _, removable, placement) = got
    return ChainStep(level, chain_name(SHAPES[shape], level), tenths, complexity, removable,
                     placement)


def beyond(level: int) -> tuple[str, int]:
    """What a walk that stops before ``level`` rates a position that needs
    it: the level's name and its base, a lower bound."""
    return (f"Dynamic Forcing Chains{nested_suffix(level)} (not searched)",
            round(10 * tier_base(True, level)))
