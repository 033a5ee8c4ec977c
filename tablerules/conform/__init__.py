"""Live conformance testing of another engine against our model (`tablerules conform`).

An engine under test speaks the JSON-lines protocol of :mod:`.protocol` over its standard
input and output (:mod:`.client`), or is an OpenSpiel game loaded in-process
(:mod:`.openspiel_engine`).  :mod:`.compare` puts the engine and our model side by side at
one state (who moves, the legal moves both ways, the chance outcomes and their exact
probabilities, each seat's observation, the outcome); :mod:`.games` plays whole games
through it: seeded random games, every golden vector and witness of the rule set, and games
steered toward clauses no game has reached yet.  On a difference, :mod:`.shrink` shrinks the
game's choice sequence to a short failing game and :mod:`.report` writes it as an ITF vector
naming the clause.  :mod:`.reference_engine` is an engine over our own model (with
``--mutant``, a planted fault: :mod:`.planted`).
"""
