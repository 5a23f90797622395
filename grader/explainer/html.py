"""One self-contained HTML page: every step with its sentence, its reasoning
and an SVG drawing of the grid before it, the pattern highlighted.  A trial's
branches are folded (``<details>``), each with its chain drawn on the grid
(numbered facts, arrows, the contradiction outlined) and written out line by
line, nested trials inside their own folds.  Navigation: a list of the steps,
previous/next links on every step, and the keys j/k (or the left and right
arrows) through one small inline script; the page works without it.  No
external files; readable on a phone (the drawings scale to the screen
width).  The page is a Jinja2 template with autoescaping on
(``templates/explain.html.j2``, its pieces in ``_steps.html.j2``): every text is
escaped; only the drawings, SVG written by this package, come in as markup."""

from __future__ import annotations

from typing import Any

from grader.core.board import Board
from grader.core.steps import Link, Step
from grader.explainer.chainsvg import ASSUME, CONFLICT, chain_svg
from grader.explainer.core import Walkthrough
from grader.explainer.document import facts
from grader.explainer.names import beside, shown_level
from grader.explainer.notation import shown
from grader.explainer.style import ELIMINATION, LINKED, PLACEMENT, cell_style, region_style
from grader.explainer.svg import grid_svg

CSS = """
svg[role="img"] { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; background: #fff; }
.mk { display: inline-block; width: .75em; height: .75em; vertical-align: -.05em;
      margin-right: .1em; border: 2px solid currentColor; box-sizing: border-box; }
.mk.circle { border-radius: 50%; }
.mk.square { border-radius: 2px; }
.mk.cross { border: none; background: linear-gradient(135deg, transparent 42%, currentColor 42%,
            currentColor 58%, transparent 58%); }
.mk.assume { color: #7048e8; } .mk.placed { color: #2b8a3e; }
.mk.eliminated { color: #e03131; } .mk.conflict { color: #c92a2a; }
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
// the plain candidates of a drawing, filled in when it comes into view
// (svg.py writes them as a short code: the page stays small)
var CODE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
function fillCands(g) {
  var d = g.dataset, f = document.getElementById("grid-frame").dataset;
  if (d.done) return;
  var n = +f.n, a = +f.a, b = +f.b, off = +f.off, cs = +f.cs, dy = +f.dy, k = +f.k;
  var rows = {}, vals = {}, code = d.c, html = "", flag = Math.pow(2, 6 * k - 1);
  var big = +f.big;
  for (var c = 0; c < n * n; c++) {
    var m = 0;
    for (var j = 0; j < k; j++) m = m * 62 + CODE62.indexOf(code.charAt(c * k + j));
    if (!m) continue;
    var r = Math.floor(c / n), col = c % n;
    if (m >= flag) {  // a value placed since the givens
      var vy = Math.round(off + r * cs + cs / 2 + big * 0.36);
      (vals[vy] = vals[vy] || []).push([Math.round(off + col * cs + cs / 2),
                                        f.s.charAt(m - flag - 1)]);
      continue;
    }
    for (var w = 1; w <= n; w++) {
      if (!((m >> (w - 1)) & 1)) continue;
      var x = Math.round(off + col * cs + ((w - 1) % b + 0.5) * cs / b);
      var y = Math.round(off + r * cs + (Math.floor((w - 1) / b) + 0.5) * cs / a + dy);
      (rows[y] = rows[y] || []).push([x, f.s.charAt(w - 1)]);
    }
  }
  for (var y2 in rows) html += '<text x="' + rows[y2].map(function (p) { return p[0]; })
    .join(" ") + '" y="' + y2 + '">' + rows[y2].map(function (p) { return p[1]; }).join("") +
    "</text>";
  for (var y3 in vals) html += '<text x="' + vals[y3].map(function (p) { return p[0]; })
    .join(" ") + '" y="' + y3 + '" font-size="' + big + '" fill="' + f.placed + '">' +
    vals[y3].map(function (p) { return p[1]; }).join("") + "</text>";
  g.innerHTML = html;
  d.done = "1";
}
(function () {
  var gs = document.querySelectorAll("g.cands");
  if (!("IntersectionObserver" in window)) { gs.forEach(fillCands); return; }
  function cands(svg) {  // its own candidates, or those of the position it uses
    var g = svg.querySelector("g.cands"), u = svg.querySelector('use[href^="#pos-"]');
    if (!g && u) { var p = document.getElementById(u.getAttribute("href").slice(1));
                   g = p && p.querySelector("g.cands"); }
    return g;
  }
  var io = new IntersectionObserver(function (es) {
    es.forEach(function (e) {
      if (e.isIntersecting) { var g = cands(e.target); if (g) fillCands(g);
                              io.unobserve(e.target); }
    });
  }, {rootMargin: "600px"});
  document.querySelectorAll('svg[role="img"]').forEach(function (s) { io.observe(s); });
  window.addEventListener("beforeprint", function () { gs.forEach(fillCands); });
})();
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


def _env() -> Any:
    """The templates of this package (``templates/*.html.j2``), autoescaping on."""
    from grader.explainer.templating import environment

    return environment("grader.explainer")


def _macros() -> Any:
    """The macros of ``_steps.html.j2`` (legend, teach), as Python callables."""
    return _env().get_template("_steps.html.j2").module


def legend_items(step: Step) -> list[dict[str, str]]:
    """The legend of a step's drawing: its roles' colours and its effects' marks."""
    items: list[dict[str, str]] = []
    seen: set[str] = set()
    for _, role in step.pattern.cells:
        if role not in seen:
            seen.add(role)
            st = cell_style(role, step.technique)
            items.append({"kind": "swatch", "colour": st.fill, "label": st.label})
    for _, role in step.pattern.regions:
        key = "region:" + role
        if key not in seen:
            seen.add(key)
            rst = region_style(role, step.technique)
            items.append({"kind": "swatch", "colour": rst.fill, "label": rst.label})
    kinds = {arc.strong for arc in step.pattern.arcs}
    if True in kinds:
        items.append({"kind": "strong", "colour": LINKED.fill, "label": "strong link"})
    if False in kinds:
        items.append({"kind": "weak", "colour": LINKED.fill, "label": "weak link"})
    if step.placements:
        items.append({"kind": "circle", "colour": PLACEMENT.fill, "label": PLACEMENT.label})
    if step.eliminations:
        items.append({"kind": "cross", "colour": ELIMINATION.fill, "label": ELIMINATION.label})
    return items


def step_legend(step: Step) -> str:
    """The legend of a step's drawing, as HTML."""
    return str(_macros().legend(legend_items(step)))


_legend = step_legend  # the older, private name

#: the colours of a chain's legend
CHAIN_KEY = {"assume": ASSUME, "placed": PLACEMENT.fill, "eliminated": ELIMINATION.fill,
             "conflict": CONFLICT}


def _trace(step: Step, nest: int = 0) -> dict[str, Any]:
    """A trial's branches as the recorded sub-steps (the ``--full-trace``
    view); ``nest``: how many trials this one is nested in."""
    from grader.core.chain_text import branch_end, branch_head, label

    return {"branches": [
        {"head": branch_head(step, b, i, nest),
         "steps": [{"summary": sub.summary(),
                    "trace": _trace(sub, nest + 1) if sub.branches else None}
                   for sub in b.steps or ()],
         "ok": b.trace_end is None, "end": branch_end(step, b, label(nest))}
        for i, b in enumerate(step.branches, start=1)]}


def _link(step: Step, link: Link, size_px: int, uid: str, nest: int = 0) -> dict[str, Any]:
    from grader.core.chain_text import label, uses_text
    from grader.core.phrases import effects

    sub = link.step
    return {"index": link.index,
            "effects": effects(step.geo, link.placements, link.eliminations),
            "name": sub.name, "reason": sub.reason(), "uses": uses_text(link.uses, label(nest)),
            "branches": _branches(sub, None, size_px, uid, nested=True, nest=nest + 1)
            if sub.branches else None}


def _branches(step: Step, board: Board | None, size_px: int, uid: str,
              nested: bool = False, nest: int = 0) -> list[dict[str, Any]]:
    """A trial's branches, each folded: the chain drawn (with ``board``, the
    position the trial starts from; nested trials are written out only, so
    that the page stays small) and written out, nested trials inside.
    ``uid``: a prefix for the ids of the drawings, unique in the page;
    ``nest``: how many trials this one is nested in (its assumptions' label)."""
    from markupsafe import Markup

    from grader.core.chain_text import (
        branch_head,
        chain_notation,
        end_text,
        ending,
        has_short,
        label,
    )

    out: list[dict[str, Any]] = []
    for i, b in enumerate(step.branches, start=1):
        if b.chain is None:
            out.append({"trace": _trace(step, nest)})
            break
        figure = None
        if board is not None and (b.chain.links or b.conflict is not None):
            figure = Markup(chain_svg(board, step, b, size_px=size_px, uid=f"{uid}-{i}"))
        out.append({
            "trace": None, "open": not nested, "head": branch_head(step, b, i, nest),
            "ending": ending(step, b), "figure": figure, "ok": b.conflict is None,
            "end": end_text(step, b, label(nest)),
            "short": chain_notation(step, b) if has_short(b) else None,
            "links": [_link(step, link, size_px, f"{uid}-{i}-{link.index}", nest)
                      for link in b.chain.links]})
    return out


def teach_parts(step: Step, board: Board | None = None, size_px: int = 480,
                full: bool = False, uid: str = "a") -> dict[str, Any]:
    """What :func:`step_teach` shows, as data for the templates."""
    if step.branches:
        from grader.core.trial_text import trial_parts

        intro, outro = trial_parts(step)
        return {"paragraphs": None, "intro": intro, "outro": outro, "chain_key": CHAIN_KEY,
                "trace": _trace(step) if full else None,
                "branches": None if full else _branches(step, board, size_px, uid)}
    return {"paragraphs": [p for p in step.explain("teach").split("\n") if p]}


def step_teach(step: Step, board: Board | None = None, size_px: int = 480,
               full: bool = False, uid: str = "a") -> str:
    """A step's reasoning: paragraphs, and a trial's branches folded, each with
    its chain drawn on ``board`` (the position before the step) and written
    out; ``full``: the whole recorded propagation instead of the chains.
    ``uid``: a prefix of the drawings' ids, unique in the page."""
    return str(_macros().teach(teach_parts(step, board, size_px, full, uid)))


def _single_cells(step: Step) -> tuple[int, ...] | None:
    """A single's drawing shows the candidates of its cell alone (it rests
    on the values around); None: every candidate (the other steps)."""
    if step.branches or step.level > 2 or step.eliminations or not step.placements:
        return None
    return tuple(c for c, _ in step.placements)


def render_html(wt: Walkthrough, title: str | None = None, size_px: int = 480,
                full_trace: bool = False, notation: str | None = None) -> str:
    """The page for a walkthrough (every step is computed), from the template
    ``templates/explain.html.j2``.  ``full_trace``: trial branches as the whole
    recorded propagation, without chains; ``notation``: the sentences'
    (``book`` or ``compact``)."""
    from markupsafe import Markup

    from grader.explainer.svg import PAGE_BASES, PAGE_DEFER, PAGE_FRAME, PAGE_GIVENS, frame_svg

    # the grid's lines, labels and givens are drawn once and used by every drawing
    givens = frozenset(wt.givens)
    frame = Markup(frame_svg(wt.start.geo, "grid-frame", board=wt.start, givens=givens))
    token, token_g = PAGE_FRAME.set("grid-frame"), PAGE_GIVENS.set(givens)
    token_d, token_b = PAGE_DEFER.set(True), PAGE_BASES.set({})
    try:
        return _page(wt, title, size_px, full_trace, notation, frame)
    finally:
        PAGE_BASES.reset(token_b)
        PAGE_FRAME.reset(token)
        PAGE_GIVENS.reset(token_g)
        PAGE_DEFER.reset(token_d)


def _page(wt: Walkthrough, title: str | None, size_px: int, full_trace: bool,
          notation: str | None,
          frame: Any) -> str:
    from markupsafe import Markup

    f = facts(wt)
    steps = [{"number": number, "name": step.name, "beside": beside(step),
              "level": shown_level(step), "se": None if step.se is None else f"{step.se:.1f}",
              "reference": step.reference, "trial": bool(step.branches),
              "summary": step.summary(),
              "teach": teach_parts(step, board, size_px, full_trace, f"arrow-{number}"),
              "figure": Markup(grid_svg(board, step, size_px=size_px, givens=wt.givens,
                                        only=_single_cells(step))),
              "legend": legend_items(step)}
             for number, board, step in wt]
    final = wt.final()
    label = "Solution" if final.is_solved() else "Where the rules stop"
    page = _env().get_template("explain.html.j2").render(
        title=title or "Sudoku explained", css=Markup(CSS), script=Markup(SCRIPT), frame=frame,
        facts={"puzzle": f.puzzle, "size": f.size, "box": f.box, "sentence": f.sentence()},
        start=Markup(grid_svg(wt.start, size_px=size_px, givens=wt.givens,
                              title="Starting position")),
        steps=steps, final_label=label,
        final=Markup(grid_svg(final, size_px=size_px, givens=wt.givens, title=label)))
    return shown(page, notation, html=True)
