"""The umbrella command (``grader``, also ``python -m grader``) and the console
scripts.

Each command lives in its own module of this package and is registered here
by name; ``grade``, ``explain``, ``solve``, ``generate`` and ``pair`` are also
console scripts of their own.  ``--install-completion``, of any of them,
installs one script that completes them all (:mod:`grader.cli.completion`).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

from grader.cli.guard import guarded

#: command name -> (module, attribute, kind) where kind is "command" for a
#: function or "group" for a Typer app with sub-commands.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "grade": ("grader.cli.grade", "grade_command", "command"),
    "explain": ("grader.cli.explain", "explain_command", "command"),
    "solve": ("grader.cli.solve", "solve_command", "command"),
    "pair": ("grader.cli.pair", "app", "group"),
    "generate": ("grader.cli.generate", "generate_command", "command"),
    "rules": ("grader.cli.rules", "rules_command", "command"),
    "serve": ("grader.cli.serve", "serve_command", "command"),
}

_SETTINGS = {"help_option_names": ["-h", "--help"]}

#: what ``grader --help`` says first (no "N." in it: help cuts a summary at
#: the first word that ends with a period)
UMBRELLA_HELP = ("Solve Sudoku the way a person does, explain every deduction, and rate "
                 "grids by the technique hierarchy of Jussien's A-Z of Sudoku.")


#: Optional dependencies (see the extras in pyproject.toml) by top-level module.
EXTRAS = {"pysat": "sat", "ortools": "cp", "dask": "dask", "distributed": "dask",
          "matplotlib": "plot"}

#: what a stand-in for a command whose extra is missing accepts: anything, so
#: that the message names the extra, never "No such option"
_ANY_ARGS = {**_SETTINGS, "ignore_unknown_options": True, "allow_extra_args": True}


def _missing(name: str, module: str, extra: str) -> Callable[..., None]:
    """A stand-in for a command whose optional dependency is not installed: it
    says which extra to install, whatever the arguments (exit status 2)."""
    from typing import Annotated

    import typer

    from grader.cli.common import fail, missing_extra_message

    def command(args: list[str] | None = None) -> None:
        fail(missing_extra_message(module, name))

    command.__annotations__ = {
        "args": Annotated[list[str] | None, typer.Argument(hidden=True, metavar="ARGS")],
        "return": None}
    command.__doc__ = f"(not installed: needs pip install 'sudoku-grader[{extra}]')"
    command.command_context = _ANY_ARGS  # type: ignore[attr-defined]
    return command


def _load(name: str) -> tuple[Any, str] | None:
    module, attr, kind = COMMANDS[name]
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name == module:
            return None
        top = (e.name or "").split(".")[0]
        if top in EXTRAS:
            return _missing(name, top, EXTRAS[top]), "command"
        raise
    return getattr(mod, attr), kind


def _fast_version(argv: list[str]) -> None:
    """``--version`` answers before typer and the commands are imported (< 0.5 s)."""
    args = argv[: argv.index("--")] if "--" in argv else argv
    if "--version" in args and not {"-h", "--help"} & set(args):
        from grader.about import hierarchy_from_argv, report
        from grader.core.textsafe import tolerant_streams

        tolerant_streams()
        try:
            print(report(hierarchy_from_argv(args)), flush=True)
        except BrokenPipeError:  # e.g. piped into head
            sys.stderr.close()
        raise SystemExit(0)


def _early_dask(argv: list[str]) -> None:
    """``grade --dask local``: the local cluster's fork server starts loading Dask
    and the grader now, on another core, while this process imports the rest."""
    args = argv[: argv.index("--")] if "--" in argv else argv
    for i, a in enumerate(args):
        if a == "--dask=local" or (a == "--dask" and args[i + 1: i + 2] == ["local"]):
            from grader.bulk.dask_local import start_fork_server

            start_fork_server()
            return


def build_app(only: str | None = None) -> Any:
    """The umbrella app with every command (``only``: with that command alone,
    so that ``python -m grader grade ...`` imports no other command)."""
    import typer

    from grader.cli.completion import use_one_script
    from grader.cli.options import umbrella

    use_one_script()
    app = typer.Typer(
        name="grader",
        help=UMBRELLA_HELP,
        no_args_is_help=True,
        context_settings=_SETTINGS,
        add_completion=True,  # --install-completion, --show-completion
        pretty_exceptions_enable=False,
        rich_markup_mode=None,  # plain help: quick to start, greppable
    )
    app.callback()(umbrella)
    for name in COMMANDS if only is None else (only,):
        loaded = _load(name)
        if loaded is None:
            continue
        obj, kind = loaded
        if kind == "group":
            app.add_typer(obj, name=name)
        else:
            _register(app, name, obj)
    return app


def _register(app: Any, name: str, obj: Any) -> None:
    """``obj`` as the command ``name`` of ``app``: its own class (explain's
    ``--step N``) or :class:`~grader.cli.common.GuardedCommand`."""
    from grader.cli.common import GuardedCommand

    app.command(name, context_settings=getattr(obj, "command_context", _SETTINGS),
                cls=getattr(obj, "command_class", GuardedCommand))(obj)


def _single(name: str) -> Callable[[], None]:
    def run() -> None:
        _fast_version(sys.argv[1:])
        if name == "grade":
            _early_dask(sys.argv[1:])
        import typer

        from grader.cli.completion import use_one_script

        use_one_script()
        loaded = _load(name)
        if loaded is None:
            raise SystemExit(f"{name}: this command is not installed")
        obj, kind = loaded
        if kind == "group":
            guarded(name, lambda: obj(prog_name=name, standalone_mode=False))
            return
        app = typer.Typer(add_completion=True, context_settings=_SETTINGS,
                          pretty_exceptions_enable=False, rich_markup_mode=None)
        _register(app, name, obj)
        guarded(name, lambda: app(prog_name=name, standalone_mode=False))

    return run


def _umbrella(prog_name: str) -> None:
    _fast_version(sys.argv[1:])
    if sys.argv[1:2] == ["grade"]:
        _early_dask(sys.argv[2:])
    first = sys.argv[1] if len(sys.argv) > 1 else None
    only = first if first in COMMANDS else None  # a command: only it is imported
    guarded("grader", lambda: build_app(only)(prog_name=prog_name, standalone_mode=False))


def main() -> None:
    """``python -m grader``."""
    _umbrella("python -m grader")


def grader_main() -> None:
    """The ``grader`` command: every command as a subcommand."""
    _umbrella("grader")


grade_main = _single("grade")
explain_main = _single("explain")
solve_main = _single("solve")
generate_main = _single("generate")
pair_main = _single("pair")
