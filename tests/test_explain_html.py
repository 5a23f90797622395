"""The HTML page: valid, self-contained, one SVG drawing per step (pattern
highlighted) and one per trial branch (its chain), navigable, and it renders
in headless Chromium (screenshot)."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from conftest import book_figures, scaled

from grader.explainer.core import walkthrough
from grader.explainer.html import render_html
from grader.explainer.style import CELL_ROLES
from grader.explainer.svg import grid_svg
from grader.formats import parse_grid_token

FIG = book_figures()
SVG_NS = "{http://www.w3.org/2000/svg}"
VOID = {"meta", "br", "img", "hr", "input", "link", "area", "base", "col", "embed", "source",
        "track", "wbr"}


class Checker(HTMLParser):
    """Strict nesting check (every element closed in order; SVG elements
    written self-closing are accepted)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.counts: dict[str, int] = {}
        self.ids: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.counts[tag] = self.counts.get(tag, 0) + 1
        for k, v in attrs:
            if k == "id":
                self.ids.append(v)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.counts[tag] = self.counts.get(tag, 0) + 1

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}> (open: {self.stack[-3:]})")
        else:
            self.stack.pop()


def page(name: str) -> tuple[str, int]:
    g = parse_grid_token(FIG[name]["puzzle"])
    wt = walkthrough(g.board(), path="book")
    return render_html(wt), wt.ensure()


@pytest.fixture(scope="module")
def expert_page() -> tuple[str, int]:
    return page("fig4.5")


def test_page_is_valid_and_has_a_drawing_per_step(expert_page):
    html, nsteps = expert_page
    assert html.startswith("<!DOCTYPE html>\n<html lang=\"en\">")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    chk = Checker()
    chk.feed(html)
    chk.close()
    assert not chk.errors and not chk.stack
    branches = html.count('<details class="branch"')
    chains = html.count("A: the assumption")  # the legend of each chain's drawing
    assert branches and 0 < chains <= branches
    # a drawing per step, + start, solution, and one per trial branch with a
    # chain (a branch the assumption itself concludes has none); the legends'
    # swatches are small SVGs too, hidden from screen readers (no role="img")
    drawings = len(re.findall(r'<svg [^>]*role="img"', html))
    assert chk.counts["svg"] == drawings + html.count('aria-hidden="true"')
    assert chk.counts["li"] >= nsteps and drawings == nsteps + 2 + chains
    assert len(chk.ids) == len(set(chk.ids))  # unique ids
    for k in range(1, nsteps + 1):
        assert f'id="step-{k}"' in html
    # self-contained: one inline script (keys), no external resources, links
    # only inside the page
    assert html.count("<script>") == 1 and "src=" not in html
    assert re.findall(r'href="([^"]*)"', html)
    assert all(h.startswith("#") for h in re.findall(r'href="([^"]*)"', html))
    # every drawing is well-formed XML
    starts = [m.start() for m in re.finditer(r'<svg [^>]*role="img"', html)]
    assert len(starts) >= nsteps + 2
    for i in starts[:nsteps + 2]:
        j = html.index("</svg>", i) + len("</svg>")
        root = ET.fromstring(html[i:j])
        # inline in HTML, a drawing needs no xmlns (the page's parser gives it)
        assert root.tag in (SVG_NS + "svg", "svg")


def test_trial_steps_show_branches(expert_page):
    html, _ = expert_page
    assert 'class="branch"' in html and 'class="conflict">contradiction:' in html
    assert 'class="chain"' in html and 'class="short"' in html


def test_step_drawing_highlights_pattern():
    g = parse_grid_token(FIG["fig2.1"]["puzzle"])
    wt = walkthrough(g.board(), path="book")
    board, step = wt.before(1), wt.step(1)
    assert step is not None
    svg = grid_svg(board, step, size_px=300, givens=wt.givens)
    root = ET.fromstring(svg)
    assert root.get("width") == "300"
    fills = [r.get("fill") for r in root.iter(SVG_NS + "rect")]
    assert fills.count(CELL_ROLES["target"].fill) == 1
    assert fills.count(CELL_ROLES["excluder"].fill) == len(step.pattern.cells_with("excluder"))
    circles = list(root.iter(SVG_NS + "circle"))
    assert len(circles) == 1  # the value placed, (8, 6) <- 3, is circled
    title = root.find(SVG_NS + "title")
    assert title is not None and "(8, 6) <- 3" in (title.text or "")
    # without a step: just the grid
    plain = ET.fromstring(grid_svg(board))
    assert not list(plain.iter(SVG_NS + "circle"))


CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             shutil.which("google-chrome")) if p), None)


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed "
                                             "(apt-get install chromium) so the page is not "
                                             "rendered; its validity is checked above")
def test_page_renders_in_headless_chromium(tmp_path, expert_page):
    html, _ = expert_page
    f = tmp_path / "explain.html"
    f.write_text(html, encoding="utf-8")
    shot = tmp_path / "shot.png"
    proc = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={shot}",
         "--window-size=412,1600", f.as_uri()],
        capture_output=True, text=True, timeout=scaled(120))
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(data[16:20], "big")
    height = int.from_bytes(data[20:24], "big")
    assert (width, height) == (412, 1600)
    assert len(data) > 20_000  # not a blank page
    # the DOM Chromium builds has every drawing
    dom = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
         f"--user-data-dir={tmp_path / 'profile2'}", "--dump-dom", f.as_uri()],
        capture_output=True, text=True, timeout=scaled(120))
    assert dom.returncode == 0
    assert dom.stdout.count("<svg") == html.count("<svg")


def test_the_page_codes_every_candidate_and_placed_value() -> None:
    """A page draws each position's plain candidates and placed values from a
    short code (the page's script decodes it): read back here as the script
    does, it is the board (9x9 and 6x6)."""
    from grader.core.board import Board
    from grader.explainer.svg import CODE62, PAGE_BASES, PAGE_DEFER, PAGE_FRAME, PAGE_GIVENS
    from grader.explainer.svg import grid_svg as draw

    for text, box in ((FIG["fig2.1"]["puzzle"], None), ("1.....3.....2.....5" + "." * 17, (2, 3))):
        board = Board.from_string(text, box)
        n = board.geo.n
        per = -(-(n + 1) // 6)
        flag = 1 << (6 * per - 1)
        tokens = [PAGE_FRAME.set("f"), PAGE_GIVENS.set(frozenset()), PAGE_DEFER.set(True),
                  PAGE_BASES.set({})]
        try:
            svg = draw(board)
        finally:
            for var, tok in zip((PAGE_FRAME, PAGE_GIVENS, PAGE_DEFER, PAGE_BASES), tokens,
                                strict=True):
                var.reset(tok)  # type: ignore[attr-defined]
        code = re.search(r'data-c="([0-9A-Za-z]*)"', svg).group(1)
        assert len(code) == per * board.geo.ncells
        for c in range(board.geo.ncells):
            m = 0
            for ch in code[c * per:(c + 1) * per]:
                m = m * 62 + CODE62.index(ch)
            if board.values[c]:
                assert m == flag | board.values[c]
            else:
                assert m == board.cands[c]
