"""Build the optional native accelerator (grader._native).

Everything else is configured in pyproject.toml.  The extension is optional:
without a C compiler the package installs and runs on its pure-Python code.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "grader._native",
            ["grader/_native.c"],
            extra_compile_args=["-O2", "-std=c99"],
            optional=True,
        )
    ]
)
