"""The choices of ``grade``'s options that :mod:`grader.bulk` owns, declared
once: the command's choices, the API's checks and the documentation derive
from them.  (No import: the command line reads them without the engine.)"""

#: ``--format``: text (a table; a panel for one grid), jsonl, csv
OUTPUT_FORMATS: tuple[str, ...] = ("text", "jsonl", "csv")
#: old names of ``--format`` values, still accepted (not listed), and what each means
FORMAT_ALIASES = {"table": "text"}
