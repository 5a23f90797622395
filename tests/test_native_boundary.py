"""The boundary with C: typed rule descriptions checked against what the C
module knows, no silent fallback when the kernels disagree, and the C work
counters safe while the GIL is released."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from grader.core import table as nativerule
from grader.core.board import Board
from grader.core.rule import Rule, RuleContext
from grader.formats import parse_grid_token
from grader.kernel import PYTHON, PythonKernel, c_kernel
from grader.kernel import c as native
from grader.kernel.c import Family, NativeBuildError, NativeRule, NativeRuleError
from grader.strategy.engine import Engine
from grader.strategy.hierarchy import RuleSpec
from grader.strategy.propagate import KernelDisagreement, next_step_of
from grader.rules.fish import Fish

pytestmark = pytest.mark.kernel

GRID = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"
needs_c = pytest.mark.skipif(not native.built(), reason="the C accelerator is not built")


# -- typed descriptions ---------------------------------------------------------
def test_a_description_names_its_family_and_parameters() -> None:
    d = NativeRule.of("naked-subset", max_size=3, min_size=2)
    assert d.family is Family.NAKED_SUBSET
    assert d.params == (("min_size", 2), ("max_size", 3))  # in the order C reads them
    assert d.encode() == (3, 2, 3)
    assert NativeRule.of(Family.FISH, size=2).encode() == (5, 2, 0)
    assert NativeRule.of(Family.REDUCTIO, depth=2, max_alternatives=3).is_trial


@pytest.mark.parametrize(("family", "params", "message"), [
    ("fish", {"size": 2, "colour": 1}, "does not know the parameter 'colour' of the rule family "
                                       "'fish' (it knows: size)"),
    ("fish", {}, "needs the parameter 'size'"),
    ("fish", {"size": 40}, "fish size=40: the C accelerator takes 1 to 35"),
    ("naked-subset", {"min_size": 2, "max_size": "3"}, "max_size='3'"),
    ("swordfish-2000", {}, "has no rule family 'swordfish-2000'"),
])
def test_a_description_the_c_side_does_not_know_is_refused(family: str, params: dict,
                                                           message: str) -> None:
    with pytest.raises(NativeRuleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        NativeRule.of(family, **params)


def test_the_old_tuples_still_read_and_are_checked() -> None:
    assert native.describe((0, 1, 0)) == NativeRule.of("singles", kind=1)
    assert native.describe(("disj", 2, 2)) == NativeRule.of("disjunction", depth=2,
                                                             max_alternatives=2)
    with pytest.raises(NativeRuleError, match="no rule family 17"):
        native.describe((17, 0, 0))


class OddFish(Fish):
    """A rule of this module (its own find and native) asking C for a
    parameter C does not have."""

    def native(self) -> NativeRule:
        return NativeRule.of("fish", size=self.size, finned=1)

    def find(self, board: Board):  # type: ignore[no-untyped-def]
        yield from ()


def test_a_rule_asking_for_an_unknown_parameter_fails_loudly_with_its_name() -> None:
    rule = OddFish(RuleSpec(code="odd-fish", level=9, plugin="fish", params={"size": 2}),
                   RuleContext())
    with pytest.raises(NativeRuleError, match="rule 'odd-fish'.*'finned'"):
        rule.accelerated()


def test_a_c_module_with_another_table_is_refused_at_import() -> None:
    real = {f.value: (nativerule._CODES[f], native.PARAMS[f]) for f in Family}
    native.check_tables(SimpleNamespace(FAMILIES=real, __file__="x.so"))
    older = dict(real)
    del older["reductio"]
    with pytest.raises(NativeBuildError, match="disagree on the rule families reductio"):
        native.check_tables(SimpleNamespace(FAMILIES=older, __file__="x.so"))
    renumbered = dict(real, fish=(9, real["fish"][1]))
    with pytest.raises(NativeBuildError, match="fish"):
        native.check_tables(SimpleNamespace(FAMILIES=renumbered, __file__="x.so"))
    with pytest.raises(NativeBuildError, match="rebuild it"):
        native.check_tables(SimpleNamespace(__file__="old.so"))


@needs_c
def test_the_built_module_exports_the_table_and_refuses_unknown_families() -> None:
    native.check_tables(native._native)
    board = parse_grid_token(GRID).board()
    with pytest.raises(ValueError, match="unknown rule family 42"):
        native.c_first_progress(board, [(42, 0, 0)])


# -- no silent fallback -----------------------------------------------------------
class LyingKernel(PythonKernel):
    """Says the rule at position ``first`` makes progress, whatever the position."""

    def __init__(self, first: int) -> None:
        self.first = first

    def probe(self, board: Board, rules: tuple[Rule, ...]) -> tuple[list[int], int] | None:
        return list(range(len(rules))), self.first


def test_when_the_kernel_and_a_rule_disagree_it_is_an_error_not_a_fallback() -> None:
    engine = Engine(kernel=LyingKernel(2))
    rules = engine.rules(1)
    grid = parse_grid_token(GRID)
    board = grid.board()
    board.values[:] = PYTHON.solve(grid.geo, grid.values).solution  # nothing left to find
    board.cands[:] = [0] * 81
    with pytest.raises(KernelDisagreement, match=f"says rule {rules[3].code!r} makes progress"):
        next_step_of(board, rules)
    # a kernel that says "none of mine" lets the others be tried, and nothing is found
    assert next_step_of(board, Engine(kernel=LyingKernel(-1)).rules(1)) is None


# -- counters ---------------------------------------------------------------------
@needs_c
def test_the_work_counters_count_every_call_of_every_thread() -> None:
    """Closures without trials count one fixpoint each; eight threads run
    them at once with the GIL released and none is lost."""
    engine = Engine(kernel=c_kernel())
    plain = tuple(r for r in engine.rules(1) if r.kind != "trial")
    prog = native.compile_program(plain)
    assert prog is not None and prog.depth == 0
    board = parse_grid_token(GRID).board()
    calls, threads = 300, 8
    before = native.stats()

    def work() -> None:
        for _ in range(calls):
            prog.closure(board.copy())

    pool = [threading.Thread(target=work) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    after = native.stats()
    assert after["fix"] - before["fix"] == calls * threads
    assert after["closure0"] - before["closure0"] == calls * threads


# -- without the extension, CI fails instead of skipping --------------------------
@pytest.mark.parametrize(("env", "outcome"), [
    ({"CI": "true"}, pytest.fail.Exception),
    ({"SUDOKU_GRADER_REQUIRE_NATIVE": "1"}, pytest.fail.Exception),
    ({}, pytest.skip.Exception),
])
def test_a_missing_extension_fails_in_ci_and_skips_elsewhere(
        monkeypatch: pytest.MonkeyPatch, env: dict[str, str], outcome: type) -> None:
    from conftest import c_kernel_or_skip

    for name in ("CI", "SUDOKU_GRADER_REQUIRE_NATIVE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(native, "_native", None)
    with pytest.raises(outcome, match="not built"):
        c_kernel_or_skip()
