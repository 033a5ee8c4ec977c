"""Scenario tests for every dishes clause, the worked example, moves as text, and the deal."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablerules.model.dishes import game as d
from tablerules.model.core import CHANCE, TERMINAL, IllegalMove, MoveSyntaxError, RuleGap, SetupError, play, violated
from tablerules.model.dishes import NC, NT, RULES, TYPES, Options, Tiles

COL = {name: i for i, name in enumerate(d.COLOURS)}


def P(layout: int, kind: str) -> int:
    return layout * NT + TYPES.index(kind)


def table(players: int, layout: dict[str, str | None], options: Options | None = None, turn: int = 0,
          tiles: Tiles | None = None) -> d.State:
    """A state from {"0.drinks": "c3" | "clean" | "empty" | "red,yellow" (a pile, bottom first)}."""
    setup = RULES.setup(players, options or Options(), tiles or Tiles())
    s = RULES.new_game(setup)
    places = list(s.places)
    g = d.geometry(setup)
    for key, value in layout.items():
        p = d.parse_place(key)
        if value == "clean":
            places[p] = None
        elif value == "empty":
            places[p] = ()
        else:
            pile = []
            for part in value.split(","):
                colour, _, kind = part.strip().partition(" ")
                origin_place = P(p // NT, kind) if kind else p
                pile.append(d.tile_code(g, origin_place, COL[colour]))
            places[p] = tuple(pile)
    return dataclasses.replace(s, places=tuple(places), turn=turn)


# --------------------------------------------------------------------------- the worked example

ANIA_KRZYS = {
    # Ania (layout 0): main, drinks, forks dirty; Krzys (layout 1): dessert, drinks, soup dirty.
    "0.main": "c4", "0.drinks": "c3", "0.forks": "c3",
    "1.dessert": "c4", "1.drinks": "yellow", "1.soup": "c3",
}


def test_worked_example_ania_has_exactly_the_listed_moves():
    """dishes.example.ania-krzys: under the default rulings Ania's legal moves are the book's list."""
    s = table(2, ANIA_KRZYS)
    got = {str(m) for m in RULES.legal_moves(s)}
    assert got == {
        "turn 0.dessert", "turn 0.soup", "turn 0.knives",
        "place 0.drinks on 1.drinks", "place 0.drinks on 1.soup", "place 0.drinks on 0.forks",
        "place 0.main on 1.dessert",
        "place 0.forks on 0.drinks", "place 0.forks on 1.soup",
    }


def test_worked_example_colouring_found_by_z3_gives_the_same_moves():
    from tablerules.proofs.dishes.proofs import worked_example

    witness = worked_example().data["witness"]
    layout = {("0" if k.startswith("Ania") else "1") + "." + k.split(".")[1]: v for k, v in witness.items()}
    s = table(2, layout)
    assert {str(m) for m in RULES.legal_moves(s)} == {str(m) for m in RULES.legal_moves(table(2, ANIA_KRZYS))}


def test_worked_example_is_not_the_legal_list_if_any_stack_may_move():
    """dishes.ruling.movable-stacks: with any-stack Ania could also move Krzys's tiles."""
    s = table(2, ANIA_KRZYS, Options(movable_stacks="any-stack"))
    assert "place 1.drinks on 0.drinks" in {str(m) for m in RULES.legal_moves(s)}


# --------------------------------------------------------------------------- set up


def test_layout_order_and_tiles():
    """dishes.setup.layout, dishes.components.tiles: six kinds in the book's order, four of each."""
    assert TYPES == ("dessert", "main", "drinks", "forks", "soup", "knives")
    s = RULES.new_game(RULES.setup(4))
    assert len(s.places) == 24 and all(p is None for p in s.places)
    assert d._inv_conservation(s) is None


def test_every_player_gets_one_clean_tile_of_each_kind():
    """dishes.setup.deal-one-of-each, dishes.setup.sort: clean side up, one per kind."""
    for n in (2, 3, 4):
        s = RULES.new_game(RULES.setup(n))
        g = d.geometry(s.setup)
        for seat in range(n):
            kinds = sorted(p % NT for p in g.places_of(seat) if s.places[p] is None)
            assert kinds == list(range(NT))


def test_player_counts_come_from_the_box():
    """dishes.components.players: 2 to 4 players."""
    with pytest.raises(SetupError, match="5 players"):
        RULES.setup(5)
    assert RULES.player_counts == (2, 3, 4)


def test_hidden_backs_observation_shows_no_colour_of_a_clean_tile():
    """dishes.setup.hidden-backs, dishes.components.clean-side: a clean tile shows its kind only."""
    s = table(2, {"0.main": "red"})
    obs = RULES.observation(s, 1)
    assert obs["places"]["0.dessert"] == "clean"
    assert obs["places"]["0.main"] == {"top": "red main", "height": 1}


def test_deal_for_2_and_3_players_follows_the_rulings():
    """dishes.setup.deal-2-3-unspecified and the deal rulings."""
    assert d.geometry(RULES.setup(2, Options(deal_2_players="two-layouts"))).owners == (0, 1, 0, 1)
    assert d.geometry(RULES.setup(3, Options(deal_3_players="spare-layout"))).owners == (0, 1, 2, None)
    assert d.geometry(RULES.setup(2, Options(deal_2_players="colour-sets"))).colours_in_play == 2
    with pytest.raises(RuleGap) as e:
        RULES.new_game(RULES.setup(2, Options(deal_2_players="strict")))
    assert e.value.ruling == "dishes.ruling.deal-2-players"
    with pytest.raises(RuleGap):
        RULES.new_game(RULES.setup(3, Options(deal_3_players="strict")))
    RULES.new_game(RULES.setup(4, Options(deal_2_players="strict", deal_3_players="strict")))  # 4 players: no gap


def test_spare_layout_is_shown_by_chance_first():
    s = RULES.new_game(RULES.setup(3, Options(deal_3_players="spare-layout")))
    assert RULES.to_move(s) is CHANCE and len(s.reveal) == NT


# --------------------------------------------------------------------------- play


def test_first_player_and_clockwise():
    """dishes.play.first-player, dishes.play.clockwise."""
    s = RULES.new_game(RULES.setup(3))
    assert RULES.to_move(s) == 0
    s = play(RULES, s, ["turn 0.soup", "reveal 0.soup red"])
    assert RULES.to_move(s) == 1
    r = RULES.new_game(RULES.setup(3, Options(first_player="random")))
    assert RULES.to_move(r) is CHANCE
    assert RULES.chance_outcomes(r) == tuple((d.FirstPlayer(i), Fraction(1, 3)) for i in range(3))


def test_one_move_per_turn_and_turning_own_tiles_only():
    """dishes.play.one-move, dishes.play.turn-own-tile."""
    s = RULES.new_game(RULES.setup(2))
    assert RULES.illegal_reason(s, d.Turn(P(1, "soup"))) == "dishes.play.turn-own-tile"
    with pytest.raises(IllegalMove) as e:
        RULES.apply(s, d.Turn(P(1, "soup")))
    assert e.value.clause == "dishes.play.turn-own-tile"
    s2 = play(RULES, s, ["turn 0.soup"])
    assert RULES.to_move(s2) is CHANCE  # the colour shows before the next player moves
    assert RULES.illegal_reason(s, "teleport") == "dishes.play.one-move"


def test_place_needs_two_dirty_tiles():
    """dishes.play.place-dirty: a soiled tile onto another soiled tile, never a clean one."""
    s = table(2, {"0.main": "red"})
    assert RULES.illegal_reason(s, d.Place(P(0, "main"), P(1, "main"))) == "dishes.play.place-dirty"
    assert RULES.illegal_reason(s, d.Place(P(0, "main"), P(0, "main"))) == "dishes.play.place-dirty"


def test_place_needs_same_kind_or_same_colour():
    """dishes.play.place-match."""
    s = table(2, {"0.main": "red", "1.main": "yellow", "1.soup": "red", "1.knives": "c3"})
    assert RULES.illegal_reason(s, d.Place(P(0, "main"), P(1, "main"))) is None  # same kind
    assert RULES.illegal_reason(s, d.Place(P(0, "main"), P(1, "soup"))) is None  # same colour
    assert RULES.illegal_reason(s, d.Place(P(0, "main"), P(1, "knives"))) == "dishes.play.place-match"


def test_place_on_own_or_others_tiles():
    """dishes.play.place-anyone."""
    s = table(2, {"0.main": "red", "0.soup": "red", "1.soup": "yellow"})
    moves = {str(m) for m in RULES.legal_moves(s)}
    assert "place 0.main on 0.soup" in moves and "place 0.soup on 1.soup" in moves


def test_only_the_top_counts_and_the_whole_pile_moves():
    """dishes.play.top-counts, dishes.play.move-whole-stack."""
    s = table(
        2, {"0.main": "red main,yellow soup", "1.soup": "c3", "1.knives": "red"}, Options(movable_stacks="own-places")
    )
    # top is a yellow soup: it matches the c3 soup by kind, not the red knives (the red main is buried)
    assert RULES.illegal_reason(s, d.Place(P(0, "main"), P(1, "soup"))) is None
    assert RULES.illegal_reason(s, d.Place(P(0, "main"), P(1, "knives"))) == "dishes.play.place-match"
    after = RULES.apply(s, d.Place(P(0, "main"), P(1, "soup")))
    assert after.places[P(0, "main")] == ()
    assert len(after.places[P(1, "soup")]) == 3


def test_only_own_piles_move_by_default():
    """dishes.ruling.movable-stacks = own-places."""
    s = table(2, {"0.main": "red", "1.main": "yellow"})
    assert RULES.illegal_reason(s, d.Place(P(1, "main"), P(0, "main"))) == "dishes.ruling.movable-stacks"
    s2 = table(2, {"0.main": "red", "1.main": "yellow"}, Options(movable_stacks="any-stack"))
    assert RULES.illegal_reason(s2, d.Place(P(1, "main"), P(0, "main"))) is None


def test_own_top_follows_the_tile_not_the_place():
    """dishes.ruling.movable-stacks = own-top: a pile topped by my tile is mine wherever it lies."""
    o = Options(movable_stacks="own-top")
    s = table(2, {"1.main": "yellow main,red main", "0.main": "empty", "1.soup": "red"}, o)
    # the red main came from layout 0 (seat 0) and now tops a pile in layout 1
    g = d.geometry(s.setup)
    places = list(s.places)
    places[P(1, "main")] = (d.tile_code(g, P(1, "main"), COL["yellow"]), d.tile_code(g, P(0, "main"), COL["red"]))
    s = dataclasses.replace(s, places=tuple(places))
    assert RULES.illegal_reason(s, d.Place(P(1, "main"), P(1, "soup"))) is None


def test_stuck_player_rulings():
    """dishes.ruling.stuck-player: skip (forced pass), game-ends, strict."""
    layout = {f"0.{k}": "red" if k == "main" else "empty" for k in TYPES}
    layout.update({"1.main": "yellow", "1.soup": "clean"})
    layout.update({f"1.{k}": "empty" for k in TYPES if k not in ("main", "soup")})
    layout["0.main"] = "empty"
    # seat 0 has nothing at all; seat 1 still has a clean soup
    s = table(2, layout)
    assert [str(m) for m in RULES.legal_moves(s)] == ["pass"]
    assert RULES.to_move(RULES.apply(s, d.Pass())) == 1
    s_end = table(2, layout, Options(stuck_player="game-ends"))
    assert RULES.to_move(s_end) is TERMINAL
    s_strict = table(2, layout, Options(stuck_player="strict"))
    with pytest.raises(RuleGap) as e:
        RULES.legal_moves(s_strict)
    assert e.value.ruling == "dishes.ruling.stuck-player"


def test_voluntary_pass_ruling():
    """dishes.ruling.voluntary-pass."""
    s = RULES.new_game(RULES.setup(2))
    assert RULES.illegal_reason(s, d.Pass()) == "dishes.ruling.voluntary-pass"
    s2 = RULES.new_game(RULES.setup(2, Options(voluntary_pass="allowed")))
    assert d.Pass() in RULES.legal_moves(s2)


# --------------------------------------------------------------------------- the end


def _final(tiles0: int, piles0: int, tiles1: int, piles1: int, options: Options | None = None) -> d.State:
    """A finished 2-player game: seat 0 holds ``tiles0`` tiles in ``piles0`` piles, and so on.
    Every pile top is a distinct colour of a distinct kind, so nothing can move."""
    setup = RULES.setup(2, options or Options())
    places = [()] * (2 * NT)
    kinds = iter(range(NT))
    for seat, (tiles, piles) in enumerate(((tiles0, piles0), (tiles1, piles1))):
        sizes = [tiles // piles + (1 if i < tiles % piles else 0) for i in range(piles)]
        for size in sizes:
            k = next(kinds)
            below = tuple(k * NC + ((k + j + 1) % NC) for j in range(size - 1))
            places[seat * NT + k] = below + (k * NC + k % NC,)  # tops: distinct kinds and colours
    return d.State(setup, tuple(places), 0)


def test_game_ends_when_nobody_can_move():
    """dishes.end.no-moves."""
    s = _final(5, 2, 3, 2)
    tops = [p[-1] for p in s.places if p]
    assert not any(d.matches(a, b) for a, b in itertools.permutations(tops, 2))
    assert RULES.to_move(s) is TERMINAL
    assert RULES.illegal_reason(s, d.Pass()) == "dishes.end.no-moves"


def test_most_dishes_loses_and_the_counting_rulings():
    """dishes.end.most-dishes-loses, dishes.ruling.dishes-count, dishes.ruling.tie-for-most."""
    s = _final(5, 1, 3, 3)  # tiles: seat 0 has more; piles: seat 1 has more
    assert RULES.outcome(s).losers == {0}
    assert RULES.outcome(_final(5, 1, 3, 3, Options(dishes_count="stacks"))).losers == {1}
    with pytest.raises(RuleGap) as e:
        RULES.outcome(_final(5, 1, 3, 3, Options(dishes_count="strict")))
    assert e.value.ruling == "dishes.ruling.dishes-count"
    tie = _final(3, 1, 3, 2)
    assert RULES.outcome(tie).losers == {0, 1}
    assert RULES.outcome(_final(3, 1, 3, 2, Options(tie_for_most="no-loser"))).draw
    with pytest.raises(RuleGap):
        RULES.outcome(_final(3, 1, 3, 2, Options(tie_for_most="strict")))


def test_goal_is_to_get_rid_of_dishes():
    """dishes.goal: placing your pile on another's moves your dishes to them."""
    s = table(2, {"0.main": "red", "1.main": "yellow"})
    after = RULES.apply(s, d.Place(P(0, "main"), P(1, "main")))
    assert d.dishes_in_front(after, 0, "tiles") == 0 and d.dishes_in_front(after, 1, "tiles") == 2


# --------------------------------------------------------------------------- moves as text


def _states_along_random_play(seed: int, n: int = 2, steps: int = 40):
    import random

    rng = random.Random(seed)
    s = RULES.new_game(RULES.setup(n))
    out = [s]
    for _ in range(steps):
        actor = RULES.to_move(s)
        if actor is TERMINAL:
            break
        moves = [m for m, _ in RULES.chance_outcomes(s)] if actor is CHANCE else list(RULES.legal_moves(s))
        s = RULES.apply(s, rng.choice(moves))
        out.append(s)
    return out


@given(st.integers(0, 10_000), st.sampled_from([2, 3, 4]))
def test_moves_print_and_parse_back(seed, n):
    for s in _states_along_random_play(seed, n, 30):
        moves = [m for m, _ in RULES.chance_outcomes(s)] + list(RULES.legal_moves(s))
        for m in moves:
            assert RULES.parse_move(str(m), s.setup) == m


@given(st.text(max_size=30))
def test_parse_rejects_garbage_with_a_one_line_error(text):
    try:
        RULES.parse_move(text, None)
    except MoveSyntaxError as e:
        assert "\n" not in str(e)


# --------------------------------------------------------------------------- the hidden deal


def _colourings(setup):
    """Reveal every tile in place order through the chance events; colouring -> probability."""
    s = RULES.new_game(setup)
    g = d.geometry(setup)
    order = [p for p in range(len(s.places)) if s.places[p] is None and g.owner_of_place(p) is not None]
    out = {}

    def walk(state, i, prob, colouring):
        if i == len(order):
            out[tuple(sorted(colouring.items()))] = prob
            return
        p = order[i]
        for c, q in d.reveal_distribution(state, p):
            places = list(state.places)
            places[p] = (d.tile_code(g, p, c),)
            walk(dataclasses.replace(state, places=tuple(places)), i + 1, prob * q, {**colouring, p: c})

    walk(s, 0, Fraction(1), {})
    return out


@pytest.mark.parametrize("players,options,tiles", [
    (2, Options(), Tiles(3, 4)),
    (2, Options(deal_2_players="colour-sets"), Tiles(3, 4)),
    (3, Options(deal_3_players="colour-sets"), Tiles(2, 4)),
    (2, Options(colour_model="layout-sets"), Tiles(3, 4)),
    (2, Options(colour_model="free-colours"), Tiles(2, 4)),
    (2, Options(deal_2_players="two-layouts"), Tiles(2, 4)),
])
def test_lazy_reveals_reproduce_the_physical_deal(players, options, tiles):
    """Deferred decisions: every complete colouring has the probability the physical deal gives it."""
    setup = RULES.setup(players, options, tiles)
    got = _colourings(setup)
    assert sum(got.values()) == 1
    for colouring, p in got.items():
        assert p == d.deal_probability(setup, dict(colouring)), colouring


def test_four_sets_deal_covers_every_deal_of_the_box_for_two_players():
    """2 players, random-subset: 12 ordered colour pairs per kind, 12**6 deals, all equally likely."""
    setup = RULES.setup(2)
    assert d.deal_probability(setup, {p: (p // NT) for p in range(2 * NT)}) == Fraction(1, 12 ** 6)


# --------------------------------------------------------------------------- invariants can fail


def test_invariants_catch_broken_states():
    """dishes.components.tiles, dishes.play.place-dirty, dishes.components.colour-sets,
    dishes.play.turn-own-tile, dishes.play.clockwise: each invariant rejects a planted fault."""
    good = table(2, {"0.main": "red", "1.main": "yellow"})
    assert violated(RULES.invariants, good) == []
    lost = dataclasses.replace(good, places=(() ,) + good.places[1:])
    assert any(inv.name == "tile-conservation" for inv, _ in violated(RULES.invariants, lost))
    junk = dataclasses.replace(good, places=good.places[:1] + (("x",),) + good.places[2:])
    assert any(inv.name == "clean-never-stacked" for inv, _ in violated(RULES.invariants, junk))
    twin = table(2, {"0.main": "red", "1.main": "red"})
    assert any(inv.name == "colour-model" for inv, _ in violated(RULES.invariants, twin))
    bad_reveal = dataclasses.replace(good, reveal=(P(0, "main"),))
    assert any(inv.name == "reveal-clean" for inv, _ in violated(RULES.invariants, bad_reveal))
    bad_turn = dataclasses.replace(good, turn=7)
    assert any(inv.name == "turn-is-a-seat" for inv, _ in violated(RULES.invariants, bad_turn))


def test_setup_errors_are_one_line():
    with pytest.raises(SetupError) as e:
        RULES.setup(4, Options(), Tiles(2, 3))
    assert "need at least 4 colours" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(SetupError):
        d.parse_tiles("9x9")
    assert d.parse_tiles("3x4") == Tiles(3, 4) and d.parse_tiles("box") == Tiles()


def test_clean_tiles_at_the_end_follow_the_ruling():
    """dishes.ruling.clean-at-end: only reachable when a stuck player ends the game."""
    layout = {f"0.{k}": "empty" for k in TYPES}
    layout.update({f"1.{k}": "empty" for k in TYPES})
    layout.update({"1.main": "yellow", "1.soup": "clean", "1.knives": "clean"})
    base = Options(stuck_player="game-ends")
    s = table(2, layout, base)
    assert RULES.to_move(s) is TERMINAL
    assert RULES.outcome(s).scores == (0, 1)
    s2 = table(2, layout, dataclasses.replace(base, clean_at_end="dishes"))
    assert RULES.outcome(s2).scores == (0, 3)
    with pytest.raises(RuleGap) as e:
        RULES.outcome(table(2, layout, dataclasses.replace(base, clean_at_end="strict")))
    assert e.value.ruling == "dishes.ruling.clean-at-end"

