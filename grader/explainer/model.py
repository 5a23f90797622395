"""The JSON form of an explanation (``explain --format json``), as pydantic
models.  Within one schema string fields are only ever added: a reader must
ignore fields it does not know (these models do), and a change of shape
changes the schema string.

Cells are 1-based ``[row, column]`` pairs; regions are named ``R3``, ``C6``,
``B2``; values are integers 1..n.  A step's fields extend
:meth:`grader.core.steps.Step.to_dict` (same names) with its number, family, and
the two explanation depths.  A trial step carries its branches; each branch
gives its minimal ``chain``: a list of links numbered from 0 (0 is the
assumption), each with the rule, the facts it establishes and the indexes of
the links it uses (always smaller), a nested trial's own explanation under
``trial``; then its ``end`` (the contradiction or the conclusion, with the
links it uses).  ``steps`` (the whole recorded propagation) is only filled
with ``--full-trace``.

Schema history: ``/1`` branches held ``steps`` only; ``/2`` adds ``chain``
and ``end`` and leaves ``steps`` null unless asked for; ``/3`` (issue 27)
drops a step's ``pattern_name`` (it named the pattern the rating's walk
found as if the trial's chain formed it) for ``common_name`` (the name
players give the step's technique: hidden single, pointing, naked quad, cell
forcing chains...) and ``rated_pattern`` (the pattern the rating's walk
finds at a trial's position, which the chain need not form; the pattern
path shows it), makes ``level`` the highest level the step's proof uses and
adds ``rule_level`` (its rule's level), and adds the document's
``notation`` (``book`` or ``compact``: the notation of every sentence).
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from grader.core.steps import Branch, Link, Step
from grader.explainer.names import common_name, shown_level

SCHEMA = "sudoku-grader/explain/3"


class _Model(BaseModel):
    # fields added by a later version of the same schema are accepted
    model_config = ConfigDict(extra="ignore")


class LinkRole(StrEnum):
    """What a link of a chain is."""

    assumption = "assumption"
    deduction = "deduction"


class EndKind(StrEnum):
    """How a branch ends."""

    contradiction = "contradiction"
    conclusion = "conclusion"


class CellValue(_Model):
    cell: list[int] = Field(description="1-based [row, column]")
    value: int


class CellRole(_Model):
    cell: list[int] = Field(description="1-based [row, column]")
    role: str


class RegionRole(_Model):
    region: str = Field(description="R1..Rn, C1..Cn or B1..Bn")
    role: str


class ArcModel(_Model):
    """A link of a pattern (the pattern path's steps)."""

    a: CellValue = Field(description="the candidate the link starts from")
    b: CellValue = Field(description="the candidate it ends at")
    kind: str = Field(description="strong (at least one of the two is true), weak (at most "
                                  "one is), or grouped-strong / grouped-weak: the same where an "
                                  "end is a group of cells (a_cells, b_cells) holding the "
                                  "value in one of them")
    a_cells: list[list[int]] = Field(
        default=[], description="the cells of the first end: [a.cell], or every cell of a group")
    b_cells: list[list[int]] = Field(
        default=[], description="the cells of the second end: [b.cell], or every cell of a group")
    unit: str | None = Field(
        default=None, description="where it holds (R1..Rn, C1..Cn, B1..Bn): the unit where the "
                                  "value has just these two places (strong) or that the two "
                                  "cells share (weak); null for two values of one cell")


class PatternModel(_Model):
    cells: list[CellRole] = []
    regions: list[RegionRole] = []
    values: list[int] = []
    links: list[ArcModel] = Field(
        default=[], description="the links that make the pattern, in reading order (pattern "
                                "path); empty for the book's rules")


class ConflictModel(_Model):
    reason: str
    cells: list[list[int]] = []
    region: str | None = None
    value: int | None = None


class LinkModel(_Model):
    index: int = Field(description="0 for the assumption, then 1, 2, ... in chain order")
    role: LinkRole
    rule: str = Field(description="rule code of the sub-step, or 'assumption'")
    name: str
    level: int | None = Field(
        default=None, description="level of the rule (null for the assumption)")
    placements: list[CellValue] = []
    eliminations: list[CellValue] = Field(
        default=[], description="the effects of the sub-step the chain needs (not all of them)")
    uses: list[int] = Field(default=[], description="indexes of the links this one comes from")
    notation: str = Field(description="in the document's notation, e.g. r5c4<>7")
    summary: str = Field(default="", description="the sub-step's one-line sentence")
    trial: StepModel | None = Field(
        default=None, description="a nested trial's own explanation (its branches and chains)")


class EndModel(_Model):
    kind: EndKind
    reason: str = Field(description="the contradiction's reason, or the conclusions reached")
    uses: list[int] = Field(default=[], description="indexes of the links the end rests on")
    notation: str = Field(description="the whole branch in the document's notation")


class BranchModel(_Model):
    assume: CellValue
    chain: list[LinkModel] | None = Field(
        default=None,
        description="the minimal chain, from the assumption (index 0) to the last link the "
                    "end needs; null when the engine did not record it")
    end: EndModel | None = None
    steps: list[StepModel] | None = Field(
        default=None,
        description="the whole recorded propagation (explain --full-trace), else null")
    contradiction: str | None = Field(
        None, description="why the branch is impossible, or null when it is not")
    conflict: ConflictModel | None = None


class StepModel(_Model):
    number: int = Field(description="1-based position in its chain")
    rule: str = Field(description="rule code from the hierarchy, e.g. single-position")
    name: str = Field(description="the book's name of the technique, from the hierarchy")
    common_name: str | None = Field(
        default=None, description="the name players give the technique (hidden single, naked "
                                  "single, pointing, claiming, naked quad, cell forcing "
                                  "chains...), null when none")
    level: int = Field(description="the highest level the step's proof uses (a trial whose "
                                   "branches use level-14 rules is of level 14)")
    rule_level: int = Field(description="the level of the step's rule in the hierarchy")
    reference: str = Field(description="the book's reference, e.g. 'rule 2.1'")
    family: str = Field(description="template family, e.g. single-position, fish, reductio")
    summary: str = Field(description="one line in the document's notation (--detail short)")
    explanation: str = Field(description="the reasoning in full sentences (--detail teach)")
    placements: list[CellValue] = []
    eliminations: list[CellValue] = []
    pattern: PatternModel
    depth: int = Field(0, description="nesting depth of a trial, 0 otherwise")
    rated_pattern: str | None = Field(
        default=None, description="a trial's position: the pattern the rating's walk finds "
                                  "there (e.g. skyscraper), whose conclusion the trial also "
                                  "gives; the trial's chain need not form it (explain --path "
                                  "patterns shows it); null otherwise")
    se: float | None = Field(
        default=None, description="the pattern's value on Sudoku Explainer's scale (a step of "
                                  "the pattern path where the book's rules stop), else null")
    branches: list[BranchModel] = []


BranchModel.model_rebuild()
LinkModel.model_rebuild()


class Explanation(_Model):
    """The whole document of ``explain --format json``."""

    schema_: str = Field(SCHEMA, alias="schema", description="format version of this document")
    puzzle: str = Field(description="the starting values, '.' for empty")
    candidates: list[str] | None = Field(
        None, description="the starting candidates per cell (row-major) when the position was "
                          "given with pencil marks, else null")
    size: int
    box: str = Field(description="block shape AxB (rows x columns)")
    level: int = Field(description="highest level used (0 when nothing was needed)")
    rating: str | None
    depth: int
    solved: bool
    path: str = Field("book", description="book (the minimal-level strategy) or patterns (the "
                                          "expert walk's patterns where rules 1-12 stop)")
    notation: str = Field("compact", description="the notation of every sentence of the document: "
                                                 "compact (r2c7<>3, r4c9=8; the default) or book "
                                                 "((2, 7) != 3, (4, 9) <- 8)")
    steps: list[StepModel]
    final: str = Field(description="the values after the last step, '.' for empty")

    model_config = ConfigDict(extra="ignore", populate_by_name=True)


def _rc(step: Step, c: int) -> list[int]:
    return [step.geo.cell_row[c] + 1, step.geo.cell_col[c] + 1]


def _cv(step: Step, effects: tuple[tuple[int, int], ...]) -> list[CellValue]:
    return [CellValue(cell=_rc(step, c), value=v) for c, v in effects]


def link_model(step: Step, link: Link, full: bool = False) -> LinkModel:
    from grader.core.trial_text import link_notation

    sub = link.step
    return LinkModel(
        index=link.index, role=LinkRole.deduction, rule=sub.rule, name=sub.name,
        level=sub.level, placements=_cv(step, link.placements),
        eliminations=_cv(step, link.eliminations), uses=list(link.uses),
        notation=link_notation(step.geo, link), summary=sub.summary(),
        trial=step_model(sub, link.index, full) if sub.branches else None)


def chain_models(step: Step, b: Branch, full: bool = False,
                 ) -> tuple[list[LinkModel] | None, EndModel | None]:
    """The chain of a branch and its end, as models."""
    from grader.core.trial_text import chain_notation, fact_notation

    if b.chain is None:
        return None, None
    geo = step.geo
    head = LinkModel(
        index=0, role=LinkRole.assumption, rule="assumption", name="assumption",
        placements=[CellValue(cell=_rc(step, b.cell), value=b.value)],
        notation=fact_notation(geo, b.cell, b.value, True),
        summary=f"assume {geo.cell_name(b.cell)} <- {geo.symbol(b.value)}")
    links = [head, *(link_model(step, link, full) for link in b.chain.links)]
    if b.conflict is not None:
        kind, reason = EndKind.contradiction, b.conflict.reason
    else:
        from grader.core.phrases import effects

        kind, reason = EndKind.conclusion, effects(geo, step.placements, step.eliminations)
    end = EndModel(kind=kind, reason=reason, uses=list(b.chain.end),
                   notation=chain_notation(step, b))
    return links, end


def branch_model(step: Step, b: Branch, full: bool = False) -> BranchModel:
    geo = step.geo
    conflict = None
    if b.conflict is not None:
        k = b.conflict
        conflict = ConflictModel(
            reason=k.reason, cells=[_rc(step, c) for c in k.cells],
            region=None if k.region is None else geo.region_name(k.region), value=k.value)
    chain, end = chain_models(step, b, full)
    return BranchModel(
        assume=CellValue(cell=_rc(step, b.cell), value=b.value),
        chain=chain, end=end,
        steps=[step_model(s, i, full) for i, s in enumerate(b.steps, start=1)]
        if full or b.chain is None else None,
        contradiction=None if b.conflict is None else b.conflict.reason,
        conflict=conflict,
    )


def step_model(step: Step, number: int, full: bool = False) -> StepModel:
    """The model of a step; ``full``: trial branches also carry the whole
    recorded propagation (``steps``)."""
    geo = step.geo
    return StepModel(
        number=number,
        rule=step.rule,
        name=step.name,
        common_name=common_name(step),
        level=shown_level(step),
        rule_level=step.level,
        reference=step.reference,
        family=step.family,
        summary=step.summary(),
        explanation=step.explain("teach"),
        placements=[CellValue(cell=_rc(step, c), value=v) for c, v in step.placements],
        eliminations=[CellValue(cell=_rc(step, c), value=v) for c, v in step.eliminations],
        pattern=PatternModel(
            cells=[CellRole(cell=_rc(step, c), role=r) for c, r in step.pattern.cells],
            regions=[RegionRole(region=geo.region_name(g), role=r)
                     for g, r in step.pattern.regions],
            values=list(step.pattern.values),
            links=[ArcModel(a=CellValue(cell=_rc(step, arc.a[0]), value=arc.a[1]),
                            b=CellValue(cell=_rc(step, arc.b[0]), value=arc.b[1]),
                            kind=arc.kind,
                            a_cells=[_rc(step, c) for c in arc.a_cells],
                            b_cells=[_rc(step, c) for c in arc.b_cells],
                            unit=geo.region_name(arc.unit) if arc.unit >= 0 else None)
                   for arc in step.pattern.arcs],
        ),
        depth=step.depth,
        rated_pattern=step.rated_pattern or None,
        se=step.se,
        branches=[branch_model(step, b, full) for b in step.branches],
    )
