"""The JSON schemas of what the commands write, generated from their models.

- ``grade.schema.json``: every record of ``grade -f jsonl`` (and of ``generate -f
  jsonl``, ``grade --output x.jsonl``); the model is
  :class:`~grader.strategy.grading.GradeResult`;
- ``explain.schema.json``: the document of ``explain -f json``; the model is
  :class:`~grader.explainer.model.Explanation`;
- ``solve.schema.json``: every record of ``solve -f jsonl`` (several grids);
  the model is :class:`~grader.api.SolveReport`.

Each record or document names the version it follows in its field
``schema`` (``sudoku-grader/grade/1``, ``sudoku-grader/explain/2``); the
schema's ``$id`` ends with that version.  The project ships them in
``schemas/`` (``python -m grader.schemas`` writes them again; a test checks
that they are current), and ``--schema`` prints them (``grade``, ``generate``:
the grade records; ``explain``; ``solve``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

#: draft of JSON Schema the files declare (pydantic writes 2020-12)
DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: the base of every ``$id`` (a name, not a place to fetch from)
BASE = "urn:sudoku-grader:schema:"


def grade_schema() -> dict[str, Any]:
    """The schema of a ``grade -f jsonl`` record."""
    from grader.strategy.grading import GRADE_SCHEMA, GradeResult

    body = GradeResult.model_json_schema(mode="serialization", by_alias=True)
    body["properties"]["schema"]["const"] = GRADE_SCHEMA
    framed = _framed(body, GRADE_SCHEMA, "A record of grade -f jsonl: one grid's verdict and "
                     "grade (the JSON Lines contract).  Fields may be added within a version; "
                     "a record without `schema` was written by sudoku-grader 0.1 and follows "
                     "version 1.")
    framed["required"].remove("schema")
    return framed


def explain_schema() -> dict[str, Any]:
    """The schema of an ``explain -f json`` document."""
    from grader.explainer.model import SCHEMA, Explanation

    body = Explanation.model_json_schema(mode="serialization", by_alias=True)
    body["properties"]["schema"]["const"] = SCHEMA
    return _framed(body, SCHEMA, "The document of explain -f json: every step of the "
                   "minimal-level strategy.  Fields may be added within a version.")


#: the version of the solve records (they carry no ``schema`` field)
SOLVE_SCHEMA = "sudoku-grader/solve/1"
#: the fields every solve record has (``solution`` or ``solutions``, and
#: ``stats``, depend on the request and the engine)
SOLVE_REQUIRED = ("index", "line", "puzzle", "size", "engine", "verdict", "message", "count",
                  "complete", "seconds")


def solve_schema() -> dict[str, Any]:
    """The schema of a ``solve -f jsonl`` record."""
    from grader.api import SolveReport

    body = SolveReport.model_json_schema(mode="serialization", by_alias=True)
    framed = _framed(body, SOLVE_SCHEMA, "A record of solve -f jsonl: one grid's verdict "
                     "and solution from an exact engine.  Fields may be added within a "
                     "version.")
    framed["required"] = list(SOLVE_REQUIRED)
    return framed


def _framed(body: dict[str, Any], version: str, description: str) -> dict[str, Any]:
    """``$schema``, ``$id`` and a description around a model's schema, where
    every field is required: the commands always write every field."""
    for obj in (body, *body.get("$defs", {}).values()):
        if "properties" in obj:
            obj["required"] = list(obj["properties"])
    _, name, number = version.split("/")
    return {"$schema": DIALECT, "$id": f"{BASE}{name}:{number}", **body,
            "description": description}


#: file name -> the function that makes it
SCHEMAS = {"grade.schema.json": grade_schema, "explain.schema.json": explain_schema,
           "solve.schema.json": solve_schema}


def schema_text(name: str) -> str:
    """The text of a schema file (``grade.schema.json``), as shipped."""
    return json.dumps(SCHEMAS[name](), indent=2, ensure_ascii=False) + "\n"


def write_all(folder: Path) -> list[Path]:
    """Write every schema into ``folder``; the paths written."""
    from grader.formats.files import write_output

    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in SCHEMAS:
        path = folder / name
        write_output(path, schema_text(name))
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> None:
    """``python -m grader.schemas [FOLDER]``: write the schemas (default ``schemas/``)."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0].startswith("-"):
        print("usage: python -m grader.schemas [FOLDER]   (default: schemas/)")
        raise SystemExit(0 if args[0] in ("-h", "--help") else 2)
    for path in write_all(Path(args[0] if args else "schemas")):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
