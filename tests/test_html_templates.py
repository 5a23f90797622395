"""HTML through Jinja2 templates with autoescaping (issue 31): ``explain -f
html`` and the generator's pack page say what the f-string writers said
(``html_before_jinja.py`` keeps them): the same elements, attributes and
text, in the same order; every text is escaped."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

import html_before_jinja as before
import pytest
from conftest import PUZZLES, book_figures

from grader.explainer import html
from grader.explainer.core import walkthrough
from grader.formats import parse_grid_token
from grader.generator.pack import pack_html
from grader.strategy.hierarchy import default_hierarchy

FIG = book_figures()
BENCH = PUZZLES / "bench-mixed.txt"


class Events(HTMLParser):
    """A page as its events: tags with their attributes, and text with its
    white space normalised (entities decoded)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list[tuple[object, ...]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.events.append(("start", tag, tuple(sorted(attrs))))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.events.append(("empty", tag, tuple(sorted(attrs))))

    def handle_endtag(self, tag: str) -> None:
        self.events.append(("end", tag))

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if not text:
            return
        if self.events and self.events[-1][0] == "text":
            text = f"{self.events[-1][1]} {text}"
            self.events.pop()
        self.events.append(("text", text))


def events(page: str) -> list[tuple[object, ...]]:
    p = Events()
    p.feed(page)
    p.close()
    return p.events


def same(a: str, b: str) -> None:
    ea, eb = events(a), events(b)
    for i, (x, y) in enumerate(zip(ea, eb, strict=False)):
        assert x == y, f"event {i}: before {x!r}, now {y!r}"
    assert len(ea) == len(eb)


def words(page: str) -> str:
    """The text a reader sees of a page: drawings, styles and scripts left
    out (the page draws its grid's frame once and fills candidates on demand,
    and its legend's swatches are spans: the drawings differ by design)."""
    page = re.sub(r"<(svg|style|script)\b.*?</\1>", "", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return " ".join(unescape(page).split())


def bench(index: int) -> str:
    return BENCH.read_text().splitlines()[index - 1]


@pytest.mark.parametrize(("puzzle", "full"), [
    pytest.param(FIG["fig2.1"]["puzzle"], False, id="singles"),
    pytest.param(bench(2), False, id="fish"),
    pytest.param(bench(4), False, id="trials"),
    pytest.param(bench(4), True, id="trials-full-trace"),
    pytest.param(bench(79), False, id="nested-trials", marks=pytest.mark.slow),
    pytest.param(bench(79), True, id="nested-full-trace", marks=pytest.mark.slow),
])
def test_explain_html_is_the_page_it_was(puzzle: str, full: bool) -> None:
    wt = walkthrough(parse_grid_token(puzzle).board(), path="book")
    assert words(before.render_html(wt, full_trace=full)) == words(
        html.render_html(wt, full_trace=full))


def test_the_pieces_the_web_explainer_uses_are_the_same() -> None:
    wt = walkthrough(parse_grid_token(bench(4)).board(), path="book")
    for number, board, step in wt:
        assert words(before.step_legend(step)) == words(html.step_legend(step))
        if step.branches:
            assert words(before.step_teach(step, board, 300, False, f"s{number}")) == words(
                html.step_teach(step, board, 300, False, f"s{number}"))


def test_the_pack_page_is_the_page_it_was() -> None:
    from grader.generator import generate

    grids = generate("easy", count=2, seed=1, jobs=1)
    h = default_hierarchy()
    same(before.pack_html_before(grids, h, "Daily pack", "generate --pack x --seed 1"),
         pack_html(grids, h, "Daily pack", "generate --pack x --seed 1"))


def test_every_text_is_escaped() -> None:
    wt = walkthrough(parse_grid_token(FIG["fig2.1"]["puzzle"]).board(), path="book")
    page = html.render_html(wt, title='<script>alert("x")</script>')
    assert "<script>alert" not in page and "&lt;script&gt;alert(&#34;x&#34;)" in page
    from grader.generator import generate

    grids = generate("easy", count=1, seed=2, jobs=1)
    pack = pack_html(grids, default_hierarchy(), "<b>pack</b>", "a & b")
    assert "<b>pack</b>" not in pack and "&lt;b&gt;pack&lt;/b&gt;" in pack
    assert "a &amp; b" in pack
