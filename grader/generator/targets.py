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
    #: Sudoku Explainer's ER (``se``), EP and ED in ``lo..hi`` (inclusive), None: any
    se: tuple[float, float] | None = None
    ep: tuple[float, float] | None = None
    ed: tuple[float, float] | None = None

    def contains(self, level: int | None) -> bool:
        return level is not None and self.lo <= level <= self.hi

    def accepts(self, result: Any) -> bool:
        """Whether a :class:`grader.strategy.grading.GradeResult` meets the whole
        request: verdict ok, level in the band, depth and score in range."""
        if result.verdict != "ok" or not self.contains(result.level):
            return False
        if self.depth is not None and not self.depth[0] <= (result.depth or 0) <= self.depth[1]:
            return False
        for want, got in ((self.score, result.score), (self.se, result.se),
                          (self.ep, getattr(result, "ep", None)),
                          (self.ed, getattr(result, "ed", None))):
            if want is not None and (got is None or not want[0] <= got <= want[1]):
                return False
        return True

    @property
    def by_se(self) -> bool:
        """Whether the request names Sudoku Explainer's ratings (``--se``,
        ``--ep``, ``--ed``): the search steers by them."""
        return self.se is not None or self.ep is not None or self.ed is not None

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


#: the ratings ``--se``, ``--ep`` and ``--ed`` accept (Sudoku Explainer's scale:
#: 1.0, a full house, to the forum's hardest grids, under 12)
SE_BOUNDS = (1.0, 12.0)


def parse_se(text: str, name: str = "--se") -> tuple[float, float]:
    """``--se`` (``--ep``, ``--ed``): ``8.3``, ``A..B`` (inclusive), ``A..`` or
    ``..B``, within :data:`SE_BOUNDS`."""
    lo_b, hi_b = SE_BOUNDS
    t = text.strip()
    if ".." in t:
        a, _, b = t.partition("..")
    else:
        a = b = t
    a, b = a.strip(), b.strip()
    if not a and not b:
        raise TargetError(f"{name} {text!r}: expected a rating or a range A..B, as in 8.0..9.0")
    try:
        lo = float(a) if a else lo_b
        hi = float(b) if b else hi_b
    except ValueError:
        raise TargetError(f"{name} {text!r}: expected numbers, as in 8.0..9.0") from None
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise TargetError(f"{name} {text!r}: ratings are numbers from {lo_b:g} to {hi_b:g}")
    if lo > hi:
        raise TargetError(f"{name} {text!r} is empty ({lo:g} > {hi:g})")
    if hi < lo_b or lo > hi_b:
        raise TargetError(f"{name} {text!r}: Sudoku Explainer's ratings run from {lo_b:g} "
                          f"(a full house) to under {hi_b:g} (the hardest known grids)")
    # tenths: the scale's unit (3.95 and 4.0 are the same request)
    return round(max(lo, lo_b), 1), round(min(hi, hi_b), 1)


def narrow_se(target: Target, se: tuple[float, float] | None, ep: tuple[float, float] | None,
              ed: tuple[float, float] | None, n: int) -> Target:
    """``target`` with Sudoku Explainer's ranges; :class:`TargetError` when no
    grid can meet them, saying why.

    ED (the hardest step before the first elimination) is at most EP (the
    hardest before the first placement), which is at most ER (the hardest of
    the whole solution), so a lower bound above the upper bound of a later
    one is impossible; and below 4.0 the scale has only the values of its
    simple rules, so a range between two of them holds none."""
    from grader.strategy.grading import GradeResult
    from grader.strategy.serate.easy import VALUES

    if n != 9:
        raise TargetError("--se, --ep and --ed: Sudoku Explainer rates 9x9 grids only")
    top = VALUES[-1] / 10
    for nm, r in (("--se", se), ("--ep", ep), ("--ed", ed)):
        if r is None or r[1] >= top or any(r[0] <= v / 10 <= r[1] for v in VALUES):
            continue
        below = [v / 10 for v in VALUES if v / 10 < r[0]]
        above = [v / 10 for v in VALUES if v / 10 > r[1]]
        near = (f"; the nearest are {below[-1]:g} and {above[0]:g}" if below and above
                else "")
        raise TargetError(f"{nm} {_show(r)}: no grid has a rating there: below {top:g} "
                          f"Sudoku Explainer's scale has only the values of its simple "
                          f"rules ({', '.join(f'{v / 10:g}' for v in VALUES)}){near}")
    # ED <= EP <= ER
    order = [("--ed", ed, "ED"), ("--ep", ep, "EP"), ("--se", se, "ER")]
    for i, (nm1, r1, w1) in enumerate(order):
        for nm2, r2, w2 in order[i + 1:]:
            if r1 is not None and r2 is not None and r1[0] > r2[1]:
                raise TargetError(f"{nm1} {_show(r1)} and {nm2} {_show(r2)}: a grid's {w1} "
                                  f"is at most its {w2} (ED <= EP <= ER), so no grid has both")
    for nm, r, field in (("--ep", ep, "ep"), ("--ed", ed, "ed")):
        if r is not None and field not in GradeResult.model_fields:
            raise TargetError(f"{nm}: this version of the grader does not rate {field.upper()}")
    label = target.label if target.label != "any" else ""
    parts = [f"{w} {_show(r)}" for w, r in (("SE", se), ("EP", ep), ("ED", ed)) if r is not None]
    label = ", ".join([p for p in (label, *parts) if p])
    return replace(target, label=label, se=se, ep=ep, ed=ed)
