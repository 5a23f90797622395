"""The phrase helpers now live in :mod:`grader.core.phrases`, below the rules
(rules use them and must not depend on the explanations); this module keeps
the old import path working as an alias of that module."""

from __future__ import annotations

import sys

from grader.core import phrases as _phrases

sys.modules[__name__] = _phrases
