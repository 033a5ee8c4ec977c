"""Observations depend only on what the seat has seen (both editions of Just Desserts).

The property: take a state reached by random play, swap one card between another player's
hand and the dessert pile (both hidden from the watching seat), and play on with moves and
chance outcomes possible in both.  The two histories look the same to the seat, so its
observation must be the same at every later step.  A difference is a leak: a window opened
only because somebody holds a favourite or a block (jd.surprise.intercept,
jd.block.defender), a race whose entrants reveal a favourite (jd23.call.favourite-trump).
"""

from __future__ import annotations

import pytest
import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tablerules.model.core import CHANCE, TERMINAL
from tablerules.model.decks import embedded_deck, load_deck
from tablerules.model.just_desserts import RULES as JD
from tablerules.model.just_desserts import Options as JDOptions
from tablerules.model.just_desserts import v23

ALL = dict(poaching=True, buffet=True, surprise_parties=True)


def _random_move(rules, state, rng):
    if rules.to_move(state) is CHANCE:
        outs = rules.chance_outcomes(state)
        return rng.choices([m for m, _ in outs], weights=[float(p) for _, p in outs])[0]
    return rng.choice(rules.legal_moves(state))


def _hidden_swap(state, watcher: int, rng) -> object | None:
    """The same state with one card of another seat's hand swapped for a different card of the pile."""
    others = [k for k in range(state.setup.players) if k != watcher and state.hands[k]]
    if not others or not state.dessert_pile:
        return None
    k = rng.choice(others)
    mine, theirs = rng.choice(state.hands[k]), rng.choice(state.dessert_pile)
    if mine == theirs:
        return None
    hand = list(state.hands[k])
    hand.remove(mine)
    pile = list(state.dessert_pile)
    pile.remove(theirs)
    hands = state.hands[:k] + (tuple(sorted(hand + [theirs])),) + state.hands[k + 1:]
    return dataclasses.replace(state, hands=hands, dessert_pile=tuple(sorted(pile + [mine])))


def first_leak(rules, setup, seed: int, before: int, after: int) -> str | None:
    """Play ``before`` random steps, make the hidden swap, follow common moves for ``after`` steps;
    the first step where the watcher's observations differ, or None."""
    rng = random.Random(seed)
    s = rules.new_game(setup)
    for _ in range(before):
        if rules.to_move(s) is TERMINAL:
            return None
        s = rules.apply(s, _random_move(rules, s, rng))
    watcher = rng.randrange(setup.players)
    t = _hidden_swap(s, watcher, rng)
    if t is None:
        return None
    for step in range(after + 1):
        a, b = rules.observation(s, watcher), rules.observation(t, watcher)
        if a != b:
            diff = sorted(k for k in a if a[k] != b.get(k))
            return (
                f"seat {watcher}, {step} steps after the swap: {', '.join(f'{k}: {a[k]!r} / {b[k]!r}' for k in diff)}"
            )
        actor = rules.to_move(s)
        if actor is TERMINAL or rules.to_move(t) is TERMINAL:
            return None
        if actor is CHANCE:
            common = sorted(
                {m for m, _ in rules.chance_outcomes(s)} & {m for m, _ in rules.chance_outcomes(t)}, key=str
            )
        else:
            common = sorted(set(rules.legal_moves(s)) & set(rules.legal_moves(t)), key=str)
        if not common:
            return None
        move = rng.choice(common)
        s, t = rules.apply(s, move), rules.apply(t, move)
    return None


def _current_setup(players: int, deck):
    return JD.setup(players, JDOptions(**ALL), deck)


@settings(max_examples=120)
@given(seed=st.integers(0, 10**9), players=st.sampled_from((3, 4, 5)), before=st.integers(0, 120))
def test_current_edition_observations_see_only_what_the_seat_has_seen(seed, players, before):
    """jd.surprise.intercept, jd.block.defender: windows open on what everyone can see."""
    deck = embedded_deck("jd-crowd")
    leak = first_leak(JD, _current_setup(min(players, 3), deck), seed, before, 40)
    assert leak is None, leak


def _leaks_on(rules, make_setup, games: int, before: int) -> list[str]:
    """Seeded games, every player count in turn: the leaks found (none expected)."""
    leaks = []
    for seed in range(games):
        players = 2 + seed % 4
        leak = first_leak(rules, make_setup(players), seed, before + seed % 150, 60)
        if leak:
            leaks.append(f"seed {seed}, {players} players: {leak}")
    return leaks


@pytest.mark.slow
def test_current_edition_observations_on_the_retail_deck(retail_deck_path):
    """The same property on the retail deck, every player count, all advanced rules (seeded)."""
    deck = load_deck(retail_deck_path, name="retail-2015")
    leaks = _leaks_on(JD, lambda n: _current_setup(n, deck), 160, 20)
    assert not leaks, f"{len(leaks)} leaks, first: {leaks[0]}"


@settings(max_examples=120)
@given(seed=st.integers(0, 10**9), players=st.sampled_from((2, 3)), before=st.integers(0, 60))
def test_v23_observations_see_only_what_the_seat_has_seen(seed, players, before):
    """jd23.call.favourite-trump: the race is among every live caller, whatever their hands hold."""
    setup = v23.RULES.setup(players, v23.Options(), embedded_deck("v23-tips" if players == 3 else "v23-crowd"))
    leak = first_leak(v23.RULES, setup, seed, before, 40)
    assert leak is None, leak


def test_v23_observations_on_the_retail_deck(retail_deck_path):
    deck = load_deck(retail_deck_path, name="retail-2015")
    leaks = _leaks_on(v23.RULES, lambda n: v23.RULES.setup(n, v23.Options(), deck), 120, 10)
    assert not leaks, f"{len(leaks)} leaks, first: {leaks[0]}"
