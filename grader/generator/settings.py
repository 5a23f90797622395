"""What shapes a generation run: :class:`Settings`, and what one grid made
returns (:class:`Generated`, with its :class:`Stats`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.core.errors import GraderError
from grader.core.geometry import Geometry, geometry
from grader.generator.symmetry import SYMMETRIES
from grader.generator.targets import Target
from grader.strategy.grading import GradeResult
from grader.strategy.hierarchy import Hierarchy

#: Generation methods, as ``--method`` spells them.
METHODS: tuple[str, ...] = ("guided", "top-down", "bottom-up")


class GenerationError(GraderError, ValueError):
    """Settings that cannot produce a grid (bad size, symmetry, givens bounds)."""


#: the fewest givens of a grid with one solution, where it is known (else
#: n - 1: with fewer, two values are missing from the whole grid and swap)
FEWEST_GIVENS = {(2, 2): 4, (3, 3): 17}
FEWEST_WHY = {
    (2, 2): " (every 4x4 grid has been checked)",
    (3, 3): " (McGuire, Tugemann and Civario's exhaustive search, 2012)",
}


@dataclass(frozen=True)
class Settings:
    """Everything that shapes the grids, except the target and the seed."""

    a: int = 3
    b: int = 3
    symmetry: str = "none"
    method: str = "guided"
    minimal: bool = False
    min_givens: int | None = None
    max_givens: int | None = None
    hierarchy: Hierarchy | None = None
    #: ``--like``: grids (values, 0 for empty) to explore around
    like: tuple[tuple[int, ...], ...] = ()
    #: the walk of Sudoku Explainer's scale the grids kept are graded with
    #: (``full`` for ``--se`` ranges past the default walk's cap)
    se: str = "fast"

    def check(self) -> None:
        """Raise :class:`GenerationError` on settings that cannot work."""
        n = self.a * self.b
        if self.symmetry not in SYMMETRIES:
            raise GenerationError(f"unknown symmetry {self.symmetry!r} "
                                  f"(use {', '.join(SYMMETRIES)})")
        if self.method not in METHODS:
            raise GenerationError(f"unknown method {self.method!r} (use {', '.join(METHODS)})")
        cells = n * n
        for name, v in (("--min-givens", self.min_givens), ("--max-givens", self.max_givens)):
            if v is not None and not 0 <= v <= cells:
                raise GenerationError(f"{name} {v} is outside 0..{cells} for a {n}x{n} grid")
        if (self.min_givens is not None and self.max_givens is not None
                and self.min_givens > self.max_givens):
            raise GenerationError(f"--min-givens {self.min_givens} is more than "
                                  f"--max-givens {self.max_givens}")
        least = FEWEST_GIVENS.get((self.a, self.b), n - 1)
        if self.max_givens is not None and self.max_givens < least:
            raise GenerationError(f"--max-givens {self.max_givens}: a {n}x{n} grid with a "
                                  f"unique solution needs at least {least} givens"
                                  + FEWEST_WHY.get((self.a, self.b), ""))
        if self.min_givens == cells:
            raise GenerationError(f"--min-givens {cells}: a grid with every cell given is "
                                  "already solved, there is nothing to rate")
        for k, grid in enumerate(self.like, start=1):
            if len(grid) != cells:
                raise GenerationError(f"--like: grid {k} has {len(grid)} cells, not the "
                                      f"{cells} of a {n}x{n} grid")


@dataclass
class Stats:
    """What a search cost: attempts (new full grids), assessments (grading
    calls: rule fixpoints), exact-solver calls, orbits put back by the guided
    method, and grids refused at the finish (``--minimal``, givens bounds, or
    a full grade outside the band, which the tests show never happens)."""

    attempts: int = 0
    assessments: int = 0
    solver_calls: int = 0
    moves: int = 0
    rejected: int = 0


@dataclass
class Generated:
    """One grid made: its values, solution, full grade and what it cost."""

    box: tuple[int, int]
    puzzle: tuple[int, ...]
    solution: tuple[int, ...]
    result: GradeResult
    target: Target
    stats: Stats = field(default_factory=Stats)
    seconds: float = 0.0

    @property
    def geo(self) -> Geometry:
        return geometry(*self.box)

    @property
    def givens(self) -> int:
        return sum(1 for v in self.puzzle if v)


class Timeout(Exception):
    """The deadline passed before a grid was found."""
