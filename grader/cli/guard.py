"""Running a command so that no traceback reaches the user.

A full disk, a closed pipe or any other failure to write the output ends the
command with one line on standard error and exit status 2 (a closed pipe,
e.g. ``grade ... | head``, quietly); Ctrl-C with 130; running out of memory
with one line and 2.  Anything else that escapes a command is a bug: one line
saying so (set ``SUDOKU_GRADER_DEBUG=1`` for the traceback), exit status 2.
Standard output and error never fail on a character their encoding lacks
(:func:`grader.core.textsafe.tolerant_streams`)."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Callable

from grader.core.textsafe import env_flag, escape_controls, tolerant_streams

#: errno values that mean "the output cannot take more data"
WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS})
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def _mute_stdout() -> None:
    """Point standard output at the null device: what is still buffered for the
    broken output is dropped instead of failing again at exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _say(name: str, message: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"{name}: error: {escape_controls(message, newlines=False)}\n")
        sys.stderr.flush()


def os_error_message(e: OSError) -> str:
    """What an OSError means to a user, in one line."""
    what = e.strerror or str(e)
    where = f"{e.filename}: " if getattr(e, "filename", None) else ""
    if e.errno in WRITE_ERRNOS or isinstance(e, BrokenPipeError):
        return f"{where}cannot write: {what}"
    return f"{where}{what}"


def guarded(name: str, command: Callable[[], object]) -> None:
    """Run ``command`` (a click/typer application, which ends by SystemExit)."""
    tolerant_streams()
    try:
        try:
            command()
        finally:
            # what is still buffered goes out now, while a failure can be reported
            sys.stdout.flush()
    except SystemExit:
        raise
    except BrokenPipeError:
        _mute_stdout()
        sys.exit(EXIT_USAGE)
    except OSError as e:
        _mute_stdout()
        _say(name, os_error_message(e))
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        _say(name, "interrupted")
        sys.exit(EXIT_INTERRUPTED)
    except MemoryError:
        _say(name, "not enough memory for this request (ask for less: fewer grids or "
                   "solutions, a smaller grid)")
        sys.exit(EXIT_USAGE)
    except Exception as e:  # noqa: BLE001 - a bug: one line, not a traceback
        if env_flag("SUDOKU_GRADER_DEBUG"):
            raise
        _say(name, f"internal error: {type(e).__name__}: {e} (set SUDOKU_GRADER_DEBUG=1 "
                   f"for the traceback, and please report it)")
        sys.exit(EXIT_USAGE)
