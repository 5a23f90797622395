"""Hints: the next step, told at two levels.

``vague``: the technique and where to look, without the answer.  ``full``:
the whole explanation (teach depth) with the grid.  One hint template per
rule family, from the step's pattern; a plugin family without one gets a
generic hint (its name and level)."""

from __future__ import annotations

from collections.abc import Callable

from ..geometry import BLOCK, ROW
from ..steps import Step
from .phrases import cells, regions

HintTemplate = Callable[[Step], str]
_HINTS: dict[str, HintTemplate] = {}

HINT_LEVELS = ("vague", "full")


def register_hint(family: str, fn: HintTemplate) -> None:
    """Register the vague hint of a rule family (``fn(step) -> "where to look"``)."""
    _HINTS[family] = fn


def _single_position(step: Step) -> str:
    geo = step.geo
    region = step.pattern.regions_with("region")[0]
    return (f"look at {geo.region_long_name(region)}: one value has a single possible cell "
            f"there")


def _single_candidate(step: Step) -> str:
    geo = step.geo
    (cell, _), = step.placements
    block = 2 * geo.n + geo.cell_block[cell]
    return f"look at {geo.region_long_name(block)}: one of its cells has a single candidate left"


def _candidate_lines(step: Step) -> str:
    geo = step.geo
    src = step.pattern.regions[0][0]
    other = "the lines through it" if geo.region_kind[src] == BLOCK else "the blocks it crosses"
    return (f"look at {geo.region_long_name(src)} and {other}: one value is confined to their "
            f"intersection")


def _multiple_lines(step: Step) -> str:
    geo = step.geo
    blocks = step.pattern.regions_with("block")
    lines = step.pattern.regions_with("line")
    kind = "rows" if geo.region_kind[lines[0]] == ROW else "columns"
    group = "band" if kind == "rows" else "stack"
    k = geo.cell_block[geo.regions[blocks[0]][0]]
    members = next(g for g in (geo.bands if kind == "rows" else geo.stacks) if k in g)
    return (f"look at the {group} of blocks {regions(geo, [2 * geo.n + i for i in members])}: "
            f"a value is confined to the same {kind} in several of them")


def _naked(step: Step) -> str:
    geo = step.geo
    region = step.pattern.regions_with("region")[0]
    k = len(step.pattern.cells_with("subset"))
    return (f"look at {geo.region_long_name(region)}: {k} of its cells share only {k} "
            f"candidates between them")


def _hidden(step: Step) -> str:
    geo = step.geo
    region = step.pattern.regions_with("region")[0]
    k = len(step.pattern.values)
    return (f"look at {geo.region_long_name(region)}: {k} values can only go in the same {k} "
            f"cells")


def _fish(step: Step) -> str:
    geo = step.geo
    base = step.pattern.regions_with("base")
    kind = "rows" if geo.region_kind[base[0]] == ROW else "columns"
    return (f"look at value {geo.symbol(step.pattern.values[0])} in the {kind}: in "
            f"{len(base)} of them it is confined to the same {len(base)} cross lines")


def _disjunctive(step: Step) -> str:
    geo = step.geo
    if step.pattern.regions:
        region = step.pattern.regions[0][0]
        return (f"look at value {geo.symbol(step.pattern.values[0])} in "
                f"{geo.region_long_name(region)}: follow each of its possible places and "
                f"compare what they give")
    cell = step.pattern.cells_with("pivot")[0]
    return (f"look at cell {geo.cell_name(cell)}: follow each of its candidates and compare "
            f"what they give")


def _reductio(step: Step) -> str:
    geo = step.geo
    return (f"look at cell {cells(geo, step.pattern.cells_with('pivot'))}: one of its "
            f"candidates leads to a contradiction")


for _fam, _fn in (("single-position", _single_position), ("single-candidate", _single_candidate),
                  ("candidate-lines", _candidate_lines), ("multiple-lines", _multiple_lines),
                  ("naked-subset", _naked), ("hidden-subset", _hidden), ("fish", _fish),
                  ("disjunctive-construction", _disjunctive), ("reductio", _reductio)):
    register_hint(_fam, _fn)


def vague_hint(step: Step) -> str:
    """``Try a single position (rule 2.1, level 1): look at column C6 ...``."""
    ref = f"{step.reference}, " if step.reference else ""
    head = f"Try {step.name} ({ref}level {step.level})"
    fn = _HINTS.get(step.family)
    if fn is None:
        return head + "."
    return f"{head}: {fn(step)}."
