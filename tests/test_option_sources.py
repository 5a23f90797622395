"""One source per option (issue 38, item 2): each option's choices and its
default are declared once, in the layer that owns the option; the command's
choices, the API's checks, the web page's lists and the docs derive from that
declaration.  A second copy of a choice list anywhere in the code is a
failure here."""

from __future__ import annotations

import ast
import inspect
import re
import typing

import pytest
from conftest import ROOT

import grader
from grader.bulk.choices import FORMAT_ALIASES, OUTPUT_FORMATS
from grader.cli.reference import commands
from grader.core.errors import ArgumentError
from grader.exact.pairs import PAIR_FORMAT_ALIASES, PAIR_FORMATS
from grader.explainer import choices as ex
from grader.formats import FORMATS
from grader.generator.output import FORMAT_ALIASES as GENERATE_ALIASES
from grader.generator.output import OUTPUT_FORMATS as GENERATE_FORMATS
from grader.generator.search import METHODS
from grader.generator.symmetry import SYMMETRIES
from grader.strategy.serate.settings import DEFAULT_SE, SE_DEPTHS

G = "64.5.98......3..7.3.8.1...4.....7...4..965..7...3.....8...9.4.3.2..5......36.4.92"

#: declaration -> (command, option, old names still accepted)
DECLARED: dict[tuple[str, ...], list[tuple[str, str, dict[str, str]]]] = {
    SE_DEPTHS: [("grade", "--se", {})],
    ex.PATHS: [("explain", "--path", {})],
    ex.NOTATIONS: [("explain", "--notation", {})],
    ex.HINT_LEVELS: [("explain", "--hint", ex.HINT_ALIASES)],
    ex.DETAILS: [("explain", "--detail", {})],
    ex.EXPLAIN_FORMATS: [("explain", "--format", {})],
    ex.INPUT_FORMATS: [("explain", "--input-format", {})],
    FORMATS: [("grade", "--input-format", {}), ("solve", "--input-format", {})],
    OUTPUT_FORMATS: [("grade", "--format", FORMAT_ALIASES)],
    GENERATE_FORMATS: [("generate", "--format", GENERATE_ALIASES)],
    SYMMETRIES: [("generate", "--symmetry", {})],
    METHODS: [("generate", "--method", {})],
    PAIR_FORMATS: [("pair generate", "--format", PAIR_FORMAT_ALIASES)],
}


def _literal_lists() -> list[tuple[str, tuple[str, ...]]]:
    """(where, values) of every tuple, list or set of 2+ strings in the code,
    the page's script included."""
    found = []
    for path in sorted([*(ROOT / "grader").rglob("*.py"), *(ROOT / "rules").rglob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and len(node.elts) >= 2 and all(
                    isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
                found.append((f"{path.relative_to(ROOT)}:{node.lineno}",
                              tuple(e.value for e in node.elts)))  # type: ignore[attr-defined]
    for path in (ROOT / "grader" / "web" / "static").glob("*.js"):
        for m in re.finditer(r"\[((?:\s*\"[^\"]*\"\s*,)+\s*\"[^\"]*\"\s*)\]", path.read_text()):
            found.append((str(path.relative_to(ROOT)), tuple(re.findall(r'"([^"]*)"',
                                                                        m.group(1)))))
    return found


@pytest.mark.parametrize("declared", list(DECLARED), ids=lambda d: "|".join(d))
def test_each_choice_list_is_written_once(declared: tuple[str, ...]) -> None:
    copies = [where for where, values in _literal_lists() if set(values) == set(declared)]
    assert len(copies) <= 1, f"{declared} is written in {copies}: derive it from one"


def _choices(param: object) -> list[str]:
    """The values an option accepts (click's Choice, or typer's enum)."""
    kind = getattr(param, "type", None)
    if kind is not None and hasattr(kind, "choices"):
        return [str(c) for c in kind.choices]
    enum = param.type_descriptor.annotation  # type: ignore[attr-defined]
    enum = next((a for a in typing.get_args(enum) if a is not type(None)), enum)
    return [m.value for m in enum]


@pytest.mark.parametrize(("declared", "use"), [(d, u) for d, uses in DECLARED.items()
                                               for u in uses])
def test_the_commands_choices_are_the_declaration(declared: tuple[str, ...],
                                                  use: tuple[str, str, dict[str, str]]) -> None:
    command, option, aliases = use
    cmd = commands()[command]
    param = next(p for p in cmd.params if option in getattr(p, "opts", ()))
    accepted = _choices(param)
    assert accepted == [*declared, *aliases]  # the old names accepted...
    shown = param.metavar or ""
    assert all(a not in shown.split("|") for a in aliases)  # ... never listed


def test_the_api_checks_the_declared_choices() -> None:
    with pytest.raises(ArgumentError, match=", ".join(SE_DEPTHS)):
        grader.grade(G, se="deep")
    with pytest.raises(ArgumentError, match=", ".join(ex.PATHS)):
        grader.explain(G, path="scenic")
    with pytest.raises(ArgumentError, match=", ".join(ex.NOTATIONS)):
        grader.explanation(G, notation="runes")
    assert inspect.signature(grader.grade).parameters["se"].default == DEFAULT_SE
    assert inspect.signature(grader.rate).parameters["se"].default == DEFAULT_SE


def test_one_default_path_everywhere() -> None:
    """The default path was "book" in the explainer and "patterns" elsewhere."""
    from grader.explainer.core import Walkthrough, walkthrough
    from grader.explainer.request import ExplainOptions
    from grader.web.models import Position

    assert ex.DEFAULT_PATH == "patterns"
    assert Walkthrough.__dataclass_fields__["path"].default == ex.DEFAULT_PATH
    assert inspect.signature(walkthrough).parameters["path"].default == ex.DEFAULT_PATH
    assert ExplainOptions("x").path == ex.DEFAULT_PATH
    assert inspect.signature(grader.explain).parameters["path"].default == ex.DEFAULT_PATH
    assert Position(grid="x").path == ex.DEFAULT_PATH
    opt = next(p for p in commands()["explain"].params if "--path" in getattr(p, "opts", ()))
    assert str(opt.default) == ex.DEFAULT_PATH
    code = "\n".join(p.read_text() for p in (ROOT / "grader").rglob("*.py"))
    assert 'path: str = "book"' not in code and 'path: str = "patterns"' not in code


def test_the_web_page_lists_derive_from_the_declarations() -> None:
    from grader.web.models import HintRequest, Position
    from grader.web.paths import PATHS

    assert list(PATHS) == list(ex.PATHS)
    assert Position.model_json_schema()["properties"]["input_format"]["enum"] == \
        list(ex.INPUT_FORMATS)
    assert HintRequest.model_json_schema()["properties"]["level"]["enum"] == \
        list(ex.HINT_LEVELS)
    js = (ROOT / "grader" / "web" / "static" / "app.js").read_text()
    assert "init.hints" in js and '"patterns"' not in js


def test_explain_options_are_given_by_keyword() -> None:
    from grader.explainer.request import ExplainOptions

    with pytest.raises(TypeError):
        ExplainOptions("grid", 2)  # type: ignore[misc]
    src = (ROOT / "grader" / "cli" / "explain.py").read_text()
    call = src[src.index("opts = ExplainOptions("):].split(")\n", 1)[0]
    assert "grid=grid" in call and "notation=" in call


def test_the_docs_tables_come_from_the_commands() -> None:
    from grader.cli.reference import markdown_options

    text = markdown_options("grade")
    assert "`--se " + "|".join(SE_DEPTHS) + "`" in text
    assert "\\|" not in text and "¦" not in text
    assert "{ #grade-se }" in text


def test_no_enum_body_copies_a_declared_list() -> None:
    for path in (ROOT / "grader" / "cli").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                    getattr(b, "id", "") == "StrEnum" for b in node.bases):
                values = {n.value.value for n in node.body if isinstance(n, ast.Assign)
                          and isinstance(n.value, ast.Constant)}
                for declared in DECLARED:
                    assert not set(declared) <= values, (path.name, node.name)

