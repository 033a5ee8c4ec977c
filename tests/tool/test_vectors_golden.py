"""The committed golden set (vectors/) equals a fresh regeneration, rule set by rule set;
a rule change shows up here as a list of the vectors that changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablerules.model import registry
from tablerules.vectors.files import compare_sets, write_set
from tablerules.vectors.generation import generate_ruleset

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", registry.ruleset_ids())
def test_golden_set_equals_a_fresh_regeneration(ruleset, tmp_path):
    report = generate_ruleset(ruleset)
    if report.skipped:
        pytest.skip(f"{ruleset}: {report.skipped}")
    write_set([report], tmp_path)
    changes = compare_sets(tmp_path / ruleset, REPO / "vectors" / ruleset)
    assert changes == [], "regenerate with `tablerules vectors generate`:\n" + "\n".join(changes)


def test_compare_sets_reports_added_removed_and_changed(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    (old / "r").mkdir(parents=True)
    (new / "r").mkdir(parents=True)
    state = '{"#meta":{"index":0},"x":1}'
    (old / "r" / "a.itf.json").write_text('{"#meta": {"steps": 0}, "vars": ["x"], "states": [' + state + "]}")
    (new / "r" / "a.itf.json").write_text('{"#meta": {"steps": 1}, "vars": ["x"], "states": [' + state
                                          + ',{"#meta":{"index":1,"move":"m"},"x":2}]}')
    (old / "r" / "gone.itf.json").write_text("{}")
    (new / "r" / "fresh.itf.json").write_text("{}")
    lines = compare_sets(new, old)
    assert lines[0] == "added    r/fresh.itf.json"
    assert lines[1] == "removed  r/gone.itf.json"
    assert lines[2].startswith("changed  r/a.itf.json: #meta steps; states from 1 differ")
