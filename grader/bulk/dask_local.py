"""Reaching a Dask cluster for ``grade --dask``: an existing scheduler, or a
:class:`distributed.LocalCluster` started for the run (``--dask local``).

A local cluster's worker processes come from a fork server that has already
imported Dask and the grader, started before this process imports Dask
itself: both imports run at once, on two cores, and each worker starts
ready (no worker imports anything, unlike a spawned one).  Dask's own log
lines are silenced while the run lasts: the run reports what matters in its
own words (a lost scheduler, a worker that cannot grade).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing as mp
from typing import Any

#: What the fork server of a local cluster imports once for every worker.
PRELOAD = ("grader.bulk.dask_warm",)
#: Dask's settings for a local cluster: no statistical profiler sampling the
#: grading thread every 10 ms, no work stealing (the chunks are alike), fewer
#: health checks; a scheduler that binds a free port of the loopback only.
LOCAL_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.scheduler.work-stealing": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
}
#: How long a scheduler is waited for.
CONNECT_TIMEOUT = "10s"

_silenced: list[contextlib.ExitStack] = []


def start_fork_server() -> str:
    """Start the fork server of a local cluster's workers (it imports
    :data:`PRELOAD` while this process goes on; once is enough); the start
    method of those workers."""
    if "forkserver" not in mp.get_all_start_methods():
        return "spawn"
    from multiprocessing import forkserver

    mp.get_context("forkserver").set_forkserver_preload(list(PRELOAD))
    forkserver.ensure_running()
    return "forkserver"


def _silence() -> None:
    from distributed.utils import silence_logging_cmgr

    stack = contextlib.ExitStack()
    for root in ("distributed", "bokeh"):
        stack.enter_context(silence_logging_cmgr(logging.CRITICAL, root=root))
    _silenced.append(stack)


def connect(address: str, jobs: int) -> tuple[Any, Any]:
    """A client of the scheduler at ``address`` and, for ``local``, the
    cluster started for it (else None).  ``OSError``: no scheduler there."""
    if address == "local":
        method = start_fork_server()
    import dask
    import distributed.utils
    from distributed import Client, LocalCluster

    if address == "local" and hasattr(distributed.utils, "_forkserver_preload_set"):
        # ours is running: Dask would import pandas and the like here to choose its own
        distributed.utils._forkserver_preload_set = True

    _silence()
    try:
        if address != "local":
            try:
                return Client(address, timeout=CONNECT_TIMEOUT), None
            except OSError as e:
                raise OSError(f"cannot reach the Dask scheduler at {address}: {e}") from e
        with dask.config.set({**LOCAL_CONFIG,
                              "distributed.worker.multiprocessing-method": method}):
            cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address=None, memory_limit=0,
                                   scheduler_kwargs={"dashboard": False,
                                                     "dashboard_address": "127.0.0.1:0"},
                                   silence_logs=logging.CRITICAL)
        try:
            return Client(cluster), cluster
        except BaseException:
            cluster.close()
            raise
    except BaseException:
        _unsilence()
        raise


def _unsilence() -> None:
    if _silenced:
        _silenced.pop().close()


def disconnect(client: Any, cluster: Any) -> None:
    """Close the client (and the local cluster), quickly and quietly."""
    try:
        with contextlib.suppress(Exception):
            client.close(timeout=2)
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close(timeout=5)
    finally:
        _unsilence()
