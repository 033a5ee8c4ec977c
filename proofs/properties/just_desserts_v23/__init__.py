"""Just Desserts, rules version 2.3 (spec/just_desserts_v23.toml) as properties of the text.

Everything here is read off the rulebook, apart from the model's code path: states are read
only through ``state_vars`` (and ``observation``, ``to_move``, ``legal_moves``,
``chance_outcomes``, ``apply``, ``illegal_reason``, ``outcome``, ``parse_move``), moves only
through their text, and whether desserts satisfy a guest is worked out here from the tastes
printed on the deck's cards.  Where the text is silent a registered ruling decides; a property
takes the chosen alternative from ``setup.options`` (by ruling id) with the meaning the spec
writes for it, and leaves out (``applies=``) the alternatives that deliberately read a clause
otherwise.

Several properties look a few steps ahead: the end of a round is decided by one move (the last
pass, the tie, the last failure, a serving) and finished by chance events (penalty cards, draws)
whose counts do not depend on which card comes up, so :func:`.readers.settle` follows the first
outcome of each until the next guest is due and the property compares the two ends.

The properties live by clause family, each module with its own table: :mod:`.setup`,
:mod:`.calls`, :mod:`.trump`, :mod:`.serving`, :mod:`.round_end`, :mod:`.mistakes`,
:mod:`.kitchen`, :mod:`.ending`, :mod:`.scoring` and :mod:`.deck_claims`; :mod:`.examples` holds
the fixed positions.  They read a game through :mod:`.readers`; :mod:`.silent` checks the rule
gaps of the strict alternatives for every family.  This module gathers the tables in the order
they are run and reported.
"""

from __future__ import annotations

from . import calls, deck_claims, ending, examples, kitchen, mistakes, round_end, scoring, serving, setup, trump

PROPERTIES = (
    *setup.PROPERTIES, *calls.PROPERTIES, *trump.PROPERTIES, *serving.PROPERTIES, *round_end.PROPERTIES,
    *mistakes.PROPERTIES, *kitchen.PROPERTIES, *ending.PROPERTIES, *scoring.PROPERTIES, *deck_claims.PROPERTIES,
)

EXAMPLES = examples.EXAMPLES

UNOBSERVABLE: dict[str, str] = {}
"""Every text clause of jd23 has a property or an example: the speed of a call is the race's
business (jd23.call.first-serves), the hidden order of the decks shows as uniform draws
(jd23.setup.shuffle), and the Tips & Hints are deck facts checked on the deck bound by them."""
