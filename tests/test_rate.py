"""``grader.rate``: grids held in memory graded in one call, in input order,
with the pool of ``grade -j N`` (issue 43); and the typed errors that point
a caller of ``rate_file`` or ``grade`` with grids in hand to it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from conftest import PUZZLES, ROOT

import grader
from grader.core.errors import ArgumentError, GraderError, GridTypeError

G = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"
CAL = PUZZLES / "book-calibration.txt"


def _grids() -> list[str]:
    lines = CAL.read_text(encoding="utf-8").splitlines()
    return [ln.split()[0] for ln in lines if ln and not ln.startswith("#")]


def test_rate_yields_one_result_per_grid_in_input_order() -> None:
    grids = _grids()[:6]
    one = list(grader.rate(grids, jobs=1))
    assert [r.index for r in one] == [1, 2, 3, 4, 5, 6]
    assert [r.puzzle for r in one] == [grader.read_grid(g).normalised() for g in grids]
    assert [r.rating for r in one] == [grader.grade(g).rating for g in grids]
    two = list(grader.rate(iter(grids), jobs=2))  # any iterable, by worker processes
    assert [r.model_dump(exclude={"seconds"}) for r in two] == \
        [r.model_dump(exclude={"seconds"}) for r in one]


def test_rate_takes_grid_objects_and_marks_malformed_texts() -> None:
    got = list(grader.rate([grader.read_grid(G), "not a grid", "1" * 81, G], jobs=1))
    assert [r.verdict for r in got] == ["ok", "malformed", "contradiction", "ok"]
    assert [r.index for r in got] == [1, 2, 3, 4]
    assert got[1].message


def test_rate_is_lazy_with_one_job() -> None:
    def grids():
        yield G
        raise AssertionError("read past the first result")

    assert next(grader.rate(grids(), jobs=1)).rating == "very easy"


def test_rate_keywords_are_grades() -> None:
    r = next(grader.rate([G], jobs=1, se="full", with_solution=True))
    assert r.solution is not None and r.se is not None
    with pytest.raises(ArgumentError, match="se must be one of off, fast, full"):
        grader.rate([G], se="deep")
    with pytest.raises(ArgumentError, match="jobs"):
        grader.rate([G], jobs=-1)


@pytest.mark.parametrize("bad", [G, CAL, grader.read_grid(G), None, 7])
def test_rate_refuses_what_is_not_an_iterable_of_grids(bad: object) -> None:
    with pytest.raises(GridTypeError) as e:
        grader.rate(bad)  # type: ignore[arg-type]
    assert isinstance(e.value, TypeError) and isinstance(e.value, GraderError)


def test_rate_refuses_an_item_that_is_no_grid() -> None:
    with pytest.raises(GridTypeError, match="item 2"):
        list(grader.rate([G, None], jobs=1))  # type: ignore[list-item]


def test_rate_file_with_grids_points_to_rate() -> None:
    for grids in ([G, G], G, [grader.read_grid(G)]):
        with pytest.raises(GridTypeError, match=r"grader\.rate\(grids\)"):
            grader.rate_file(grids)  # type: ignore[arg-type]
    with pytest.raises(grader.formats.InputError, match="no such file"):
        grader.rate_file("no-such-file.txt")


def test_grade_with_a_list_points_to_rate() -> None:
    with pytest.raises(GridTypeError, match=r"for many grids use grader\.rate"):
        grader.grade([G, G])  # type: ignore[arg-type]


def test_a_notebook_grades_a_thousand_grids_in_one_call(tmp_path) -> None:
    """The judged use: 1,000 grids held in a list, the API alone, one call."""
    script = tmp_path / "notebook.py"
    script.write_text(textwrap.dedent(f"""
        import grader
        lines = open({str(CAL)!r}).read().splitlines()
        grids = [ln.split()[0] for ln in lines if ln and not ln.startswith("#")]
        grids = (grids * 100)[:1000]
        if __name__ == "__main__":
            results = list(grader.rate(grids, jobs=2))
            assert [r.index for r in results] == list(range(1, 1001))
            assert all(r.verdict == "ok" for r in results)
            print(len(results))
    """), encoding="utf-8")
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       timeout=600, cwd=ROOT)
    assert p.returncode == 0 and p.stdout.strip() == "1000", p.stderr[-2000:]


def test_explain_has_one_name_for_the_level_limit() -> None:
    """``rules_up_to`` (as ``explain --rules-up-to``); ``max_level`` still works,
    with a DeprecationWarning (``grade``'s ``max_level`` filters results)."""
    kept = grader.explain(G, rules_up_to=2)
    with pytest.warns(DeprecationWarning, match="max_level is deprecated: use rules_up_to"):
        old = grader.explain(G, max_level=2)
    assert [s.summary() for s in old] == [s.summary() for s in kept]
    with pytest.raises(ArgumentError, match="rules_up_to"):
        grader.explain(G, rules_up_to=0)
