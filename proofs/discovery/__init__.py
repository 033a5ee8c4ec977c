"""Ruling discovery: where the rulebook is silent, where its readings part, and what decides play.

Each engine here finds rulings, or evidence for them, with the shortest trace that shows it:

* :mod:`~tablerules.proofs.discovery.gaps`: every place the text is silent (strict mode
  raises ``RuleGap``) and every model fault; the small configurations the engines share;
* :mod:`~tablerules.proofs.discovery.divergence`: where two alternatives of a ruling part ways
  (a search over pairs of states); the witnesses on record in ``spec/witnesses/``;
* ``decisions``: every decision point of the model names its clause or ruling, and the
  explorations show which of them play reaches;
* :mod:`~tablerules.proofs.discovery.impact`: how much a ruling matters at the table;
* :mod:`~tablerules.proofs.discovery.clause_reach`: which clauses and rulings a search from
  the deal reaches;
* :mod:`~tablerules.proofs.discovery.mutation`: mutation coverage: does the text, as the
  properties of :mod:`tablerules.proofs.properties` encode it, decide every branch of the
  model?

The lockstep of independent readings (a reading of the rulebook written apart from the model,
run beside it, every difference explained by a registered ruling) finds rulings too, but it
lives in ``tablerules/lockstep/``: it reports through the command line's console and the
vectors' coverage, and nothing in :mod:`tablerules.proofs` may import the command line.

Imports: the spec, the model, the foundation of :mod:`tablerules.proofs` (explorer, checks,
files), the properties, and, where one needs it, the exact engine; nothing of a rule set's
checks (they import this package) and nothing of the command line.
"""
