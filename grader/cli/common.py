"""Pieces shared by the commands: consoles, option parsing, error exits."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from rich.markup import escape
from typer.core import TyperCommand

from grader.core.geometry import parse_box
from grader.core.terminal import make_console
from grader.formats import FORMATS

if TYPE_CHECKING:
    from grader.strategy.hierarchy import Hierarchy


def choices(name: str, values: tuple[str, ...], aliases: Mapping[str, str] | None = None) -> Any:
    """The typer choice (a ``StrEnum``) of an option whose choices the layer that
    owns it declares once (``values``, a tuple there); ``aliases``: old names
    still accepted (see :func:`renamed`), never listed: give the option
    ``metavar=metavar(values)``."""
    return StrEnum(name, [(v, v) for v in (*values, *(aliases or {}))])


def metavar(values: tuple[str, ...]) -> str:
    """How help lists an option's choices: ``text|jsonl|csv``."""
    return "|".join(values)


def listed(values: tuple[str, ...]) -> Any:
    """Shell completion of an option with old names: the listed choices only."""

    def complete(incomplete: str) -> list[str]:
        return [v for v in values if v.startswith(incomplete)]

    return complete


def renamed(option: str, aliases: Mapping[str, str]) -> Any:
    """The callback of an option with old names for some choices: an old name
    says so in one line on standard error and stands for its new name."""

    def callback(value: Any) -> Any:
        if value is None:
            return value
        new = aliases.get(str(value))
        if new is None:
            return str(value)
        warn(f"{option} {value} is deprecated, use {option} {new} "
             f"(the old name goes in {DEPRECATED_UNTIL})")
        return new

    return callback


if TYPE_CHECKING:
    InputFormat = str
else:
    #: ``--input-format`` of the commands that read grids (:data:`grader.formats.FORMATS`)
    InputFormat = choices("InputFormat", FORMATS)

#: The release that drops the deprecated spellings (kept for one release).
DEPRECATED_UNTIL = "0.3.0"

#: Exit status: every grid ok / some grid not ok / usage error or unreadable input.
EXIT_OK, EXIT_NOT_OK, EXIT_USAGE = 0, 1, 2

out = make_console(highlight=False, soft_wrap=True)
err = make_console(stderr=True, highlight=False, soft_wrap=True)


def command_name() -> str:
    """The command running (``grade``, ``pair generate``), for messages."""
    from grader.cli.guard import command_name as strip

    ctx = _current_context()
    if ctx is not None:
        return strip(ctx.command_path)
    name = Path(sys.argv[0]).name
    return "grader" if name in ("", "__main__.py", "-c") else name


def _current_context() -> Any:
    """The click context of the command running: typer's own copy of click's
    (recent typer vendors click), else click's."""
    for module in ("typer._click.globals", "click.globals"):
        try:
            mod = __import__(module, fromlist=["get_current_context"])
        except ImportError:
            continue
        ctx = mod.get_current_context(silent=True)
        if ctx is not None:
            return ctx
    return None


def print_whole(renderable: Any) -> None:
    """A table on standard output: the terminal's width on a terminal; in a
    pipe or a file as wide as it needs, so that nothing is cut."""
    try:
        tty = sys.stdout.isatty()
    except (AttributeError, ValueError, OSError):
        tty = False
    if tty:
        out.print(renderable)
        return
    from grader.core.terminal import SafeConsole

    system: Any = out.color_system or None  # rich's own value, or none
    SafeConsole(file=sys.stdout, width=10_000, no_color=out.no_color, highlight=False,
                force_terminal=out.is_terminal, color_system=system).print(renderable)


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print ``COMMAND: error: message`` on standard error (one line) and exit
    with ``code``."""
    err.print(f"{escape(command_name())}: [bold red]error:[/] {escape(message)}", markup=True,
              soft_wrap=True)
    raise typer.Exit(code)


def warn(message: str) -> None:
    """``COMMAND: warning: message``, one line on standard error."""
    err.print(f"{command_name()}: warning: {message}", markup=False, highlight=False,
              soft_wrap=True)


class GuardedCommand(TyperCommand):
    """A command whose output closed by its reader (``| head``) is not an
    OSError for click (which would exit 1): :func:`grader.cli.guard.guarded`
    ends the command quietly with 0."""

    def invoke(self, ctx: Any) -> Any:
        from grader.cli.guard import ClosedOutput

        try:
            return super().invoke(ctx)
        except BrokenPipeError as e:
            raise ClosedOutput() from e


def have(module: str) -> bool:
    """Whether an optional dependency is installed (looked up, not imported)."""
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


#: Optional dependency (top-level module) -> (the extra that installs it, its package).
EXTRA_OF = {"pysat": ("sat", "python-sat"), "ortools": ("cp", "ortools"),
            "dask": ("dask", "dask[distributed]"), "distributed": ("dask", "dask[distributed]"),
            "matplotlib": ("plot", "matplotlib"), "fastapi": ("web", "fastapi"),
            "uvicorn": ("web", "uvicorn")}


def missing_extra_message(module: str, what: str) -> str:
    """``WHAT needs the 'sat' extra (python-sat is not installed): pip install ...``."""
    extra, package = EXTRA_OF[module]
    return (f"{what} needs the '{extra}' extra ({package} is not installed): "
            f"pip install 'sudoku-grader[{extra}]' (or '.[{extra}]' in a checkout)")


def require_extra(module: str, what: str) -> None:
    """Fail before any work when an optional dependency is missing, naming the
    extra and how to install it."""
    if not have(module):
        fail(missing_extra_message(module, what))


def box_option(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        return parse_box(text)
    except ValueError as e:
        fail(str(e))


def hierarchy_option(path: Path | None, propagation: str | None = None) -> Hierarchy:
    from grader.strategy.hierarchy import HierarchyError, load_hierarchy

    try:
        h = load_hierarchy(path)
    except HierarchyError as e:
        fail(str(e))
    if propagation is not None:
        if propagation not in ("all", "singles"):
            fail(f"--propagation must be 'all' or 'singles', not {propagation!r}")
        trials = h.trials.model_copy(update={"propagation": propagation})
        h = h.model_copy(update={"trials": trials})
    return h


def check_plugins(h: Hierarchy) -> None:
    """Fail early, with a clear message, when a hierarchy names a missing plugin."""
    from grader.strategy.plugins import PluginError, rule_class

    for spec in h.rules:
        try:
            rule_class(spec.plugin)
        except PluginError as e:
            fail(f"rule {spec.code!r}: {e}")


def _plain_flags() -> None:
    """Help shows no ``<bool>`` after a flag, and no ``<str>`` after an argument
    that has a metavar (``FILE|GRID|-``): recent typer versions print them, older
    ones did not.  A flag takes no value, so it has no metavar."""
    try:
        from typer.core import TyperArgument, TyperOption
    except ImportError:  # pragma: no cover - older typer
        return
    show_opt = getattr(TyperOption, "display_type_rich", None)
    show_arg = getattr(TyperArgument, "display_type_rich", None)
    if show_opt is None or show_arg is None or getattr(show_opt, "_plain", False):
        return

    def option_type(self: Any, ctx: Any) -> str | None:
        if getattr(self, "is_flag", False) and not getattr(self, "count", False):
            return None
        return show_opt(self, ctx)

    def argument_type(self: Any, ctx: Any) -> str | None:
        return None if self.metavar else show_arg(self, ctx)

    option_type._plain = True  # type: ignore[attr-defined]
    TyperOption.display_type_rich = option_type  # type: ignore[method-assign]
    TyperArgument.display_type_rich = argument_type  # type: ignore[method-assign]


_plain_flags()


def stdin_is_tty() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM (``kill``, a scheduler's stop) and SIGHUP handled as Ctrl-C
    inside the block: what was made is kept and the command says
    "interrupted" (see :mod:`grader.bulk.interrupts`)."""
    from grader.bulk.interrupts import stop_signals_as_interrupt

    with stop_signals_as_interrupt():
        yield
