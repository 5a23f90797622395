"""Hints: the next step, told at three levels, each revealing more.

``technique``: the technique's name, level and book reference, nothing
else.  ``where``: also the region, value or cells to look at (for a trial,
the kind of reasoning and the area it starts from), never the conclusion nor
a trial's pivot.  ``full``: the whole step.  ``vague`` (the old name of the
pointer) is an alias of ``where``.

One ``where`` template per rule family, from the step's pattern; a plugin
family without one gets the technique level only."""

from __future__ import annotations

from collections.abc import Callable

from grader.core.geometry import BLOCK, ROW
from grader.core.phrases import FULL_HOUSE, regions
from grader.core.steps import Step

HintTemplate = Callable[[Step], str]

#: The hint levels, from the least to the most revealing.
HINT_LEVELS = ("technique", "where", "full")
#: Old names still accepted, and the level each one means.
HINT_ALIASES = {"vague": "where"}

_COUNT_WORDS = {2: "two", 3: "three", 4: "four"}


class HintClash(ValueError):
    """A second ``where`` hint for a rule family that already has one."""


def register_hint(family: str, fn: HintTemplate) -> None:
    """Register the ``where`` hint of a rule family (``fn(step) -> "where to look"``).

    The built-in families have theirs in :data:`HINTS` from the start; a family
    that already has a hint keeps it: registering another raises
    :class:`HintClash` (no import order can silently replace one)."""
    known = HINTS.get(family)
    if known is not None and known is not fn:
        raise HintClash(f"rule family {family!r} already has a 'where' hint "
                        f"({known.__module__}.{known.__qualname__}); give the rule a family "
                        f"of its own")
    HINTS[family] = fn


def hint_level(name: str) -> str:
    """The level a name stands for (an alias gives its level); ValueError
    for an unknown name."""
    level = HINT_ALIASES.get(name, name)
    if level not in HINT_LEVELS:
        known = ", ".join([*HINT_LEVELS, *HINT_ALIASES])
        raise ValueError(f"unknown hint level {name!r} (one of {known})")
    return level


def _count(k: int) -> str:
    return _COUNT_WORDS.get(k, str(k))


def _single_position(step: Step) -> str:
    geo = step.geo
    full = step.pattern.regions_with(FULL_HOUSE)
    if full:
        return f"look at {geo.region_long_name(full[0])}: only one of its cells is still empty"
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


def _trial_area(step: Step) -> str:
    """Where a trial starts, without its pivot: the pivot region, or the
    block of the pivot cell."""
    geo = step.geo
    if step.pattern.regions:
        return geo.region_long_name(step.pattern.regions[0][0])
    cell = step.pattern.cells_with("pivot")[0]
    return geo.region_long_name(2 * geo.n + geo.cell_block[cell])


def _disjunctive(step: Step) -> str:
    n = _count(len(step.branches) or len(step.pattern.cells_with("pivot")) or 2)
    follow = ("try each of them with the simpler rules, and keep what the ones that do not "
              "end in a contradiction agree on")
    if step.pattern.regions:
        return (f"look at {_trial_area(step)}: one value has only {n} possible cells there; "
                f"{follow}")
    return f"look at {_trial_area(step)}: one of its cells has only {n} candidates; {follow}"


def _reductio(step: Step) -> str:
    return (f"look at {_trial_area(step)}: one candidate of one of its cells, once assumed, "
            f"leads to a contradiction")


#: family -> its ``where`` hint: the built-in families, listed here (plugins add
#: theirs with :func:`register_hint`).
HINTS: dict[str, HintTemplate] = {
    "single-position": _single_position, "single-candidate": _single_candidate,
    "candidate-lines": _candidate_lines, "multiple-lines": _multiple_lines,
    "naked-subset": _naked, "hidden-subset": _hidden, "fish": _fish,
    "disjunctive-construction": _disjunctive, "reductio": _reductio,
}


def technique_hint(step: Step) -> str:
    """``Try single position (rule 2.1, level 1).``: the technique only."""
    ref = f"{step.reference}, " if step.reference else ""
    name = step.name
    if step.pattern.regions_with(FULL_HOUSE):
        name, ref = "a full house", f"{step.name}, {ref}"
    nested = f", with trials nested {step.depth} deep" if step.depth > 1 else ""
    return f"Try {name} ({ref}level {step.level}){nested}."


def where_hint(step: Step) -> str:
    """The technique and where to look: ``Try single position (rule 2.1,
    level 1): look at column C6: one value has a single possible cell there.``"""
    head = technique_hint(step)[:-1]
    fn = HINTS.get(step.family)
    if fn is None:
        return head + "."
    return f"{head}: {fn(step)}."


#: The old name of :func:`where_hint`.
vague_hint = where_hint


def full_hint(step: Step, detail: str = "teach") -> str:
    """The whole step: its technique line, then its explanation at ``detail``
    (``teach``: the reasoning in sentences; ``short``: the one-line summary
    and a trial's branches)."""
    from grader.explainer.render import body_lines

    ref = f" · {step.reference}" if step.reference else ""
    named = f" ({step.pattern_name})" if step.pattern_name else ""
    return "\n".join([f"{step.name}{named} · level {step.level}{ref}",
                      *body_lines(step, detail)])


def hint(step: Step, level: str = "where", detail: str = "teach") -> str:
    """The hint for ``step`` at ``level`` (``technique``, ``where``, ``full``
    or an alias such as ``vague``); ``detail`` applies to ``full``."""
    level = hint_level(level)
    if level == "technique":
        return technique_hint(step)
    if level == "where":
        return where_hint(step)
    return full_hint(step, detail)
