"""The chain shown for a trial branch, and goal-directed inner trials for
the branches of nested trials.

:func:`short_chain` draws a branch's chain from a breadth-first derivation
(:func:`grader.strategy.trials.chains.record_rounds`, each round's steps resting on the
fewest lines first).  A branch of a trial at depth 2 needs inner trials:
where the plain rules (levels 1-12) are stuck, its propagation applies
trials of the depth below, and in scanning order these are many, each with
its own chain.  :func:`goal_trials` chooses them by what the branch must
reach instead: on the stuck position every inner trial is tried (every
candidate the inner reductio refutes, every pivot of the inner disjunctive
construction that proves something), each followed by the plain rules'
closure; one after which the end holds (the contradiction, or every
conclusion of the step) is taken, the shortest of the first few; when none
does, the one that gives the most of the step's conclusions, then removes
the most candidates, then leaves the most cells with two candidates and
values with two places, and the search goes on from there.  Both
derivations are thinned out (an inner trial the others make unnecessary is
dropped) and the shorter chain, nested lines included, is shown.

Only the proof shown changes: the step, its branches and their ends are the
engine's, and grading never comes here.  Every inner step is an ordinary
trial step of a rule the branch's propagation holds, found by that rule on
the position the branch has reached, so its chain is checked as any other.
Deterministic (counts, never time, bound the effort), and the same with
either kernel: candidates are tried in cell and value order, pivots in the
rule's order, ties keep the first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from grader.core.board import Board
from grader.kernel import kernel_of
from grader.strategy.trials.chains import _best, _fits, holds, record_rounds

if TYPE_CHECKING:
    from grader.core.rule import Rule
    from grader.core.steps import Chain, Conflict, Step
    from grader.strategy.trials.chains import Target

#: At most this many inner trials are chosen before giving up.
MAX_INNER = 40
#: At most this many equally good inner trials get their chains drawn to
#: compare (on a second search, for a branch whose chain is longer than LONG).
MAX_COMPARED = 3
LONG = 100


def _done(board: Board, targets: Sequence[Target]) -> bool:
    bad = kernel_of(()).contradiction(board) is not None
    return bad or bool(targets) and all(holds(board, t) for t in targets)


def _refutations(board: Board, rule: Rule) -> list[tuple[int, int]]:
    """Every candidate of ``board`` that ``rule`` (a reductio) refutes, in
    cell and value order."""
    kernel = rule.kernel  # type: ignore[attr-defined]
    rules = rule.context.propagation
    out: list[tuple[int, int]] = []
    start = 0
    while True:
        hit = kernel.reductio_first(board, rules, None, start)
        if hit is None:
            return out
        out.append(hit)
        start = hit[0] * 64 + hit[1] + 1


def _tension(board: Board) -> int:
    """How many cells have two candidates and values two places in a region:
    the pivots a contradiction can come from."""
    cands = board.cands
    n = sum(1 for m in cands if m.bit_count() == 2)
    for cells in board.geo.regions:
        once = twice = more = 0
        for c in cells:
            m = cands[c]
            more |= twice & m
            twice |= once & m
            once |= m
        n += (twice & ~more).bit_count()
    return n


def _removed(board: Board) -> int:
    return sum(c.bit_count() for c in board.cands)


def _apply(board: Board, conclusions: Sequence[Target], plain: Sequence[Rule],
           rule: Rule) -> Board:
    """``board`` with ``conclusions`` applied, then the plain rules' closure."""
    b = board.copy()
    for placed, c, v in conclusions:
        if placed:
            if b.cands[c] >> (v - 1) & 1:
                b.place(c, v)
        else:
            b.cands[c] &= ~(1 << (v - 1))
    rule.kernel.closure(b, plain)  # type: ignore[attr-defined]
    return b


#: A way out of a stuck position: its conclusions, and how to build its step.
Move = tuple[list["Target"], Callable[[], "Step | None"]]


def _first(steps: Iterable[Step]) -> Step | None:
    return next(iter(steps), None)


def _moves(board: Board, reductio: Rule, split: Rule | None) -> list[Move]:
    """Every inner trial the stuck ``board`` offers: the refutations of the
    reductio (cell and value order), then the pivots of the disjunctive
    construction that prove something (its pivot order)."""
    out: list[Move] = []
    find_for: Callable[..., Iterable[Step]] = reductio.find_for  # type: ignore[attr-defined]
    for c, v in _refutations(board, reductio):
        target: list[Target] = [(False, c, v)]
        out.append((target, partial(lambda t: _first(find_for(board, t)), target)))
    if split is not None:
        step_at: Callable[..., Step | None] = split.step_at  # type: ignore[attr-defined]
        for kind, where, alts in split.pivots(board):  # type: ignore[attr-defined]
            got = split.split(board, alts)  # type: ignore[attr-defined]
            if got is not None:
                out.append((got[0], partial(step_at, board, kind, where, alts)))
    return out


def size(step: Step) -> int:
    """Lines inside the branches of ``step``, nested trials included."""
    n = 0
    for b in step.branches:
        links = b.chain.links if b.chain is not None else ()
        n += len(links) + sum(size(link.step) for link in links if link.step.branches)
    return n


def _cheapest(moves: Sequence[Move], compared: int) -> Step | None:
    """The step with the shortest chains among ``moves`` (the first of equals)."""
    best: tuple[int, Step] | None = None
    for _, build in moves[:compared]:
        step = build()
        if step is None or any(b.chain is None for b in step.branches):
            continue
        n = size(step)
        if best is None or n < best[0]:
            best = (n, step)
    return None if best is None else best[1]


def goal_trials(board: Board, cell: int, value: int, rules: Sequence[Rule],
                targets: Sequence[Target], compared: int = 1) -> list[Step] | None:
    """The inner trials (in order) that take the branch ``cell <- value`` on
    ``board`` to its end, chosen by what the end needs; None when the search
    does not get there (the caller keeps its own derivation).  Of the equally
    good ones, the first ``compared`` are drawn and the shortest taken."""
    trials = {r.family: r for r in rules if r.kind == "trial"}
    reductio = trials.get("reductio")
    if reductio is None:
        return None
    split = trials.get("disjunctive-construction")
    plain = [r for r in rules if r.kind != "trial"]
    b = board.copy()
    b.place(cell, value)
    reductio.kernel.closure(b, plain)  # type: ignore[attr-defined]
    kept: list[Step] = []
    while not _done(b, targets):
        if len(kept) >= MAX_INNER:
            return None
        moves = _moves(b, reductio, split)
        afters = [_apply(b, m[0], plain, reductio) for m in moves]
        finish = [m for m, a in zip(moves, afters, strict=True) if _done(a, targets)]
        if finish:
            step = _cheapest(finish, MAX_COMPARED)
            if step is None:
                return None
            kept.append(step)
            return kept
        if not moves:
            return None
        gain = [(sum(holds(a, t) for t in targets), -_removed(a), _tension(a)) for a in afters]
        top = max(gain)
        step = _cheapest([m for m, g in zip(moves, gain, strict=True) if g == top], compared)
        if step is None:
            return None
        kept.append(step)
        b = _apply(b, _conclusions(step), plain, reductio)
    return kept


def _conclusions(step: Step) -> list[Target]:
    return ([(True, c, v) for c, v in step.placements]
            + [(False, c, v) for c, v in step.eliminations])


# -- the chain shown for a branch ----------------------------------------------------
def _reaches(board: Board, cell: int, value: int, plain: Sequence[Rule],
             kept: Sequence[Step], targets: Sequence[Target]) -> bool:
    """Whether the plain rules and the trial steps ``kept`` (each applied once
    its premises hold) reach a contradiction or ``targets``."""
    from grader.kernel import c as native
    from grader.strategy.propagate import fixpoint

    b = board.copy()
    b.place(cell, value)
    prog = native.program(plain)
    pending = list(kept)
    while True:
        bad = prog.closure(b) if prog is not None else fixpoint(b, plain) is not None
        if bad or b.contradiction() is not None:
            return True
        if targets and all(holds(b, t) for t in targets):
            return True
        ready = [s for s in pending if _fits(b, s)]
        if not ready:
            return False
        for s in ready:
            b.apply(s)
            pending.remove(s)


def chain_size(chain: Chain) -> int:
    """Lines of ``chain``, the lines of the trials nested in it included."""
    return len(chain.links) + sum(size(link.step) for link in chain.links if link.step.branches)


Drawn = tuple["Chain", "Conflict | None"]


def _thin(board: Board, cell: int, value: int, rules: Sequence[Rule],
          targets: Sequence[Target], drawn: Drawn) -> Drawn:
    """``drawn`` with its inner trials thinned out one by one (each dropped
    when the others and the plain rules still reach the end), drawn again
    with those left when that is shorter."""
    chain, conflict = drawn
    inner = [link.step for link in chain.links if link.step.branches]
    if len(inner) < 2:
        return drawn
    plain = [r for r in rules if r.kind != "trial"]
    want = () if conflict is not None else targets
    kept = list(inner)
    for s in reversed(inner):
        trial = [k for k in kept if k is not s]
        if _reaches(board, cell, value, plain, trial, want):
            kept = trial
    if len(kept) == len(inner):
        return drawn
    return _shorter(drawn, _drawn(board, cell, value, rules, want, kept))


def _drawn(board: Board, cell: int, value: int, rules: Sequence[Rule],
           targets: Sequence[Target], kept: Sequence[Step] | None = None) -> Drawn:
    steps, final = record_rounds(board, cell, value, rules, targets, kept)
    return _best(board, cell, value, steps, final, targets)


def _shorter(drawn: Drawn, other: Drawn) -> Drawn:
    """``other`` when it ends as ``drawn`` does (a contradiction for a
    contradiction) and is shorter, nested lines included; else ``drawn``."""
    if drawn[1] is not None and other[1] is None:
        return drawn
    return other if chain_size(other[0]) < chain_size(drawn[0]) else drawn


def short_chain(board: Board, cell: int, value: int, rules: Sequence[Rule],
                targets: Sequence[Target] = ()) -> Drawn:
    """The chain shown for the branch ``cell <- value`` of a trial on
    ``board`` whose propagation uses ``rules``: a breadth-first derivation
    (see :func:`grader.strategy.trials.chains.record_rounds`), the shortest chain over the
    contradictions it reaches.  When trials nest, also the derivation whose
    inner trials are chosen by what the end needs (:func:`goal_trials`);
    each has its inner trials thinned out, and the shorter is shown."""
    drawn = _thin(board, cell, value, rules, targets,
                  _drawn(board, cell, value, rules, targets))
    if not any(link.step.branches for link in drawn[0].links):
        return drawn
    want = () if drawn[1] is not None else targets
    for compared in (1, MAX_COMPARED):
        if compared > 1 and chain_size(drawn[0]) <= LONG:
            break
        kept = goal_trials(board, cell, value, rules, targets, compared)
        if kept is not None:
            other = _drawn(board, cell, value, rules, want, kept)
            drawn = _shorter(drawn, _thin(board, cell, value, rules, want, other))
    return drawn
