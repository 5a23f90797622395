"""Sudoku Explainer's scale: its rating loop below 4.0 and its chaining
engine (dynamic forcing chains and the nesting levels), as Sudoku Explainer
1.2.1 defines them (see docs/se-scale.md).

* :mod:`.easy`: the rules below 4.0, in its producer order, and the loop;
* :mod:`.potential`, :mod:`.multiple`, :mod:`.unary`, :mod:`.advanced`,
  :mod:`.chainhint`: chain nodes and propagation, the searches of one tier,
  static forcing chains and cycles, the helpers of the nesting levels, hints
  with their complexity and difficulty;
* :mod:`.tiers`: the step that rates a position where only chains are left;
* :mod:`.rate`: the entry points, in C (``grader.kernel._serate``) when it is built
  and in use, else in Python (the same hints in the same order).

Grids are 9x9 only.
"""
