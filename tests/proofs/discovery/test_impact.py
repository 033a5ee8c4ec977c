"""Impact per alternative (proofs/discovery/impact.py): exact values worked out by hand on a toy,
sampling whose interval holds the exact value, cycles, and which rulings a game consults."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from tablerules.model.core import CHANCE, STRICT, TERMINAL, Outcome, RuleGap, RuleSet, Setup, ruling
from tablerules.proofs.discovery import impact as im
from tablerules.proofs.discovery.gaps import Config

# --------------------------------------------------------------------------- a toy worked out by hand
#
# Seat 0 picks "safe" (seat 0 wins at once) or "risky" (a coin: heads seat 0 wins, tails a
# draw; under coin=strict the coin is a RuleGap).  Uniform random play: P(seat 0 wins) =
# 1/2 + 1/2 * 1/2 = 3/4, P(tie) = 1/4, one seat move per game.


@dataclass(frozen=True, slots=True)
class Options:
    coin: str = ruling("toy.ruling.coin", "fair", "strict", "unused-twin")
    spare: str = ruling("toy.ruling.spare", "a", "b")
    """Never read by the model: every alternative plays the same game."""


@dataclass(frozen=True, slots=True)
class State:
    setup: Setup
    phase: str = "choose"
    result: str = ""


@dataclass(frozen=True, slots=True, order=True)
class Word:
    text: str

    def __str__(self) -> str:
        return self.text


def to_move(s: State):
    return {"choose": 0, "coin": CHANCE}.get(s.phase, TERMINAL)


def chance_outcomes(s: State):
    if s.phase != "coin":
        return ()
    if s.setup.options.coin == STRICT:
        raise RuleGap("toy.ruling.coin", "whose coin?")
    return ((Word("heads"), Fraction(1, 2)), (Word("tails"), Fraction(1, 2)))


def apply(s: State, m: Word) -> State:
    if m.text == "safe" or m.text == "heads":
        return State(s.setup, "over", "win0")
    if m.text == "risky":
        return State(s.setup, "coin")
    if m.text == "again":
        return State(s.setup, "choose")
    return State(s.setup, "over", "draw")


def outcome(s: State):
    if s.phase != "over":
        return None
    return Outcome(winners=frozenset({0})) if s.result == "win0" else Outcome(draw=True)


TOY = RuleSet(
    id="toy-coin", title="safe or risky", spec_file="", Options=Options, player_counts=(2,),
    new_game=lambda setup: State(setup), to_move=to_move,
    legal_moves=lambda s: (Word("risky"), Word("safe")) if s.phase == "choose" else (),
    chance_outcomes=chance_outcomes, apply=apply, illegal_reason=lambda s, m: None, outcome=outcome,
    observation=lambda s, seat: {}, parse_move=lambda t, setup=None: Word(t),
    state_vars=lambda s: {"phase": s.phase, "result": s.result}, invariants=(),
)


def test_exact_values_match_the_hand_computation():
    row = im.measure(TOY, "toy.ruling.coin", "fair", Config(2), im.ImpactBudget())
    assert row.method.startswith("exact")
    assert row.first_wins.exact == Fraction(3, 4)
    assert row.first_loses.exact == 0
    assert row.tie.exact == Fraction(1, 4)
    assert row.length.exact == 1
    assert row.gap.exact == 0 and row.never_ends.exact == 0


def test_a_strict_alternative_shows_how_often_a_table_meets_the_gap():
    row = im.measure(TOY, "toy.ruling.coin", STRICT, Config(2), im.ImpactBudget())
    assert row.gap.exact == Fraction(1, 2)
    assert row.first_wins.exact == Fraction(1, 2)


def test_sampling_interval_holds_the_exact_value():
    budget = im.ImpactBudget(games=2000)
    row = im.measure(TOY, "toy.ruling.coin", "fair", Config(2), budget, exact_ok=False)
    assert row.method.startswith("sampled (2,000 games")
    assert row.first_wins.low <= 0.75 <= row.first_wins.high
    assert row.tie.low <= 0.25 <= row.tie.high
    assert row.first_wins.high - row.first_wins.low < 0.05


def test_a_cycle_gives_way_to_sampling_with_games_that_never_end():
    # "tails" sends play back to the choice: the chain has a cycle; a step cap stops each game
    cyclic = replace(TOY, apply=lambda s, m: apply(s, Word("again")) if m.text == "tails" else apply(s, m))
    row = im.measure(cyclic, "toy.ruling.coin", "fair", Config(2), im.ImpactBudget(games=300))
    assert row.method.startswith("sampled") and "cyclic" in row.note
    assert row.first_wins.value > 0.99  # every game that ends, ends in a win for seat 0


def test_rulings_the_game_never_reads_give_the_same_row():
    rows = {(r.ruling, r.alternative): r for ri in im.all_impacts(TOY, [Config(2)]) for r in ri.rows}
    assert rows[("toy.ruling.spare", "b")].note.startswith("same game")
    assert rows[("toy.ruling.spare", "b")].first_wins.exact == Fraction(3, 4)
    assert not rows[("toy.ruling.coin", STRICT)].note  # the coin is read: measured, not copied
    assert rows[("toy.ruling.coin", STRICT)].gap.exact == Fraction(1, 2)


def test_recording_options_count_reads_but_not_hashing():
    rec, reads = im.recording_options(Options())
    hash(rec)
    assert rec == rec and not reads
    assert rec.coin == "fair" and reads == {"coin"}


def test_seat_results_are_separate_outcomes():
    """Win, lose and tie never overlap: each seat of an ended game has exactly one; a loss (or a
    win) shared with another seat is a loss (a win), and only a draw is a tie."""
    win, lose, tie = im.seat_results(Outcome(losers=frozenset({1})), 3)
    assert win == (1, 0, 1) and lose == (0, 1, 0) and tie == (0, 0, 0)
    win, lose, tie = im.seat_results(Outcome(losers=frozenset({0, 2})), 3)
    assert win == (0, 1, 0) and lose == (1, 0, 1) and tie == (0, 0, 0)
    win, lose, tie = im.seat_results(Outcome(winners=frozenset({0, 1})), 3)
    assert win == (1, 1, 0) and lose == (0, 0, 1) and tie == (0, 0, 0)
    win, lose, tie = im.seat_results(Outcome(winners=frozenset({2}), losers=frozenset({0, 1})), 3)
    assert win == (0, 0, 1) and lose == (1, 1, 0) and tie == (0, 0, 0)  # three-player Just Desserts
    win, lose, tie = im.seat_results(Outcome(draw=True), 2)
    assert tie == (1, 1) and win == lose == (0, 0)
    for out in (
        Outcome(losers=frozenset({1})), Outcome(winners=frozenset({2}), losers=frozenset({0, 1})), Outcome(draw=True),
    ):
        assert all(w + l + t == 1 for w, l, t in zip(*im.seat_results(out, 3)))


def test_dishes_exact_row_on_a_small_configuration():
    from tablerules.model.dishes import RULES as DISHES, Tiles

    row = im.measure(DISHES, "dishes.ruling.tie-for-most", "no-loser", Config(2, Tiles(2, 4)), im.ImpactBudget())
    base = im.measure(DISHES, "dishes.ruling.tie-for-most", "all-tied-lose", Config(2, Tiles(2, 4)), im.ImpactBudget())
    assert row.method.startswith("exact") and base.method.startswith("exact")
    assert row.length.exact == base.length.exact  # the tie rule changes only who loses
    # a tie for most dishes: under all-tied-lose both seats lose, under no-loser it is a draw
    assert row.tie.exact > 0 and base.tie.exact == 0
    assert base.first_loses.exact == row.first_loses.exact + row.tie.exact
    for r in (row, base):  # separate outcomes: they add up to one
        assert r.first_wins.exact + r.first_loses.exact + r.tie.exact + r.never_ends.exact + r.gap.exact == 1


def test_forked_workers_give_the_same_rows():
    one = im.all_impacts(TOY, [Config(2)], budget=im.ImpactBudget(max_states=2, games=200))
    two = im.all_impacts(TOY, [Config(2)], budget=im.ImpactBudget(max_states=2, games=200), workers=2)
    # noqa: E731
    rows = lambda res: [
        (r.ruling, r.alternative, r.method, r.first_wins.value, r.tie.value) for ri in res for r in ri.rows
    ]
    assert rows(one) == rows(two)
    assert any(r[2].startswith("sampled") for r in rows(one))  # max_states=2: too large for exact


def test_every_row_of_2_3_states_the_race_odds_it_used():
    """jd23.ruling.race-odds weighs chance only: each impact row says which alternative its numbers used."""
    from tablerules.model.just_desserts import v23
    from tablerules.model.decks import embedded_deck

    assert im.chance_weights(v23.RULES) == ("jd23.ruling.race-odds",)
    assert im.chance_weights(TOY) == ()
    config = Config(2, embedded_deck("v23-tiny"))
    budget = im.ImpactBudget(max_states=50, games=5)
    (ri,) = im.all_impacts(v23.RULES, [config], budget=budget, rulings=["jd23.ruling.race-odds"])
    assert {r.alternative: r.weights for r in ri.rows} == {
        "tie-one-in-ten": "jd23.ruling.race-odds=tie-one-in-ten", "equal": "jd23.ruling.race-odds=equal"}
    (other,) = im.all_impacts(v23.RULES, [config], budget=budget, rulings=["jd23.ruling.full-tie"])
    assert {r.weights for r in other.rows} == {"jd23.ruling.race-odds=tie-one-in-ten"}
    assert im.measure(TOY, "toy.ruling.coin", "fair", Config(2), im.ImpactBudget()).weights == ""
