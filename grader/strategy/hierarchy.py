"""The hierarchy table: code, name, level, book reference, plugin and rating bands.

The default table (``grader/data/hierarchy.toml``) is Jussien's Table 6.1 and
6.2.  Users pass their own with ``--hierarchy FILE`` (TOML or JSON); a file
with ``extends = "default"`` starts from the default table, replaces the rows
whose ``code`` it repeats and adds the others.
"""

from __future__ import annotations

import json
import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from grader.core.errors import GraderError


class HierarchyError(GraderError, ValueError):
    """A hierarchy file that cannot be used."""


class RuleSpec(BaseModel):
    """One row of the table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    code: str
    name: str = ""
    level: int = Field(ge=1)
    reference: str = ""
    plugin: str = ""
    params: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _default_plugin(self) -> RuleSpec:
        if not self.plugin:
            object.__setattr__(self, "plugin", self.code)
        return self


class RatingBand(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    levels: list[int]


class TrialOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    propagation: Literal["all", "singles"] = "all"
    max_alternatives: int = Field(default=2, ge=2)
    max_depth: int = Field(default=6, ge=1)
    #: Which step of the trial rule the strategy chose: "easiest" (where trials
    #: nest or many remain, the one that leaves the least to explain; else the
    #: one the position's easiest pattern gives, when one does), "scan" (the
    #: first found).
    order: Literal["easiest", "scan"] = "easiest"


class Hierarchy(BaseModel):
    """The whole table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "custom"
    rules: list[RuleSpec]
    ratings: list[RatingBand]
    trials: TrialOptions = TrialOptions()

    @model_validator(mode="after")
    def _check(self) -> Hierarchy:
        codes = [r.code for r in self.rules]
        dup = {c for c in codes if codes.count(c) > 1}
        if dup:
            raise ValueError(f"rule codes repeated: {', '.join(sorted(dup))}")
        if not self.rules:
            raise ValueError("the hierarchy has no rules")
        return self

    def ordered(self) -> list[RuleSpec]:
        """Rules by level; rows of one level keep the table's order."""
        return sorted(self.rules, key=lambda r: r.level)

    def rating(self, level: int | None) -> str | None:
        if level is None:
            return None
        for band in self.ratings:
            if level in band.levels:
                return band.name
        return None

    def spec(self, code: str) -> RuleSpec:
        for r in self.rules:
            if r.code == code:
                return r
        raise KeyError(code)

    @property
    def max_level(self) -> int:
        return max(r.level for r in self.rules)

    @property
    def rating_names(self) -> list[str]:
        return [b.name for b in self.ratings]


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise HierarchyError(f"{path}: cannot read: {e.strerror or e}") from e
    except UnicodeDecodeError as e:
        raise HierarchyError(f"{path}: not a UTF-8 text file ({e.reason} at byte "
                             f"{e.start})") from e
    kind = "JSON" if path.suffix.lower() == ".json" else "TOML"
    try:
        if kind == "JSON":
            data = json.loads(text)
        else:
            data = tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as e:
        raise HierarchyError(f"{path}: not valid {kind}: {e}") from e
    except RecursionError as e:
        raise HierarchyError(f"{path}: not valid {kind} here: nested too deeply") from e
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        raise HierarchyError(f"{path}: not valid {kind} here: {str(e)[:120]}") from e
    if not isinstance(data, dict):
        raise HierarchyError(f"{path}: expected a table at the top level")
    return data


@lru_cache(maxsize=1)
def default_hierarchy() -> Hierarchy:
    """Jussien's table, shipped with the package."""
    text = resources.files("grader").joinpath("data/hierarchy.toml").read_text(encoding="utf-8")
    return Hierarchy.model_validate(tomllib.loads(text))


def merge(base: Hierarchy, data: dict[str, Any]) -> dict[str, Any]:
    """Overlay ``data`` on ``base``: rules by code, the rest replaced.

    A row with ``after = "CODE"`` or ``before = "CODE"`` (and no level) is
    inserted as a level of its own next to that rule's level: every level
    above moves up by one, rating bands included, and the new level joins
    the band of the rule it is placed next to (or the band ``rating``
    names)."""
    merged = base.model_dump()
    rows = {r["code"]: r for r in merged["rules"]}
    order = [r["code"] for r in merged["rules"]]
    if not isinstance(data.get("rules", []), list):
        raise HierarchyError("rules: expected a list of [[rules]] tables")
    if not isinstance(data.get("trials", {}), dict):
        raise HierarchyError("trials: expected a [trials] table")
    placed: list[dict[str, Any]] = []
    for r in data.get("rules", []):
        if not isinstance(r, dict) or not isinstance(r.get("code"), str):
            raise HierarchyError("every [[rules]] row needs a code")
        if "after" in r or "before" in r:
            placed.append(r)
            continue
        if r.get("remove"):
            rows.pop(r["code"], None)
            if r["code"] in order:
                order.remove(r["code"])
            continue
        if r["code"] in rows:
            rows[r["code"]] = {**rows[r["code"]], **r}
        else:
            rows[r["code"]] = r
            order.append(r["code"])
    merged["rules"] = [rows[c] for c in order]
    for key in data:
        if key not in ("rules", "trials"):  # ratings, name; unknown keys fail validation
            merged[key] = data[key]
    if "trials" in data:
        merged["trials"] = {**merged["trials"], **data["trials"]}
    for r in placed:
        _insert(merged, r)
    return merged


def _insert(table: dict[str, Any], row: dict[str, Any]) -> None:
    """Insert ``row`` (with ``after`` or ``before``) as a level of its own."""
    code = row["code"]
    row = dict(row)
    after, before = row.pop("after", None), row.pop("before", None)
    band = row.pop("rating", None)
    if (after is None) == (before is None):
        raise HierarchyError(f"rule {code!r}: give one of after = \"CODE\" or before = \"CODE\"")
    if "level" in row:
        raise HierarchyError(f"rule {code!r}: a rule placed with after/before takes its level "
                             "from there; leave level out")
    anchor = after if after is not None else before
    rules = table["rules"]
    if any(r["code"] == code for r in rules):
        raise HierarchyError(f"rule {code!r} is already in the hierarchy")
    ref = next((r for r in rules if r["code"] == anchor), None)
    if ref is None:
        known = ", ".join(r["code"] for r in rules)
        raise HierarchyError(f"rule {code!r}: no rule {anchor!r} to place it next to "
                             f"(known: {known})")
    anchor_level = int(ref["level"])
    new = anchor_level + 1 if after is not None else anchor_level
    for r in rules:
        if int(r["level"]) >= new:
            r["level"] = int(r["level"]) + 1
    ratings = table["ratings"]
    for b in ratings:
        b["levels"] = [lv + 1 if lv >= new else lv for lv in b["levels"]]
    target = _band_for(ratings, band, anchor_level + (1 if before is not None else 0), code)
    target["levels"] = sorted([*target["levels"], new])
    rules.append({**row, "level": new})


def _band_for(ratings: list[dict[str, Any]], name: str | None, anchor_level: int,
              code: str) -> dict[str, Any]:
    if name is not None:
        for b in ratings:
            if b["name"] == name:
                return b
        known = ", ".join(b["name"] for b in ratings)
        raise HierarchyError(f"rule {code!r}: no rating {name!r} (known: {known})")
    for b in ratings:
        if anchor_level in b["levels"]:
            return b
    raise HierarchyError(f"rule {code!r}: level {anchor_level} is in no rating band; "
                         "say which with rating = \"...\"")


def _standalone(data: dict[str, Any]) -> dict[str, Any]:
    """A table without ``extends``: rows placed with after/before are
    inserted once the rows with levels are in place."""
    rules = data.get("rules")
    if not isinstance(rules, list) or not any(
            isinstance(r, dict) and ("after" in r or "before" in r) for r in rules):
        return data
    table = {**data, "rules": [dict(r) for r in rules if not ("after" in r or "before" in r)],
             "ratings": [dict(b) for b in data.get("ratings", [])]}
    for r in rules:
        if "after" in r or "before" in r:
            _insert(table, r)
    return table


def load_hierarchy(path: str | Path | None = None) -> Hierarchy:
    """The default table, or the one in ``path`` (TOML or JSON)."""
    if path is None:
        return default_hierarchy()
    p = Path(path)
    data = _read(p)
    ext = data.pop("extends", None)
    try:
        if ext is not None:
            if ext != "default":
                raise HierarchyError(f"{p}: extends must be \"default\", got {ext!r}")
            return Hierarchy.model_validate(merge(default_hierarchy(), data))
        return Hierarchy.model_validate(_standalone(data))
    except HierarchyError as e:
        if str(e).startswith(str(p)):
            raise
        raise HierarchyError(f"{p}: {e}") from e
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise HierarchyError(f"{p}: {where}: {first['msg']}") from e
