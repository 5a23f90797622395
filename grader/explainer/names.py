"""What a step is called and what level it shows, the same in every output.

``common_name``: the name players give the step's technique (its rule's
``common_name``: hidden single, naked single, pointing, claiming, naked
quad, cell forcing chains...); ``beside``: that name when it differs from
the book's, which the renderers write after it.  ``shown_level``: the
highest level the step's proof uses (a trial whose branches use a level-14
rule shows level 14; see :func:`grader.core.trial_text.proof_level`)."""

from __future__ import annotations

from grader.core.steps import Step
from grader.core.trial_text import proof_level


def common_name(step: Step) -> str | None:
    """The name players give the step's technique, or None."""
    fn = getattr(step.technique, "common_name", None)
    name = fn(step) if fn is not None else None
    return str(name) if name else None


def beside(step: Step) -> str:
    """The common name when it differs from the book's name, else ``""``."""
    name = common_name(step)
    return name if name and name.lower() != step.name.lower() else ""


def shown_level(step: Step) -> int:
    """The level a step shows: the highest level its proof uses."""
    return proof_level(step)
