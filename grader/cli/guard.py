"""Running a command so that no traceback reaches the user.

A full disk or any other failure to write the output ends the command with
one line on standard error and exit status 2; a closed pipe (``grade ... |
head``) ends it quietly with 0; Ctrl-C with 130; running out of memory with
one line and 2.  Every usage error, click's own included (no such option, a
missing argument, a bad value), is one line ``COMMAND: error: ...`` and exit
status 2.  Anything else that escapes a command is a bug: one line
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
    _write_line(f"{name}: error: {message}")


def _write_line(line: str, newlines: bool = False) -> None:
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(escape_controls(line, newlines=newlines).rstrip("\n") + "\n")
        sys.stderr.flush()


def os_error_message(e: OSError) -> str:
    """What an OSError means to a user, in one line."""
    what = e.strerror or str(e)
    where = f"{e.filename}: " if getattr(e, "filename", None) else ""
    if e.errno in WRITE_ERRNOS or isinstance(e, BrokenPipeError):
        return f"{where}cannot write: {what}"
    return f"{where}{what}"


class ClosedOutput(Exception):  # noqa: N818 - not an error: the reader went away
    """Standard output was closed by its reader (``| head``): not an OSError,
    so that click does not turn it into exit status 1."""


def usage_line(name: str, error: Exception) -> str:
    """One line for a usage error of click (``e.format_message()``), without
    the usage and help lines click prints around it."""
    ctx = getattr(error, "ctx", None)
    where = command_name(ctx.command_path) if ctx is not None else name
    fmt = getattr(error, "format_message", None)
    message = fmt() if callable(fmt) else str(error)
    if type(error).__name__ == "NoArgsIsHelpError":  # the help itself, kept as it is
        return f"{where}: error: {message}"
    return f"{where}: error: {' '.join(str(message).split())}"


def command_name(path: str) -> str:
    """``grade``, ``pair generate``: a command path less the umbrella's name."""
    for umbrella in ("python -m grader ", "grader "):
        path = path.removeprefix(umbrella)
    return path.strip() or "grader"


def guarded(name: str, command: Callable[[], object]) -> None:
    """Run ``command`` (a click/typer application called with
    ``standalone_mode=False``: it returns an exit status or raises)."""
    tolerant_streams()
    try:
        try:
            code = command()
        finally:
            # what is still buffered goes out now, while a failure can be reported
            sys.stdout.flush()
    except SystemExit:
        raise
    except (BrokenPipeError, ClosedOutput):
        _mute_stdout()
        sys.exit(0)
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
        kinds = {k.__name__ for k in type(e).__mro__}  # click's, or typer's own copy of it
        if "NoArgsIsHelpError" in kinds:  # a bare group: its help, as click prints it
            _write_line(usage_line(name, e).split(": error: ", 1)[1], newlines=True)
            sys.exit(EXIT_USAGE)
        if "UsageError" in kinds:
            _write_line(usage_line(name, e))
            sys.exit(EXIT_USAGE)
        if "ClickException" in kinds:
            _write_line(usage_line(name, e))
            sys.exit(getattr(e, "exit_code", 0) or EXIT_USAGE)
        if "Abort" in kinds:
            _say(name, "interrupted")
            sys.exit(EXIT_INTERRUPTED)
        if env_flag("SUDOKU_GRADER_DEBUG"):
            raise
        _say(name, f"internal error: {type(e).__name__}: {e} (set SUDOKU_GRADER_DEBUG=1 "
                   f"for the traceback, and please report it)")
        sys.exit(EXIT_USAGE)
    sys.exit(code if isinstance(code, int) else 0)
