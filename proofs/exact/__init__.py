"""The exact engine: a whole game counted and solved, level by level, over compact rows.

For a rule set whose compact kernel (:mod:`tablerules.model.compact`) numbers the states by a
proved progress measure, it establishes exact figures of the whole game: the states and table
states of every level, the longest game, and the values of random and of optimal play as
exact fractions, by backward induction over the chance tree.

* :mod:`~tablerules.proofs.exact.levels`: what is computed and why: the store, the level tasks
  (expand, merge, values), the units;
* ``loops``: how, one row or edge at a time (compiled with Numba);
* :mod:`~tablerules.proofs.exact.sorted_runs`: bounded memory: files read in slices, sorted
  runs merged one key range at a time;
* :mod:`~tablerules.proofs.exact.run`: the level loop, and where its tasks run (this process,
  a pool of processes, a Dask cluster);
* :mod:`~tablerules.proofs.exact.trace`: traces found again on demand (the engine keeps no
  parent pointers);
* :mod:`~tablerules.proofs.exact.reference`: the same figures the slow way, over the model's
  own states (the engine is tested against it);
* ``impact`` and ``solved_digest``: every finite ruling alternative solved exactly, kept in
  ``spec/solved/`` with a digest of what decides the figures.

Imports: the spec, the model and the foundation of :mod:`tablerules.proofs` (the explorer's
steps); nothing of :mod:`~tablerules.proofs.discovery`, of the properties or of a rule set's
checks (the dishes checks import this package, not the other way round).
"""
