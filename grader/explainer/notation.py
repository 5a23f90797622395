"""The notation of the sentences: the book's, or the compact one players write.

The rules write in the book's notation: a cell ``(2, 7)``, a placement
``(4, 9) <- 8``, an elimination ``(2, 7) != 3``.  ``explain --notation
compact`` (and the API's ``notation="compact"``) rewrites every sentence of
every output as players write on forums: ``r2c7``, ``r4c9=8`` and, for a
list of eliminations, one group per set of digits with the cells of a row
merged (``(2, 7) != 3, (2, 7) != 8`` is ``r2c7<>38``; ``(4, 4) != 8, (4, 6)
!= 8, (6, 7) != 8`` is ``r4c46,r6c7<>8``).  The text is rewritten after it
is written, so plugins' sentences follow too.

>>> compact("so (4, 9) <- 8 and (2, 7) != 3, (2, 7) != 8; look at (5, 5)")
'so r4c9=8 and r2c7<>38; look at r5c5'
"""

from __future__ import annotations

import re

from grader.explainer.choices import NOTATIONS

_CELL = r"\((\d+), (\d+)\)"
_OP = r"(<-|&lt;-|!=)"
_SYM = r"([1-9A-Z@])"
_EFFECT = rf"(?<!\w){_CELL} {_OP} {_SYM}(?![\w])"
_ONE = re.compile(_EFFECT)
_RUN = re.compile(rf"{_EFFECT}(?:, {_EFFECT})*")
_BARE = re.compile(rf"(?<!\w){_CELL}")


def _cells(cells: list[tuple[int, int]]) -> str:
    """``r4c46,r6c7``: cells in order, those of one row merged (9x9 and
    smaller, where every row and column number is one digit)."""
    if any(r > 9 or c > 9 for r, c in cells):
        return ",".join(f"r{r}c{c}" for r, c in cells)
    rows: dict[int, list[int]] = {}
    for r, c in cells:
        rows.setdefault(r, []).append(c)
    return ",".join(f"r{r}c{''.join(str(c) for c in cs)}" for r, cs in rows.items())


def _run(match: re.Match[str], html: bool) -> str:
    """A list of effects, compact: placements one by one, then the
    eliminations grouped by their set of digits."""
    placed: list[str] = []
    digits: dict[tuple[int, int], str] = {}
    for m in _ONE.finditer(match.group(0)):
        r, c, op, sym = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
        if op == "!=":
            digits[(r, c)] = digits.get((r, c), "") + sym
        else:
            placed.append(f"r{r}c{c}={sym}")
    groups: dict[str, list[tuple[int, int]]] = {}
    for cell, ds in digits.items():
        groups.setdefault(ds, []).append(cell)
    ne = "&lt;&gt;" if html else "<>"
    return ", ".join(placed + [f"{_cells(cells)}{ne}{ds}" for ds, cells in groups.items()])


def compact(text: str, html: bool = False) -> str:
    """``text`` with the book's notation rewritten compactly; ``html``: the
    text is HTML (``<-`` is written ``&lt;-``, and ``<>`` is written
    escaped)."""
    text = _RUN.sub(lambda m: _run(m, html), text)
    return _BARE.sub(lambda m: f"r{m.group(1)}c{m.group(2)}", text)


def shown(text: str, notation: str = "book", html: bool = False) -> str:
    """``text`` in ``notation`` (``book``: as written)."""
    if notation == "book":
        return text
    if notation != "compact":
        raise ValueError(f"unknown notation {notation!r} (one of {', '.join(NOTATIONS)})")
    return compact(text, html)
