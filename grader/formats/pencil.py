"""Pencil marks: a grid given by its candidates.

* A candidate grid as in the book's marked figures: n rows of n cells, each
  cell the symbols of its candidates (``125 3 789 ...``); a cell of one
  symbol is a placed value, ``.`` or ``0`` an empty cell whose candidates are
  everything its placed peers allow.  ``|`` and box-drawing lines are ignored.
  Several grids are separated by blank lines.
* The candidate string of other tools: n**3 characters (729 for 9x9), n per
  cell in cell order, the k-th being symbol k when it is a candidate and
  ``.`` or ``0`` when it is not; a cell with a single candidate is a placed
  value.  One string per line.

A malformed one is a :class:`~grader.formats.MalformedGrid` naming where.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from grader.core.board import Board
from grader.core.geometry import EMPTY_SYMBOLS, SUPPORTED_SIZES, Geometry, default_box, geometry
from grader.formats.grid import MalformedGrid

#: n**3 lengths read as candidate strings in ``auto`` mode (64 = 4**3 is an
#: 8x8 grid's length too: that one needs ``--input-format pencil``).
_CAND_LENGTHS = {n ** 3: n for n in SUPPORTED_SIZES if n != 4}
_SEPARATORS = re.compile(r"[|\u2500-\u257f]")
_SEP_LINE = re.compile(r"^[\s\-+=*:|\u2500-\u257f]*$")

def symbol_value(geo: Geometry, ch: str) -> int | None:
    i = geo.symbols.find(ch.upper())
    return i + 1 if i >= 0 else None


def _pencil_board(geo: Geometry, cells: list[str], where: str) -> Board:
    """A board from per-cell candidate texts (one symbol = placed value)."""
    n = geo.n
    values = [0] * geo.ncells
    cands = [0] * geo.ncells
    for c, text in enumerate(cells):
        if text in EMPTY_SYMBOLS:
            cands[c] = geo.full
            continue
        mask = 0
        for ch in text:
            v = symbol_value(geo, ch)
            if v is None:
                raise MalformedGrid(
                    f"{where}: cell {geo.cell_name(c)}: {ch!r} is not a symbol of a {n}x{n} grid")
            mask |= 1 << (v - 1)
        if mask.bit_count() == 1:
            values[c] = mask.bit_length()
        else:
            cands[c] = mask
    # a placed value is no candidate of its peers (pencil marks are often stale)
    for c in range(geo.ncells):
        if values[c]:
            nb = ~(1 << (values[c] - 1))
            for p in geo.peers[c]:
                cands[p] &= nb
    board = Board.from_candidates(geo, cands, values)
    dup = board.conflicts()
    if dup is not None:
        raise MalformedGrid(f"{where}: {dup.reason}")
    return board


def _geo_for(n: int, box: tuple[int, int] | None) -> Geometry:
    if box is not None:
        if box[0] * box[1] != n:
            raise MalformedGrid(f"a {n}x{n} grid does not have {box[0]}x{box[1]} blocks")
        return geometry(*box)
    return geometry(*default_box(n))


def looks_like_candidate_string(token: str, n: int) -> bool:
    """n**3 characters, each position k of a cell holding symbol k+1 or empty."""
    if len(token) != n ** 3:
        return False
    syms = geometry(*default_box(n)).symbols
    for p, ch in enumerate(token):
        if ch not in EMPTY_SYMBOLS and ch.upper() != syms[p % n]:
            return False
    return True


def parse_candidate_string(token: str, box: tuple[int, int] | None = None,
                           where: str = "<argument>") -> Board:
    """A board from an n**3-character candidate string."""
    n = round(len(token) ** (1 / 3))
    if n ** 3 != len(token) or n not in SUPPORTED_SIZES:
        raise MalformedGrid(f"{where}: a candidate string has n**3 characters "
                           f"(729 for 9x9), not {len(token)}")
    geo = _geo_for(n, box)
    cells = []
    for c in range(geo.ncells):
        chunk = token[c * n:(c + 1) * n]
        text = "".join(ch for k, ch in enumerate(chunk) if ch not in EMPTY_SYMBOLS)
        for k, ch in enumerate(chunk):
            if ch not in EMPTY_SYMBOLS and ch.upper() != geo.symbols[k]:
                raise MalformedGrid(
                    f"{where}: character {c * n + k + 1} ({ch!r}, cell {geo.cell_name(c)}) should "
                    f"be {geo.symbols[k]} or '.'")
        if not text:
            raise MalformedGrid(f"{where}: cell {geo.cell_name(c)} has no candidate")
        cells.append(text)
    return _pencil_board(geo, cells, where)


def _pencil_rows(lines: list[str]) -> list[list[str]]:
    rows = []
    for ln in lines:
        if _SEP_LINE.match(ln):
            continue
        toks = _SEPARATORS.sub(" ", ln).split()
        if toks:
            rows.append(toks)
    return rows


def looks_like_pencil_grid(lines: list[str]) -> bool:
    """n rows of n cells, some cell with several candidates."""
    rows = _pencil_rows(lines)
    n = len(rows)
    if n not in SUPPORTED_SIZES or any(len(r) != n for r in rows):
        return False
    syms = geometry(*default_box(n)).symbols
    multi = False
    for r in rows:
        for t in r:
            if t in EMPTY_SYMBOLS:
                continue
            if any(ch.upper() not in syms for ch in t):
                return False
            multi = multi or len(t) > 1
    return multi


def parse_pencil_grid(lines: list[str], box: tuple[int, int] | None = None,
                      where: str = "<argument>") -> Board:
    rows = _pencil_rows(lines)
    n = len(rows)
    if n not in SUPPORTED_SIZES:
        raise MalformedGrid(f"{where}: a pencil-mark grid has n rows of n cells; found {n} rows")
    for i, r in enumerate(rows, start=1):
        if len(r) != n:
            raise MalformedGrid(f"{where}: row {i} of the pencil-mark grid has {len(r)} cells, "
                               f"expected {n}")
    geo = _geo_for(n, box)
    return _pencil_board(geo, [t for r in rows for t in r], where)


def _blocks(text: str) -> Iterator[tuple[int, list[str]]]:
    """Groups of non-blank lines with their first line number."""
    group: list[str] = []
    start = 0
    for no, ln in enumerate(text.splitlines(), start=1):
        if ln.strip() and not ln.lstrip().startswith("#"):
            if not group:
                start = no
            group.append(ln)
        elif group:
            yield start, group
            group = []
    if group:
        yield start, group


def _candidate_tokens(text: str) -> Iterator[tuple[int, str]]:
    for no, ln in enumerate(text.splitlines(), start=1):
        for tok in ln.split():
            if len(tok) in _CAND_LENGTHS or len(tok) == 64:
                yield no, tok


def pencil_positions(text: str, source: str, box: tuple[int, int] | None,
                      forced: bool) -> list[tuple[int, Board]] | None:
    """Every pencil-mark position of ``text``, or None when it has none."""
    found: list[tuple[int, Board]] = []
    for no, tok in _candidate_tokens(text):
        n = _CAND_LENGTHS.get(len(tok), 4 if len(tok) == 64 and forced else 0)
        if n and (looks_like_candidate_string(tok, n) or forced):
            found.append((no, parse_candidate_string(tok, box, f"{source}, line {no}")))
    if found:
        return found
    for no, lines in _blocks(text):
        if looks_like_pencil_grid(lines) or forced:
            found.append((no, parse_pencil_grid(lines, box, f"{source}, line {no}")))
    return found or None
