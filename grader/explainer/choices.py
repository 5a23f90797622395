"""The choices of ``explain``'s options, declared once, each with its default.

The command's choices (``--path``, ``--notation``, ``--hint``, ``--detail``,
``--format``), the API's checks (:func:`grader.explain`), the web page's lists
(``serve``) and the documentation's tables derive from these tuples.  (Nothing
heavy is imported here: the command line reads them without loading the
engine.)"""

from grader.formats import FORMATS

#: ``--input-format``: the grid formats, and pencil marks
INPUT_FORMATS: tuple[str, ...] = (*FORMATS, "pencil")

#: ``--path``: "patterns" (the book's rules 1-12, then the patterns players use,
#: each with its SE value) or "book" (the book's trials, levels 13-14)
PATHS: tuple[str, ...] = ("patterns", "book")
DEFAULT_PATH = "patterns"

#: ``--notation``: "book" ((2, 7) != 3) or "compact" (r2c7<>3), the one players
#: use and every output's default
NOTATIONS: tuple[str, ...] = ("book", "compact")
DEFAULT_NOTATION = "compact"

#: ``--grids``: the steps text shows in full after the step log
GRIDS: tuple[str, ...] = ("hardest", "expert", "all", "none")
DEFAULT_GRIDS = "hardest"

#: ``--hint``: the levels, from the least to the most revealing
HINT_LEVELS: tuple[str, ...] = ("technique", "where", "full")
#: old names still accepted (not listed), and the level each one means
HINT_ALIASES = {"vague": "where"}

#: ``--detail``: one line per step, or the reasoning in full sentences
DETAILS: tuple[str, ...] = ("short", "teach")

#: ``--format``: the terminal's text, or a document
EXPLAIN_FORMATS: tuple[str, ...] = ("text", "json", "html", "markdown")
DEFAULT_EXPLAIN_FORMAT = "text"
