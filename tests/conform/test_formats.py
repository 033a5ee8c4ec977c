"""The formats an engine writes (tablerules/conform/formats.py) are the model's: every move text of
the golden vectors, the witnesses and random games matches exactly one form of the grammar, of the
model's move kind; every observation has exactly the documented keys, each of its kind; every form
is met; the guide prints them as this module states them."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tablerules.conform.formats import FORMATS, KINDS, NO_CLAUSE, describe, forms_of, observation_clause
from tablerules.conform.games import vector_games
from tablerules.conform.protocol import canonical
from tablerules.model import registry
from tablerules.model.core import CHANCE, TERMINAL, RuleGap, parse_options
from tablerules.spec.loader import load_spec
from tablerules.vectors.coverage import move_kind

REPO = Path(__file__).resolve().parents[2]
RULESETS = ("dishes", "just-desserts", "just-desserts-2.3")
EXTRA_SETUPS = {  # (players, rulings, optional rules, deck): setups whose moves the golden vectors may not show
    "dishes": [(2, ["first-player=random", "covered-tiles=open-piles", "voluntary-pass=allowed"], [], None),
               (4, [], [], None)],
    "just-desserts": [(2, ["dump-none=allowed"], ["poaching", "buffet", "surprise-parties"], "jd-rivals")],
    "just-desserts-2.3": [(3, [], [], "v23-tips")],
}


def _states(rules, setup, choose, steps=300):
    """The states of one game (and the moves that led there), chosen by ``choose(choices) -> index``."""
    state = rules.new_game(setup)
    for _ in range(steps):
        yield state
        try:
            actor = rules.to_move(state)
            if actor is TERMINAL:
                return
            moves = [m for m, _ in rules.chance_outcomes(state)] if actor is CHANCE else list(rules.legal_moves(state))
        except RuleGap:
            return
        try:
            state = rules.apply(state, moves[choose(len(moves)) % len(moves)])
        except RuleGap:  # a strict ruling: the rules fall silent here
            return


def _games(ruleset):
    """(setup, choose) of every golden vector and witness of the rule set, and of seeded random games."""
    rules = registry.get(ruleset)
    for game in vector_games(rules).games:
        yield game.setup, _replay(game.choices)
    for players, rulings, variants, deck in [(2, [], [], None)] + EXTRA_SETUPS[ruleset]:
        options = parse_options(rules.Options, rulings, variants=variants)
        components = rules.load_components(deck) if deck else None
        for seed in range(8):
            rng = random.Random(seed)
            yield rules.setup(players, options, components), rng.randrange


def _replay(choices):
    left = list(choices)
    return lambda n: left.pop(0) if left else 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_move_text_and_observation_of_the_model_fits_the_documented_formats(ruleset):
    rules, fmt = registry.get(ruleset), FORMATS[ruleset]
    keys = [f.key for f in fmt.observation]
    met = set()
    for setup, choose in _games(ruleset):
        for state in _states(rules, setup, choose):
            for seat in range(setup.players):
                seen = canonical(rules.observation(state, seat))
                assert sorted(seen) == sorted(keys), (ruleset, sorted(seen))
                for field in fmt.observation:
                    assert KINDS[field.kind](seen[field.key]), (ruleset, field.key, seen[field.key])
            try:
                actor = rules.to_move(state)
                if actor is TERMINAL:
                    continue
                moves = [m for m, _ in rules.chance_outcomes(state)] if actor is CHANCE else rules.legal_moves(state)
            except RuleGap:
                continue
            for move in moves:
                text = str(move)
                forms = forms_of(ruleset, text)
                assert len(forms) == 1, (ruleset, text, forms)
                assert forms[0].chance == (actor is CHANCE) and forms[0].kind == move_kind(move), (text, forms[0])
                for cards in re.findall(r"\S+\+\S+", text):
                    assert cards.split("+") == sorted(cards.split("+")), text
                met.add(forms[0].text)
    assert met == {f.text for f in fmt.moves}, f"forms never met: {sorted({f.text for f in fmt.moves} - met)}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_outcome_is_as_documented(ruleset):
    rules = registry.get(ruleset)
    for seed in range(6):
        rng = random.Random(seed)
        *_, end = _states(rules, rules.setup(2), rng.randrange, 5000)
        result = rules.outcome(end)
        if ruleset == "dishes":
            assert not result.winners and (result.losers or result.draw)  # nobody wins the dishes
        if ruleset == "just-desserts-2.3":
            assert not result.losers


def test_every_clause_the_formats_name_is_in_the_spec():
    for ruleset, fmt in FORMATS.items():
        ids = set(load_spec(ruleset).clauses) | set(load_spec(ruleset).rulings)
        named = [f.clause for f in fmt.observation if f.clause] + [c for _, _, c in fmt.parts]
        assert named and set(named) <= ids, set(named) - ids


def test_an_observation_difference_names_the_clause_of_what_differs():
    step = "dishes.setup.deal-one-of-each"  # the first clause of the start: what today's default named
    assert observation_clause("dishes", ["places", "0.soup"], "clean", step) == "dishes.setup.hidden-backs"
    assert observation_clause("dishes", ["places", "1.main", "tiles"], None, step) == "dishes.ruling.covered-tiles"
    assert observation_clause("dishes", ["places", "1.main", "height"], 2, step) == "dishes.play.top-counts"
    assert observation_clause("dishes", ["turn"], 0, step) == "dishes.play.clockwise"
    assert observation_clause("dishes", ["colours"], None, step) == NO_CLAUSE  # a key of no format
    assert observation_clause("just-desserts", ["open_hands"], None, "jd.turn.draw-phase") == "jd.ruling.open-hands"
    assert observation_clause("just-desserts", ["claimed", 0], [], "jd.turn.one-option") == "jd.turn.one-option"


def test_the_guide_prints_the_formats_as_the_code_states_them():
    """docs/guides/conform-formats.rst shows each rule set's formats as a doctest of describe(); the
    doctest builder runs it in CI, and this quick test compares the page with the code."""
    page = (REPO / "docs" / "guides" / "conform-formats.rst").read_text(encoding="utf-8")
    for ruleset in RULESETS:
        expected = "\n".join(("   " + line).rstrip() for line in describe(ruleset).splitlines())
        assert f'   >>> print(describe("{ruleset}"))\n{expected}\n' in page, ruleset
