"""The text of a trial's chains: the numbered lines of each branch, how it
ends, and the branch in compact notation (the "in short" line).

Every assumption carries a label: ``A`` for the trial's own, ``B`` for an
assumption of a trial nested in one of its branches, ``C`` one level deeper,
and so on, so that a line says which assumption it comes from (``from A
and 3``).  In the compact notation an arrow joins two facts only when the
second comes from the first alone (``r1c4=7 -> r5c4<>7``); a fact that rests
on other lines starts a strand of its own with its sources (``r1c4=7 &
r6c5=1 -> r7c5<>2``), and a fact a nested trial proves says so on its arrow
(``-[nested trial, 10 lines]->``).  Used by :mod:`grader.core.trial_text` and the
explainer's renderers.
"""

from __future__ import annotations

from grader.core.geometry import Geometry
from grader.core.phrases import effects
from grader.core.steps import Branch, Link, Step

INDENT = "    "


def label(nest: int) -> str:
    """The label of an assumption ``nest`` trials deep: ``A``, ``B``, ..."""
    return chr(ord("A") + nest) if nest < 26 else f"A{nest}"


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


def chain_lines(step: Step) -> int:
    """How many numbered lines a trial's chains show (its own, not those of
    the trials nested in them)."""
    return sum(len(b.chain.links) if b.chain is not None else len(b.steps)
               for b in step.branches)


def _arrow(link: Link) -> str:
    """``->``, or for a fact a nested trial proves ``-[nested trial, 10 lines]->``."""
    if not link.step.branches:
        return " -> "
    n = chain_lines(link.step)
    return f" -[nested trial, {n} {'line' if n == 1 else 'lines'}]-> "


def is_given(step: Step, b: Branch) -> bool:
    """Whether the branch's assumption is the step's whole conclusion (the
    possibility left once the others are impossible)."""
    return ((b.cell, b.value),) == step.placements and not step.eliminations


def chain_notation(step: Step, b: Branch) -> str:
    """The branch in one line, as strands of facts separated by ``;``: an
    arrow joins two facts only when the second comes from the first alone; a
    fact that uses other lines starts a strand with its sources joined by
    ``&``, and facts that come from the same sources alone are listed after
    one arrow (``r1c2=6 -> r9c1=6, r8c2=2``); the end follows ``=>``
    (``r1c4=7 -> r5c4<>7; r1c4=7 & r5c4<>7 -> r5c6=7 => r3c6 empty``).  A
    branch whose assumption is the conclusion is the assumption alone."""
    geo = step.geo
    head = fact_notation(geo, b.cell, b.value, True)
    end = end_notation(step, b)
    if b.chain is None:
        return f"{head} => {end}"
    if not b.chain.links:
        return head if b.conflict is None and is_given(step, b) else f"{head} => {end}"
    names = {0: head}
    strands: list[list[str]] = []  # each: its sources, then an arrow and a fact each
    last, growing = 0, True  # the last fact written; whether its strand may go on
    for link in b.chain.links:
        names[link.index] = fact = link_notation(geo, link)
        arrow = _arrow(link)
        if link.uses == (last,) and growing:
            if last == 0:
                strands.append([head])
            strands[-1].append(arrow + fact)
        else:
            sources = " & ".join(names[u] for u in link.uses) if link.uses else ""
            prev = strands[-1] if strands else None
            growing = not (prev is not None and len(prev) == 2 and prev[0] == sources
                           and arrow == " -> " and prev[1].startswith(" -> "))
            if prev is not None and not growing:
                prev[1] += ", " + fact
            else:
                strands.append([sources, arrow + fact] if sources else [fact])
        last = link.index
    if b.conflict is None and end == names[last] and growing:
        return "; ".join("".join(s) for s in strands)
    if b.chain.end == (last,) and growing:
        strands[-1].append(" => " + end)
    else:
        strands.append([" & ".join(names[u] for u in b.chain.end), " => " + end])
    return "; ".join("".join(s) for s in strands)


# -- the chain as lines -----------------------------------------------------------------
def uses_text(uses: tuple[int, ...], mark: str = "A") -> str:
    """``from A and 3``: the lines a line uses, ``mark`` for the assumption."""
    if not uses:
        return "from the position"
    named = [mark if u == 0 else str(u) for u in uses]
    if len(named) == 1:
        return f"from {named[0]}"
    return "from " + ", ".join(named[:-1]) + " and " + named[-1]


def link_text(geo: Geometry, link: Link, mark: str = "A") -> str:
    """``(5, 4) != 7 by single position: in column C4, ... (from A and 3)``."""
    sub = link.step
    eff = effects(geo, link.placements, link.eliminations)
    return f"{eff} by {sub.name}: {sub.reason()} ({uses_text(link.uses, mark)})"


def end_text(step: Step, b: Branch, mark: str = "A") -> str:
    """How a branch ends, with the lines its end rests on."""
    uses = b.chain.end if b.chain is not None else ()
    by = f" ({uses_text(uses, mark)})" if b.chain is not None else ""
    if b.conflict is not None:
        return (f"contradiction: {b.conflict.reason}{by}, so {assumed(step, b)} "
                f"is impossible")
    reached = effects(step.geo, step.placements, step.eliminations)
    if b.chain is not None and not b.chain.links or b.chain is None and not b.steps:
        if is_given(step, b):
            return "no contradiction: the only possibility left"
        return f"no contradiction: {_at_once(step, b, mark)}"
    return f"no contradiction: this branch gives {reached}{by}"


def branch_end(step: Step, b: Branch, mark: str = "A") -> str:
    """How a branch's full trace ends (the ``--full-trace`` form)."""
    k = b.trace_end
    if k is not None:
        return f"contradiction: {k.reason}, so {assumed(step, b)} is impossible"
    reached = effects(step.geo, step.placements, step.eliminations)
    if b.steps:
        return f"no contradiction: this branch gives {reached}"
    if is_given(step, b):
        return "no contradiction: the only possibility left"
    return f"no contradiction: {_at_once(step, b, mark)}"


def ending(step: Step, b: Branch) -> str:
    """A branch's end in a few words: ``contradiction after 3 lines``,
    ``contradiction at once``, ``the only possibility left``..."""
    n = len(b.chain.links) if b.chain is not None else len(b.steps)
    what = "contradiction" if b.conflict is not None else "conclusion"
    if n:
        return f"{what} after {n} {'line' if n == 1 else 'lines'}"
    if b.conflict is None and is_given(step, b):
        return "the only possibility left"
    return f"{what} at once"


def has_short(b: Branch) -> bool:
    """Whether a branch's chain is worth an "in short" line (it has lines, or
    ends in a contradiction)."""
    return b.chain is not None and (bool(b.chain.links) or b.conflict is not None)


def _at_once(step: Step, b: Branch, mark: str = "A") -> str:
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
    return f"assumption {mark} alone gives {reached}"


def branch_head(step: Step, b: Branch, i: int, nest: int = 0) -> str:
    """``branch 2: assume (1, 4) <- 9 (A)`` (``assume ...`` for a single branch)."""
    many = len(step.branches) > 1
    return f"{f'branch {i}: ' if many else ''}assume {assumed(step, b)} ({label(nest)})"


def branch_lines(step: Step, depth: int = 1, full: bool = False, nest: int = 0,
                 head: bool = True) -> list[str]:
    """The branches of a trial as indented lines: each branch's chain
    (numbered lines, nested trials expanded, the end, the compact notation),
    or with ``full`` the whole recorded propagation.  Each line is prefixed
    by ``INDENT * depth``; ``nest``: how many trials this one is nested in
    (its assumptions' label); ``head``: a single branch's assumption gets a
    line of its own too (the reductio's teach text names it instead)."""
    lines: list[str] = []
    pad = INDENT * depth
    many = len(step.branches) > 1
    inner = pad + INDENT if many else pad
    sub_depth = depth + (2 if many else 1)
    mark = label(nest)
    for i, b in enumerate(step.branches, start=1):
        if many or head:
            lines.append(pad + branch_head(step, b, i, nest))
        if full or b.chain is None:
            for k, sub in enumerate(b.steps, start=1):
                lines.append(f"{inner}{k}. {sub.summary()}")
                if sub.branches:
                    lines.extend(branch_lines(sub, sub_depth, full, nest + 1))
            lines.append(inner + branch_end(step, b, mark))
            continue
        for link in b.chain.links:
            lines.append(f"{inner}{link.index}. {link_text(step.geo, link, mark)}")
            if link.step.branches:
                lines.extend(branch_lines(link.step, sub_depth, nest=nest + 1))
        lines.append(inner + end_text(step, b, mark))
        if has_short(b):
            lines.append(f"{inner}in short: {chain_notation(step, b)}")
    return lines
