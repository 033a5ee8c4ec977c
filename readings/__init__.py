"""Independent readings of the rulebooks: a second executable reading of each, written from the
rulebook's text alone by an author who never saw the model, its rulings, its properties or its
tests, and speaking the ``conform`` protocol (``tablerules-conform/1``).

Each package keeps the brief its author was given, verbatim (``BRIEF.md``, and the prompt that
started the author, ``PROMPT.md``), and its author's notes with every choice the text does not
force (``NOTES.md``; ``# CHOICE:`` in the code).  A reading imports nothing of ``tablerules``
(a test checks that) and is changed only where a quoted rulebook sentence shows it wrong, never
to agree with the model.  ``tablerules readings RULESET`` runs one beside the model
(:mod:`tablerules.lockstep`).

* :mod:`tablerules.readings.just_desserts`: *Just Desserts*, current rulebook, with the three
  advanced rules;
* :mod:`tablerules.readings.just_desserts_v23`: *Just Desserts*, rules version 2.3.
"""
