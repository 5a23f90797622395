"""One completion install for every command of the project.

``grader --install-completion`` (or that of any of the short commands, or
``python -m grader --install-completion``) installs one script that completes
``grader``, ``grade``, ``explain``, ``solve``, ``generate`` and ``pair``: one
shell function, bound to those names only.  It never binds ``python``:
completion installed from ``python -m grader`` is the ``grader`` command's,
so ``python`` completes as before.

typer writes the files (``~/.bash_completions/grader.sh`` sourced from
``~/.bashrc``; ``~/.zfunc/_grader`` for zsh; fish's completions directory);
this module gives it the script and the name.  Each command answers its
shell's completion requests through its own variable (``_GRADE_COMPLETE``
for ``grade``): the function derives it from the command's name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: the programs the one script completes (the umbrella command first)
PROGRAMS: tuple[str, ...] = ("grader", "grade", "explain", "solve", "generate", "pair")
#: the name the script is installed under
NAME = "grader"

_BASH = r"""
_sudoku_grader_completion() {
    local IFS=$'\n'
    local var="_$(basename -- "$1" | tr 'a-z-' 'A-Z_')_COMPLETE"
    COMPREPLY=( $( env COMP_WORDS="${COMP_WORDS[*]}" \
                   COMP_CWORD=$COMP_CWORD \
                   "$var=complete_bash" "$1" ) )
    return 0
}
complete -o default -F _sudoku_grader_completion %(programs)s
"""

_ZSH = r"""
#compdef %(programs)s

_sudoku_grader_completion() {
  local var="_${${${words[1]:t}//-/_}:u}_COMPLETE"
  eval $(env _TYPER_COMPLETE_ARGS="${words[1,$CURRENT]}" "${var}=complete_zsh" ${words[1]})
}

compdef _sudoku_grader_completion %(programs)s
"""


def script(shell: str, programs: tuple[str, ...] = PROGRAMS) -> str:
    """The one completion script for ``shell`` (bash, zsh, fish, powershell)."""
    if shell == "bash":
        return (_BASH % {"programs": " ".join(programs)}).strip()
    if shell == "zsh":
        return (_ZSH % {"programs": " ".join(programs)}).strip()
    from typer import _completion_shared

    typer_script = _original_script or _completion_shared.get_completion_script
    return "\n".join(  # fish and PowerShell: typer's script for each program
        typer_script(prog_name=p, complete_var=_var(p), shell=shell)
        for p in programs)


def _var(program: str) -> str:
    """The variable through which ``program`` answers completion requests."""
    return f"_{program.replace('-', '_').upper()}_COMPLETE"


def _install(shell: str | None = None, prog_name: str | None = None,
             complete_var: str | None = None) -> tuple[str, Path]:
    """typer's install, always of the one script, under :data:`NAME`."""
    return _original_install(shell=shell, prog_name=NAME, complete_var=_var(NAME))


def _script(*, prog_name: str, complete_var: str, shell: str) -> str:
    return script(shell)


_original_install: Any = None
_original_script: Any = None


def use_one_script() -> None:
    """Make typer's ``--install-completion`` and ``--show-completion`` (of every
    app of this process) install and show :func:`script` under :data:`NAME`.
    Without the typer internals this needs, typer's own behaviour stays."""
    global _original_install, _original_script
    try:
        from typer import _completion_shared, completion
    except ImportError:  # pragma: no cover - another typer
        return
    if _original_install is not None or not hasattr(completion, "install"):
        return
    _original_install = _completion_shared.install
    _original_script = _completion_shared.get_completion_script
    completion.install = _install
    completion.get_completion_script = _script
    _completion_shared.get_completion_script = _script
