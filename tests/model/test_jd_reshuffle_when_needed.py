"""jd.ruling.reshuffle-time=when-needed: the pile a seat sees is the pile a due draw comes from.  The lockstep
with the independent reading found the model showing an empty dessert pile at a draw whose outcomes were the
cards of the discard pile (the discards became the pile only inside the draw)."""

from __future__ import annotations

from tablerules.model import registry
from tablerules.model.core import CHANCE, parse_options, play

RULES = registry.get("just-desserts")


def _setup():
    options = parse_options(RULES.Options, ["reshuffle-time=when-needed"], variants=["poaching"])
    return RULES.setup(2, options, RULES.load_components("jd-rivals"))


def test_a_due_draw_comes_from_the_pile_everyone_sees():
    setup = _setup()
    # the deal takes all six desserts; seat 0 serves the Baker its favourite: the tip is due from an empty pile
    moves = ["draw FRUIT_TART", "draw FRUIT_TART", "draw SPONGE", "draw SPONGE", "draw SPONGE", "draw SPONGE",
             "turn up BAKER", "turn up GARDENER", "turn up PICKER", "serve BAKER with FRUIT_TART"]
    state = play(RULES, RULES.new_game(setup), moves)
    assert RULES.to_move(state) is CHANCE
    seen = RULES.observation(state, 1)
    assert seen["dessert_pile_size"] == 1 and seen["dessert_discard"] == []
    assert [str(m) for m, _ in RULES.chance_outcomes(state)] == ["draw FRUIT_TART"]


def test_every_due_draw_along_random_games_is_of_the_visible_pile():
    import random

    setup = _setup()
    for seed in range(30):
        rng, state = random.Random(seed), RULES.new_game(setup)
        for _ in range(400):
            actor = RULES.to_move(state)
            if actor is CHANCE:
                outs = RULES.chance_outcomes(state)
                if state.tasks and state.tasks[0][0] == "draw":
                    pile = set(state.dessert_pile)
                    assert {m.cards[0] for m, _ in outs} <= pile, (seed, [str(m) for m, _ in outs], pile)
                move = rng.choices([m for m, _ in outs], [float(p) for _, p in outs])[0]
            elif isinstance(actor, int):
                move = rng.choice(RULES.legal_moves(state))
            else:
                break
            state = RULES.apply(state, move)
