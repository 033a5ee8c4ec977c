"""Mutation coverage (tablerules.proofs.discovery.mutation): mutants are written, put in place and
taken back; a mutant the text forbids is killed, one that changes nothing is equivalent,
one that plays as a registered alternative is found to; the register is strict."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from fractions import Fraction

import pytest

from tablerules.model import registry
from tablerules.proofs.discovery.decisions import decision_configs
from tablerules.proofs.discovery.mutation import coverage as cv
from tablerules.proofs.discovery.mutation.judge import CRASHED, EQUIVALENT, KILLED, UNCOVERED, Budget, judge
from tablerules.proofs.discovery.mutation.mutants import STEP_API_FILES, apply_mutant, short_id, undo, write_mutants
from tablerules.proofs.discovery.mutation.reference import Probes, record, signature
from tablerules.proofs.properties import PropertySet, property_set


@pytest.fixture(scope="module")
def dishes_mutants():
    return {m.mutant.id: m for m in write_mutants("dishes")}


@pytest.fixture(scope="module")
def dishes_runs():
    rules = registry.get("dishes")
    probes = Probes(STEP_API_FILES["dishes"])
    config = decision_configs(rules, None)[0]
    options = [("defaults", rules.Options()),
               ("tie-for-most=strict", dataclasses.replace(rules.Options(), tie_for_most="strict")),
               ("tie-for-most=all-tied-lose", rules.Options())]
    return rules, [
        record(rules, f"{config.label()}; {label}", label, config.setup(rules, o), 800, probes, games=2, seed=i)
        for i, (label, o) in enumerate(options)
    ]


def _one(mutants, function, text, op):
    found = [m for mid, m in mutants.items() if f"::{function}::{text}::{op}" in mid]
    assert len(found) == 1, (function, text, op, [m for m in mutants if function in m][:5])
    return found[0]


def _toy_mutants(tmp_path, monkeypatch, text: str):
    """The mutants of a one-file toy model ``toy.py`` holding ``text``, as a rule set ``toy``."""
    from tablerules.proofs.discovery.mutation import mutants as mm

    (tmp_path / "toy.py").write_text(text)
    monkeypatch.setitem(mm.STEP_API_FILES, "toy", ("toy.py",))
    monkeypatch.setitem(mm.NOT_STEP_API, "toy", ())
    mm._SCANS.clear()
    return mm.write_mutants("toy", tmp_path)


@pytest.mark.parametrize("ruleset", registry.ruleset_ids())
def test_every_step_api_file_has_mutants_with_stable_unique_ids(ruleset):
    ms = write_mutants(ruleset)
    ids = [m.mutant.id for m in ms]
    assert ms and len(ids) == len(set(ids)), ruleset
    assert {m.mutant.file for m in ms} == set(STEP_API_FILES[ruleset])
    assert ids == [m.mutant.id for m in write_mutants(ruleset)]  # the same on every call
    assert len({short_id(i) for i in ids}) == len(ids)


def test_a_mutant_is_put_in_place_and_taken_back(dishes_mutants):
    rules = registry.get("dishes")
    source = _one(dishes_mutants, "matches", "a // NC % NT == b // NC % NT or a % NC == b % NC", "negate")
    from tablerules.model.dishes import game as dishes


    assert dishes.matches(0, 0)
    original = apply_mutant(source)
    try:
        assert not dishes.matches(0, 0)
    finally:
        undo(source, original)
    assert dishes.matches(0, 0)
    assert rules.legal_moves is dishes.legal_moves


def test_a_mutant_the_text_forbids_is_killed(dishes_mutants, dishes_runs):
    rules, runs = dishes_runs
    props = property_set("dishes")
    source = _one(dishes_mutants, "matches", "a // NC % NT == b // NC % NT or a % NC == b % NC", "negate")
    v = judge(source, runs, rules, props, Budget(states=300))
    assert v.verdict == KILLED, v


def test_without_properties_the_same_mutant_survives(dishes_mutants, dishes_runs):
    """The verdict comes from the properties: with none (and invariants that do not see
    placement), the mutant that places on the wrong tiles is uncovered, with a witness."""
    rules, runs = dishes_runs
    none = PropertySet("dishes", (), (), {})
    bare = dataclasses.replace(rules, invariants=())
    source = _one(dishes_mutants, "matches", "a // NC % NT == b // NC % NT or a % NC == b % NC", "negate")
    v = judge(source, runs, bare, none, Budget(states=300))
    assert v.verdict == UNCOVERED, v
    assert v.trace and "moves" in v.detail


def test_a_mutant_that_changes_nothing_observable_is_equivalent(dishes_mutants, dishes_runs):
    rules, runs = dishes_runs
    # the bound on a cache's size: never reached on a small game, so nothing changes
    source = _one(dishes_mutants, "geometry", "len(_GEOMETRY) >= 64", "compare 1")
    v = judge(source, runs, rules, property_set("dishes"), Budget(states=300))
    assert v.verdict == EQUIVALENT, v


def test_a_strict_alternative_that_stops_raising_plays_as_the_default(dishes_mutants, dishes_runs):
    rules, runs = dishes_runs
    source = _one(dishes_mutants, "outcome", "o.tie_for_most == STRICT", "never")
    strict_run = runs[1]
    v = judge(source, [strict_run], rules, property_set("dishes"), Budget(states=600))
    assert v.verdict == UNCOVERED, v
    sibling = [r for r in runs if r.setting == "defaults"][0]
    model_views = cv.path_views(rules, sibling.setup, v.trace)
    original = apply_mutant(source)
    try:
        assert cv.plays_as(rules, strict_run, sibling, v.trace, model_views, 600)
    finally:
        undo(source, original)


def test_a_gap_under_a_non_strict_alternative_is_killed(dishes_mutants, dishes_runs):
    rules, runs = dishes_runs
    source = _one(dishes_mutants, "outcome", "o.tie_for_most == STRICT", "always")
    v = judge(source, runs[:1], rules, property_set("dishes"), Budget(states=600))
    assert v.verdict == KILLED and v.by.startswith("core:"), v


def test_a_mutated_loop_that_never_ends_is_a_crash_not_a_hang(tmp_path, monkeypatch):
    """A negated ``while`` test may loop for ever: the mutant counts its rounds and raises
    MutantHangs (a count, not a clock)."""
    import types

    from tablerules.proofs.discovery.mutation import mutants as mm

    monkeypatch.setattr(mm, "LOOP_ROUNDS", 1000)
    toy = "def halve(n):\n    while n > 1:  # rule: toy.halve\n        n //= 2\n    return n\n"
    negated = [m for m in _toy_mutants(tmp_path, monkeypatch, toy) if m.mutant.operator == "negate"]
    assert len(negated) == 1
    fn = types.FunctionType(negated[0].code, {mm.TICK: mm._tick_counter()})
    assert fn(8) == 8  # not (8 > 1) is False at once: the loop does not run
    with pytest.raises(mm.MutantHangs):
        fn(0)  # not (0 > 1) stays True for ever


def test_signature_sees_probabilities_and_text_forms():
    rules = registry.get("dishes")
    setup = rules.setup(2, rules.Options(), decision_configs(rules, None)[0].components)
    s = rules.new_game(setup)
    while rules.to_move(s).__class__ is not int:
        s = rules.apply(s, rules.chance_outcomes(s)[0][0])
    s = rules.apply(s, rules.legal_moves(s)[0])
    sig, ways = signature(rules, s)
    assert sig[0] == ("chance",)
    assert sum(p for _m, p, _t, _r in sig[1]) == Fraction(1) and all(r for *_x, r in sig[1])


def test_the_register_refuses_a_malformed_entry(tmp_path, monkeypatch):
    path = tmp_path / "dishes.toml"
    path.write_text('[[mutant]]\nid = "x"\nruling = "a"\nequivalent = "b"\n')
    monkeypatch.setattr(cv, "register_path", lambda ruleset: path)
    with pytest.raises(ValueError, match="exactly one of ruling, equivalent"):
        cv.load_register("dishes")
    path.write_text('[[mutant]]\nid = "x"\nrulling = "a"\n')
    with pytest.raises(ValueError, match="unknown keys: rulling"):
        cv.load_register("dishes")


def test_every_register_entry_names_a_mutant_and_a_known_ruling():
    from tablerules.spec.loader import load_spec

    for ruleset in registry.ruleset_ids():
        entries = cv.load_register(ruleset)
        if not entries:
            continue
        ids = {m.mutant.id for m in write_mutants(ruleset)}
        rulings = set(load_spec(ruleset).rulings)
        for mid, e in entries.items():
            assert mid in ids, f"{ruleset}: the register names no mutant the model has: {mid}"
            assert e.equivalent or e.ruling in rulings, f"{ruleset}: {mid} names unknown ruling {e.ruling}"


def test_data_mutants_change_what_a_rule_reads(tmp_path, monkeypatch):
    """The data operators on a toy model: a constant one lower on a rule line, a zone read for
    another, two effects the other way round; a swap that would read a name before it is bound is
    not written."""
    import types

    from tablerules.proofs.discovery.mutation import data

    monkeypatch.setitem(data.INTERCHANGEABLE, "toy", (("pile", "discard"),))
    toy = ("def deal(table, out):\n"
           "    n = len(table.pile) - 2  # rule: toy.deal\n"
           "    out.append('first')\n"
           "    out.append('second')\n"
           "    x = len(out)\n"
           "    out.append(x)\n"
           "    return n\n")
    got = {m.mutant.operator: m for m in _toy_mutants(tmp_path, monkeypatch, toy)}
    assert {"less 1", "zone 1", "order 1", "order 2", "order 3"} <= set(got)
    assert "order 4" not in got  # out.append(x) before x = len(out): x read before it is bound

    class Table:
        pile, discard = (1, 2, 3, 4), (1,)

    def run(op):
        out: list = []
        n = types.FunctionType(got[op].code, {"len": len})(Table(), out)
        return n, out

    assert run("less 1") == (3, ["first", "second", 2])
    assert run("zone 1") == (-1, ["first", "second", 2])
    assert run("order 2")[1] == ["second", "first", 2]
    assert run("order 3")[1] == ["first", "second", 1]  # len(out) taken before the second append


def test_a_function_declared_as_plumbing_keeps_its_reason_and_gets_no_order_mutants(tmp_path, monkeypatch):
    """The module's PLUMBING names what decides nothing about play: its decisions' mutants carry
    the reason, and the order of its effects is not mutated; an undeclared function's is."""
    got = _toy_mutants(tmp_path, monkeypatch,
                       'PLUMBING = {"shown": "the text form"}\n\n\n'
                       "def shown(out):\n    out.append(1)\n    out.append(2)\n    return 'a' if out else 'b'\n\n\n"
                       "def deal(out):\n    out.append(1)\n    out.append(2)\n    if out:  # rule: toy.deal\n"
                       "        return 1\n    return 0\n")
    shown = [m.mutant for m in got if m.mutant.function == "shown"]
    deal = [m.mutant for m in got if m.mutant.function == "deal"]
    assert shown and {m.annotation for m in shown} == {"plumbing: the text form"}
    assert not [m for m in shown if m.operator.startswith("order")]
    assert [m for m in deal if m.operator.startswith("order")]
    assert {m.annotation for m in deal if m.operator == "negate"} == {"rule: toy.deal"}


def test_the_old_plumbing_tag_stops_the_mutants_with_file_and_line(tmp_path, monkeypatch):
    from tablerules.proofs.discovery.decisions import AnnotationError

    with pytest.raises(AnnotationError, match=r"^model/toy.py:1: '# plumbing:' on the def of shown is the old form"):
        _toy_mutants(tmp_path, monkeypatch, "def shown(out):  # plumbing: the text form\n    return 1 if out else 2\n")


def test_a_constant_mutant_reaches_every_module_that_imported_it_and_is_undone():
    from tablerules.model.just_desserts import game, state
    from tablerules.proofs.discovery.mutation.mutants import apply_mutant, undo

    source = next(m for m in write_mutants("just-desserts") if m.mutant.operator == "constant +1"
                  and m.mutant.description.startswith("HAND_SIZE"))
    original = apply_mutant(source)
    try:
        assert state.HAND_SIZE == 4 and game.HAND_SIZE == 4
    finally:
        undo(source, original)
    assert state.HAND_SIZE == 3 and game.HAND_SIZE == 3


def test_the_caches_are_emptied_of_a_model_module_loaded_after_they_were_first_emptied():
    """A mutant is judged with empty caches: a module-level dict of a model module loaded after the caches were
    last emptied (dishes' geometry, warm from earlier play) is found and emptied too, or a mutant behind it would
    be judged not reached depending on which tests ran first in the process."""
    script = (
        "import sys\n"
        "from tablerules.proofs.discovery.mutation.reference import clear_caches\n"
        "assert 'tablerules.model.dishes.game' not in sys.modules\n"
        "clear_caches()\n"
        "from tablerules.model import registry\n"
        "import tablerules.model.dishes.game as game\n"
        "rules = registry.get('dishes')\n"
        "game.geometry(rules.setup(2, rules.Options(), rules.load_components('box')))\n"
        "assert game._GEOMETRY\n"
        "clear_caches()\n"
        "print(len(game._GEOMETRY))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "0", done.stdout + done.stderr
