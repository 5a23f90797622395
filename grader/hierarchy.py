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


class HierarchyError(ValueError):
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
    """Overlay ``data`` on ``base``: rules by code, the rest replaced."""
    merged = base.model_dump()
    rows = {r["code"]: r for r in merged["rules"]}
    order = [r["code"] for r in merged["rules"]]
    if not isinstance(data.get("rules", []), list):
        raise HierarchyError("rules: expected a list of [[rules]] tables")
    if not isinstance(data.get("trials", {}), dict):
        raise HierarchyError("trials: expected a [trials] table")
    for r in data.get("rules", []):
        if not isinstance(r, dict) or not isinstance(r.get("code"), str):
            raise HierarchyError("every [[rules]] row needs a code")
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
    return merged


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
        return Hierarchy.model_validate(data)
    except HierarchyError as e:
        if str(e).startswith(str(p)):
            raise
        raise HierarchyError(f"{p}: {e}") from e
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise HierarchyError(f"{p}: {where}: {first['msg']}") from e
