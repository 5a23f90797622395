"""How many worker processes a run can use: :func:`plan_jobs`.

``--jobs N`` asks; the machine answers.  A run never starts more workers
than the CPUs this process may run on (its affinity, or the cgroup's CPU
quota in a container: more workers than cores only share them, each with
its own memory) nor than the memory available holds (about
:data:`WORKER_BYTES` each), and never more than the grids it has to grade.
``--jobs 0`` is one worker per usable CPU.  Read without psutil: from
``os.sched_getaffinity``, ``/proc/meminfo`` and the cgroup files, falling back
on ``os.cpu_count`` and ``SC_AVPHYS_PAGES``.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

#: What one worker process is taken to need (a grading worker holds about
#: 30 MB; the hard searches more).
WORKER_BYTES = 64 * 2**20
#: The share of the available memory the workers may take.
MEMORY_SHARE = 0.8


def usable_cpus() -> int:
    """The CPUs this process may run on: its affinity, bounded by a cgroup
    CPU quota (a container limited to 2 CPUs on a 64-core machine gets 2)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    quota = _cgroup_cpus()
    return max(1, min(cpus, quota) if quota else cpus)


def _cgroup_cpus() -> int | None:
    """The CPU quota of this process's cgroup (v2 ``cpu.max``), rounded up."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        fields = Path("/sys/fs/cgroup/cpu.max").read_text().split()
        if fields[0] != "max":
            return max(1, -(-int(fields[0]) // int(fields[1])))
    return None


def available_memory() -> int | None:
    """Bytes of memory available to new processes (None when unknown): the
    least of ``MemAvailable`` (``/proc/meminfo``; else the free pages) and
    what the cgroup's memory limit leaves."""
    found: list[int] = []
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                found.append(int(line.split()[1]) * 1024)
                break
    if not found:
        with contextlib.suppress(AttributeError, OSError, ValueError):
            found.append(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    with contextlib.suppress(OSError, ValueError):
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        if limit != "max":
            used = int(Path("/sys/fs/cgroup/memory.current").read_text().strip())
            found.append(max(0, int(limit) - used))
    return min(found) if found else None


def plan_jobs(requested: int, tasks: int | None = None) -> tuple[int, str | None]:
    """The workers to start for ``--jobs requested`` (0: one per usable CPU)
    and ``tasks`` grids or streams (None: not known yet), with a note saying
    why when fewer than asked are started (None when all are, or when the
    input alone is the reason)."""
    cpus = usable_cpus()
    jobs = requested if requested > 0 else cpus
    reasons = []
    if jobs > cpus:
        jobs = cpus
        reasons.append(f"{cpus} CPU{'s' if cpus != 1 else ''} available")
    memory = available_memory()
    if memory is not None:
        fits = max(1, int(memory * MEMORY_SHARE) // WORKER_BYTES)
        if jobs > fits:
            jobs = fits
            reasons.append(f"memory for {fits} worker{'s' if fits != 1 else ''}: "
                           f"{memory / 2**30:.1f} GiB available")
    if tasks is not None:
        jobs = min(jobs, max(1, tasks))
    note = None
    if reasons and requested > 0:
        note = f"-j {requested}: {jobs} worker{'s' if jobs != 1 else ''} ({'; '.join(reasons)})"
    elif reasons:
        note = f"{jobs} worker{'s' if jobs != 1 else ''} ({'; '.join(reasons)})"
    return jobs, note
