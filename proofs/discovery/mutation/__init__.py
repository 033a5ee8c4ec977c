"""Mutation coverage of the model: does the rulebook's text, as encoded in the properties of
:mod:`tablerules.proofs.properties`, decide every branch of the model?

:mod:`.mutants` writes one change per decision point of the step API; :mod:`.reference`
explores the unchanged model once and records, per state, everything the core API says;
:mod:`.judge` runs a mutant beside that record and says *killed* (a text property, an
example or an invariant rejects it), *equivalent* (nothing the API shows changes within the
budget) or *uncovered* (play changes and no property notices: the text, as encoded, does not
decide that branch); :mod:`.coverage` runs them all and tables the result; the triage of
the uncovered ones is kept in ``spec/mutants/<rule set>.toml``.
"""
