"""Bridge to the optional C accelerator :mod:`grader.kernel._expert` (9x9 only).

It runs the families of :mod:`grader.strategy.expert.walker` with the same scan
order, so it finds the same hints in the same order as the Python finders
(the tests compare both).  ``SUDOKU_GRADER_PURE=1`` (or
an engine whose kernel is the pure-Python one) turns it off with the other
accelerator.
"""

from __future__ import annotations

import importlib
from typing import Any

from grader.core.board import Board
from grader.kernel import c as native
from grader.strategy.expert.hint import Hint

_mod: Any
try:  # pragma: no cover - depends on the build
    _mod = importlib.import_module("grader.kernel._expert")
except ImportError:  # pragma: no cover
    _mod = None

#: Hint names by the accelerator's codes (see the enum in grader/_expert.c).
NAMES = (
    "skyscraper", "two-string kite", "turbot fish", "strong-link chain (3 links)",
    "strong-link chain (4 links)", "XY-Wing", "XYZ-Wing", "unique rectangle type 1",
    "unique rectangle type 2", "unique rectangle type 3", "unique rectangle type 4", "jellyfish",
    "WXYZ-Wing", "VWXYZ-Wing", "UVWXYZ-Wing", "BUG+1", "aligned pair exclusion", "X-chain",
    "forcing chain", "Y-cycle", "Nishio", "cell forcing chains", "region forcing chains",
    "dynamic contradiction chain", "dynamic cell forcing chains", "dynamic region forcing chains",
    "TUVWXYZ-Wing", "naked quad", "hidden quad", "aligned triplet exclusion",
    "BUG type 2", "unique loop type 1", "unique loop type 2", "unique loop type 4",
    "empty rectangle",
)


def available(board: Board, kernel: str | None = None) -> bool:
    """Whether the accelerator is built, fits the board (9x9) and is in use:
    by the kernel named (``"c"`` or ``"python"``: an engine's choice), or by
    the default kernel when None."""
    in_use = native.available() if kernel is None else kernel == "c"
    return _mod is not None and in_use and board.geo.a == 3 and board.geo.b == 3


def first_family(board: Board, first: int = 0, last: int = 21,
                 ) -> tuple[int, list[Hint]] | None:
    """(C family number, hints) of the first family with a hint among the
    accelerator's families ``first`` to ``last - 1``, or None."""
    got = _mod.first_family(board.cands, first, last)
    if got is None:
        return None
    fam, raw = got
    return fam, [Hint(NAMES[name], rating, pl, el, cells, links)
                 for name, rating, pl, el, cells, links in raw]
