"""The concepts every layer shares: the geometry, grids and boards, steps, roles,
phrases, errors, the rule interface and the table of families the kernels know."""
