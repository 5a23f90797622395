"""The ``--where`` language: a small, safe filter over the result fields (no ``eval``).

``rating == "expert"``, ``level >= 9 and depth > 1``, ``"x-wing" in techniques``,
``verdict != "ok"``, ``rating in ["expert", "very difficult"]``, ``not (score < 50)``.
:class:`Where` parses an expression once into nested closures; applying it
to a result is :mod:`grader.bulk.select`'s business.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from grader.bulk.codec import Result
from grader.core import fields
from grader.core.errors import GraderError


class WhereError(GraderError, ValueError):
    """A --where expression that cannot be parsed or evaluated."""


_TOKEN = re.compile(r"""\s*(?:
    (?P<num>-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)
  | (?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
  | (?P<op>==|!=|<=|>=|<|>|=|\(|\)|\[|\]|,)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
)""", re.VERBOSE)

#: --where: the longest number, and the deepest nesting of parentheses, lists
#: and ``not`` (deeper is refused with a message, never a RecursionError).
MAX_NUMBER_CHARS = 100
MAX_WHERE_DEPTH = 50

#: Fields a --where expression can name besides the input's own columns.
WHERE_FIELDS = fields.WHERE_FIELDS
_MISSING = object()


def _tokens(text: str) -> list[tuple[str, Any]]:
    pos = 0
    out: list[tuple[str, Any]] = []
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise WhereError(f"cannot read {text[pos:].strip()[:20]!r} (at character {pos + 1})")
        pos = m.end()
        kind = m.lastgroup
        val = m.group(kind)  # type: ignore[arg-type]
        if kind == "num":
            if len(val) > MAX_NUMBER_CHARS:
                raise WhereError(f"number too long: {val[:20]}... (at character {m.start() + 1})")
            out.append(("lit", float(val) if any(c in val for c in ".eE") else int(val)))
        elif kind == "str":
            body = val[1:-1]
            out.append(("lit", re.sub(r"\\(.)", r"\1", body)))
        elif kind == "name":
            low = val.lower()
            if low in ("and", "or", "not", "in"):
                out.append(("kw", low))
            elif low in ("true", "false"):
                out.append(("lit", low == "true"))
            elif low in ("null", "none"):
                out.append(("lit", None))
            else:
                out.append(("name", val))
        else:
            out.append(("op", "==" if val == "=" else val))
    return out


Getter = Callable[[Result], Any]


def _num(v: Any) -> Any:
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return v
    return v


def _compare(op: str, x: Any, y: Any) -> bool:
    if op == "in":
        if y is None:
            return False
        try:
            return x in y
        except TypeError:
            return False
    if isinstance(x, (int, float)) != isinstance(y, (int, float)):
        x, y = _num(x), _num(y)
    if op == "==":
        return bool(x == y)
    if op == "!=":
        return bool(x != y)
    if x is None or y is None:
        return False
    try:
        if op == "<":
            return bool(x < y)
        if op == "<=":
            return bool(x <= y)
        if op == ">":
            return bool(x > y)
        return bool(x >= y)
    except TypeError:
        return False


class Where:
    """A small, safe filter language over the result fields (no ``eval``).

    ``rating == "expert"``, ``level >= 9 and depth > 1``,
    ``"x-wing" in techniques``, ``verdict != "ok"``,
    ``rating in ["expert", "very difficult"]``, ``not (score < 50)``.
    Names are result fields (``index line puzzle size verdict message level
    rating score depth steps techniques hardest se se_pattern seconds``, ``givens``,
    ``source``) or the input's extra columns; ``null`` is a missing value."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.pos = 0
        self.depth = 0
        self.columns: frozenset[str] = frozenset()
        if not self.toks:
            raise WhereError("empty expression")
        self.fn = self._or()
        if self.pos != len(self.toks):
            raise WhereError(f"unexpected {self._show(self.toks[self.pos])}")

    @staticmethod
    def _show(tok: tuple[str, Any]) -> str:
        return repr(tok[1])

    def unknown_names(self, columns: Iterable[str]) -> list[str]:
        """The names in the expression that are neither result fields nor among
        ``columns`` (the input's own).  The columns are then known: a record
        without one of them reads it as null."""
        self.columns = frozenset(columns)
        names = [v for k, v in self.toks if k == "name"]
        return [n for n in dict.fromkeys(names)
                if n not in WHERE_FIELDS and n not in self.columns]

    def _deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_WHERE_DEPTH:
            raise WhereError(f"nested too deeply (more than {MAX_WHERE_DEPTH} levels of "
                             f"parentheses, lists or 'not')")

    def _peek(self) -> tuple[str, Any] | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def _take(self, kind: str, val: Any = None) -> bool:
        t = self._peek()
        if t is not None and t[0] == kind and (val is None or t[1] == val):
            self.pos += 1
            return True
        return False

    def _or(self) -> Callable[[Result], bool]:
        parts = [self._and()]
        while self._take("kw", "or"):
            parts.append(self._and())
        if len(parts) == 1:
            return parts[0]
        return lambda d: any(p(d) for p in parts)

    def _and(self) -> Callable[[Result], bool]:
        parts = [self._not()]
        while self._take("kw", "and"):
            parts.append(self._not())
        if len(parts) == 1:
            return parts[0]
        return lambda d: all(p(d) for p in parts)

    def _not(self) -> Callable[[Result], bool]:
        if self._take("kw", "not"):
            self._deeper()
            inner = self._not()
            self.depth -= 1
            return lambda d: not inner(d)
        return self._cmp()

    def _cmp(self) -> Callable[[Result], bool]:
        t = self._peek()
        if t == ("op", "("):
            # a parenthesised condition (a value in parentheses is not needed)
            self.pos += 1
            self._deeper()
            inner = self._or()
            self.depth -= 1
            if not self._take("op", ")"):
                raise WhereError("missing ')'")
            return inner
        left = self._value()
        t = self._peek()
        op: str | None = None
        negate = False
        if t is not None and t[0] == "op" and t[1] in ("==", "!=", "<", "<=", ">", ">="):
            op = t[1]
            self.pos += 1
        elif t == ("kw", "in"):
            op = "in"
            self.pos += 1
        elif t == ("kw", "not") and self.pos + 1 < len(self.toks) \
                and self.toks[self.pos + 1] == ("kw", "in"):
            op, negate = "in", True
            self.pos += 2
        if op is None:
            return lambda d: bool(left(d))
        right = self._value()
        o = op
        if negate:
            return lambda d: not _compare(o, left(d), right(d))
        return lambda d: _compare(o, left(d), right(d))

    def _value(self) -> Getter:
        t = self._peek()
        if t is None:
            raise WhereError(f"the expression ends too early: {self.text!r}")
        self.pos += 1
        kind, val = t
        if kind == "lit":
            return lambda d: val
        if kind == "name":
            name = val

            def get(d: Result) -> Any:
                v = d.get(name, _MISSING)
                if v is _MISSING:
                    if name == "givens":
                        p = d.get("puzzle") or ""
                        return sum(1 for ch in p if ch not in ".0") if d.get("size") else None
                    if name in WHERE_FIELDS or name in self.columns:
                        return None
                    raise WhereError(f"unknown field {name!r} (fields: "
                                     f"{', '.join(WHERE_FIELDS)}, or a column of the input)")
                return v

            return get
        if t == ("op", "["):
            self._deeper()
            items: list[Getter] = []
            if not self._take("op", "]"):
                while True:
                    items.append(self._value())
                    if self._take("op", "]"):
                        break
                    if not self._take("op", ","):
                        raise WhereError("expected ',' or ']' in a list")
            self.depth -= 1
            return lambda d: [g(d) for g in items]
        raise WhereError(f"unexpected {self._show(t)}")

    def __call__(self, d: Result) -> bool:
        return bool(self.fn(d))
