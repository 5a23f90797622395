"""Jinja2 environments for the HTML the package writes (``explain -f html``,
the daily pack of ``generate``): templates in a package's ``templates/``
folder, autoescaping always on, so that every text (a name from a hierarchy
file, a line of input) is escaped and only markup the package made itself,
passed as :class:`markupsafe.Markup`, goes in as it is."""

from __future__ import annotations

import functools
from typing import Any


@functools.cache
def environment(package: str) -> Any:
    """The environment of ``package``'s templates (one per package, cached)."""
    from jinja2 import Environment, PackageLoader, StrictUndefined

    return Environment(loader=PackageLoader(package, "templates"), autoescape=True,
                       undefined=StrictUndefined, keep_trailing_newline=True)
