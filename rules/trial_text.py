"""The teach text of the trial families (levels 13-14: disjunctive
construction and reductio, whose rules' ``teach`` is :func:`teach_trial`),
and the text of their chains.

A trial is explained as the book does: the alternatives of the pivot (or the
single assumption), each followed down to a contradiction or to the common
result.  By default each branch shows its minimal chain (see
:mod:`grader.strategy.trials.chains`): only the facts the end needs, numbered, each saying
which lines above it it uses, then the end with its reason, then the chain
in a compact notation (``r1c4=7 -> r5c4<>7 -> ...``).  Trials nested inside
a branch are expanded the same way, one indentation level deeper.  With
``full=True`` the branches show the whole recorded propagation instead (the
``--full-trace`` view).  Everything comes from the step's branches.
"""

from __future__ import annotations

from grader.core.geometry import Geometry
from grader.core.phrases import effects
from grader.core.steps import Branch, Link, Step

INDENT = "    "


def assumed(step: Step, b: Branch) -> str:
    geo = step.geo
    return f"{geo.cell_name(b.cell)} <- {geo.symbol(b.value)}"


# -- compact notation -----------------------------------------------------------------
def rc(geo: Geometry, cell: int) -> str:
    """``r5c4``."""
    return f"r{geo.cell_row[cell] + 1}c{geo.cell_col[cell] + 1}"


def fact_notation(geo: Geometry, cell: int, value: int, placed: bool) -> str:
    """``r5c4=7`` or ``r5c4<>7``."""
    return f"{rc(geo, cell)}{'=' if placed else '<>'}{geo.symbol(value)}"


def link_notation(geo: Geometry, link: Link) -> str:
    return ",".join(fact_notation(geo, c, v, p) for c, v, p in link.effects)


def end_notation(step: Step, b: Branch) -> str:
    geo = step.geo
    k = b.conflict
    if k is None:
        return effects_notation(step)
    if k.region is not None and k.value is not None and len(k.cells) == 2:
        return f"{geo.symbol(k.value)} twice in {geo.region_name(k.region)}"
    if k.region is not None and k.value is not None:
        return f"no {geo.symbol(k.value)} in {geo.region_name(k.region)}"
    if k.cells:
        return f"{rc(geo, k.cells[0])} empty"
    return "contradiction"


def effects_notation(step: Step) -> str:
    geo = step.geo
    return ",".join([fact_notation(geo, c, v, True) for c, v in step.placements]
                    + [fact_notation(geo, c, v, False) for c, v in step.eliminations])


def chain_notation(step: Step, b: Branch) -> str:
    """The branch in one line: the assumption, the chain's facts in order,
    and its end: ``r1c4=7 -> r5c4<>7 -> r5c6=7 => r3c6 empty``."""
    geo = step.geo
    parts = [fact_notation(geo, b.cell, b.value, True)]
    if b.chain is not None:
        parts += [link_notation(geo, link) for link in b.chain.links]
    return " -> ".join(parts) + " => " + end_notation(step, b)


# -- the chain as lines -----------------------------------------------------------------
def uses_text(uses: tuple[int, ...]) -> str:
    if not uses:
        return "from the position"
    named = ["the assumption" if u == 0 else str(u) for u in uses]
    if len(named) == 1:
        return f"from {named[0]}"
    return "from " + ", ".join(named[:-1]) + " and " + named[-1]


def link_text(geo: Geometry, link: Link) -> str:
    """``(5, 4) != 7 (single position: in column C4, ... ; from 1 and 3)``."""
    sub = link.step
    eff = effects(geo, link.placements, link.eliminations)
    return f"{eff} by {sub.name}: {sub.reason()} ({uses_text(link.uses)})"


def end_text(step: Step, b: Branch) -> str:
    """How a branch ends, with the lines its end rests on."""
    uses = b.chain.end if b.chain is not None else ()
    by = f" ({uses_text(uses)})" if b.chain is not None else ""
    if b.conflict is not None:
        return (f"contradiction: {b.conflict.reason}{by}, so {assumed(step, b)} "
                f"is impossible")
    reached = effects(step.geo, step.placements, step.eliminations)
    if b.chain is not None and not b.chain.links or b.chain is None and not b.steps:
        if ((b.cell, b.value),) == step.placements and not step.eliminations:
            return "no contradiction: the only possibility left"
        return f"no contradiction: {_at_once(step, b)}"
    return f"no contradiction: this branch gives {reached}{by}"


def branch_end(step: Step, b: Branch) -> str:
    """How a branch's full trace ends (the ``--full-trace`` form)."""
    k = b.trace_end
    if k is not None:
        return f"contradiction: {k.reason}, so {assumed(step, b)} is impossible"
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


def branch_lines(step: Step, depth: int = 1, full: bool = False) -> list[str]:
    """The branches of a trial as indented lines: each branch's chain
    (numbered lines, nested trials expanded, the end, the compact notation),
    or with ``full`` the whole recorded propagation.  Each line is prefixed
    by ``INDENT * depth``."""
    lines: list[str] = []
    pad = INDENT * depth
    many = len(step.branches) > 1
    inner = pad + INDENT if many else pad
    sub_depth = depth + (2 if many else 1)
    for i, b in enumerate(step.branches, start=1):
        if many:
            lines.append(f"{pad}branch {i}: assume {assumed(step, b)}")
        if full or b.chain is None:
            for k, sub in enumerate(b.steps, start=1):
                lines.append(f"{inner}{k}. {sub.summary()}")
                if sub.branches:
                    lines.extend(branch_lines(sub, sub_depth, full))
            lines.append(inner + branch_end(step, b))
            continue
        for link in b.chain.links:
            lines.append(f"{inner}{link.index}. {link_text(step.geo, link)}")
            if link.step.branches:
                lines.extend(branch_lines(link.step, sub_depth))
        lines.append(inner + end_text(step, b))
        if b.chain.links or b.conflict is not None:
            lines.append(f"{inner}in short: {chain_notation(step, b)}")
    return lines


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


def pattern_phrase(name: str) -> str:
    """``an XY-Wing``, ``a skyscraper``, ``cell forcing chains``."""
    if name.endswith("chains"):
        return name
    return f"{'an' if name[0] in 'aeioX' else 'a'} {name}"


def _named(step: Step) -> str:
    """`` Players call this pattern an XY-Wing.`` (empty when unnamed)."""
    if not step.pattern_name:
        return ""
    return f" Players call this pattern {pattern_phrase(step.pattern_name)}."


def disjunctive_parts(step: Step) -> tuple[str, str]:
    """(intro, conclusion) of a disjunctive construction."""
    geo = step.geo
    result = effects(geo, step.placements, step.eliminations)
    n = len(step.branches)
    each = "both" if n == 2 else f"each of the {n}"
    every = "Both possibilities" if n == 2 else "Every possibility"
    intro = (f"{_pivot_text(step)}{_named(step)} Follow {each} possibilities with the simpler "
             f"rules; each line below uses only the lines above it:")
    dead = [b for b in step.branches if b.conflict is not None]
    live = [b for b in step.branches if b.conflict is None]
    if not live:
        outro = (f"{every} {'lead' if n == 2 else 'leads'} to a contradiction, so this "
                 f"position cannot be completed; in particular {result}.")
    elif dead and len(live) == 1:
        kept = assumed(step, live[0])
        gives = ("must be true" if kept == result else
                 f"({kept}) gives {result}")
        outro = (f"The {'possibility' if len(dead) == 1 else 'possibilities'} "
                 f"{' and '.join(assumed(step, b) for b in dead)} "
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
    intro = (f"Suppose {assumed(step, b)} and follow the consequences with the simpler rules; "
             f"each line below uses only the lines above it:")
    named = (f" (players call this {pattern_phrase(step.pattern_name)})"
             if step.pattern_name else "")
    if b.conflict is not None:
        outro = f"The assumption leads to a contradiction{named}, so it is false: {result}."
    else:
        outro = f"So{named}, {result}." if named else f"So {result}."
    return intro, outro


def trial_parts(step: Step) -> tuple[str, str]:
    """(intro, conclusion) of any step with branches: the book's trials
    here, another technique's own (its ``trial_parts``), else a generic pair."""
    fn = _PARTS.get(step.family) or getattr(step.technique, "trial_parts", None)
    if fn is not None:
        return fn(step)
    return step.summary(), f"So {effects(step.geo, step.placements, step.eliminations)}."


def teach_trial(step: Step, full: bool = False) -> str:
    """The teach text of a trial: intro, branches (chains, or the full trace),
    conclusion."""
    intro, outro = trial_parts(step)
    return "\n".join([intro, *branch_lines(step, full=full), outro])


_PARTS = {"disjunctive-construction": disjunctive_parts, "reductio": reductio_parts}
