"""The result model's one codec (grader.bulk.codec), and the one deadline
(grader.bulk.task): in-process, no command."""

from __future__ import annotations

import csv
import io
import json
import time

from conftest import scaled

from grader.bulk.codec import (
    KINDS,
    DecodeError,
    Encoder,
    decode_csv_row,
    decode_json_line,
    output_fields,
)
from grader.bulk.task import Deadline, GradeConfig, GridTimeout, Worker
from grader.formats import parse_grid_token
from grader.strategy.grading import CONTRACT_FIELDS, Grader, GradeResult

EASY = "050703060007000800000816000000030000005000100730040086906000204840572093000409000"
HARD = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97.."


def _result() -> dict:
    return Grader().grade_grid(parse_grid_token(EASY), 3, 7).contract(with_solution=True)


def test_the_contract_and_its_types_come_from_the_model() -> None:
    assert tuple(f.alias or name for name, f in GradeResult.model_fields.items()) == \
        CONTRACT_FIELDS
    assert CONTRACT_FIELDS[-1] == "schema" and KINDS["schema"] is str
    assert KINDS["index"] is int and KINDS["score"] is float
    assert KINDS["techniques"] is dict and KINDS["rating"] is str and KINDS["seconds"] is float


def test_jsonl_both_ways() -> None:
    d = _result()
    line = Encoder("jsonl").encode(d)
    assert line == json.dumps(d) + "\n"
    assert decode_json_line(line) == d


def test_csv_both_ways_as_the_csv_module_writes() -> None:
    d = _result()
    fields = output_fields(with_solution=True)
    enc = Encoder("csv", fields)
    text = enc.header() + enc.encode(d)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    w.writerow({**d, "techniques": ";".join(f"{k}={v}" for k, v in d["techniques"].items())})
    assert text == buf.getvalue()
    row = next(csv.DictReader(io.StringIO(text)))
    assert decode_csv_row(row) == d


def test_decoding_refuses_what_is_not_a_result() -> None:
    for bad in ("[1, 2]", '{"index": "1", "puzzle": "x"}', "{", '{"puzzle": "x"}'):
        try:
            decode_json_line(bad)
        except DecodeError:
            continue
        raise AssertionError(bad)
    try:
        decode_csv_row({"index": "x", "puzzle": "p"})
    except ValueError:
        pass
    else:
        raise AssertionError("a cell of the wrong type")


def test_the_deadline_interrupts_the_grading_thread() -> None:
    deadline = Deadline()
    t0 = time.monotonic()
    try:
        deadline.run(lambda: _spin(5.0), 0.05)
    except GridTimeout:
        pass
    else:
        raise AssertionError("not interrupted")
    assert time.monotonic() - t0 < min(scaled(2.0), 4.5)  # the spin alone takes 5 s
    assert deadline.run(lambda: {"ok": 1}, 0.5) == {"ok": 1}  # armed again, not fired
    time.sleep(0.6)  # a deadline disarmed in time never fires later


def _spin(seconds: float) -> dict:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return {}


def test_a_worker_times_out_a_grid_and_goes_on() -> None:
    grid = parse_grid_token(HARD)
    task = (1, 1, 3, 3, grid.values)
    worker = Worker(GradeConfig(encode="jsonl"), timeout=0.001)
    d, line = worker.answer(task)
    assert d["verdict"] == "timeout" and d["message"] == "not graded within 0.001 s"
    assert line == json.dumps(d) + "\n"
    easy = parse_grid_token(EASY)
    worker.timeout = 30.0
    d, _ = worker.answer((2, 2, 3, 3, easy.values))
    assert d["verdict"] == "ok" and d["index"] == 2
