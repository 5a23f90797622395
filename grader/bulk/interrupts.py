"""Stopping a command cleanly on a signal.

Ctrl-C (SIGINT), ``kill`` (SIGTERM) and a closed terminal (SIGHUP) all stop
a long command the same way: :func:`on_stop_signal` raises
:class:`KeyboardInterrupt` in the main thread, the command keeps what it has
made and exits 130.  Batch schedulers (``timeout``, systemd, Slurm) signal
the whole process group, often twice (``timeout`` signals the command, then
its group): the first signal stops the command, the ones after it are
absorbed, so that the stopping itself (writing the results already done)
is never cut short.

:func:`atomic` marks a few lines that must run whole, such as handing one
result to its output: a signal that arrives inside is held and raised as
soon as the block ends.  Without the handler installed (a library call),
:func:`atomic` changes nothing.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

#: The signals that stop a command cleanly (SIGHUP: not on Windows).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, name))


class _State:
    depth = 0  # atomic blocks entered
    pending = False  # a signal came inside an atomic block
    fired = False  # KeyboardInterrupt was raised: later signals are absorbed


_STATE = _State()


def on_stop_signal(signum: int, frame: FrameType | None) -> None:
    """The handler of :data:`STOP_SIGNALS` inside :func:`stop_signals_as_interrupt`."""
    if _STATE.fired:
        return  # already stopping: a second signal must not cut the stopping short
    if _STATE.depth:
        _STATE.pending = True
        return
    _STATE.fired = True
    raise KeyboardInterrupt


@contextmanager
def atomic() -> Iterator[None]:
    """Hold a stop signal until the block ends (then raise it)."""
    _STATE.depth += 1
    try:
        yield
    finally:
        _STATE.depth -= 1
    if not _STATE.depth and _STATE.pending and not _STATE.fired:
        _STATE.pending = False
        _STATE.fired = True
        raise KeyboardInterrupt


def stopping() -> bool:
    """Whether a stop signal has been received (raised or held)."""
    return _STATE.fired or _STATE.pending


def start_helpers(forkserver: bool = False) -> None:
    """Start multiprocessing's helper processes (the resource tracker, and the
    fork server when asked) with SIGHUP ignored, as they ignore SIGINT and
    SIGTERM: a closed terminal or a scheduler's SIGHUP to the process group
    then stops the command cleanly instead of killing a helper under it (the
    resource tracker, relaunched, printed a traceback).  Main thread only;
    elsewhere, or without SIGHUP, the helpers start as they would."""
    import multiprocessing.resource_tracker as tracker

    hup = getattr(signal, "SIGHUP", None)
    try:
        old = signal.signal(hup, signal.SIG_IGN) if hup is not None else None
    except ValueError:  # not the main thread
        old = None
    try:
        tracker.ensure_running()
        if forkserver:
            import multiprocessing.forkserver as fs

            fs.ensure_running()
    finally:
        if hup is not None and old is not None:
            signal.signal(hup, old)


@contextmanager
def stop_signals_as_interrupt() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP handled as one Ctrl-C inside the block
    (main thread only; elsewhere the block runs as it is).  A signal ignored
    when the command started stays ignored (``nohup`` ignores SIGHUP, a
    shell's background job SIGINT)."""
    old: dict[int, object] = {}
    try:
        for s in STOP_SIGNALS:
            if signal.getsignal(s) is not signal.SIG_IGN:
                old[s] = signal.signal(s, on_stop_signal)
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    _STATE.pending = _STATE.fired = False
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)  # type: ignore[arg-type]
        _STATE.pending = _STATE.fired = False
