"""Results drawn for a terminal: one grid's panel, and the table of many."""

from __future__ import annotations

from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from grader.strategy.grading import GradeResult
from grader.strategy.hierarchy import Hierarchy


def _result_row(r: GradeResult) -> list[Text]:
    # Text, not markup: a grid or a message may hold "[" (e.g. a malformed grid "[/]")
    return [Text(x) for x in (
        str(r.index), str(r.line or ""), r.verdict, r.rating or "", "" if r.level is None else
        str(r.level), "" if r.score is None else f"{r.score:.2f}", r.hardest or "",
        "" if r.steps is None else str(r.steps), "" if r.depth is None else str(r.depth),
        r.message or "",
    )]


def render_panel(r: GradeResult, h: Hierarchy, source: str | None = None) -> Panel:
    """One grid: rating, level, hardest technique, counts.  A bad grid read from a
    file names the file and the line."""
    if r.verdict != "ok":
        body = Text()
        body.append(r.verdict, style="bold red")
        body.append(f"\n{r.message or ''}\n\n")
        body.append(r.puzzle, style="dim")
        where = f"grid {r.index}"
        if source and source not in ("<argument>",):
            where = f"{source}:{r.line}" if r.line else source
        return Panel(body, title=Text(where), expand=False)
    names = {s.code: s for s in h.rules}
    t = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    t.add_column("technique")
    t.add_column("level", justify="right")
    t.add_column("steps", justify="right")
    for code, count in r.techniques.items():
        spec = names.get(code)
        t.add_row(Text(spec.name if spec else code), str(spec.level) if spec else "?",
                  str(count))
    # names come from the hierarchy file: escaped, never read as markup
    hardest = escape(names[r.hardest].name if r.hardest in names else (r.hardest or "none"))
    head = (f"[bold]rating[/]   {escape(r.rating or '')}\n[bold]level[/]    {r.level}\n"
            f"[bold]score[/]    {r.score:.2f}\n[bold]hardest[/]  {hardest}"
            + (f" (trials nested to depth {r.depth})" if r.depth and r.depth > 1 else "")
            + f"\n[bold]steps[/]    {r.steps}\n"
            + (f"[bold]SE[/]       {r.se} ({escape(r.se_pattern or '')}), EP {r.ep}, "
               f"ED {r.ed}\n" if r.se is not None else ""))
    from rich.console import Group

    return Panel(Group(head, t), title=f"[bold]{r.size}x{r.size} grid[/]",
                 subtitle=f"[dim]{r.seconds:.3f} s[/]", expand=False)



#: Above this many grids a table is printed in pages as the results come.
TABLE_PAGE = 1000


def results_table(rows: list[GradeResult], title: str | None, width: int,
                  cut: bool = True) -> Table:
    """One row per grid, light borders.  The depth column only when trials
    nested; the message column only when some grid has one and the terminal
    is wide enough (the summary lists every grid that is not ok with its
    message), so that the table reads in an 80-column terminal.  ``cut``
    False (standard output is not a terminal): no cell is shortened."""
    from rich import box

    with_message = any(r.message for r in rows) and width >= 110
    with_depth = any(r.depth and r.depth > 1 for r in rows)
    t = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1, 0, 0))
    keep = []
    for i, col in enumerate(("#", "line", "verdict", "rating", "level", "score", "hardest",
                             "steps", "depth", "message")):
        if (col == "message" and not with_message) or (col == "depth" and not with_depth):
            continue
        keep.append(i)
        numeric = col in ("#", "line", "level", "score", "steps", "depth")
        t.add_column(col, justify="right" if numeric else "left", no_wrap=col != "message",
                     min_width={"verdict": 9, "rating": 9, "hardest": 10,
                                "message": 20}.get(col, len(col)),
                     max_width={"hardest": 16, "verdict": 12, "rating": 14}.get(col)
                     if cut else None,
                     overflow="fold" if col == "message" or not cut else "ellipsis")
    for r in rows:
        cells = _result_row(r)
        t.add_row(*(cells[i] for i in keep))
    return t
