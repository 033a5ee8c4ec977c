"""The memo tables and shortcuts of the Just Desserts step API (both editions) give the same
answers as the plain computations they stand for: shared probabilities, draws from a pile,
the servings found by sets of bits, the serving moves, the fast ``replace`` and the answers
remembered for the last state asked (jd.serve.satisfies, jd.ruling.serving-size,
jd23.ruling.spare-desserts, jd.reshuffle.desserts)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from collections import Counter
from fractions import Fraction

import pytest

from tablerules.model.core import (
    CHANCE, TERMINAL, IllegalMove, MoveTable, Outcomes, PileDraw, Probability, chances_of_counts, pick_by_probability,
    pile_counts, probability, remember_last,
)
from tablerules.model.decks import embedded_deck, embedded_deck_names, load_deck, servings
from tablerules.model.just_desserts import RULES, Move, Options, guest_servings, v23
from tablerules.model.just_desserts.game import _legal_moves
from tablerules.model.just_desserts.serving import serving_moves
from tablerules.model.just_desserts.state import State, evolve
from tablerules.model.just_desserts.tastes import hand_bits, kinds_of_bits, servable_kinds


def test_a_probability_is_the_fraction_of_its_value():
    p, f = probability(2, 6), Fraction(1, 3)
    assert isinstance(p, Fraction) and p == f and hash(p) == hash(f)
    assert (str(p), repr(p), float(p)) == (str(f), repr(f), float(f))
    assert type(p + p) is Fraction and p + p == 2 * f and 1 - p == 1 - f and p < Fraction(1, 2)
    for again in (pickle.loads(pickle.dumps(p)), copy.copy(p), copy.deepcopy(p)):
        assert again == f and float(again) == float(f)
    assert Probability("3/9") == f and probability(2, 6) is p


def test_draw_chances_group_the_copies_of_a_sorted_pile():
    rng = random.Random(3)
    for _ in range(200):
        pile = tuple(sorted(rng.choices("abcdefgh", k=rng.randint(0, 12))))
        cards, counts = pile_counts(pile)
        want = sorted(Counter(pile).items())
        assert list(zip(cards, counts)) == want
        assert list(chances_of_counts(counts)) == [Fraction(k, len(pile)) for _c, k in want]


def test_a_lazy_draw_picks_what_the_running_counts_pick_and_lists_the_same_outcomes():
    """jd.reshuffle.desserts: a draw's outcomes, listed only when asked (PileDraw), are the outcomes
    Outcomes.of_draw lists, and a random pick takes the card the search of the running counts takes
    for the same number, so random play is the same game with or without the list."""
    rng = random.Random(7)
    moves = MoveTable(lambda card: ("draw", card))
    for _ in range(300):
        pile = tuple(sorted(rng.choices("abcdefgh", k=rng.randint(1, 12))))
        lazy, listed = PileDraw(moves, pile), Outcomes.of_draw(moves, *pile_counts(pile))
        for r in [rng.random() for _ in range(20)] + [0.0, 1 - 2 ** -53]:
            assert lazy.pick(r) is pick_by_probability(listed, r) is pick_by_probability(lazy, r)
        assert lazy == listed and listed == lazy and tuple(lazy) == tuple(listed) and hash(lazy) == hash(listed)
        assert len(lazy) == len(set(pile)) and lazy[0] == listed[0] and list(lazy) == list(listed)
        assert lazy.cumulative == listed.cumulative and repr(lazy) == repr(tuple(listed))
    for _ in range(100):  # one of each card (guests): any order, listed in that order
        pile = tuple(rng.sample("abcdefghijklmnop", rng.randint(1, 16)))
        lazy = PileDraw(moves, pile)
        assert list(lazy) == [(moves[c], Fraction(1, len(pile))) for c in pile]
        for r in [rng.random() for _ in range(20)]:
            assert lazy.pick(r) is pick_by_probability(lazy.listed(), r) is moves[pile[int(r * len(pile))]]
    assert not PileDraw(moves, ()) and list(PileDraw(moves, ())) == []


def _retail(path):
    return load_deck(path, name="retail")


@pytest.mark.parametrize("name", embedded_deck_names())
def test_servable_kinds_find_exactly_the_hands_with_a_serving(name):
    _servable_agrees(embedded_deck(name), 40)


def test_servable_kinds_on_the_retail_deck(retail_deck_path):
    _servable_agrees(_retail(retail_deck_path), 150)


def _servable_agrees(deck, hands: int) -> None:
    rng = random.Random(5)
    cards = list(deck.dessert_cards())
    for _ in range(hands):
        hand = tuple(sorted(rng.sample(cards, rng.randint(0, min(len(cards), 16)))))
        bits = hand_bits(deck, hand)
        assert kinds_of_bits(deck, bits) == tuple(sorted(set(hand)))
        for g in deck.guest_cards():
            some = servings(deck, hand, g, max_cards=len(deck.guest(g).wants), minimal=True)
            assert bool(servable_kinds(deck, g, bits)) == bool(some), (hand, g)


def _states(rules, setup, games: int, seed: int):
    """Every state of a few seeded random games."""
    rng = random.Random(seed)
    for _ in range(games):
        s = rules.new_game(setup)
        for _ in range(600):
            yield s
            actor = rules.to_move(s)
            if actor is TERMINAL:
                break
            if actor is CHANCE:
                outs = rules.chance_outcomes(s)
                m = rng.choices([m for m, _ in outs], weights=[float(p) for _, p in outs])[0]
            else:
                m = rng.choice(rules.legal_moves(s))
            s = rules.apply(s, m)


def _advanced(**rulings) -> Options:
    return dataclasses.replace(Options(), poaching=True, buffet=True, surprise_parties=True, **rulings)


@pytest.mark.parametrize("size", ["minimal", "any"])
def test_serving_moves_are_the_guest_servings_in_move_order(size, retail_deck_path):
    setup = RULES.setup(3, _advanced(serving_size=size), _retail(retail_deck_path))
    seen = 0
    for s in _states(RULES, setup, 3, 11):
        if RULES.to_move(s) is CHANCE or RULES.to_move(s) is TERMINAL or s.phase != "choose":
            continue
        guests = sorted(set(s.centre) | set(g for c in s.claimed for g in c))
        hand, deck = s.hands[s.turn], setup.components
        most = {g: len(deck.guest(g).wants) if size == "minimal" else None for g in guests}
        want = [Move("poach", g, c) for g in guests
                for c in sorted(servings(deck, hand, g, max_cards=most[g], minimal=size == "minimal"))]
        assert want == [Move("poach", g, c) for g in guests for c in sorted(guest_servings(s, hand, g))]
        assert serving_moves(s, "poach", guests) == want
        seen += 1
    assert seen > 20


@pytest.mark.parametrize("players", [2, 4])
def test_legal_moves_keep_the_order_of_moves(players, retail_deck_path):
    setup = RULES.setup(players, _advanced(), _retail(retail_deck_path))
    for s in _states(RULES, setup, 3, players):
        moves = RULES.legal_moves(s)
        assert moves == tuple(sorted(moves))  # the dataclass order of Move
        assert len(set(moves)) == len(moves)
        fresh = evolve(s)  # an equal state, not the one remembered
        assert fresh == s and fresh is not s and hash(fresh) == hash(s)
        assert _legal_moves(fresh) == moves and RULES.chance_outcomes(fresh) == RULES.chance_outcomes(s)


def _plain_draws(pile, move):
    return tuple((move(c), Fraction(k, len(pile))) for c, k in sorted(Counter(pile).items()))


def test_jd_draws_are_the_plain_distribution(retail_deck_path):
    setup = RULES.setup(4, _advanced(), _retail(retail_deck_path))
    for s in _states(RULES, setup, 2, 9):
        if RULES.to_move(s) is not CHANCE or not s.tasks:
            continue
        if s.tasks[0][0] == "d":
            want = _plain_draws(s.dessert_pile or s.dessert_discard, lambda c: Move("draw", cards=(c,)))
        else:
            want = _plain_draws(s.guest_pile or tuple(sorted(s.guest_discard[:-1])), lambda c: Move("turn-up", c))
        got = RULES.chance_outcomes(s)
        assert got == want and all(type(p) is Probability for _m, p in got)


@pytest.mark.parametrize("players", [2, 4])
def test_v23_draws_and_replace_are_the_plain_ones(players, retail_deck_path):
    setup = v23.RULES.setup(players, v23.Options(), _retail(retail_deck_path))
    for s in _states(v23.RULES, setup, 3, players):
        assert v23.replace(s, phase=s.phase) == dataclasses.replace(s) and type(v23.replace(s)) is v23.State
        if s.phase in (v23.DEAL, v23.DRAW):
            seat = s.draws[0]
            assert v23.chance_outcomes(s) == _plain_draws(s.dessert_pile, lambda c: v23.Draw(seat, c))
        if s.phase == v23.TURN_UP:
            n = len(s.guest_pile)
            assert v23.chance_outcomes(s) == tuple((v23.TurnUp(g), Fraction(1, n)) for g in s.guest_pile)


def test_the_fast_replace_and_its_builders_make_what_dataclasses_replace_makes():
    """evolve (and the positional builders of the hot call sites) give the state dataclasses.replace gives, for
    any fields in any order, of the frozen class itself; a field the state lacks is a TypeError."""
    rng = random.Random(11)
    setup = RULES.setup(3, _advanced(), embedded_deck("jd-crowd"))
    fields = [f.name for f in dataclasses.fields(State)]
    for s in _states(RULES, setup, 2, 4):
        other = rng.choice(list(_states(RULES, setup, 1, rng.randint(0, 99))))
        names = rng.sample(fields, rng.randint(0, 5))
        changes = {name: getattr(other, name) for name in names}
        want = dataclasses.replace(s, **changes)
        for got in (evolve(s, **changes), evolve.builder(*names)(s, *changes.values())):
            assert got == want and type(got) is State and hash(got) == hash(want)
            assert all(getattr(got, f) is getattr(want, f) for f in fields)
    with pytest.raises(TypeError, match="no field 'nosuch'"):
        evolve(s, nosuch=1)


def test_the_replace_functions_are_forgotten_with_the_models_caches():
    """The functions evolve writes per set of fields are a cache like the others: emptied by the decision-point
    finder's clear_model_caches, so the lines it sees run do not depend on what ran before in the process."""
    from tablerules.proofs.discovery.decisions import clear_model_caches

    made = evolve.builder("turn", "served")
    assert evolve.builder("turn", "served") is made
    clear_model_caches()
    assert evolve.builder("turn", "served") is not made


@pytest.mark.parametrize("players", [2, 4])
def test_apply_of_a_listed_move_is_apply_of_an_equal_move_and_refusals_name_their_clause(players, retail_deck_path):
    """apply takes a move legal_moves listed for this very state (the same object) without asking
    illegal_reason: the state it reaches is the one an equal move (a copy, never listed) reaches,
    and a move that is not legal still raises naming illegal_reason's clause."""
    setup = RULES.setup(players, _advanced(), _retail(retail_deck_path))
    moves = (*(Move("dump", cards=(c,)) for c in setup.components.dessert_cards()[:3]), Move("kitchen"),
             Move("stop"), Move("pass"), Move("draw", cards=("nothing",)))
    for s in _states(RULES, setup, 2, players + 20):
        actor = RULES.to_move(s)
        if actor is TERMINAL:
            continue
        listed = [m for m, _ in RULES.chance_outcomes(s)] if actor is CHANCE else list(RULES.legal_moves(s))
        move = listed[len(listed) // 2]
        assert RULES.apply(s, move) == RULES.apply(evolve(s), dataclasses.replace(move))
        for m in moves:
            reason = RULES.illegal_reason(s, m)
            if reason is not None:
                with pytest.raises(IllegalMove) as refused:
                    RULES.apply(s, m)
                assert refused.value.clause == reason


def test_remember_last_knows_only_the_arguments_asked_last():
    asked = []

    @remember_last
    def double(x):
        asked.append(x)
        return [x, x]

    a, b = ("a",), tuple(["a"])  # equal, not the same object
    assert double.known(a) is None
    got = double(a)
    assert double.known(a) is got and double(a) is got and double.known(b) is None and asked == [a]
    double.cache_clear()
    assert double.known(a) is None
