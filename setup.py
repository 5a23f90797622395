"""Build the optional native accelerators (grader._native, grader._expert).

Everything else is configured in pyproject.toml.  The extension is optional:
without a C compiler the package installs and runs on its pure-Python code.
"""

import platform

from setuptools import Extension, setup

# population counts are the hot instruction; x86-64 needs to be told it has one
args = ["-O2", "-std=c99"]
if platform.machine().lower() in ("x86_64", "amd64"):
    args.append("-mpopcnt")

setup(
    ext_modules=[
        Extension(
            "grader._native",
            ["grader/_native.c"],
            extra_compile_args=args,
            optional=True,
        ),
        Extension(
            "grader._expert",
            ["grader/_expert.c"],
            extra_compile_args=args,
            optional=True,
        ),
    ]
)
