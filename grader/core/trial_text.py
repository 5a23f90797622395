"""The teach text of the trial families (levels 13-14: disjunctive
construction and reductio, whose rules' ``teach`` is :func:`teach_trial`).

A trial is explained as the book does: the alternatives of the pivot (or the
single assumption), each followed down to a contradiction or to the common
result.  By default each branch shows its minimal chain (see
:mod:`grader.strategy.trials.chains`): only the facts the end needs, numbered, each saying
which lines above it it uses, then the end with its reason, then the chain
in a compact notation (``r1c4=7 -> r5c4<>7 -> ...``).  Trials nested inside
a branch are expanded the same way, one indentation level deeper, their
assumptions labelled ``B``, ``C``... (the chains' text is
:mod:`grader.core.chain_text`).  With ``full=True`` the branches show the whole
recorded propagation instead (the ``--full-trace`` view).  Everything comes
from the step's branches.

A trial never claims to be a named pattern: where the rating's walk finds
one at this position (``Step.rated_pattern``, e.g. a skyscraper), the text
says so and points to the pattern path, which shows the pattern itself.
"""

from __future__ import annotations

from grader.core.chain_text import (
    INDENT,
    assumed,
    branch_end,
    branch_lines,
    chain_notation,
    effects_notation,
    end_notation,
    end_text,
    fact_notation,
    label,
    link_notation,
    link_text,
    rc,
    uses_text,
)
from grader.core.phrases import a_or_an, effects, join_and
from grader.core.steps import Step

__all__ = [
    "INDENT", "assumed", "branch_end", "branch_lines", "chain_notation", "disjunctive_parts",
    "effects_notation", "end_notation", "end_text", "fact_notation", "label", "level_note",
    "link_notation", "link_text", "pattern_phrase", "proof_level", "rated_phrase", "rc",
    "reductio_parts", "teach_trial", "trial_parts", "uses_text",
]

#: How the pattern path is asked for (``explain --path patterns``).
PATTERN_PATH = "explain --path patterns"


def proof_level(step: Step) -> int:
    """The highest level a step's proof uses: its rule's level, or a higher
    one a sub-step of its chains (or of its full trace, without chains)
    has, nested trials included; at least the level the strategy counts
    it at (:attr:`~grader.core.steps.Step.counted_level`)."""
    level = step.counted_level
    for b in step.branches:
        subs = [k.step for k in b.chain.links] if b.chain is not None else list(b.steps)
        for sub in subs:
            level = max(level, proof_level(sub))
    return level


def _rules_at(step: Step, level: int) -> list[str]:
    """The names of the rules of ``level`` a step's branches use, in order."""
    out: dict[str, None] = {}
    for b in step.branches:
        subs = [k.step for k in b.chain.links] if b.chain is not None else list(b.steps)
        for sub in subs:
            if sub.level == level:
                out[sub.name] = None
            for name in _rules_at(sub, level):
                out[name] = None
    return list(out)


def level_note(step: Step) -> str:
    """`` Its branches use level 14 (reductio ad absurdum), so the step is of
    level 14.`` when its proof uses a level above its rule's (empty otherwise)."""
    top = proof_level(step)
    if top <= step.level:
        return ""
    names = join_and(_rules_at(step, top))
    return (f" Its branches use level {top} ({names}), so the step is of level {top}, "
            f"not {step.level}.")


def pattern_phrase(name: str) -> str:
    """``an XY-Wing``, ``a skyscraper``, ``cell forcing chains``."""
    return name if name.endswith("s") else a_or_an(name)


def rated_phrase(step: Step) -> str:
    """`` At this position the rating's walk finds a skyscraper (see explain
    --path patterns).`` (empty when it names none)."""
    if not step.rated_pattern:
        return ""
    return (f" At this position the rating's walk finds {pattern_phrase(step.rated_pattern)} "
            f"(see {PATTERN_PATH}).")


def _pivot_text(step: Step) -> str:
    geo = step.geo
    alts = [assumed(step, b) for b in step.branches]
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


def _so(step: Step) -> str:
    """The conclusion, said once: ``(5, 4) != 3 holds`` or, for several,
    ``both hold: (5, 4) != 3, (6, 4) != 3`` (``all 3 hold: ...``)."""
    k = len(step.placements) + len(step.eliminations)
    result = effects(step.geo, step.placements, step.eliminations)
    if k == 1:
        return f"{result} holds"
    return f"{'both' if k == 2 else f'all {k}'} hold: {result}"


def _gives(step: Step) -> str:
    """What every branch gives: the conclusion, or for several ``the same 19
    conclusions``."""
    k = len(step.placements) + len(step.eliminations)
    if k == 1:
        return effects(step.geo, step.placements, step.eliminations)
    return f"the same {k} conclusions"


def disjunctive_parts(step: Step) -> tuple[str, str]:
    """(intro, conclusion) of a disjunctive construction."""
    geo = step.geo
    result = effects(geo, step.placements, step.eliminations)
    n = len(step.branches)
    each = "both" if n == 2 else f"each of the {n}"
    every = "Both possibilities" if n == 2 else "Every possibility"
    intro = (f"{_pivot_text(step)}{rated_phrase(step)}{level_note(step)} Follow {each} "
             f"possibilities with the simpler rules; each line below uses only the lines "
             f"above it:")
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
                 f"{_gives(step)}, so {_so(step)}.")
    else:
        outro = (f"{every} {'give' if n == 2 else 'gives'} {_gives(step)}, and one of them "
                 f"must be true, so {_so(step)}.")
    return intro, outro


def reductio_parts(step: Step) -> tuple[str, str]:
    """(intro, conclusion) of a reductio ad absurdum."""
    geo = step.geo
    b = step.branches[0]
    result = effects(geo, step.placements, step.eliminations)
    lead = (rated_phrase(step) + level_note(step)).strip()
    intro = (f"{lead + ' ' if lead else ''}Suppose {assumed(step, b)} ({label(0)}) and follow "
             f"the consequences with the simpler rules; each line below uses only the lines "
             f"above it:")
    if b.conflict is not None:
        outro = f"The assumption leads to a contradiction, so it is false: {result}."
    else:
        outro = f"So {result}."
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
    conclusion.  A reductio's intro names its assumption, so its single
    branch gets no line of its own."""
    intro, outro = trial_parts(step)
    head = step.family not in _PARTS or len(step.branches) > 1
    return "\n".join([intro, *branch_lines(step, full=full, head=head), outro])


_PARTS = {"disjunctive-construction": disjunctive_parts, "reductio": reductio_parts}
