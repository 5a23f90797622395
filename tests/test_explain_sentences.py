"""Every phrase template, at every depth and hint level, on real positions.

Each step of the solution path of the book's figures and of a sample of
varied grids (Sudoku Exchange, generated, other sizes) is rendered in every
way it can be shown (short and teach explanations, the three hint levels, a
trial's branches and every sub-step in them) and checked by
``sentence_checks``: no conclusion restated as its own reason, no
singular/plural mistake, no empty list, no repeated clause, and hint levels
that reveal strictly more each time, the first two never the conclusion;
and by ``walk_checks``, every defect kind of issue 27 in every output
(names, excluders, chains, levels, labels, the compact notation).

The default run takes a few seconds (the book's figures, a few chosen grids
that between them use every template, and constructed positions for the
rarest forms); ``--runslow`` adds a few hundred grids.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from conftest import G6, G9, G16, PUZZLES, make_rule, marks, without
from sentence_checks import LINE_RULES, repeated_clauses, step_problems, variant
from walk_checks import walk_problems

from grader.core.board import Board
from grader.core.steps import Step
from grader.explainer.core import walkthrough
from grader.explainer.hints import hint, technique_hint, where_hint
from grader.formats import iter_source, parse_grid_token
from grader.strategy.engine import Engine

#: Sudoku Exchange grids (puzzles/se-rated-9758.txt, by index) that use the
#: rarer templates: a naked quad, Swordfish, hidden pair and triple, both
#: pivots of a disjunctive construction, reductio ad absurdum.
SE_CHOSEN = (1601, 2901, 3301, 4951, 7875, 9701)

#: Trials nested two deep (top1465; also the slow grid of tests/test_bulk.py).
NESTED = "..3......4...8..36..83..1...4..6..73...9...1......2.....4.7..686........7.....5.."

#: The grid of the issue (bench-mixed line 3): step 9 is a full house.
FULL_HOUSE_GRID = ("6....23.5...97..16.21.....9.7.643...............891.4.2.....53.31..64...9."
                   "47....1")


def _grids(path: Path, every: int = 1, chosen: tuple[int, ...] = ()) -> list[str]:
    out = []
    for rec in iter_source(str(path)):
        if rec.grid is not None and ((rec.index - 1) % every == 0 if not chosen
                                     else rec.index in chosen):
            out.append(rec.text)
    return out


SAMPLES: dict[str, tuple[Path, int, tuple[int, ...]]] = {
    "book-figures": (PUZZLES / "book-figures.txt", 1, ()),
    "se-chosen": (PUZZLES / "se-rated-9758.txt", 1, SE_CHOSEN),
    "sizes-4x4": (PUZZLES / "sizes-4x4.txt", 1, ()),
    "sizes-6x6": (PUZZLES / "sizes-6x6.txt", 1, ()),
}
SLOW_SAMPLES: dict[str, tuple[Path, int, tuple[int, ...]]] = {
    "se-rated-every-40th": (PUZZLES / "se-rated-9758.txt", 40, ()),
    "generated-mixed-9x9": (PUZZLES / "generated-mixed-9x9.txt", 1, ()),
    "sizes-8x8": (PUZZLES / "sizes-8x8.txt", 1, ()),
    "sizes-12x12": (PUZZLES / "sizes-12x12.txt", 1, ()),
    "sizes-16x16": (PUZZLES / "sizes-16x16.txt", 1, ()),
}


def _positions() -> list[tuple[str, Board]]:
    """Constructed candidate states for the forms no short sample reaches."""
    b9 = without(G9, 5, [(3, j) for j in range(1, 7)])  # multiple lines, rows
    cells = [(7, 4), (7, 5), (7, 6), (8, 4), (8, 5), (8, 6), (9, 4), (9, 5), (9, 6)]
    keep = {(7, 4), (8, 5), (9, 6), (7, 6)}
    quad = marks(G9, {})
    for v in (1, 3, 5, 9):
        quad = without(G9, v, [c for c in cells if c not in keep], quad)
    triple = marks(G9, {})
    for v in (1, 3, 5):
        triple = without(G9, v, [c for c in cells if c not in {(7, 4), (8, 5), (9, 6)}], triple)
    fish3 = without(G9, 9, [(r, j) for r, cs in {1: (1, 5), 4: (5, 9), 8: (1, 9)}.items()
                            for j in range(1, 10) if j not in cs])
    return [
        ("multiple-lines", b9),
        ("multiple-lines-columns", without(G9, 5, [(i, 3) for i in range(1, 7)])),
        ("hidden-quad", quad),
        ("hidden-triple", triple),
        ("swordfish-cycle", fish3),
        ("single-candidate-alone", marks(G9, {(5, 5): [7]})),
        ("single-candidate-one-peer", marks(G9, {(5, 5): [7]}, values={(5, 1): 3})),
        ("candidate-lines-one-cell", without(G9, 4, [(1, 2), (1, 3), (2, 1), (2, 2), (2, 3),
                                                     (3, 1), (3, 2), (3, 3)])),
        ("naked-pair-6x6", marks(G6, {(1, 1): [1, 2], (1, 2): [1, 2]})),
        ("naked-pair-16x16", marks(G16, {(1, 1): [1, 2], (1, 2): [1, 2]})),
    ]


CODES = ("single-position", "single-candidate", "candidate-lines", "multiple-lines",
         "naked-pair", "naked-triple", "hidden-pair", "hidden-triple", "x-wing",
         "naked-tuple", "hidden-tuple", "swordfish")


@cache
def _checked_grids(name: str, slow: bool = False) -> tuple[list[str], frozenset[str]]:
    path, every, chosen = (SLOW_SAMPLES if slow else SAMPLES)[name]
    problems: list[str] = []
    seen: set[str] = set()
    engine = Engine()
    for text in _grids(path, every, chosen):
        wt = walkthrough(parse_grid_token(text).board(), engine, path="book")
        for number, _, step in wt:
            seen.add(variant(step))
            problems += [f"{name} {text} step {number}: {p}" for p in step_problems(step)]
        # issue 27's defect kinds, in every output (tests/walk_checks.py)
        problems += [f"{name} {text} {p}" for p in walk_problems(wt)]
    return problems, frozenset(seen)


@cache
def _checked_positions() -> tuple[list[str], frozenset[str]]:
    """Every step every rule finds on the constructed states (not only the first)."""
    problems: list[str] = []
    seen: set[str] = set()
    for name, board in _positions():
        for code in CODES:
            for step in make_rule(code).find(board):
                if board.progress(step):
                    seen.add(variant(step))
                    problems += [f"{name} {code}: {p}" for p in step_problems(step)]
    return problems, frozenset(seen)


def _report(problems: list[str]) -> str:
    return f"{len(problems)} problems, the first ones:\n" + "\n".join(problems[:12])


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_sentence_of_the_sample_reads_well(name: str) -> None:
    problems, seen = _checked_grids(name)
    assert seen, f"{name}: no step rendered"
    assert not problems, _report(problems)


def test_every_sentence_of_the_constructed_positions_reads_well() -> None:
    problems, seen = _checked_positions()
    assert not problems, _report(problems)


#: Every template and every form of it that the default run must exercise.
REQUIRED = {
    "single-position", "single-position/also", "single-position/full-house",
    "single-position/no-excluder", "single-candidate/all-but-one", "single-candidate/some",
    "single-candidate/one", "single-candidate/none", "candidate-lines/block",
    "candidate-lines/line", "multiple-lines", "naked-subset/2", "naked-subset/3",
    "naked-subset/4", "hidden-subset/2", "hidden-subset/3", "hidden-subset/4", "fish/2",
    "fish/3", "disjunctive-construction/cell/one-live",
    "disjunctive-construction/cell/all-live", "disjunctive-construction/region/one-live",
    "disjunctive-construction/region/all-live", "reductio",
}


def test_the_default_run_exercises_every_template() -> None:
    seen: set[str] = set(_checked_positions()[1])
    for name in SAMPLES:
        seen |= _checked_grids(name)[1]
    assert seen >= REQUIRED, f"never rendered: {sorted(REQUIRED - seen)}"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SLOW_SAMPLES))
def test_every_sentence_of_a_larger_sample_reads_well(name: str) -> None:
    problems, seen = _checked_grids(name, slow=True)
    assert seen
    assert not problems, _report(problems)


@pytest.mark.slow
def test_nested_trials_read_well() -> None:
    wt = walkthrough(parse_grid_token(NESTED).board(), path="book")
    steps = [s for _, _, s in wt]
    nested = [s for s in steps if s.depth > 1]
    assert nested
    assert "with trials nested 2 deep" in technique_hint(nested[0])
    problems = [p for s in steps for p in step_problems(s)] + walk_problems(wt)
    assert not problems, _report(problems)


# -- the checks themselves catch what the issue quotes ------------------------

@pytest.mark.parametrize("line,what", [
    ("the remaining one ((1, 4) <- 9) gives (1, 4) <- 9.", "tautology"),
    ("In block B3, 5 can only go in (3, 8) or (3, 9), which all lie in row R3.",
     "'all' of two"),
    ("the 7s of columns C2 and C8 all lie in rows R2 and R6", "'all' of two"),
    ("leads in 1 steps to a contradiction", "plural after 1"),
    ("in (5, 1), are 1 different values", "plural after 1"),
    ("the 3 cells", None),
    ("in 2 cell", "singular after a number"),
    ("one of a cells", "article before a plural"),
    ("so 5 leaves the cells of () in rows R1 and R2: .", "empty list"),
    ("No other cell of R3 can hold 1 or: (3, 9) != 4.", "empty list"),
    ("=> ", "empty list"),
    ("look at the the row", "repeated word"),
    ("(1, 1), (1, 2) or (1, 3), which all lie in row R1", None),
    ("branch 2: r4c9=8 => r4c9=8", "a fact implies itself (X => X)"),
    ("r4c9=8 -> r5c5=1 => r5c5=1,r6c6<>2", None),
    ("assume (4, 9) <- 8 — conclusion after 0 lines", "after 0 lines"),
    ("so (5, 4) != 3, (6, 4) != 3 holds.", "a list that 'holds'"),
    ("so (5, 4) != 3 holds.", None),
    ("(6, 4) <- 5 by single position (from the assumption and 3)", "an unnamed assumption"),
    ("Players call this pattern a skyscraper.", "a name the chain does not form"),
    ("(1, 1) or (1, 2), which both lie in row R1", None),
])
def test_the_line_checks(line: str, what: str | None) -> None:
    found = [w for w, rx in LINE_RULES if rx.search(line)]
    assert found == ([what] if what else []), found


def test_a_repeated_clause_is_found() -> None:
    text = "so 3 can only go in (8, 6). Apart from that, so 3 can only go in (8, 6)."
    assert repeated_clauses(text, whole=True) == ["so 3 can only go in (8, 6)"]


def test_an_assumption_that_gives_itself_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's 'no contradiction: the assumption itself gives (1, 4) <- 9',
    in a constructed step whose branch end says so."""
    import grader.core.chain_text as trials
    from grader.core.steps import Branch, Conflict, Pattern
    from grader.rules.trials import DisjunctiveConstruction

    c14, c15 = 3, 4  # (1, 4), (1, 5)
    step = Step("disjunctive-construction", "disjunctive construction", 13,
                "disjunctive-construction", ((c14, 9),), (),
                Pattern(cells=((c14, "pivot"), (c15, "pivot")), regions=((0, "pivot"),),
                        values=(9,)), G9,
                (Branch(c14, 9, ()), Branch(c15, 9, (), Conflict("9 is placed twice"))),
                depth=1, reference="section 4.3.1", technique=DisjunctiveConstruction)
    assert not step_problems(step)
    original = trials.branch_end

    def broken(step: Step, b: Branch, mark: str = "A") -> str:
        if b.conflict is None:
            return "no contradiction: the assumption itself gives (1, 4) <- 9"
        return original(step, b, mark)

    monkeypatch.setattr(trials, "branch_end", broken)
    problems = step_problems(step)
    assert any("an assumption gives itself ((1, 4) <- 9)" in p for p in problems), problems


# -- full house and hint levels, on the grid ----------------------------

def test_a_full_house_is_named_with_its_reason() -> None:
    steps = [s for _, _, s in walkthrough(parse_grid_token(FULL_HOUSE_GRID).board(), path="book")]
    step = steps[8]  # the step 9
    assert (step.rule, step.level, step.placements) == ("single-position", 1, ((39, 5),))
    assert step.summary() == (
        "single position: (5, 4) is the last empty cell of column C4 (a full house); the only "
        "value missing there is 5 => (5, 4) <- 5")
    assert step.explain("teach") == (
        "A full house: (5, 4) is the last empty cell of column C4; the only value missing "
        "there is 5. A column holds each of the 9 values exactly once, so (5, 4) <- 5.")
    assert technique_hint(step) == "Try a full house (single position, rule 2.1, level 1)."
    assert where_hint(step).endswith("look at column C4: only one of its cells is still empty.")


def test_a_full_house_needs_a_unit_with_one_empty_cell() -> None:
    """Only the single positions in a unit with exactly one empty cell are full houses."""
    from grader.core.phrases import FULL_HOUSE

    g = parse_grid_token(FULL_HOUSE_GRID)
    for _, board, step in walkthrough(g.board(), path="book"):
        if step.family != "single-position":
            continue
        (cell, _), = step.placements
        empty_units = [r for r in g.geo.cell_regions[cell]
                       if all(board.values[c] or c == cell for c in g.geo.regions[r])]
        assert bool(step.pattern.regions_with(FULL_HOUSE)) == bool(empty_units)


def test_hint_levels_reveal_more_each_time() -> None:
    step = next(s for _, _, s in walkthrough(parse_grid_token(
        (PUZZLES / "se-rated-9758.txt").read_text().splitlines()[7874].split()[1]).board(), path="book")
        if s.family == "reductio")
    tech, where, full = (hint(step, lv) for lv in ("technique", "where", "full"))
    assert tech == ("Try reductio ad absurdum (contradiction forcing chain; section 4.3.2, "
                    "level 14).")
    assert where.startswith(tech[:-1] + ": look at block B4")
    assert "(4, 1)" not in where  # the pivot and the conclusion stay hidden
    assert "(4, 1) != 1" in full and where != full
    assert hint(step, "vague") == where
    with pytest.raises(ValueError, match="unknown hint level 'small'"):
        hint(step, "small")
