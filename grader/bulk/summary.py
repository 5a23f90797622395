"""What a run found: counts per verdict, rating, level and depth, technique
usage, the slowest grids and the grids not ok, in memory independent of the
collection's size.  Drawn by :mod:`grader.bulk.report`."""

from __future__ import annotations

import heapq
from collections import Counter
from dataclasses import dataclass, field

from grader.bulk.codec import Result
from grader.strategy.hierarchy import Hierarchy


@dataclass
class Summary:
    """What a run found, in memory independent of the collection's size."""

    hierarchy: Hierarchy
    slowest_kept: int = 5
    bad_kept: int = 50
    total: int = 0
    resumed: int = 0
    selected: int = 0
    duplicates: int = 0
    filtered: bool = False
    verdicts: Counter[str] = field(default_factory=Counter)
    ratings: Counter[str] = field(default_factory=Counter)
    levels: Counter[int] = field(default_factory=Counter)
    depths: Counter[int] = field(default_factory=Counter)
    techniques: Counter[str] = field(default_factory=Counter)
    steps: Counter[str] = field(default_factory=Counter)
    bad: list[tuple[str, int | None, int, str, str | None]] = field(default_factory=list)
    bad_count: int = 0
    graded_seconds: float = 0.0
    _slow: list[tuple[float, int, int | None, str, str | None]] = field(default_factory=list)

    def add(self, d: Result, source: str = "", resumed: bool = False) -> None:
        self.total += 1
        get = d.get
        v = get("verdict") or "error"
        self.verdicts[v] += 1
        secs = float(get("seconds") or 0.0)
        if resumed:
            self.resumed += 1
        else:
            self.graded_seconds += secs
        if v == "ok":
            self.ratings[get("rating") or "?"] += 1
            lvl = get("level")
            self.levels[int(lvl) if lvl is not None else -1] += 1
            self.depths[int(get("depth") or 0)] += 1
            techniques, steps = self.techniques, self.steps
            for code, k in (get("techniques") or {}).items():
                techniques[code] += 1
                steps[code] += int(k)
        else:
            self.bad_count += 1
            if len(self.bad) < self.bad_kept:
                self.bad.append((source, get("line"), int(d["index"]), v, get("message")))
        slow = self._slow
        if len(slow) < self.slowest_kept or secs >= slow[0][0]:
            item = (secs, -int(d["index"]), d.get("line"), source, d.get("rating") or v)
            if len(slow) < self.slowest_kept:
                heapq.heappush(slow, item)
            elif item > slow[0]:
                heapq.heapreplace(slow, item)

    def merge(self, other: Summary) -> None:
        """Count ``other`` too: the summary of the grids that follow these in
        input order (a worker's range, see :mod:`grader.bulk.ranges`)."""
        self.total += other.total
        self.resumed += other.resumed
        self.selected += other.selected
        self.duplicates += other.duplicates
        self.verdicts.update(other.verdicts)
        self.ratings.update(other.ratings)
        self.levels.update(other.levels)
        self.depths.update(other.depths)
        self.techniques.update(other.techniques)
        self.steps.update(other.steps)
        self.bad.extend(other.bad[:max(0, self.bad_kept - len(self.bad))])
        self.bad_count += other.bad_count
        self.graded_seconds += other.graded_seconds
        slow = self._slow
        for item in other._slow:
            if len(slow) < self.slowest_kept:
                heapq.heappush(slow, item)
            elif item > slow[0]:
                heapq.heapreplace(slow, item)

    @property
    def slowest(self) -> list[tuple[float, int, int | None, str, str | None]]:
        return [(s, -i, ln, src, r) for s, i, ln, src, r in sorted(self._slow, reverse=True)]

    def rating_rows(self) -> list[tuple[str, int]]:
        names = list(self.hierarchy.rating_names)
        rows = [(name, self.ratings.get(name, 0)) for name in names]
        rows += [(k, c) for k, c in self.ratings.items() if k not in names]
        return rows

    def level_rows(self) -> list[tuple[int, int]]:
        top = max([self.hierarchy.max_level, *self.levels]) if self.levels else \
            self.hierarchy.max_level
        return [(lvl, self.levels.get(lvl, 0)) for lvl in range(0, top + 1)]

    def technique_rows(self) -> list[tuple[str, str, int, int, int]]:
        rows = []
        known = set()
        for spec in self.hierarchy.ordered():
            known.add(spec.code)
            rows.append((spec.code, spec.name, spec.level, self.techniques.get(spec.code, 0),
                         self.steps.get(spec.code, 0)))
        for code, k in self.techniques.items():
            if code not in known:
                rows.append((code, code, 0, k, self.steps.get(code, 0)))
        return rows
