"""Measurements: each module prints figures (speed, memory, sizes), never
asserts them; run one with ``python -m benchmarks NAME [ARGS]`` (``python -m
benchmarks`` lists them).  Data files are found by :func:`puzzles`: the
project's ``puzzles/`` first, then ``../shared/puzzles`` beside the checkout."""

from __future__ import annotations

import os
import platform
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


def cpu_model() -> str:
    """The processor's name (``/proc/cpuinfo``'s model name where there is one)."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return cpu


def machine(system: bool = True) -> str:
    """``MODEL, N cores, Python X.Y.Z[, OS RELEASE]``: where a figure was taken."""
    text = f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    return f"{text}, {platform.system()} {platform.release()}" if system else text
