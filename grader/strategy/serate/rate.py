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
from grader.strategy.serate.settings import DEFAULT_SE, SE_WALKS
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
SETTINGS = dict(zip(SE_WALKS, (1, MAX_LEVEL), strict=True))
DEFAULT_SETTING = DEFAULT_SE


def available(kernel: str | None = None) -> bool:
    """Whether the accelerator is built and in use (by the kernel named, or
    the default kernel when None)."""
    in_use = native.available() if kernel is None else kernel == "c"
    return _mod is not None and in_use


@dataclass(frozen=True)
class EasyRun:
    """The rating loop below 4.0 on a grid: its largest step (tenths, 0 when
    none) and that step's name, the steps made, and, when it stops before the
    end, where (None when the grid is solved).  ``diamond``: the first step
    (tenths, 0: none), ``pearl``: the largest step up to the first that
    places a value (0: none placed), as Sudoku Explainer's ED and EP."""

    tenths: int
    name: str | None
    steps: int
    values: list[int] | None = None
    cands: list[int] | None = None
    diamond: int = 0
    pearl: int = 0

    @property
    def solved(self) -> bool:
        return self.values is None


def easy_run(values: Sequence[int], cands: Sequence[int] | None = None,
             kernel: str | None = None) -> EasyRun:
    """Run the loop from a 9x9 position (``cands``: bit ``v - 1`` for ``v``;
    None: every candidate the values allow)."""
    if available(kernel):
        top, code, steps, vs, cs, dia, pearl = _mod.easy_walk(values, cands)
        return EasyRun(top, EASY_NAMES[code] if code >= 0 else None, steps, vs, cs, dia, pearl)
    vs = list(values)
    cs = candidates_of(vs) if cands is None else list(cands)
    top, name, steps, dia, pearl = easy_walk(vs, cs)
    if all(vs):
        return EasyRun(top, name, steps, None, None, dia, pearl)
    return EasyRun(top, name, steps, vs, cs, dia, pearl)


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


#: The chaining producers below the dynamic forcing chains, by the
#: accelerator's search kinds: Sudoku Explainer's static forcing chains and
#: cycles, static multiple forcing chains (8.0) and Nishio forcing chains
#: (7.5).
PRODUCER_KINDS = {"cycles": 0, "multiple": 1, "nishio": 3}


@dataclass(frozen=True)
class ProducerHint:
    """A hint of one chaining producer: shape, rating (tenths), complexity,
    eliminations, placement."""

    shape: str
    tenths: int
    complexity: int
    removable: tuple[tuple[int, int], ...]
    placement: tuple[int, int] | None


def producer_hints(values: Sequence[int], cands: Sequence[int], producer: str,
                   kernel: str | None = None) -> list[ProducerHint]:
    """The hint that the chaining producer ``producer`` (a key of
    :data:`PRODUCER_KINDS`) applies on a position, in a list (empty: none):
    the first of its hints as Sudoku Explainer sorts them (difficulty,
    complexity, kind, the order found).  The static chains' XY pass, whose
    hints rate 7.0 and more, is skipped after an X or Y hint rated below."""
    kind = PRODUCER_KINDS[producer]
    if available(kernel):
        return [ProducerHint(SHAPES[shape], t, cx, rem, pl)
                for shape, t, _, cx, _, rem, pl in _mod.hints(list(values), list(cands), kind, 0,
                                                               None, True)]
    from grader.strategy.serate.multiple import Search, sorted_hints
    from grader.strategy.serate.unary import loop_hints
    cs = list(cands)
    if producer == "cycles":
        found = loop_hints(values, cs, False, True) + loop_hints(values, cs, True, False)
        if not found or min(h.difficulty for h in found) >= 7.0 - 1e-9:
            found += loop_hints(values, cs, True, True)
    else:
        found = Search(values, cs, producer == "nishio", 0, None,
                       nishio=producer == "nishio").run()
    return [ProducerHint(h.shape, h.tenths, h.complexity, h.removable, h.placement)
            for h in sorted_hints(found)[:1]]
