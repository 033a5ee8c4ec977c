"""Compiled states (model/just_desserts/compiled.py) against the model, in lockstep.

A game is played twice, move for move: once from the model's ``new_game`` through game.py, once
from ``compiled.new_game`` through ``RULES`` (which plays compiled states in compiled code).  At
every step: who moves is the same; the compiled state, read as the model's (a copy, so the game
stays compiled), equals the model's state in every field; the legal moves are the same moves in the
same order; the chance outcomes are the same distribution, and a uniform number picks the same
outcome from both; where the model raises (a strict ruling's gap) the compiled step raises the same
error.  Besides: what a compiled state is as a ``State`` (equality, hashing, pickling, ``evolve``),
illegal moves refused as the model refuses them, and the setups that stay with the model.
"""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablerules.model.core import CHANCE, STRICT, TERMINAL, IllegalMove, RuleGap, pick_by_probability
from tablerules.model.decks import embedded_deck
from tablerules.model.just_desserts import RULES, Options, compiled, evolve, game
from tablerules.model.just_desserts.moves import KITCHEN, Move
from tablerules.model.just_desserts.state import State

from ..strategies import DEEP_EXAMPLES

TEACHING = ("jd-two-suits", "jd-one-suit", "jd-rivals", "jd-crowd", "jd-famine", "jd-five-suits", "jd-five-singles")
ALL_ON = dict(poaching=True, buffet=True, surprise_parties=True)
ALTERNATIVES = {f.name: f.metadata["alternatives"] for f in dataclasses.fields(Options) if "alternatives" in f.metadata}
"""Each ruling's alternatives (jd.ruling.*), the default first."""


def _setup(deck, players: int, **options):
    return RULES.setup(players, Options(**options), embedded_deck(deck) if isinstance(deck, str) else deck)


def lockstep(setup, seed: int, max_actions: int = 5000) -> int:
    """One random game from the same seed, model and compiled states side by side; asserts at every
    step as the module docstring says.  Returns the number of actions played."""
    rng = random.Random(seed)
    model, fast = game.new_game(setup), compiled.new_game(setup)
    assert type(fast) is compiled.CompiledState
    for step in range(max_actions):
        actor = RULES.to_move(fast)
        assert actor == game.to_move(model), f"step {step}: who moves"
        seen = compiled._model_copy(fast)
        assert type(fast) is compiled.CompiledState, "reading a copy leaves the game compiled"
        if seen != model:
            diff = {f: (getattr(seen, f), getattr(model, f)) for f in State.__slots__
                    if getattr(seen, f) != getattr(model, f)}
            raise AssertionError(f"step {step}: the states differ in {diff}")
        if actor is TERMINAL:
            assert RULES.outcome(fast) == game.outcome(model)
            return step
        if actor is CHANCE:
            outcomes, expected = RULES.chance_outcomes(fast), game.chance_outcomes(model)
            assert tuple(outcomes) == tuple(expected), f"step {step}: chance outcomes"
            r = rng.random()
            move = pick_by_probability(outcomes, r)
            assert move == pick_by_probability(expected, r), f"step {step}: the same number picks another outcome"
        else:
            legal = RULES.legal_moves(fast)
            assert legal == game.legal_moves(model), f"step {step}: legal moves"
            move = rng.choice(legal)
        try:
            model = game.apply(model, move)
        except RuleGap as gap:
            with pytest.raises(RuleGap) as raised:
                RULES.apply(fast, move)
            assert (raised.value.ruling, str(raised.value)) == (gap.ruling, str(gap))
            return step
        fast = RULES.apply(fast, move)
    return max_actions


SETUPS = [
    ("jd-two-suits", 2, {}),
    ("jd-two-suits", 2, ALL_ON),
    ("jd-crowd", 3, ALL_ON),
    ("jd-rivals", 2, dict(ALL_ON, reshuffle_time="when-needed")),
    ("jd-famine", 2, dict(ALL_ON, dessert_supply=STRICT, guest_supply="draw-game")),
    ("jd-five-suits", 4, dict(ALL_ON, all_claimed="draw", faq_score_when="when-settled")),
    ("jd-five-singles", 2, dict(ALL_ON, answer_order="clockwise", opening_duplicates="at-setup")),
    ("jd-crowd", 3, dict(ALL_ON, turn_direction="counter-clockwise", serve_none="allowed", dump_none="allowed")),
    ("jd-five-suits", 3, dict(ALL_ON, discard_which="duplicates-only", surprise_serving="serving-with-favourite",
                              victim_surprise="block-only", tip_count="one-per-favourite")),
]
"""Teaching decks (spec/decks) with the advanced rules and rulings' alternatives that change what the loop does."""


@pytest.mark.parametrize("deck,players,options", SETUPS, ids=lambda x: x if isinstance(x, (str, int)) else None)
def test_compiled_states_play_as_the_model_plays(deck, players, options):
    setup = _setup(deck, players, **options)
    actions = sum(lockstep(setup, seed) for seed in range(12))
    assert actions > 12 * 3, "the games were played"


@st.composite
def setups(draw) -> object:
    """A setup compiled states play: a teaching deck, a player count, the advanced rules on or off and
    each ruling's alternative drawn (serving-size=minimal; the rulings compiled.why_not refuses are
    drawn again)."""
    options = {name: draw(st.sampled_from(alts)) for name, alts in ALTERNATIVES.items() if name != "serving_size"}
    options.update({name: draw(st.booleans()) for name in ALL_ON})
    deck = embedded_deck(draw(st.sampled_from(TEACHING)))
    most = min(5, len(deck.dessert_cards()) // 3)  # three desserts to each (jd.setup.deal-hands)
    setup = _setup(deck, draw(st.integers(2, most)), **options)
    if compiled.why_not(setup) is not None:
        setup = _setup(setup.components, setup.players, **{k: v for k, v in options.items() if k in ALL_ON})
    return setup


@given(setups(), st.integers(0, 2**32))
def test_any_setup_of_compiled_states_plays_as_the_model(setup, seed):
    lockstep(setup, seed, max_actions=600)


@pytest.mark.slow
@settings(max_examples=DEEP_EXAMPLES * 4)
@given(setups(), st.integers(0, 2**32))
def test_any_setup_of_compiled_states_plays_as_the_model_deep(setup, seed):
    lockstep(setup, seed)


def test_compiled_states_on_the_retail_deck(retail_deck):
    for players, seed in ((2, 0), (3, 1), (4, 2), (5, 3)):
        setup = RULES.setup(players, Options(**ALL_ON), retail_deck)
        assert lockstep(setup, seed) > 50


@pytest.mark.slow
def test_compiled_states_on_the_retail_deck_many_games(retail_deck):
    for players in (2, 3, 4, 5):
        setup = RULES.setup(players, Options(**ALL_ON), retail_deck)
        for seed in range(100):
            lockstep(setup, 1000 * players + seed)


# --------------------------------------------------------------------------- a compiled state is a State


def _mid_game(setup, actions: int = 40, seed: int = 5):
    """(compiled state, model state) after the same ``actions`` random actions."""
    rng = random.Random(seed)
    fast, model = compiled.new_game(setup), game.new_game(setup)
    for _ in range(actions):
        if RULES.to_move(fast) is CHANCE:
            move = pick_by_probability(RULES.chance_outcomes(fast), rng.random())
        else:
            move = rng.choice(RULES.legal_moves(fast))
        fast, model = RULES.apply(fast, move), game.apply(model, move)
    return fast, model


def test_reading_a_field_turns_a_compiled_state_into_the_models_state():
    fast, model = _mid_game(_setup("jd-crowd", 3, **ALL_ON))
    assert type(fast) is compiled.CompiledState and isinstance(fast, State)
    assert fast.setup is model.setup and type(fast) is compiled.CompiledState, "the setup is read as is"
    assert fast.hands == model.hands
    assert type(fast) is State, "once read, an ordinary State"
    assert fast == model and hash(fast) == hash(model) and repr(fast) == repr(model)
    assert RULES.legal_moves(fast) == game.legal_moves(model), "the step API then plays it as the model's"


@pytest.mark.parametrize("use", ["eq", "hash", "repr", "pickle", "evolve", "replace"])
def test_a_compiled_state_is_the_models_state_to_every_reader(use):
    fast, model = _mid_game(_setup("jd-crowd", 3, **ALL_ON))
    read = {
        "eq": lambda s: s == model and model == s,
        "hash": lambda s: hash(s) == hash(model),
        "repr": lambda s: repr(s) == repr(model),
        "pickle": lambda s: pickle.loads(pickle.dumps(s)) == model,
        "evolve": lambda s: evolve(s, turn=1) == evolve(model, turn=1),
        "replace": lambda s: dataclasses.replace(s, served=1) == dataclasses.replace(model, served=1),
    }[use]
    assert read(fast)


def test_illegal_moves_are_refused_as_the_model_refuses_them():
    setup = _setup("jd-crowd", 3, **ALL_ON)
    fast, model = _mid_game(setup)
    while RULES.to_move(fast) is not CHANCE:  # a chance step: no seat move is legal
        move = RULES.legal_moves(fast)[0]
        fast, model = RULES.apply(fast, move), game.apply(model, move)
    for move in (KITCHEN, Move("draw", cards=("NO-SUCH-DESSERT",)), Move("first", seat=7), "kitchen"):
        with pytest.raises(IllegalMove) as expected:
            game.apply(model, move)
        with pytest.raises(IllegalMove) as raised:
            RULES.apply(fast, move)
        assert str(raised.value) == str(expected.value)
        assert RULES.illegal_reason(fast, move) == game.illegal_reason(model, move)
    assert type(fast) is compiled.CompiledState, "a refused move leaves the state compiled"


def test_an_unlisted_seat_move_is_refused_as_the_model_refuses_it():
    setup = _setup("jd-crowd", 3, **ALL_ON)
    fast, model = _mid_game(setup)
    while RULES.to_move(fast) is CHANCE:
        move = pick_by_probability(RULES.chance_outcomes(fast), 0.5)
        fast, model = RULES.apply(fast, move), game.apply(model, move)
    guests = [g.id for g in setup.components.guests]
    desserts = sorted(set(setup.components.dessert_cards()))
    candidates = [Move("dump", cards=("NO-SUCH-DESSERT",)), Move("serve", "NO-SUCH-GUEST", (desserts[0],)),
                  Move("first", seat=0), Move("kitchen", guests[0])]
    candidates += [Move(verb, g) for verb in ("return", "depart") for g in guests]
    candidates += [Move("serve", g, tuple(desserts)) for g in guests]
    unlisted = [m for m in candidates if m not in RULES.legal_moves(fast)]
    assert len(unlisted) >= 4
    for move in unlisted:
        with pytest.raises(IllegalMove) as expected:
            game.apply(model, move)
        with pytest.raises(IllegalMove) as raised:
            RULES.apply(fast, move)
        assert str(raised.value) == str(expected.value)
    assert type(fast) is compiled.CompiledState, "a refused move leaves the state compiled"


def test_a_move_made_elsewhere_is_played_like_the_listed_one():
    """A move parsed from its text (an equal ``Move``, not the listed object) is played all the same."""
    setup = _setup("jd-crowd", 3, **ALL_ON)
    fast, _ = _mid_game(setup)
    while RULES.to_move(fast) is CHANCE:
        fast = RULES.apply(fast, pick_by_probability(RULES.chance_outcomes(fast), 0.5))
    for move in RULES.legal_moves(fast):
        parsed = RULES.parse_move(str(move), setup)
        assert parsed is not move or move.verb in ("stop", "kitchen", "pass")
        assert compiled._model_copy(RULES.apply(fast, parsed)) == compiled._model_copy(RULES.apply(fast, move))


def test_a_game_over_refuses_every_move():
    setup = _setup("jd-two-suits", 2)
    fast, model = compiled.new_game(setup), game.new_game(setup)
    rng = random.Random(3)
    while RULES.to_move(fast) is not TERMINAL:
        move = (pick_by_probability(RULES.chance_outcomes(fast), rng.random()) if RULES.to_move(fast) is CHANCE
                else rng.choice(RULES.legal_moves(fast)))
        fast, model = RULES.apply(fast, move), game.apply(model, move)
    assert RULES.legal_moves(fast) == () and RULES.chance_outcomes(fast) == ()
    with pytest.raises(IllegalMove) as raised:
        RULES.apply(fast, KITCHEN)
    assert raised.value.clause == "jd.win.any-time"


@pytest.mark.parametrize("options,why", [
    (dict(serving_size="any"), "jd.ruling.serving-size=any"),
    (dict(endless_play="repeated-position"), "does not play this setup"),
    (dict(tip_order="server-first"), "does not play this setup"),
])
def test_setups_the_loop_does_not_play_stay_with_the_model(options, why):
    setup = _setup("jd-crowd", 3, **options)
    assert why in compiled.why_not(setup)
    state = compiled.new_game(setup)
    assert type(state) is State and state == game.new_game(setup)
    assert compiled.compile_state(state) is state


def test_a_model_state_mid_game_can_be_compiled():
    setup = _setup("jd-crowd", 3, **ALL_ON)
    _, model = _mid_game(setup, actions=25)
    fast = compiled.compile_state(model)
    assert type(fast) is compiled.CompiledState
    assert RULES.to_move(fast) == game.to_move(model)
    assert compiled._model_copy(fast) == model
