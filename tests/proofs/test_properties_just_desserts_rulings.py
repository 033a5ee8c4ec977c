"""The Just Desserts rulings' alternatives as properties (proofs/properties/just_desserts_rulings.py):
they hold on the model, and they notice a model that scores or shows otherwise."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tablerules.model import registry
from tablerules.model.core import CHANCE, TERMINAL, Outcome, RuleGap
from tablerules.proofs.discovery.decisions import decision_configs, settings
from tablerules.proofs.properties import check_state, sweep
from tablerules.proofs.properties import just_desserts_rulings as jr

RULES = registry.get("just-desserts")


def _setups():
    out = []
    for c in decision_configs(RULES, None):
        for label, options in settings(RULES):
            try:
                out.append((label, c.setup(RULES, options)))
            except Exception:  # noqa: BLE001 - a deck that cannot deal this many players
                continue
    return out


def _games(rules, games: int = 40, seed: int = 7):
    """Seeded random games on every setting: the states they pass through."""
    rng = random.Random(seed)
    for label, setup in _setups():
        for _ in range(games // 10 or 1):
            s = rules.new_game(setup)
            for _ in range(400):
                yield label, s
                actor = rules.to_move(s)
                if actor is TERMINAL:
                    break
                try:
                    ways = [m for m, _p in rules.chance_outcomes(s)] if actor is CHANCE else list(rules.legal_moves(s))
                    s = rules.apply(s, rng.choice(ways))
                except RuleGap:  # a strict alternative: the text is silent here, the game stops
                    break


def test_they_hold_on_the_model():
    sw = sweep(RULES, _setups()[::3], jr.PROPERTIES, max_states=300)
    assert not sw.violations, sw.violations
    bad = {v.key: (v.message, label) for label, s in _games(RULES) for v in check_state(jr.PROPERTIES, RULES, s)}
    assert not bad, bad


def test_a_seat_shown_another_seats_moves_is_caught():
    def leaky(state, seat):
        seen = RULES.observation(state, seat)
        actor = RULES.to_move(state)
        if isinstance(actor, int) and actor != seat:
            seen = dict(seen, legal_moves=[str(m) for m in RULES.legal_moves(state)])
        return seen

    rules = dataclasses.replace(RULES, observation=leaky)
    found = {v.key for _label, s in _games(rules, games=10) for v in check_state(jr.PROPERTIES, rules, s)}
    assert "jd.setup.deal-hands#private" in found


def test_a_publisher_score_that_forgets_the_pairs_is_caught():
    def no_pairs(state):
        o = RULES.outcome(state)
        if o is None or o.clause != jr.SCORING_END:
            return o
        guests = RULES.state_vars(state)["claimed"]
        return dataclasses.replace(o, scores=tuple(len(g) for g in guests))

    rules = dataclasses.replace(RULES, outcome=no_pairs)
    scored = [(label, s) for label, s in _games(rules, games=60) if RULES.to_move(s) is TERMINAL
              and (RULES.outcome(s) or Outcome()).clause == jr.SCORING_END
              and list(RULES.outcome(s).scores) != [len(g) for g in RULES.state_vars(s)["claimed"]]]
    if not scored:
        pytest.skip("no random game here ended in the publisher's scoring with a matching pair")
    assert any(v.key == "jd.ruling.all-guests-claimed#faq-score"
               for _label, s in scored for v in check_state(jr.PROPERTIES, rules, s))


# --------------------------------------------------------------------------- the end tells nobody more than they see


def _famine_for_three():
    """jd-famine with three copies of each dessert: three players hold every dessert after the deal."""
    import json

    from tablerules.model.decks import deck_from_json
    from tablerules.spec import spec_path

    data = json.loads(spec_path("decks/jd-famine.json").read_text())
    for dessert in data["desserts"]:
        dessert["copies"] = 3
    return deck_from_json(data, name="jd-famine-3")


def _first_leak(poaching: bool, games: int = 300) -> str | None:
    from tablerules.model.core import pick_by_probability

    (prop,) = [p for p in jr.PROPERTIES if p.key == "jd.ruling.no-serving-possible#public-end"]
    setup = RULES.setup(3, RULES.Options(poaching=poaching), _famine_for_three())
    rng = random.Random(1)
    for _ in range(games):
        s = RULES.new_game(setup)
        for _ in range(300):
            actor = RULES.to_move(s)
            if actor is TERMINAL:
                break
            m = (
                pick_by_probability(RULES.chance_outcomes(s), rng.random())
                if actor is CHANCE
                else rng.choice(RULES.legal_moves(s))
            )
            t = RULES.apply(s, m)
            problem = prop.transition(RULES, s, m, t)
            if problem:
                return problem
            s = t
    return None


@pytest.mark.slow
@pytest.mark.parametrize("poaching", [False, True])
def test_the_stuck_game_end_tells_no_seat_what_it_cannot_see(poaching):
    """Three players hold every dessert; whether the game is stuck depends on the hands, so
    they lie open (jd.ruling.no-serving-possible): two positions a seat cannot tell apart end alike."""
    assert _first_leak(poaching) is None


def test_with_the_hands_kept_hidden_the_end_leaks(monkeypatch):
    """The property finds the leak the open hands close: without them, a game ends at a turn
    in one position and goes on in another that a seat cannot tell apart."""
    from tablerules.model.just_desserts import views

    monkeypatch.setattr(views, "open_hands", lambda state: None)
    problem = _first_leak(True)
    assert problem and "cannot tell apart" in problem, problem
