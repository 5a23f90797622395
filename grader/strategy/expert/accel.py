"""Bridge to the optional C accelerator :mod:`grader.kernel._expert` (9x9 only).

It runs the families of :mod:`grader.strategy.expert.walker` with the same scan
order, so it finds the same hints in the same order as the Python finders
(the tests compare both).  ``SUDOKU_GRADER_PURE=1`` (or
an engine whose kernel is the pure-Python one) turns it off with the other
accelerator.
"""

from __future__ import annotations

from typing import Any

from grader.core.board import Board
from grader.core.table import NativeBuildError
from grader.kernel import c as native
from grader.strategy.expert.hint import Hint

_mod: Any = native.optional_module("_expert")

#: Hint names by the accelerator's codes (the enum of the generated
#: grader/kernel/_families.h): set by :func:`bind` from the declarations.
NAMES: tuple[str, ...] = ()


def bind(names: tuple[str, ...], table: str) -> None:
    """Take the hint names by code from the families' declarations, after
    checking that the built module was generated from the same declarations
    (its ``TABLE``); a module built from others raises NativeBuildError."""
    global NAMES
    if _mod is not None and getattr(_mod, "TABLE", None) != table:
        where = getattr(_mod, "__file__", None) or "grader.kernel._expert"
        raise NativeBuildError(
            f"{where} was built from other declarations of the expert families than "
            "rules/patterns/ holds now (their FAMILIES and the sudoku_grader.patterns entry "
            "points): rebuild it with `pip install -e .` (setup.py writes "
            "grader/kernel/_families.h from them)")
    NAMES = names


def available(board: Board, kernel: str | None = None) -> bool:
    """Whether the accelerator is built, fits the board (9x9) and is in use:
    by the kernel named (``"c"`` or ``"python"``: an engine's choice), or by
    the default kernel when None."""
    in_use = native.available() if kernel is None else kernel == "c"
    return _mod is not None and in_use and board.geo.a == 3 and board.geo.b == 3


def first_family(board: Board, first: int, last: int) -> tuple[int, list[Hint]] | None:
    """(C family number, hints) of the first family with a hint among the
    accelerator's families ``first`` to ``last - 1``, or None."""
    got = _mod.first_family(board.cands, first, last)
    if got is None:
        return None
    fam, raw = got
    return fam, [Hint(NAMES[name], rating, pl, el, cells, links)
                 for name, rating, pl, el, cells, links in raw]
