"""Coverage of the golden vectors: every clause about play has a vector, and the coverage
attribution (tablerules/vectors/coverage.py) names a clause only for a step that really exercises it."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tablerules.vectors import coverage
from tablerules.model import registry
from tablerules.model import just_desserts as jd
from tablerules.model.just_desserts import v23 as v23
from tablerules.model.core import TERMINAL, play
from tablerules.model.decks import embedded_deck
from tablerules.spec.loader import load_spec

REPO = Path(__file__).resolve().parents[2]


def _golden_clauses(ruleset: str) -> set[str]:
    out: set[str] = set()
    for path in (REPO / "vectors" / ruleset).glob("*.itf.json"):
        out |= set(json.loads(path.read_text())["#meta"]["clauses"])
    return out


@pytest.mark.parametrize("ruleset", registry.ruleset_ids())
def test_every_clause_about_play_has_a_golden_vector(ruleset):
    """Every clause of the spec except the component facts and worked examples the coverage
    table lists apart (coverage.NOT_PLAY) is exercised by at least one committed vector.  A
    reminder that restates another clause (``restates``) is exercised where that one is."""
    spec = load_spec(ruleset)
    clauses = [spec.clauses[c].restates or c for c in spec.clauses if coverage.is_play_clause(ruleset, c)]
    assert clauses, f"{ruleset}: no clause about play in the spec"
    missing = sorted(set(clauses) - _golden_clauses(ruleset))
    assert missing == [], f"{ruleset}: clauses with no vector: {', '.join(missing)}"


def test_every_exemption_names_clauses_of_its_spec():
    """coverage.NOT_PLAY lists no stale ids, and leaves the clauses about play in."""
    for ruleset, prefixes in coverage.NOT_PLAY.items():
        clauses = list(load_spec(ruleset).clauses)
        for p in prefixes:
            assert any(c == p or c.startswith(p if p.endswith(".") else p + ".") for c in clauses), (ruleset, p)
    assert not coverage.is_play_clause("just-desserts", "jd.tastes.icons")
    assert coverage.is_play_clause("just-desserts", "jd.win.five-suits")
    assert coverage.is_play_clause("just-desserts-2.3", "jd23.call.favourite-trump")


# --------------------------------------------------------------------------- Just Desserts: blocks

RULES = registry.get("just-desserts")
RIVALS = embedded_deck("jd-rivals")


def _poach_window(victim_guest: str, poacher_hand: tuple[str, ...], victim_hand: tuple[str, ...], poach: str):
    """Seat 0 poaches ``victim_guest`` from seat 1 on jd-rivals with Poaching on; the state where
    seat 1 may answer."""
    setup = RULES.setup(2, jd.Options(poaching=True), RIVALS)
    rest = list(RIVALS.dessert_cards())
    for c in poacher_hand + victim_hand:
        rest.remove(c)
    guests = [g for g in RIVALS.guest_cards() if g != victim_guest]
    state = jd.State(setup=setup, hands=(poacher_hand, victim_hand), claimed=((), (victim_guest,)),
                     dessert_pile=tuple(rest), guest_pile=(), centre=tuple(guests), opening=False)
    state = RULES.apply(state, RULES.parse_move(poach, setup))
    assert RULES.to_move(state) == 1
    return state


def _clauses(rules, state, text):
    move = rules.parse_move(text, state.setup)
    actor = rules.to_move(state)
    return coverage.transition_clauses(rules, state, move, rules.apply(state, move), actor)


def test_a_block_of_a_favourite_poach_exercises_the_other_favourite_and_no_tip_clauses():
    state = _poach_window("BAKER", ("SPONGE",), ("FRUIT_TART",), "poach BAKER with SPONGE")
    assert [str(m) for m in RULES.legal_moves(state)] == ["block with FRUIT_TART", "pass"]
    clauses = _clauses(RULES, state, "block with FRUIT_TART")
    assert "jd.block.favourite-only-by-other-favourite" in clauses
    assert "jd.poach.blocked-no-tip" in clauses
    assert "jd.tip.block-favourite" in clauses  # the defender's favourite earns the defender a tip


def test_a_block_of_a_poach_without_a_favourite_exercises_neither():
    # the Gardener's favourite is the Fruit tart; a Sponge satisfies it without being a favourite
    state = _poach_window("GARDENER", ("SPONGE",), ("SPONGE",), "poach GARDENER with SPONGE")
    clauses = _clauses(RULES, state, "block with SPONGE")
    assert "jd.block.defender" in clauses
    assert "jd.block.favourite-only-by-other-favourite" not in clauses
    assert "jd.poach.blocked-no-tip" not in clauses


def test_a_favourite_poach_that_succeeds_is_no_blocked_poach():
    state = _poach_window("BAKER", ("SPONGE",), ("FRUIT_TART",), "poach BAKER with SPONGE")
    clauses = _clauses(RULES, state, "pass")
    assert "jd.poach.blocked-no-tip" not in clauses
    assert "jd.tip.favourite" in clauses


# --------------------------------------------------------------------------- Just Desserts: five suits


def test_the_five_suit_deck_has_five_suits_and_only_five_suit_wins():
    deck = embedded_deck("jd-five-suits")
    assert len(deck.suits) == 5 and deck.about
    assert jd.winning_clause(deck, tuple(sorted(g for g in deck.guest_cards() if g.startswith("BAKER_")))) == \
        "jd.win.five-suits"
    two_per_suit = {s: [g for g in deck.guest_cards() if deck.suit_of(g) == s] for s in deck.suits}
    assert all(len(gs) == 2 for gs in two_per_suit.values())  # three of a suit cannot happen


def test_a_golden_game_ends_in_a_five_suit_win():
    schema = jsonschema.Draft202012Validator(json.loads((REPO / "spec" / "itf-trace.schema.json").read_text()))
    found = []
    for path in sorted((REPO / "vectors" / "just-desserts").glob("*.itf.json")):
        doc = json.loads(path.read_text())
        last = doc["states"][-1]
        if (last["#meta"].get("outcome") or {}).get("clause") != "jd.win.five-suits":
            continue
        schema.validate(doc)
        winner = last["#meta"]["outcome"]["winners"][0]
        deck = embedded_deck(doc["#meta"]["components"]["argument"])
        assert len({deck.suit_of(g) for g in last["claimed"][winner]}) == 5, path.name
        found.append(path.name)
    assert found, "no golden Just Desserts vector ends in a five-suit win (jd.win.five-suits)"


# --------------------------------------------------------------------------- version 2.3: the favourite trump

V23 = registry.get("just-desserts-2.3")
TINY = embedded_deck("v23-tiny")


def _two_callers(hand0: tuple[str, ...], hand1: tuple[str, ...], trump: str = "favourite-caller-first"):
    """Berry Belle (wants Chocolate and Fruit, favourite the tart) is up; seat 0 has called; seat 1 answers."""
    setup = V23.setup(2, v23.Options(favourite_trump=trump), TINY)
    rest = list(TINY.dessert_cards())
    for c in hand0 + hand1:
        rest.remove(c)
    return v23.State(setup=setup, phase=v23.ANSWER, hands=(hand0, hand1), dessert_pile=tuple(rest),
                     guest_pile=("NED",), dishes=((), ()), collected=((), ()), guest="BELLE", answers=("call", ""))


def test_a_favourite_beating_a_caller_who_could_serve_is_the_trump():
    """Every live caller races; then the other caller says it holds the favourite: that step is the trump."""
    state = _two_callers(("BERRIES", "FUDGE"), ("TART",))
    assert "jd23.call.favourite-trump" not in _clauses(V23, state, "call")  # nothing revealed yet
    raced = play(V23, state, ["call", "first 0"])
    assert raced.phase == v23.TRUMP
    assert "jd23.call.favourite-trump" in _clauses(V23, raced, "favourite")
    after = play(V23, raced, ["favourite", "pass"])
    assert after.phase == v23.SERVE and after.first == 1


def test_no_trump_when_the_ruling_says_no_trump_or_the_other_caller_cannot_serve():
    assert "jd23.call.favourite-trump" not in _clauses(
        V23, _two_callers(("BERRIES", "FUDGE"), ("TART",), "no-trump"), "call"
    )
    assert "jd23.call.favourite-trump" not in _clauses(V23, _two_callers(("NUT_BAR",), ("TART",)), "call")
    # both hold the favourite: the race decides between equals, nobody is trumped
    state = _two_callers(("TART",), ("TART",))
    after = V23.apply(state, V23.parse_move("call", state.setup))
    assert after.phase == v23.RACE
    assert "jd23.call.favourite-trump" not in _clauses(V23, after, "first 0")


def test_a_race_won_by_a_favourite_among_three_callers_is_the_trump():
    """Fruity Fay (wants Fruit, favourite the Forest gateau): seat 0 could serve Berries, seats 1
    and 2 hold the favourite; all three race, and when seat 0 wins, seats 1 and 2 trump and race again."""
    tips = embedded_deck("v23-tips")
    setup = V23.setup(3, v23.Options(), tips)
    hands = (("BERRIES",), ("FOREST_GATEAU",), ("FOREST_GATEAU",))
    rest = list(tips.dessert_cards())
    for h in hands:
        for c in h:
            rest.remove(c)
    state = v23.State(setup=setup, phase=v23.ANSWER, hands=hands, dessert_pile=tuple(rest), guest_pile=("CHARLIE",),
                      dishes=((),) * 3, collected=((),) * 3, guest="FRUITY_FAY", answers=("call", "call", ""))
    after = V23.apply(state, V23.parse_move("call", setup))
    assert after.phase == v23.RACE and V23.to_move(after) is not TERMINAL
    assert [str(m) for m, _ in V23.chance_outcomes(after)] == ["first 0", "first 1", "first 2", "simultaneous"]
    assert "jd23.call.favourite-trump" not in _clauses(V23, state, "call")  # nobody serves yet
    assert "jd23.call.favourite-trump" not in _clauses(V23, after, "simultaneous")
    asked = play(V23, after, ["first 0"])  # seat 0 called first; seats 1 and 2 are asked in turn
    assert "jd23.call.favourite-trump" in _clauses(V23, asked, "favourite")
    again = play(V23, asked, ["favourite", "favourite", "pass"])  # both trump; seat 0 has no favourite
    assert again.phase == v23.RACE and again.trumped
    assert [str(m) for m, _ in V23.chance_outcomes(again)] == ["first 1", "first 2"]
