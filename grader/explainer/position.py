"""Starting positions: a grid, a grid with pencil marks, or a grid plus the
moves already made, so a player can ask "what next from here".

Pencil-mark inputs (``--input-format pencil``, or detected automatically)
are read by :mod:`grader.formats.pencil`: a candidate grid (n rows of n
cells, each the symbols of its candidates) or a candidate string (n**3
characters).

Moves (``--moves``): placements ``r1c5=9``, ``(1, 5) <- 9``, ``R1C5:9`` and
eliminations ``r1c5!=9``, ``(1, 5) != 9``, separated by spaces, commas or
semicolons, applied in order to the grid.
"""

from __future__ import annotations

import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from grader.core.board import Board
from grader.explainer.choices import INPUT_FORMATS
from grader.explainer.core import ExplainError, UsageError
from grader.formats import (
    BINARY_SNIFF_BYTES,
    InputError,
    MalformedGrid,
    Record,
    iter_text,
    looks_like_grid_argument,
)
from grader.formats.decode import binary_error, bom_encoding
from grader.formats.pencil import pencil_positions, symbol_value

_MOVE = re.compile(
    r"(?:[rR](?P<r1>\d+)\s*[cC](?P<c1>\d+)|\(\s*(?P<r2>\d+)\s*,\s*(?P<c2>\d+)\s*\))"
    r"\s*(?P<op><-|!=|<>|=|:)\s*(?P<v>[0-9A-Za-z])")


@dataclass
class Position:
    """A starting position and where it came from."""

    board: Board
    givens: frozenset[int]
    source: str
    line: int
    pencil: bool = False

    @property
    def where(self) -> str:
        return f"{self.source}, line {self.line}"


def _decoded(data: bytes, source: str) -> str:
    """The text of an input: binary data is refused; a line that is not UTF-8
    keeps its place (its bad bytes become U+FFFD, so only that grid is
    malformed)."""
    encoding = bom_encoding(data)
    if encoding is not None:  # UTF-16 or UTF-32 with its mark (Windows' "Unicode")
        return data.decode(encoding, errors="replace")
    at = data.find(b"\0", 0, BINARY_SNIFF_BYTES)
    if at >= 0:
        raise binary_error(source, data[:BINARY_SNIFF_BYTES], at + 1)
    return data.decode("utf-8-sig", errors="replace")


def read_text(arg: str) -> tuple[str, str]:
    """(text, source name) of a file, ``-`` or an inline argument."""
    if arg == "-":
        buf = getattr(sys.stdin, "buffer", None)
        if buf is None:
            return sys.stdin.read(), "<stdin>"
        return _decoded(buf.read(), "<stdin>"), "<stdin>"
    path = Path(arg)
    try:
        exists = path.exists()
    except OSError:  # e.g. a 729-character argument is too long for a file name
        exists = False
    if exists:
        try:
            return _decoded(path.read_bytes(), arg), arg
        except InputError:
            raise
        except OSError as e:
            raise InputError(f"{arg}: cannot open: {e.strerror or e}") from e
    if "\n" not in arg and (arg.endswith((".txt", ".sdm", ".csv", ".jsonl")) or "/" in arg):
        raise InputError(f"{arg}: no such file")
    if len(arg.split()) == 1 and not looks_like_grid_argument(arg):
        # one word that is neither a file nor a grid: a file name, as grade reads it
        raise InputError(f"{arg}: cannot open: No such file or directory")
    return arg, "<argument>"


def load_position(arg: str, index: int = 1, box: tuple[int, int] | None = None,
                  input_format: str = "auto") -> Position | Record:
    """The ``index``-th position (1-based) of a file, ``-`` or an inline grid.

    Returns a :class:`Position`, or the :class:`~grader.formats.Record` of a
    grid that could not be read (its ``error`` says why).  Raises
    :class:`InputError` for unreadable input and :class:`ExplainError` for
    malformed pencil marks."""
    if input_format not in INPUT_FORMATS:
        raise ExplainError(f"unknown input format {input_format!r} "
                           f"(choose from {', '.join(INPUT_FORMATS)})")
    text, source = read_text(arg)
    return parse_position(text, source, index, box, input_format)


def parse_position(text: str, source: str = "<argument>", index: int = 1,
                   box: tuple[int, int] | None = None,
                   input_format: str = "auto") -> Position | Record:
    """The ``index``-th position (1-based) of ``text``, read as :func:`load_position`
    reads a file (pencil marks included); ``source`` names it in messages."""
    if input_format not in INPUT_FORMATS:
        raise ExplainError(f"unknown input format {input_format!r} "
                           f"(choose from {', '.join(INPUT_FORMATS)})")
    if input_format in ("auto", "pencil"):
        try:
            found = pencil_positions(text, source, box, forced=input_format == "pencil")
        except MalformedGrid as e:
            raise ExplainError(str(e)) from None
        if found is not None:
            if not 1 <= index <= len(found):
                raise InputError(f"{source}: no grid number {index} "
                                 f"(it has {len(found)})")
            line, board = found[index - 1]
            givens = frozenset(c for c, v in enumerate(board.values) if v)
            return Position(board, givens, source, line, pencil=True)
        if input_format == "pencil":
            raise ExplainError(f"{source}: no pencil-mark grid found")
    try:
        for rec in iter_text(io.StringIO(text), source, input_format, box):
            if rec.index == index:
                if rec.grid is None:
                    return rec
                board = Board.from_values(rec.grid.geo, rec.grid.values)
                givens = frozenset(c for c, v in enumerate(board.values) if v)
                return Position(board, givens, source, rec.line)
    except ValueError as e:
        raise ExplainError(f"{source}: {e}") from e
    raise InputError(f"{source}: no grid number {index}")


def apply_moves(board: Board, moves: str, solution: tuple[int, ...] | None = None) -> Board:
    """A copy of ``board`` with the placements and eliminations of ``moves``.

    Each move must be possible (an empty cell, a remaining candidate) and,
    when ``solution`` is given, agree with it; otherwise :class:`ExplainError`
    says which move and why."""
    geo = board.geo
    b = board.copy()
    text = moves.strip()
    pos = 0
    count = 0
    for m in _MOVE.finditer(text):
        gap = text[pos:m.start()].strip(" ,;\t\n")
        if gap:
            raise UsageError(f"--moves: cannot read {gap!r} (write r1c5=9, (1, 5) <- 9 or "
                               f"r1c5!=9)")
        pos = m.end()
        count += 1
        i = int(m.group("r1") or m.group("r2"))
        j = int(m.group("c1") or m.group("c2"))
        label = m.group(0)
        if not (1 <= i <= geo.n and 1 <= j <= geo.n):
            raise ExplainError(f"--moves: {label}: no cell ({i}, {j}) in a {geo.n}x{geo.n} grid")
        c = (i - 1) * geo.n + (j - 1)
        v = symbol_value(geo, m.group("v"))
        if v is None:
            raise ExplainError(f"--moves: {label}: {m.group('v')!r} is not a value of a "
                               f"{geo.n}x{geo.n} grid")
        sv, cn = geo.symbol(v), geo.cell_name(c)
        if b.values[c]:
            raise ExplainError(f"--moves: {label}: {cn} already holds {geo.symbol(b.values[c])}")
        if m.group("op") in ("!=", "<>"):
            if not b.has(c, v):
                raise ExplainError(f"--moves: {label}: {sv} is already not a candidate of {cn}")
            if solution is not None and solution[c] == v:
                raise ExplainError(f"--moves: {label}: {sv} is the solution's value of {cn}, "
                                   f"it cannot be eliminated")
            b.eliminate(c, v)
            continue
        if not b.has(c, v):
            clash = next((p for p in geo.peers[c] if b.values[p] == v), None)
            why = (f"{sv} is already in {geo.cell_name(clash)}" if clash is not None
                   else f"{sv} is no longer a candidate there")
            raise ExplainError(f"--moves: {label}: cannot place {sv} in {cn}: {why}")
        if solution is not None and solution[c] != v:
            raise ExplainError(f"--moves: {label}: {cn} <- {sv} is a mistake: the grid's solution "
                               f"has {geo.symbol(solution[c])} there")
        b.place(c, v)
    rest = text[pos:].strip(" ,;\t\n")
    if rest or (text and not count):
        raise UsageError(f"--moves: cannot read {rest or text!r} (write r1c5=9, (1, 5) <- 9 "
                           f"or r1c5!=9)")
    return b


def split_moves(moves: str) -> list[str]:
    """Each move of ``moves`` (as ``--moves`` reads them), written ``r1c5=9`` or
    ``r1c5!=9``; :class:`UsageError` for text that is not a move."""
    out, pos, text = [], 0, moves.strip()
    for m in _MOVE.finditer(text):
        if text[pos:m.start()].strip(" ,;\t\n"):
            break
        pos = m.end()
        op = "!=" if m.group("op") in ("!=", "<>") else "="
        out.append(f"r{m.group('r1') or m.group('r2')}c{m.group('c1') or m.group('c2')}"
                   f"{op}{m.group('v').upper()}")
    rest = text[pos:].strip(" ,;\t\n")
    if rest:
        raise UsageError(f"--moves: cannot read {rest!r} (write r1c5=9, (1, 5) <- 9 or r1c5!=9)")
    return out


def check_position(board: Board, solver: object = None) -> tuple[int, ...]:
    """The solution of a position, or :class:`ExplainError` saying why there
    is none to explain: repeated values, no solution or several, pencil marks
    that remove a value the solution needs."""
    from grader.kernel import solve

    geo = board.geo
    dup = board.conflicts()
    if dup is not None:
        raise ExplainError(f"contradiction: {dup.reason}")
    fn = solver if callable(solver) else solve
    res = fn(geo, tuple(board.values), 2)
    if res.count == 0:
        raise ExplainError("no-solution: the placed values admit no solution")
    if res.count > 1:
        raise ExplainError("multiple-solutions: the grid has more than one solution")
    sol = res.solution
    assert sol is not None
    for c in range(geo.ncells):
        if not board.values[c] and not board.cands[c] >> (sol[c] - 1) & 1:
            raise ExplainError(
                f"the pencil marks remove {geo.symbol(sol[c])} from {geo.cell_name(c)}, but the "
                f"solution needs it there")
    return sol
