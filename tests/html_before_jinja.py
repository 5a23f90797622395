"""The HTML writers as they were before Jinja2 (issue 31), kept to check that
the templates write the same pages (tests/test_html_templates.py): a verbatim
copy of grader/explainer/html.py and of pack_html from grader/generator/pack.py.

One self-contained HTML page: every step with its sentence, its reasoning
and an SVG drawing of the grid before it, the pattern highlighted.  A trial's
branches are folded (``<details>``), each with its chain drawn on the grid
(numbered facts, arrows, the contradiction outlined) and written out line by
line, nested trials inside their own folds.  Navigation: a list of the steps,
previous/next links on every step, and the keys j/k (or the left and right
arrows) through one small inline script; the page works without it.  No
external files; readable on a phone (the drawings scale to the screen
width)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from grader.core.board import Board
from grader.core.steps import Link, Step
from grader.explainer.chainsvg import ASSUME, CONFLICT, chain_svg
from grader.explainer.core import Walkthrough
from grader.explainer.document import facts
from grader.explainer.names import beside, shown_level
from grader.explainer.notation import shown
from grader.explainer.style import ELIMINATION, PLACEMENT, cell_style, region_style
from grader.explainer.svg import grid_svg
from grader.generator.output import block_rows, comment
from grader.generator.pack import _CSS, _clean
from grader.generator.search import Generated
from grader.strategy.hierarchy import Hierarchy

CSS = """
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0;
       background: #f8f9fa; color: #212529; line-height: 1.45; }
main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.4rem; margin: .5rem 0; }
h2 { font-size: 1.1rem; margin: 0 0 .4rem 0; }
.facts { color: #495057; }
ol.steps { list-style: none; padding: 0; margin: 0; }
li.step, section.grid { background: #fff; border: 1px solid #dee2e6; border-radius: .5rem;
       padding: .8rem 1rem; margin: 1rem 0; }
.meta { color: #868e96; font-weight: normal; font-size: .9rem; }
.summary { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .9rem;
       background: #f1f3f5; padding: .3rem .5rem; border-radius: .3rem; overflow-wrap: anywhere; }
figure { margin: .6rem 0 0 0; }
figure > svg { width: 100%; max-width: 30rem; height: auto; display: block; }
figcaption { font-size: .8rem; color: #495057; }
.swatch { display: inline-block; width: .9em; height: .9em; vertical-align: -.1em;
       margin-right: .2em; }
.key { white-space: nowrap; }
ol.chain { padding-left: 1.6rem; font-size: .92rem; }
ul.branches { padding-left: 1rem; }
.assume { font-weight: bold; color: #7048e8; }
.conflict { color: #c92a2a; }
.ok { color: #2b8a3e; }
nav.toc ol { columns: 2 14rem; font-size: .9rem; padding-left: 2.2rem; }
nav.toc .trial, .trialname { font-weight: bold; }
.nav { font-size: .85rem; float: right; font-weight: normal; }
.nav a { margin-left: .5rem; }
details.branch { border-left: 3px solid #d0bfff; padding-left: .6rem; margin: .5rem 0; }
details.branch > summary { cursor: pointer; }
.uses { color: #868e96; font-size: .85rem; }
.short { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .82rem;
       overflow-wrap: anywhere; color: #1864ab; }
kbd { border: 1px solid #adb5bd; border-radius: .2rem; padding: 0 .25rem; font-size: .8rem; }
"""

#: j/k or the left/right arrows move to the next/previous step.
SCRIPT = """
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey || /INPUT|TEXTAREA/.test(e.target.tagName)) return;
  var d = (e.key === "j" || e.key === "ArrowRight") ? 1
        : (e.key === "k" || e.key === "ArrowLeft") ? -1 : 0;
  if (!d) return;
  var s = document.querySelectorAll("li.step"), i = -1;
  for (var n = 0; n < s.length; n++) if ("#" + s[n].id === location.hash) i = n;
  var t = s[Math.max(0, Math.min(s.length - 1, i + d))];
  if (t) { location.hash = t.id; e.preventDefault(); }
});
"""


def _swatch(fill: str) -> str:
    """A small square of colour (an SVG, so that no style attribute is needed:
    a page with a strict Content-Security-Policy shows it too)."""
    return (f'<svg class="swatch" width="12" height="12" viewBox="0 0 10 10" aria-hidden="true">'
            f'<rect width="10" height="10" fill="{fill}" stroke="#adb5bd"/></svg>')


def _mark(kind: str, colour: str) -> str:
    """The mark of a legend drawn as on the grid: a circle, a cross or a square."""
    shape = {"circle": f'<circle cx="5" cy="5" r="4" fill="none" stroke="{colour}" '
                       f'stroke-width="1.6"/>',
             "cross": f'<path d="M1.5 8.5L8.5 1.5" stroke="{colour}" stroke-width="1.8"/>',
             "square": f'<rect x="1" y="1" width="8" height="8" rx="1.5" fill="none" '
                       f'stroke="{colour}" stroke-width="1.6"/>'}[kind]
    return (f'<svg class="swatch" width="12" height="12" viewBox="0 0 10 10" '
            f'aria-hidden="true">{shape}</svg>')


def step_legend(step: Step) -> str:
    """The legend of a step's drawing: its roles' colours and its effects' marks."""
    items: list[str] = []
    seen: set[str] = set()
    for _, role in step.pattern.cells:
        if role not in seen:
            seen.add(role)
            st = cell_style(role, step.technique)
            items.append(f'<span class="key">{_swatch(st.fill)}{escape(st.label)}</span>')
    for _, role in step.pattern.regions:
        key = "region:" + role
        if key not in seen:
            seen.add(key)
            rst = region_style(role, step.technique)
            items.append(f'<span class="key">{_swatch(rst.fill)}{escape(rst.label)}</span>')
    if step.placements:
        items.append(f'<span class="key">{_mark("circle", PLACEMENT.fill)} '
                     f'{escape(PLACEMENT.label)}</span>')
    if step.eliminations:
        items.append(f'<span class="key">{_mark("cross", ELIMINATION.fill)} '
                     f'{escape(ELIMINATION.label)}</span>')
    return " &nbsp; ".join(items)


_legend = step_legend  # the older, private name


def _trace(step: Step, nest: int = 0) -> str:
    """A trial's branches as nested lists of the recorded sub-steps (the
    ``--full-trace`` view); ``nest``: how many trials this one is nested in."""
    from grader.core.chain_text import branch_end, branch_head, label

    parts = ['<ul class="branches">']
    for i, b in enumerate(step.branches, start=1):
        parts.append(f'<li><span class="assume">{escape(branch_head(step, b, i, nest))}</span>')
        if b.steps:
            parts.append('<ol class="chain">')
            for sub in b.steps:
                parts.append(f"<li>{escape(sub.summary())}")
                if sub.branches:
                    parts.append(_trace(sub, nest + 1))
                parts.append("</li>")
            parts.append("</ol>")
        cls = "ok" if b.trace_end is None else "conflict"
        parts.append(f'<div class="{cls}">{escape(branch_end(step, b, label(nest)))}</div>')
        parts.append("</li>")
    parts.append("</ul>")
    return "".join(parts)


def _link(step: Step, link: Link, size_px: int, uid: str, nest: int = 0) -> str:
    from grader.core.phrases import effects
    from grader.core.chain_text import label, uses_text

    sub = link.step
    eff = effects(step.geo, link.placements, link.eliminations)
    uses = uses_text(link.uses, label(nest))
    out = [f'<li value="{link.index}"><b>{escape(eff)}</b> by {escape(sub.name)}: '
           f'{escape(sub.reason())} <span class="uses">({escape(uses)})</span>']
    if sub.branches:
        out.append(_branches(sub, None, size_px, uid, nested=True, nest=nest + 1))
    out.append("</li>")
    return "".join(out)


def _branches(step: Step, board: Board | None, size_px: int, uid: str,
              nested: bool = False, nest: int = 0) -> str:
    """A trial's branches, each folded: the chain drawn (with ``board``, the
    position the trial starts from; nested trials are written out only, so
    that the page stays small) and written out, nested trials inside.
    ``uid``: a prefix for the ids of the drawings, unique in the page;
    ``nest``: how many trials this one is nested in (its assumptions' label)."""
    from grader.core.chain_text import branch_head, chain_notation, end_text, ending, has_short, label

    parts: list[str] = []
    for i, b in enumerate(step.branches, start=1):
        if b.chain is None:
            parts.append(_trace(step, nest))
            break
        parts.append(f'<details class="branch"{"" if nested else " open"}><summary>'
                     f'<span class="assume">{escape(branch_head(step, b, i, nest))}'
                     f'</span> &mdash; {escape(ending(step, b))}</summary>')
        if board is not None and (b.chain.links or b.conflict is not None):
            parts.append(f"<figure>{chain_svg(board, step, b, size_px=size_px, uid=f'{uid}-{i}')}"
                         f"<figcaption>{_chain_legend()}</figcaption></figure>")
        if b.chain.links:
            parts.append('<ol class="chain">')
            for link in b.chain.links:
                parts.append(_link(step, link, size_px, f"{uid}-{i}-{link.index}", nest))
            parts.append("</ol>")
        cls = "ok" if b.conflict is None else "conflict"
        parts.append(f'<div class="{cls}">{escape(end_text(step, b, label(nest)))}</div>')
        if has_short(b):
            parts.append(f'<div class="short">{escape(chain_notation(step, b))}</div>')
        parts.append("</details>")
    return "".join(parts)


def _chain_legend() -> str:
    return (f'{_mark("circle", ASSUME)} A: the assumption &nbsp; '
            f'{_mark("circle", PLACEMENT.fill)} placed &nbsp; '
            f'{_mark("cross", ELIMINATION.fill)} eliminated '
            f"(numbers: the lines below; arrows: what each line uses) &nbsp; "
            f'{_mark("square", CONFLICT)} the contradiction')


def step_teach(step: Step, board: Board | None = None, size_px: int = 480,
               full: bool = False, uid: str = "a") -> str:
    """A step's reasoning: paragraphs, and a trial's branches folded, each with
    its chain drawn on ``board`` (the position before the step) and written
    out; ``full``: the whole recorded propagation instead of the chains.
    ``uid``: a prefix of the drawings' ids, unique in the page."""
    if step.branches:
        from grader.core.trial_text import trial_parts

        intro, outro = trial_parts(step)
        body = _trace(step) if full else _branches(step, board, size_px, uid)
        return f"<p>{escape(intro)}</p>{body}<p>{escape(outro)}</p>"
    return "".join(f"<p>{escape(p)}</p>" for p in step.explain("teach").split("\n") if p)


def _toc(wt: Walkthrough) -> str:
    items = []
    for number, _, step in wt:
        cls = ' class="trial"' if step.branches else ""
        named = f" ({beside(step)})" if beside(step) else ""
        items.append(f'<li><a href="#step-{number}"{cls}>{escape(step.name + named)}</a> '
                     f'<span class="meta">level {shown_level(step)}</span></li>')
    return ('<nav class="toc" id="steps"><details><summary>All steps (keys <kbd>j</kbd> / '
            '<kbd>k</kbd> or the arrows: next / previous step)</summary><ol>'
            + "".join(items) + "</ol></details></nav>")


def _nav(number: int, total: int) -> str:
    prev = (f'<a href="#step-{number - 1}">&larr; previous</a>' if number > 1
            else '<a href="#start">&larr; start</a>')
    nxt = (f'<a href="#step-{number + 1}">next &rarr;</a>' if number < total
           else '<a href="#final">end &rarr;</a>')
    return f'<span class="nav">{prev}<a href="#steps">steps</a>{nxt}</span>'


def render_html(wt: Walkthrough, title: str | None = None, size_px: int = 480,
                full_trace: bool = False, notation: str | None = None) -> str:
    """The page for a walkthrough (every step is computed).  ``full_trace``:
    trial branches as the whole recorded propagation, without chains;
    ``notation``: the sentences' (``book`` or ``compact``)."""
    f = facts(wt)
    title = title or "Sudoku explained"
    start = grid_svg(wt.start, size_px=size_px, givens=wt.givens, title="Starting position")
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        "<main>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="summary">{escape(f.puzzle)}</p>',
        f'<p class="facts">{f.size}x{f.size} grid, blocks {escape(f.box)}: '
        f"{escape(f.sentence())}</p>",
        _toc(wt),
        '<section class="grid" id="start"><h2>Starting position</h2>',
        f"<figure>{start}</figure></section>",
        '<ol class="steps">',
    ]
    total = len(wt.steps)
    for number, board, step in wt:
        ref = f" · {escape(step.reference)}" if step.reference else ""
        out.append(f'<li class="step" id="step-{number}">')
        named = (f' <span class="trialname">({escape(beside(step))})</span>'
                 if beside(step) else "")
        out.append(f'<h2>Step {number}/{total} · {escape(step.name)}{named} '
                   f'<span class="meta">level {shown_level(step)}{ref}</span>'
                   f'{_nav(number, total)}</h2>')
        out.append(f'<p class="summary">{escape(step.summary())}</p>')
        out.append(step_teach(step, board, size_px, full_trace, f"arrow-{number}"))
        svg = grid_svg(board, step, size_px=size_px, givens=wt.givens)
        out.append(f"<figure>{svg}<figcaption>{step_legend(step)}</figcaption></figure>")
        out.append("</li>")
    out.append("</ol>")
    final = wt.final()
    label = "Solution" if final.is_solved() else "Where the rules stop"
    out.append(f'<section class="grid" id="final"><h2>{label}</h2>'
               f"<figure>{grid_svg(final, size_px=size_px, givens=wt.givens, title=label)}"
               "</figure></section>")
    out += ["</main>", f"<script>{SCRIPT}</script>", "</body>", "</html>", ""]
    return shown("\n".join(out), notation, html=True)


def _pack_svg(board: Board, size_px: int, title: str, givens: set[int] | None = None) -> str:
    try:
        from grader.explainer.svg import grid_svg
    except ImportError:  # pragma: no cover - the explain package is part of the project
        rows = "\n".join(block_rows(board.geo, board.values))
        return f"<pre>{escape(rows)}</pre>"
    return grid_svg(board, size_px=size_px, givens=givens, labels=False, title=title)


def pack_html_before(grids: Sequence[Generated], h: Hierarchy, title: str, meta: str) -> str:
    """The printable page: the grids, then (on a new page) their solutions."""
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{escape(title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
           f"<h1>{escape(title)}</h1>", f'<p class="meta">{escape(meta)}</p>',
           '<section class="puzzles">']
    for i, g in enumerate(grids, 1):
        r = g.result
        cap = f"{i}. {r.rating}"
        out.append("<figure>")
        out.append(_pack_svg(_clean(g, g.puzzle), 340, f"Grid {i}: {r.rating}"))
        out.append(f'<figcaption><span class="rating">{escape(cap)}</span> &middot; '
                   f"{escape(comment(g, h).split(', ', 1)[1])}</figcaption>")
        out.append("</figure>")
    out.append("</section>")
    out.append('<h2 class="solutions">Solutions</h2>')
    out.append('<section class="solutions">')
    for i, g in enumerate(grids, 1):
        givens = {c for c, v in enumerate(g.puzzle) if v}
        out.append("<figure>")
        out.append(_pack_svg(_clean(g, g.solution), 200, f"Solution of grid {i}", givens))
        out.append(f"<figcaption>{i}. {escape(g.result.rating or '')}</figcaption>")
        out.append("</figure>")
    out.append("</section>")
    out.append("</body>")
    out.append("</html>")
    return "\n".join(out) + "\n"


