"""The files a run reads and writes, checked before any work starts.

- :func:`check_output_not_input`: an output that is one of the inputs (by any
  spelling: ``./x``, a symbolic or hard link, standard input or output
  redirected from or to it) is refused, so that a run never reads its own
  output or truncates its input.
- :class:`OutputLock`: an OS-level lock (``flock``) on an output file, so that
  a second run writing the same file refuses at once; the operating system
  releases it when the run ends, however it ends.
- :func:`open_output` / :func:`write_output` (:class:`AtomicOutput`): every
  file a command writes is written beside its place and renamed over it
  when complete, so that a write that fails leaves the old file whole.
- :func:`write_settings` / :func:`settings_differences`: the settings of the
  run that wrote an output, kept beside it in ``FILE.meta.json`` (the output
  itself stays one JSON object per grid), so that ``--resume`` with other
  settings is refused, saying what differs.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TextIO

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock, the rest works
    fcntl = None  # type: ignore[assignment]


class OutputError(OSError):
    """An output that cannot be used: it is an input, it is locked, ..."""


def _is_file_argument(src: str) -> bool:
    from grader.formats import looks_like_grid_argument

    return src != "-" and not looks_like_grid_argument(src)


def _same(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _fd_stat(fd: int) -> os.stat_result | None:
    try:
        st = os.fstat(fd)
    except OSError:
        return None
    return st if stat.S_ISREG(st.st_mode) else None


def _stdio_fd(stream: Any) -> int | None:
    try:
        return int(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return None


def check_output_not_input(inputs: Iterable[str], outputs: Iterable[Path | None],
                           stdout_is_output: bool = False) -> None:
    """Raise :class:`OutputError` when an output is one of the inputs.

    Files are compared by device and inode, so any spelling of the same file
    is caught (``./x``, ``dir/../x``, a symbolic or hard link).  ``-`` among the
    inputs is standard input: refused when it is redirected from an output.
    With ``stdout_is_output``, standard output redirected to (or appended to)
    an input is refused too."""
    sources: list[tuple[str, os.stat_result]] = []
    for src in inputs:
        if src == "-":
            fd = _stdio_fd(sys.stdin)
            st = _fd_stat(fd) if fd is not None else None
            if st is not None:
                sources.append(("standard input", st))
        elif _is_file_argument(src):
            with contextlib.suppress(OSError):
                sources.append((src, os.stat(src)))
    targets: list[tuple[str, os.stat_result]] = []
    for out in outputs:
        if out is None:
            continue
        with contextlib.suppress(OSError):
            targets.append((str(out), os.stat(out)))
    if stdout_is_output:
        fd = _stdio_fd(sys.stdout)
        st = _fd_stat(fd) if fd is not None else None
        if st is not None:
            targets.append(("standard output", st))
    for name, st in targets:
        for src, sst in sources:
            if _same(st, sst):
                same = "" if name == src else f" ({src})"
                raise OutputError(f"{name}: the output is the input{same}: nothing was "
                                  f"read or written; write the results to another file")


class OutputLock:
    """An exclusive, non-blocking ``flock`` on ``path`` (created if missing).

    ``acquire()`` raises :class:`OutputError` at once when another process holds
    the lock.  The lock goes with the process: it is released by ``release()``,
    at exit, or when the process is killed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def acquire(self) -> OutputLock:
        kind = special_kind(self.path)
        if kind is not None:
            raise OutputError(f"{self.path}: is {kind}, not a regular file: write the results "
                              f"to a file")
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
        try:
            fd = os.open(self.path, flags, 0o666)
        except OSError as e:
            raise OutputError(f"{self.path}: cannot write: {e.strerror or e}") from e
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # it changed since: still refused
            os.close(fd)
            raise OutputError(f"{self.path}: not a regular file: write the results to a file")
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                os.close(fd)
                raise OutputError(f"{self.path} is being written by another run (it is "
                                  f"locked): wait for it to finish, or write to another "
                                  f"file") from e
        self.fd = fd
        return self

    def release(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)  # closing the descriptor releases the lock
            self.fd = None

    def __del__(self) -> None:  # a lock left behind by an early exit in this process
        self.release()

    def __enter__(self) -> OutputLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def special_kind(path: Path) -> str | None:
    """What ``path`` is when it exists and is neither a regular file nor a
    directory ("a named pipe", "a device", "a socket"); None otherwise."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return None


def _umask() -> int:
    """This process's umask: read where the system says it (Linux), else set
    and put back (which another thread could see for an instant)."""
    with contextlib.suppress(OSError, ValueError), \
            open("/proc/self/status", encoding="ascii", errors="replace") as fh:
        for line in fh:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0)
    os.umask(mask)
    return mask


class AtomicOutput:
    """A text file written beside ``path`` (a hidden temporary file in the same
    folder) and renamed over it (``os.replace``) only when it is complete:
    a write that fails (disk full, a file-size limit) removes the temporary
    file and leaves ``path`` as it was.

    ``close()`` renames, unless a write or the final flush failed: then the
    temporary file is removed (and the flush's error raised).  In a ``with``
    block an exception discards the file instead.  A symbolic link is
    followed: the file it points to is replaced, the link kept.  The new
    file gets the mode of the one it replaces (or the usual ``0o666`` less
    the umask)."""

    def __init__(self, path: Path, encoding: str = "utf-8", newline: str | None = None) -> None:
        import tempfile

        target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
        self.path = Path(path)
        self.target = target
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
            self.existed = True
        except OSError:
            mode = 0o666 & ~_umask()
            self.existed = False
        folder = target.parent if str(target.parent) else Path(".")
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        self.tmp = Path(tmp)
        try:
            with contextlib.suppress(OSError):
                os.fchmod(fd, mode)
            self._fh: TextIO = os.fdopen(fd, "w", encoding=encoding, newline=newline)
        except BaseException:
            os.close(fd)
            self._remove()
            raise
        self.failed = False
        self.closed = False

    def _remove(self) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.tmp)

    def _failure(self, e: BaseException) -> BaseException:
        """The error of a failed write, naming the file (and that the old one is kept)."""
        self.failed = True
        if isinstance(e, OSError) and e.errno is not None and not e.filename:
            kept = f" ({self.path} is left as it was)" if self.existed else ""
            return OSError(e.errno, f"{e.strerror or e}{kept}", str(self.path))
        return e

    def write(self, text: str) -> int:
        try:
            return self._fh.write(text)
        except BaseException as e:
            raise self._failure(e) from None

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._fh.flush()
        except BaseException as e:
            raise self._failure(e) from None

    def discard(self) -> None:
        """Close and remove the temporary file: ``path`` is left as it was."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(OSError, ValueError):
            self._fh.close()
        self._remove()

    def close(self) -> None:
        """Rename the file over ``path`` (or, after a failed write, discard it)."""
        if self.closed:
            return
        if self.failed:
            self.discard()
            return
        try:
            self._fh.flush()
            with contextlib.suppress(OSError):  # not every file system syncs
                os.fsync(self._fh.fileno())
            self._fh.close()
            self.closed = True
            os.replace(self.tmp, self.target)
        except BaseException as e:
            error = self._failure(e)
            self.closed = False
            self.discard()
            raise error from None

    def __enter__(self) -> AtomicOutput:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        if kind is None:
            self.close()
        else:
            self.discard()

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding, ...
        return getattr(self._fh, name)

    def __del__(self) -> None:  # never renamed unless closed: a run that died leaves no half
        with contextlib.suppress(Exception):
            if not self.closed:
                self.discard()


def replaces_a_file(path: Path) -> bool:
    """Whether writing ``path`` would replace what a regular file holds."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size > 0


def open_output(path: Path, encoding: str = "utf-8", newline: str | None = None,
                stream: bool = False) -> TextIO:
    """``path`` opened for writing text.

    A regular file (or a new one) is an :class:`AtomicOutput`: written to a
    temporary file beside it, renamed over it when closed, so that a write
    that fails leaves the old file whole.  With ``stream`` (the results of a
    long run, one line each: ``generate -o``, ``solve -o``), only a file that
    holds something is replaced so; a new (or empty) one is written in place
    as the run goes, so that its lines can be read meanwhile and a run that
    is killed keeps them.  Anything else is opened as it is, without ever
    blocking: a named pipe that no program reads is refused at once (OSError
    ENXIO, "no program reads this named pipe") instead of hanging; a pipe
    with a reader, a device (``/dev/null``) or a terminal is written as a
    file is."""
    if stream and not replaces_a_file(path):
        pass  # written in place, below
    elif special_kind(path) is None and not Path(path).is_dir():
        try:
            return AtomicOutput(path, encoding, newline)  # type: ignore[return-value]
        except PermissionError:  # a file you may write in a folder you may not: in place
            if not (os.path.isfile(path) and os.access(path, os.W_OK)):
                raise
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o666)
    except OSError as e:
        if e.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "no program reads this named pipe", str(path)) from None
        raise
    try:
        if fcntl is not None:  # writes block again, as they do on any output
            fl = fcntl.fcntl(fd, fcntl.F_GETFL)
            fcntl.fcntl(fd, fcntl.F_SETFL, fl & ~os.O_NONBLOCK)
        return os.fdopen(fd, "w", encoding=encoding, newline=newline)
    except BaseException:
        os.close(fd)
        raise


def save_whole(path: Path, save: Any) -> None:
    """``save(tmp)`` (a library that writes a file by name: a picture) into a
    temporary file beside ``path``, with its suffix (which names the format),
    then renamed over ``path``; on any error the temporary file is removed
    and ``path`` left as it was."""
    import tempfile

    path = Path(path)
    target = Path(os.path.realpath(path)) if os.path.islink(path) else path
    folder = target.parent if str(target.parent) else Path(".")
    fd, name = tempfile.mkstemp(prefix=f".{target.stem}.", suffix=target.suffix, dir=folder)
    os.close(fd)
    tmp = Path(name)
    try:
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except OSError:
            mode = 0o666 & ~_umask()
        save(tmp)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def finish_output(fh: Any, keep: bool) -> None:
    """Close an output of :func:`open_output`: renamed over its file when
    ``keep`` (the command ended well, or was interrupted and keeps the whole
    lines it wrote), else discarded, the old file left as it was."""
    if isinstance(fh, AtomicOutput) and not keep:
        fh.discard()
    else:
        fh.close()


def write_output(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` whole or not at all (see :func:`open_output`)."""
    with open_output(path, encoding) as fh:
        fh.write(text)


# --------------------------------------------------------------------------- settings


def settings_path(output: Path) -> Path:
    """Where the settings of the run that wrote ``output`` are kept."""
    return output.with_name(output.name + ".meta.json")


def input_names(inputs: Iterable[str]) -> list[str]:
    """The inputs as a run records them: files by absolute path, ``-`` and
    inline grids as given."""
    return [str(Path(src).resolve()) if _is_file_argument(src) else src for src in inputs]


def _meta_text(output: Path) -> str:
    """The text of ``FILE.meta.json`` (OSError: none, or it cannot be read).  A
    named pipe or a device there is refused, never opened: it would wait."""
    meta = settings_path(output)
    kind = special_kind(meta)
    if kind is not None:
        raise OutputError(f"{meta}: is {kind}, not a regular file")
    return meta.read_text(encoding="utf-8")


def write_settings(output: Path, settings: Mapping[str, Any]) -> None:
    """Record the settings of the run that starts writing ``output``."""
    meta = settings_path(output)
    kind = special_kind(meta)
    if kind is not None:
        raise OutputError(f"{meta}: is {kind}, not a regular file: remove it")
    data = {"written_by": "grade", "settings": dict(settings)}
    write_output(meta, json.dumps(data, indent=1) + "\n")


def read_settings(output: Path) -> dict[str, Any] | None:
    """The recorded settings of ``output``; None when there are none (an output
    written by an older version) or they cannot be read."""
    try:
        data = json.loads(_meta_text(output))
    except (OSError, ValueError, RecursionError):
        return None
    settings = data.get("settings") if isinstance(data, dict) else None
    return settings if isinstance(settings, dict) else None


def note_sorted(output: Path, key: str, top: int | None) -> None:
    """Record beside ``output`` that it was sorted in place by ``key`` and
    cut to its ``top`` first results (so a missing grid is no lost line)."""
    meta = settings_path(output)
    try:
        data = json.loads(_meta_text(output))
    except (OSError, ValueError, RecursionError):
        return
    if isinstance(data, dict):
        data["sorted"] = {"key": key, "top": top}
        write_output(meta, json.dumps(data, indent=1) + "\n")


def was_sorted(output: Path) -> bool:
    """Whether ``output`` was sorted in place, which a run does when it is
    complete (see :func:`note_sorted`)."""
    try:
        data = json.loads(_meta_text(output))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and isinstance(data.get("sorted"), dict)


def settings_problem(output: Path) -> str | None:
    """Why the settings recorded beside ``output`` cannot be read (None: they
    can, or there are none, as beside an output of an older version)."""
    meta = settings_path(output)
    try:
        text = _meta_text(output)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        return f"{meta}: cannot read the settings of the run that wrote it ({e})"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        return f"{meta}: not the settings of a run of grade ({type(e).__name__}: {e})"
    if not (isinstance(data, dict) and isinstance(data.get("settings"), dict)):
        return f"{meta}: not the settings of a run of grade (no settings in it)"
    return None


def _show(value: Any) -> str:
    if value is True:
        return "on"
    if value is False or value is None:
        return "off"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    return str(value)


def settings_differences(output: Path, settings: Mapping[str, Any],
                         labels: Mapping[str, str] | None = None) -> list[str]:
    """How ``settings`` differ from those recorded for ``output`` (one phrase per
    setting, e.g. ``--with-solution: on there, off now``); empty when they agree
    or nothing was recorded."""
    old = read_settings(output)
    if old is None:
        return []
    labels = labels or {}
    diffs = []
    for key, now in settings.items():
        if key in old and old[key] != now:
            name = labels.get(key, key)
            diffs.append(f"{name}: {_show(old[key])} there, {_show(now)} now")
    return diffs


#: Picture formats that ``--plot`` can write (matplotlib's, by suffix).
PLOT_SUFFIXES = (".png", ".svg", ".pdf", ".jpg", ".jpeg", ".webp", ".tif", ".tiff", ".eps",
                 ".ps", ".svgz")


def plot_path_problem(path: Path) -> str | None:
    """Why a picture cannot be written to ``path`` (checked before a long run),
    or None."""
    if path.suffix.lower() not in PLOT_SUFFIXES:
        return (f"not a picture file name: it must end in "
                f"{', '.join(PLOT_SUFFIXES[:-1])} or {PLOT_SUFFIXES[-1]}")
    kind = special_kind(path)
    if kind is not None:  # a picture is written by a library that would wait for a reader
        return f"is {kind}, not a regular file: write the picture to a file"
    return output_problem(path)


def output_problem(path: Path) -> str | None:
    """Why ``path`` cannot be written (a directory, no such folder, no
    permission), checked before the work starts; None when it looks writable."""
    if path.is_dir():
        return "is a directory"
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return f"cannot write: no folder {folder}"
    if path.exists():
        if not os.access(path, os.W_OK):
            return "cannot write: Permission denied"
    elif not os.access(folder, os.W_OK):
        return "cannot write: Permission denied"
    return None
