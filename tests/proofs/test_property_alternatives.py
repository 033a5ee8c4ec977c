"""proofs/properties/alternatives.py: a property that says more than it names is flagged, by the
alternative it fails (or is left out) under; the properties on record name every ruling they need."""

from __future__ import annotations

import dataclasses

import pytest

from tablerules.proofs.properties import Property, chosen, property_set
from tablerules.proofs.properties.alternatives import FAILS, FAILS_WHERE_IT_APPLIES, LEFT_OUT, audit

DEAL = "dishes.ruling.deal-2-players"


def _two_layouts_never(rules, state):
    """Holds under every deal ruling but two-layouts: a stand-in for a property that states more."""
    return "two layouts dealt" if state.setup.players == 2 and chosen(state.setup, DEAL) == "two-layouts" else None


SAYS_MORE = Property("dishes.setup.deal-one-of-each", "a stand-in that says more than its lines",
                     state=_two_layouts_never, name="stand-in")


def _kinds(flags):
    return {(f.key, f.kind, f.ruling, f.alternative) for f in flags}


def test_a_property_that_fails_under_an_alternative_it_does_not_name_is_flagged():
    result = audit("dishes", max_states=40, props=(SAYS_MORE,))
    assert ("dishes.setup.deal-one-of-each#stand-in", FAILS, DEAL, "two-layouts") in _kinds(result.flags)
    flag = next(f for f in result.flags if f.kind == FAILS)
    assert flag.message == "two layouts dealt" and flag.setting == "deal-2-players=two-layouts"


def test_naming_the_ruling_makes_it_that_rulings_property():
    named = dataclasses.replace(SAYS_MORE, under={DEAL: ("random-subset",)})
    assert not audit("dishes", max_states=40, props=(named,)).flags
    # named, but the alternatives it claims to hold under include the one it fails under: a failure where it applies
    wrong = dataclasses.replace(SAYS_MORE, under={DEAL: ("random-subset", "two-layouts")})
    assert {f.kind for f in audit("dishes", max_states=40, props=(wrong,)).flags} == {FAILS_WHERE_IT_APPLIES}


def test_a_ruling_hidden_in_applies_is_flagged():
    hidden = dataclasses.replace(SAYS_MORE, state=lambda rules, state: None,
                                 applies=lambda setup: chosen(setup, DEAL) != "two-layouts", name="hidden")
    flags = audit("dishes", max_states=20, props=(hidden,)).flags
    assert ("dishes.setup.deal-one-of-each#hidden", LEFT_OUT, DEAL, "two-layouts") in _kinds(flags)


def test_the_committed_record_property_states_more_than_its_lines_without_its_ruling():
    """The issue's own example: jd.turn.one-option#committed-record holds only under
    surprised-attempt=as-if-not-made; with that name taken away, the audit finds the alternative."""
    prop = next(p for p in property_set("just-desserts").properties if p.key == "jd.turn.one-option#committed-record")
    assert "jd.ruling.surprised-attempt" in prop.names()
    bare = dataclasses.replace(prop, under=())
    flags = audit("just-desserts", max_states=300, props=(bare,)).flags
    assert ("jd.turn.one-option#committed-record", FAILS, "jd.ruling.surprised-attempt", "commits") in _kinds(flags)


@pytest.mark.parametrize("ruleset", ["dishes", "just-desserts-2.3"])
def test_the_properties_on_record_name_every_ruling_they_need(ruleset):
    result = audit(ruleset, max_states=120)
    assert result.states > 1_000
    assert not result.flags, "\n".join(f"{a}: {b}" for a, b in result.rows())


def test_the_just_desserts_properties_name_every_ruling_they_need_on_a_small_budget():
    """The whole audit runs in `tablerules check` (its item per rule set); here a small budget."""
    result = audit("just-desserts", max_states=40)
    assert result.states > 2_000
    assert not result.flags, "\n".join(f"{a}: {b}" for a, b in result.rows())


def test_random_games_with_three_seats_find_what_two_seats_cannot():
    """jd23.call.simultaneous#possible holds only under race-after-fail=tie-possible: the race after a failed
    call needs three callers, so only the audit's random games (3 players on v23-tips) find it without its name."""
    prop = next(p for p in property_set("just-desserts-2.3").properties if p.key == "jd23.call.simultaneous#possible")
    bare = dataclasses.replace(prop, under=())
    assert not audit("just-desserts-2.3", max_states=50, props=(bare,)).flags  # breadth-first on 2 seats: nothing
    flags = audit("just-desserts-2.3", max_states=50, props=(bare,), games=50).flags
    assert ("jd23.call.simultaneous#possible", FAILS, "jd23.ruling.race-after-fail", "next-in-line") in _kinds(flags)


def test_each_alternative_alone_over_the_basic_game_finds_what_the_optional_rules_hide():
    """Under all-guests-claimed=draw with Poaching on, the draw ending never comes; alone over the basic game it
    does, and the faq-score property without its name fails there."""
    prop = next(p for p in property_set("just-desserts").properties
                if p.key == "jd.ruling.all-guests-claimed#faq-score")
    bare = dataclasses.replace(prop, under=())
    flags = audit("just-desserts", max_states=300, props=(bare,)).flags
    assert any(f.kind == FAILS and f.ruling == "jd.ruling.all-guests-claimed" and f.alternative == "draw"
               and f.setting.endswith(" alone") for f in flags), flags
