"""What every explanation sentence must not do, as checks over a step's texts.

``problems(step)`` renders every text of a step (the short and teach
explanations, the three hint levels, a trial's branches and every sub-step
inside them) and returns what is wrong: a conclusion restated as its own
reason, a singular/plural mistake, an empty list, a repeated clause, or a
hint level that gives the conclusion away.  ``variant(step)`` names which
template (and which branch of it) the step exercised, for coverage.
Used by tests/test_explain_sentences.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from grader.core.phrases import FULL_HOUSE
from grader.core.steps import Step
from grader.explainer.hints import HINT_LEVELS, hint, technique_hint, where_hint
from grader.explainer.render import body_lines

CELL = r"\(\d+, \d+\)"
EFFECT = CELL + r" (?:<-|!=) \w+"
ITEM = rf"(?:{CELL}|\b[RCB]\d+)"
NOUNS = "cell|value|row|column|block|candidate|step|branch|line|region|possibilit"

#: (what is wrong, pattern) checked on every line of every text.
LINE_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("tautology", re.compile(rf"({EFFECT})\)? gives \1")),
    ("plural after 1", re.compile(rf"\b1 (?:[a-z]+ )?(?:{NOUNS})(?:s|es|ies)\b")),
    ("singular after a number", re.compile(
        r"\b(?:[02-9]|\d\d+) (?:cell|value|row|column|block|candidate|step|line|region)\b(?!s)"
        r"|\b(?:[02-9]|\d\d+) possibility\b")),
    ("'all' of two", re.compile(rf"(?<!, ){ITEM} (?:and|or) {ITEM},? (?:which )?all\b")),
    ("'both' of more than two", re.compile(rf"{ITEM}, {ITEM},? (?:and|or) {ITEM},? "
                                           rf"(?:which )?both\b")),
    ("article before a plural", re.compile(
        r"\b(?:a|an|one) (?:cells|values|rows|columns|blocks|candidates|possibilities)\b")),
    ("'a' before a vowel", re.compile(r"\ba [aeiou]")),
    ("verb agreement", re.compile(r"(?<!of its )\b(?:values|cells|they|possibilities) "
                                  r"(?:is|gives|leads)\b|\b(?:1 \w+|it) (?:are|give|lead)\b")),
    ("empty list", re.compile(r"\(\s*\)|\{\s*\}|\s[.,;:]|,\s*,|[;,]\s*$|=>\s*$"
                              r"|\b(?:and|or|in|of|from|at|to|between|among|the|with|by|is|are)"
                              r"[.,;:]")),
    ("double space", re.compile(r"\S {2,}\S")),
    ("repeated word", re.compile(r"\b([A-Za-z]+) \1\b")),
    # issue 27
    ("a fact implies itself (X => X)", re.compile(
        r"(?<![\w=<>,])(r\d+c\d+(?:=|<>)\w+|\(\d+, \d+\) (?:<-|!=) \w+) => \1(?![\w,=<>])")),
    ("after 0 lines", re.compile(r"\bafter 0 lines?\b")),
    ("a list that 'holds'", re.compile(rf"(?:{EFFECT}, )+{EFFECT} holds\b")),
    ("an unnamed assumption", re.compile(r"\bfrom the assumption\b|\bthe assumption alone\b")),
    ("a name the chain does not form", re.compile(r"[Pp]layers call (?:this|it)\b")),
]


def texts(step: Step) -> Iterator[tuple[str, str]]:
    """(where, text) for every text of a top-level step: short, teach, the
    three hint levels (``full`` at both details)."""
    yield "short", "\n".join(body_lines(step, "short"))
    yield "teach", step.explain("teach")
    for level in HINT_LEVELS:
        yield f"hint {level}", hint(step, level)
    yield "hint full short", hint(step, "full", "short")


def _clauses(line: str) -> list[str]:
    parts = re.split(r"[.;:]\s+|,\s+(?=[a-z])|\s+=>\s+", line.strip())
    return [p.strip(" .").lower() for p in parts if len(p.split()) >= 3]


def repeated_clauses(text: str, whole: bool) -> list[str]:
    """Clauses said twice: within the whole text (``whole``) or within a line
    (a trial's branches may repeat a sub-step)."""
    chunks = [text] if whole else text.splitlines()
    out = []
    for chunk in chunks:
        seen: set[str] = set()
        for c in _clauses(chunk.replace("\n", " ")):
            if c in seen:
                out.append(c)
            seen.add(c)
    return out


def effect_strings(step: Step) -> list[str]:
    geo = step.geo
    return ([f"{geo.cell_name(c)} <- {geo.symbol(v)}" for c, v in step.placements]
            + [f"{geo.cell_name(c)} != {geo.symbol(v)}" for c, v in step.eliminations])


def _line_problems(where: str, text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        for what, rx in LINE_RULES:
            m = rx.search(line)
            if m:
                out.append(f"{where}: {what} ({m.group(0)!r}) in: {line.strip()}")
    return out


def _conclusion_problems(step: Step) -> list[str]:
    """A conclusion given as its own reason."""
    out = []
    geo = step.geo
    effects = effect_strings(step)
    if not step.branches:
        reason = step.summary().split(" => ")[0]
        for e in effects:
            if e in reason:
                out.append(f"short: the conclusion {e} is in its own reason: {reason}")
        teach = step.explain("teach")
        for e in effects:
            if teach.count(e) != 1:
                out.append(f"teach: the conclusion {e} appears {teach.count(e)} times: {teach}")
    for b in step.branches:
        a = f"{geo.cell_name(b.cell)} <- {geo.symbol(b.value)}"
        for where, text in (("short", "\n".join(body_lines(step, "short"))),
                            ("teach", step.explain("teach"))):
            if re.search(rf"\bgives? {re.escape(a)}(?![\d])", text):
                out.append(f"{where}: an assumption gives itself ({a}): {text}")
    return out


def _hint_problems(step: Step) -> list[str]:
    """technique < where < full, and the first two never tell the conclusion
    (nor a trial's pivot)."""
    out = []
    geo = step.geo
    tech, where, full = technique_hint(step), where_hint(step), hint(step, "full")
    if not where.startswith(tech[:-1]) or len(where) <= len(tech):
        out.append(f"hint where does not extend technique: {tech} / {where}")
    if re.search(rf"{CELL}|\b[RCB]\d+\b|look at", tech):
        out.append(f"hint technique names a place: {tech}")
    secret = {geo.cell_name(c) for c, _ in (*step.placements, *step.eliminations)}
    secret |= {geo.cell_name(c) for c in step.pattern.cells_with("pivot")}
    secret |= {geo.cell_name(b.cell) for b in step.branches}
    for level, text in (("technique", tech), ("where", where)):
        for s in sorted(secret):
            if s in text:
                out.append(f"hint {level} reveals {s}: {text}")
    for e in effect_strings(step):
        if e not in full:
            out.append(f"hint full lacks the conclusion {e}")
    return out


def step_problems(step: Step, top: bool = True) -> list[str]:
    """Everything wrong with one step's texts (and its sub-steps')."""
    out: list[str] = []
    if top:
        seen: set[str] = set()
        for where, text in texts(step):
            fresh = [ln for ln in text.splitlines() if ln not in seen]
            seen.update(fresh)
            out += _line_problems(where, "\n".join(fresh))
        out += _hint_problems(step)
    else:
        out += _line_problems("sub-step short", step.summary())
        out += _line_problems("sub-step teach", step.explain("teach"))
    out += _conclusion_problems(step)
    teach = step.explain("teach")
    for c in repeated_clauses(teach, whole=not step.branches):
        out.append(f"teach: repeated clause {c!r}: {teach}")
    for c in repeated_clauses(step.summary(), whole=True):
        out.append(f"short: repeated clause {c!r}: {step.summary()}")
    for b in step.branches:
        for sub in b.steps:
            out += step_problems(sub, top=False)
    return out


def variant(step: Step) -> str:
    """Which template, and which form of it, a step exercises."""
    fam = step.family
    p = step.pattern
    if fam == "single-position":
        if p.regions_with(FULL_HOUSE):
            return "single-position/full-house"
        if not p.cells_with("excluder"):
            return "single-position/no-excluder"
        return "single-position/also" if p.regions_with("also") else "single-position"
    if fam == "single-candidate":
        k = len(p.cells_with("excluder"))
        return "single-candidate/" + ("all-but-one" if k == step.geo.n - 1 else
                                      "one" if k == 1 else "none" if k == 0 else "some")
    if fam == "candidate-lines":
        return "candidate-lines/" + p.regions[0][1]
    if fam in ("naked-subset", "hidden-subset"):
        return f"{fam}/{len(p.values)}"
    if fam == "fish":
        return f"fish/{len(p.regions_with('base'))}"
    if fam == "disjunctive-construction":
        dead = sum(b.conflict is not None for b in step.branches)
        live = len(step.branches) - dead
        pivot = "region" if p.regions else "cell"
        outcome = ("all-dead" if not live else "one-live" if dead and live == 1
                   else "some-dead" if dead else "all-live")
        return f"{fam}/{pivot}/{outcome}"
    return fam
