"""``python -m benchmarks NAME [ARGS]``: run the benchmark module NAME."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def names() -> list[str]:
    here = Path(__file__).parent
    return sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))


def main(argv: list[str]) -> None:
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in names():
        first = __import__("benchmarks").__doc__.splitlines()[0]
        print(f"usage: python -m benchmarks NAME [ARGS]\n{first}\n")
        for name in names():
            doc = (importlib.import_module(f"benchmarks.{name}").__doc__ or "").strip()
            print(f"  {name:<20} {doc.splitlines()[0] if doc else ''}")
        raise SystemExit(0 if argv and argv[0] in ("-h", "--help") else 2)
    module = importlib.import_module(f"benchmarks.{argv[0]}")
    sys.argv = [f"python -m benchmarks {argv[0]}", *argv[1:]]
    module.main()


if __name__ == "__main__":
    main(sys.argv[1:])
