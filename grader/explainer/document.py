"""A whole explanation as data: the JSON document and the facts every
output format prints (level, rating, steps, final grid)."""

from __future__ import annotations

from dataclasses import dataclass

from grader.core.board import Board
from grader.core.geometry import values_of
from grader.explainer.core import Walkthrough
from grader.explainer.model import SCHEMA, Explanation, step_model
from grader.explainer.notation import shown
from grader.strategy.hierarchy import Hierarchy


def values_string(board: Board) -> str:
    sym = board.geo.symbols
    return "".join(sym[v - 1] if v else "." for v in board.values)


def candidates_list(board: Board) -> list[str]:
    """Per cell: its value, or the symbols of its candidates."""
    geo = board.geo
    out = []
    for c in range(geo.ncells):
        v = board.values[c]
        out.append(geo.symbol(v) if v else
                   "".join(geo.symbol(w) for w in values_of(board.cands[c])))
    return out


@dataclass
class Facts:
    puzzle: str
    size: int
    box: str
    steps: int
    level: int
    rating: str | None
    depth: int
    solved: bool
    final: str

    def sentence(self) -> str:
        """``58 steps; level 13 (expert); solved.``, or for a grid the rules
        leave unfinished ``14 steps, the hardest of level 1; stuck: ...``
        (the level of the grid itself is not known then)."""
        count = f"{self.steps} {'step' if self.steps == 1 else 'steps'}"
        depth = f", trials nested to depth {self.depth}" if self.depth > 1 else ""
        if not self.solved:
            empty = self.final.count(".")
            hardest = f", the hardest of level {self.level}" if self.steps else ""
            return (f"{count}{hardest}{depth}; stuck: no rule of the hierarchy applies any "
                    f"more, {empty} {'cell' if empty == 1 else 'cells'} still empty.")
        rating = f" ({self.rating})" if self.rating else ""
        return f"{count}; level {self.level}{rating}{depth}; solved."


def facts(wt: Walkthrough, hierarchy: Hierarchy | None = None) -> Facts:
    wt.ensure()
    h = hierarchy or wt.engine.hierarchy
    level = wt.level()
    final = wt.final()
    return Facts(
        puzzle=values_string(wt.start), size=wt.start.geo.n, box=wt.start.geo.box,
        steps=len(wt.steps), level=level, rating=h.rating(level), depth=wt.depth(),
        solved=final.is_solved(), final=values_string(final))


def document(wt: Walkthrough, pencil: bool = False, full_trace: bool = False,
             notation: str | None = None) -> Explanation:
    """The :class:`~grader.explainer.model.Explanation` of a walkthrough;
    ``full_trace``: trial branches also carry the whole recorded propagation;
    ``notation``: the sentences' (``book`` or ``compact``)."""
    f = facts(wt)
    doc = Explanation(
        schema=SCHEMA,
        puzzle=f.puzzle,
        candidates=candidates_list(wt.start) if pencil else None,
        size=f.size, box=f.box, level=f.level, rating=f.rating, depth=f.depth,
        solved=f.solved, path=wt.path,
        notation="book" if notation is None else notation,
        steps=[step_model(s, i, full_trace) for i, s in enumerate(wt.steps, start=1)],
        final=f.final,
    )
    if notation is None:
        return doc
    text = shown(doc.model_dump_json(by_alias=True), notation, names=False)
    return Explanation.model_validate_json(text).model_copy(update={"notation": notation})
