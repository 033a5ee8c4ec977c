"""spec/solved/ is keyed to what decides its figures, and a regression holds the engine to them."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from tablerules.model import registry
from tablerules.proofs.exact import impact as exact_impact, solved_digest

FIGURES = ("table_states", "longest_game_actions", "random_play", "optimal_play")


def _stored(name: str) -> dict:
    return json.loads(resources.files("tablerules.spec").joinpath("solved", name).read_text())


def test_every_stored_document_is_current():
    digest = solved_digest.compute_digest()
    for item in resources.files("tablerules.spec").joinpath("solved").iterdir():
        if item.name.endswith(".json"):
            assert json.loads(item.read_text())["sources"] == digest, item.name


def test_the_digest_sees_play_not_bytes(monkeypatch):
    """A change of play on the small tile sets changes the digest; the same play written
    differently (here: a wrapper around successors) does not."""
    rules = registry.get("dishes")
    monkeypatch.setattr(solved_digest, "CONFIGS", solved_digest.CONFIGS[:1])  # one small table is enough here
    before = solved_digest.compute_digest()
    same = rules.successors
    monkeypatch.setattr(type(rules), "successors", lambda self, state: list(same(state)))
    assert solved_digest.compute_digest() == before

    def skewed(self, state):  # where chance reveals one of several colours, half of the first one's odds move on
        rows = list(same(state))
        if len(rows) > 1 and rows[0][1] is not None:
            (m0, p0, s0), (m1, p1, s1) = rows[0], rows[1]
            rows[0], rows[1] = (m0, p0 / 2, s0), (m1, p1 + p0 / 2, s1)
        return rows

    monkeypatch.setattr(type(rules), "successors", skewed)
    assert solved_digest.compute_digest() != before


def test_the_digest_sees_the_kernels_play_and_the_rulings(monkeypatch):
    """The kernel counts as data: the same expansion written differently keeps the digest, an
    expansion that moves chance odds changes it; so does a change of the rulings."""
    from tablerules.model import compact

    monkeypatch.setattr(solved_digest, "CONFIGS", solved_digest.CONFIGS[:1])
    kernel_type = type(registry.kernel("dishes", registry.get("dishes").setup(2)))
    before = solved_digest.compute_digest()
    same = kernel_type.expand
    monkeypatch.setattr(kernel_type, "expand", lambda self, rows: same(self, rows.copy()))
    assert solved_digest.compute_digest() == before

    def skewed(self, rows):  # a chance child whose odds are halved (its den doubled)
        ex = same(self, rows)
        den = ex.p_den.copy()
        chance = (ex.p_den > 1).nonzero()[0]
        if len(chance):
            den[chance[0]] *= 2
        return compact.Expansion(ex.children, ex.parent, ex.action, ex.p_num, den, ex.actions, ex.passes)

    with monkeypatch.context() as m:
        m.setattr(kernel_type, "expand", skewed)
        assert solved_digest.compute_digest() != before
    monkeypatch.setattr(solved_digest, "_rulings_part", lambda: b"[]")
    assert solved_digest.compute_digest() != before


@pytest.mark.slow
def test_every_finite_alternative_on_4x4_gives_the_stored_figures():
    """The exact engine solves each alternative stored complete for 2 players on 4 x 4 again
    (about 15 s) and finds the same figures: a refactor that keeps the rules keeps them."""
    doc = _stored("dishes-2p-4-types-4-colours.json")
    complete = {r["label"]: r for r in doc["alternatives"] if r["complete"]}
    assert len(complete) >= 10
    rules = registry.get("dishes")
    again = exact_impact.solve_alternatives("dishes", 2, rules.load_components("4x4"), labels=set(complete))
    rows = {r["label"]: r for r in again["alternatives"]}
    assert set(rows) == set(complete)
    for label, row in rows.items():
        for key in FIGURES:
            assert row.get(key) == complete[label].get(key), (label, key)
