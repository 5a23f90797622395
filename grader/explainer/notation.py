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

from grader.explainer.choices import DEFAULT_NOTATION, NOTATIONS

#: the notation players use, every output's default
DEFAULT = DEFAULT_NOTATION

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


_REGION_BOOK = re.compile(r"\b(row|column|block) ([RCB])(\d+)\b")
_REGIONS_BOOK = re.compile(r"\b(rows|columns|blocks) ((?:[RCB]\d+(?:, | and )?)+)")
_CODE = re.compile(r"(?<![\w.])([RCB])(\d+)\b")
_KIND = {"R": "row", "C": "column", "B": "box"}
_REGION_COMPACT = re.compile(r"\b(row|column|box) (\d+)\b(?! (?:and|or) \d)")


def compact(text: str, html: bool = False) -> str:
    """``text`` with the book's notation rewritten compactly; ``html``: the
    text is HTML (``<-`` is written ``&lt;-``, and ``<>`` is written
    escaped).  A region is ``row 3``, ``column 2``, ``box 1``."""
    text = _REGION_BOOK.sub(
        lambda m: f"{'box' if m.group(1) == 'block' else m.group(1)} {m.group(3)}", text)
    text = _REGIONS_BOOK.sub(
        lambda m: ("boxes" if m.group(1) == "blocks" else m.group(1)) + " "
        + re.sub(r"[RCB](\d+)", r"\1", m.group(2)), text)
    text = _CODE.sub(lambda m: f"{_KIND[m.group(1)]} {m.group(2)}", text)
    text = _RUN.sub(lambda m: _run(m, html), text)
    return _BARE.sub(lambda m: f"r{m.group(1)}c{m.group(2)}", text)


# -- compact to the book's ----------------------------------------------------
_GROUP = r"r(\d+)c(\d+)"
_C_ELIM = re.compile(rf"(?<![\w]){_GROUP}((?:,{_GROUP})*)(?:<>|&lt;&gt;)([1-9A-Z@]+)(?![\w])")
_C_ON = re.compile(rf"(?<![\w]){_GROUP}=([1-9A-Z@])(?![\w])")
_C_BARE = re.compile(rf"(?<![\w]){_GROUP}(?![\w])")


def _group_cells(rows: str, cols: str) -> list[tuple[int, int]]:
    """The cells of ``r79c9`` (a 9x9 grid's digits merged) or of ``r10c11``
    (a larger grid's cell: a number with a 0 is read whole)."""
    if "0" in rows + cols or len(rows) > 1 and len(cols) > 1:
        return [(int(rows), int(cols))]
    return [(int(r), int(c)) for r in rows for c in cols]


def _pair(r: int, c: int) -> str:
    return f"({r}, {c})"


def _cells_book(cells: list[tuple[int, int]]) -> str:
    return _pair(*cells[0]) if len(cells) == 1 else "{" + ", ".join(
        _pair(r, c) for r, c in cells) + "}"


def book(text: str, html: bool = False) -> str:
    """``text`` with the compact notation rewritten in the book's:
    ``r4c9=8`` is ``(4, 9) <- 8``, ``r4c46,r6c7<>8`` is ``(4, 4) != 8, (4,
    6) != 8, (6, 7) != 8``, a group ``r7c89=4`` is ``{(7, 8), (7, 9)} <- 4``,
    a bare ``r5c5`` is ``(5, 5)``.

    >>> book("r2c7<>38, r4c9=8 = r79c9=8; look at r5c5")
    '(2, 7) != 3, (2, 7) != 8, (4, 9) <- 8 = {(7, 9), (9, 9)} <- 8; look at (5, 5)'
    """
    arrow = "&lt;-" if html else "<-"
    text = _REGION_COMPACT.sub(
        lambda m: {"row": "row R", "column": "column C", "box": "block B"}[m.group(1)]
        + m.group(2), text)

    def elim(m: re.Match[str]) -> str:
        cells = _group_cells(m.group(1), m.group(2))
        for r, c in re.findall(_GROUP, m.group(3)):
            cells += _group_cells(r, c)
        return ", ".join(f"{_pair(r, c)} != {d}" for r, c in cells for d in m.group(6))

    text = _C_ELIM.sub(elim, text)
    text = _C_ON.sub(lambda m: f"{_cells_book(_group_cells(m.group(1), m.group(2)))} "
                               f"{arrow} {m.group(3)}", text)
    return _C_BARE.sub(lambda m: _cells_book(_group_cells(m.group(1), m.group(2))), text)


#: Sudoku Explainer's names of its chains, in title case ("Dynamic Cell
#: Forcing Chains (+ Forcing Chains)"); the other names are in sentence case
#: ("region forcing chains", "empty rectangle", "XY-Wing" keeps its letters)
_TITLED = re.compile(r"\bDynamic(?: (?:Cell|Region|Contradiction|Double))? Forcing Chains?"
                     r"(?: \(\+(?: (?:Multiple |Dynamic |Nested )*Forcing Chains)?\))?")


def cased(text: str) -> str:
    """``text`` with the chains' title-case names in sentence case, as every
    other name is written: ``dynamic cell forcing chains (+ forcing chains)``
    (JSON keeps the names as ``grade`` reports them)."""
    return _TITLED.sub(lambda m: m.group(0).lower(), text)


def shown(text: str, notation: str | None = None, html: bool = False,
          names: bool = True) -> str:
    """``text`` in ``notation``: every cell, candidate and conclusion in
    one notation, whichever its sentence was written in (None: as each
    sentence was written, the rules' in the book's and the patterns' in the
    compact notation; ``explain`` and the web page always choose one)."""
    if notation is None:
        return text
    if names:
        text = cased(text)
    if notation == "book":
        return book(text, html)
    if notation != "compact":
        raise ValueError(f"unknown notation {notation!r} (one of {', '.join(NOTATIONS)})")
    return compact(text, html)
