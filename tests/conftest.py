"""Shared fixtures and helpers for the test suite.

* ``slow`` marker: tests that take seconds; deselected unless ``--runslow``
  (a skip means something is missing from the environment).
* Helpers to build candidate states (pencil marks) at any size, to name
  cells in the book's 1-based notation, and to run the CLI in-process.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from grader.core.board import Board
from grader.core.geometry import Geometry, geometry
from grader.core.rule import Rule
from grader.core.steps import Step
from grader.strategy.hierarchy import default_hierarchy
from grader.strategy.plugins import rule_class

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
PUZZLES = ROOT / "puzzles"


# -- time limits that scale to the machine ------------------------------------
def machine_slowness() -> float:
    """How much longer than on an idle machine of 4 CPUs or more a test may
    take here: ``SUDOKU_GRADER_TEST_TIME_SCALE`` when set, else from the CPUs
    this process may use (2 or fewer: twice as long) and the load average
    now (a load of 8 on 2 CPUs: 4 times as long); between 1 and 10."""
    raw = os.environ.get("SUDOKU_GRADER_TEST_TIME_SCALE", "").strip()
    try:
        if raw:
            return min(100.0, max(1.0, float(raw)))
    except ValueError:
        pass
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # pragma: no cover - no load average
        load = 0.0
    factor = max(1.0, load / max(1, cpus)) * (2.0 if cpus <= 2 else 1.0)
    return min(10.0, factor)


def scaled(seconds: float) -> float:
    """A test's time limit (how long a command may run, how long to wait for a
    worker) on this machine: ``seconds`` times :func:`machine_slowness`, read
    when the limit is set.  For limits that guard against a hang, never for
    a duration that is what the test checks."""
    return seconds * machine_slowness()


# -- the slow marker ----------------------------------------------------------
def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run the tests marked slow")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes seconds; deselected unless --runslow")
    # property-based tests (hypothesis): a few dozen examples each by default, many
    # more with --runslow; no example database written into the project
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:  # pragma: no cover - hypothesis is in the test extra
        return
    common = {"deadline": None, "database": None,
              "suppress_health_check": [HealthCheck.too_slow]}
    settings.register_profile("default-run", max_examples=40, **common)
    settings.register_profile("runslow", max_examples=600, **common)
    settings.load_profile("runslow" if config.getoption("--runslow") else "default-run")


#: The fast set CI runs a second time with the pure-Python kernel
#: (``SUDOKU_GRADER_PURE=1 python -m pytest -m kernel``, see the README's
#: Testing section): the kernel comparisons and boundary tests (marked
#: ``kernel`` in their modules) and these modules, which grade with the
#: default kernel.  Keep its cost near a minute.
PURE_LEG_MODULES = frozenset({
    "test_rules_engine.py", "test_rules_singles.py", "test_rules_lines.py",
    "test_rules_subsets.py", "test_rules_fish.py", "test_rules_reference.py",
    "test_verdicts.py", "test_plugins.py",
})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in PURE_LEG_MODULES:
            item.add_marker(pytest.mark.kernel)
    if config.getoption("--runslow"):
        return
    # deselected, not skipped: a skip says that something is missing from the
    # environment (a browser, the C accelerator, ...), never "not asked for"
    slow = [item for item in items if "slow" in item.keywords]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if "slow" not in item.keywords]


# -- the C kernel -------------------------------------------------------------
def native_required() -> bool:
    """CI (``CI=true``) and ``SUDOKU_GRADER_REQUIRE_NATIVE=1`` require the C
    accelerator: the tests that need it fail without it instead of skipping."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes") or os.environ.get(
        "SUDOKU_GRADER_REQUIRE_NATIVE", "") not in ("", "0")


def c_kernel_or_skip():
    """The C kernel; skips the calling test without the extension, fails it
    when :func:`native_required`."""
    from grader.kernel import c as native
    from grader.kernel import c_kernel

    if native.built():
        return c_kernel()
    if native_required():
        pytest.fail("the C accelerator grader.kernel._native is not built, and CI (or "
                    "SUDOKU_GRADER_REQUIRE_NATIVE=1) requires it: build it with `pip install -e .`")
    pytest.skip("the C accelerator is not built")


@pytest.fixture(scope="session")
def c_kernel_required():
    """The C kernel (see :func:`c_kernel_or_skip`)."""
    return c_kernel_or_skip()


# -- data ---------------------------------------------------------------------
def load_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def book_figures() -> dict[str, dict]:
    return {d["name"]: d for d in load_jsonl(PUZZLES / "book-figures.jsonl")}


def book_calibration() -> list[dict]:
    return load_jsonl(PUZZLES / "book-calibration.jsonl")


# -- cells and boards ---------------------------------------------------------
def cell(geo: Geometry, r: int, c: int) -> int:
    """Cell index of the book's (r, c), 1-based."""
    return (r - 1) * geo.n + (c - 1)


def rc(geo: Geometry, index: int) -> tuple[int, int]:
    """The book's (r, c), 1-based, of a cell index."""
    return geo.cell_row[index] + 1, geo.cell_col[index] + 1


def mask(*values: int) -> int:
    m = 0
    for v in values:
        m |= 1 << (v - 1)
    return m


def marks(geo: Geometry, spec: Mapping[tuple[int, int], Iterable[int]],
          values: Mapping[tuple[int, int], int] | None = None,
          default: Iterable[int] | None = None) -> Board:
    """A candidate state: every cell of ``spec`` ((r, c) 1-based -> values)
    gets exactly those candidates, every other empty cell ``default`` (all
    values when None), and ``values`` are placed cells.  Nothing is
    propagated: the state is exactly what the test says."""
    full = geo.full if default is None else mask(*default)
    cands = [full] * geo.ncells
    vals = [0] * geo.ncells
    for (r, c), vs in spec.items():
        cands[cell(geo, r, c)] = mask(*vs)
    for (r, c), v in (values or {}).items():
        vals[cell(geo, r, c)] = v
    return Board.from_candidates(geo, cands, vals)


def without(geo: Geometry, value: int, cells: Iterable[tuple[int, int]],
            board: Board | None = None) -> Board:
    """``board`` (default: everything possible) with ``value`` removed from ``cells``."""
    b = board.copy() if board is not None else marks(geo, {})
    for r, c in cells:
        b.eliminate(cell(geo, r, c), value)
    return b


def snapshot(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(board.values), tuple(board.cands)


def make_rule(code: str, **params: object) -> Rule:
    """The rule of the default hierarchy with this code (its level and
    parameters), optionally with other parameters."""
    spec = default_hierarchy().spec(code)
    if params:
        spec = spec.model_copy(update={"params": {**spec.params, **params}})
    return rule_class(spec.plugin)(spec)


def find_all(rule: Rule, board: Board) -> list[Step]:
    """Every step ``rule`` finds, checking that finding leaves the board alone
    and is deterministic."""
    before = snapshot(board)
    steps = list(rule.find(board))
    assert snapshot(board) == before, f"{rule!r}.find mutated the board"
    again = list(rule.find(board))
    assert again == steps, f"{rule!r}.find is not deterministic"
    return steps


def effects(step: Step, geo: Geometry) -> tuple[list, list]:
    """Placements and eliminations as sorted ((r, c), v) lists."""
    pl = sorted((rc(geo, c), v) for c, v in step.placements)
    el = sorted((rc(geo, c), v) for c, v in step.eliminations)
    return pl, el


def cells_rc(geo: Geometry, cells: Iterable[int]) -> list[tuple[int, int]]:
    return sorted(rc(geo, c) for c in cells)


G9 = geometry(3, 3)
G4 = geometry(2, 2)
G6 = geometry(2, 3)
G6T = geometry(3, 2)
G16 = geometry(4, 4)


@pytest.fixture(scope="session")
def figures() -> dict[str, dict]:
    return book_figures()


@pytest.fixture(scope="session")
def calibration() -> list[dict]:
    return book_calibration()


# --- bulk rating: one small collection graded serially, shared by the bulk tests


@pytest.fixture(scope="session")
def medium60(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 60 grids of the bundled medium sample, as a file."""
    from bulk_helpers import PUZZLES, first_grids
    return first_grids(PUZZLES / "se-medium-500.txt", 60,
                       tmp_path_factory.mktemp("bulk") / "medium60.txt")


@pytest.fixture(scope="session")
def serial60(medium60: Path) -> list[dict]:
    """`grade -j 1` of medium60, the reference for parallel and resumed runs."""
    from bulk_helpers import jsonl, run_grade
    p = run_grade(medium60, output_format="jsonl", jobs=1)
    assert p.returncode == 0, p.stderr
    return jsonl(p.stdout)


#: A hierarchy of the singles and reductio only, trials propagating with the
#: singles, nested to ``{depth}`` (``SMALL_HIERARCHY.format(depth=2)``).
SMALL_HIERARCHY = """\
name = "singles and reductio"
[trials]
propagation = "singles"
max_depth = {depth}
[[rules]]
level = 1
code = "single-position"
[[rules]]
level = 2
code = "single-candidate"
[[rules]]
level = 14
code = "reductio"
[[ratings]]
name = "very easy"
levels = [1]
[[ratings]]
name = "easy"
levels = [2]
[[ratings]]
name = "expert"
levels = [14]
"""
