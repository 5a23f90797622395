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
from grader.engine import SoundnessError
from grader.plugins import GROUP, PluginError, plugins, rule_class

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
    (info / "RECORD").write_text("")


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
    assert found["fish"].__module__ == "rules.fish"


def test_a_third_party_rule_is_discovered(xy_site: Path) -> None:
    cls = rule_class("xy-wing")
    assert cls.__name__ == "XYWing" and cls.__module__ == "fake_sudoku_wings"


def test_the_engine_uses_a_third_party_rule_placed_by_a_hierarchy(
        xy_site: Path, tmp_path: Path) -> None:
    h = load_hierarchy(write_hierarchy(tmp_path, """
        extends = "default"
        [[rules]]
        code = "xy-wing"
        name = "XY-Wing"
        level = 9
        plugin = "xy-wing"
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
