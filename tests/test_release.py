"""Releases (issue 31): the CHANGELOG has versioned sections, the package's
version is its latest release, and no dependency is pinned to an open
pre-release (``>=1.8.dev0``)."""

from __future__ import annotations

import re
import tomllib

from conftest import ROOT

from grader import about


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_changelog_has_an_unreleased_section_then_dated_releases() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    heads = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text, re.M)
    assert heads[0] == ("Unreleased", "")
    assert heads[1] == ("0.2.0", "2026-11-26")
    assert all(date for _, date in heads[1:])


def test_the_version_is_the_latest_release() -> None:
    assert project()["version"] == "0.2.0" == about.FALLBACK_VERSION


def test_no_dependency_opens_on_a_pre_release() -> None:
    specs = list(project()["dependencies"])
    for extra in project()["optional-dependencies"].values():
        specs += extra
    for spec in specs:
        assert not re.search(r"(\.dev|a|b|rc)0\b", spec), spec
    (sat,) = project()["optional-dependencies"]["sat"]
    assert sat == "python-sat>=1.8.dev30,<2"  # a published release; python-sat's are all .devN


def test_jinja2_is_a_core_dependency() -> None:
    assert any(d.lower().startswith("jinja2") for d in project()["dependencies"])
