"""Fish of size k: X-Wing (rule 4.1, k = 2) and Swordfish (rule 4.2, k = 3).

Value v and k base lines (rows, or columns) in each of which v is still
possible in at least two cells, all of those cells lying in the same k cover
lines (columns, or rows): v must occupy the k cover lines within the k base
lines, so it is eliminated from every other cell of the cover lines.  With
k = 2 every base line has exactly two cells: the book's X-Wing.  The book's
Swordfish drawing (each row two cells, chained in a cycle) is one instance of
k = 3.  k = 4 (Jellyfish) is available by setting ``size = 4``.
"""

from __future__ import annotations

from collections.abc import Iterator

from grader.core import phrases
from grader.core.board import Board
from grader.core.geometry import ROW, Geometry
from grader.core.rule import Rule
from grader.core.steps import Pattern, Step, absent_outside
from grader.kernel.c import Family, NativeRule

from .subsets import subsets_with_union

_FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


class Fish(Rule):
    """Order: values ascending; rows as base before columns as base; base
    line sets in lexicographic order."""

    family = "fish"
    default_name = "fish"
    default_reference = "rules 4.1, 4.2"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.size = int(self.params.get("size", 2))

    def native(self) -> NativeRule:
        return NativeRule.of(Family.FISH, size=self.size)

    @staticmethod
    def support(step: Step) -> list[tuple[int, int]]:
        """The value is absent from the base lines outside the cover lines."""
        return absent_outside(step, "base", "cover")

    def find(self, board: Board) -> Iterator[Step]:
        geo = board.geo
        n = geo.n
        k = self.size
        cands = board.cands
        for v in range(1, n + 1):
            bit = 1 << (v - 1)
            for base_lines, base_off, cover_off in ((geo.rows, 0, n), (geo.cols, n, 0)):
                lines: list[int] = []
                masks: list[int] = []
                for i, cells in enumerate(base_lines):
                    m = 0
                    for j, c in enumerate(cells):
                        if cands[c] & bit:
                            m |= 1 << j
                    cnt = m.bit_count()
                    if 2 <= cnt <= k:
                        lines.append(i)
                        masks.append(m)
                if len(lines) < k:
                    continue
                for combo, cover in subsets_with_union(masks, k):
                    base = [lines[i] for i in combo]
                    base_set = set(base)
                    elim = []
                    for j in range(n):
                        if cover >> j & 1:
                            for i in range(n):
                                if i in base_set:
                                    continue
                                c = base_lines[i][j]
                                if cands[c] & bit:
                                    elim.append(c)
                    if elim:
                        covers = [j for j in range(n) if cover >> j & 1]
                        base_cells = [base_lines[i][j] for i in base for j in covers
                                      if cands[base_lines[i][j]] & bit]
                        yield self.make(
                            board,
                            eliminations=tuple((c, v) for c in sorted(elim)),
                            pattern=Pattern(
                                cells=tuple((c, "base") for c in sorted(base_cells)),
                                regions=tuple((base_off + i, "base") for i in base)
                                + tuple((cover_off + j, "cover") for j in covers),
                                values=(v,),
                            ),
                        )

    @staticmethod
    def common_name(step: Step) -> str | None:
        """X-Wing, Swordfish, Jellyfish (by the number of base lines)."""
        return _FISH_NAMES.get(len(step.pattern.regions_with("base")))

    @staticmethod
    def where(step: Step) -> str:
        geo = step.geo
        base = step.pattern.regions_with("base")
        kind = "rows" if geo.region_kind[base[0]] == ROW else "columns"
        return (f"look at value {geo.symbol(step.pattern.values[0])} in the {kind}: in "
                f"{len(base)} of them it is confined to the same {len(base)} cross lines")

    @staticmethod
    def summarize(step: Step) -> str:
        geo, v, base, cover, bkind, ckind = _lines(step, "s")
        return (f"in {bkind} {', '.join(geo.region_name(r) for r in base)}, {v} can only be in "
                f"{ckind} {', '.join(geo.region_name(r) for r in cover)}, so not elsewhere in "
                f"those {ckind}")

    @staticmethod
    def teach(step: Step) -> str:
        geo, v, base, cover, bkind, ckind = _lines(step)
        k = len(base)
        cells = step.pattern.cells_with("base")
        path = phrases.fish_path(geo, cells, rows_first=bkind == "row")
        shape = (f"They form the closed path {' - '.join(geo.cell_name(c) for c in path)}"
                 f" - back to {geo.cell_name(path[0])}, turning at each cell from a {bkind} to a "
                 f"{ckind}. " if path else "")
        per_line = "; ".join(
            f"{geo.region_name(b)}: "
            f"{phrases.cells(geo, [c for c in cells if c in geo.region_set[b]], 'or')}"
            for b in base)
        return (f"{step.name} on {v}: in {bkind}s {phrases.regions(geo, base)}, {v} can only go "
                f"in {ckind}s {phrases.regions(geo, cover)} ({per_line}). {shape}"
                f"Each of these {k} {bkind}s needs its {v} in one of these {k} {ckind}s, and no "
                f"{ckind} can take two of them, so the {v}s of {ckind}s "
                f"{phrases.regions(geo, cover)} {phrases.all_word(k)} lie in {bkind}s "
                f"{phrases.regions(geo, base)}. "
                f"No other cell of those {ckind}s can hold {v}: "
                f"{phrases.effects(geo, eliminations=step.eliminations)}.")


def _lines(step: Step, plural: str = "",
           ) -> tuple[Geometry, str, tuple[int, ...], tuple[int, ...], str, str]:
    """A fish's geometry, value (its symbol), base and cover lines, and the
    kinds of those lines ("row" and "column", or the other way round; with
    ``plural`` added)."""
    geo = step.geo
    base = step.pattern.regions_with("base")
    rows = geo.region_kind[base[0]] == ROW
    bkind, ckind = ("row", "column") if rows else ("column", "row")
    return (geo, geo.symbol(step.pattern.values[0]), base, step.pattern.regions_with("cover"),
            bkind + plural, ckind + plural)
