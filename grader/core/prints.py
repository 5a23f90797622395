"""What a rule prints while it runs goes to standard error.

Standard output carries a command's results (``grade -f jsonl``, ``explain
-f json``): a plugin that calls ``print()`` in ``find`` must never mix its
text with them.  Worker processes send their whole standard output to
standard error (:func:`grader.bulk.outbox.worker_main`); in the command's own
process, :func:`rules_print_to_stderr` does it while rules run (grading a
grid, computing a step), and only then, so that the command's own output
goes where it should.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def rules_print_to_stderr() -> Iterator[None]:
    """``sys.stdout`` is standard error inside the block."""
    saved, err = sys.stdout, sys.stderr
    if err is None or saved is err:
        yield
        return
    sys.stdout = err
    try:
        yield
    finally:
        if sys.stdout is err:
            sys.stdout = saved
