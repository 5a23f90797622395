"""The arguments every API function checks as the command line does: a
hierarchy (a table or its path), a block shape, a number of jobs, an input
format; :class:`~grader.core.errors.ArgumentError` when one is refused."""

from __future__ import annotations

from pathlib import Path

from grader.core.errors import ArgumentError
from grader.formats import FORMATS
from grader.strategy.hierarchy import Hierarchy

#: ``hierarchy=``: a table, or the path of one (``--hierarchy FILE``), or None (the book's)
HierarchyArg = Hierarchy | str | Path | None


def hierarchy_of(hierarchy: HierarchyArg, propagation: str | None = None) -> Hierarchy | None:
    """A :class:`Hierarchy` from what ``hierarchy=`` may be (a path is loaded as
    ``--hierarchy FILE``); ``propagation`` as ``--propagation``."""
    from grader.strategy.hierarchy import load_hierarchy

    h = load_hierarchy(hierarchy) if isinstance(hierarchy, (str, Path)) else hierarchy
    if propagation is None:
        return h
    if propagation not in ("all", "singles"):
        raise ArgumentError(f"propagation must be 'all' or 'singles', not {propagation!r}")
    h = h or load_hierarchy()
    return h.model_copy(update={"trials": h.trials.model_copy(
        update={"propagation": propagation})})


def box_of(box: tuple[int, int] | str | None) -> tuple[int, int] | None:
    """``box=``: ``(rows, columns)`` or ``"AxB"`` as ``--box``."""
    from grader.core.geometry import parse_box

    if box is None or isinstance(box, tuple):
        return box
    try:
        return parse_box(str(box))
    except ValueError as e:
        raise ArgumentError(f"box: {e}") from None


def check_jobs(jobs: int) -> int:
    """``jobs``: 0 for one per usable CPU (the default, as ``--jobs``)."""
    if not isinstance(jobs, int) or jobs < 0:
        raise ArgumentError(f"jobs must be an integer >= 0 (0: all cores), not {jobs!r}")
    return jobs


def check_format(input_format: str, allowed: tuple[str, ...] = FORMATS) -> str:
    if input_format not in allowed:
        raise ArgumentError(f"unknown input format {input_format!r} "
                            f"(choose from {', '.join(allowed)})")
    return input_format


def check_choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    """``value`` when it is one of ``allowed`` (the command's choices for ``--name``)."""
    if value not in allowed:
        raise ArgumentError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value
