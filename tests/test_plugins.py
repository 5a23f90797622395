"""Rules are plugins of the ``sudoku_grader.rules`` entry-point group: a test
simulates a third-party package (a ``*.dist-info`` directory with METADATA and
entry_points.txt, and its module) on sys.path, places its rule with a
hierarchy that extends the default, and checks the engine uses it."""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import G9, book_calibration, book_figures, cell, marks
from typer.testing import CliRunner

from grader import Engine, Grader, load_hierarchy, parse_grid_token
from grader.cli.main import build_app
from grader.strategy.engine import SoundnessError
from grader.strategy.plugins import GROUP, PluginError, plugins, rule_class

MODULE = '''
"""A third-party rule package: XY-Wing, and a deliberately unsound rule."""
from grader import Rule, Pattern


class XYWing(Rule):
    """Pivot {x, y}; pincers {x, z} and {y, z} that see the pivot: z leaves
    every cell that sees both pincers."""

    family = "test-xy-wing"
    default_name = "XY-Wing"
    default_reference = "not in the book"

    def find(self, board):
        geo, vals, cands = board.geo, board.values, board.cands
        for p in range(geo.ncells):
            m = cands[p]
            if vals[p] or m.bit_count() != 2:
                continue
            two = [q for q in geo.peers[p] if cands[q].bit_count() == 2
                   and (cands[q] & m).bit_count() == 1]
            for i, a in enumerate(two):
                for b in two[i + 1:]:
                    za, zb = cands[a] & ~m, cands[b] & ~m
                    if za != zb or (cands[a] & m) == (cands[b] & m):
                        continue
                    both = sorted(geo.peer_sets[a] & geo.peer_sets[b])
                    elim = [(c, za.bit_length()) for c in both if c != p and cands[c] & za]
                    if elim:
                        yield self.make(board, eliminations=elim, pattern=Pattern(
                            cells=((p, "pivot"), (a, "pincer"), (b, "pincer")),
                            values=(za.bit_length(),)))

    @staticmethod
    def summarize(step):
        geo = step.geo
        p, a, b = (c for c, _ in step.pattern.cells)
        return (f"pivot {geo.cell_name(p)} with pincers {geo.cell_name(a)} and "
                f"{geo.cell_name(b)}")


class Liar(Rule):
    """Unsound on purpose: removes the largest candidate of the first cell with two or more."""

    family = "test-liar"

    def find(self, board):
        for c, m in enumerate(board.cands):
            if m.bit_count() >= 2:
                yield self.make(board, eliminations=((c, m.bit_length()),))
                return
'''

METADATA = "Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n"


def install_fake_distribution(site: Path, name: str, module: str, source: str,
                              entry_points: dict[str, str]) -> None:
    """What pip would leave in site-packages: the module and its dist-info."""
    (site / f"{module}.py").write_text(textwrap.dedent(source))
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(METADATA.format(name=name))
    eps = "\n".join(f"{k} = {v}" for k, v in entry_points.items())
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{eps}\n")
    (info / "RECORD").write_text(f"{module}.py,,\n")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh site directory on sys.path; plugin discovery is refreshed on
    entry and on exit, so nothing leaks into other tests."""
    d = tmp_path / "site"
    d.mkdir()
    monkeypatch.syspath_prepend(str(d))
    importlib.invalidate_caches()
    yield d
    monkeypatch.undo()
    for mod in [m for m in sys.modules if m.startswith("fake_sudoku_")]:
        del sys.modules[mod]
    importlib.invalidate_caches()
    plugins(refresh=True)


@pytest.fixture
def xy_site(site: Path) -> Path:
    install_fake_distribution(site, "fake-sudoku-wings", "fake_sudoku_wings", MODULE,
                              {"xy-wing": "fake_sudoku_wings:XYWing",
                               "liar": "fake_sudoku_wings:Liar"})
    plugins(refresh=True)
    return site


def write_hierarchy(tmp_path: Path, body: str, name: str = "h.toml") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(body))
    return p


def test_builtin_rules_come_from_the_entry_point_group() -> None:
    found = plugins(refresh=True)
    assert {"single-position", "single-candidate", "candidate-lines", "multiple-lines",
            "naked-subset", "hidden-subset", "fish", "disjunctive-construction",
            "reductio"} <= set(found)
    assert found["fish"].__module__ == "grader.rules.fish"


def test_a_third_party_rule_is_discovered(xy_site: Path) -> None:
    cls = rule_class("fake-sudoku-wings:xy-wing")
    assert cls.__name__ == "XYWing" and cls.__module__ == "fake_sudoku_wings"


def test_the_engine_uses_a_third_party_rule_placed_by_a_hierarchy(
        xy_site: Path, tmp_path: Path) -> None:
    h = load_hierarchy(write_hierarchy(tmp_path, """
        extends = "default"
        [[rules]]
        code = "xy-wing"
        plugin = "fake-sudoku-wings:xy-wing"  # examples/xywing has one too
        name = "XY-Wing"
        level = 9
    """))
    assert [r.code for r in h.ordered() if r.level == 9] == ["x-wing", "xy-wing"]
    engine = Engine(h)
    # X {1,2} pivot, Y {1,3} and Z {2,3} pincers: 3 leaves W (5, 5), which sees both
    board = marks(G9, {(1, 1): [1, 2], (1, 5): [1, 3], (5, 1): [2, 3], (5, 5): [3, 4]})
    step = engine.next_step(board)
    assert step is not None
    assert (step.rule, step.name, step.level) == ("xy-wing", "XY-Wing", 9)
    assert step.eliminations == ((cell(G9, 5, 5), 3),)
    assert step.summary() == ("XY-Wing: pivot (1, 1) with pincers (1, 5) and (5, 1) "
                              "=> (5, 5) != 3")
    # without the plugin the same position needs a trial (level 13)
    default_step = Engine().next_step(board)
    assert default_step is not None and default_step.level == 13


def test_a_third_party_rule_changes_a_grade_and_is_checked_sound(
        xy_site: Path, tmp_path: Path) -> None:
    """Calibration grid 121 (expert, level 13) needs only level 9 once the
    XY-Wing sits at level 9; every step is checked against the solution."""
    h = load_hierarchy(write_hierarchy(tmp_path, """
        extends = "default"
        [[rules]]
        code = "xy-wing"
        plugin = "fake-sudoku-wings:xy-wing"  # examples/xywing has one too
        level = 9
    """))
    (item,) = [d for d in book_calibration() if d["id"] == 121]
    assert Grader().grade_grid(parse_grid_token(item["puzzle"])).level == 13
    r = Grader(h, check=True).grade_grid(parse_grid_token(item["puzzle"]))
    assert (r.verdict, r.level, r.rating) == ("ok", 9, "very difficult")
    assert r.techniques["xy-wing"] >= 1 and r.solution == item["solution"]


def test_an_unsound_plugin_is_caught_by_the_check(xy_site: Path, tmp_path: Path) -> None:
    h = load_hierarchy(write_hierarchy(tmp_path, """
        extends = "default"
        [[rules]]
        code = "liar"
        level = 1
    """))
    with pytest.raises(SoundnessError, match="eliminates the true value"):
        Grader(h, check=True).grade_grid(parse_grid_token(book_figures()["fig2.4"]["puzzle"]))


def test_the_cli_uses_a_plugin_from_a_hierarchy(xy_site: Path, tmp_path: Path) -> None:
    f = write_hierarchy(tmp_path, """
        extends = "default"
        [[rules]]
        code = "xy-wing"
        plugin = "fake-sudoku-wings:xy-wing"  # examples/xywing has one too
        level = 9
    """)
    res = CliRunner().invoke(build_app(), ["grade", book_figures()["fig6.2"]["puzzle"],
                                           "--hierarchy", str(f), "-f", "jsonl"])
    assert res.exit_code == 0, res.output
    assert '"verdict": "ok"' in res.stdout


def test_an_entry_point_that_is_not_a_rule(site: Path, tmp_path: Path) -> None:
    install_fake_distribution(site, "fake-sudoku-bad", "fake_sudoku_bad",
                              "class NotARule:\n    pass\n",
                              {"not-a-rule": "fake_sudoku_bad:NotARule"})
    with pytest.raises(PluginError, match="not-a-rule.*not a Rule subclass"):
        rule_class("not-a-rule")


def test_a_broken_plugin_does_not_hide_the_others(site: Path) -> None:
    """Regression: discovery raised on the first plugin that failed to load,
    so one broken package stopped even the default hierarchy."""
    install_fake_distribution(site, "fake-sudoku-broken", "fake_sudoku_broken",
                              "raise ImportError('this plugin is broken')\n",
                              {"broken": "fake_sudoku_broken:Rule"})
    table = plugins(refresh=True)  # what a fresh process sees
    assert "broken" not in table and "single-position" in table
    with pytest.raises(PluginError, match="'broken'.*failed to load: this plugin is broken"):
        rule_class("broken")
    r = Grader().grade_grid(parse_grid_token(book_figures()["fig2.1"]["puzzle"]))
    assert r.level == 1


def test_a_broken_plugin_that_is_used_gives_a_clear_cli_error(site: Path,
                                                              tmp_path: Path) -> None:
    install_fake_distribution(site, "fake-sudoku-broken", "fake_sudoku_broken",
                              "raise ImportError('this plugin is broken')\n",
                              {"broken": "fake_sudoku_broken:Rule"})
    f = write_hierarchy(tmp_path, """
        extends = "default"
        [[rules]]
        code = "broken-rule"
        level = 9
        plugin = "broken"
    """)
    res = CliRunner().invoke(build_app(), ["grade", book_figures()["fig2.1"]["puzzle"],
                                           "--hierarchy", str(f)])
    assert res.exit_code == 2
    assert "broken" in res.stderr and "Traceback" not in res.stderr


# -- issue 14: plugins as first-class rules ------------------------------------

PLUGIN_FAULTS = '''
from grader import Rule, Pattern
from grader.rules.subsets import NakedSubset


class Crashing(Rule):
    family = "test-crash"

    def find(self, board):
        raise ZeroDivisionError("division by zero in my rule")
        yield


class WrongType(Rule):
    family = "test-wrong"

    def find(self, board):
        return [(0, 1)]


class MyPairs(NakedSubset):
    """Subclasses a built-in rule and overrides find: it must not inherit the
    built-in's C description."""

    family = "test-my-pairs"

    def find(self, board):
        yield from super().find(board)
'''

HIJACK = '''
from grader import Rule


class Hijack(Rule):
    family = "single-position"

    @staticmethod
    def summarize(step):
        return "HIJACKED TEMPLATE"
'''


@pytest.fixture
def fault_site(site: Path) -> Path:
    install_fake_distribution(site, "fake-sudoku-faults", "fake_sudoku_faults", PLUGIN_FAULTS,
                              {"crashing": "fake_sudoku_faults:Crashing",
                               "wrong-type": "fake_sudoku_faults:WrongType",
                               "my-pairs": "fake_sudoku_faults:MyPairs"})
    plugins(refresh=True)
    return site


def test_a_rule_inserted_after_another_shifts_levels_and_bands(tmp_path: Path) -> None:
    h = load_hierarchy(write_hierarchy(tmp_path, """
        extends = "default"
        [[rules]]
        code = "my-wing"
        plugin = "single-candidate"
        after = "swordfish"
    """))
    levels = {r.code: r.level for r in h.rules}
    assert (levels["swordfish"], levels["my-wing"], levels["disjunctive-construction"],
            levels["reductio-ad-absurdum"]) == (12, 13, 14, 15)
    assert levels["x-wing"] == 9
    assert [b.levels for b in h.ratings if b.name in ("very difficult", "expert")] == [
        [9, 10, 11, 12, 13], [14, 15]]


def test_a_rule_inserted_before_another_takes_its_level(tmp_path: Path) -> None:
    h = load_hierarchy(write_hierarchy(tmp_path, """
        extends = "default"
        [[rules]]
        code = "early"
        plugin = "single-candidate"
        before = "x-wing"
        rating = "difficult"
    """))
    levels = {r.code: r.level for r in h.rules}
    assert (levels["hidden-triple"], levels["early"], levels["x-wing"]) == (8, 9, 10)
    assert h.rating(9) == "difficult" and h.rating(10) == "very difficult"
    assert h.max_level == 15


@pytest.mark.parametrize("row, message", [
    ('after = "nothing"', "no rule 'nothing' to place it next to"),
    ('after = "x-wing"\nbefore = "swordfish"', "give one of after"),
    ('after = "x-wing"\nlevel = 3', "leave level out"),
    ('after = "x-wing"\nrating = "impossible"', "no rating 'impossible'"),
])
def test_bad_insertions_are_named(tmp_path: Path, row: str, message: str) -> None:
    from grader.strategy.hierarchy import HierarchyError

    f = write_hierarchy(tmp_path, 'extends = "default"\n[[rules]]\ncode = "w"\n'
                        'plugin = "single-candidate"\n' + row + "\n")
    with pytest.raises(HierarchyError, match=message):
        load_hierarchy(f)


def test_a_plugin_cannot_take_over_a_builtin_sentence(site: Path) -> None:
    """A plugin that names a built-in family loads, and changes nothing of
    the built-in's steps: a step speaks with the words of its own rule."""
    install_fake_distribution(site, "fake-sudoku-hijack", "fake_sudoku_hijack", HIJACK,
                              {"hijack": "fake_sudoku_hijack:Hijack"})
    plugins(refresh=True)
    hijack = rule_class("hijack")
    assert hijack.family == "single-position"
    r = Grader().grade_grid(parse_grid_token(book_figures()["fig2.1"]["puzzle"]))
    assert r.level == 1
    from grader.api import explain

    steps = explain(book_figures()["fig2.1"]["puzzle"])
    assert "HIJACKED" not in steps[0].summary()
    assert steps[0].summary().startswith("single position: in ")


def test_a_subclass_overriding_find_does_not_inherit_the_accelerator(
        fault_site: Path) -> None:
    from grader.strategy.hierarchy import RuleSpec

    mine = rule_class("my-pairs")(RuleSpec(code="my-pairs", level=5,
                                           params={"min_size": 2, "max_size": 2}))
    builtin = rule_class("naked-subset")(RuleSpec(code="naked-pair", level=5,
                                                  params={"min_size": 2, "max_size": 2}))
    assert builtin.accelerated() is not None
    assert mine.native() is not None and mine.accelerated() is None


def _crash_hierarchy(tmp_path: Path, plugin: str) -> Path:
    return write_hierarchy(tmp_path, f"""
        extends = "default"
        [[rules]]
        code = "{plugin}"
        before = "single-position"
        rating = "very easy"
    """)


def test_a_crashing_rule_gives_a_rule_error_verdict_naming_it(
        fault_site: Path, tmp_path: Path) -> None:
    f = _crash_hierarchy(tmp_path, "crashing")
    puzzle = book_figures()["fig2.1"]["puzzle"]
    res = CliRunner().invoke(build_app(), ["grade", puzzle, puzzle, "--hierarchy", str(f),
                                           "-f", "jsonl", "-j", "1"])
    assert res.exit_code == 1, res.output
    lines = [ln for ln in res.stdout.splitlines() if ln.startswith("{")]
    assert len(lines) == 2
    for ln in lines:
        assert '"verdict": "rule-error"' in ln
        assert ("rule 'crashing' (package fake-sudoku-faults) failed in find(): "
                "ZeroDivisionError: division by zero in my rule") in ln
    strict = CliRunner().invoke(build_app(), ["grade", puzzle, puzzle, "--hierarchy", str(f),
                                              "-f", "jsonl", "-j", "1", "--strict"])
    assert strict.exit_code == 2
    assert "--strict stops at the first rule error" in strict.stderr


def test_explain_reports_a_rule_error_in_one_line(fault_site: Path, tmp_path: Path) -> None:
    f = _crash_hierarchy(tmp_path, "crashing")
    res = CliRunner().invoke(build_app(), ["explain", book_figures()["fig2.1"]["puzzle"],
                                           "--hierarchy", str(f)])
    assert res.exit_code == 1
    assert "Traceback" not in res.output
    (line,) = res.stderr.strip().splitlines()
    assert "rule 'crashing' (package fake-sudoku-faults)" in line


def test_a_find_returning_the_wrong_type_is_named(fault_site: Path, tmp_path: Path) -> None:
    from grader.core.rule import RuleError

    h = load_hierarchy(_crash_hierarchy(tmp_path, "wrong-type"))
    with pytest.raises(RuleError, match=r"'wrong-type'.*yielded a tuple \(\(0, 1\)\), not a Step"):
        Grader(h).grade_grid(parse_grid_token(book_figures()["fig2.1"]["puzzle"]))


def test_the_rules_command_lists_levels_packages_and_broken_plugins(
        xy_site: Path, tmp_path: Path) -> None:
    install_fake_distribution(xy_site, "fake-sudoku-broken", "fake_sudoku_broken",
                              "raise ImportError('this plugin is broken')\n",
                              {"broken": "fake_sudoku_broken:Rule"})
    f = write_hierarchy(tmp_path, """
        extends = "default"
        [[rules]]
        code = "xy-wing"
        plugin = "fake-sudoku-wings:xy-wing"  # examples/xywing has one too
        after = "swordfish"
    """)
    res = CliRunner().invoke(build_app(), ["rules", "--hierarchy", str(f), "-f", "json"])
    assert res.exit_code == 0, res.output
    import json

    rows = [json.loads(ln) for ln in res.stdout.splitlines()]
    by_code = {r["code"]: r for r in rows if r["code"]}
    assert (by_code["xy-wing"]["level"], by_code["xy-wing"]["package"],
            by_code["xy-wing"]["version"]) == (13, "fake-sudoku-wings", "1.0")
    assert by_code["reductio-ad-absurdum"]["level"] == 15
    assert by_code["single-position"]["package"] == "sudoku-grader"
    assert by_code["single-position"]["accelerated"] is True
    assert by_code["xy-wing"]["accelerated"] is False
    broken = [r for r in rows if r["plugin"] == "broken"]
    assert broken and "this plugin is broken" in broken[0]["error"]
    listed = CliRunner().invoke(build_app(), ["grade", "--list-rules", "--hierarchy", str(f)])
    assert listed.exit_code == 0 and "xy-wing" in listed.stdout


def test_a_plugins_roles_get_a_legend(tmp_path: Path, site: Path) -> None:
    source = MODULE.replace('family = "test-xy-wing"', 'family = "test-xy-wing"\n    roles = '
                            '{"pincer": ("pincer of the wing", "#ffd8a8")}')
    install_fake_distribution(site, "fake-sudoku-roles", "fake_sudoku_roles", source,
                              {"xy-wing": "fake_sudoku_roles:XYWing"})
    plugins(refresh=True)
    wing = rule_class("fake-sudoku-roles:xy-wing")
    from grader.core.roles import cell_style
    from grader.explainer.html import _legend

    assert cell_style("pincer", wing).label == "pincer of the wing"
    h = load_hierarchy(write_hierarchy(tmp_path, """
        extends = "default"
        [[rules]]
        code = "xy-wing"
        plugin = "fake-sudoku-roles:xy-wing"  # examples/xywing has one too
        level = 9
    """))
    board = marks(G9, {(1, 1): [1, 2], (1, 5): [1, 3], (5, 1): [2, 3], (5, 5): [3, 4]})
    step = Engine(h).next_step(board)
    assert step is not None and step.rule == "xy-wing"
    legend = _legend(step)
    assert "pincer of the wing" in legend and "#ffd8a8" in legend
    assert "pivot of the trial" in legend


def test_the_accelerator_calls_python_rules_back_inside_trials(
        xy_site: Path, tmp_path: Path) -> None:
    """No accelerator cliff: with a Python rule below the trials, the C code
    still runs the trials and calls the rule back at its turn; grades are the
    same as in pure Python."""
    from grader.kernel import c as native
    from grader.testing import assert_kernels_agree

    h = load_hierarchy(write_hierarchy(tmp_path, """
        extends = "default"
        [[rules]]
        code = "xy-wing"
        plugin = "fake-sudoku-wings:xy-wing"  # examples/xywing has one too
        after = "swordfish"
    """))
    engine = Engine(h)
    trial = next(r for r in engine.rules(1) if r.code == "disjunctive-construction")
    prog = native.program(trial.context.propagation)
    if native.available():
        assert prog is not None and len(prog.callbacks) == 1
        assert prog.callbacks[0].rule.code == "xy-wing"
    grids = [d["puzzle"] for d in book_calibration() if d["rating"] == "expert"][:6]
    results = assert_kernels_agree(h, grids)
    assert all(r.verdict == "ok" for r in results)


def test_a_python_rule_failing_inside_the_accelerator_is_a_rule_error(
        fault_site: Path, tmp_path: Path) -> None:
    from grader.core.rule import RuleError
    from grader.kernel import c as native
    from grader.kernel import c_kernel

    if not native.built():
        pytest.skip("the accelerator is not built")
    h = load_hierarchy(write_hierarchy(tmp_path, """
        extends = "default"
        [[rules]]
        code = "crashing"
        after = "swordfish"
    """))
    engine = Engine(h, kernel=c_kernel())
    trial = next(r for r in engine.rules(1) if r.code == "reductio-ad-absurdum")
    prog = native.program(trial.context.propagation)
    assert prog is not None
    board = parse_grid_token(book_figures()["fig2.1"]["puzzle"])
    from grader import Board

    b = Board.from_values(board.geo, board.values)
    with pytest.raises(RuleError, match="'crashing'.*division by zero"):
        prog.closure(b)
    # the accelerator is usable again afterwards
    assert Grader().grade_grid(board).level == 1


def test_rules_sit_below_the_explanations() -> None:
    """Layering: the built-in rules import nothing of grader.explain (their
    phrase helpers are grader.core.phrases), so loading a rule never loads the
    explanations, the engine or the plugins again."""
    import ast

    from conftest import ROOT

    for path in sorted((ROOT / "rules").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("grader.explain"), (path.name, node.module)
                if node.module == "grader":
                    assert "explain" not in {a.name for a in node.names}, path.name


# -- clashes: one name, two packages (issue 31) -------------------------------


def test_a_name_two_packages_register_is_an_error_naming_both(xy_site: Path) -> None:
    from grader.strategy.plugins import PluginError

    install_fake_distribution(xy_site, "fake-sudoku-twin", "fake_sudoku_twin", MODULE,
                              {"liar": "fake_sudoku_twin:Liar"})
    plugins(refresh=True)
    with pytest.raises(PluginError) as e:
        rule_class("liar")
    assert "fake-sudoku-twin (fake_sudoku_twin:Liar)" in str(e.value)
    assert "fake-sudoku-wings (fake_sudoku_wings:Liar)" in str(e.value)
    assert 'plugin = "fake-sudoku-twin:liar"' in str(e.value)
    # the way to choose: the package before the name
    assert rule_class("fake-sudoku-twin:liar").__module__ == "fake_sudoku_twin"
    assert rule_class("Fake_Sudoku_Wings:liar").__module__ == "fake_sudoku_wings"


def test_a_plugin_named_like_a_builtin_stops_the_command_naming_both(
        site: Path, tmp_path: Path) -> None:
    install_fake_distribution(site, "fake-sudoku-evil", "fake_sudoku_evil", MODULE,
                              {"fish": "fake_sudoku_evil:XYWing"})
    plugins(refresh=True)
    G = book_figures()["fig2.1"]["puzzle"]
    for command in (["grade", G], ["explain", G], ["generate", "-n", "1", "--seed", "1"]):
        res = CliRunner().invoke(build_app(), command)
        assert res.exit_code == 2, (command, res.output)
        assert "sudoku-grader (grader.rules.fish:Fish)" in res.output, res.output
        assert "fake-sudoku-evil (fake_sudoku_evil:XYWing)" in res.output
    f = write_hierarchy(tmp_path, """
        extends = "default"
        [[rules]]
        code = "x-wing"
        plugin = "sudoku-grader:fish"
        [[rules]]
        code = "swordfish"
        plugin = "sudoku-grader:fish"
    """)
    res = CliRunner().invoke(build_app(), ["grade", G, "--hierarchy", str(f), "-f", "jsonl"])
    assert res.exit_code == 0 and '"verdict": "ok"' in res.stdout, res.output
    listed = CliRunner().invoke(build_app(), ["rules", "--hierarchy", str(f)])
    assert listed.exit_code == 0, listed.output
