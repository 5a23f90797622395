"""What the environment says about the C accelerator: whether it is built,
and whether ``SUDOKU_GRADER_PURE`` turns it off.  Read when asked, never at
import; cheap (``--version`` reads it without loading the kernel)."""

from __future__ import annotations

from grader.core.textsafe import env_flag


def accelerator_built(module: str = "grader.kernel._native") -> bool:
    """Whether a C extension (``grader.kernel._native``: trials and the exact solver;
    ``grader.kernel._expert``: the expert score's families) was compiled and can be found."""
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def accelerator_disabled() -> bool:
    """Whether ``SUDOKU_GRADER_PURE`` (1, true, yes or on) turns the C
    accelerator off: the one place that reads it (see :func:`grader.kernel.c.available`)."""
    return env_flag("SUDOKU_GRADER_PURE")
