"""What the explanations of a whole walk must not do (issue 27), as checks.

``walk_problems(wt)`` renders every step of a walkthrough in every output
(text at both details, the three hints, the HTML page, the Markdown post,
the JSON document, and the compact notation) and returns one line per
defect, each naming its kind, the step and what is wrong:

* ``name``: a trial called by the name of a pattern its chain need not form
  (the pattern the rating's walk found may only be named as such);
* ``excluder``: a hidden (or naked) single whose reason leaves out a cell
  or a value, or the earlier step (by number) that removed it;
* ``in short``: an arrow of the compact chain from a fact the next one does
  not come from alone, or a fact a nested trial proves shown as a plain
  arrow;
* ``one name``: a step's own text naming its technique otherwise than its
  header does;
* ``level``: a step showing a level other than the highest its proof uses;
* ``label``: an assumption's label reused by a nested one, or a line citing
  a label that is not its branch's assumption;
* ``compact``: the book's notation left in a compact output.

The line defects (``X => X``, ``after 0 lines``, ``... holds`` after a list,
``from the assumption``) are ``sentence_checks.LINE_RULES``, checked here on
every output, the documents included.
"""

from __future__ import annotations

import html as html_lib
import json
import re
from collections.abc import Iterator

from sentence_checks import LINE_RULES

from grader.core.board import Board
from grader.core.steps import Branch, Step
from grader.explainer.core import Walkthrough
from grader.explainer.document import document
from grader.explainer.hints import HINT_LEVELS, hint, technique_hint
from grader.explainer.html import render_html
from grader.explainer.markdown import render_markdown
from grader.explainer.names import beside
from grader.explainer.render import body_lines, header
from grader.core.chain_text import chain_notation

#: The names of the book's techniques and those players give them.
TECHNIQUES = (
    "single position", "single candidate", "candidate lines", "multiple lines",
    "naked pair", "naked triple", "naked tuple", "naked quad", "hidden pair",
    "hidden triple", "hidden tuple", "hidden quad", "X-Wing", "Swordfish", "Jellyfish",
    "hidden single", "naked single", "pointing", "claiming", "full house",
)
_TECHNIQUE = re.compile(r"\b(" + "|".join(sorted(TECHNIQUES, key=len, reverse=True)) + r")\b",
                        re.IGNORECASE)
_BOOK = re.compile(r"\(\d+, \d+\)|<-|!=")
_TAGS = re.compile(r"<[^>]+>")


def proof_level(step: Step) -> int:
    """The highest level of the step and of every sub-step its branches show."""
    subs = [k.step for b in step.branches for k in (b.chain.links if b.chain else ())]
    subs += [s for b in step.branches if b.chain is None for s in b.steps]
    return max([step.level, *(proof_level(s) for s in subs)])


def _lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip()]


def _line_problems(where: str, lines: list[str]) -> Iterator[str]:
    for line in lines:
        for what, rx in LINE_RULES[-5:]:
            m = rx.search(line)
            if m:
                yield f"{where}: {what} ({m.group(0)!r}) in: {line.strip()[:160]}"


# -- names --------------------------------------------------------------------------------
def name_problems(step: Step, texts: dict[str, str]) -> Iterator[str]:
    """The rating's pattern is only named as the rating's; the step's own text
    names its technique as its header does."""
    rated = step.rated_pattern
    for where, text in texts.items():
        if rated and rated in text:
            for m in re.finditer(re.escape(rated), text):
                if not text[:m.start()].endswith(("the rating's walk finds a ",
                                                  "the rating's walk finds an ",
                                                  "the rating's walk finds ")):
                    yield f"name: {where} calls the trial {rated!r}: {text[:160]}"
                    break
    if step.branches:
        return
    allowed = {step.name.lower()}  # the header's name; "full house" is a single position's
    if beside(step) == "full house":
        allowed.add("full house")
    for where in ("short", "teach"):
        for m in _TECHNIQUE.finditer(texts[where]):
            earlier = texts[where][m.end():].startswith(" of step ")  # another step's name
            if m.group(1).lower() not in allowed and not earlier:
                yield (f"one name: {where} says {m.group(1)!r} of a step named "
                       f"{' or '.join(sorted(allowed))}")


# -- the reasons of singles -----------------------------------------------------------------
def _named_by(teach: str, step: Step, board: Board, cell: int, value: int,
              removed: dict[tuple[int, int], int]) -> bool:
    """Whether the teach text says why ``value`` is not in ``cell``: a placed
    peer holding it, or the earlier step that removed it."""
    geo = step.geo
    if any(board.values[p] == value and geo.cell_name(p) in teach for p in geo.peers[cell]):
        return True
    number = removed.get((cell, value))
    if number is None:
        return "position as given" in teach
    return f"of step {number} removed" in teach


def excluder_problems(step: Step, board: Board, removed: dict[tuple[int, int], int],
                      ) -> Iterator[str]:
    """Every cell of a hidden single's region, every value of a naked single's
    cell, is explained, the earlier step that removed it named."""
    geo = step.geo
    teach = step.explain("teach")
    if step.family == "single-position" and step.pattern.regions_with("region"):
        (target, v), = step.placements
        region = step.pattern.regions_with("region")[0]
        for c in geo.regions[region]:
            if c != target and not board.values[c] and not _named_by(teach, step, board, c, v,
                                                                      removed):
                yield (f"excluder: why {geo.cell_name(c)} cannot hold {geo.symbol(v)} is "
                       f"not said: {teach}")
    elif step.family == "single-candidate":
        (target, v), = step.placements
        for w in range(1, geo.n + 1):
            if w != v and not _named_by(teach, step, board, target, w, removed):
                yield (f"excluder: why {geo.cell_name(target)} cannot hold {geo.symbol(w)} is "
                       f"not said: {teach}")


# -- the chains ---------------------------------------------------------------------------
def _trials(step: Step, nest: int = 0) -> Iterator[tuple[Step, int]]:
    """The step and every trial nested in its chains, with their depth."""
    yield step, nest
    for b in step.branches:
        for link in b.chain.links if b.chain is not None else ():
            if link.step.branches:
                yield from _trials(link.step, nest + 1)


def short_problems(step: Step, b: Branch) -> Iterator[str]:
    """Every arrow of the branch's "in short" line joins a fact to one that
    comes from it alone; a strand starts with exactly the sources of its
    first fact; a fact a nested trial proves says so."""
    if b.chain is None:
        return
    text = chain_notation(step, b)
    links = {k.index: k for k in b.chain.links}
    index = {"": -1}
    from grader.core.chain_text import fact_notation, link_notation

    index[fact_notation(step.geo, b.cell, b.value, True)] = 0
    for k in b.chain.links:
        index[link_notation(step.geo, k)] = k.index
    seen: set[int] = set()
    for strand in text.split("; "):
        parts = re.split(r" (->|-\[nested trial, \d+ lines?\]->|=>) ", strand)
        sources = {index.get(s, -2) for s in parts[0].split(" & ")} if len(parts) > 1 else set()
        prev = sources
        for arrow, group in zip(parts[1::2], parts[2::2], strict=True):
            if arrow == "=>":
                want = set(b.chain.end)
                if prev != want:
                    yield f"in short: {strand!r}: the end rests on {sorted(want)}"
                continue
            facts = group.split(", ")
            for fact in facts:
                k = links.get(index.get(fact, -2))
                if k is None:
                    yield f"in short: {fact!r} is no line of the chain: {text}"
                    continue
                seen.add(k.index)
                if set(k.uses) != prev:
                    yield (f"in short: {fact!r} comes from {list(k.uses)}, the arrow says "
                           f"{sorted(prev)}: {text}")
                if bool(k.step.branches) != arrow.startswith("-["):
                    yield f"in short: {fact!r}: a nested proof shown as a plain arrow: {text}"
            prev = {index.get(facts[-1], -2)} if len(facts) == 1 else {-3}
    if seen != set(links):
        yield f"in short: lines {sorted(set(links) - seen)} are missing: {text}"


def label_problems(lines: list[str]) -> Iterator[str]:
    """Every ``(from X ...)`` cites the label of its own branch's assumption,
    and a nested assumption's label differs from every enclosing one."""
    stack: list[tuple[int, str]] = []
    for line in lines:
        indent = len(line) - len(line.lstrip())
        while stack and stack[-1][0] > indent:
            stack.pop()
        head = re.match(r"\s*(?:branch \d+: )?assume .* \(([A-Z]\d*)\)$", line)
        if head:
            while stack and stack[-1][0] >= indent:
                stack.pop()
            if head.group(1) in {lab for _, lab in stack}:
                yield f"label: {head.group(1)} reused inside its own branch: {line.strip()}"
            stack.append((indent, head.group(1)))
            continue
        for m in re.finditer(r"\(from ([A-Z]\d*)\b", line):
            want = stack[-1][1] if stack else "A"
            if m.group(1) != want:
                yield f"label: cites {m.group(1)} in the branch of {want}: {line.strip()[:120]}"


# -- a step ---------------------------------------------------------------------------------
def step_texts(step: Step) -> dict[str, str]:
    """Every text of a step: short, teach, the hints, the header."""
    out = {"short": "\n".join(body_lines(step, "short")),
           "teach": "\n".join(body_lines(step, "teach")),
           "header": header(1, step).plain}
    for level in HINT_LEVELS:
        out[f"hint {level}"] = hint(step, level)
    return out


def step_problems(step: Step, board: Board, removed: dict[tuple[int, int], int],
                  ) -> Iterator[str]:
    texts = step_texts(step)
    for where, text in texts.items():
        yield from _line_problems(where, _lines(text))
    yield from name_problems(step, texts)
    yield from excluder_problems(step, board, removed)
    top = proof_level(step)
    tech = technique_hint(step)
    if f"· level {top} " not in texts["header"] + " " or f"level {top})" not in tech:
        yield f"level: the proof uses level {top}: {texts['header']} / {technique_hint(step)}"
    for trial, _ in _trials(step):
        for b in trial.branches:
            yield from short_problems(trial, b)
    for where in ("short", "teach"):
        yield from label_problems(texts[where].splitlines())


def _document_problems(wt: Walkthrough) -> Iterator[str]:
    """The documents: the line rules on every line, the JSON's names and
    levels, and no book notation in the compact ones."""
    page = html_lib.unescape(_TAGS.sub("\n", render_html(wt)))
    yield from _line_problems("html", _lines(page))
    md = render_markdown(wt, "teach")
    yield from _line_problems("markdown", _lines(md))
    doc = json.loads(document(wt).model_dump_json(by_alias=True))
    for number, (step, data) in enumerate(zip(wt.steps, doc["steps"], strict=True), start=1):
        if "pattern_name" in data or data["level"] != proof_level(step):
            yield f"step {number}: json: pattern_name or level {data['level']}"
        yield from (f"step {number}: {p}" for p in _line_problems(
            "json", _lines(data["explanation"])))
    for where, text in (
            ("compact markdown", render_markdown(wt, "teach", notation="compact")),
            ("compact html", html_lib.unescape(_TAGS.sub(" ", render_html(
                wt, notation="compact").split("<main>", 1)[1]))),
            ("compact json", document(wt, notation="compact").model_dump_json())):
        m = _BOOK.search(text)
        if m:
            yield f"compact: {where} keeps {m.group(0)!r}: {text[max(0, m.start() - 60):][:120]}"


def walk_problems(wt: Walkthrough, documents: bool = True) -> list[str]:
    """Every defect of every step of the walk (see the module's docstring)."""
    out: list[str] = []
    removed: dict[tuple[int, int], int] = {}
    for number, board, step in wt:
        out += [f"step {number}: {p}" for p in step_problems(step, board, removed)]
        for c, v in step.eliminations:
            removed.setdefault((c, v), number)
    if documents:
        out += list(_document_problems(wt))
    return out
