"""One self-contained HTML page: every step with its sentence, its reasoning
and an SVG drawing of the grid before it, the pattern highlighted.  No
scripts, no external files; readable on a phone (the drawings scale to the
screen width)."""

from __future__ import annotations

from html import escape

from ..steps import Step
from .core import Walkthrough
from .document import facts
from .style import ELIMINATION, PLACEMENT, cell_style, region_style
from .svg import grid_svg

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
figure svg { width: 100%; max-width: 30rem; height: auto; display: block; }
figcaption { font-size: .8rem; color: #495057; }
.swatch { display: inline-block; width: .9em; height: .9em; border: 1px solid #adb5bd;
       vertical-align: -.1em; margin-right: .2em; }
ol.chain { padding-left: 1.6rem; font-size: .92rem; }
ul.branches { padding-left: 1rem; }
.assume { font-weight: bold; color: #7048e8; }
.conflict { color: #c92a2a; }
.ok { color: #2b8a3e; }
"""


def _legend(step: Step) -> str:
    items: list[str] = []
    seen: set[str] = set()
    for _, role in step.pattern.cells:
        if role not in seen:
            seen.add(role)
            st = cell_style(role)
            items.append(f'<span class="swatch" style="background:{st.fill}">'
                         f'</span>{escape(st.label)}')
    for _, role in step.pattern.regions:
        key = "region:" + role
        if key not in seen:
            seen.add(key)
            rst = region_style(role)
            items.append(f'<span class="swatch" style="background:{rst.fill}">'
                         f'</span>{escape(rst.label)}')
    if step.placements:
        items.append(f'<span style="color:{PLACEMENT.fill}">&#9711;</span> '
                     f'{escape(PLACEMENT.label)}')
    if step.eliminations:
        items.append(f'<span style="color:{ELIMINATION.fill}">&#10005;</span> '
                     f'{escape(ELIMINATION.label)}')
    return " &nbsp; ".join(items)


def _chain(step: Step) -> str:
    """A trial's branches as nested lists of sub-steps."""
    from .trials import _assume, branch_end

    parts = ['<ul class="branches">']
    many = len(step.branches) > 1
    for i, b in enumerate(step.branches, start=1):
        label = f"branch {i}: " if many else ""
        parts.append(f'<li><span class="assume">{escape(label)}assume '
                     f'{escape(_assume(step, b))}</span>')
        if b.steps:
            parts.append('<ol class="chain">')
            for sub in b.steps:
                parts.append(f"<li>{escape(sub.summary())}")
                if sub.branches:
                    parts.append(_chain(sub))
                parts.append("</li>")
            parts.append("</ol>")
        cls = "ok" if b.conflict is None else "conflict"
        parts.append(f'<div class="{cls}">{escape(branch_end(step, b))}</div>')
        parts.append("</li>")
    parts.append("</ul>")
    return "".join(parts)


def _teach(step: Step) -> str:
    if step.branches:
        from .trials import trial_parts

        intro, outro = trial_parts(step)
        return f"<p>{escape(intro)}</p>{_chain(step)}<p>{escape(outro)}</p>"
    return "".join(f"<p>{escape(p)}</p>" for p in step.explain("teach").split("\n") if p)


def render_html(wt: Walkthrough, title: str | None = None, size_px: int = 480) -> str:
    """The page for a walkthrough (every step is computed)."""
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
        '<section class="grid" id="start"><h2>Starting position</h2>',
        f"<figure>{start}</figure></section>",
        '<ol class="steps">',
    ]
    total = len(wt.steps)
    for number, board, step in wt:
        ref = f" · {escape(step.reference)}" if step.reference else ""
        out.append(f'<li class="step" id="step-{number}">')
        out.append(f'<h2>Step {number}/{total} · {escape(step.name)} '
                   f'<span class="meta">level {step.level}{ref}</span></h2>')
        out.append(f'<p class="summary">{escape(step.summary())}</p>')
        out.append(_teach(step))
        svg = grid_svg(board, step, size_px=size_px, givens=wt.givens)
        out.append(f"<figure>{svg}<figcaption>{_legend(step)}</figcaption></figure>")
        out.append("</li>")
    out.append("</ol>")
    final = wt.final()
    label = "Solution" if final.is_solved() else "Where the rules stop"
    out.append(f'<section class="grid" id="final"><h2>{label}</h2>'
               f"<figure>{grid_svg(final, size_px=size_px, givens=wt.givens, title=label)}"
               "</figure></section>")
    out += ["</main>", "</body>", "</html>", ""]
    return "\n".join(out)
