"""Independent readings in lockstep with the model: every place two readings of one rulebook part.

A *reading* (``readings/``, the package ``tablerules.readings``) is a second executable reading
of a rulebook, written from the text alone by an author who never saw the model, and speaking
the ``conform`` protocol.  This package runs it beside the model over every state of small
configurations and over seeded random games (:mod:`.walk`), records every point where the two
part (:mod:`.compare`), groups the differences by the model's decision point and clause, and
tries every alternative of every registered ruling on each group (:mod:`.groups`): a group
that an alternative removes is that ruling found again; a group that none removes is a
*finding*, with its shortest witness from the deal.  :mod:`.report` writes the table and the
JSON document of ``tablerules readings``.

Modules: :mod:`.readings` (which reading answers for which rule set, run in process),
:mod:`.views` (the model's observation in the readings' shape), :mod:`.compare`, :mod:`.walk`,
:mod:`.groups`, :mod:`.report`.
"""
