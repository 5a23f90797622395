"""The minimal-level strategy.

Always apply one step of the lowest level that makes progress, then restart
from level 1; never apply several steps at once.  When no rule of the table
makes progress, trials nest: the trial rules are rebuilt with a propagation
that itself includes trials, one depth at a time, up to the table's
``max_depth``, on positions with exactly one solution (checked with the exact
solver before nesting).

Which step of the trial rule the strategy needs is taken (the rule and the
depth are always the strategy's) depends on what the engine is for.  An
engine that explains takes, where trials nest or where trials of depth 1
leave much to do, the one that leaves the least to explain (itself and every
trial after it, estimated by running the strategy ahead with trials of depth
1: :mod:`grader.strategy.trials.lookahead`), otherwise the one the easiest pattern of the
position gives.  An engine that grades takes the first one its rule finds,
and counts the plain steps in its kernel (:meth:`Engine.rate`): grading
never pays for explanation work.

The two paths agree on the level and the depth, which are the grid's
canonical ones (docs/scoring.md): the depth D is the smallest nesting depth
at which the hierarchy solves the grid, the level L the smallest level
whose rules, nested to D, solve it; both are closures, so they depend on
the puzzle only, not on the cell order or the step taken.  Trials of a
depth are tried only where those of the depth below are stuck, so the
deepest step of any path is D; the highest level at depth 1 is L.  Deeper,
where a path reaches a higher trial level than the lowest, the closure of
the lower levels nested to D decides (:meth:`Engine.level_cap` before an
explanation, :meth:`Engine.rate` after a grade's path), and the path is
kept to that level.  A step counts at the level its proof may use
(:attr:`~grader.core.steps.Step.counted_level`).  The number of steps and
the techniques' counts can differ between the paths and between isomorphs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from grader.core.board import Board
from grader.core.rule import Rule, RuleContext
from grader.core.steps import Step
from grader.kernel import Kernel, default_kernel
from grader.strategy.expert.families import easiest_hints
from grader.strategy.expert.hint import Hint
from grader.strategy.hierarchy import Hierarchy, load_hierarchy
from grader.strategy.plugins import rule_class
from grader.strategy.propagate import SINGLES, next_step_of, plan
from grader.strategy.trials.chains import Target, holds
from grader.strategy.trials.lookahead import LookAhead

#: How many of the easiest hints of a position the engine tries to find as a
#: trial of the rule it needs (easiest first) before it keeps the first trial.
EASIEST_HINTS = 3


class SoundnessError(AssertionError):
    """A step contradicts the grid's solution (checked in debug mode)."""


@dataclass
class Trace:
    """What the strategy did on one grid."""

    steps: list[Step] = field(default_factory=list)
    solved: bool = False
    depth: int = 0

    @property
    def level(self) -> int:
        return max((s.counted_level for s in self.steps), default=0)

    def tally(self) -> Tally:
        """The counts of these steps."""
        t = Tally()
        for s in self.steps:
            t.add(s.rule, s.counted_level, s.depth)
        t.solved = self.solved
        return t


@dataclass
class Tally:
    """What grading keeps of the strategy's path: how many steps of each
    rule, and what the score and the rating need of them (see
    :func:`grader.strategy.grading.score_of`)."""

    counts: dict[str, int] = field(default_factory=dict)
    steps: int = 0
    #: the sum of the steps' weights, 2 ** (level - 1) * 2 ** (depth - 1)
    weight: float = 0.0
    level: int = 0
    depth: int = 0
    #: the rule of the first step of the highest (level, depth), and its depth
    hardest: str | None = None
    top_depth: int = 0
    solved: bool = False

    def add(self, rule: str, level: int, depth: int, n: int = 1) -> None:
        """Count ``n`` steps of ``rule`` in a row."""
        self.counts[rule] = self.counts.get(rule, 0) + n
        self.steps += n
        self.weight += n * 2.0 ** (level - 1) * (2.0 ** (depth - 1) if depth > 1 else 1.0)
        if self.hardest is None or (level, depth) > (self.level, self.top_depth):
            self.hardest, self.top_depth = rule, depth
        self.level = max(self.level, level)
        self.depth = max(self.depth, depth)


class Engine:
    """Rules built from a hierarchy table, ready to solve boards.

    ``record``: steps carry what only explanations use: the chains of
    sub-steps of trial branches, and the annotations of single steps (the
    other regions where a value is single, the cells that exclude the other
    candidates).  Grading turns it off: the steps, their levels and the rating
    are the same, only those details are not kept.

    Debug mode: pass the solution to :meth:`steps` or :meth:`solve` and every
    step's placements and eliminations are checked against it, a
    :class:`SoundnessError` raised on the first disagreement.

    ``kernel``: what computes closures, trial searches and exact solutions
    (:mod:`grader.kernel`), chosen once here: the default kernel (C when it
    is built, unless ``SUDOKU_GRADER_PURE=1``) when None.  Every rule built
    carries it; a rule's description for C is checked here, so one the C
    side does not know fails now, with a clear error."""

    def __init__(self, hierarchy: Hierarchy | None = None, record: bool = True,
                 kernel: Kernel | None = None, max_depth: int | None = None,
                 explain: bool | None = None) -> None:
        self.kernel: Kernel = kernel or default_kernel()
        #: whether trial steps are chosen for explanations (``record`` when None)
        self.explain = record if explain is None else explain
        self.hierarchy = hierarchy or load_hierarchy()
        self.options = self.hierarchy.trials.model_dump()
        # trials keep the chains of their branches (for explanations)
        self.options["record"] = record
        self.options["explain"] = self.explain
        specs = self.hierarchy.ordered()
        self._classes = [(spec, rule_class(spec.plugin)) for spec in specs]
        self.base: tuple[Rule, ...] = tuple(
            cls(spec, RuleContext(options=dict(self.options), kernel=self.kernel))
            for spec, cls in self._classes if cls.kind != "trial")
        self._depth_rules: dict[int | tuple[int, int], tuple[Rule, ...]] = {}
        self._units_cache: dict[tuple[int, int | None], list[tuple[int, tuple[Rule, ...]]]] = {}
        self._upto_cache: dict[tuple[int, int | None], tuple[Rule, ...]] = {}
        has_trials = any(cls.kind == "trial" for _, cls in self._classes)
        self._max_depth = int(self.options.get("max_depth", 1)) if has_trials else 1
        if max_depth is not None:
            self._max_depth = min(self._max_depth, max_depth)
        self._grading: Engine | None = None
        #: the trial that leaves the least to explain (:mod:`grader.strategy.trials.lookahead`)
        self.lookahead = LookAhead(self._probe_engine)
        for rule in self.rules(1):
            rule.accelerated()  # NativeRuleError now for a description C does not know
        top = self.plain_top()
        #: the plain rules the kernel steps for :meth:`rate`: those below every trial
        self._stepped = tuple(r for r in self.rules(1)
                              if r.kind != "trial" and (top is None or r.level <= top))

    # -- rule sets -----------------------------------------------------
    def _propagation_for(self, spec_level: int, inner: tuple[Rule, ...]) -> tuple[Rule, ...]:
        mode = self.options.get("propagation", "all")
        plain = tuple(r for r in self.base if r.level < spec_level)
        if mode == "singles":
            plain = tuple(r for r in plain if r.kind == "placement" or r.family in SINGLES)
        return plain + inner

    def rules(self, depth: int = 1, top: int | None = None) -> tuple[Rule, ...]:
        """Every rule, by level, with trials at nesting ``depth``; with
        ``top``, only the rules of level at most ``top``, their nested trials
        too (the rules of levels up to ``top``, nested to ``depth``)."""
        top = self._top(top)
        key = depth if top is None else (depth, top)
        got = self._depth_rules.get(key)
        if got is not None:
            return got
        if top is not None and depth == 1:
            # trials of depth 1 nest nothing: the same rules, fewer of them
            result = tuple(r for r in self.rules(1) if r.level <= top)
            self._depth_rules[key] = result
            return result
        inner: tuple[Rule, ...] = ()
        if depth > 1:
            inner = tuple(r for r in self.rules(depth - 1, top) if r.kind == "trial")
        built: list[Rule] = []
        for spec, cls in self._classes:
            if top is not None and spec.level > top:
                continue
            if cls.kind == "trial":
                ctx = RuleContext(propagation=self._propagation_for(spec.level, inner),
                                  depth=depth, options=dict(self.options), kernel=self.kernel)
                built.append(cls(spec, ctx))
            else:
                built.append(next(r for r in self.base if r.code == spec.code))
        result = tuple(built)
        self._depth_rules[key] = result
        return result

    def _top(self, top: int | None) -> int | None:
        """``top`` as :meth:`rules` keys it: None when it leaves out no rule."""
        return None if top is None or top >= self.hierarchy.max_level else top

    @property
    def trial_levels(self) -> tuple[int, ...]:
        """The levels of the trial rules, ascending."""
        return tuple(sorted({spec.level for spec, cls in self._classes if cls.kind == "trial"}))

    def units(self, depth: int, max_level: int | None = None) -> list[tuple[int, tuple[Rule, ...]]]:
        """The trial rules nested to ``depth`` in the order the strategy tries
        them, by the level their proofs may use (``proof_top``), then by
        level.  The unit of level T holds the trials of levels up to T nested
        over trials of levels up to T only, whose proofs use level T: at
        depth 2, the disjunctive construction over disjunctive constructions
        (13), then the disjunctive construction over both trials and the
        reductio (14).  Without ``max_level`` only the last unit (every trial
        nested over every trial): the grid's level is then the highest trial
        level, unless :meth:`lower_level` finds a lower one, and the strategy
        is run again with that level as ``max_level``."""
        key = (depth, max_level)
        got = self._units_cache.get(key)
        if got is None:
            got = []
            levels = self.trial_levels
            for top in levels if max_level is not None else levels[-1:]:
                if max_level is not None and top > max_level:
                    break
                unit = tuple(r for r in self.rules(depth, top)
                             if r.kind == "trial" and r.proof_top == top)
                if unit:
                    got.append((top, unit))
            self._units_cache[key] = got
        return got

    def _upto(self, depth: int, max_level: int | None) -> tuple[Rule, ...]:
        key = (depth, max_level)
        got = self._upto_cache.get(key)
        if got is None:
            got = tuple(r for r in self.rules(depth) if max_level is None or r.level <= max_level)
            self._upto_cache[key] = got
        return got

    @property
    def max_depth(self) -> int:
        return self._max_depth

    # -- the strategy --------------------------------------------------
    def next_step(self, board: Board, max_level: int | None = None,
                  top: int | None = None) -> Step | None:
        """The step the minimal-level strategy applies next, or None when stuck.

        ``max_level``: the rules of levels up to it only (the caller's
        bound).  ``top``: the same bound, set by the strategy itself (the
        grid's canonical level, see :meth:`level_cap`)."""
        if top is not None:
            return self._next_step(board, max_level, top if max_level is None
                                   else min(max_level, top))
        return self._next_step(board, max_level, max_level)

    def _next_step(self, board: Board, asked: int | None, max_level: int | None,
                   resume: dict[int, int] | None = None) -> Step | None:
        rules = self._upto(1, max_level)
        step = next_step_of(board, rules)
        if step is not None:
            if step.depth == 1 and asked is None:
                rule = next(r for r in rules if r.code == step.rule)
                if self._looks_ahead(rule) and self.lookahead.hard(board):
                    better = self.lookahead.best(board, 1, rule)
                    if better is not None:
                        return self._named(board, better)
            return self._easiest(board, step, rules)
        if board.solution is None:
            self.attach_solution(board)
        if board.solution is None:
            # Nesting is for positions with exactly one solution: on one with
            # several, no depth can finish, and each depth costs far more than
            # the one below.
            return None
        for depth in range(2, self.max_depth + 1):
            for _, unit in self.units(depth, max_level):
                for rule in unit:
                    if self._looks_ahead(rule):
                        step = self.lookahead.best(board, depth, rule)
                        if step is not None:
                            return self._named(board, step)
                        continue
                    first_from = getattr(rule, "first_from", None)
                    if resume is not None and first_from is not None:
                        got = first_from(board, resume.get(id(rule), 0))
                        if got is not None:
                            resume[id(rule)] = got[1]
                            return got[0]
                        continue
                    for step in rule.find(board):
                        if board.progress(step):
                            return self._easiest(board, step, unit)
        return None

    def plain_top(self) -> int | None:
        """The highest level below every trial rule (None without trials)."""
        levels = [r.level for r in self.rules(1) if r.kind == "trial"]
        return min(levels) - 1 if levels else None

    def _probe_engine(self) -> Engine:
        """The engine the look-ahead runs: this table and kernel, trials of
        depth 1, nothing recorded."""
        return Engine(self.hierarchy, record=False, kernel=self.kernel, max_depth=1,
                      explain=True)

    def _chooses(self) -> bool:
        """Whether trial steps are chosen for explanations."""
        return self.explain and self.options.get("order", "easiest") == "easiest"

    def _looks_ahead(self, rule: Rule) -> bool:
        return self._chooses() and hasattr(rule, "choices") and self.max_depth > 1

    def _easiest(self, board: Board, step: Step, rules: Sequence[Rule]) -> Step:
        """Easiest trial first: ``step`` is the first step of the trial rule
        (and depth) the strategy needs; among that rule's steps, take the one
        that gives the conclusion of the easiest pattern or chain the position
        holds (see :func:`grader.strategy.expert.families.easiest_hints`), with
        that pattern's family as ``rated_pattern`` (the chain need not form
        it).  The rule and the depth are the strategy's, so levels and depths
        are unchanged.  ``step`` itself when no pattern is found or
        none of its conclusions comes from a step of that rule."""
        if not step.depth or not self._chooses():
            return step
        rule = next((r for r in rules if r.code == step.rule and r.kind == "trial"), None)
        find_for = getattr(rule, "find_for", None)
        if find_for is None:
            return step
        hints = easiest_hints(board, self.kernel.name)[:EASIEST_HINTS]
        named = self._named(board, step, hints)
        if named is not step:  # the first trial may already be the pattern's
            return named
        for hint in hints:
            targets = _targets(hint)
            for found in find_for(board, targets, hint.cells):
                if board.progress(found):
                    return replace(found, rated_pattern=hint.family)
        return step

    def _named(self, board: Board, step: Step, hints: Sequence[Hint] | None = None) -> Step:
        """``step`` with ``rated_pattern``: the family of the first of the
        position's easiest hints whose conclusion it gives, when one does."""
        if hints is None:
            hints = easiest_hints(board, self.kernel.name)[:EASIEST_HINTS]
        after = board.copy()
        after.apply(step)
        for hint in hints:
            if any(holds(after, t) for t in _targets(hint)):
                return replace(step, rated_pattern=hint.family)
        return step

    def attach_solution(self, board: Board, solution: Sequence[int] | None = None) -> None:
        """Give ``board`` its solution as a hint for trials (see
        :attr:`Board.solution`), computing it with the exact solver when not
        given.  Nothing is attached unless the solution is unique and agrees
        with every value and candidate on the board."""
        if board.solution is not None:
            return
        if solution is None:
            if not any(r.kind == "trial" for r in self.rules(1)):
                return
            res = self.kernel.solve(board.geo, board.values, limit=2)
            if res.count != 1 or res.solution is None:
                return
            solution = res.solution
        for c, v in enumerate(solution):
            if board.values[c]:
                if board.values[c] != v:
                    return
            elif not board.cands[c] >> (v - 1) & 1:
                return
        board.solution = tuple(solution)

    def steps(self, board: Board, max_level: int | None = None,
              solution: list[int] | None = None) -> Iterator[Step]:
        """Apply and yield steps until the grid is solved or nothing applies
        (mutates ``board``).  The path is the canonical one: where a lower
        trial level solves the grid at its depth, the strategy keeps to it
        (see :meth:`level_cap`)."""
        self.attach_solution(board, solution)
        top = self.level_cap(board) if max_level is None else None
        while not board.is_solved():
            step = self.next_step(board, max_level, top)
            if step is None:
                return
            if solution is not None:
                check_step(step, solution)
            board.apply(step)
            yield step

    def level_cap(self, board: Board) -> int | None:
        """The grid's canonical level when the strategy must keep below the
        highest trial level to reach it, else None.

        The depth D of a grid is the smallest nesting depth at which the
        whole hierarchy solves it; its level L the smallest level whose
        rules, trials nested to D, solve it (docs/hierarchy.md).  Both are
        closures, so they do not depend on any order.  The strategy, trying
        trials depth by depth and within a depth by the level their proofs
        use, needs D; at depth 1 its highest level is L, deeper it may take
        a step of a higher trial level before the lower one finishes the
        grid at depth D, so it is told L then."""
        levels = self.trial_levels
        if len(levels) < 2 or board.is_solved():
            return None
        kernel, sol = self.kernel, board.solution
        work = board.copy()
        if kernel.closure(work, tuple(r for r in self.rules(1) if r.kind != "trial"), sol):
            return None
        start = work.copy()
        depth = 0
        for d in range(1, self.max_depth + 1):
            if kernel.closure(work, self.rules(d), sol):
                return None
            if work.is_solved():
                depth = d
                break
        return self.lower_level(start, levels[-1], depth) if depth > 1 else None

    def lower_level(self, start: Board, level: int, depth: int) -> int | None:
        """The lowest trial level below ``level`` whose rules, nested to
        ``depth``, solve ``start``; None when none does."""
        for top in self.trial_levels:
            if top >= level:
                break
            # depth by depth: each closure starts from the one below (the
            # closures grow with the depth), much cheaper than at once
            work = start.copy()
            for d in range(1, depth + 1):
                if self.kernel.closure(work, self.rules(d, top), start.solution) \
                        or work.is_solved():
                    break
            if work.is_solved():
                return top
        return None

    def plain_weight(self, board: Board) -> float:
        """The weight of the rules below the trials on ``board`` (not
        mutated), counted in rounds so that it does not depend on the order
        of the cells: at each position, the lowest rule that makes progress
        gives every step it has there, each distinct effect weighing
        ``2 ** (level - 1)``; all are applied at once, and so on until the
        grid is solved or no rule moves.  The set of a rule's steps on a
        position is the same, relabelled, on every isomorph, and so is the
        next position: the weight is a function of the puzzle (see
        :func:`grader.strategy.grading.score_of`)."""
        work = board.copy()
        plain = self._stepped
        weight = 0.0
        while plain and not work.is_solved():
            effects: dict[tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]],
                          Step] = {}
            rule = None
            # the singles (which come first, and move most often) without a probe
            lead = 0
            while lead < len(plain) and _builtin_single(plain[lead]):
                lead += 1
            for i in _lazy_order(work, plain, lead):
                rule = plain[i]
                vals, cands = work.values, work.cands
                if _builtin_single(rule):
                    for c, v in _singles(work, rule.family == SINGLES[0]):
                        effects.setdefault((frozenset(((c, v),)), frozenset()), _NO_STEP)
                    if effects:
                        break
                    continue
                for s in rule.find(work):
                    key = (frozenset(p for p in s.placements if not vals[p[0]]),
                           frozenset(e for e in s.eliminations if cands[e[0]] >> (e[1] - 1) & 1))
                    if key[0] or key[1]:
                        effects.setdefault(key, s)
                if effects:
                    break
            if not effects or rule is None:
                break
            weight += len(effects) * 2.0 ** (rule.level - 1)
            for (placed, _), s in effects.items():
                if s is _NO_STEP:
                    for c, v in placed:
                        if not work.values[c]:
                            work.place(c, v)
                else:
                    work.apply(s)
        return weight

    def canonical(self, board: Board) -> tuple[int, int]:
        """The grid's canonical (level, depth) from ``board`` (not mutated),
        as :meth:`rate` counts them (0, 0 where the rules leave it unsolved)."""
        if self._grading is None:
            self._grading = (self if not self.explain and not self.options["record"] else
                             Engine(self.hierarchy, record=False, kernel=self.kernel,
                                    max_depth=self.max_depth, explain=False))
        work = board.copy()
        work.solution = board.solution
        tally = self._grading.rate(work)
        return (tally.level, tally.depth) if tally.solved else (0, 0)

    def rate(self, board: Board) -> Tally:
        """The strategy's path on ``board`` (mutated), counted, not recorded:
        the plain steps are taken by the kernel (the same steps as one at a
        time in Python), the trial steps one at a time.

        The level and depth are the canonical ones (see :meth:`level_cap`):
        the path is taken first; where it nests trials and reaches a higher
        trial level than the lowest, the closure of the lower trial levels
        nested to its depth is tried, and when it solves the grid the path
        is taken again, kept to that level."""
        self.attach_solution(board)
        start = board.copy()
        start.solution = board.solution
        tally = self._rate(board, None)
        if tally.solved and tally.depth > 1 and tally.level > self.trial_levels[0]:
            top = self.lower_level(start, tally.level, tally.depth)
            if top is not None:
                board.values[:] = start.values
                board.cands[:] = start.cands
                tally = self._rate(board, top)
        return tally

    def _rate(self, board: Board, top: int | None) -> Tally:
        tally = Tally()
        plain = self._stepped
        code = [(r.code, r.level) for r in plain]
        # where each nested search resumes (see DisjunctiveConstruction.first_from)
        resume: dict[int, int] | None = {} if not self._chooses() else None
        while not board.is_solved():
            if plain:
                done = self.kernel.steps(board, plain, 100_000)
                _count(tally, done, code)
                if board.is_solved():
                    break
            step = self._next_step(board, None, top, resume)
            if step is None:
                break
            board.apply(step)
            tally.add(step.rule, step.counted_level, step.depth)
        tally.solved = board.is_solved()
        return tally

    def solve(self, board: Board, max_level: int | None = None,
              solution: list[int] | None = None, copy: bool = True) -> Trace:
        """Run the strategy on a copy of ``board`` (on ``board`` itself when
        ``copy`` is False)."""
        if copy:
            work = board.copy()
            work.solution = board.solution
        else:
            work = board
        trace = Trace()
        for step in self.steps(work, max_level, solution):
            trace.steps.append(step)
            trace.depth = max(trace.depth, step.depth)
        trace.solved = work.is_solved()
        return trace


def _lazy_order(board: Board, rules: tuple[Rule, ...], lead: int) -> Iterator[int]:
    """The first ``lead`` rules, then the others in the order of :func:`plan`
    (asked only when those give nothing)."""
    yield from range(lead)
    if lead < len(rules):
        order, _ = plan(board, rules)
        yield from (i for i in order if i >= lead)


def _singles(board: Board, hidden: bool) -> set[tuple[int, int]]:
    """Every placement single position (``hidden``) or single candidate gives
    on ``board``: what the rules' steps place, without building the steps."""
    vals, cands = board.values, board.cands
    if not hidden:
        return {(c, m.bit_length()) for c, m in enumerate(cands)
                if not vals[c] and m and not m & (m - 1)}
    out: set[tuple[int, int]] = set()
    for cells in board.geo.regions:
        once = twice = 0
        for c in cells:
            m = cands[c]
            twice |= once & m
            once |= m
        single = once & ~twice
        while single:
            bit = single & -single
            single ^= bit
            for c in cells:
                if cands[c] & bit:
                    out.add((c, bit.bit_length()))
                    break
    return out


_NO_STEP: Any = object()
#: the built-in singles, whose placements :func:`_singles` computes
_SINGLE_FINDS = {"single-position": "SinglePosition.find",
                 "single-candidate": "SingleCandidate.find"}


def _builtin_single(rule: Rule) -> bool:
    """Whether ``rule`` is one of the built-in singles (not a plugin's rule
    of that family, whose steps may differ)."""
    find = type(rule).find
    return (_SINGLE_FINDS.get(rule.family) == find.__qualname__
            and find.__module__ == "grader.rules.singles")


def _count(tally: Tally, done: bytes, code: Sequence[tuple[str, int]]) -> None:
    """Add the plain steps ``done`` (positions in ``code``) to ``tally``, in order."""
    if not done:
        return
    if len(done) < 8:
        for i in done:
            tally.add(code[i][0], code[i][1], 0)
        return
    first = {i: done.index(i) for i in set(done)}
    for i in sorted(first, key=first.__getitem__):
        tally.add(code[i][0], code[i][1], 0, done.count(i))


def _targets(hint: Hint) -> list[Target]:
    """What a hint concludes, as (placed, cell, value)."""
    return ([(True, c, d) for c, d in hint.placements]
            + [(False, c, d) for c, d in hint.eliminations])


def check_step(step: Step, solution: list[int]) -> None:
    """Raise :class:`SoundnessError` if ``step`` disagrees with ``solution``."""
    geo = step.geo
    for c, v in step.placements:
        if solution[c] != v:
            raise SoundnessError(
                f"{step.summary()}: places {geo.symbol(v)} in {geo.cell_name(c)} "
                f"but the solution has {geo.symbol(solution[c])}")
    for c, v in step.eliminations:
        if solution[c] == v:
            raise SoundnessError(
                f"{step.summary()}: eliminates the true value {geo.symbol(v)} "
                f"from {geo.cell_name(c)}")
