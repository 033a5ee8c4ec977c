"""Hypothesis stateful test: random legal play of dishes for 2-4 players under every ruling
alternative, every invariant checked after every step (dishes.components.tiles ...)."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tablerules.model.dishes import game as d
from tablerules.model.core import STRICT, TERMINAL, RuleGap, ruling_fields, violated
from tablerules.model.dishes import RULES, Options, Tiles
from tests.strategies import draw_next_move


def options_strategy():
    fields = ruling_fields(Options)
    return st.fixed_dictionaries({
        f.name: st.sampled_from(f.metadata["alternatives"]) for f in fields.values()
    }).map(lambda kw: Options(**kw))


class DishesPlay(RuleBasedStateMachine):
    """Drive the model with its own legal moves and chance outcomes."""

    state: d.State | None = None
    gap: str | None = None

    @initialize(players=st.sampled_from([2, 3, 4]), options=options_strategy(),
                tiles=st.sampled_from([Tiles(), Tiles(3, 4), Tiles(2, 4)]))
    def deal(self, players, options, tiles):
        try:
            self.state = RULES.new_game(RULES.setup(players, options, tiles))
        except RuleGap as g:  # strict deal rulings raise at the deal, as they must
            assert g.ruling.startswith("dishes.ruling.deal-")
            assert STRICT in (options.deal_2_players, options.deal_3_players)
            self.gap = g.ruling
        self.steps = 0

    def _live(self) -> bool:
        return (
            self.state is not None
            and self.gap is None
            and RULES.to_move(self.state) is not TERMINAL
            and self.steps < 300
        )

    @precondition(lambda self: self._live())
    @rule(data=st.data())
    def step(self, data):
        s = self.state
        try:
            move = draw_next_move(RULES, s, data)
        except RuleGap as g:
            assert g.ruling in ruling_fields(Options)
            assert getattr(s.setup.options, ruling_fields(Options)[g.ruling].name) == STRICT
            self.gap = g.ruling
            return
        self.state = RULES.apply(s, move)
        self.steps += 1

    @rule(seat=st.integers(0, 3))
    def look(self, seat):
        """Observations are JSON and never show a clean tile's colour (dishes.setup.hidden-backs)."""
        import json

        if self.state is not None and seat < self.state.setup.players:
            obs = RULES.observation(self.state, seat)
            json.dumps(obs)
            for p, s in enumerate(self.state.places):
                if s is None:
                    assert obs["places"][d.place_text(p)] == "clean"

    @invariant()
    def invariants_hold(self):
        if self.state is not None:
            assert violated(RULES.invariants, self.state) == []

    @invariant()
    def terminal_states_have_an_outcome(self):
        if self.state is not None and self.gap is None and RULES.to_move(self.state) is TERMINAL:
            try:
                out = RULES.outcome(self.state)
            except RuleGap as g:
                assert g.ruling in (
                    "dishes.ruling.dishes-count", "dishes.ruling.tie-for-most", "dishes.ruling.clean-at-end",
                )
                assert getattr(self.state.setup.options, ruling_fields(Options)[g.ruling].name) == STRICT
                return
            assert out is not None and (out.losers or out.draw)
            assert all(0 <= s < self.state.setup.players for s in out.losers)

    @invariant()
    def game_length_within_the_proved_bound(self):
        if self.state is not None and self.state.setup.options.voluntary_pass == "never":
            g = d.geometry(self.state.setup)
            n, tiles = self.state.setup.players, g.layouts * g.types
            assert self.steps <= n * 2 * tiles + n - 1 + tiles


TestDishesPlay = DishesPlay.TestCase
