"""The one codec of the result model: a result as a JSON line or a CSV row, and back.

The model is :class:`~grader.strategy.grading.GradeResult`; in bulk a result travels
as its plain dict (``GradeResult.contract()``: the model's fields in order,
then ``solution``, ``canonical`` and the input's own columns when asked), a
:data:`Result`.  The fields, their order and the types CSV is read back with
all come from the model: adding a field to the contract is adding it to
``GradeResult``, nothing here.
"""

from __future__ import annotations

import csv
import json
import types
import typing
from collections.abc import Iterable
from typing import Any

from grader.core import fields
from grader.core.textsafe import spreadsheet_cell, spreadsheet_text
from grader.strategy.grading import CONTRACT_FIELDS, GradeResult

#: A result: the JSON Lines contract as a plain dict (see :meth:`GradeResult.contract`).
Result = dict[str, Any]

#: Fields a run adds on request after the contract's (``--with-solution``, ``--dedupe``).
OPTIONAL_FIELDS = fields.OPTIONAL_FIELDS


def _kind(annotation: Any) -> type:
    """int, float, dict or str: how a CSV cell of a field is read back."""
    args = typing.get_args(annotation) if isinstance(annotation, types.UnionType) or \
        typing.get_origin(annotation) is typing.Union else (annotation,)
    for t in (dict, float, int):
        if any((typing.get_origin(a) or a) is t for a in args):
            return t
    return str


#: field -> the type its CSV cell is read back as (every other column: a string)
KINDS: dict[str, type] = {f.alias or name: _kind(f.annotation)
                          for name, f in GradeResult.model_fields.items()}


def output_fields(with_solution: bool, extra: Iterable[str] = (),
                  dedupe: bool = False) -> list[str]:
    """The columns of a run's CSV output, in order."""
    fields = list(CONTRACT_FIELDS) + (["solution"] if with_solution else [])
    if dedupe:
        fields.append("canonical")
    return fields + [k for k in extra if k not in fields]


def extra_columns(extra: dict[str, str]) -> dict[str, str]:
    """Input columns passed through with ``--keep-columns`` (renamed ``input_X`` when
    they would clash with a field of the contract)."""
    taken = set(CONTRACT_FIELDS) | set(OPTIONAL_FIELDS)
    return {(f"input_{k}" if k in taken else k): v for k, v in extra.items()}


def to_model(d: Result) -> GradeResult:
    """The typed result of a dict (the extra columns kept as extra fields)."""
    return GradeResult(**d)


# --------------------------------------------------------------------------- encoding


def _techniques_cell(t: dict[str, int]) -> str:
    return ";".join(f"{k}={v}" for k, v in t.items())


def _csv_value(v: Any) -> Any:
    """A field as its CSV cell: text that a spreadsheet would run as a formula
    is marked as text (see :func:`grader.core.textsafe.spreadsheet_cell`); numbers
    stay numbers."""
    if isinstance(v, dict):
        return spreadsheet_cell(_techniques_cell(v))
    return spreadsheet_cell(v) if isinstance(v, str) else v


class _Line:
    """What ``csv.writer`` writes one row to (it writes a row in one call)."""

    __slots__ = ("text",)

    def __init__(self) -> None:
        self.text = ""

    def write(self, s: str) -> int:
        self.text = s
        return len(s)


class Encoder:
    """Results as lines of text: ``jsonl`` (one JSON object a line) or ``csv``
    (``fields`` the columns; by default the first result's keys)."""

    def __init__(self, fmt: str, fields: Iterable[str] | None = None) -> None:
        if fmt not in ("jsonl", "csv"):
            raise ValueError(f"unknown output format {fmt!r}")
        self.fmt = fmt
        self.fields = list(fields) if fields is not None else None
        self._line = _Line()
        self._csv = csv.writer(self._line, lineterminator="\n")

    def header(self, d: Result | None = None) -> str:
        """The CSV header line ('' for JSON Lines); fixes the columns on first use."""
        if self.fmt != "csv":
            return ""
        if self.fields is None:
            self.fields = list(d or ())
        return self._row([spreadsheet_cell(f) for f in self.fields])

    def encode(self, d: Result) -> str:
        """One result as one line of text, newline included."""
        if self.fmt == "jsonl":
            return json.dumps(d) + "\n"
        if self.fields is None:
            self.fields = list(d)
        return self._row([_csv_value(d.get(k, "")) for k in self.fields])

    def _row(self, cells: list[Any]) -> str:
        self._csv.writerow(cells)
        return self._line.text


# --------------------------------------------------------------------------- decoding


class DecodeError(ValueError):
    """A line or row that is not a result of ``grade``."""


def decode_cell(key: str, value: str) -> Any:
    """A CSV cell read back with its field's type ('' is a missing value; the
    apostrophe that marks text is taken off)."""
    if value == "":
        return None
    kind = KINDS.get(key, str)
    if kind is dict or kind is str:
        value = spreadsheet_text(value)
    if kind is dict:
        out: dict[str, int] = {}
        for part in value.split(";"):
            if part:
                k, _, v = part.partition("=")
                out[k] = int(v)
        return out
    if kind is str:
        return value
    return kind(value)


def decode_csv_row(row: dict[str | None, Any]) -> Result:
    """A row of ``csv.DictReader`` over grade's CSV output, as a result."""
    if None in row or None in row.values():  # cells missing or extra: a row cut or joined
        raise DecodeError("not as many cells as the header has columns")
    d = {}
    for k, v in row.items():
        name = spreadsheet_text(str(k))
        d[name] = decode_cell(name, v)
    if type(d.get("index")) is not int or "puzzle" not in d:
        raise DecodeError("no index and puzzle")
    return d


def decode_json_line(raw: str) -> Result:
    """A line of grade's JSON Lines output, as a result (DecodeError: not one)."""
    try:
        d = json.loads(raw)
    except json.JSONDecodeError as e:
        raise DecodeError(f"not valid JSON ({e.msg})") from e
    except (RecursionError, ValueError) as e:  # nested too deeply, huge numbers
        raise DecodeError(f"not a result of grade ({type(e).__name__})") from e
    if not isinstance(d, dict) or type(d.get("index")) is not int or "puzzle" not in d:
        raise DecodeError("not a result of grade (no index and puzzle)")
    return d
