"""The shipped JSON schemas (``schemas/*.json``): current with the models,
printed by ``--schema``, and followed by every record of ``grade -f jsonl``
and every document of ``explain -f json`` of bench-mixed (explain: a sample by
default, all 200 grids with ``--runslow``).  Every record names its version;
an output of 0.1 (no ``schema`` field) is resumed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT, scaled
from typer.testing import CliRunner

from grader.cli.main import build_app
from grader.explainer.model import SCHEMA as EXPLAIN_SCHEMA
from grader.schemas import SCHEMAS, schema_text
from grader.strategy.grading import GRADE_SCHEMA

jsonschema = pytest.importorskip("jsonschema")

BENCH = PUZZLES / "bench-mixed.txt"
BIN = Path(sys.executable).parent
runner = CliRunner()
#: explain -f json by default: an easy grid, a fish, trials of depth 1, nested trials
SAMPLE = (1, 2, 4, 24, 79)


def validator(name: str) -> object:
    schema = json.loads((ROOT / "schemas" / name).read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_the_shipped_schemas_are_current(name: str) -> None:
    shipped = (ROOT / "schemas" / name).read_text(encoding="utf-8")
    assert shipped == schema_text(name), (
        f"schemas/{name} is stale: run python -m grader.schemas")


def test_the_schemas_folder_holds_exactly_the_generated_files() -> None:
    assert sorted(p.name for p in (ROOT / "schemas").iterdir()) == sorted(SCHEMAS)


@pytest.mark.parametrize(("command", "name"), [("grade", "grade.schema.json"),
                                               ("explain", "explain.schema.json")])
def test_schema_option_prints_the_schema(command: str, name: str) -> None:
    r = runner.invoke(build_app(), [command, "--schema"])
    assert r.exit_code == 0
    assert r.stdout == (ROOT / "schemas" / name).read_text(encoding="utf-8")


def test_every_grade_record_of_bench_mixed_follows_the_schema() -> None:
    p = subprocess.run([str(BIN / "grade"), str(BENCH), "-f", "jsonl", "-q"],
                       capture_output=True, text=True, timeout=scaled(600))
    assert p.returncode == 0, p.stderr
    records = [json.loads(line) for line in p.stdout.splitlines()]
    assert len(records) == 200
    v = validator("grade.schema.json")
    for r in records:
        v.validate(r)  # type: ignore[attr-defined]
        assert r["schema"] == GRADE_SCHEMA


def test_records_of_every_verdict_and_of_generate_follow_the_schema(tmp_path: Path) -> None:
    from bulk_helpers import jsonl, run_grade

    f = tmp_path / "bad.txt"
    good = BENCH.read_text().splitlines()[0]
    f.write_text(f"{good}\nnot a grid\n{'11' + good[2:]}\n{'.' * 81}\n")
    p = run_grade(f, output_format="jsonl", jobs=1, with_solution=True, dedupe=True)
    v = validator("grade.schema.json")
    rows = jsonl(p.stdout)
    assert {r["verdict"] for r in rows} >= {"ok", "malformed", "multiple-solutions"}
    for r in rows:
        v.validate(r)  # type: ignore[attr-defined]
    made = runner.invoke(build_app(), ["generate", "-r", "easy", "-n", "2", "--seed", "1",
                                       "-f", "jsonl", "-q", "-j", "1"])
    assert made.exit_code == 0
    for line in made.stdout.splitlines():
        v.validate(json.loads(line))  # type: ignore[attr-defined]


def _explain_params() -> list[object]:
    return [pytest.param(i, marks=() if i in SAMPLE else pytest.mark.slow, id=f"grid{i}")
            for i in range(1, 201)]


@pytest.mark.parametrize("index", _explain_params())
def test_explain_documents_of_bench_mixed_follow_the_schema(index: int) -> None:
    r = runner.invoke(build_app(), ["explain", str(BENCH), "--index", str(index), "-f", "json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    validator("explain.schema.json").validate(doc)  # type: ignore[attr-defined]
    assert doc["schema"] == EXPLAIN_SCHEMA


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_an_output_of_0_1_without_schema_is_resumed(tmp_path: Path, fmt: str) -> None:
    from bulk_helpers import first_grids, run_grade

    src = first_grids(PUZZLES / "se-easy-500.txt", 6, tmp_path / "six.txt")
    out = tmp_path / f"r.{fmt}"
    assert run_grade(src, output=out, jobs=1, quiet=True).returncode == 0
    lines = out.read_text().splitlines()
    if fmt == "jsonl":  # as 0.1 wrote it: no schema field, three grids done
        old = [json.dumps({k: v for k, v in json.loads(x).items() if k != "schema"})
               for x in lines[:3]]
    else:
        old = [x.rsplit(",", 1)[0] for x in lines[:4]]
    out.write_text("\n".join(old) + "\n")
    p = run_grade(src, output=out, jobs=1, quiet=True, resume=True)
    assert p.returncode == 0, p.stderr
    final = out.read_text().splitlines()
    assert final[:len(old)] == old and len(final) == len(old) + 3
    if fmt == "jsonl":
        assert [("schema" in json.loads(x)) for x in final] == [False] * 3 + [True] * 3
        v = validator("grade.schema.json")
        for x in final:
            v.validate(json.loads(x))  # type: ignore[attr-defined]
    else:
        assert all(len(x.split(",")) == len(old[0].split(",")) for x in final)
