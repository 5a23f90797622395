"""XY-Wing (rules/patterns/xy_wing.py), and the table of expert families the
modules of rules/patterns/ declare: read by the walk, and by setup.py to
write the C header; a built accelerator from other declarations is refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from grader.rules.patterns import xy_wing
from test_expert_families import cell, open_board

from grader.core.table import NativeBuildError
from grader.kernel import families_header
from grader.strategy.expert import accel, families
from grader.strategy.expert.hint import Hint, Position
from grader.strategy.plugins import declared_families, pattern_families

pytestmark = pytest.mark.kernel

ROOT = Path(__file__).resolve().parent.parent

def test_the_declarations_are_read_alike_by_setup_and_at_run_time() -> None:
    from_text = families_header.declared(ROOT)
    at_run_time = families_header.ordered(declared_families())
    assert [dict(d) for d in from_text] == [dict(d) for d in at_run_time]
    table = families.table()
    assert [name for name, _, _ in table.families] == [d["name"] for d in from_text]
    assert set(table.consulted) <= {name for name, _, _ in table.families}


def test_the_built_header_is_the_declarations() -> None:
    header = ROOT / "grader" / "kernel" / "_families.h"
    if not header.exists():
        pytest.skip("no generated header (the accelerator was not built here)")
    assert header.read_text(encoding="utf-8") == families_header.header(
        families_header.declared(ROOT))
    if accel._mod is not None:
        assert families_header.signature(families_header.declared(ROOT)) == accel._mod.TABLE


def test_an_accelerator_built_from_other_declarations_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Stale:
        TABLE = "0=XY-Wing:xy_wings(P)"
        __file__ = "_expert.so"

    monkeypatch.setattr(accel, "_mod", Stale)
    with pytest.raises(NativeBuildError, match=r"_expert.so was built from other declarations"
                                                r".*pip install -e \."):
        accel.bind(accel.NAMES, families_header.signature(families_header.declared(ROOT)))


def test_declarations_are_checked() -> None:
    one = {"name": "A", "order": 1, "c": {"index": 0, "run": ["a(P)"], "hints": [["a", "N_A"]]}}
    with pytest.raises(ValueError, match="declared twice"):
        families_header.ordered([one, {**one, "order": 2}])
    with pytest.raises(ValueError, match="C numbers"):
        families_header.ordered([{**one, "c": {**one["c"], "index": 1}}])


def test_xy_wing_is_declared_once() -> None:
    (decl,) = xy_wing.FAMILIES
    assert decl["se"] == {"XY-Wing": 42}
    assert pattern_families()["XY-Wing"] is xy_wing.XyWing
    assert "XY-Wing" in families.table().consulted


def test_xy_wing_hand_made() -> None:
    # pivot R1C1 {1,2}, pincers R1C5 {1,3} and R5C1 {2,3}: 3 leaves R5C5
    board = open_board({cell(1, 1): 0b011, cell(1, 5): 0b101, cell(5, 1): 0b110})
    hints = list(xy_wing.xy_wings(Position(board)))
    assert hints == [Hint("XY-Wing", 42, (), ((cell(5, 5), 3),),
                          (cell(1, 1), cell(1, 5), cell(5, 1)))]
