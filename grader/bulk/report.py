"""A run's :class:`~grader.bulk.summary.Summary` drawn: rich tables with
histograms as bars (the end summary), and ``--plot``'s PNG (matplotlib)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.bulk.summary import Summary

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text

    from grader.bulk.pipeline import RunStats


def render_summary(s: Summary, stats: RunStats | None = None, jobs: int | None = None,
                   width: int = 30) -> Any:
    """A rich renderable: counts, histograms drawn as bars, techniques, slowest."""
    from rich.console import Group

    parts: list[Any] = [_head(s, stats, jobs)]
    parts.append(_bars("verdicts", [(v, c) for v, c in sorted(
        s.verdicts.items(), key=lambda kv: (kv[0] != "ok", -kv[1], kv[0]))], width))
    if s.ratings:
        parts.append(_bars("ratings", s.rating_rows(), width))
        parts.append(_bars("levels", [(str(lv), c) for lv, c in s.level_rows()], width))
        if any(d > 1 for d in s.depths):
            parts.append(_bars("trial depth", [(str(d), c) for d, c in
                                               sorted(s.depths.items())], width))
        parts.append(_techniques(s))
    if s.slowest:
        parts.append(_slowest(s))
    if s.bad_count:
        parts.extend(_bad(s))
    return Group(*[p for part in parts for p in (part, _blank())][:-1])


def _blank() -> Text:
    from rich.text import Text

    return Text("")


def _head(s: Summary, stats: RunStats | None, jobs: int | None) -> Text:
    from rich.text import Text

    head = Text()
    head.append(f"{s.total} grids", style="bold")
    if s.resumed:
        head.append(f" ({s.resumed} from the earlier run, {s.total - s.resumed} "
                    f"graded now)")
    if stats is not None:
        now = s.total - s.resumed
        rate = now / stats.seconds if stats.seconds > 0 else 0.0
        head.append(f" · {stats.seconds:.1f} s · {rate:.1f} grids/s")
        if jobs:
            head.append(f" · {jobs} job{'s' if jobs != 1 else ''}")
        if stats.interrupted:
            head.append(" · interrupted", style="bold yellow")
    if s.filtered:
        head.append(f"\n{s.selected} selected")
        if s.duplicates:
            head.append(f", {s.duplicates} duplicates dropped")
    return head


def _bars(title: str, rows: list[tuple[str, int]], width: int) -> Table:
    from rich.table import Table
    from rich.text import Text

    t = Table(title=title, title_justify="left", box=None, pad_edge=False, show_header=False)
    t.add_column(justify="left")
    t.add_column(justify="right")
    t.add_column(justify="right", style="dim")
    t.add_column(justify="left")
    top = max((c for _, c in rows), default=0)
    tot = sum(c for _, c in rows) or 1
    for label, c in rows:
        n = 0 if top == 0 else round(width * c / top)
        bar = "█" * n if n or c == 0 else "▏"
        t.add_row(Text(label), str(c), f"{100 * c / tot:.1f}%", Text(bar, style="cyan"))
    return t


def _techniques(s: Summary) -> Table:
    from rich.table import Table
    from rich.text import Text

    t = Table(title="techniques (grids needing each)", title_justify="left", box=None,
              pad_edge=False)
    t.add_column("level", justify="right")
    t.add_column("technique")
    t.add_column("grids", justify="right")
    t.add_column("%", justify="right", style="dim")
    t.add_column("steps", justify="right", style="dim")
    ok = s.verdicts.get("ok", 0) or 1
    for _, name, lvl, k, n in s.technique_rows():
        if k:
            t.add_row(str(lvl), Text(name), str(k), f"{100 * k / ok:.1f}", str(n))
    return t


def _slowest(s: Summary) -> Table:
    from rich.table import Table
    from rich.text import Text

    t = Table(title="slowest grids", title_justify="left", box=None, pad_edge=False)
    t.add_column("#", justify="right")
    t.add_column("where")
    t.add_column("seconds", justify="right")
    t.add_column("rating / verdict")
    for secs, i, ln, src, r in s.slowest:
        t.add_row(str(i), Text(f"{src}:{ln}" if ln else src), f"{secs:.3f}", Text(r or ""))
    return t


def _bad(s: Summary) -> list[Any]:
    from rich.table import Table
    from rich.text import Text

    t = Table(title=f"grids not ok ({s.bad_count})", title_justify="left", box=None,
              pad_edge=False)
    t.add_column("#", justify="right")
    t.add_column("where")
    t.add_column("verdict", style="red")
    t.add_column("message")
    for src, ln, i, v, msg in s.bad:
        t.add_row(str(i), Text(f"{src}:{ln}" if ln else src), Text(v), Text(msg or ""))
    parts: list[Any] = [t]
    if s.bad_count > len(s.bad):
        parts.append(Text(f"... and {s.bad_count - len(s.bad)} more: "
                          f"--where 'verdict != \"ok\"' lists them all", style="dim"))
    return parts


def _label(text: str) -> str:
    """A name from the hierarchy as matplotlib draws it: as it is (a ``$`` is a
    dollar, not mathematics; control characters are escapes)."""
    from grader.core.textsafe import escape_controls

    return escape_controls(text, newlines=False).replace("$", r"\$")


def plot_summary(s: Summary, path: Path) -> None:
    """Histograms of ratings, levels and technique usage as a PNG (matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(16, 5))
    rr = s.rating_rows()
    axes[0].bar([_label(r) for r, _ in rr], [c for _, c in rr], color="#4477aa")
    axes[0].set_title("ratings")
    axes[0].tick_params(axis="x", rotation=30)
    lr = s.level_rows()
    axes[1].bar([str(lv) for lv, _ in lr], [c for _, c in lr], color="#66ccee")
    axes[1].set_title("levels")
    axes[1].set_xlabel("level")
    tr = [(name, k) for _, name, _, k, _ in s.technique_rows() if k]
    axes[2].barh([_label(n) for n, _ in tr][::-1], [k for _, k in tr][::-1], color="#228833")
    axes[2].set_title("grids needing each technique")
    for ax in axes[:2]:
        ax.set_ylabel("grids")
    fig.suptitle(f"{s.total} grids ({s.verdicts.get('ok', 0)} ok)")
    fig.tight_layout()
    from grader.formats.files import save_whole

    try:
        save_whole(path, lambda tmp: fig.savefig(tmp, dpi=100))
    finally:
        plt.close(fig)
