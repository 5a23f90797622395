"""Imported once by the fork server of ``grade --dask local``: everything a
local Dask worker needs, loaded before the workers are forked from it.

Dask's worker, the grader, and the discovery of the rule plugins (a scan of
every installed distribution's entry points, a fifth of a second): each
worker starts with them done instead of doing them itself.
"""

from __future__ import annotations

import distributed.nanny  # noqa: F401 - the worker process's own code
import distributed.worker  # noqa: F401

from grader.bulk import codec, dask_worker  # noqa: F401
from grader.strategy import grading  # noqa: F401
from grader.strategy.plugins import discovered

discovered()
