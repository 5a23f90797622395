"""``--output FILE``: its lock, its columns, ``--resume``'s checks, and opening
it afresh or for appending (with the run's settings recorded beside it)."""

from __future__ import annotations

import errno
from typing import Any

from grader.bulk.codec import extra_columns, output_fields
from grader.bulk.options import GradeOptions, GradeUsageError
from grader.bulk.resume import SETTING_LABELS, ResumeCursor, ResumeError, resume_settings
from grader.bulk.select import existing_csv_header
from grader.bulk.sinks import ResultWriter
from grader.bulk.sources import Head
from grader.formats.files import (
    AtomicOutput,
    OutputError,
    OutputLock,
    read_settings,
    replaces_a_file,
    settings_differences,
    settings_problem,
    was_sorted,
    write_settings,
)
from grader.strategy.hierarchy import Hierarchy

#: What a write that fails for want of room says.
WRITE_ERRNOS = frozenset({errno.EFBIG, errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})


class OutputFile:
    """The output of a run: locked while the run writes it (a second run on the
    same file refuses at once), checked against an earlier run when resumed."""

    def __init__(self, opts: GradeOptions, h: Hierarchy, head: Head) -> None:
        assert opts.output is not None
        self.opts = opts
        self.path = path = opts.output
        self.settings = resume_settings(opts.inputs, opts.input_format, opts.box, opts.column,
                                        h, opts.with_solution, opts.dedupe, opts.keep_columns,
                                        opts.where, opts.min_level, opts.max_level)
        first = head.records[0]
        first_extra = extra_columns(first.extra) if opts.keep_columns else {}
        self.is_csv = path.suffix.lower() == ".csv"
        self.fields = output_fields(opts.with_solution, first_extra, opts.dedupe)
        self.fresh = not (opts.resume and path.exists() and path.stat().st_size > 0)
        self.cursor: ResumeCursor | None = None
        self.fh: Any = None
        try:
            self.lock: OutputLock | None = OutputLock(path).acquire()
        except OutputError as e:
            raise GradeUsageError(str(e)) from None
        try:
            if not self.fresh:
                self._check_resume()
        except BaseException:
            self.close()
            raise

    def _check_resume(self) -> None:
        path = self.path
        problem = settings_problem(path)
        if problem is not None:
            raise GradeUsageError(f"--resume: {problem}: repair or remove it (the output's "
                                  f"settings are then not checked), or --overwrite")
        diffs = settings_differences(path, self.settings, SETTING_LABELS)
        if diffs:
            raise GradeUsageError(f"--resume: {path} was written with other settings "
                             f"({'; '.join(diffs)}): use the same settings, or --overwrite "
                             f"to start afresh")
        if self.is_csv:
            have = existing_csv_header(path)
            if have is not None and have == [f for f in self.fields if f != "schema"]:
                self.fields = have  # written by 0.1, before the field: continued so
            if have != self.fields:
                raise GradeUsageError(f"--resume: {path} has the columns {', '.join(have or [])}, "
                                 f"but this run writes {', '.join(self.fields)}: use the same "
                                 f"options")
        opts = self.opts
        complete = not (opts.where or opts.min_level is not None or opts.max_level is not None
                        or opts.dedupe)
        finished = was_sorted(path)  # sorted (and cut to --top) once the run was complete
        try:
            self.cursor = ResumeCursor(path, complete=complete and not finished,
                                       finished=finished)
        except ResumeError as e:
            raise GradeUsageError(f"--resume: {e}") from None

    def open(self) -> ResultWriter:
        """The writer of the results, the settings written beside the file.

        A run that replaces an output (``--overwrite``) writes a temporary file
        beside it, renamed over it when the run ends (interrupted too, so that
        ``--resume`` continues it): a write that fails (disk full, a file-size
        limit) leaves the old output and its settings as they were.  A new
        output is written in place, so that a run killed at any point leaves
        what ``--resume`` continues."""
        path = self.path
        try:
            if self.fresh and replaces_a_file(path):
                self.fh = AtomicOutput(path, newline="")
            else:
                self.fh = path.open("w" if self.fresh else "a", encoding="utf-8", newline="")
                if self.fresh or read_settings(path) is None:  # absent: an older version's
                    write_settings(path, self.settings)
        except OSError as e:
            raise GradeUsageError(f"--output {path}: cannot write: {e.strerror or e}") from None
        return ResultWriter(self.fh, "csv" if self.is_csv else "jsonl", self.fields,
                            header=self.fresh)

    def failure(self, e: OSError) -> OSError:
        """The error of a run that failed while it replaced the output: naming
        the output (and that the old one is kept) when it is a write's."""
        if isinstance(self.fh, AtomicOutput) and not e.filename and e.errno in WRITE_ERRNOS:
            return self.fh._failure(e)  # type: ignore[return-value]
        return e

    def close(self, ok: bool = True) -> None:
        """Release the output; ``ok``: the run ended (or was interrupted) and
        the results replace an old output, else the old output is kept."""
        fh, self.fh = self.fh, None
        try:
            if isinstance(fh, AtomicOutput):
                failed = fh.failed or not ok
                if failed:
                    fh.discard()
                else:
                    fh.close()  # renamed over the old output, or (a write failed) removed
                if not failed and not fh.failed:
                    write_settings(self.path, self.settings)
            elif fh is not None:
                fh.close()
        finally:
            if self.lock is not None:
                self.lock.release()
                self.lock = None
