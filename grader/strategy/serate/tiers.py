"""Sudoku Explainer's chaining tiers from the dynamic forcing chains up:
level 0 (8.5), and the nesting levels 1 (9.0), 2 (9.5), 3 (10.0), 4 (10.5)
and 5 (11.0).  The first level with a hint rates the position by its
easiest hint (least difficulty, then complexity, then kind, then the order
found), which is the one applied (see docs/se-scale.md).

This is the Python reference; :func:`chain_step` runs the C twin
(grader/kernel/_serate.c) when it is built and in use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grader.strategy.serate.advanced import dynamic_chains
from grader.strategy.serate.chainhint import hint_name, tenths

Cand = tuple[int, int]

#: The deepest level: Sudoku Explainer 1.2.1's last producer.
MAX_LEVEL = 5


@dataclass(frozen=True)
class ChainStep:
    """The hint that rates a position: its level, name, rating (tenths),
    complexity, eliminations and placement."""

    level: int
    name: str
    tenths: int
    complexity: int
    removable: tuple[Cand, ...]
    placement: Cand | None


def chain_step_python(values: Sequence[int], cands: Sequence[int], first: int = 0,
                      last: int = MAX_LEVEL) -> ChainStep | None:
    """The easiest hint of the first level from ``first`` to ``last`` that
    has one, or None (pure Python)."""
    for level in range(first, last + 1):
        hints = dynamic_chains(values, list(cands), level)
        if hints:
            h = hints[0]
            return ChainStep(level, hint_name(h), tenths(h.difficulty), h.complexity,
                             h.removable, h.placement)
    return None
