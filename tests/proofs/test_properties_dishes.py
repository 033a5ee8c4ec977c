"""The rulebook text of Who Is Going to Do the Dishes? as properties
(proofs/properties/dishes/): they hold on the model under every ruling alternative, the
worked example and the other fixed positions pass, every text clause is covered, and each
kind of property does reject a model that breaks its clause."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from tablerules.model import registry
from tablerules.model.core import CHANCE, TERMINAL, RuleGap, SetupError, pick_by_probability
from tablerules.proofs.discovery.decisions import decision_configs, settings
from tablerules.proofs.properties import (
    check_examples, check_state, check_transition, property_set, sweep, text_clauses_without_property,
)
from tablerules.proofs.properties import dishes as props
from tablerules.proofs.properties.dishes import examples, readers
from tablerules.spec.loader import load_spec

RULES = registry.get("dishes")


def all_setups() -> list[tuple[str, object]]:
    """Every small configuration under the defaults and under each other alternative."""
    out = []
    for config in decision_configs(RULES, None):
        for label, options in settings(RULES):
            try:
                out.append((f"{config.label()}, {label}", config.setup(RULES, options)))
            except (SetupError, RuleGap):
                continue
    return out


def random_games(rules, setups, properties, games: int, steps: int = 200) -> dict[str, tuple[str, list[str], str]]:
    """Seeded random games checking every property at every state and move: the late
    positions (tall piles, the end) a breadth-first sweep does not reach."""
    state_props = [p for p in properties if p.state is not None]
    move_props = [p for p in properties if p.transition is not None]
    found: dict[str, tuple[str, list[str], str]] = {}
    for label, setup in setups:
        for seed in range(games):
            rng = random.Random(seed)
            try:
                s = rules.new_game(setup)
            except RuleGap:
                break
            path: list[str] = []
            for _ in range(steps):
                for v in check_state(state_props, rules, s):
                    found.setdefault(v.key, (label, list(path), v.message))
                actor = rules.to_move(s)
                if actor is TERMINAL:
                    break
                try:
                    if actor is CHANCE:
                        move = pick_by_probability(rules.chance_outcomes(s), rng.random())
                    else:
                        move = rng.choice(rules.legal_moves(s))
                    nxt = rules.apply(s, move)
                except RuleGap:
                    break
                for v in check_transition(move_props, rules, s, move, nxt):
                    found.setdefault(v.key, (label, path + [str(move)], v.message))
                path.append(str(move))
                s = nxt
    return found


def report(violations) -> str:
    return "\n".join(f"{key}: {msg} [{label}] after {list(path)}" for key, (label, path, msg) in violations.items())


# --------------------------------------------------------------------------- the model keeps the text


def test_every_property_holds_breadth_first():
    result = sweep(RULES, all_setups(), props.PROPERTIES, max_states=60)
    assert result.states > 3_000
    assert not result.violations, "\n".join(
        f"{k}: {v.message} [{label}] after {list(path)}" for k, (v, label, path) in result.violations.items())


def test_every_property_holds_in_random_games():
    found = random_games(RULES, all_setups(), props.PROPERTIES, games=2)
    assert not found, report(found)


@pytest.mark.slow
def test_every_property_holds_deeper():
    result = sweep(RULES, all_setups(), props.PROPERTIES, max_states=800)
    assert not result.violations, "\n".join(
        f"{k}: {v.message} [{label}] after {list(path)}" for k, (v, label, path) in result.violations.items())
    found = random_games(RULES, all_setups(), props.PROPERTIES, games=15)
    assert not found, report(found)


def test_every_example_passes():
    assert check_examples(props.EXAMPLES, RULES) == []


def test_the_sweep_reaches_every_kind_of_position():
    """The checks above are not empty: tiles are turned, piles move and grow, games end."""
    seen = set()
    for _label, setup in all_setups()[:: 7]:
        for seed in range(3):
            rng = random.Random(seed)
            try:
                s = RULES.new_game(setup)  # a strict deal ruling stops here
                while RULES.to_move(s) is not TERMINAL:
                    if RULES.to_move(s) is CHANCE:
                        m = pick_by_probability(RULES.chance_outcomes(s), rng.random())
                    else:
                        m = rng.choice(RULES.legal_moves(s))
                    seen.add(str(m).split()[0])
                    s = RULES.apply(s, m)
            except RuleGap:
                continue
            seen.add("end")
            if any(len(p) > 2 for p in readers.table(RULES, s).places.values() if p != "clean"):
                seen.add("tall pile")
    assert {"turn", "reveal", "place", "end", "tall pile"} <= seen


# --------------------------------------------------------------------------- coverage of the spec


def test_every_text_clause_has_a_property_or_a_reason():
    assert text_clauses_without_property("dishes") == []


def test_every_named_clause_is_in_the_spec():
    spec = load_spec("dishes")
    named = {p.clause for p in props.PROPERTIES} | {e.clause for e in props.EXAMPLES} | set(props.UNOBSERVABLE)
    assert named <= set(spec.clauses), sorted(named - set(spec.clauses))
    text = {cid for cid, c in spec.clauses.items() if c.basis == "text"}
    assert set(props.UNOBSERVABLE) <= text
    assert not set(props.UNOBSERVABLE) & ({p.clause for p in props.PROPERTIES} | {e.clause for e in props.EXAMPLES})


def test_keys_are_unique_and_the_set_loads():
    ps = property_set("dishes")
    keys = [p.key for p in (*ps.properties, *ps.examples)]
    assert len(keys) == len(set(keys))
    assert ps.unobservable == props.UNOBSERVABLE


# --------------------------------------------------------------------------- the properties can fail


def _setup(players=2, tiles="3x4", **alternatives):
    o = RULES.Options()
    for short, alt in alternatives.items():
        o = dataclasses.replace(o, **{short: alt})
    return RULES.setup(players, o, RULES.load_components(tiles))


def _play(rules, setup, moves):
    s = rules.new_game(setup)
    for text in moves:
        s = rules.apply(s, rules.parse_move(text, setup))
    return s


# seats 0 and 1 soil their drinks (red, yellow), then their main courses (red, c3); seat 0 is to move.
DRINKS = ["turn 0.drinks", "reveal 0.drinks red", "turn 1.drinks", "reveal 1.drinks yellow",
          "turn 0.main", "reveal 0.main red", "turn 1.main", "reveal 1.main c3"]


def _violations(rules, state, key):
    prop = next(p for p in props.PROPERTIES if p.key == key)
    return check_state([prop], rules, state)


def _move_violations(rules, state, move_text, key):
    prop = next(p for p in props.PROPERTIES if p.key == key)
    move = rules.parse_move(move_text, state.setup)
    return check_transition([prop], rules, state, move, rules.apply(state, move))


def test_the_position_used_below_is_as_described():
    s = _play(RULES, _setup(), DRINKS)
    assert RULES.to_move(s) == 0
    assert {str(m) for m in RULES.legal_moves(s) if str(m).startswith("place")} == {
        "place 0.drinks on 1.drinks", "place 0.drinks on 0.main", "place 0.main on 0.drinks", "place 0.main on 1.main"}


def test_an_extra_illegal_placement_is_caught():
    """A model that also lets a pile land on a tile sharing neither kind nor colour."""
    def legal_moves(state):
        moves = RULES.legal_moves(state)
        if RULES.to_move(state) == 0 and readers.table(RULES, state).pile("1.main"):
            moves = moves + (RULES.parse_move("place 0.drinks on 1.main", state.setup),)
        return moves

    bad = dataclasses.replace(RULES, legal_moves=legal_moves)
    s = _play(RULES, _setup(), DRINKS)
    for key in ("dishes.play.place-match", "dishes.play.top-counts#moves", "dishes.play.one-move#kinds"):
        assert _violations(bad, s, key), key
    assert not _violations(RULES, s, "dishes.play.place-match")


def test_a_dropped_legal_placement_is_caught():
    """A model that forgets that a pile may land in another player's layout."""
    def legal_moves(state):
        return tuple(m for m in RULES.legal_moves(state) if not str(m).endswith("on 1.drinks"))

    bad = dataclasses.replace(RULES, legal_moves=legal_moves)
    s = _play(RULES, _setup(), DRINKS)
    assert _violations(bad, s, "dishes.play.place-anyone")
    assert _violations(bad, s, "dishes.play.top-counts#moves")
    assert not _violations(RULES, s, "dishes.play.place-anyone")


def test_illegal_reason_that_disagrees_is_caught():
    def illegal_reason(state, move):
        return None if str(move) == "place 0.drinks on 1.main" else RULES.illegal_reason(state, move)

    bad = dataclasses.replace(RULES, illegal_reason=illegal_reason)
    s = _play(RULES, _setup(), DRINKS)
    assert _violations(bad, s, "dishes.play.place-match#refused")


def test_a_pile_put_in_the_wrong_place_is_caught():
    """apply that puts the moved pile under the target instead of on top, or leaves it behind."""
    s = _play(RULES, _setup(), DRINKS)
    target = 1 * 6 + 2  # 1.drinks in the model's encoding (layout * 6 + kind)
    source = 0 * 6 + 2

    def under(state, move):
        nxt = RULES.apply(state, move)
        places = list(nxt.places)
        places[target] = tuple(reversed(places[target]))
        return dataclasses.replace(nxt, places=tuple(places))

    def copied(state, move):
        nxt = RULES.apply(state, move)
        places = list(nxt.places)
        places[source] = state.places[source]
        return dataclasses.replace(nxt, places=tuple(places))

    for apply in (under, copied):
        bad = dataclasses.replace(RULES, apply=apply)
        assert _move_violations(bad, s, "place 0.drinks on 1.drinks", "dishes.play.move-whole-stack")
    assert not _move_violations(RULES, s, "place 0.drinks on 1.drinks", "dishes.play.move-whole-stack")


def test_turn_order_against_the_clock_is_caught():
    setup = _setup(players=3, tiles="2x4")

    def apply(state, move):
        nxt = RULES.apply(state, move)
        if str(move).startswith("reveal") and nxt.turn >= 0:
            nxt = dataclasses.replace(nxt, turn=(state.turn - 1) % 3)
        return nxt

    bad = dataclasses.replace(RULES, apply=apply)
    s = RULES.new_game(setup)
    assert _move_violations(bad, s, "turn 0.dessert", "dishes.play.clockwise")
    assert not _move_violations(RULES, s, "turn 0.dessert", "dishes.play.clockwise")


def test_turning_someone_elses_tile_is_caught():
    def legal_moves(state):
        return RULES.legal_moves(state) + ((RULES.parse_move("turn 1.dessert", state.setup),)
                                           if RULES.to_move(state) == 0 else ())

    bad = dataclasses.replace(RULES, legal_moves=legal_moves)
    assert _violations(bad, RULES.new_game(_setup()), "dishes.play.turn-own-tile#legal")


def test_a_wrong_colour_model_is_caught():
    """Chance that lets a second red drinks show, or is not uniform."""
    setup = _setup()
    s = _play(RULES, setup, DRINKS[:2] + ["turn 1.drinks"])

    def chance_outcomes(state):
        if readers.table(RULES, state).reveal == ("1.drinks",):
            return tuple((RULES.parse_move(f"reveal 1.drinks {c}", setup), Fraction(1, 4))
                         for c in ("red", "yellow", "c3", "c4"))
        return RULES.chance_outcomes(state)

    bad = dataclasses.replace(RULES, chance_outcomes=chance_outcomes)
    assert _violations(bad, s, "dishes.components.colour-sets#reveal")
    assert not _violations(RULES, s, "dishes.components.colour-sets#reveal")


def test_a_colour_seen_on_a_clean_tile_is_caught():
    def observation(state, seat):
        obs = RULES.observation(state, seat)
        if seat == 0:
            obs = dict(obs, places=dict(obs["places"], **{"0.dessert": "clean red"}))
        return obs

    bad = dataclasses.replace(RULES, observation=observation)
    s = RULES.new_game(_setup())
    assert _violations(bad, s, "dishes.components.clean-side")
    assert _violations(bad, s, "dishes.setup.hidden-backs")


def test_a_game_that_ends_too_early_or_never_is_caught():
    s = _play(RULES, _setup(), DRINKS)
    early = dataclasses.replace(RULES, to_move=lambda state: TERMINAL)
    assert _violations(early, s, "dishes.end.no-moves#only-then")

    # a finished game played out, then a model that keeps it going
    setup = _setup(players=2, tiles="2x4")
    rng, end = random.Random(1), RULES.new_game(setup)
    while RULES.to_move(end) is not TERMINAL:
        a = RULES.to_move(end)
        m = (
            pick_by_probability(RULES.chance_outcomes(end), rng.random())
            if a is CHANCE
            else rng.choice(RULES.legal_moves(end))
        )
        end = RULES.apply(end, m)
    never = dataclasses.replace(RULES, to_move=lambda state: 0)
    assert _violations(never, end, "dishes.end.no-moves#ends")


def test_the_wrong_loser_is_caught():
    setup = _setup(players=2, tiles="2x4")
    rng, end = random.Random(3), RULES.new_game(setup)
    while RULES.to_move(end) is not TERMINAL:
        a = RULES.to_move(end)
        m = (
            pick_by_probability(RULES.chance_outcomes(end), rng.random())
            if a is CHANCE
            else rng.choice(RULES.legal_moves(end))
        )
        end = RULES.apply(end, m)
    right = RULES.outcome(end)
    flipped = dataclasses.replace(right, losers=frozenset({0, 1}) - right.losers or frozenset({0}), draw=False)
    bad = dataclasses.replace(RULES, outcome=lambda state: flipped if RULES.to_move(state) is TERMINAL else None)
    assert _violations(bad, end, "dishes.end.most-dishes-loses")
    assert not _violations(RULES, end, "dishes.end.most-dishes-loses")


def test_the_worked_example_rejects_a_model_without_colour_matches():
    """A model where only kinds match does not give Ania the book's list."""
    def legal_moves(state):
        t = readers.table(RULES, state)
        return tuple(
            m
            for m in RULES.legal_moves(state)
            if not str(m).startswith("place ") or t.top(str(m).split()[1]).kind == t.top(str(m).split()[3]).kind
        )

    bad = dataclasses.replace(RULES, legal_moves=legal_moves)
    assert examples.worked_example(bad)
    assert examples.worked_example(RULES) is None


def test_a_gap_where_an_alternative_decides_is_caught():
    """A RuleGap is the text's silence only under the ruling's strict alternative."""
    def legal_moves(state):
        raise RuleGap("dishes.ruling.stuck-player", "planted")

    bad = dataclasses.replace(RULES, legal_moves=legal_moves)
    s = RULES.new_game(_setup())
    assert _violations(bad, s, "dishes.play.turn-own-tile#legal")
    strict = RULES.new_game(_setup(stuck_player="strict"))
    assert not _violations(bad, strict, "dishes.play.turn-own-tile#legal")  # there the gap is the ruling's business


def _finished(setup, seed):
    rng, s = random.Random(seed), RULES.new_game(setup)
    while RULES.to_move(s) is not TERMINAL:
        a = RULES.to_move(s)
        m = (
            pick_by_probability(RULES.chance_outcomes(s), rng.random())
            if a is CHANCE
            else rng.choice(RULES.legal_moves(s))
        )
        s = RULES.apply(s, m)
    return s


def test_a_gap_the_strict_alternative_does_not_allow_is_caught():
    """Under tie-for-most=strict only a tie is the text's silence: a gap at an end without a
    tie is rejected; at a tie nothing is claimed (whether strict raises is the gap finder's
    business)."""
    setup = _setup(players=2, tiles="2x4", tie_for_most="strict")
    ends = {}
    for seed in range(200):
        end = _finished(setup, seed)
        try:
            RULES.outcome(end)
            ends.setdefault("no tie", end)
        except RuleGap:
            ends.setdefault("tie", end)
        if len(ends) == 2:
            break
    assert len(ends) == 2

    def outcome(state):
        raise RuleGap("dishes.ruling.tie-for-most", "planted")

    bad = dataclasses.replace(RULES, outcome=outcome)
    assert _violations(bad, ends["no tie"], "dishes.end.most-dishes-loses")
    assert not _violations(bad, ends["tie"], "dishes.end.most-dishes-loses")
    for end in ends.values():
        assert not _violations(RULES, end, "dishes.end.most-dishes-loses")


def test_a_move_accepted_after_the_end_is_caught():
    end = _finished(_setup(players=2, tiles="2x4"), 5)
    bad = dataclasses.replace(
        RULES, illegal_reason=lambda state, move: None if str(move) == "pass" else RULES.illegal_reason(state, move)
    )
    assert _violations(bad, end, "dishes.end.no-moves#nothing-after")
    assert not _violations(RULES, end, "dishes.end.no-moves#nothing-after")


def test_a_stuck_player_who_may_not_pass_is_caught():
    """Under skip a stuck player's only move is a pass; a model offering none is rejected."""
    setup = _setup(players=3, tiles="2x4")
    for seed in range(300):
        rng, s = random.Random(seed), RULES.new_game(setup)
        while RULES.to_move(s) is not TERMINAL:
            if RULES.to_move(s) is not CHANCE and [str(m) for m in RULES.legal_moves(s)] == ["pass"]:
                break
            a = RULES.to_move(s)
            m = (
                pick_by_probability(RULES.chance_outcomes(s), rng.random())
                if a is CHANCE
                else rng.choice(RULES.legal_moves(s))
            )
            s = RULES.apply(s, m)
        else:
            continue
        break
    else:
        pytest.skip("no stuck player found")
    bad = dataclasses.replace(
        RULES, legal_moves=lambda state: tuple(m for m in RULES.legal_moves(state) if str(m) != "pass")
    )
    assert _violations(bad, s, "dishes.play.one-move#kinds")
    assert not _violations(RULES, s, "dishes.play.one-move#kinds")
