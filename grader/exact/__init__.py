"""Interchangeable exact solvers ("engines") behind one interface.

    from grader.exact import get_engine
    engine = get_engine("sat")
    res = engine.solve(grid.geo, grid.values, limit=2)   # an EngineResult
    Grader(solver=get_engine("cp"))                      # verdicts by CP-SAT

``ENGINES`` maps each name to a one-line description; ``get_engine(name)``
builds the engine (importing its optional dependency only then).  Every
engine is a callable ``(geo, values, limit) -> SolveResult`` as
:class:`grader.strategy.grading.Grader` expects.

- ``native``: the core's bitmask solver (singles + minimum remaining values);
- ``sat``: the classic CNF encoding solved by PySAT (CaDiCaL by default);
- ``csp``: AC-3 arc consistency, then backtracking with MRV / LCV that
  maintains arc consistency after each choice;
- ``cp``: OR-Tools CP-SAT with all-different constraints.
"""

from __future__ import annotations

import importlib
from typing import Any

from grader.exact.base import EngineError, EngineResult, ExactEngine, given_conflict, is_solution

#: name -> (module, class, extra that provides its dependency, description)
_REGISTRY: dict[str, tuple[str, str, str | None, str]] = {
    "native": ("grader.exact.native", "NativeEngine", None,
               "bitmask backtracking with singles (the core's solver)"),
    "sat": ("grader.exact.sat", "SatEngine", "sat",
            "classic CNF encoding, PySAT (CaDiCaL by default)"),
    "csp": ("grader.exact.csp", "CspEngine", None,
            "AC-3 arc consistency + MRV/LCV backtracking (MAC)"),
    "cp": ("grader.exact.cp", "CpEngine", "cp",
           "OR-Tools CP-SAT with all-different constraints"),
}

#: engine name -> one-line description, in a fixed order
ENGINES: dict[str, str] = {name: spec[3] for name, spec in _REGISTRY.items()}

#: the engine the core uses for its verdicts
DEFAULT_ENGINE = "native"


def get_engine(name: str, **options: Any) -> ExactEngine:
    """The engine called ``name``, built with ``options`` (e.g.
    ``get_engine("sat", solver="glucose4", encoding="reduced")``).

    Raises :class:`EngineError` with a clear message for an unknown name, an
    unknown option or a missing optional dependency."""
    key = name.strip().lower()
    spec = _REGISTRY.get(key)
    if spec is None:
        raise EngineError(f"unknown engine {name!r} (choose from {', '.join(ENGINES)})")
    module, cls_name, extra, _ = spec
    try:
        mod = importlib.import_module(module)
    except ImportError as e:
        hint = f" (pip install 'sudoku-grader[{extra}]')" if extra else ""
        raise EngineError(f"engine {key!r} needs {e.name or 'a missing module'}{hint}") from e
    cls = getattr(mod, cls_name)
    try:
        engine: ExactEngine = cls(**options)
    except TypeError as e:
        raise EngineError(f"engine {key!r}: {e}") from e
    return engine


__all__ = ["DEFAULT_ENGINE", "ENGINES", "EngineError", "EngineResult", "ExactEngine",
           "get_engine", "given_conflict", "is_solution"]
