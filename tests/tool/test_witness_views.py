"""Witnesses for people: chance steps name the seat that receives them; each seat's holding where readings part."""

from __future__ import annotations

from tablerules.cli import rulings as rulings_cli
from tablerules.model import registry
from tablerules.model.decks import embedded_deck
from tablerules.proofs.explorer import Step
from tablerules.vectors.traces import receivers, seat_views

MOVES = [
    "draw FRUIT_TART", "draw FRUIT_TART", "draw SPONGE", "draw SPONGE", "draw SPONGE", "draw SPONGE", "turn up BAKER",
    "turn up PICKER", "turn up GARDENER", "serve GARDENER with SPONGE", "surprise with FRUIT_TART",
]


def _states():
    rules = registry.get("just-desserts")
    setup = rules.setup(2, rules.Options(poaching=True, buffet=True, surprise_parties=True), embedded_deck("jd-rivals"))
    states = [rules.new_game(setup)]
    for m in MOVES:
        states.append(rules.apply(states[-1], rules.parse_move(m, setup)))
    return rules, states


def test_a_draw_names_its_receiver_and_a_guest_turned_up_is_public():
    rules, states = _states()
    who = receivers(rules, states)
    assert who[:9] == [(0,), (1,), (0,), (1,), (0,), (1,), (), (), ()]


def test_the_deal_line_says_what_each_seat_got():
    rules, states = _states()
    steps = [Step("CHANCE" if m.startswith(("draw", "turn")) else "seat 0", m) for m in MOVES]
    text = rulings_cli.steps_md(steps, who=receivers(rules, states))
    first = text.splitlines()[0]
    assert first == ("1-9. the deal (9 chance events): seat 0 gets: draw FRUIT_TART, draw SPONGE ×2; "
                     "seat 1 gets: draw FRUIT_TART, draw SPONGE ×2; face up: turn up BAKER, turn up PICKER, turn up "
                     "GARDENER")
    # without who, the old summary (no receivers)
    assert "seat 0 gets" not in rulings_cli.steps_md(steps)


def test_each_seat_view_shows_its_own_hand():
    rules, states = _states()
    views = seat_views(rules, states[-1])
    assert views[0].startswith('seat 0: hand = ["FRUIT_TART", "SPONGE", "SPONGE"]')
    assert views[1].startswith('seat 1: hand = ["SPONGE", "SPONGE"]')
    dishes = registry.get("dishes")
    assert all(v.endswith(": ") for v in seat_views(dishes, dishes.new_game(dishes.setup(2))))  # nothing hidden
