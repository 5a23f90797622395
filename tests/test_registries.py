"""No registries: a step carries the technique that made it, and its
sentences, hints, support and role styles are that technique's.  Nothing is
registered at import, so no import order and no installed package can change
what another technique says or how it is drawn."""

from __future__ import annotations

from typing import Any, ClassVar

from grader.core import roles
from grader.core.board import Board
from grader.core.roles import cell_style, region_style
from grader.core.rule import Rule
from grader.core.steps import Pattern, Step, support_of
from grader.explainer.hints import hint
from grader.formats import parse_grid_token
from grader.strategy.engine import Engine
from grader.strategy.hierarchy import RuleSpec, default_hierarchy
from grader.strategy.plugins import rule_class
from grader.rules.singles import SinglePosition

G = "...1.5.9..23...7..1..2......9....8..2...1...7..1....6......6..9..9...43..7.5.4..."


def test_every_family_of_the_hierarchy_says_where_to_look() -> None:
    for spec in default_hierarchy().rules:
        cls = rule_class(spec.plugin)
        assert cls.where is not Rule.where, spec.code


def test_a_step_speaks_with_its_techniques_words() -> None:
    step = next(Engine().steps(parse_grid_token(G).board()))
    assert step.technique is SinglePosition
    assert step.summary().startswith("single position: in ")
    assert "look at" in hint(step, "where")
    assert list(support_of(step) or ()) == SinglePosition.support(step)


class SameFamily(Rule):
    """A plugin that takes a built-in family's name: its own steps speak its
    own words; the built-in's steps keep theirs."""

    family = "single-position"
    kind = "placement"
    roles: ClassVar[dict[str, Any]] = {"pincer": ("pincer", "#123456", "on red")}

    def find(self, board: Board):  # type: ignore[no-untyped-def]
        yield self.make(board, placements=((0, 1),),
                        pattern=Pattern(cells=((0, "pincer"),), values=(1,)))

    @staticmethod
    def summarize(step: Step) -> str:
        return "MINE"


def test_a_plugin_of_the_same_family_changes_nothing_of_the_built_in() -> None:
    board = Board.from_values(parse_grid_token(G).geo, [0] * 81)
    mine = next(SameFamily(RuleSpec(code="same", level=1)).find(board))
    assert mine.summary().startswith("same: MINE")
    builtin = next(Engine().steps(parse_grid_token(G).board()))
    assert "MINE" not in builtin.summary()


class OtherPincer(Rule):
    family = "other-wing"
    roles: ClassVar[dict[str, Any]] = {"pincer": "the other pincer", "region:fin": "fin"}


def test_role_styles_are_the_techniques_own_and_stable() -> None:
    before = (dict(roles.CELL_ROLES), dict(roles.REGION_ROLES))
    mine, other = cell_style("pincer", SameFamily), cell_style("pincer", OtherPincer)
    assert (mine.fill, mine.label) == ("#123456", "pincer")
    assert other.label == "the other pincer"
    assert other == cell_style("pincer", OtherPincer)  # the same every time
    assert region_style("fin", OtherPincer).label == "fin"
    assert cell_style("target", OtherPincer) is roles.CELL_ROLES["target"]  # built-in kept
    assert cell_style("pincer").label == "pincer"  # no technique: grey, by its name
    assert (dict(roles.CELL_ROLES), dict(roles.REGION_ROLES)) == before  # nothing registered
