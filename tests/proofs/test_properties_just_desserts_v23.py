"""The text of Just Desserts 2.3 as properties (proofs/properties/just_desserts_v23/).

* every property holds on the model: breadth-first over the small configurations (the defaults
  deeper, every other alternative of every ruling too), and along seeded random games, which
  reach what a breadth-first budget cannot (the closed Kitchen, the reshuffle, the end);
* every example holds;
* every text clause of spec/just_desserts_v23.toml has a property, an example or a reason, and
  every clause they name exists;
* the properties can fail: rule sets with a move added, a move dropped or a result changed are
  caught by the property that states the sentence they break.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Callable, Sequence

import pytest

from tablerules.model import registry
from tablerules.model.core import CHANCE, TERMINAL, Outcome, RuleGap, SetupError, parse_options, pick_by_probability
from tablerules.proofs import properties as props
from tablerules.proofs.discovery.decisions import decision_configs, settings
from tablerules.proofs.properties import just_desserts_v23 as jd23
from tablerules.proofs.properties.just_desserts_v23 import examples, readers
from tablerules.spec.loader import load_spec

RULES = registry.get("just-desserts-2.3")
RANDOM_DECKS = (("v23-tiny", 2), ("v23-crowd", 2), ("v23-tips", 3), ("v23-tips", 2))
"""Configurations for random play: the small ones, the deck whose hands run empty, and the deck
built to the Tips & Hints (which binds the deck-claim properties), with three players."""


def setups(rules: Any = RULES, only: Callable[[str], bool] = lambda label: True) -> list[tuple[str, Any]]:
    """(label, setup) for every setting (defaults and each other alternative) and small configuration."""
    out = []
    for label, options in settings(rules):
        if not only(label):
            continue
        for config in decision_configs(rules, None):
            try:
                out.append((f"{label}, {config.label()}", config.setup(rules, options)))
            except (SetupError, RuleGap):
                continue
    return out


def random_setups(rules: Any = RULES) -> list[tuple[str, Any]]:
    out = []
    for label, options in settings(rules):
        for deck, players in RANDOM_DECKS:
            out.append(
                (f"{label}, {players} players, {deck}", rules.setup(players, options, rules.load_components(deck)))
            )
    return out


def play_randomly(rules: Any, setup: Any, seed: int, properties: Sequence[props.Property],
                  limit: int = 600) -> tuple[list[props.Violation], tuple[str, ...]] | None:
    """One seeded random game, every property at every state and move; the violations at the
    first state or move that has any, and the moves to it, or None."""
    rng = random.Random(seed)
    state, moves = rules.new_game(setup), []
    for _ in range(limit):
        found = props.check_state(properties, rules, state)
        if found:
            return found, tuple(moves)
        actor = rules.to_move(state)
        if actor is TERMINAL:
            return None
        try:
            move = (pick_by_probability(rules.chance_outcomes(state), rng.random()) if actor is CHANCE
                    else rng.choice(rules.legal_moves(state)))
            nxt = rules.apply(state, move)
        except RuleGap:
            return None  # a strict alternative's gap: the game stops there
        found = props.check_transition(properties, rules, state, move, nxt)
        if found:
            return found, tuple(moves) + (str(move),)
        state = nxt
        moves.append(str(move))
    return None


def random_violations(rules: Any, games: int, properties: Sequence[props.Property] = jd23.PROPERTIES,
                      seed: int = 23) -> dict[str, str]:
    """Property key -> first violation (with its setting and moves) over ``games`` random games
    spread over every setting and random configuration."""
    out: dict[str, str] = {}
    pool = random_setups(rules)
    for g in range(games):
        label, setup = pool[g % len(pool)]
        hit = play_randomly(rules, setup, seed * 100_003 + g, properties)
        for v in hit[0] if hit is not None else ():
            out.setdefault(v.key, f"{v.message} [{label}; game {g}: {' | '.join(hit[1])}]")
    return out


def sweep_report(result: props.Sweep) -> dict[str, str]:
    return {key: f"{v.message} [{label}: {' | '.join(moves)}]" for key, (v, label, moves) in result.violations.items()}


# --------------------------------------------------------------------------- the properties hold


def test_every_property_holds_breadth_first_under_the_defaults():
    result = props.sweep(RULES, setups(only=lambda label: label == "defaults"), jd23.PROPERTIES, max_states=6_000)
    assert result.states >= 6_000
    assert sweep_report(result) == {}


@pytest.mark.slow
def test_every_property_holds_breadth_first_under_every_alternative():
    """Every other alternative of every ruling, breadth-first on v23-crowd: its deal has 75 states
    (v23-tiny's has 1,092), so a small budget reaches the rounds, trumps and penalties; v23-tiny
    under every alternative is the slow test's."""
    crowd = RULES.load_components("v23-crowd")
    chosen = [(label, RULES.setup(2, options, crowd)) for label, options in settings(RULES) if label != "defaults"]
    result = props.sweep(RULES, chosen, jd23.PROPERTIES, max_states=600)
    assert result.states >= 600 * len(chosen) // 2
    assert sweep_report(result) == {}


def test_every_property_holds_along_random_games():
    """200 seeded games over every setting and four configurations: late positions included."""
    assert random_violations(RULES, 200) == {}


def test_random_games_reach_the_late_game():
    """The random games do reach what the late-game properties are about."""
    seen: set[str] = set()
    for g, (label, setup) in enumerate(random_setups()[:8]):
        rng = random.Random(g)
        state = RULES.new_game(setup)
        while RULES.to_move(state) is not TERMINAL:
            t = readers.table(RULES, state)
            seen |= {
                name
                for name, yes in (
                    ("closed", t.closed), ("reshuffled", t.reshuffled), ("penalty", t.phase == readers.PENALTY),
                    ("trump", t.phase == readers.TRUMP),
                )
                if yes
            }
            actor = RULES.to_move(state)
            move = (pick_by_probability(RULES.chance_outcomes(state), rng.random()) if actor is CHANCE
                    else rng.choice(RULES.legal_moves(state)))
            state = RULES.apply(state, move)
        seen.add("over")
    assert seen == {"closed", "reshuffled", "penalty", "trump", "over"}


@pytest.mark.slow
def test_every_property_holds_on_the_whole_default_game_graph():
    """Every reachable state of two players on v23-tiny under the defaults (86,758 states)."""
    result = props.sweep(RULES, setups(only=lambda label: label == "defaults"), jd23.PROPERTIES, max_states=200_000)
    assert result.states > 80_000
    assert sweep_report(result) == {}


@pytest.mark.slow
def test_every_property_holds_deeper_under_every_alternative():
    result = props.sweep(RULES, setups(only=lambda label: label != "defaults"), jd23.PROPERTIES, max_states=5_000)
    assert sweep_report(result) == {}


@pytest.mark.slow
def test_every_property_holds_along_many_random_games():
    assert random_violations(RULES, 2_000, seed=2023) == {}


# --------------------------------------------------------------------------- examples and coverage


def test_every_example_holds():
    assert props.check_examples(jd23.EXAMPLES, RULES) == []


def test_every_text_clause_is_covered():
    assert props.text_clauses_without_property("just-desserts-2.3") == []


def test_every_clause_named_exists():
    clauses = set(load_spec("just-desserts-2.3").clauses)
    named = {p.clause for p in jd23.PROPERTIES} | {e.clause for e in jd23.EXAMPLES} | set(jd23.UNOBSERVABLE)
    assert named - clauses == set()
    assert len({p.key for p in jd23.PROPERTIES}) == len(jd23.PROPERTIES), "property keys must be unique"
    assert len({e.key for e in jd23.EXAMPLES}) == len(jd23.EXAMPLES), "example keys must be unique"


def test_property_set_is_registered():
    ps = props.property_set("just-desserts-2.3")
    assert ps.properties == jd23.PROPERTIES and ps.examples == jd23.EXAMPLES


def test_properties_use_only_the_registered_alternatives():
    """Every alternative a property names (``applies=``) is one the spec registers."""
    spec = load_spec("just-desserts-2.3")
    for rid in (readers.TRUMP_RULING, readers.SPARE, readers.TWO_FAVS, readers.TAKER, readers.PILE,
                readers.WITH_OTHERS, readers.EMPTY_HAND, readers.GUEST_EMPTY, readers.NOTHING_LEFT, readers.KITCHEN,
                readers.FULL_TIE, readers.SIMUL_MISTAKEN, readers.ODDS):
        assert rid in spec.rulings


# --------------------------------------------------------------------------- the finding


def test_strict_kitchen_check_raises_its_gap_on_an_empty_open_pile():
    """Found by these properties (favourite_extra_card): kitchen-check = strict means a RuleGap
    when a Favorite's card is due and the open Kitchen holds fewer desserts than players, an
    empty pile included; the model used to give no card there without a gap."""
    setup = RULES.setup(
        2, parse_options(RULES.Options, ["jd23.ruling.kitchen-check=strict"]), RULES.load_components("v23-tiny")
    )
    s = examples._play(RULES, setup, examples.SPLIT, "turn up BELLE", "pass", "pass", "draws NUT_BAR", "draws NUT_BAR",
                   "turn up NED", "pass", "call")
    t = readers.table(RULES, s)
    assert not t.closed and not t.pile
    with pytest.raises(RuleGap, match="kitchen-check"):
        RULES.apply(s, RULES.parse_move("serve NUT_BAR+TART", setup))  # a Favorite of Nutty Ned


# --------------------------------------------------------------------------- the properties can fail


def only(*keys: str) -> tuple[props.Property, ...]:
    chosen = tuple(p for p in jd23.PROPERTIES if p.key in keys)
    assert {p.key for p in chosen} == set(keys)
    return chosen


def caught(rules: Any, keys: Sequence[str], games: int = 120, budget: int = 3_000) -> set[str]:
    """Which of these properties a broken rule set violates (breadth-first, then random games)."""
    chosen = only(*keys)
    found = set(
        props.sweep(rules, setups(only=lambda label: label == "defaults"), chosen, max_states=budget).violations
    )
    if found != set(keys):
        found |= set(random_violations(rules, games, chosen))
    return found


def test_a_serving_that_does_not_satisfy_is_caught():
    def legal_moves(state):
        moves = RULES.legal_moves(state)
        if readers.server_of(RULES, state) is None:
            return moves
        t = readers.table(RULES, state)
        bad = [c for c in sorted(set(t.hands[RULES.to_move(state)])) if not readers.satisfies(t.deck, (c,), t.guest)]
        return moves + tuple(RULES.parse_move(f"serve {c}", state.setup) for c in bad[:1])
    broken = dataclasses.replace(RULES, legal_moves=legal_moves)
    assert caught(broken, ["jd23.satisfy.tastes#sound", "jd23.satisfy.tastes#complete"]) == {
        "jd23.satisfy.tastes#sound", "jd23.satisfy.tastes#complete"}


def test_a_missing_pass_is_caught():
    def legal_moves(state):
        moves = RULES.legal_moves(state)
        answering = readers.table(RULES, state).phase == readers.ANSWER
        return tuple(m for m in moves if str(m) != "pass") if answering else moves
    broken = dataclasses.replace(RULES, legal_moves=legal_moves)
    assert caught(broken, ["jd23.call.got-it#call-or-pass"]) == {"jd23.call.got-it#call-or-pass"}


def test_a_missing_serving_is_caught():
    def legal_moves(state):
        moves = RULES.legal_moves(state)
        serves = [m for m in moves if str(m).startswith("serve")]
        return tuple(m for m in moves if m is not serves[-1]) if len(serves) > 1 else moves
    broken = dataclasses.replace(RULES, legal_moves=legal_moves)
    assert caught(broken, ["jd23.satisfy.tastes#complete"]) == {"jd23.satisfy.tastes#complete"}


def test_a_race_that_cannot_tie_is_caught():
    def chance_outcomes(state):
        outs = RULES.chance_outcomes(state)
        kept = tuple((m, p) for m, p in outs if str(m) != "simultaneous")
        if len(kept) == len(outs):
            return outs
        total = sum(p for _, p in kept)
        return tuple((m, p / total) for m, p in kept)
    broken = dataclasses.replace(RULES, chance_outcomes=chance_outcomes)
    assert caught(broken, ["jd23.call.simultaneous#possible", "jd23.call.simultaneous#odds"]) == {
        "jd23.call.simultaneous#possible", "jd23.call.simultaneous#odds"}


def test_a_penalty_on_the_wrong_pile_is_caught():
    """The penalty card lands on the taker's pile though the default reading is the caller's."""
    def apply(state, move):
        nxt = RULES.apply(state, move)
        m = readers.said(move)
        if m.kind != "penalty":
            return nxt
        dishes = list(nxt.dishes)
        mine = list(dishes[m.seat])
        mine.remove(m.card)
        dishes[m.seat] = tuple(mine)
        dishes[m.taker] = tuple(sorted(dishes[m.taker] + (m.card,)))
        return dataclasses.replace(nxt, dishes=tuple(dishes))
    broken = dataclasses.replace(RULES, apply=apply)
    keys = ["jd23.call.erroneous-penalty#card-lands", "jd23.call.erroneous-penalty#all-pay-then-draw"]
    assert caught(broken, keys) == set(keys)


def test_a_favourite_without_its_card_is_caught():
    """Serving a Favorite goes straight to the next guest: no extra card."""
    def apply(state, move):
        nxt = RULES.apply(state, move)
        if readers.said(move).kind == "serve" and readers.table(RULES, nxt).phase == readers.DRAW and nxt.guest_pile:
            return dataclasses.replace(nxt, phase=readers.TURN_UP, draws=())
        return nxt
    broken = dataclasses.replace(RULES, apply=apply)
    assert caught(broken, ["jd23.favourite.extra-card"]) == {"jd23.favourite.extra-card"}


def test_a_guest_left_in_the_pile_is_caught():
    def apply(state, move):
        nxt = RULES.apply(state, move)
        m = readers.said(move)
        return (
            dataclasses.replace(nxt, guest_pile=tuple(sorted(nxt.guest_pile + (m.guest,))))
            if m.kind == "turn-up"
            else nxt
        )
    broken = dataclasses.replace(RULES, apply=apply)
    keys = ["jd23.setup.shuffle#guests-conserved", "jd23.round.turn-up-guest#reveal"]
    assert caught(broken, keys) == set(keys)


def test_a_wrong_winner_is_caught():
    """The result names the player with the fewest guests."""
    def outcome(state):
        out = RULES.outcome(state)
        if out is None:
            return None
        worst = min(range(state.setup.players), key=lambda s: (len(state.collected[s]), s))
        return Outcome(winners=frozenset({worst}), scores=out.scores, clause=out.clause)
    broken = dataclasses.replace(RULES, outcome=outcome)
    keys = ["jd23.score.guests", "jd23.score.full-tie"]
    assert caught(broken, keys) == set(keys)


def test_drawing_after_a_plain_serving_is_caught():
    """Everybody draws after a serving without a Favorite, as if the guest had left hungry."""
    def apply(state, move):
        nxt = RULES.apply(state, move)
        t = readers.table(RULES, state)
        if (readers.said(move).kind == "serve" and not readers.earns_card(t, readers.said(move).cards)
                and not t.closed and len(t.pile) >= t.n and readers.table(RULES, nxt).phase == readers.TURN_UP):
            return dataclasses.replace(nxt, phase=readers.DRAW, draws=tuple(range(t.n)))
        return nxt
    broken = dataclasses.replace(RULES, apply=apply)
    keys = ["jd23.draw.guest-leaves-hungry#no-favourite-no-card", "jd23.favourite.extra-card"]
    assert caught(broken, keys) == set(keys)


def test_an_example_can_fail():
    """A model that lets the lone mistaken caller off fails the example of the penalty."""
    def apply(state, move):
        nxt = RULES.apply(state, move)
        if readers.table(RULES, nxt).phase == readers.PENALTY:
            return dataclasses.replace(
                nxt, phase=readers.DRAW, penalties=(), draws=tuple(range(state.setup.players)),
                discards=tuple(sorted(nxt.discards + (nxt.guest,))), guest=None, answers=(), mistaken=(),
            )
        return nxt
    broken = dataclasses.replace(RULES, apply=apply)
    failed = {v.key for v in props.check_examples(jd23.EXAMPLES, broken)}
    assert "jd23.call.erroneous-penalty" in failed


def test_a_serving_in_another_order_is_the_same_serving():
    """Found by these properties (see serve_text): the text makes a serving the desserts taken
    together, so the same desserts named in another order are the same move (the model used to
    refuse them, citing the Favorite's trump)."""
    s = examples._play(RULES, examples._setup(RULES), examples.SPLIT, "turn up BELLE", "call", "pass")
    assert [str(m) for m in RULES.legal_moves(s)] == ["serve BERRIES+FUDGE"]
    assert RULES.illegal_reason(s, RULES.parse_move("serve BERRIES+FUDGE", s.setup)) is None
    assert RULES.illegal_reason(s, RULES.parse_move("serve FUDGE+BERRIES", s.setup)) is None
