"""How deep the SE estimate searches Sudoku Explainer's nested chains
(``grade --se``, ``grader.grade(se=...)``), declared once: the command's
choices, the API's checks and the documentation's tables derive from
:data:`SE_DEPTHS` and :data:`DEFAULT_SE`; :data:`grader.strategy.serate.rate.SETTINGS`
gives each its deepest chaining level.  (A module of its own, with no import,
so that the command line reads it without loading the engine.)"""

#: the walks: "fast": up to the dynamic forcing chains (+); "full": every level,
#: as Sudoku Explainer 1.2.1 rates
SE_WALKS: tuple[str, ...] = ("fast", "full")
#: "off": no estimate (levels and score only, the cheapest)
SE_OFF = "off"
#: ``--se``'s choices
SE_DEPTHS: tuple[str, ...] = (SE_OFF, *SE_WALKS)
DEFAULT_SE = "fast"
