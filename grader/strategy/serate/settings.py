"""How deep the SE estimate searches Sudoku Explainer's nested chains
(``grade --se``, ``grader.grade(se=...)``), declared once: the command's
choices, the API's checks and the documentation's tables derive from
:data:`SE_DEPTHS` and :data:`DEFAULT_SE`; :data:`grader.strategy.serate.rate.SETTINGS`
gives each its deepest chaining level.  (A module of its own, with no import,
so that the command line reads it without loading the engine.)"""

#: "fast": up to the dynamic forcing chains (+); "full": every level, as Sudoku
#: Explainer 1.2.1 rates
SE_DEPTHS: tuple[str, ...] = ("fast", "full")
DEFAULT_SE = "fast"
