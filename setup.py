"""Build the optional native accelerators (grader.kernel._native,
grader.kernel._expert, grader.kernel._serate).

Everything else is configured in pyproject.toml.  The extension is optional:
without a C compiler the package installs and runs on its pure-Python code
(7-15x slower); the build log says so (``pip install -v .`` shows it), and so
do ``grade --version`` and every bulk ``grade`` run.
"""

import importlib.util
import platform
import sys
from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

# population counts are the hot instruction; x86-64 needs to be told it has one
args = ["-O2", "-std=c99"]
if platform.machine().lower() in ("x86_64", "amd64"):
    args.append("-mpopcnt")

NOTICE = """
************************************************************************
sudoku-grader: the C accelerator (grader.kernel._native) was NOT built:
  {why}
The grader is installed and works on pure Python, 7-15x slower.
Install a C compiler (e.g. apt-get install gcc) and reinstall to build it;
`grade --version` tells whether it is built and in use.
************************************************************************
"""


ROOT = Path(__file__).resolve().parent


def write_families_header() -> None:
    """grader/kernel/_families.h from the expert families declared in rules/
    (see grader/kernel/families_header.py, loaded by path: nothing of the
    package is imported before it is built)."""
    spec = importlib.util.spec_from_file_location(
        "families_header", ROOT / "grader" / "kernel" / "families_header.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.write(ROOT, ROOT / "grader" / "kernel" / "_families.h")


class OptionalBuildExt(build_ext):
    """Build the accelerator when a compiler works; otherwise say so and go on."""

    def run(self) -> None:
        write_families_header()
        try:
            super().run()
        except Exception as e:  # noqa: BLE001 - no compiler at all: the build goes on
            self._notice(e)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:  # noqa: BLE001 - a compiler that fails: the build goes on
            self._notice(e)

    @staticmethod
    def _notice(e: Exception) -> None:
        sys.stderr.write(NOTICE.format(why=f"{type(e).__name__}: {e}"))
        sys.stderr.flush()


# grader and its subpackages, and the techniques of the top-level rules/ folder
# installed as grader.rules (see [tool.setuptools.package-dir] in pyproject.toml)
PACKAGES = find_packages(include=["grader", "grader.*"]) + [
    "grader.rules" + ("." + p if p else "") for p in ["", *find_packages("rules")]
]

setup(
    packages=PACKAGES,
    ext_modules=[
        Extension(
            "grader.kernel._native",
            ["grader/kernel/_native.c"],
            extra_compile_args=args,
            optional=True,
        ),
        Extension(
            "grader.kernel._expert",
            ["grader/kernel/_expert.c"],
            depends=["grader/kernel/_families.h"],
            extra_compile_args=args,
            optional=True,
        ),
        Extension(
            "grader.kernel._serate",
            ["grader/kernel/_serate.c"],
            extra_compile_args=args,
            optional=True,
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
