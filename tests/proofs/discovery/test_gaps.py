"""The gap finder (proofs/discovery/gaps.py): planted gaps in a toy rule set, judgement against a
register, traps, and the dishes rulings register."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from tablerules.model import registry
from tablerules.model.core import (
    STRICT, TERMINAL, IllegalMove, Invariant, MoveSyntaxError, Outcome, RuleGap, RuleSet, Setup, ruling,
)
from tablerules.proofs.discovery import gaps
from tablerules.proofs.checks import FAIL, Context
from tests.proofs.toy import Add, State

# --------------------------------------------------------------------------- a toy: race to five


@dataclass(frozen=True, slots=True)
class Options:
    at_three: str = ruling("toy.ruling.at-three", "stop", STRICT)
    at_four: str = ruling("toy.ruling.at-four", "go-on", STRICT)
    big_step: str = ruling("toy.ruling.big-step", "no", "yes")
    at_seven: str = ruling("toy.ruling.at-seven", "win", STRICT)
    """Seven is reachable only with big steps (4 + 3): this gap opens only in combination."""




def new_game(setup: Setup) -> State:
    return State(setup)


def to_move(s: State):
    return TERMINAL if s.total >= 5 else s.turn


def legal_moves(s: State) -> tuple:
    if to_move(s) is TERMINAL:
        return ()
    o = s.setup.options
    if s.total == 3 and o.at_three == STRICT:
        raise RuleGap("toy.ruling.at-three", "the total is three")
    if s.total == 4 and o.at_four == STRICT:
        raise RuleGap("toy.ruling.at-four", "the total is four")
    return (Add(1), Add(2), Add(3)) if o.big_step == "yes" else (Add(1), Add(2))


def illegal_reason(s: State, m) -> str | None:
    return None if m in legal_moves(s) else "toy.add"


def apply(s: State, m) -> State:
    if illegal_reason(s, m):
        raise IllegalMove("toy.add", m)
    return State(s.setup, s.total + m.n, 1 - s.turn)


def outcome(s: State):
    if to_move(s) is not TERMINAL:
        return None
    if s.total == 7 and s.setup.options.at_seven == STRICT:
        raise RuleGap("toy.ruling.at-seven", "the total is seven")
    return Outcome(winners=frozenset({1 - s.turn}), clause="toy.win")


def parse_move(text: str, setup=None):
    w = text.split()
    if len(w) == 2 and w[0] == "add" and w[1] in ("1", "2", "3"):
        return Add(int(w[1]))
    raise MoveSyntaxError(f"not a toy move: {text!r}")


TOY = RuleSet(
    id="toy-gaps", title="race to five", spec_file="", Options=Options, player_counts=(2,),
    new_game=new_game, to_move=to_move, legal_moves=legal_moves, chance_outcomes=lambda s: (), apply=apply,
    illegal_reason=illegal_reason, outcome=outcome, observation=lambda s, seat: {"total": s.total},
    parse_move=parse_move, state_vars=lambda s: {"total": s.total, "turn": s.turn},
    invariants=(Invariant("total-small", "toy.total", lambda s: None if s.total <= 7 else f"total {s.total}"),),
)
RULES = TOY


def SMALL_CONFIGS() -> list[Setup]:  # noqa: N802 - the name the gap finder looks for
    return [Setup(2, Options(), None)]


@dataclass(frozen=True, slots=True)
class BigSteps(Options):
    """The toy with big steps by default: seven is reachable, but only through four."""

    big_step: str = ruling("toy.ruling.big-step", "yes", "no")


REGISTER = {"toy.ruling.at-three": "registered in the toy register"}
ALL = {"toy.ruling.at-three": 1, "toy.ruling.at-four": 1, "toy.ruling.at-seven": 1}


def test_planted_gaps_are_found_with_shortest_traces():
    report = gaps.find_gaps(TOY, [gaps.Config(2)], register=REGISTER)
    by_key = {f.key: f for f in report.findings}
    assert set(by_key) == {"toy.ruling.at-three", "toy.ruling.at-four", "toy.ruling.at-seven"}
    # total 3 is two moves away (1+2 or 2+1), total 4 also two (2+2): shortest traces
    assert len(by_key["toy.ruling.at-three"].trace) == 2
    assert [s.move for s in by_key["toy.ruling.at-four"].trace] == ["add 2", "add 2"]
    assert by_key["toy.ruling.at-three"].status == gaps.REGISTERED
    assert by_key["toy.ruling.at-four"].status == gaps.UNREGISTERED
    assert not report.ok
    assert sorted(f.key for f in report.unregistered) == ["toy.ruling.at-four", "toy.ruling.at-seven"]


def test_a_gap_that_opens_only_in_combination_is_found_with_its_setting():
    report = gaps.find_gaps(TOY, [gaps.Config(2)], register=REGISTER)
    f = next(f for f in report.findings if f.key == "toy.ruling.at-seven")
    assert f.setting() == "big-step=yes"
    moves = [s.move for s in f.trace]
    assert len(moves) == 3 and "add 3" in moves and sum(int(m.split()[1]) for m in moves) == 7
    assert not report.unreached
    assert any(r.note == "only toy.ruling.at-seven strict, with big-step=yes" for r in report.runs)


def test_registered_gaps_only_pass():
    register = dict(REGISTER, **{"toy.ruling.at-four": "registered", "toy.ruling.at-seven": "registered"})
    report = gaps.find_gaps(TOY, [gaps.Config(2)], register=register)
    assert report.ok and len(report.findings) == 3
    assert all(f.status == gaps.REGISTERED for f in report.findings)


def test_gap_masked_by_another_is_found_by_its_own_run():
    # 2 + 2 + 3 = 7 runs through total 4, where at-four raises in the all-strict run
    report = gaps.find_gaps(TOY, [gaps.Config(2)], register=REGISTER)
    assert report.runs[0].strict == ("toy.ruling.at-three", "toy.ruling.at-four", "toy.ruling.at-seven")
    assert report.runs[1].note == "only toy.ruling.at-seven strict"
    with_big_steps = replace(TOY, Options=BigSteps)
    masked = gaps.find_gaps(with_big_steps, [gaps.Config(2)], register=REGISTER)
    f = next(f for f in masked.findings if f.key == "toy.ruling.at-seven")
    assert f.setting() == "" and masked.runs[1].note == "only toy.ruling.at-seven strict"


def test_invariant_violation_is_unregistered():
    bad = replace(
        TOY, invariants=(Invariant("total-below-two", "toy.total", lambda s: None if s.total < 2 else "too big"),)
    )
    report = gaps.find_gaps(bad, [gaps.Config(2)], register=ALL)
    kinds = {(f.kind, f.key): f for f in report.findings}
    assert ("violation", "total-below-two") in kinds
    assert [s.move for s in kinds[("violation", "total-below-two")].trace] == ["add 2"]
    assert not report.ok


def test_trap_analysis_sees_a_loop_that_can_still_end_and_a_real_trap():
    ex_cfg = gaps.Config(2)
    # a loop: reaching four goes back to zero; play can run forever, but an end stays reachable
    loop_apply = lambda s, m: State(s.setup, 0 if s.total + m.n == 4 else s.total + m.n, 1 - s.turn)  # noqa: E731
    looping = gaps.find_gaps(replace(TOY, apply=loop_apply), [ex_cfg], register=ALL)
    assert all(f.kind == "gap" for f in looping.findings)
    assert "has a cycle" in looping.runs[0].graph and "every state can reach an end" in looping.runs[0].graph
    # a trap: from total 4 every move goes back to 2, so no end is reachable
    trap_apply = lambda s, m: State(s.setup, 2 if s.total + m.n >= 4 else s.total + m.n, 1 - s.turn)  # noqa: E731
    trapped = replace(TOY, apply=trap_apply)
    report = gaps.find_gaps(trapped, [ex_cfg], register=ALL)
    traps = [f for f in report.findings if f.kind == "trap"]
    assert len(traps) == 1 and traps[0].status == gaps.UNREGISTERED
    assert "has a cycle" in report.runs[0].graph


def test_small_configs_come_from_the_model_module_or_default_to_every_player_count():
    import sys

    configs = gaps.small_configs(TOY, sys.modules[__name__])
    assert configs.source == "the model's SMALL_CONFIGS" and not configs.bounded
    fallback = gaps.small_configs(TOY, None)
    assert fallback.bounded and [c.players for c in fallback.configs] == [2]


def test_gap_check_item_fails_on_an_unregistered_gap(monkeypatch):
    monkeypatch.setitem(registry.ENTRIES, "toy-gaps", registry.Entry("toy-gaps", "toy", __name__, ""))
    result = gaps.gap_check_item("toy-gaps").run(Context(quick=True))
    assert result.status == FAIL  # the toy has no spec: nothing is registered
    assert {f.key for f in result.findings} == {"toy.ruling.at-three", "toy.ruling.at-four", "toy.ruling.at-seven"}


def test_model_that_does_not_import_is_named_in_one_line(monkeypatch):
    monkeypatch.setitem(registry.ENTRIES, "broken", registry.Entry("broken", "b", "tablerules.model.no_such_model", ""))
    with pytest.raises(gaps.ModelUnavailable) as e:
        gaps.load_rules("broken")
    assert "does not import" in str(e.value) and "\n" not in str(e.value)


# --------------------------------------------------------------------------- dishes


def test_dishes_gaps_in_small_configurations_are_all_registered():
    from tablerules.model.dishes import RULES as DISHES, Tiles

    report = gaps.find_gaps(DISHES, [gaps.Config(2, Tiles(2, 4)), gaps.Config(3, Tiles(2, 4))])
    assert not report.spec_problem
    keys = {f.key for f in report.findings}
    assert {"dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players", "dishes.ruling.stuck-player"} <= keys
    assert report.ok, report.summary()
    assert all(r.complete for r in report.runs)


def test_a_gap_behind_an_optional_rule_is_found_with_the_option_on():
    from tablerules.model.core import variant

    @dataclass(frozen=True, slots=True)
    class WithOption(Options):
        huge: bool = variant("huge-steps")

    def moves(s):
        base = legal_moves(s)
        return base + (Add(3),) if base and s.setup.options.huge and Add(3) not in base else base

    def step(s, m):
        if m not in moves(s):
            raise IllegalMove("toy.add", m)
        return State(s.setup, s.total + m.n, 1 - s.turn)

    optional = replace(TOY, Options=WithOption, legal_moves=moves, apply=step)
    report = gaps.find_gaps(optional, [gaps.Config(2)], register=ALL)
    f = next(f for f in report.findings if f.key == "toy.ruling.at-seven")
    assert f.setting() == "option huge-steps"
    assert report.ok and not report.unreached


def test_the_longest_play_of_an_acyclic_graph_counts_its_moves_and_the_ends_are_no_traps():
    from types import SimpleNamespace

    # 0 -> 1 -> 2 -> 3 and 0 -> 3, a second edge 1 -> 2 (two moves to the same state); 4 -> 4 loops alone
    ex = SimpleNamespace(parents={0: None, 1: 0, 2: 1, 3: 0}, edges=[(0, 1), (1, 2), (1, 2), (2, 3), (0, 3)],
                         terminal_states=[3])
    assert gaps.trap_analysis(ex) == ([], 3)
    ex.parents[4] = 0
    ex.edges += [(0, 4), (4, 4)]
    assert gaps.trap_analysis(ex) == ([4], None)
