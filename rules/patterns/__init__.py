"""The patterns of the expert walk, as players name and read them.

Every pattern is, in Jussien's terms, a trial in disguise: a disjunctive
construction whose branches meet (wings, forcing chains) or a reductio that
stays on one digit (strong-link chains, X-chains).  The expert walk
(:mod:`grader.strategy.expert`) finds them and rates a position by the
easiest; the *pattern path* of ``explain`` (``--path patterns``) shows each
one as a step of its own.  One module per family owns how it is read: the
step it makes from the walk's hint (its cells with their roles, its strong
and weak links), its short line, its teach text and its hints.  Families
register under the ``sudoku_grader.patterns`` entry-point group, as rules do
under ``sudoku_grader.rules``.
"""
