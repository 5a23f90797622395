"""Level 3 and 4: candidate lines (rules 2.3/2.4 and the line-to-block
variant) and multiple lines (rule 2.5, rows and columns)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from grader.core import phrases
from grader.core.board import Board
from grader.core.geometry import BLOCK, ROW
from grader.core.rule import Rule
from grader.core.steps import Pattern, Step, absent_outside
from grader.kernel.c import Family, NativeRule


class CandidateLines(Rule):
    """Block B, value v: if the cells of B that admit v lie in one line L,
    v is eliminated from L outside B (rules 2.3, 2.4).  Variant (book's
    Figure 2.7): line L, value v: if the cells of L that admit v lie in one
    block B, v is eliminated from B outside L.

    Order: blocks then rows then columns; values ascending; for a block, the
    row case before the column case."""

    family = "candidate-lines"
    default_name = "candidate lines"
    default_reference = "rules 2.3, 2.4"

    def find(self, board: Board) -> Iterator[Step]:
        geo = board.geo
        n = geo.n
        cands = board.cands
        row_of, col_of, blk_of = geo.cell_row, geo.cell_col, geo.cell_block
        # block -> line (pointing)
        for k in range(n):
            breg = 2 * n + k
            bcells = geo.blocks[k]
            union = 0
            for c in bcells:
                union |= cands[c]
            while union:
                bit = union & -union
                union ^= bit
                pos = [c for c in bcells if cands[c] & bit]
                for line_of, lines, offset in ((row_of, geo.rows, 0), (col_of, geo.cols, n)):
                    li = line_of[pos[0]]
                    if all(line_of[c] == li for c in pos):
                        elim = [c for c in lines[li] if cands[c] & bit and blk_of[c] != k]
                        if elim:
                            yield self._step(board, breg, offset + li, bit.bit_length(), pos,
                                             elim, "pointing")
        # line -> block (the variant)
        for lreg in range(2 * n):
            lcells = geo.regions[lreg]
            union = 0
            for c in lcells:
                union |= cands[c]
            while union:
                bit = union & -union
                union ^= bit
                pos = [c for c in lcells if cands[c] & bit]
                k = blk_of[pos[0]]
                if all(blk_of[c] == k for c in pos):
                    lset = geo.region_set[lreg]
                    elim = [c for c in geo.blocks[k] if cands[c] & bit and c not in lset]
                    if elim:
                        yield self._step(board, 2 * n + k, lreg, bit.bit_length(), pos, elim,
                                         "claiming")

    def native(self) -> NativeRule:
        return NativeRule.of(Family.LINES)

    @staticmethod
    def support(step: Step) -> list[tuple[int, int]]:
        """The value is absent from the first region outside the second."""
        geo = step.geo
        v = step.pattern.values[0]
        (src, _), (dst, _) = step.pattern.regions
        inside = geo.region_set[dst]
        return [(c, v) for c in geo.regions[src] if c not in inside]

    def _step(self, board: Board, block: int, line: int, v: int, pos: list[int],
              elim: list[int], variant: str) -> Step:
        first, second = ("block", "line") if variant == "pointing" else ("line", "block")
        regions = ((block, first), (line, second)) if variant == "pointing" else (
            (line, first), (block, second))
        return self.make(
            board,
            eliminations=tuple((c, v) for c in elim),
            pattern=Pattern(
                cells=tuple((c, "base") for c in pos),
                regions=regions,
                values=(v,),
            ),
        )

    @staticmethod
    def common_name(step: Step) -> str:
        """Pointing (a block confines a value to a line), or claiming (a line
        confines it to a block)."""
        return "pointing" if step.pattern.regions[0][1] == "block" else "claiming"

    @staticmethod
    def where(step: Step) -> str:
        geo = step.geo
        src = step.pattern.regions[0][0]
        other = "the lines through it" if geo.region_kind[src] == BLOCK else "the blocks it crosses"
        return (f"look at {geo.region_long_name(src)} and {other}: one value is confined to their "
                f"intersection")

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        v = geo.symbol(step.pattern.values[0])
        (src, _), (dst, _) = step.pattern.regions
        if geo.region_kind[src] == BLOCK:
            return (f"in block {geo.region_name(src)}, {v} can only be in "
                    f"{geo.region_long_name(dst)}, so not elsewhere in {geo.region_name(dst)}")
        return (f"in {geo.region_long_name(src)}, {v} can only be in block "
                f"{geo.region_name(dst)}, so not elsewhere in {geo.region_name(dst)}")

    @staticmethod
    def teach(step: Step) -> str:
        geo = step.geo
        v = geo.symbol(step.pattern.values[0])
        (src, _), (dst, _) = step.pattern.regions
        sname, dname = geo.region_name(src), geo.region_name(dst)
        base = step.pattern.cells_with("base")
        elim = phrases.effects(geo, eliminations=step.eliminations)
        which = "Since that cell holds" if len(base) == 1 else "Whichever of them holds"
        lie = ("which lies" if len(base) == 1 else
               f"which {phrases.all_word(len(base))} lie")
        return (f"In {geo.region_long_name(src)}, {v} can only go in "
                f"{phrases.cells(geo, base, 'or')}, {lie} in "
                f"{geo.region_long_name(dst)}. {which} the {v} of {sname}, it is "
                f"also the {v} of {dname}, so {v} cannot go anywhere else in {dname}: {elim}.")


class MultipleLines(Rule):
    """Rule 2.5 (and its column form), for every block shape: in a band
    (stack), if ``k`` blocks confine value v to the same ``k`` rows
    (columns), v is eliminated from those rows (columns) in the band's other
    blocks.  On 9x9 this is the book's two blocks / two rows.

    Order: bands then stacks; values ascending; block sets in lexicographic
    order, smallest first."""

    family = "multiple-lines"
    default_name = "multiple lines"
    default_reference = "rule 2.5"

    def find(self, board: Board) -> Iterator[Step]:
        geo = board.geo
        n = geo.n
        cands = board.cands
        for groups, line_of, is_row in ((geo.bands, geo.cell_row, True),
                                        (geo.stacks, geo.cell_col, False)):
            for group in groups:
                nblk = len(group)
                if nblk < 3:
                    continue
                for v in range(1, n + 1):
                    bit = 1 << (v - 1)
                    lines_in: list[int] = []  # per block: bitmask of lines holding v
                    for k in group:
                        m = 0
                        for c in geo.blocks[k]:
                            if cands[c] & bit:
                                m |= 1 << line_of[c]
                        lines_in.append(m)
                    for size in range(2, nblk):
                        for combo in combinations(range(nblk), size):
                            union = 0
                            ok = True
                            for i in combo:
                                if not lines_in[i]:
                                    ok = False
                                    break
                                union |= lines_in[i]
                            if not ok or union.bit_count() != size:
                                continue
                            elim = []
                            for i in range(nblk):
                                if i in combo:
                                    continue
                                for c in geo.blocks[group[i]]:
                                    if cands[c] & bit and union >> line_of[c] & 1:
                                        elim.append(c)
                            if elim:
                                yield self._step(board, [group[i] for i in combo], union, v,
                                                 sorted(elim), is_row)

    def native(self) -> NativeRule:
        return NativeRule.of(Family.MULTIPLE_LINES)

    @staticmethod
    def support(step: Step) -> list[tuple[int, int]]:
        """The value is absent from the blocks outside the lines."""
        return absent_outside(step, "block", "line")

    def _step(self, board: Board, blocks: list[int], lines: int, v: int, elim: list[int],
              is_row: bool) -> Step:
        geo = board.geo
        n = geo.n
        bit = 1 << (v - 1)
        line_ids = [i for i in range(n) if lines >> i & 1]
        line_regs = [i if is_row else n + i for i in line_ids]
        base = [c for k in blocks for c in geo.blocks[k] if board.cands[c] & bit]
        return self.make(
            board,
            eliminations=tuple((c, v) for c in elim),
            pattern=Pattern(
                cells=tuple((c, "base") for c in sorted(base)),
                regions=tuple((2 * n + k, "block") for k in blocks)
                + tuple((r, "line") for r in line_regs),
                values=(v,),
            ),
        )

    @staticmethod
    def where(step: Step) -> str:
        geo = step.geo
        blocks = step.pattern.regions_with("block")
        lines = step.pattern.regions_with("line")
        kind = "rows" if geo.region_kind[lines[0]] == ROW else "columns"
        group = "band" if kind == "rows" else "stack"
        k = geo.cell_block[geo.regions[blocks[0]][0]]
        members = next(g for g in (geo.bands if kind == "rows" else geo.stacks) if k in g)
        blocks_text = phrases.regions(geo, [2 * geo.n + i for i in members])
        return (f"look at the {group} of blocks {blocks_text}: "
                f"a value is confined to the same {kind} in several of them")

    @staticmethod
    def summarize(step: Step) -> str:
        geo = step.geo
        v = geo.symbol(step.pattern.values[0])
        blocks = [geo.region_name(r) for r in step.pattern.regions_with("block")]
        lines = [geo.region_name(r) for r in step.pattern.regions_with("line")]
        kind = "rows" if lines[0].startswith("R") else "columns"
        return (f"in blocks {', '.join(blocks)}, {v} is confined to {kind} {', '.join(lines)}, "
                f"so not in those {kind} of the other blocks")

    @staticmethod
    def teach(step: Step) -> str:
        geo = step.geo
        n = geo.n
        v = geo.symbol(step.pattern.values[0])
        blocks = step.pattern.regions_with("block")
        lines = step.pattern.regions_with("line")
        is_row = geo.region_kind[lines[0]] == 0
        kind, group = ("row", "band") if is_row else ("column", "stack")
        others = sorted({2 * n + geo.cell_block[c] for c, _ in step.eliminations})
        idx = {geo.region_index[r] for r in lines}
        rest = sorted({i for r in others
                       for i in (geo.block_rows if is_row else geo.block_cols)[r - 2 * n]}
                      - idx)
        rest_regs = [i if is_row else n + i for i in rest]
        k = len(blocks)
        base = step.pattern.cells_with("base")
        elim = phrases.effects(geo, eliminations=step.eliminations)
        goes = (f"must therefore go in {kind} "
                f"{phrases.join_and([geo.region_name(r) for r in rest_regs], 'or')}"
                if rest_regs else f"has no {kind} left")
        return (f"In blocks {phrases.regions(geo, blocks)} (one {group}), {v} can only go in "
                f"{kind}s {phrases.regions(geo, lines)} (cells {phrases.cells(geo, base)}). "
                f"Each of these {k} blocks needs its own {v}, and two {v}s never share a {kind}, "
                f"so between them they take the {v}s of {kind}s {phrases.regions(geo, lines)}. "
                f"In {phrases.plural('block', len(others))} {phrases.regions(geo, others)} the "
                f"{v} {goes}, so {v} "
                f"leaves the cells of {phrases.regions(geo, others)} in {kind}s "
                f"{phrases.regions(geo, lines)}: {elim}.")
