"""Teach templates of the trial families (levels 13-14), registered for
``disjunctive-construction`` and ``reductio``.

A trial is explained as the book does: the alternatives of the pivot (or the
single assumption), each followed as a numbered chain of ordinary rule
applications, indented under its assumption, down to a contradiction or to
the common result.  Trials nested inside a branch are expanded the same way,
one indentation level deeper.  Everything comes from the step's branches.
"""

from __future__ import annotations

from ..steps import Branch, Step, register_template, template_for
from .phrases import effects

INDENT = "    "


def _assume(step: Step, b: Branch) -> str:
    geo = step.geo
    return f"{geo.cell_name(b.cell)} <- {geo.symbol(b.value)}"


def branch_lines(step: Step, depth: int = 1) -> list[str]:
    """The branches of a trial as indented lines (sub-steps numbered; nested
    trials expanded).  Each line is prefixed by ``INDENT * depth``."""
    lines: list[str] = []
    pad = INDENT * depth
    many = len(step.branches) > 1
    inner = pad + INDENT if many else pad
    for i, b in enumerate(step.branches, start=1):
        if many:
            lines.append(f"{pad}branch {i}: assume {_assume(step, b)}")
        for k, sub in enumerate(b.steps, start=1):
            lines.append(f"{inner}{k}. {sub.summary()}")
            if sub.branches:
                lines.extend(branch_lines(sub, depth + (2 if many else 1)))
        lines.append(inner + branch_end(step, b))
    return lines


def branch_end(step: Step, b: Branch) -> str:
    """How a branch ends: ``contradiction: ...`` or ``no contradiction: ...``."""
    if b.conflict is not None:
        return f"contradiction: {b.conflict.reason}, so {_assume(step, b)} is impossible"
    reached = effects(step.geo, step.placements, step.eliminations)
    if b.steps:
        return f"no contradiction: this branch gives {reached}"
    if ((b.cell, b.value),) == step.placements and not step.eliminations:
        return "no contradiction: the only possibility left"
    return f"no contradiction: {_at_once(step, b)}"


def _at_once(step: Step, b: Branch) -> str:
    """Why the assumption alone gives the step's conclusion (an elimination
    of the assumed value from a peer, or of another value from its cell)."""
    geo = step.geo
    reached = effects(geo, step.placements, step.eliminations)
    if len(step.eliminations) == 1 and not step.placements:
        (c, v), = step.eliminations
        if c == b.cell:
            return f"{geo.cell_name(c)} then holds {geo.symbol(b.value)}, so {reached}"
        shared = [r for r in geo.cell_regions[c] if b.cell in geo.region_set[r]]
        if v == b.value and shared:
            return (f"{geo.cell_name(c)} shares {geo.region_long_name(shared[0])} with "
                    f"{geo.cell_name(b.cell)}, so {reached}")
    return f"the assumption alone gives {reached}"


def _pivot_text(step: Step) -> str:
    geo = step.geo
    alts = [f"{geo.cell_name(b.cell)} <- {geo.symbol(b.value)}" for b in step.branches]
    if step.pattern.regions:
        region = step.pattern.regions[0][0]
        v = geo.symbol(step.pattern.values[0])
        where = " or ".join(geo.cell_name(b.cell) for b in step.branches)
        return (f"In {geo.region_long_name(region)}, {v} can only go in {where}: one of "
                f"{' / '.join(alts)} must be true.")
    cell = step.branches[0].cell
    vals = " or ".join(geo.symbol(b.value) for b in step.branches)
    return (f"Cell {geo.cell_name(cell)} can only hold {vals}: one of {' / '.join(alts)} "
            f"must be true.")


def disjunctive_parts(step: Step) -> tuple[str, str]:
    """(intro, conclusion) of a disjunctive construction."""
    geo = step.geo
    result = effects(geo, step.placements, step.eliminations)
    n = len(step.branches)
    each = "both" if n == 2 else f"each of the {n}"
    every = "Both possibilities" if n == 2 else "Every possibility"
    intro = (f"{_pivot_text(step)} Follow {each} possibilities with the simpler "
             f"rules, one step at a time:")
    dead = [b for b in step.branches if b.conflict is not None]
    live = [b for b in step.branches if b.conflict is None]
    if not live:
        outro = (f"{every} {'lead' if n == 2 else 'leads'} to a contradiction, so this "
                 f"position cannot be completed; in particular {result}.")
    elif dead and len(live) == 1:
        kept = _assume(step, live[0])
        gives = ("must be true" if kept == result else
                 f"({kept}) gives {result}")
        outro = (f"The {'possibility' if len(dead) == 1 else 'possibilities'} "
                 f"{' and '.join(_assume(step, b) for b in dead)} "
                 f"{'is' if len(dead) == 1 else 'are'} impossible, so the remaining one "
                 f"{gives}" + (f": {result}." if kept == result else "."))
    elif dead:
        outro = (f"The impossible possibilities drop out and every remaining one gives "
                 f"{result}.")
    else:
        outro = (f"{every} {'give' if n == 2 else 'gives'} {result}, and one of them must be "
                 f"true, so {result} holds.")
    return intro, outro


def reductio_parts(step: Step) -> tuple[str, str]:
    """(intro, conclusion) of a reductio ad absurdum."""
    geo = step.geo
    b = step.branches[0]
    result = effects(geo, step.placements, step.eliminations)
    intro = (f"Suppose {_assume(step, b)} and follow the consequences with the simpler rules, "
             f"one step at a time:")
    if b.conflict is not None:
        outro = f"The assumption leads to a contradiction, so it is false: {result}."
    else:
        outro = f"So {result}."
    return intro, outro


def trial_parts(step: Step) -> tuple[str, str]:
    """(intro, conclusion) of any step with branches (a generic pair for
    trial families without a template here)."""
    fn = _PARTS.get(step.family)
    if fn is not None:
        return fn(step)
    return step.summary(), f"So {effects(step.geo, step.placements, step.eliminations)}."


def teach_disjunctive(step: Step) -> str:
    intro, outro = disjunctive_parts(step)
    return "\n".join([intro, *branch_lines(step), outro])


def teach_reductio(step: Step) -> str:
    intro, outro = reductio_parts(step)
    return "\n".join([intro, *branch_lines(step), outro])


_PARTS = {"disjunctive-construction": disjunctive_parts, "reductio": reductio_parts}


def _fallback_summary(step: Step) -> str:
    return "a trial"


for _family, _teach in (("disjunctive-construction", teach_disjunctive),
                        ("reductio", teach_reductio)):
    register_template(_family, template_for(_family) or _fallback_summary, _teach)
