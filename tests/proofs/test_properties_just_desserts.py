"""The Just Desserts rulebook as executable properties (proofs/properties/just_desserts/):
they hold on the model under every setting, the examples pass, every text clause is
covered, and the properties do fail when the rules are bent."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from tablerules.model import registry
from tablerules.model.core import CHANCE, TERMINAL, RuleGap, SetupError, pick_by_probability, ruling_fields
from tablerules.model.decks import embedded_deck
from tablerules.proofs.discovery.decisions import decision_configs, settings
from tablerules.proofs.properties import (
    check_examples, check_state, check_transition, property_set, sweep, text_clauses_without_property,
)
from tablerules.proofs.properties import just_desserts as jd
from tablerules.proofs.properties.just_desserts import examples, readers
from tablerules.spec.loader import load_spec

RULES = registry.get("just-desserts")
SETTINGS = dict(settings(RULES))
ALONE = {f"{rid.split('.ruling.')[-1]}={alt} alone": dataclasses.replace(RULES.Options(), **{f.name: alt})
         for rid, f in ruling_fields(RULES.Options).items() for alt in f.metadata["alternatives"][1:]}
"""Each other alternative over the basic game (the settings above put every option under them)."""
STATE_PROPS = [p for p in jd.PROPERTIES if p.state is not None]
MOVE_PROPS = [p for p in jd.PROPERTIES if p.transition is not None]

QUICK = ("defaults", "every option", "opening-duplicates=at-setup with every option")
"""The settings the quick sweep runs; the slow one runs every setting."""

MORE_DECKS = ((3, "jd-crowd"), (2, "jd-five-suits"), (3, "jd-five-suits"), (2, "jd-famine"))


def setups(labels, extra: bool = False) -> list[tuple[str, Any]]:
    out = []
    configs = [(c.label(), c.players, c.components) for c in decision_configs(RULES, None)]
    if extra:
        configs += [(f"{n} players, {name}", n, embedded_deck(name)) for n, name in MORE_DECKS]
    for label in labels:
        for where, players, deck in configs:
            try:
                out.append((f"{label} / {where}", RULES.setup(players, SETTINGS[label], deck)))
            except (SetupError, RuleGap):
                continue
    return out


def report(result) -> str:
    return "\n".join(f"{key}: {v.message}\n    under {label}, after: {' ; '.join(path)}"
                     for key, (v, label, path) in sorted(result.violations.items()))


# --------------------------------------------------------------------------- 1. they hold on the model


def test_properties_hold_breadth_first():
    result = sweep(RULES, setups(QUICK), jd.PROPERTIES, max_states=600)
    assert result.states > 5_000
    assert not result.violations, report(result)


CHUNKS = 4
"""The slow tests come in this many parts, so that a parallel run spreads them over its workers."""


@pytest.mark.slow
@pytest.mark.parametrize("part", range(CHUNKS))
def test_properties_hold_breadth_first_every_setting(part):
    result = sweep(RULES, setups(sorted(SETTINGS)[part::CHUNKS], extra=True), jd.PROPERTIES, max_states=600)
    assert not result.violations, report(result)


def random_games(games: int, seed: int = 0, steps: int = 250,
                 with_examples_deck: bool = False, first: int = 0) -> tuple[dict, int, int]:
    """Seeded random games over every setting (and each alternative over the basic game), on the
    teaching decks and a few more (and the examples' deck, larger and slower); every state and
    transition property along the way.  Returns (first violation per key, steps, games that ended)."""
    decks = [(2, "jd-two-suits"), (2, "jd-one-suit"), (2, "jd-rivals"), *MORE_DECKS]
    if with_examples_deck:
        decks.append((3, "examples"))
    chosen = {**SETTINGS, **ALONE}
    labels = sorted(chosen)
    found: dict[str, str] = {}
    moves = ended = 0
    for g in range(first, games):
        rng = random.Random(seed * 100_003 + g)
        label = rng.choice(labels)
        players, name = rng.choice(decks)
        try:
            deck = examples._example_deck() if name == "examples" else embedded_deck(name)
            setup = RULES.setup(players, chosen[label], deck)
            s = RULES.new_game(setup)
        except (SetupError, RuleGap):
            continue
        trace: list[str] = []
        where = lambda: f"game {g} ({label}, {players} players, {name}) after {' ; '.join(trace[-12:])}"  # noqa: E731
        for v in check_state(STATE_PROPS, RULES, s):
            found.setdefault(v.key, f"{v.message} [{where()}]")
        for _ in range(steps):
            actor = RULES.to_move(s)
            if actor is TERMINAL:
                ended += 1
                break
            if actor is CHANCE:
                m = pick_by_probability(RULES.chance_outcomes(s), rng.random())
            else:
                m = rng.choice(RULES.legal_moves(s))
            try:
                t = RULES.apply(s, m)
            except RuleGap:
                break
            trace.append(str(m))
            moves += 1
            for v in check_transition(MOVE_PROPS, RULES, s, m, t):
                found.setdefault(v.key, f"{v.message} [{where()}]")
            for v in check_state(STATE_PROPS, RULES, t):
                found.setdefault(v.key, f"{v.message} [{where()}]")
            s = t
    return found, moves, ended


@pytest.mark.slow
def test_properties_hold_in_random_games():
    found, moves, ended = random_games(100)
    assert moves > 4_000 and ended > 70
    assert not found, "\n".join(f"{k}: {v}" for k, v in sorted(found.items()))


@pytest.mark.slow
@pytest.mark.parametrize("part", range(CHUNKS))
def test_properties_hold_in_many_random_games(part):
    games = 600 // CHUNKS
    found, moves, ended = random_games(games * (part + 1), seed=7, with_examples_deck=True, first=games * part)
    assert not found, "\n".join(f"{k}: {v}" for k, v in sorted(found.items()))


# --------------------------------------------------------------------------- 2. the examples


def test_examples_pass():
    assert check_examples(jd.EXAMPLES, RULES) == []


def test_the_rulebooks_example_is_there():
    assert any(e.clause == "jd.turn.example" for e in jd.EXAMPLES)


# --------------------------------------------------------------------------- 3. coverage


def test_every_text_clause_is_covered():
    assert text_clauses_without_property("just-desserts") == []


def test_named_clauses_exist():
    spec = load_spec("just-desserts")
    named = {p.clause for p in jd.PROPERTIES} | {e.clause for e in jd.EXAMPLES} | set(jd.UNOBSERVABLE)
    assert named - set(spec.clauses) == set()
    for cid in jd.UNOBSERVABLE:
        assert spec.clauses[cid].basis == "text"


def test_keys_are_unique_and_the_set_loads():
    keys = [p.key for p in jd.PROPERTIES] + [e.key for e in jd.EXAMPLES]
    assert len(keys) == len(set(keys))
    ps = property_set("just-desserts")
    # the text's properties first, then the rulings' (proofs/properties/just_desserts_rulings.py)
    assert ps.properties[: len(jd.PROPERTIES)] == jd.PROPERTIES and ps.unobservable == jd.UNOBSERVABLE
    assert len({p.key for p in ps.properties}) == len(ps.properties)


# --------------------------------------------------------------------------- 4. the properties can fail


def options(**changes) -> Any:
    return dataclasses.replace(RULES.Options(), **changes)


def bent_sweep(bent, players=2, deck="jd-rivals", max_states=700, **changes):
    setup = bent.setup(players, options(**changes), embedded_deck(deck))
    return sweep(bent, [("bent", setup)], jd.PROPERTIES, max_states=max_states).violations


def with_legal(change):
    """The rules with ``legal_moves`` bent: change(state, moves) -> moves."""
    return dataclasses.replace(RULES, legal_moves=lambda s: tuple(change(s, tuple(RULES.legal_moves(s)))))


def seat_choosing(s) -> bool:
    v = RULES.state_vars(s)
    return v["phase"] == "choose" and RULES.to_move(s) == v["turn"]


def test_an_unsatisfying_serving_is_caught():
    def add(s, moves):
        v = RULES.state_vars(s)
        if seat_choosing(s) and v["centre"] and v["hands"][v["turn"]]:
            g = v["centre"][0]
            bad = [c for c in v["hands"][v["turn"]] if not readers.satisfies(s.setup.components, (c,), g)]
            if bad:
                return moves + (RULES.parse_move(f"serve {g} with {bad[0]}", s.setup),)
        return moves
    found = bent_sweep(with_legal(add), deck="jd-two-suits")
    assert "jd.serve.satisfies" in found
    assert "jd.turn.satisfy-guests#choose" in found


def test_a_missing_kitchen_is_caught():
    found = bent_sweep(with_legal(lambda s, ms: tuple(m for m in ms if str(m) != "kitchen")), deck="jd-one-suit")
    assert "jd.turn.kitchen#offered" in found
    assert "jd.turn.one-option#turn-start" in found


def test_a_missing_doorway_serving_is_caught():
    def drop(s, moves):
        top = RULES.state_vars(s)["guest_discard"][-1:]
        return tuple(m for m in moves if not (str(m).startswith("serve ") and str(m).split()[1] in top))
    found = bent_sweep(with_legal(drop))
    assert "jd.discard.doorway#servable" in found


def test_a_kitchen_after_serving_is_caught():
    def add(s, moves):
        v = RULES.state_vars(s)
        if seat_choosing(s) and v["served"] == 1 and not any(str(m) == "kitchen" for m in moves):
            return moves + (RULES.parse_move("kitchen", s.setup),)
        return moves
    # the model's apply refuses the added move, so the properties that follow it see a model error:
    # the state properties catch the move itself
    found = bent_sweep(with_legal(add), deck="jd-two-suits")
    assert {"jd.turn.one-option#choose", "jd.turn.one-option#no-option-after-serving"} & set(found)


def test_a_missing_block_is_caught():
    found = bent_sweep(with_legal(lambda s, ms: tuple(m for m in ms if not str(m).startswith("block"))),
                       poaching=True)
    assert "jd.block.defender" in found


def test_a_block_against_the_favourite_rule_is_caught():
    def add(s, moves):
        v = RULES.state_vars(s)
        off = v["offer"]
        if off is None or RULES.to_move(s) != off["victim"]:
            return moves
        deck = s.setup.components
        favs = set(deck.guest(off["guest"]).favorites)
        if not favs & set(off["cards"]):
            return moves
        other = favs - set(off["cards"])
        plain = [c for c in v["hands"][off["victim"]] if c not in other and readers.satisfies(deck, (c,), off["guest"])]
        return moves + ((RULES.parse_move(f"block with {plain[0]}", s.setup),) if plain else ())
    found = bent_sweep(with_legal(add), poaching=True)
    assert "jd.block.favourite-only-by-other-favourite" in found


def test_a_surprise_with_a_favourite_served_is_caught():
    def add(s, moves):
        v = RULES.state_vars(s)
        off = v["offer"]
        actor = RULES.to_move(s)
        if off is None or not isinstance(actor, int):
            return moves
        deck = s.setup.components
        favs = set(deck.guest(off["guest"]).favorites)
        mine = sorted(favs & set(v["hands"][actor]))
        if favs & set(off["cards"]) and mine:
            return moves + (RULES.parse_move(f"surprise with {mine[0]}", s.setup),)
        return moves
    found = bent_sweep(with_legal(add), poaching=True, surprise_parties=True)
    assert "jd.surprise.intercept" in found


def test_a_block_played_as_a_pass_is_caught():
    def apply(s, m):
        if str(m).startswith("block"):
            return RULES.apply(s, RULES.parse_move("pass", s.setup))
        return RULES.apply(s, m)
    found = bent_sweep(dataclasses.replace(RULES, apply=apply), poaching=True)
    assert "jd.block.defender#effect" in found or "jd.block.cards-back" in found


def test_a_serving_that_takes_another_guest_is_caught():
    def apply(s, m):
        text = str(m)
        if text.startswith("serve "):
            others = [x for x in RULES.legal_moves(s)
                      if str(x).startswith("serve ") and str(x).split()[1] != text.split()[1]]
            if others:
                return RULES.apply(s, others[0])
        return RULES.apply(s, m)
    found = bent_sweep(dataclasses.replace(RULES, apply=apply), deck="jd-two-suits")
    assert "jd.turn.satisfy-guests#effect" in found


def test_a_skewed_draw_is_caught():
    from fractions import Fraction

    def chance(s):
        outs = RULES.chance_outcomes(s)
        if len(outs) == 2 and str(outs[0][0]).startswith("draw") and outs[0][1] != outs[1][1]:
            return ((outs[0][0], Fraction(1, 2)), (outs[1][0], Fraction(1, 2)))
        return outs
    found = bent_sweep(dataclasses.replace(RULES, chance_outcomes=chance), deck="jd-two-suits", max_states=300)
    assert "jd.reshuffle.desserts#odds" in found


def test_a_turn_that_skips_a_player_is_caught():
    from tablerules.model.just_desserts import DRAW, TURN_UP, evolve  # only to build the bent state

    def apply(s, m):
        t = RULES.apply(s, m)
        vs, vt = RULES.state_vars(s), RULES.state_vars(t)
        if vs["turn"] != vt["turn"] and RULES.to_move(t) is not TERMINAL:
            skip = (vt["turn"] + 1) % s.setup.players
            return evolve(t, turn=skip, tasks=((DRAW, skip), (TURN_UP, -1)))
        return t
    found = bent_sweep(dataclasses.replace(RULES, apply=apply), players=3, deck="jd-crowd")
    assert "jd.discard.turn-ends" in found


def test_an_example_fails_when_the_little_girl_takes_the_carrot_cake():
    def add(s, moves):
        v = RULES.state_vars(s)
        if seat_choosing(s) and "LITTLE_GIRL" in v["centre"] and "CARROT_CAKE" in v["hands"][v["turn"]]:
            return moves + (RULES.parse_move("serve LITTLE_GIRL with CARROT_CAKE+STRAWBERRY_SHORTCAKE", s.setup),)
        return moves
    failed = {v.key for v in check_examples(jd.EXAMPLES, with_legal(add))}
    assert "jd.turn.example#example" in failed


@pytest.mark.slow
@pytest.mark.parametrize("when", ["turn-end", "when-settled"])
def test_a_faq_score_that_never_comes_is_caught(monkeypatch, when):
    """jd.win.any-time#faq-late: under faq-score-when=turn-end or when-settled, a model that
    forgets the later scoring plays on into a turn with every guest claimed."""
    from tablerules.model.just_desserts import ending, game

    monkeypatch.setattr(game, "turn_end_score", lambda state: None)
    monkeypatch.setattr(ending, "at_turn_start", lambda state: False)
    found = bent_sweep(RULES, max_states=3_000, all_claimed="faq-score", faq_score_when=when)
    assert "jd.win.any-time#faq-late" in found
