"""What we establish about the rules: searches, proofs, ruling discovery and measurements.

The package, room by room (each room opens with a docstring like this one):

* at the top, the foundation every engine and check builds on:
  :mod:`~tablerules.proofs.explorer` (breadth-first search over the core API: invariants at
  every state, the shortest trace into every finding), ``endless`` (endless play found in the
  graph of a complete search), ``checks`` (the check framework: items, results, expected
  results on record) and ``files`` (output written whole or not at all);
* :mod:`~tablerules.proofs.exact`: the exact engine, a whole game counted and solved level by
  level over compact rows, and the solved figures kept in ``spec/solved/``;
* :mod:`~tablerules.proofs.discovery`: the engines that find where the rulebook is silent or
  where its readings part: gaps, divergence, decision points, impact, clause reach, mutation
  coverage;
* :mod:`~tablerules.proofs.properties`: the rulebook's text as properties, written apart from
  the model;
* ``dishes/`` and ``just_desserts/``: each rule set's checks and z3 proofs (what
  ``tablerules check`` runs), their expected results in ``manifests/``.

Imports: the spec and the model, and inside this package only towards the foundation: the
foundation imports none of the rooms; the exact engine imports the foundation; discovery
imports the foundation and the properties (and may import the exact engine); a rule set's
folder imports any engine, never another rule set's folder.  Nothing here imports the command
line (``tablerules`` itself: cli, vectors, lockstep, conform), which imports this package.
``tests/test_layers.py`` checks each of these directions.
"""
