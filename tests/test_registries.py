"""The explanation registries: the built-in families' sentences and hints are
listed, not left to import order, and a second family of the same name is an
error that names both, never a silent replacement."""

from __future__ import annotations

import pytest

from grader.core import steps
from grader.core.steps import TemplateClash, register_teach, register_template, teach_template_for
from grader.explainer import hints, trials
from grader.explainer.hints import HintClash, register_hint
from grader.strategy.hierarchy import default_hierarchy
from grader.strategy.plugins import rule_class


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registries restored after the test."""
    monkeypatch.setattr(hints, "HINTS", dict(hints.HINTS))
    for name in ("_TEMPLATES", "_TEACH", "_OWNERS"):
        monkeypatch.setattr(steps, name, dict(getattr(steps, name)))


def test_every_family_of_the_hierarchy_has_its_where_hint() -> None:
    families = {rule_class(spec.plugin).family for spec in default_hierarchy().rules}
    assert families <= set(hints.HINTS)


def test_a_second_hint_for_a_family_is_refused(fresh: None) -> None:
    mine = lambda step: "look somewhere"  # noqa: E731
    register_hint("my-family", mine)
    register_hint("my-family", mine)  # the same one again: nothing changes
    with pytest.raises(HintClash, match=r"'my-family' already has a 'where' hint .*<lambda>"):
        register_hint("my-family", lambda step: "elsewhere")
    with pytest.raises(HintClash, match="'fish' already has a 'where' hint"):
        register_hint("fish", mine)
    assert hints.HINTS["fish"] is not mine


def test_the_trial_teach_templates_are_the_explanation_layers() -> None:
    for family, fn in trials.TEACH.items():
        assert teach_template_for(family) is fn


def test_another_package_cannot_replace_a_family_s_sentences(fresh: None) -> None:
    with pytest.raises(TemplateClash, match=r"'reductio' of plugin.Mine \(package 'other'\) "
                                            r"is already defined by"):
        register_teach("reductio", lambda step: "mine", owner="other", where="plugin.Mine")
    with pytest.raises(TemplateClash, match="'fish' of other"):
        register_template("fish", lambda step: "mine", owner="other")
    summary = steps.template_for("fish")
    assert summary is not None
    register_template("fish", summary, owner="other")  # the same templates: no clash


def test_an_unnamed_registration_is_an_owner_too(fresh: None) -> None:
    first = lambda step: "first"  # noqa: E731
    register_template("new-family", first)
    with pytest.raises(TemplateClash, match="'new-family' .* already defined by <unnamed>"):
        register_template("new-family", lambda step: "second", owner="late")
    assert steps.template_for("new-family") is first
