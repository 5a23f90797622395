"""What to generate: a band of levels, named by a rating, a level or a range,
optionally narrowed by the nesting depth of trials and by a score range."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Any

from grader.core.errors import GraderError
from grader.strategy.hierarchy import Hierarchy


class TargetError(GraderError, ValueError):
    """A ``--rating`` or ``--level`` that names nothing in the hierarchy."""


@dataclass(frozen=True)
class Target:
    """Grids whose level lies in ``lo..hi`` (inclusive); ``label`` names it."""

    lo: int
    hi: int
    label: str
    #: trials nested to a depth in ``lo..hi`` (0: no trial), None: any depth
    depth: tuple[int, int] | None = None
    #: a score in ``lo..hi`` (inclusive), None: any score
    score: tuple[float, float] | None = None

    def contains(self, level: int | None) -> bool:
        return level is not None and self.lo <= level <= self.hi

    def accepts(self, result: Any) -> bool:
        """Whether a :class:`grader.strategy.grading.GradeResult` meets the whole
        request: verdict ok, level in the band, depth and score in range."""
        if result.verdict != "ok" or not self.contains(result.level):
            return False
        if self.depth is not None and not self.depth[0] <= (result.depth or 0) <= self.depth[1]:
            return False
        return self.score is None or (result.score is not None
                                      and self.score[0] <= result.score <= self.score[1])

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


def _range(text: str, name: str) -> tuple[str, str]:
    """``A``, ``A..B``, ``A-B`` (not for negative numbers), ``A..`` or ``..B``."""
    t = text.strip()
    if ".." in t:
        a, _, b = t.partition("..")
    elif re.fullmatch(r"[^-]+-[^-]+", t):
        a, _, b = t.partition("-")
    else:
        a = b = t
    if not a.strip() and not b.strip():
        raise TargetError(f"{name} {text!r}: expected a number or a range A..B")
    return a.strip(), b.strip()


def parse_depth(text: str, h: Hierarchy) -> tuple[int, int]:
    """``--depth``: ``2``, ``2..3`` / ``2-3``, ``2..`` (at least 2); within
    ``0..max_depth`` of the hierarchy's trials (0: no trial at all)."""
    top = h.trials.max_depth
    a, b = _range(text, "--depth")
    try:
        lo = int(a) if a else 0
        hi = int(b) if b else top
    except ValueError:
        raise TargetError(f"--depth {text!r}: expected a whole number or a range "
                          f"(0-{top})") from None
    if not 0 <= lo <= hi:
        raise TargetError(f"--depth {text!r} is empty or negative")
    if lo > top:
        raise TargetError(f"--depth {text!r}: trials nest at most to depth {top} "
                          f"(the hierarchy's max_depth)")
    return lo, min(hi, top)


def parse_score(text: str) -> tuple[float, float]:
    """``--score``: ``A..B`` (inclusive), ``A..`` or ``..B``."""
    a, b = _range(text, "--score")
    try:
        lo = float(a) if a else 0.0
        hi = float(b) if b else math.inf
    except ValueError:
        raise TargetError(f"--score {text!r}: expected numbers, as in 140..145") from None
    if not (math.isfinite(lo) and lo >= 0) or math.isnan(hi):
        raise TargetError(f"--score {text!r}: scores are numbers from 0")
    if lo > hi:
        raise TargetError(f"--score {text!r} is empty ({lo:g} > {hi:g})")
    return lo, hi


def trial_levels(h: Hierarchy) -> set[int]:
    """The levels of the trial rules (those whose steps have a depth)."""
    from grader.strategy.plugins import rule_class

    return {r.level for r in h.rules if rule_class(r.plugin).kind == "trial"}


def narrow(target: Target, h: Hierarchy, depth: tuple[int, int] | None,
           score: tuple[float, float] | None) -> Target:
    """``target`` with a depth and a score range, its band narrowed to the
    levels that can meet them; :class:`TargetError` when none can, saying why.

    A grid's depth is that of its deepest trial, so a depth of 1 or more
    needs a trial level and depth 0 a level without trials; a grid of level
    ``L`` scores in ``[10 L, 10 L + 10)`` (see :mod:`grader.strategy.grading`)."""
    levels = [lv for lv in sorted({r.level for r in h.rules}) if target.lo <= lv <= target.hi]
    trials = trial_levels(h)
    label = target.label
    if depth is not None:
        lo_d, hi_d = depth
        levels = [lv for lv in levels
                  if (lv in trials and hi_d >= 1) or (lv not in trials and lo_d == 0)]
        if not levels:
            what = ("trials (levels " + ", ".join(map(str, sorted(trials))) + ")"
                    if trials else "trials (this hierarchy has none)")
            need = "no trial" if hi_d == 0 else f"{what} nested to depth {lo_d}..{hi_d}"
            raise TargetError(f"--depth {_show(depth)} asks for {need}: no grid of "
                              f"{target.label} can have it")
        label += f", depth {_show(depth)}"
    if score is not None:
        levels = [lv for lv in levels if 10 * lv <= score[1] and score[0] < 10 * lv + 10]
        if not levels:
            raise TargetError(f"--score {_show(score)}: a grid of level L scores from 10 L "
                              f"to under 10 L + 10, so no grid of {target.label} "
                              f"can score in this range")
        label += f", score {_show(score)}"
    return replace(target, lo=min(levels), hi=max(levels), label=label, depth=depth,
                   score=score)


def _show(r: tuple[float, float] | tuple[int, int]) -> str:
    a, b = r
    if a == b:
        return f"{a:g}"
    return f"{a:g}.." + ("" if b == math.inf else f"{b:g}")


#: the hardest level of any 4x4 grid with one solution: measured over every
#: one of them by ``benchmarks/levels_4x4.py`` (single position solves each)
HARDEST_4X4 = 1
#: a grid with one solution and at most this many empty cells is solved by
#: single position alone (see :func:`impossible`)
FEW_EMPTY = 4


def impossible(target: Target, n: int, min_givens: int | None) -> str | None:
    """Why no grid of side ``n`` can meet ``target`` (None: it may).

    * 4x4: every grid with one solution is level 1 (measured exhaustively).
    * At most ``FEW_EMPTY`` empty cells (``--min-givens``): if no row, column
      or block has exactly one empty cell, each row and column with an empty
      cell has two or more, which takes four cells on two rows and two
      columns; their rows then lack the same two values as their columns,
      and the blocks either hold a cell each (one empty cell: a contradiction
      with the assumption), two each (both ways of placing the two values
      fit: two solutions) or all four (the block would lack a value twice:
      no solution).  So some region has one empty cell, single position fills
      it, and the rest follows by induction: level 1."""
    if target.lo <= 1:
        return None
    if n == 4 and target.lo > HARDEST_4X4:
        return (f"every 4x4 grid with one solution is level {HARDEST_4X4} (very easy): "
                f"no 4x4 grid is {target.label}")
    if min_givens is not None and n * n - min_givens <= FEW_EMPTY:
        return (f"--min-givens {min_givens} leaves at most {n * n - min_givens} empty cells, "
                f"and a grid with one solution and at most {FEW_EMPTY} empty cells is "
                f"solved by single position (level 1): it cannot be {target.label}")
    return None
