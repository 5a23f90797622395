"""The rule plugin interface.

A rule is small and pure: ``find(board)`` yields :class:`~grader.core.steps.Step`
objects in a deterministic order and never mutates the board.  Its code, name,
level and book reference come from the hierarchy table (see
:mod:`grader.strategy.hierarchy`), so the same class can serve at several levels with
different parameters (naked subsets of size 2, 3, 4+; fish of size 2, 3).

Third-party rules subclass :class:`Rule` and register the class under the
``sudoku_grader.rules`` entry-point group; a hierarchy file then places them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from grader.core.steps import Branch, Pattern, Step
from grader.core.table import NativeRule, NativeRuleError, describe


class Spec(Protocol):
    """What a rule is built from: a row of the hierarchy table
    (:class:`grader.strategy.hierarchy.RuleSpec`)."""

    @property
    def code(self) -> str: ...
    @property
    def name(self) -> str | None: ...
    @property
    def level(self) -> int: ...
    @property
    def reference(self) -> str | None: ...
    @property
    def params(self) -> Mapping[str, Any]: ...


if TYPE_CHECKING:
    from grader.core.board import Board


#: The top-level package of this distribution (the techniques install as grader.rules):
#: its rules are the built-in ones.
BUILTIN_PACKAGES = ("grader",)
PROJECT = "sudoku-grader"


class RuleError(RuntimeError):
    """A rule's ``find()`` failed or returned something that is not steps.

    The message names the rule, its package and what went wrong; ``grade``
    gives the grid the verdict ``rule-error`` and goes on."""

    def __init__(self, rule: str, package: str, problem: str) -> None:
        super().__init__(f"rule {rule!r} (package {package}) {problem}")
        self.rule = rule
        self.package = package
        self.problem = problem


def package_of(module: str) -> str:
    """The distribution a rule's module comes from (its top-level package
    when it is not installed as a distribution).  Looking it up scans every
    installed distribution (about 0.1 s, once): it is asked only to name a
    package in a message or a listing, never while rules are defined."""
    top = owner_key(module)
    if top == PROJECT:
        return PROJECT
    return distributions().get(top, top)


def owner_key(module: str) -> str:
    """What owns a rule's module, without any look-up: this project for the
    built-in rules, else the module's top-level package."""
    top = module.split(".")[0]
    return PROJECT if top in BUILTIN_PACKAGES else top


@functools.lru_cache(maxsize=1)
def distributions() -> dict[str, str]:
    from importlib.metadata import packages_distributions

    try:
        return {k: v[0] for k, v in packages_distributions().items() if v}
    except Exception:  # noqa: BLE001 - broken metadata: fall back to module names
        return {}


def _guarded(find: Callable[..., Any]) -> Callable[..., Iterator[Step]]:
    """Wrap a third-party ``find`` so that an exception or a wrong return
    type becomes a :class:`RuleError` naming the rule and its package."""

    @functools.wraps(find)
    def guarded(self: Rule, board: Board) -> Iterator[Step]:
        try:
            found = find(self, board)
            if found is None or isinstance(found, (str, bytes, Step)) or not hasattr(
                    found, "__iter__"):
                raise RuleError(self.code, self.package,
                                f"find() returned {_what(found)}, not an iterator of steps")
            for step in found:
                if not isinstance(step, Step):
                    raise RuleError(self.code, self.package,
                                    f"find() yielded {_what(step)}, not a Step "
                                    "(build steps with self.make(...))")
                yield step
        except RuleError:
            raise
        except (Exception, SystemExit) as e:  # noqa: BLE001 - reported with the rule's name
            raise RuleError(self.code, self.package,
                            f"failed in find(): {type(e).__name__}: {e}") from e

    guarded.__guarded__ = True  # type: ignore[attr-defined]
    return guarded


def _guarded_init(init: Callable[..., None]) -> Callable[..., None]:
    """A third-party ``__init__`` whose failure is a :class:`RuleError` naming the rule."""

    @functools.wraps(init)
    def guarded(self: Rule, spec: Spec, *args: Any, **kwargs: Any) -> None:
        try:
            init(self, spec, *args, **kwargs)
        except RuleError:
            raise
        except (Exception, SystemExit) as e:  # noqa: BLE001 - reported with the rule's name
            raise RuleError(getattr(spec, "code", "?"), package_of(type(self).__module__),
                            f"failed in __init__(): {type(e).__name__}: {e}") from e

    guarded.__guarded__ = True  # type: ignore[attr-defined]
    return guarded


def _guarded_text(fn: Callable[..., Any], what: str, module: str) -> Callable[..., Any]:
    """A third-party ``summarize``, ``teach`` or ``support`` (of a step) whose
    failure is a :class:`RuleError` naming the rule."""

    @functools.wraps(fn)
    def guarded(step: Step, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(step, *args, **kwargs)
        except RuleError:
            raise
        except (Exception, SystemExit) as e:  # noqa: BLE001 - reported with the rule's name
            raise RuleError(getattr(step, "rule", "?"), package_of(module),
                            f"failed in {what}(): {type(e).__name__}: {e}") from e

    guarded.__guarded__ = True  # type: ignore[attr-defined]
    return guarded


def _guard_plugin(cls: type[Rule]) -> None:
    """Every hook of a third-party rule class (``find``, ``__init__``,
    ``summarize``, ``teach``, ``support``, ``where``, ``common_name``) reports its failure, even
    ``sys.exit()``, as a :class:`RuleError` naming the rule."""
    d = cls.__dict__
    if "find" in d and not getattr(d["find"], "__guarded__", False):
        cls.find = _guarded(d["find"])  # type: ignore[method-assign]
    if "__init__" in d and not getattr(d["__init__"], "__guarded__", False):
        cls.__init__ = _guarded_init(d["__init__"])  # type: ignore[method-assign]
    for name in ("summarize", "teach", "support", "where", "common_name"):
        attr = d.get(name)
        fn = attr.__func__ if isinstance(attr, staticmethod) else attr
        if callable(fn) and not getattr(fn, "__guarded__", False):
            setattr(cls, name, staticmethod(_guarded_text(fn, name, cls.__module__)))


def _what(obj: object) -> str:
    text = repr(obj)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"a {type(obj).__name__} ({text})"


def _owner(cls: type, name: str) -> type | None:
    for k in cls.__mro__:
        if name in k.__dict__:
            return k
    return None


@dataclass(frozen=True)
class RuleContext:
    """What the engine hands a rule when it builds it (no global settings).

    ``propagation``: the rules a trial applies to a fixpoint inside each branch.
    ``depth``: nesting depth of a trial rule (1 = its propagation has no trials).
    ``options``: the engine's options: the hierarchy's trial options (pivot
    size, ...) and ``record`` (keep what only explanations use).
    ``kernel``: the kernel the engine chose (a :class:`grader.kernel.Kernel`,
    which the rules that run closures use); None for a rule built outside an
    engine (the default kernel then)."""

    propagation: tuple[Rule, ...] = ()
    depth: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    kernel: Any = None


class Rule:
    """Base class of every technique."""

    #: Key of the text templates; one per family (subsets, fish, trials, ...).
    family: ClassVar[str] = ""
    #: ``placement``, ``elimination`` or ``trial``.
    kind: ClassVar[str] = "elimination"
    #: Pattern roles this rule adds to the vocabulary (see :mod:`grader.core.roles`):
    #: ``{"pincer": "pincer of the wing"}``, or with colours
    #: ``{"pincer": ("pincer of the wing", "#ffd8a8", "on orange4")}``; a
    #: region role's name starts with ``region:``.
    roles: ClassVar[dict[str, Any]] = {}
    #: Defaults used when a hierarchy row omits them (handy for plugins).
    default_name: ClassVar[str] = ""
    default_reference: ClassVar[str] = ""

    def __init__(self, spec: Spec, context: RuleContext | None = None) -> None:
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
        owner = owner_key(cls.__module__)  # no look-up of distributions (see package_of)
        if owner != PROJECT:
            _guard_plugin(cls)

    @property
    def package(self) -> str:
        """The distribution this rule comes from (``sudoku-grader`` for the
        built-in rules)."""
        return package_of(type(self).__module__)

    @property
    def proof_top(self) -> int:
        """The highest level of the rules a step of this rule may use: its
        own level, or for a trial the highest ``proof_top`` of the rules its
        branches propagate with (a disjunctive construction nested over
        reductio: 14)."""
        inner = [r.proof_top for r in self.context.propagation]
        return max([self.level, *inner])

    def accelerated(self) -> NativeRule | None:
        """:meth:`native` as a checked :class:`~grader.kernel.c.NativeRule`, when
        it describes exactly this rule: the class that declares ``native``
        must come from the same module as the ``find`` this rule runs, so a
        plugin that subclasses a built-in rule and overrides ``find`` never
        inherits the built-in's C code.  A description the C side does not
        know raises :class:`~grader.kernel.c.NativeRuleError`."""
        cls = type(self)
        n_owner, f_owner = _owner(cls, "native"), _owner(cls, "find")
        if n_owner is None or n_owner is Rule or f_owner is None:
            return None
        if n_owner.__module__ != f_owner.__module__:
            return None
        try:
            return describe(self.native())
        except NativeRuleError as e:
            raise NativeRuleError(f"rule {self.code!r}: {e}") from None
        except (Exception, SystemExit) as e:  # noqa: BLE001 - a plugin's native() that fails
            raise RuleError(self.code, self.package,
                            f"failed in native(): {type(e).__name__}: {e}") from e

    # -- to implement --------------------------------------------------
    def find(self, board: Board) -> Iterator[Step]:
        """Yield the steps this rule can make on ``board``, in a fixed order."""
        raise NotImplementedError

    @staticmethod
    def summarize(step: Step) -> str:
        """The reason part of the one-line summary (before ``=>``)."""
        return "the pattern"

    @staticmethod
    def where(step: Step) -> str | None:
        """The ``where`` hint: the region, value or cells to look at, never
        the conclusion (``look at column C6: one value has a single possible
        cell there``); None: the hint names the technique only."""
        return None

    @staticmethod
    def common_name(step: Step) -> str | None:
        """The name players commonly give the step's technique (``hidden
        single`` for a single position, ``pointing`` for candidate lines from
        a block); the renderers show it beside the book's name when it
        differs.  None (the default): no other name."""
        return None

    @staticmethod
    def support(step: Step) -> Iterable[tuple[int, int]] | None:
        """The ``(cell, value)`` candidates whose absence the step relies on
        (for a single position: the value in the region's other cells), read
        from the step alone.  Trial chains use it to record where each fact
        comes from.  None (the default): every fact about the pattern's cells
        and regions is taken as used."""
        return None

    def native(self) -> NativeRule | tuple[Any, ...] | None:
        """How the C accelerator runs this rule inside trial propagation
        (``NativeRule.of("fish", size=2)``), or None when it cannot
        (third-party rules: the C fixpoint calls their ``find`` back)."""
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
            technique=type(self),
            proof_top=top if (top := self.proof_top) > self.level else 0,
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.code} level {self.level}>"
