"""Measurements: each module prints figures (speed, memory, sizes), never
asserts them; run one with ``python -m benchmarks NAME [ARGS]`` (``python -m
benchmarks`` lists them).  Data files are found by :func:`puzzles`: the
project's ``puzzles/`` first, then ``../shared/puzzles`` beside the checkout."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def puzzles(name: str) -> Path:
    """The puzzle file ``name``: in ``puzzles/``, else in ``../shared/puzzles``;
    SystemExit naming both places when it is in neither."""
    for where in (ROOT / "puzzles", ROOT.parent / "shared" / "puzzles"):
        if (where / name).exists():
            return where / name
    raise SystemExit(f"{name}: not in {ROOT / 'puzzles'} nor in "
                     f"{ROOT.parent / 'shared' / 'puzzles'}; pass the file's path")
