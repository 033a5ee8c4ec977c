"""The clause-reach table (proofs/discovery/clause_reach.py): what counts as reached, and what fails."""

from __future__ import annotations

import dataclasses

import pytest

from tablerules.proofs.discovery import clause_reach as cr

SMALL = cr.RulingBudget(first_pairs=60, pairs=200, probe_games=2)
NO_PROBES = cr.RulingBudget(first_pairs=0, pairs=0, probe_games=0)
"""For a test of how clauses and arguments are judged: no search for where rulings' readings part."""


def _record(searches, argued=None) -> cr.Record:
    return cr.Record("just-desserts", tuple(searches), dict(argued or {}), "a test's record")


@pytest.fixture(scope="module")
def basic_rivals() -> cr.ReachReport:
    """The basic game on jd-rivals, searched to the end (4,965 states)."""
    return cr.reach_report("just-desserts", _record([cr.Search(2, "jd-rivals")]), budget=SMALL)


def _row(report: cr.ReachReport, rid: str) -> cr.Row:
    return next(r for r in report.rows if r.id == rid)


def test_every_search_on_record_can_start():
    from tablerules.proofs.discovery.gaps import load_rules

    rules, _ = load_rules("just-desserts")
    record = cr.load_record("just-desserts")
    assert record is not None and record.searches
    for s in record.searches:
        setup = s.setup(rules)
        assert rules.setup_error(setup) is None, s.label()


def test_a_basic_game_search_is_complete_and_reaches_the_basic_clauses(basic_rivals):
    run = basic_rivals.runs[0]
    assert run.complete and run.states == 4_955 and not run.error
    for rid in ("jd.turn.kitchen", "jd.discard.one-per-suit", "jd.win.three-of-a-suit"):
        row = _row(basic_rivals, rid)
        assert row.status == cr.REACHED, row
        assert row.trace and row.moves == len(row.trace)


def test_a_clause_whose_decisions_go_one_way_only_is_not_reached(basic_rivals):
    # Poaching is off: its decisions run (always False) but nobody ever poaches
    row = _row(basic_rivals, "jd.poach.attempt")
    assert row.status == cr.NOT_REACHED
    assert "always False" in row.detail
    assert not basic_rivals.ok


def test_a_ruling_is_reached_where_its_readings_part(basic_rivals):
    row = _row(basic_rivals, "jd.ruling.serve-none")
    assert row.status == cr.REACHED and "differ after" in row.detail
    # who answers first needs a third player: two players never part
    assert _row(basic_rivals, "jd.ruling.answer-order").status == cr.NOT_REACHED


def test_an_argument_for_a_reached_clause_is_stale_and_fails():
    report = cr.reach_report("just-desserts", _record([cr.Search(2, "jd-rivals", max_states=2_000)],
                                                      {"jd.turn.kitchen": "cannot happen"}), budget=NO_PROBES)
    assert _row(report, "jd.turn.kitchen").status == cr.STALE
    assert not report.ok


def test_an_argument_naming_no_spec_id_is_a_problem():
    report = cr.reach_report("just-desserts", _record([cr.Search(2, "jd-rivals", max_states=200)], {"jd.no.such": "x"}),
                             budget=NO_PROBES)
    assert any("jd.no.such" in p for p in report.problems) and not report.ok


def test_a_search_the_rules_refuse_is_a_problem():
    report = cr.reach_report("just-desserts", _record([cr.Search(3, "jd-rivals")]), budget=SMALL)
    assert report.runs[0].problem and not report.ok


def test_the_record_refuses_an_unknown_key(tmp_path, monkeypatch):
    bad = tmp_path / "just_desserts_reach.toml"
    bad.write_text('[[search]]\nplayers = 2\ndek = "jd-rivals"\n', encoding="utf-8")

    class Files:
        def joinpath(self, *parts):
            return bad

    monkeypatch.setattr(cr.resources, "files", lambda package: Files())
    with pytest.raises(ValueError, match="unknown key 'dek'"):
        cr.load_record("just-desserts")


def test_a_function_cited_by_its_docstring_counts_only_without_decision_points():
    nm = cr.namers("just-desserts", {"jd.block.cards-back", "jd.turn.kitchen"})
    assert "jd.block.cards-back" in nm.functions and "jd.block.cards-back" not in nm.points
    assert "jd.turn.kitchen" in nm.points


# --------------------------------------------------------------------------- Just Desserts 2.3

V23 = "just-desserts-2.3"


def _v23_ids() -> set[str]:
    from tablerules.spec.loader import load_spec

    spec = load_spec(V23)
    return set(spec.clauses) | set(spec.rulings)


def test_the_v23_record_is_found_by_its_rule_set_id_and_every_search_can_start():
    from tablerules.proofs.discovery.gaps import load_rules

    assert cr.record_path(V23) == "proofs/manifests/just_desserts_23_reach.toml"
    rules, _ = load_rules(V23)
    record = cr.load_record(V23)
    assert record is not None and record.ruleset == V23 and record.searches
    assert {s.players for s in record.searches} >= {2, 3}  # jd23.setup.players: two and three seats
    for s in record.searches:
        setup = s.setup(rules)
        assert rules.setup_error(setup) is None, s.label()


def test_the_v23_arguments_name_only_clauses_no_decision_point_can_take_both_ways():
    """Each argued clause of the 2.3 record is a spec id; an argued clause that a decision point
    names has that point going one way only in a small search from the deal (jd23.setup.deal-five,
    jd23.serve.one-to-three, jd23.serve.reveal-dirty-dishes)."""
    from tablerules.proofs.discovery.gaps import load_rules

    ids = _v23_ids()
    record = cr.load_record(V23)
    assert set(record.argued) <= ids and all(len(why) > 80 for why in record.argued.values())
    nm = cr.namers(V23, ids)
    rules, _ = load_rules(V23)
    run = cr.run_search(rules, cr.Search(2, "v23-tiny", max_states=3_000), nm)
    named = [rid for rid in record.argued if nm.points.get(rid)]
    assert sorted(named) == ["jd23.serve.one-to-three", "jd23.serve.reveal-dirty-dishes", "jd23.setup.deal-five"]
    for rid in named:
        for p in nm.points[rid]:
            assert len(run.outcomes.get(p, set())) == 1, (rid, p.where)
    # the clauses no decision point names and no docstring cites: the record must argue each of them
    unnamed = {i for i in ids if i.split(".")[1] != "ruling" and not nm.points.get(i) and not nm.functions.get(i)}
    assert unnamed and unnamed <= set(record.argued)


@pytest.fixture(scope="module")
def v23_table() -> cr.ReachReport:
    """The 2.3 table as `tablerules check just-desserts-2.3` builds it (about 20 s)."""
    return cr.reach_report(V23)


@pytest.mark.slow
def test_every_clause_and_ruling_of_v23_is_reached_or_argued(v23_table):
    assert not v23_table.problems and not any(r.error for r in v23_table.runs)
    assert {r.id for r in v23_table.rows} == _v23_ids()
    bad = [(r.id, r.status) for r in v23_table.rows if r.status not in (cr.REACHED, cr.ARGUED)]
    assert not bad and v23_table.ok
    for r in v23_table.rows:
        if r.status == cr.REACHED:  # the deal's own shuffle (jd23.setup.shuffle) is 0 moves from it
            assert r.moves == len(r.trace) and (r.trace or r.id == "jd23.setup.shuffle"), r.id
    record = cr.load_record(V23)
    assert {r.id for r in v23_table.rows if r.status == cr.ARGUED} == set(record.argued)


@pytest.mark.slow
def test_v23_rulings_are_reached_where_their_readings_part(v23_table):
    rows = {r.id: r for r in v23_table.rows}
    # every ruling of 2.3 has readings that part somewhere: none is argued
    assert all(r.status == cr.REACHED for rid, r in rows.items() if ".ruling." in rid)
    # an empty-handed mistaken caller needs the four guests of v23-crowd (search 2)
    assert rows["jd23.ruling.penalty-empty-hand"].search == "2"
    assert "v23-crowd" in rows["jd23.ruling.penalty-empty-hand"].detail


def test_without_its_arguments_the_v23_table_fails_on_the_deck_claims():
    record = cr.load_record(V23)
    report = cr.reach_report(V23, dataclasses.replace(record, searches=(cr.Search(2, "v23-tiny", max_states=300),),
                                                      argued={}), budget=SMALL)
    row = _row(report, "jd23.tips.names-hint")
    assert row.status == cr.NOT_REACHED and "never run" in row.detail
    assert _row(report, "jd23.setup.maitre-d").status == cr.NOT_REACHED and not report.ok
