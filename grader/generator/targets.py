"""What to generate: a band of levels, named by a rating, a level or a range."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import GraderError
from ..hierarchy import Hierarchy


class TargetError(GraderError, ValueError):
    """A ``--rating`` or ``--level`` that names nothing in the hierarchy."""


@dataclass(frozen=True)
class Target:
    """Grids whose level lies in ``lo..hi`` (inclusive); ``label`` names it."""

    lo: int
    hi: int
    label: str

    def contains(self, level: int | None) -> bool:
        return level is not None and self.lo <= level <= self.hi

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.label.lower()).strip("-")


def _norm(name: str) -> str:
    return re.sub(r"[\s_\-]+", " ", name.strip().lower())


def rating_bands(h: Hierarchy) -> list[Target]:
    """Every rating of the hierarchy that a grid with givens to find can have
    (the ``solved`` band, level 0, is left out), easiest first."""
    bands = []
    for band in h.ratings:
        levels = [lv for lv in band.levels if lv >= 1]
        if levels:
            bands.append(Target(min(levels), max(levels), band.name))
    return sorted(bands, key=lambda t: (t.lo, t.hi))


def _rating(name: str, h: Hierarchy) -> Target:
    key = _norm(name)
    for t in rating_bands(h):
        if _norm(t.label) == key:
            return t
    names = ", ".join(t.label.replace(" ", "-") for t in rating_bands(h))
    raise TargetError(f"unknown rating {name!r} (ratings: {names})")


def _level(text: str, h: Hierarchy) -> int:
    levels = sorted({r.level for r in h.rules})
    try:
        lv = int(text)
    except ValueError:
        raise TargetError(f"level {text!r} is not a number (levels: "
                          f"{levels[0]}-{levels[-1]})") from None
    if lv not in levels:
        raise TargetError(f"no rule has level {lv} (levels: {levels[0]}-{levels[-1]})")
    return lv


def parse_targets(rating: str | None, level: str | None, h: Hierarchy) -> list[Target]:
    """The targets that ``--rating`` / ``--level`` ask for, cycled over the grids.

    ``rating``: a rating name (``very-easy``, ``"very easy"``), a range
    ``medium..very-difficult``, a comma list ``easy,expert`` or ``all``
    (every rating in turn).  ``level``: ``5``, ``3-5`` / ``3..5``, or a comma
    list.  Neither: any rating (one band, every level)."""
    if rating is not None and level is not None:
        raise TargetError("give --rating or --level, not both")
    top = max(r.level for r in h.rules)
    if rating is None and level is None:
        return [Target(1, top, "any")]
    targets: list[Target] = []
    if rating is not None:
        parts = [p for p in rating.split(",") if p.strip()]
        if not parts:
            raise TargetError("--rating is empty")
        for part in parts:
            if _norm(part) == "all":
                targets.extend(rating_bands(h))
            elif ".." in part:
                a, _, b = part.partition("..")
                ta, tb = _rating(a, h), _rating(b, h)
                if ta.lo > tb.hi:
                    raise TargetError(f"rating range {part!r} is empty: "
                                      f"{ta.label} is harder than {tb.label}")
                targets.append(Target(ta.lo, tb.hi, f"{ta.label}..{tb.label}"))
            else:
                targets.append(_rating(part, h))
        return targets
    assert level is not None
    parts = [p for p in level.split(",") if p.strip()]
    if not parts:
        raise TargetError("--level is empty")
    for part in parts:
        m = re.fullmatch(r"\s*(\w+)\s*(?:(?:\.\.|-)\s*(\w+)\s*)?", part)
        if m is None:
            raise TargetError(f"--level {part!r}: expected a level (5) or a range (3-5)")
        lo = _level(m.group(1), h)
        hi = _level(m.group(2), h) if m.group(2) else lo
        if lo > hi:
            raise TargetError(f"level range {part.strip()!r} is empty ({lo} > {hi})")
        targets.append(Target(lo, hi, f"level {lo}" if lo == hi else f"levels {lo}-{hi}"))
    return targets
