"""XY-Wing: an example rule plugin for sudoku-grader.

A pivot cell with exactly the candidates {x, y} sees two "pincer" cells with
exactly {x, z} and {y, z}.  Whatever the pivot holds, one pincer holds z, so z
leaves every cell that sees both pincers.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from pathlib import Path

from grader import Board, Pattern, Rule, Step


class XYWing(Rule):
    family = "xy-wing"                   # the key of this rule's sentences
    kind = "elimination"
    default_name = "XY-Wing"
    default_reference = "not in the book"
    roles = {"pincer": ("pincer of the wing", "#ffd8a8", "on orange4")}

    def find(self, board: Board) -> Iterator[Step]:
        geo, cands = board.geo, board.cands
        # the cells with two candidates, in cell order: pivots and pincers
        two = [c for c, m in enumerate(cands) if m.bit_count() == 2]
        if len(two) < 3:                                 # a pivot and two pincers
            return
        for p in two:                                    # pivots in cell order
            m, near = cands[p], geo.peer_sets[p]
            # pincers: two candidates, exactly one of them shared with the pivot
            wings = [q for q in two if q in near and cands[q] & m and cands[q] != m]
            for i, a in enumerate(wings):
                for b in wings[i + 1:]:
                    z = cands[a] & ~m
                    if z != cands[b] & ~m or cands[a] & m == cands[b] & m:
                        continue
                    seen = sorted(geo.peer_sets[a] & geo.peer_sets[b])
                    out = [(c, z.bit_length()) for c in seen if c != p and cands[c] & z]
                    if out:
                        yield self.make(board, eliminations=out, pattern=Pattern(
                            cells=((p, "pivot"), (a, "pincer"), (b, "pincer")),
                            values=(z.bit_length(),)))

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        (p,), (a, b) = step.pattern.cells_with("pivot"), step.pattern.cells_with("pincer")
        return (f"pivot {geo.cell_name(p)} with pincers {geo.cell_name(a)} and "
                f"{geo.cell_name(b)}")

    @staticmethod
    def teach(step: Step) -> str:
        geo = step.geo
        (p,), (a, b) = step.pattern.cells_with("pivot"), step.pattern.cells_with("pincer")
        (z,) = step.pattern.values
        cells = " and ".join(geo.cell_name(c) for c, _ in step.eliminations)
        return (f"The pivot {geo.cell_name(p)} has two candidates and sees both pincers "
                f"{geo.cell_name(a)} and {geo.cell_name(b)}.  Whichever value the pivot "
                f"takes, one of the pincers must be {geo.symbol(z)}, so {geo.symbol(z)} "
                f"cannot go in {cells}, which see both pincers.")


def hierarchy_path() -> Path:
    """The hierarchy file that places the XY-Wing after Swordfish."""
    return Path(str(resources.files(__name__).joinpath("hierarchy.toml")))
