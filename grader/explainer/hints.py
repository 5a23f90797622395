"""Hints: the next step, told at three levels, each revealing more.

``technique``: the technique's name, level and book reference, nothing
else.  ``where``: also the region, value or cells to look at (for a trial,
the kind of reasoning and the area it starts from), never the conclusion nor
a trial's pivot.  ``full``: the whole step.  ``vague`` (the old name of the
pointer) is an alias of ``where``.

The ``where`` words are the technique's own (its rule's ``where``, from the
step's pattern); a technique without them gets the technique level only."""

from __future__ import annotations

from collections.abc import Callable

from grader.core.phrases import FULL_HOUSE
from grader.core.steps import Step
from grader.explainer.choices import HINT_ALIASES, HINT_LEVELS
from grader.explainer.names import beside, shown_level

HintTemplate = Callable[[Step], str]


_COUNT_WORDS = {2: "two", 3: "three", 4: "four"}


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



def article(name: str) -> str:
    """``a skyscraper``, ``an XY-Wing``, ``a unique rectangle``, ``an ALS-XZ``:
    the name with the article it is read with (letters of an initialism
    said with a vowel sound take "an"); a plural name has none."""
    if name.endswith("chains") or name.endswith("loops"):
        return name
    head = name.split("-")[0].split()[0] if name else ""
    initialism = len(head) > 1 and head.isupper() or len(head) == 1
    if initialism:
        vowel = head[0] in "AEFHILMNORSX"
    else:
        vowel = head[:1].lower() in "aeio" and not head.lower().startswith(("one", "eu"))
    return f"{'an' if vowel else 'a'} {name}"


def technique_hint(step: Step) -> str:
    """``Try single position (hidden single; rule 2.1, level 1).``: the
    technique only, with the name players give it; a step of the pattern
    path: ``Try a skyscraper (SE 4.0).``"""
    if step.se is not None:
        return f"Try {article(step.name)} (SE {step.se:.1f})."
    ref = f"{step.reference}, " if step.reference else ""
    name = step.name
    other = beside(step)
    if step.pattern.regions_with(FULL_HOUSE):
        name, ref = "a full house", f"{step.name}, {ref}"
    elif other:
        ref = f"{other}; {ref}"
    nested = f", with trials nested {step.depth} deep" if step.depth > 1 else ""
    return f"Try {name} ({ref}level {shown_level(step)}){nested}."


def where_hint(step: Step) -> str:
    """The technique and where to look: ``Try single position (rule 2.1,
    level 1): look at column C6: one value has a single possible cell there.``"""
    from grader.core.trial_text import rated_phrase

    head = technique_hint(step)[:-1]
    where = getattr(step.technique, "where", None)
    text = where(step) if where is not None else None
    return (f"{head}: {text}." if text else head + ".") + rated_phrase(step)


#: The old name of :func:`where_hint`.
vague_hint = where_hint


def full_hint(step: Step, detail: str = "teach", notation: str | None = None) -> str:
    """The whole step: its technique line, then its explanation at ``detail``
    (``teach``: the reasoning in sentences; ``short``: the one-line summary
    and a trial's branches), in ``notation``."""
    from grader.explainer.render import body_lines

    ref = f" · {step.reference}" if step.reference else ""
    named = f" ({beside(step)})" if beside(step) else ""
    se = f" · SE {step.se:.1f}" if step.se is not None else ""
    return "\n".join([f"{step.name}{named}{se} · level {shown_level(step)}{ref}",
                      *body_lines(step, detail, notation=notation)])


def hint(step: Step, level: str = "where", detail: str = "teach",
         notation: str | None = None) -> str:
    """The hint for ``step`` at ``level`` (``technique``, ``where``, ``full``
    or an alias such as ``vague``); ``detail`` applies to ``full``;
    ``notation``: ``book`` or ``compact``."""
    from grader.explainer.notation import shown

    level = hint_level(level)
    if level == "technique":
        return shown(technique_hint(step), notation)
    if level == "where":
        return shown(where_hint(step), notation)
    return full_hint(step, detail, notation)
