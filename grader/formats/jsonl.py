"""The ``jsonl`` format: one JSON object per line, the grid under ``puzzle``,
``quizzes`` or ``grid`` (or ``--column``), other keys kept in :attr:`Record.extra`."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from grader.formats.decode import BadLine, _bad, _content
from grader.formats.grid import JSON_KEYS, MalformedGrid, Record, _clip, parse_grid_token
from grader.formats.line import _as_line


def _json_object(raw: str) -> tuple[dict[str, object] | None, str | None]:
    """A JSON line as an object, or why it is not one (never raises: deep nesting
    and huge numbers are errors of that line)."""
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError as e:
        return None, f"not valid JSON: {e.msg} (column {e.colno})"
    except RecursionError:
        return None, "not valid JSON here: nested too deeply"
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        return None, f"not valid JSON here: {str(e)[:120]}"
    if not isinstance(obj, dict):
        return None, "expected a JSON object"
    return obj, None


def _jsonl_record(index: int, lineno: int, source: str, raw: str,
                  box: tuple[int, int] | None, keys: tuple[str, ...]) -> Record:
    obj, err = _json_object(raw)
    if obj is None:
        plain = not raw.lstrip().startswith(("{", "["))  # not meant as JSON: a plain grid?
        return ((_as_line(index, lineno, source, raw, box) if plain else None)
                or Record(index, lineno, source, _clip(raw[:100]), None, err, "jsonl"))
    key = next((k for k in keys if k in obj), None)
    try:
        extra = {k: v if isinstance(v, str) else json.dumps(v) for k, v in obj.items()
                 if k != key}
    except (RecursionError, ValueError):
        extra = {}
    value = obj[key] if key is not None else None
    if not isinstance(value, str):
        return Record(index, lineno, source, _clip(raw[:100]), None,
                      f"no {' or '.join(repr(k) for k in keys)} key holding a grid", "jsonl",
                      extra)
    tok = value.strip()
    try:
        return Record(index, lineno, source, tok, parse_grid_token(tok, box=box), None,
                      "jsonl", extra)
    except MalformedGrid as e:
        return Record(index, lineno, source, _clip(tok), None, e.message, "jsonl", extra)


def _iter_jsonl(lines: Iterable[tuple[int, str]], source: str, box: tuple[int, int] | None,
                column: str | None = None) -> Iterator[Record]:
    """One record per line that is neither blank nor a comment."""
    keys = (column,) if column else JSON_KEYS
    index = 0
    for lineno, raw in lines:
        if not _content(raw):
            continue
        index += 1
        if isinstance(raw, BadLine):
            yield _bad(index, lineno, source, raw, "jsonl")
        else:
            yield _jsonl_record(index, lineno, source, raw, box, keys)


