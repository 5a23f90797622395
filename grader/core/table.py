"""What a rule tells the C accelerator about itself: a typed description.

:class:`NativeRule` is a :class:`Family` and named parameters.  The C module
exports the families and parameters it knows (``FAMILIES``);
:func:`check_tables` compares it with :data:`PARAMS` when :mod:`grader.kernel.c`
loads it and refuses a build that differs; a description asking for a
parameter the C side does not know, or a value outside its range, raises
:class:`NativeRuleError` (never a silent fallback).  This module loads no C
code: rules import it without loading the accelerator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from grader.core.errors import GraderError

#: Grids up to this side (the C candidate masks are 64 bits; see _native.c).
MAXN = 36
#: Rules in one compiled program.
MAXRULES = 32


class Family(StrEnum):
    """What the accelerator knows how to run."""

    SINGLES = "singles"
    LINES = "lines"
    MULTIPLE_LINES = "multiple-lines"
    NAKED_SUBSET = "naked-subset"
    HIDDEN_SUBSET = "hidden-subset"
    FISH = "fish"
    #: a rule written in Python, called back by the C fixpoint
    PYTHON = "python"
    #: trials: not rules of the compiled list, but its flags and depth
    DISJUNCTION = "disjunction"
    REDUCTIO = "reductio"


TRIAL_FAMILIES = (Family.DISJUNCTION, Family.REDUCTIO)

#: The parameters of each family, in the order C reads them, with their
#: ranges: ``(name, lowest, highest)``.  ``_native.c`` exports the same table.
PARAMS: dict[Family, tuple[tuple[str, int, int], ...]] = {
    Family.SINGLES: (("kind", 1, 2),),  # 1: single position, 2: single candidate
    Family.LINES: (),
    Family.MULTIPLE_LINES: (),
    Family.NAKED_SUBSET: (("min_size", 1, MAXN - 1), ("max_size", 0, MAXN - 1)),
    Family.HIDDEN_SUBSET: (("min_size", 1, MAXN - 1), ("max_size", 0, MAXN - 1)),
    Family.FISH: (("size", 1, MAXN - 1),),
    Family.PYTHON: (("index", 0, MAXRULES - 1), ("tag", 0, 0x3FFFFFFF)),
    Family.DISJUNCTION: (("depth", 1, 64), ("max_alternatives", 2, MAXN)),
    Family.REDUCTIO: (("depth", 1, 64), ("max_alternatives", 2, MAXN)),
}


class NativeRuleError(GraderError, ValueError):
    """A rule describes itself to the accelerator with a family or a
    parameter it does not know."""


class NativeBuildError(ImportError):
    """The built ``grader.kernel._native`` does not match this version of the code."""


@dataclass(frozen=True)
class NativeRule:
    """How a rule runs in the accelerator: a family and its parameters, by
    name (``NativeRule.of("fish", size=2)``).  Checked when made: every
    parameter of the family given, none other, each in its range."""

    family: Family
    params: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        try:
            fam = Family(self.family)
        except ValueError:
            known = ", ".join(f.value for f in Family)
            raise NativeRuleError(f"the C accelerator has no rule family {self.family!r} "
                                  f"(it knows: {known})") from None
        object.__setattr__(self, "family", fam)
        spec = PARAMS[fam]
        names = [n for n, _, _ in spec]
        given = dict(self.params)
        for name in given:
            if name not in names:
                raise NativeRuleError(
                    f"the C accelerator does not know the parameter {name!r} of the rule "
                    f"family {fam.value!r} (it knows: {', '.join(names) or 'none'})")
        for name, lo, hi in spec:
            if name not in given:
                raise NativeRuleError(f"the rule family {fam.value!r} needs the parameter "
                                      f"{name!r} in the C accelerator")
            value = given[name]
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise NativeRuleError(
                    f"{fam.value} {name}={value!r}: the C accelerator takes {lo} to {hi}")
        object.__setattr__(self, "params", tuple((n, int(given[n])) for n in names))

    @classmethod
    def of(cls, family: Family | str, **params: int) -> NativeRule:
        return cls(family, tuple(params.items()))  # type: ignore[arg-type]

    def param(self, name: str) -> int:
        return dict(self.params)[name]

    @property
    def is_trial(self) -> bool:
        return self.family in TRIAL_FAMILIES

    def encode(self) -> tuple[int, int, int]:
        """``(family code, p1, p2)`` as ``_native.c`` reads a rule."""
        values = [v for _, v in self.params] + [0, 0]
        return _CODES[self.family], values[0], values[1]


def _legacy(desc: tuple[Any, ...]) -> NativeRule:
    """A description in the old tuple form: ``(family code, p1, p2)`` or
    ``("disj" | "reductio", depth, max_alternatives)``."""
    if len(desc) != 3:
        raise NativeRuleError(f"{desc!r} is not a description of a rule for the accelerator")
    head, p1, p2 = desc
    if head in ("disj", "reductio"):
        trial = Family.DISJUNCTION if head == "disj" else Family.REDUCTIO
        return NativeRule.of(trial, depth=p1, max_alternatives=p2)
    by_code = {code: f for f, code in _CODES.items()}
    fam = by_code.get(head) if isinstance(head, int) else None
    if fam is None or fam in TRIAL_FAMILIES:
        raise NativeRuleError(f"{desc!r}: the C accelerator has no rule family {head!r}")
    names = [n for n, _, _ in PARAMS[fam]]
    return NativeRule.of(fam, **dict(zip(names, (p1, p2), strict=False)))


def describe(desc: NativeRule | tuple[Any, ...] | None) -> NativeRule | None:
    """A rule's :meth:`~grader.core.rule.Rule.native` as a :class:`NativeRule`."""
    if desc is None or isinstance(desc, NativeRule):
        return desc
    return _legacy(tuple(desc))


#: The family numbers of _native.c.
_CODES: dict[Family, int] = {Family.SINGLES: 0, Family.LINES: 1, Family.MULTIPLE_LINES: 2,
                             Family.NAKED_SUBSET: 3, Family.HIDDEN_SUBSET: 4, Family.FISH: 5,
                             Family.PYTHON: 6, Family.DISJUNCTION: 7, Family.REDUCTIO: 8}


def check_tables(module: Any) -> None:
    """Raise :class:`NativeBuildError` unless ``module`` (the C extension)
    knows exactly the families, numbers and parameters of this module."""
    where = getattr(module, "__file__", None) or "grader.kernel._native"
    exported = getattr(module, "FAMILIES", None)
    if not isinstance(exported, Mapping):
        raise NativeBuildError(f"{where} does not say which rule families it knows (it was "
                               "built from older sources): rebuild it with `pip install -e .`")
    mine = {fam.value: (_CODES[fam], PARAMS[fam]) for fam in Family}
    theirs = {str(k): (int(v[0]), tuple((str(n), int(lo), int(hi)) for n, lo, hi in v[1]))
              for k, v in exported.items()}
    if mine != theirs:
        diff = sorted(k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))
        raise NativeBuildError(
            f"{where} and grader/native.py disagree on the rule families "
            f"{', '.join(diff)}: rebuild the extension with `pip install -e .`")
