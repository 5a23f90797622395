"""An independent check that what a step of the pattern path draws, lists
and says is true at its position (the board the step is taken on).

Read from the step's data and its words only, never from the family's code:

* every link (``pattern.arcs``, what the JSON's ``pattern.links`` and the
  drawing show): a strong link's two ends are the only places of its value
  in its unit (a grouped end: the unit's places all lie in the two groups),
  or the two values of a bivalue cell; a weak link's ends share a unit (or
  are two values of one cell); every end's candidate is there;
* every premise the text states: a candidate it names (``r4c9=8``,
  ``r7c89=4``) is there; ``rXcY holds only a and b`` / ``holds a or b`` /
  ``holds a, b or c``: those are the cell's candidates; "all of them can
  hold a and b": every cell named before it holds both.

:func:`check` raises AssertionError naming the step and what is false.
"""

from __future__ import annotations

import re

from pattern_shapes import check_arc

from grader.core.board import Board
from grader.core.steps import Step

_CAND = re.compile(r"(?<![\w<])r(\d+)c(\d+)=(\d)")
_ONLY = re.compile(r"(?<!\w)r(\d)c(\d) holds (?:only )?(\d)((?:, \d)*)(?: and | or )(\d)"
                   r"(?![\d,])")
_CAN_HOLD = re.compile(r"The cells ((?:r\dc\d(?:, | and )?)+) .*?all of them can hold (\d) and "
                       r"(\d)")
_CELL = re.compile(r"r(\d)c(\d)")


def _cells(rows: str, cols: str) -> list[int]:
    return [(int(r) - 1) * 9 + int(c) - 1 for r in rows for c in cols]


def _has(board: Board, cell: int, d: int) -> bool:
    return not board.values[cell] and bool(board.cands[cell] >> (d - 1) & 1)


def check(board: Board, step: Step, where: str = "") -> None:
    """``step``, taken on ``board``, draws, lists and says only what is true
    there (see the module's doc)."""
    label = f"{where}{step.name}: {step.summary()}"
    for arc in step.pattern.arcs:
        try:
            check_arc(board, arc)
        except AssertionError as e:
            raise AssertionError(f"{label}: link {e}") from None
    if step.branches or board.geo.n != 9:
        return  # a trial's lines speak of its branches' positions
    text = step.explain("teach") + "\n" + step.reason()
    for m in _CAND.finditer(text):
        d = int(m.group(3))
        for c in _cells(m.group(1), m.group(2)):
            assert _has(board, c, d), f"{label}: says {m.group(0)} but r{c // 9 + 1}c{c % 9 + 1} " \
                                      f"does not hold {d}"
    for m in _ONLY.finditer(text):
        c = (int(m.group(1)) - 1) * 9 + int(m.group(2)) - 1
        ds = {int(m.group(3)), int(m.group(5))} | {int(x) for x in re.findall(r"\d", m.group(4))}
        want = sum(1 << (d - 1) for d in ds)
        assert not board.values[c] and board.cands[c] == want, (
            f"{label}: says {m.group(0)} but the cell holds "
            f"{[d for d in range(1, 10) if board.cands[c] >> (d - 1) & 1]}")
    for m in _CAN_HOLD.finditer(text):
        a, b = int(m.group(2)), int(m.group(3))
        for r, c in _CELL.findall(m.group(1)):
            cell = (int(r) - 1) * 9 + int(c) - 1
            assert _has(board, cell, a) and _has(board, cell, b), (
                f"{label}: says r{r}c{c} can hold {a} and {b}")
