"""The Python API mirrors the commands (issue 31): a function per command,
every option that changes a result as a keyword of the same name, the same
defaults (``jobs``: all cores), one return type per function, and a
``GraderError`` for every bad argument."""

from __future__ import annotations

import inspect
import typing
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import PUZZLES, scaled

import grader
import grader.api_args
from grader.cli.reference import commands, options
from grader.core.errors import ArgumentError, GraderError

G = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"
CAL = PUZZLES / "book-calibration.txt"

#: options that shape what a terminal or a file gets, not the result: the API
#: returns the result itself
PRESENTATION = {"--format", "--output", "--overwrite", "--quiet", "--color", "--version",
                "--help", "--progress", "--summary", "--summary-only", "--plot", "--schema",
                "--pretty", "--output-pretty", "--stats", "--grid", "--detail", "--step",
                "--hint", "--list-rules", "--index", "--with-solution-text", "--grids", "--log"}
#: command -> (function, {option: keyword, or why the API has none})
MIRROR: dict[str, tuple[Callable[..., object], dict[str, str]]] = {
    "grade": (grader.rate_file, {
        "--input-format": "input_format", "--box": "box", "--hierarchy": "hierarchy",
        "--propagation": "propagation", "--column": "column",
        "--with-solution": "with_solution", "--check": "check",
        "--check-engine": "check_engine", "--jobs": "jobs", "--time-limit": "time_limit",
        "--where": "where", "--min-level": "min_level", "--max-level": "max_level",
        "--sort": "sort", "--top": "top", "--dedupe": "dedupe",
        "--keep-columns": "keep_columns", "--se": "se",
        "--strict": "- the result of a broken plugin is the verdict rule-error",
        "--resume": "- an output file's continuation: the command's",
        "--dask": "- a cluster: grade --dask",
    }),
    "explain": (grader.explain, {
        "--input-format": "input_format", "--box": "box", "--hierarchy": "hierarchy",
        "--moves": "moves", "--rules-up-to": "rules_up_to", "--path": "path",
        "--notation": "- explanation(notation=...): the steps are data, the notation their text's",
        "--full-trace": "- explanation(full_trace=True); the steps carry their branches",
    }),
    "solve": (grader.solve, {
        "--engine": "engine", "--count": "count", "--all": "all_solutions",
        "--limit": "limit", "--time-limit": "time_limit", "--input-format": "input_format",
        "--box": "box", "--sat-solver": "sat_solver", "--encoding": "encoding",
        "--fresh-solver": "fresh_solver", "--csp-model": "csp_model",
        "--ac3-queue": "ac3_queue", "--column": "- one grid: rate_file reads files",
        "--dimacs": "- grader.exact.cnf.encode writes the CNF",
        "--trace": "- a picture", "--compare": "- grader.exact.solving.compare",
    }),
    "generate": (grader.generate, {
        "--rating": "rating", "--level": "level", "--depth": "depth", "--score": "score",
        "--se": "se", "--ep": "ep", "--ed": "ed",
        "--like": "like", "--number": "number", "--size": "size", "--box": "box",
        "--symmetry": "symmetry", "--minimal": "minimal", "--min-givens": "min_givens",
        "--max-givens": "max_givens", "--seed": "seed", "--method": "method",
        "--jobs": "jobs", "--stop-after": "stop_after", "--hierarchy": "hierarchy",
        "--with-solution": "- every result has its solution",
        "--pack": "- files to print: generate --pack",
    }),
    "pair solve": (grader.pair_solve, {
        "--count": "- limit=1000: the result's count", "--limit": "limit",
        "--sat-solver": "sat_solver", "--input-format": "input_format", "--box": "box",
    }),
    "pair generate": (grader.pair_generate, {
        "--order": "order", "--seed": "seed", "--sat-solver": "sat_solver",
        "--stop-after": "stop_after", "--with-solution": "- the result has its solution",
        "--verify": "- grader.exact.pairs.verify_pair",
    }),
}


@pytest.mark.parametrize("command", sorted(MIRROR))
def test_every_option_of_the_command_is_a_keyword(command: str) -> None:
    function, mapping = MIRROR[command]
    params = inspect.signature(function).parameters
    for opt in options(commands()[command]):
        if opt.long in PRESENTATION:
            continue
        assert opt.long in mapping, f"{command} {opt.long}: no keyword of {function.__name__}"
        keyword = mapping[opt.long]
        if not keyword.startswith("- "):
            assert keyword in params, f"{function.__name__} has no {keyword} ({opt.long})"


def test_the_defaults_are_the_commands() -> None:
    for function in (grader.rate_file, grader.generate):
        assert inspect.signature(function).parameters["jobs"].default == 0  # all cores
    assert inspect.signature(grader.solve).parameters["engine"].default == "native"
    assert inspect.signature(grader.pair_generate).parameters["order"].default == 3
    assert inspect.signature(grader.generate).parameters["number"].default == 1


@pytest.mark.parametrize(("function", "returns"), [
    (grader.grade, "GradeResult"), (grader.rate_file, "Iterator[GradeResult]"),
    (grader.explain, "list[Step]"), (grader.explanation, "Explanation"),
    (grader.solve, "SolveReport"), (grader.generate, "list[GradeResult]"),
    (grader.pair_solve, "PairSolution"), (grader.pair_generate, "PairPuzzle"),
])
def test_one_return_type_per_function_documented(function: Callable[..., object],
                                                 returns: str) -> None:
    assert inspect.signature(function).return_annotation == returns
    assert function.__doc__ and function.__name__ in grader.api.__doc__  # in the table


def test_grade_takes_a_hierarchy_file(tmp_path: Path) -> None:
    h = tmp_path / "h.toml"
    h.write_text('extends = "default"\n[trials]\npropagation = "singles"\n')
    for given in (str(h), h):
        r = grader.grade(G, hierarchy=given)
        assert r.verdict == "ok" and r.rating == "very easy"
    assert grader.grade(G).solution.startswith("642579831")  # type: ignore[attr-defined]


def test_generate_takes_depth_score_and_like(tmp_path: Path) -> None:
    (nested,) = grader.generate(depth=2, number=1, seed=1, jobs=1)
    assert nested.depth == 2 and nested.solution  # type: ignore[attr-defined]
    (scored,) = grader.generate(score="20..30", number=1, seed=1, jobs=1)
    assert 20 <= (scored.score or 0) <= 30
    mine = tmp_path / "mine.txt"
    mine.write_text((PUZZLES / "bench-mixed.txt").read_text().splitlines()[3] + "\n")
    (near,) = grader.generate(like=mine, rating="expert", number=1, seed=1, jobs=1,
                              stop_after=60)
    assert near.rating == "expert"
    with pytest.warns(DeprecationWarning, match="count is deprecated"):
        assert len(grader.generate("easy", count=2, seed=1, jobs=1)) == 2


def cli_lines(*args: str) -> list[str]:
    import subprocess
    import sys

    p = subprocess.run([str(Path(sys.executable).parent / args[0]), *args[1:]],
                       capture_output=True, text=True, timeout=scaled(120))
    return p.stdout.splitlines()


def test_rate_file_selects_and_sorts_as_grade_does() -> None:
    rows = list(grader.rate_file(CAL, where="level >= 13", sort="score", top=3, jobs=1))
    assert len(rows) == 3 and all(r.level == 13 for r in rows)
    assert [r.score for r in rows] == sorted((r.score or 0 for r in rows), reverse=True)
    assert isinstance(grader.rate_file(CAL, jobs=1), Iterator)
    want = len(cli_lines("grade", str(CAL), "--max-level", "2", "-f", "jsonl", "-q"))
    assert len(list(grader.rate_file(CAL, max_level=2, jobs=1))) == want == 5


def test_pairs_at_the_top_level(tmp_path: Path) -> None:
    pytest.importorskip("pysat")
    made = grader.pair_generate(order=2, seed=3)
    assert isinstance(made, grader.PairPuzzle) and made.complete and made.size == 4
    f = tmp_path / "pair.txt"
    f.write_text("\n".join(made.puzzle) + "\n")
    solved = grader.pair_solve(f)
    assert isinstance(solved, grader.PairSolution) and solved.unique
    assert solved.solutions[0] == made.solution
    assert grader.pair_solve("\n".join(made.puzzle)).unique  # the text itself


@pytest.mark.parametrize("call", [
    lambda: list(grader.rate_file(CAL, jobs=-1)),
    lambda: grader.rate_file(CAL, input_format="xml"),
    lambda: grader.rate_file(CAL, sort="fastest"),
    lambda: grader.rate_file(CAL, where="level >>= 3"),
    lambda: grader.rate_file(CAL, time_limit=float("nan")),
    lambda: grader.grade(G, box="3y3"),
    lambda: grader.grade(G, hierarchy="no-such-hierarchy.toml"),
    lambda: grader.grade(G, propagation="some"),
    lambda: grader.grade(G, check_engine="nope"),
    lambda: grader.explain(G, rules_up_to=0),
    lambda: grader.explain(G, input_format="xml"),
    lambda: grader.solve(G, limit=0),
    lambda: grader.solve(G, engine="nope"),
    lambda: grader.solve(G, count=True, all_solutions=True),
    lambda: grader.generate("hard"),
    lambda: grader.generate("easy", number=0),
    lambda: grader.generate("easy", jobs=-2),
    lambda: grader.pair_generate(order=9),
    lambda: grader.pair_solve(Path("no-such-pair.txt")),
], ids=lambda f: "")
def test_every_bad_argument_is_a_grader_error(call: Callable[[], object]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(GraderError):
            call()


def test_argument_error_is_also_a_value_error() -> None:
    with pytest.raises(ValueError, match="jobs must be an integer >= 0"):
        grader.rate_file(CAL, jobs=-1)
    assert issubclass(ArgumentError, GraderError)
    assert typing.get_type_hints(grader.api_args.check_jobs)["return"] is int


# --------------------------------------------------------------------------- issue 39


def test_grade_reuses_one_grader_per_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    import grader
    from grader.bulk import task

    built: list[object] = []
    make = task.make_grader

    def counted(cfg: task.GradeConfig) -> object:
        built.append(cfg)
        return make(cfg)

    monkeypatch.setattr(task, "make_grader", counted)
    monkeypatch.setattr(task, "_shared", __import__("threading").local())
    grid = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"
    first = grader.grade(grid)
    for _ in range(3):
        assert grader.grade(grid).model_dump(exclude={"seconds"}) == \
            first.model_dump(exclude={"seconds"})
    assert len(built) == 1
    off = grader.grade(grid, se="off")
    grader.grade(grid, se="off")
    assert len(built) == 2  # one more configuration, built once
    assert off.se is None and off.se_pattern is None and off.level == first.level


def test_se_off_scores_expert_grids_by_their_path() -> None:
    import grader

    hard = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
    full = grader.grade(hard)
    off = grader.grade(hard, se="off")
    assert (off.level, off.depth, off.steps, off.techniques) == \
        (full.level, full.depth, full.steps, full.techniques)
    assert off.se is None and full.se is not None
    assert off.score is not None and 10 * off.level <= off.score < 10 * off.level + 10
    with pytest.raises(ValueError):
        grader.grade(hard, se="deep")
