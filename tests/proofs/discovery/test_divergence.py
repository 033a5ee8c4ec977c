"""The divergence finder (proofs/discovery/divergence.py): equal alternatives proved equal, a
difference deep in a toy game found at its shortest, the dishes witness files replayed,
and the order of resolution of a race."""

from __future__ import annotations

import dataclasses
import json
import types
from dataclasses import dataclass
from fractions import Fraction

import pytest

from tablerules.model.core import (
    CHANCE, TERMINAL, IllegalMove, MoveSyntaxError, Outcome, RuleSet, Setup, ruling,
)
from tablerules.proofs.discovery import divergence as dv
from tablerules.proofs.discovery.gaps import Config
from tests.proofs.toy import Add, State

# --------------------------------------------------------------------------- a toy: count to twelve

GOAL = 12


@dataclass(frozen=True, slots=True)
class Options:
    finish: str = ruling("toy.ruling.finish", "plain", "same-as-plain", "exact-bonus")
    """plain and same-as-plain are one rule under two names; exact-bonus changes only the very end."""




def to_move(s: State):
    return TERMINAL if s.total >= GOAL else s.turn


def legal_moves(s: State) -> tuple:
    return () if to_move(s) is TERMINAL else (Add(1), Add(2))


def apply(s: State, m) -> State:
    if m not in legal_moves(s):
        raise IllegalMove("toy.add", m)
    return State(s.setup, s.total + m.n, 1 - s.turn)


def outcome(s: State):
    if to_move(s) is not TERMINAL:
        return None
    last = 1 - s.turn
    if s.setup.options.finish == "exact-bonus" and s.total == GOAL and s.turn == 0:
        # exactly GOAL after an even number of moves: both share the win
        return Outcome(winners=frozenset({0, 1}), clause="toy.bonus")
    return Outcome(winners=frozenset({last}), clause="toy.win")


def parse_move(text: str, setup=None):
    w = text.split()
    if len(w) == 2 and w[0] == "add" and w[1] in ("1", "2"):
        return Add(int(w[1]))
    raise MoveSyntaxError(text)


TOY = RuleSet(
    id="toy-count", title="count to twelve", spec_file="", Options=Options, player_counts=(2,),
    new_game=lambda setup: State(setup), to_move=to_move, legal_moves=legal_moves, chance_outcomes=lambda s: (),
    apply=apply, illegal_reason=lambda s, m: None if m in legal_moves(s) else "toy.add", outcome=outcome,
    observation=lambda s, seat: {}, parse_move=parse_move, state_vars=lambda s: {"total": s.total, "turn": s.turn},
    invariants=(),
)


def test_identical_alternatives_are_proved_equal():
    d = dv.diverge(TOY, "toy.ruling.finish", "plain", "same-as-plain", [Config(2)])
    assert not d.found and d.complete
    from tablerules.proofs.explorer import explore

    states = explore(TOY, [TOY.new_game(Setup(2, Options()))]).states
    assert d.pairs == states  # every reachable state, paired with its twin
    assert "do not differ" in d.statement() and "complete" in d.statement()


def test_a_difference_deep_in_the_game_is_found_at_its_shortest():
    d = dv.diverge(TOY, "toy.ruling.finish", "plain", "exact-bonus", [Config(2)])
    assert d.found and d.kind == "outcome"
    # the only way to reach exactly GOAL in an even number of moves as short as GOAL/2: six times "add 2"
    assert d.moves == ["add 2"] * (GOAL // 2)
    assert d.next_a.text != d.next_b.text
    assert d.next_b.data["outcome"] == "winners 0,1"


def test_a_bound_is_stated_when_the_search_stops_early():
    d = dv.diverge(TOY, "toy.ruling.finish", "plain", "exact-bonus", [Config(2)], budget=dv.PairBudget(max_depth=3))
    assert not d.found and not d.complete
    assert "within 3 moves" in d.bound() and "depth bound" in d.bound()


def test_toy_witness_round_trip(tmp_path):
    d = dv.diverge(TOY, "toy.ruling.finish", "plain", "exact-bonus", [Config(2)])
    doc = dv.witness_doc(TOY, d)
    path = tmp_path / "w.json"
    dv.write_witness(path, doc)
    back = dv.read_witness(path)
    assert back == json.loads(json.dumps(doc, default=str))
    assert dv.check_witness(TOY, back, module=types.ModuleType("none")) is None
    back["moves"] = back["moves"][:-1]  # one move short: the readings agree there
    assert "do not differ" in dv.check_witness(TOY, back, module=types.ModuleType("none"))


# --------------------------------------------------------------------------- dishes witnesses


def _dishes_witnesses():
    return dv.witness_paths("dishes")


def test_dishes_has_a_witness_for_every_ruling():
    from tablerules.model.core import ruling_fields
    from tablerules.model.dishes import Options as DishesOptions

    names = {p.name for p in _dishes_witnesses()}
    assert names == {dv.witness_name("dishes", rid) for rid in ruling_fields(DishesOptions)}


@pytest.mark.parametrize("path", _dishes_witnesses(), ids=lambda p: p.name)
def test_dishes_witness_replays_and_shows_its_difference(path):
    from tablerules.model.dishes import RULES as DISHES

    doc = dv.read_witness(path)
    assert doc["ruleset"] == "dishes"
    assert dv.check_witness(DISHES, doc) is None
    got = dv.replay_witness(DISHES, doc)
    a, b = doc["differs"]["a"], doc["differs"]["b"]
    assert dv.difference_kind(got[a], got[b]) not in ("", None)


def test_a_tampered_dishes_witness_is_caught():
    from tablerules.model.dishes import RULES as DISHES

    doc = dv.read_witness(next(p for p in _dishes_witnesses() if p.name == "dishes-stuck-player.json"))
    doc["differs"]["readings"][doc["differs"]["a"]]["legal"] = ["turn 0.dessert"]
    assert "witness says" in dv.check_witness(DISHES, doc)
    doc = dv.read_witness(next(p for p in _dishes_witnesses() if p.name == "dishes-stuck-player.json"))
    doc["moves"] = doc["moves"][:-1] + ["place 0.main on 0.main"]
    assert dv.check_witness(DISHES, doc) is not None


def test_dishes_stuck_player_witness_is_the_shortest():
    from tablerules.model.dishes import RULES as DISHES, Tiles

    d = dv.diverge(DISHES, "dishes.ruling.stuck-player", "skip", "game-ends", [Config(3, Tiles(2, 4))])
    assert d.found and d.kind == "actor" and len(d.steps) == 10
    assert d.next_b.data["to_move"] == "TERMINAL"


# --------------------------------------------------------------------------- order of resolution


@dataclass(frozen=True, slots=True)
class RaceState:
    setup: Setup
    phase: str = "play"
    first: int = -1


@dataclass(frozen=True, slots=True, order=True)
class Word:
    text: str

    def __str__(self) -> str:
        return self.text


def _race_rules(first_wins: bool) -> RuleSet:
    def to_move(s):
        return {"play": 0, "race": CHANCE}.get(s.phase, TERMINAL)

    def apply(s, m):
        if s.phase == "play":
            return RaceState(s.setup, "race")
        return RaceState(s.setup, "over", int(m.text.split()[1]))

    def outcome(s):
        if s.phase != "over":
            return None
        return Outcome(winners=frozenset({s.first})) if first_wins else Outcome(draw=True)

    return RuleSet(
        id="toy-race", title="who calls first", spec_file="", Options=Options, player_counts=(2,),
        new_game=lambda setup: RaceState(setup), to_move=to_move,
        legal_moves=lambda s: (Word("go"),) if s.phase == "play" else (),
        chance_outcomes=lambda s: (
            ((Word("first 0"), Fraction(1, 2)), (Word("first 1"), Fraction(1, 2))) if s.phase == "race" else ()
        ),
        apply=apply, illegal_reason=lambda s, m: None, outcome=outcome, observation=lambda s, seat: {},
        parse_move=lambda t, setup=None: Word(t), state_vars=lambda s: {"phase": s.phase, "first": s.first},
        invariants=(),
    )


def test_order_of_resolution_that_decides_the_winner():
    module = types.SimpleNamespace(is_race=lambda s: s.phase == "race")
    r = dv.order_of_resolution(_race_rules(True), [Config(2)], module=module)
    assert r.applicable and r.matters is True
    assert [s.move for s in r.steps] == ["go"]
    assert [m for m, _ in r.branches] == ["first 0", "first 1"]


def test_order_of_resolution_that_changes_nothing():
    module = types.SimpleNamespace(is_race=lambda s: s.phase == "race")
    r = dv.order_of_resolution(_race_rules(False), [Config(2)], module=module)
    assert r.applicable and r.matters is False and r.races == 1


@dataclass(frozen=True, slots=True, order=True)
class First:
    """A race outcome that names who spoke first; seat None: nobody (a truly simultaneous call)."""

    seat: int | None

    def __str__(self) -> str:
        return "simultaneous" if self.seat is None else f"first {self.seat}"


def test_a_race_outcome_that_is_no_order_does_not_count_as_the_order_mattering():
    """Who speaks first changes nothing; only the third outcome (no order: a tie) differs."""
    base = _race_rules(False)

    def apply(s, m):
        return (
            RaceState(s.setup, "race")
            if s.phase == "play"
            else RaceState(s.setup, "over", -1 if m.seat is None else m.seat)
        )

    def outcome(s):
        if s.phase != "over":
            return None
        return Outcome(draw=True) if s.first < 0 else Outcome(winners=frozenset({0}))

    third = Fraction(1, 3)
    rules = dataclasses.replace(
        base, apply=apply, outcome=outcome,
        chance_outcomes=lambda s: (
            ((First(0), third), (First(1), third), (First(None), third)) if s.phase == "race" else ()
        ),
    )
    module = types.SimpleNamespace(is_race=lambda s: s.phase == "race")
    r = dv.order_of_resolution(rules, [Config(2)], module=module)
    assert r.applicable and r.matters is False and r.races == 1


def test_order_of_resolution_is_not_applicable_to_dishes():
    from tablerules.model.dishes import RULES as DISHES

    r = dv.order_of_resolution(DISHES)
    assert not r.applicable and "not applicable" in r.statement


def test_witness_check_item_passes_for_dishes_and_names_a_broken_file(tmp_path, monkeypatch):
    from tablerules.proofs.checks import FAIL, PASS, Context

    assert dv.witness_check_item("dishes").run(Context()).status == PASS
    for p in _dishes_witnesses():
        (tmp_path / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    broken = tmp_path / "dishes-stuck-player.json"
    doc = json.loads(broken.read_text(encoding="utf-8"))
    doc["moves"] = doc["moves"][:3]
    broken.write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.setattr(dv, "witness_folder", lambda: tmp_path)
    result = dv.witness_check_item("dishes").run(Context())
    assert result.status == FAIL and "dishes-stuck-player.json" in result.summary


def test_a_ruling_that_matters_only_in_combination_gets_its_setting():
    # the finish ruling of the count toy matters only at the end; make the plain reading the
    # one the toy starts with and hide the bonus behind a second ruling
    @dataclass(frozen=True, slots=True)
    class Two:
        finish: str = ruling("toy.ruling.finish", "plain", "exact-bonus")
        bonus_on: str = ruling("toy.ruling.bonus-on", "no", "yes")

    def gated(s):
        out = outcome(s)
        if out is not None and s.setup.options.bonus_on == "no":
            return Outcome(winners=frozenset({1 - s.turn}), clause="toy.win")
        return out

    from dataclasses import replace as dc_replace

    gated_rules = dc_replace(TOY, Options=Two, outcome=gated)
    rd = dv.all_divergences(gated_rules, [Config(2)], rulings=["toy.ruling.finish"])[0]
    assert rd.under_defaults and not rd.under_defaults[0].found and rd.under_defaults[0].complete
    assert rd.base == "bonus-on=yes"
    assert rd.pairs[0].found and rd.pairs[0].moves == ["add 2"] * (GOAL // 2)
