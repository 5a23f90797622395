"""``se``, ``ep`` and ``ed`` are Sudoku Explainer's ER, EP and ED (issue 37),
pinned on grids and positions that serate rated (``tests/data/serate-pins.json``,
made by ``tests/data/make_serate_pins.py`` from ``benchmarks/serate_diff.py``'s
cache; no Java here): two grids per hardest technique and ER value (each
family and length increment that the sample met), and at the hardest position
of those whose hardest step is one of Sudoku Explainer's chaining producers
(forcing chains and cycles, Nishio, static cell and region forcing chains),
that producer's easiest hint, alike in C and in Python.
"""

from __future__ import annotations

import json

import pytest
from conftest import DATA

from grader.formats import parse_grid_token
from grader.kernel import PYTHON
from grader.kernel import c as native
from grader.strategy.grading import Grader
from grader.strategy.serate import rate
from grader.strategy.serate.easy import easy_walk
from grader.strategy.serate.grid import candidates_of

PINS = json.loads((DATA / "serate-pins.json").read_text(encoding="utf-8"))
GRIDS = PINS["grids"]
POSITIONS = PINS["positions"]
GRADER = Grader()


def test_the_pins_cover_the_families_and_increments() -> None:
    assert len(GRIDS) >= 40
    values = {g["er"] for g in GRIDS}
    assert {6.2, 6.6, 7.1, 7.5, 8.0, 8.3, 8.5, 9.0} <= values
    names = {g["serate"] for g in GRIDS}
    for family in ("NFC", "LFC", "RFC", "FC", "BiCy", "BiYCy", "VXY", "DCFC", "DRFC", "DLFC"):
        assert any(n.startswith(family) for n in names), family
    assert {p["producer"] for p in POSITIONS} == {"cycles", "nishio", "multiple"}


@pytest.mark.parametrize("pin", GRIDS, ids=[f"{g['serate']}-{g['er']}" for g in GRIDS])
def test_se_ep_ed_are_serates(pin: dict) -> None:
    r = GRADER.grade_grid(parse_grid_token(pin["grid"]))
    assert (r.se, r.ep, r.ed) == (pin["er"], pin["ep"], pin["ed"]), pin["serate"]


@pytest.mark.kernel
@pytest.mark.parametrize("index", [0, 1])
def test_the_pure_python_kernel_gives_the_same_values(index: int) -> None:
    pin = [g for g in GRIDS if 7.5 <= g["er"] < 8.5][index]
    r = Grader(kernel=PYTHON).grade_grid(parse_grid_token(pin["grid"]))
    assert (r.se, r.ep, r.ed) == (pin["er"], pin["ep"], pin["ed"])


@pytest.mark.parametrize("pos", POSITIONS, ids=[f"{p['producer']}-{p['er']}" for p in POSITIONS])
def test_a_producer_rates_the_hardest_position_as_serate(pos: dict) -> None:
    """The producer's easiest hint at the grid's hardest position is serate's
    ER; the C engine and the Python reference give the same hints."""
    py = rate.producer_hints(pos["values"], pos["cands"], pos["producer"], "python")
    assert py and py[0].tenths == round(pos["er"] * 10)
    if native.built() and rate.available("c"):
        c = rate.producer_hints(pos["values"], pos["cands"], pos["producer"], "c")
        assert c == py


def test_ep_and_ed_of_the_loop_below_4() -> None:
    """ED is the first step, EP the largest step up to the first placement:
    a grid whose first step is a hidden single in a block has both 1.2."""
    values = [int(ch) for ch in GRIDS[0]["grid"]]
    _, _, _, diamond, pearl = easy_walk(list(values), candidates_of(values))
    assert (diamond, pearl) == (12, 12)
    if rate.available("c"):
        run = rate.easy_run(values, None, "c")
        assert (run.diamond, run.pearl) == (diamond, pearl)


def test_ep_waits_for_the_first_placement() -> None:
    """Grids whose first placement needs more than their first step (EP above
    ED, pinned from serate; the rating loop below 4.0 alone, C and Python)."""
    pins = [g for g in GRIDS if g["ep"] > g["ed"]]
    assert len(pins) >= 3
    for pin in pins:
        values = [int(ch) for ch in pin["grid"]]
        _, _, _, diamond, pearl = easy_walk(list(values), candidates_of(values))
        if pin["ep"] < 4.0:
            assert (pearl, diamond) == (round(pin["ep"] * 10), round(pin["ed"] * 10))
        if rate.available("c"):
            run = rate.easy_run(values, None, "c")
            assert (run.diamond, run.pearl) == (diamond, pearl)
