"""Deck facts, witnesses and exhaustive exploration for Just Desserts 2.3.

The deck facts are the rulebook's "Tips & Hints" (jd23.tips.three-icons-favourite,
jd23.tips.two-icons-some-favourite, jd23.tips.single-icon-never-favourite, jd23.tips.names-hint)
and its Favorites statement (jd23.favourite.nature-girl), checked on the teaching decks and,
with TABLERULES_RETAIL_DECK, on the retail 2015 card list.
"""

from __future__ import annotations

import pytest

from tablerules.model.just_desserts import v23 as jd
from tablerules.model.just_desserts import v23_claims as claims
from tablerules.model.core import strict_options
from tablerules.model.decks import embedded_deck
from tablerules.proofs.just_desserts import v23_check as check
from tablerules.proofs.just_desserts import v23_proofs as facts
from tablerules.proofs.checks import Context, manifest
from tablerules.proofs.explorer import Budget, explore, finding_traces, graph_analysis
from tablerules.spec import load_spec

RULES = jd.RULES
STATES = 1_000_000
"""The state budget of the explorations below (each game on v23-tiny has under 90,000 states): what a
search covers is decided by states, never by how fast a busy machine gets through them."""
MANIFEST = manifest(RULES.id)


@pytest.mark.parametrize("deck_name", facts.TEACHING_DECKS)
@pytest.mark.parametrize("fact", list(facts.FACTS))
def test_teaching_deck_facts_match_the_record(deck_name, fact):
    result = facts.FACTS[fact](embedded_deck(deck_name), facts.fact_name(fact, deck_name))
    assert result.status == MANIFEST[result.name]["expected"], result.detail
    assert result.as_check().ok


def test_tips_on_the_teaching_decks_name_their_breakers():
    """jd23.tips.single-icon-never-favourite fails on v23-tiny (its Favorites are single-icon);
    jd23.tips.two-icons-some-favourite fails there too (its one two-icon dessert is a Favorite);
    every tip holds on v23-tips, the deck built to satisfy them (jd23.tips.names-hint included)."""
    tiny = embedded_deck("v23-tiny")
    assert claims.single_icon_favourites(tiny) == ("FUDGE", "NUT_BAR")
    assert claims.two_icon_split(tiny) == (("TART",), ())
    assert claims.name_hints(tiny) == (("BELLE", "TART"),)
    tips = embedded_deck("v23-tips")
    assert all(r.status == facts.HOLDS for r in facts.deck_facts(tips, "v23-tips"))
    assert claims.three_icons_not_favourite(tips) == () and claims.name_hints(tips) == (("CHARLIE", "CHOC_CAKE"),)


def test_retail_deck_facts(retail_deck):
    """On the retail list: jd23.tips.three-icons-favourite fails (three three-icon desserts nobody favours);
    jd23.tips.two-icons-some-favourite, jd23.tips.single-icon-never-favourite, jd23.tips.names-hint and
    jd23.favourite.nature-girl hold."""
    results = {r.name: r for r in facts.deck_facts(retail_deck, "retail")}
    for name, r in results.items():
        assert r.status == MANIFEST[name]["expected"], (name, r.detail)
    assert set(claims.three_icons_not_favourite(retail_deck)) == {
        "CHOCOLATE_CREAM_PIE", "COFFEE_CAKE", "BANANA_PUDDING",
    }
    favs, others = claims.two_icon_split(retail_deck)
    assert len(favs) == 14 and len(others) == 29
    assert claims.single_icon_favourites(retail_deck) == ()
    assert ("BOSTON_GUY", "BOSTON_CREAM_PIE") in claims.name_hints(retail_deck)


def test_every_proof_in_the_check_suite_has_an_expected_result():
    ctx = Context(retail_deck="unused-path")
    names = [i.name.removeprefix("prove ") for i in check.checks(ctx) if i.name.startswith("prove ")]
    assert names and all(n in MANIFEST for n in names)
    assert not [n for n in MANIFEST if n not in names], "manifest entries no check runs"


def test_rounds_are_bounded_by_twice_the_guests():
    """z3: jd23.guests.reshuffle-once and jd23.end.second-exhaustion give at most 2G rounds on any deck."""
    result = facts.rounds_bounded()
    assert result.status == MANIFEST["rounds-bounded"]["expected"] == "proved"
    assert "jd23.end.second-exhaustion" in result.clauses


@pytest.mark.slow
def test_exploration_agrees_with_the_round_bound(default_exploration):
    """On v23-tiny (two guests) no game turns up more than four guests."""
    ex = default_exploration
    deepest = max(ex.terminal_states, key=lambda s: len(ex.key_path(s)))
    turn_ups = sum(1 for _, move in ex.key_path(deepest)[1:] if isinstance(move, jd.TurnUp))
    assert 2 <= turn_ups <= 2 * len(jd.RULES.setup(2).components.guests)


# --------------------------------------------------------------------------- witnesses of gaps


def test_every_strict_ruling_has_a_witness_cited_by_the_spec():
    spec = load_spec(RULES.id)
    for rid in check.strict_rulings():
        path = check.witness_path(rid)
        assert path.exists(), path
        files = [e.file for e in spec.rulings[rid].evidence]
        assert f"spec/witnesses/{path.name}" in files, rid


@pytest.mark.parametrize("ruling_id", sorted(check.GAP_DECKS))
def test_witness_replays_into_its_gap(ruling_id):
    doc = check.load_witness(check.witness_path(ruling_id))
    assert doc["ruling"] == ruling_id
    assert check.replay_witness(doc) is None
    # and it is not a gap without the strict ruling
    doc["setup"]["rulings"] = {}
    assert check.replay_witness(doc) is not None


def test_strict_exploration_finds_exactly_the_registered_gaps_with_shortest_witnesses():
    """All strict rulings on v23-tiny: the gaps found are registered; the witnesses are no longer than the BFS
    traces."""
    setup = RULES.setup(2, strict_options(jd.Options))
    ex = explore(RULES, [RULES.new_game(setup)], budget=Budget(max_states=STATES))
    assert ex.complete
    found = {f.key: f for f in finding_traces(ex)}
    assert all(f.kind == "gap" for f in found.values())
    # every gap whose witness lives on v23-tiny; penalty-empty-hand needs v23-crowd's four guests
    assert set(found) == {r for r, deck in check.GAP_DECKS.items() if deck == "v23-tiny"}
    assert "jd23.ruling.penalty-empty-hand" not in found
    for rid, f in found.items():
        doc = check.load_witness(check.witness_path(rid))
        assert len(doc["moves"]) <= len(f.trace)


# --------------------------------------------------------------------------- exhaustive exploration


@pytest.fixture(scope="module")
def default_exploration():
    return explore(RULES, [RULES.new_game(RULES.setup(2))], budget=Budget(max_states=STATES), keep_graph=True)


@pytest.mark.slow
def test_default_rulings_explored_exhaustively(default_exploration):
    """Every state of the two-player game on v23-tiny: invariants hold, no dead end, every state can
    still reach an end (jd23.end.second-exhaustion), exact chance everywhere."""
    ex = default_exploration
    assert ex.complete and not ex.findings, [f.title() for f in ex.findings.values()]
    assert ex.states > 50_000 and ex.terminals > 5_000
    graph = graph_analysis(ex)
    assert graph.traps == 0 and graph.acyclic
    assert {"draw", "winner 0", "winner 1"} == set(ex.outcomes)


@pytest.mark.slow  # an exhaustive search of v23-tiny (over 80,000 states)
def test_alternative_rulings_explored_exhaustively():
    setup = RULES.setup(2, check.other_alternatives(1))
    ex = explore(RULES, [RULES.new_game(setup)], budget=Budget(max_states=STATES), keep_graph=True)
    assert ex.complete and not ex.findings
    assert graph_analysis(ex).traps == 0
    assert "winners 0,1" in ex.outcomes  # jd23.ruling.full-tie = shared-win


@pytest.mark.slow  # an exhaustive search of v23-tiny (over 80,000 states)
def test_the_five_round_endings_are_all_reachable(default_exploration):
    """jd23.round.five-endings: all pass, a plain serving, a Favorite, a simultaneous call, all mistaken."""
    seen = set()
    for s in default_exploration.parents:
        if s.phase == jd.DRAW and s.draws == (0, 1) and s.discards:
            seen.add("hungry")
        if s.phase == jd.PENALTY:
            seen.add("mistaken")
        if s.phase == jd.RACE:
            seen.add("race")
        if any(s.collected):
            seen.add("served")
        if s.phase == jd.DRAW and len(s.draws) == 1 and s.guest is None:
            seen.add("favourite")
    assert seen == {"hungry", "mistaken", "race", "served", "favourite"}


def test_check_suite_items_for_witnesses_and_facts_pass():
    ctx = Context(quick=True)
    items = [i for i in check.checks(ctx) if i.name.startswith("prove ") or i.name.startswith("witnesses")]
    results = [i.run(ctx) for i in items]
    assert results and all(r.ok for r in results), [r.summary for r in results if not r.ok]
