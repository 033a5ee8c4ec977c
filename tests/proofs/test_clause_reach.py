"""The clause-reach table (proofs/clause_reach.py): what counts as reached, and what fails."""

from __future__ import annotations

import pytest

from tablerules.proofs import clause_reach as cr

SMALL = cr.RulingBudget(first_pairs=60, pairs=200, probe_games=2)


def _record(searches, argued=None) -> cr.Record:
    return cr.Record("just-desserts", tuple(searches), dict(argued or {}), "a test's record")


@pytest.fixture(scope="module")
def basic_rivals() -> cr.ReachReport:
    """The basic game on jd-rivals, searched to the end (4,965 states)."""
    return cr.reach_report("just-desserts", _record([cr.Search(2, "jd-rivals")]), budget=SMALL)


def _row(report: cr.ReachReport, rid: str) -> cr.Row:
    return next(r for r in report.rows if r.id == rid)


def test_every_search_on_record_can_start():
    from tablerules.proofs.gaps import load_rules

    rules, _ = load_rules("just-desserts")
    record = cr.load_record("just-desserts")
    assert record is not None and record.searches
    for s in record.searches:
        setup = s.setup(rules)
        assert rules.setup_error(setup) is None, s.label()


def test_a_basic_game_search_is_complete_and_reaches_the_basic_clauses(basic_rivals):
    run = basic_rivals.runs[0]
    assert run.complete and run.states == 4_965 and not run.error
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
                                                      {"jd.turn.kitchen": "cannot happen"}), budget=SMALL)
    assert _row(report, "jd.turn.kitchen").status == cr.STALE
    assert not report.ok


def test_an_argument_naming_no_spec_id_is_a_problem():
    report = cr.reach_report("just-desserts", _record([cr.Search(2, "jd-rivals", max_states=200)], {"jd.no.such": "x"}),
                             budget=SMALL)
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
