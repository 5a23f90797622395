"""The pattern path: the solution as the rating's expert walk reads it.

The book path (``explain --path book``) shows the minimal-level strategy:
the book's rules, then its trials (levels 13-14).  The pattern path
(``--path patterns``) shows the book's rules of levels 1-12 the same way,
and at each position where they stop, what the expert walk that rates the
grid finds there (:mod:`grader.strategy.expert.walker`): the first family,
in Sukaku Explainer's order, with a hint, each of its hints that the walk
applies a step of its own, drawn and told by its family
(:mod:`grader.rules.patterns`), with its value on Sudoku Explainer's scale.  The
walk's positions are the path's, so its hardest step is the pattern and the
value that ``grade`` reports (``se_pattern``, ``se``).

Where no family finds anything the walk takes Sudoku Explainer's dynamic
forcing chains (:mod:`grader.strategy.serate`), shown as forcing chains
(:mod:`grader.rules.patterns.nets`).  Where the walk ends (a position that needs a
chaining level the default setting does not search, rated by that level's
base) the path shows the book's trial there, named and valued as the walk
rates it, and goes on in the same way to the end: the patterns and chains
the walk would find, and the book's trials where they do not reach.  Those
steps come after the rating's walk has ended: they carry no value.  Grids of other sizes than 9x9,
which the walk does not rate, and walks limited to levels below the trials
(``max_level``) follow the book path.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from grader.core.board import Board
from grader.core.steps import Arc, Step
from grader.explainer.names import shown_level
from grader.strategy.engine import Engine
from grader.strategy.expert.hint import Hint
from grader.strategy.expert.walker import RATED_SIZES, Move, Rater
from grader.strategy.plugins import pattern_families
from grader.strategy.propagate import next_step_of

#: The name the family of the walk's trials presents a step of the book's
#: under, where the walk ends (see :func:`_beyond`).
NETS = "forcing chains (book)"
#: The level of the book's first trial: the patterns stand for trials, so a
#: walk limited below it (``--max-level``) is the book's.
FIRST_TRIAL_LEVEL = 13


def pattern_steps(work: Board, engine: Engine, max_level: int | None = None) -> Iterator[Step]:
    """Apply and yield the steps of the pattern path (mutates ``work``); the
    book path (``engine.steps``) on grids the walk does not rate."""
    if (work.geo.n not in RATED_SIZES or (work.geo.a, work.geo.b) != (3, 3)
            or max_level is not None and max_level < FIRST_TRIAL_LEVEL):
        yield from engine.steps(work, max_level)
        return
    engine.attach_solution(work)
    # the grid's canonical level: no step shows more (see _hints)
    top = engine.canonical(work)[0] or None
    rater = Rater(engine)
    plain = tuple(sorted(rater.plain, key=lambda r: r.level))
    families = pattern_families()
    rating = 0
    rated = True  # until the walk ends
    while not work.is_solved():
        step = next_step_of(work, plain)
        if step is not None:
            work.apply(step)
            yield step
            continue
        move = rater.next_move(work, rating)
        if not rated and move is not None and _chains(move, families):
            move = None  # past the walk's end, the book's trials prove more per line
        if move is None or not move.hints:  # the walk ends here
            step = _book_trial(work, engine, move if rated else None, families, top)
            if step is None:
                return
            rated = False
            work.apply(step)
            yield step
            continue
        rating = max(rating, move.rating) if rated else rating
        before = work.copy()
        for step in _hints(work, move.hints, families, engine, top):
            yield step if rated else replace(step, se=None)
        # a useful hint always moves: a walk that would loop is a bug
        if work.cands == before.cands and work.values == before.values:
            raise RuntimeError(f"the walk's {move.family} does not move {work.to_string()}")


def _chains(move: Move, families: Mapping[str, Any]) -> bool:
    """Whether the move's hints are forcing chains (the family that also
    shows the book's trials)."""
    net = families.get(NETS)
    return net is not None and any(families.get(h.family) is net for h in move.hints)


def _book_trial(work: Board, engine: Engine, move: Move | None,
                families: Mapping[str, Any], top: int | None = None) -> Step | None:
    """The book's trial where the walk ends (rated by a bound: the first
    chaining level the default setting does not search; ``move``), named
    and valued as the walk rates the position; or, after the walk's end, where
    nothing it searches moves, the book's trial as it is (not rated); the
    book's trials keep to the grid's level ``top``."""
    step = engine.next_step(work, None, top)
    if step is None or move is None:
        return step
    net = families.get(NETS)
    return (net.label(step, move.family, move.rating) if net is not None
            else replace(step, se=move.rating / 10))


def _linked(work: Board, hint: Hint) -> Hint | None:
    """The project's own chain or cycle (with its links) that makes the
    eliminations of ``hint``, a hint of a chaining producer, or None."""
    if not hint.cells and hint.family in ("cell forcing chains", "region forcing chains"):
        return _se_start(work, hint)
    if hint.links or hint.family not in ("forcing chain", "Y-cycle"):
        return None
    from grader.strategy.expert.chains import StaticGraph, chains_and_cycles
    from grader.strategy.expert.hint import Position
    pos = Position(work)
    for h in chains_and_cycles(pos, StaticGraph(pos)):
        if h.family != hint.family:
            continue
        if (hint.placements and h.placements == hint.placements) or (
                not hint.placements and set(h.eliminations) >= set(hint.eliminations)):
            return replace(h, rating=hint.rating)
    return _se_cycle(work, hint) if hint.family == "Y-cycle" else None


def _se_start(work: Board, hint: Hint) -> Hint | None:
    """``hint``, a cell or region forcing chain of Sudoku Explainer's
    multiple chains, with the cells its branches start from (the cell, or
    the value's places in the region) as that search found it, or None."""
    from grader.strategy.serate.multiple import Search, sorted_hints
    values, cands = list(work.values), list(work.cands)
    shape = "cell" if hint.family == "cell forcing chains" else "region"
    for h in sorted_hints(Search(values, cands, False, 0, None).run()):
        if (h.shape != shape or set(h.removable) != set(hint.eliminations)
                or (h.placement,) != tuple(hint.placements) and (h.placement or hint.placements)):
            continue
        roots = []
        for t in h.targets:
            node = t
            while node.parents:
                node = node.parents[0]
            roots.append(node.cell)
        return replace(hint, cells=tuple(sorted(set(roots))))
    return None


def _se_cycle(work: Board, hint: Hint) -> Hint | None:
    """The cycle of Sudoku Explainer's own search (its static chains and
    cycles, X, Y and XY links) that makes the eliminations of ``hint``, with
    its facts from the assumption round to itself (``(cell, digit, on)``
    each; see :class:`grader.rules.patterns.chains.YCycle`), or None."""
    from grader.strategy.serate.multiple import sorted_hints
    from grader.strategy.serate.unary import forcing_chains_and_cycles
    values, cands = list(work.values), list(work.cands)
    want = set(hint.eliminations)
    for h in sorted_hints(forcing_chains_and_cycles(values, cands)):
        if h.shape != "cycle" or set(h.removable) != want:
            continue
        facts = []
        node = h.targets[0]
        while True:
            facts.append((node.cell, node.value, int(node.on)))
            if not node.parents:
                break
            node = node.parents[0]
        facts.reverse()
        cells = tuple(dict.fromkeys(c for c, _, _ in facts))
        return replace(hint, cells=cells, links=tuple(facts))
    return None


def _book_fallback(work: Board, hint: Hint, families: Mapping[str, Any],
                   engine: Engine, top: int | None = None) -> Step:
    """The book's trial at a position whose forcing chain the pattern family
    cannot rebuild within its depth: named as what it shows ("forcing chains
    (book)", "nested trials" when its branches use trials), valued as the
    walk rates the position.  Also where the family's proof would use a
    level above the grid's (``top``): the book's trial of the grid's level
    then (a reductio where disjunctive constructions solve the grid)."""
    net = families.get(NETS)
    if net is not None and top is not None and (hint.placements or hint.eliminations):
        # the hint's own conclusions from a pivot of two, where a trial of
        # the grid's level proves them: the path stays on the walk's
        try:
            pivot = net.step(replace(hint, family="Dynamic Double Forcing Chains", cells=()),
                             work, engine)
        except (ValueError, IndexError, StopIteration):
            pivot = None
        if pivot is not None and shown_level(pivot) <= top:
            return net.label(pivot, NETS, hint.rating)
    step = engine.next_step(work, None, top)
    if step is None:
        raise RuntimeError(f"neither the walk's {hint.family} nor a book trial moves "
                           f"{work.to_string()}")
    if not step.depth:  # the grid's level is below the trials: the book's rule itself
        return step
    name = "nested trials" if step.depth > 1 else NETS
    net = families.get(NETS)
    return (net.label(step, name, hint.rating) if net is not None
            else replace(step, se=hint.rating / 10))


def _hints(work: Board, hints: tuple[Hint, ...], families: Mapping[str, Any],
           engine: Engine, top: int | None = None) -> Iterator[Step]:
    """The hints of a move as steps of their families, each applied in turn
    with what it still proves.  The walk found them all on one position; the
    next shown is the first whose pattern is still whole on the board the
    earlier ones left.  One that no longer is is left to the walk, which
    finds its conclusions again from the new position."""
    left = list(hints)
    first = True
    while left:
        for i, hint in enumerate(left):
            step = _present(work, hint, families, engine, check=not first)
            if step is not None:
                del left[i]
                break
        else:
            return
        first = False
        if top is not None and shown_level(step) > top:
            # the family's proof goes above the grid's level (a reductio
            # where disjunctive constructions solve the grid): the book's
            # trial of the grid's level instead, valued as the walk rates it
            step = _book_fallback(work, hint, families, engine, top)
        if step.placements or step.eliminations:
            work.apply(step)
            yield step


def _present(work: Board, hint: Hint, families: Mapping[str, Any],
             engine: Engine, check: bool = True) -> Step | None:
    """The step of ``hint`` on ``work`` with the effects it still has, or
    None where its pattern is no longer whole there (``check``: the first
    hint of a move is on the position it was found on, and always whole)."""
    family = families.get(hint.family)
    if family is None:
        raise LookupError(f"no pattern family presents {hint.family!r} "
                          f"(see the sudoku_grader.patterns entry points)")
    if not check:
        try:
            step = family.step(hint, work, engine)
        except (ValueError, IndexError, StopIteration):
            # a net the presenter cannot rebuild, or a hint of Sudoku
            # Explainer's chaining producers (no links): the project's own
            # chain with the same conclusions, else the book's trial
            shown = _linked(work, hint)
            try:
                step = (family.step(shown, work, engine) if shown is not None
                        else _book_fallback(work, hint, families, engine))
            except (ValueError, IndexError, StopIteration):
                step = _book_fallback(work, hint, families, engine)
    else:
        if any(work.values[c] for c in hint.cells):
            return None
        try:
            step = family.step(hint, work, engine)
        except (StopIteration, ValueError, IndexError):
            return None
        if not whole(step, work):
            return None
    return replace(step, placements=tuple(e for e in step.placements if not work.values[e[0]]),
                   eliminations=tuple(e for e in step.eliminations
                                      if work.cands[e[0]] >> (e[1] - 1) & 1))


def whole(step: Step, board: Board) -> bool:
    """Every link of the step's pattern joins candidates of ``board``, a
    strong link still leaves its two ends (a candidate, or a group's) as the
    only places of their cell or unit, a weak link's ends still see each
    other, every cell of the pattern is open, and what its family states of
    the position (``holds``) is still true there."""
    for c, _ in step.pattern.cells:
        if board.values[c]:
            return False
    for arc in step.pattern.arcs:
        if not arc_holds(board, arc):
            return False
    holds = getattr(step.technique, "holds", None)
    return holds is None or bool(holds(step, board))


def arc_holds(board: Board, arc: Arc) -> bool:
    """Whether ``arc`` is what its kind says on ``board``."""
    geo = board.geo
    (a, da), (b, db) = arc.a, arc.b
    ends_a, ends_b = arc.a_cells, arc.b_cells
    for c, v in [(c, da) for c in ends_a] + [(c, db) for c in ends_b]:
        if board.values[c] or not board.cands[c] >> (v - 1) & 1:
            return False
    if a == b and not arc.grouped:
        if arc.strong:
            return da != db and board.cands[a] == (1 << (da - 1)) | (1 << (db - 1))
        return da != db
    if da != db:
        return False
    if not arc.strong:
        return all(x != y and any(r in geo.cell_regions[y] for r in geo.cell_regions[x])
                   for x in ends_a for y in ends_b)
    if arc.unit < 0:
        return False
    unit = geo.region_set[arc.unit]
    if not all(c in unit for c in ends_a + ends_b):
        return False
    bit = 1 << (da - 1)
    spots = {c for c in geo.regions[arc.unit] if board.cands[c] & bit and not board.values[c]}
    if not arc.grouped:
        return spots == {a, b}
    return spots <= set(ends_a) | set(ends_b)
