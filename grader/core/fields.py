"""The fields of a grade record, as names only (no models imported).

The JSON Lines contract is :class:`grader.strategy.grading.GradeResult`; its fields, in
order, are :data:`CONTRACT_FIELDS` (the model checks, when it is defined, that
they agree).  Commands read the names from here to write their help without
loading the grader."""

from __future__ import annotations

#: The fields of every record, in order.
CONTRACT_FIELDS: tuple[str, ...] = (
    "index", "line", "puzzle", "size", "verdict", "message", "level", "rating", "score",
    "depth", "steps", "techniques", "hardest", "se", "se_pattern", "ep", "ed", "seconds",
    "schema")
#: Fields a record carries on request (``--with-solution``, ``--dedupe``).
OPTIONAL_FIELDS: tuple[str, ...] = ("solution", "canonical")
#: What ``--where`` can test, besides the input's own columns.
WHERE_FIELDS: tuple[str, ...] = CONTRACT_FIELDS + OPTIONAL_FIELDS + ("givens", "source")
