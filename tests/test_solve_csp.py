"""The CSP engine: AC-3 arc consistency, MRV/LCV backtracking that maintains
arc consistency, its two models and two queue policies, and the trace."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import book_calibration, book_figures
from typer.testing import CliRunner

from grader.cli.main import build_app
from grader.exact import get_engine
from grader.exact.csp import CspEngine
from grader.formats import parse_grid_token
from grader.strategy.grading import Grader

FIG = book_figures()


def test_models_and_queue_policies_agree_and_targeted_revises_less() -> None:
    grids = [FIG[k]["puzzle"] for k in ("fig2.1", "fig4.5", "fig6.2", "fig2.10")]
    for puzzle in grids:
        g = parse_grid_token(puzzle)
        runs = {(m, q): CspEngine(model=m, queue=q).solve(g.geo, g.values, limit=2)
                for m in ("dual", "primal") for q in ("targeted", "textbook")}
        assert len({r.solutions for r in runs.values()}) == 1
        assert all(r.count == 1 for r in runs.values())
        for m in ("dual", "primal"):
            # same arc-consistent domains, so the same search tree
            assert runs[(m, "targeted")].nodes == runs[(m, "textbook")].nodes
            assert (runs[(m, "targeted")].stats["revisions"]
                    < runs[(m, "textbook")].stats["revisions"])


def test_arc_consistency_alone_solves_exactly_the_grids_that_singles_solve() -> None:
    """The dual model's AC-3 performs naked and hidden singles: a book grid needs
    no choice at all exactly when the grader rates it level 1 or 2 (single
    position, single candidate).  The primal model (naked singles only) needs
    choices on some of those."""
    grader = Grader()
    dual = get_engine("csp")
    primal = get_engine("csp", model="primal")
    grids = [d["puzzle"] for d in FIG.values()] + [d["puzzle"] for d in book_calibration()]
    singles = 0
    primal_choices = 0
    for puzzle in grids:
        g = parse_grid_token(puzzle)
        level = grader.grade_grid(g).level
        res = dual.solve(g.geo, g.values, limit=2)
        assert res.count == 1
        assert (res.nodes == 0) == (level <= 2), (puzzle, level, res.nodes)
        if level <= 2:
            singles += 1
            primal_choices += primal.solve(g.geo, g.values, limit=2).nodes
    assert singles >= 8 and primal_choices > 0


def test_hard_grid_needs_choices_and_mac_backtracks() -> None:
    g = parse_grid_token(FIG["fig6.2"]["puzzle"])  # expert
    res = get_engine("csp", model="primal").solve(g.geo, g.values, limit=2)
    assert res.count == 1 and res.nodes > 1
    assert res.stats["backtracks"] >= 1  # the uniqueness check has to fail somewhere


def test_trace_records_the_queue(tmp_path: Path) -> None:
    eng = CspEngine(trace=True)
    g = parse_grid_token(FIG["fig6.2"]["puzzle"])
    res = eng.solve(g.geo, g.values, limit=2)
    tr = eng.last_trace
    assert tr is not None and res.count == 1
    assert len(tr.queue) == res.stats["revisions"]
    assert max(tr.queue) > 1 and tr.queue[-1] >= 1
    assert len(tr.calls) == res.nodes + 1  # the first AC-3, then one per choice
    assert len(tr.failures) == res.stats["backtracks"]


def test_trace_option_writes_a_png(tmp_path: Path) -> None:
    png = tmp_path / "ac3.png"
    res = CliRunner().invoke(build_app(), ["solve", FIG["fig6.2"]["puzzle"], "-e", "csp",
                                           "--trace", str(png)])
    assert res.exit_code == 0, res.output
    assert res.stdout.strip() == FIG["fig6.2"]["solution"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "arc revisions" in res.stderr


def test_trace_needs_the_csp_engine() -> None:
    res = CliRunner().invoke(build_app(), ["solve", FIG["fig6.2"]["puzzle"], "--trace",
                                           "x.png"])
    assert res.exit_code == 2 and "--engine csp" in res.stderr


@pytest.mark.parametrize("model", ["dual", "primal"])
def test_blank_4x4_has_288_solutions(model: str) -> None:
    from grader.core.geometry import geometry_for_size

    geo = geometry_for_size(4)
    res = get_engine("csp", model=model).solve(geo, [0] * 16, limit=1000)
    assert res.count == 288 and res.complete and len(set(res.solutions)) == 288
