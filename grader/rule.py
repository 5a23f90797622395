"""The rule plugin interface.

A rule is small and pure: ``find(board)`` yields :class:`~grader.steps.Step`
objects in a deterministic order and never mutates the board.  Its code, name,
level and book reference come from the hierarchy table (see
:mod:`grader.hierarchy`), so the same class can serve at several levels with
different parameters (naked subsets of size 2, 3, 4+; fish of size 2, 3).

Third-party rules subclass :class:`Rule` and register the class under the
``sudoku_grader.rules`` entry-point group; a hierarchy file then places them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from .steps import Branch, Pattern, Step, register_support, register_template

if TYPE_CHECKING:
    from .board import Board
    from .hierarchy import RuleSpec


@dataclass(frozen=True)
class RuleContext:
    """What the engine hands a rule when it builds it (no global settings).

    ``propagation``: the rules a trial applies to a fixpoint inside each branch.
    ``depth``: nesting depth of a trial rule (1 = its propagation has no trials).
    ``options``: the engine's options: the hierarchy's trial options (pivot
    size, ...) and ``record`` (keep what only explanations use)."""

    propagation: tuple[Rule, ...] = ()
    depth: int = 1
    options: dict[str, Any] = field(default_factory=dict)


class Rule:
    """Base class of every technique."""

    #: Key of the text templates; one per family (subsets, fish, trials, ...).
    family: ClassVar[str] = ""
    #: ``placement``, ``elimination`` or ``trial``.
    kind: ClassVar[str] = "elimination"
    #: Defaults used when a hierarchy row omits them (handy for plugins).
    default_name: ClassVar[str] = ""
    default_reference: ClassVar[str] = ""

    def __init__(self, spec: RuleSpec, context: RuleContext | None = None) -> None:
        self.spec = spec
        self.code = spec.code
        self.name = spec.name or self.default_name or spec.code
        self.level = spec.level
        self.reference = spec.reference or self.default_reference
        self.params: dict[str, Any] = dict(spec.params)
        self.context = context or RuleContext()

    @property
    def record(self) -> bool:
        """Whether steps should carry what only explanations use (the engine's
        ``record`` option, on unless the engine only grades)."""
        return bool(self.context.options.get("record", True))

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.family:
            register_template(cls.family, cls.summarize, getattr(cls, "teach", None))
            if "support" in cls.__dict__:
                register_support(cls.family, cls.support)

    # -- to implement --------------------------------------------------
    def find(self, board: Board) -> Iterator[Step]:
        """Yield the steps this rule can make on ``board``, in a fixed order."""
        raise NotImplementedError

    @staticmethod
    def summarize(step: Step) -> str:
        """The reason part of the one-line summary (before ``=>``)."""
        return "the pattern"

    @staticmethod
    def support(step: Step) -> Iterable[tuple[int, int]] | None:
        """The ``(cell, value)`` candidates whose absence the step relies on
        (for a single position: the value in the region's other cells), read
        from the step alone.  Trial chains use it to record where each fact
        comes from.  None (the default): every fact about the pattern's cells
        and regions is taken as used."""
        return None

    def native(self) -> tuple[Any, ...] | None:
        """How the C accelerator runs this rule inside trial propagation, or
        None when it cannot (third-party rules: the pure-Python path is used)."""
        return None

    # -- helpers -------------------------------------------------------
    def make(self, board: Board, placements: Sequence[tuple[int, int]] = (),
             eliminations: Sequence[tuple[int, int]] = (),
             pattern: Pattern | None = None, branches: tuple[Branch, ...] = (),
             depth: int = 0) -> Step:
        return Step(
            rule=self.code,
            name=self.name,
            level=self.level,
            family=self.family,
            placements=tuple(placements),
            eliminations=tuple(eliminations),
            pattern=pattern if pattern is not None else Pattern(),
            geo=board.geo,
            branches=branches,
            depth=depth,
            reference=self.reference,
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.code} level {self.level}>"
