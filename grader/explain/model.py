"""The JSON form of an explanation (``explain --format json``), as pydantic
models.  Stable: fields are only ever added.

Cells are 1-based ``[row, column]`` pairs; regions are named ``R3``, ``C6``,
``B2``; values are integers 1..n.  A step's fields extend
:meth:`grader.steps.Step.to_dict` (same names) with its number, family, and
the two explanation depths; trial steps carry their branches, each a list of
sub-steps of the same shape (numbered from 1 within the branch).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ..steps import Branch, Step

SCHEMA = "sudoku-grader/explain/1"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CellValue(_Model):
    cell: list[int] = Field(description="1-based [row, column]")
    value: int


class CellRole(_Model):
    cell: list[int] = Field(description="1-based [row, column]")
    role: str


class RegionRole(_Model):
    region: str = Field(description="R1..Rn, C1..Cn or B1..Bn")
    role: str


class PatternModel(_Model):
    cells: list[CellRole] = []
    regions: list[RegionRole] = []
    values: list[int] = []


class ConflictModel(_Model):
    reason: str
    cells: list[list[int]] = []
    region: str | None = None
    value: int | None = None


class BranchModel(_Model):
    assume: CellValue
    steps: list[StepModel]
    contradiction: str | None = Field(
        None, description="why the branch is impossible, or null when it is not")
    conflict: ConflictModel | None = None


class StepModel(_Model):
    number: int = Field(description="1-based position in its chain")
    rule: str = Field(description="rule code from the hierarchy, e.g. single-position")
    name: str
    level: int
    reference: str = Field(description="the book's reference, e.g. 'rule 2.1'")
    family: str = Field(description="template family, e.g. single-position, fish, reductio")
    summary: str = Field(description="one line in the book's notation (--detail short)")
    explanation: str = Field(description="the reasoning in full sentences (--detail teach)")
    placements: list[CellValue] = []
    eliminations: list[CellValue] = []
    pattern: PatternModel
    depth: int = Field(0, description="nesting depth of a trial, 0 otherwise")
    branches: list[BranchModel] = []


BranchModel.model_rebuild()


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
    steps: list[StepModel]
    final: str = Field(description="the values after the last step, '.' for empty")

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


def _rc(step: Step, c: int) -> list[int]:
    return [step.geo.cell_row[c] + 1, step.geo.cell_col[c] + 1]


def branch_model(step: Step, b: Branch) -> BranchModel:
    geo = step.geo
    conflict = None
    if b.conflict is not None:
        k = b.conflict
        conflict = ConflictModel(
            reason=k.reason, cells=[_rc(step, c) for c in k.cells],
            region=None if k.region is None else geo.region_name(k.region), value=k.value)
    return BranchModel(
        assume=CellValue(cell=_rc(step, b.cell), value=b.value),
        steps=[step_model(s, i) for i, s in enumerate(b.steps, start=1)],
        contradiction=None if b.conflict is None else b.conflict.reason,
        conflict=conflict,
    )


def step_model(step: Step, number: int) -> StepModel:
    geo = step.geo
    return StepModel(
        number=number,
        rule=step.rule,
        name=step.name,
        level=step.level,
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
        ),
        depth=step.depth,
        branches=[branch_model(step, b) for b in step.branches],
    )
