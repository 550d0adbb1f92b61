"""The counting engine behind `minesweeper.solver.probability` (its front door), in parts,
each of which imports only those listed before it:

- `engine`: which engine counts, the compiled kernel or the pure-Python reference;
- `system`: cells and rules, their checks, their groups, what deduction settles, and
  the `Budget` of work a count may take before it approximates;
- `polynomials`: products and correlations of mine-count polynomials, and the weights
  the mine count gives them (`MineCount`, `DensityPrior`);
- `answer`: `Probabilities`, the answer for a position;
- `programme`: `Programme`, the dynamic programme that counts one component of
  supercells, and the order it places them in;
- `parts`: `Part`, a group of rules counted (settled cells and programmes), and
  `PartCache`, the counts a caller keeps across related positions;
- `combining`: a position's probabilities from its counted parts (`solve_rules`), and
  every number a cell about to be opened may show, from one count (`count_outcomes`).

Fewer modules would read no better and more would cost: every compiled module brings
its own copy of Cython's helpers, and a game that runs eleven where one did took 2%
more CPU for the same instructions (docs/probability.md, the compiled kernel).
docs/probability.md tells how they count.
"""
