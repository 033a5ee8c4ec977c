"""Every ruling of every rule set has a witness made by the tools (a trace where two
alternatives part, or a proof that they never part on a stated configuration), stored in
spec/witnesses and cited by the register; the traces replay."""

from __future__ import annotations

import pytest

from tablerules.model import registry
from tablerules.model.core import ruling_fields
from tablerules.proofs.discovery import divergence as dv
from tablerules.spec import load_spec

IDS = registry.ruleset_ids()


def _cases():
    for rid in IDS:
        for ruling in ruling_fields(registry.get(rid).Options):
            yield rid, ruling


@pytest.mark.parametrize("ruleset, ruling", list(_cases()))
def test_every_ruling_has_a_witness_cited_by_the_register(ruleset, ruling):
    name = dv.witness_name(ruleset, ruling)
    path = dv.witness_folder() / name
    assert path.exists(), (f"{ruling}: no {name}; write it with "
                           f"`python -m tablerules.proofs.discovery.divergence {ruleset}`")
    doc = dv.read_witness(path)
    assert doc["ruleset"] == ruleset and doc.get("ruling", doc.get("differs", {}).get("ruling")) == ruling
    cited = [e.file for e in load_spec(ruleset).rulings[ruling].evidence]
    assert f"spec/witnesses/{name}" in cited, f"{ruling}: the register does not cite {name} (it cites {cited})"


@pytest.mark.parametrize("ruleset", IDS)
def test_every_witness_trace_replays_and_shows_its_difference(ruleset):
    rules = registry.get(ruleset)
    bad = []
    for path in dv.witness_paths(ruleset):
        doc = dv.read_witness(path)
        if "never_part" in doc:
            continue  # proofs are re-run by `tablerules check` (witness_check_item)
        problem = dv.check_witness(rules, doc)
        if problem:
            bad.append(f"{path.name}: {problem}")
    assert not bad, "\n".join(bad)


def test_a_proof_that_readings_never_part_is_rerun():
    """A stated configuration on which every pair of states is compared; the proof holds."""
    from tablerules.model.dishes import RULES, Tiles
    from tablerules.proofs.discovery.gaps import Config

    (rd,) = dv.all_divergences(RULES, [Config(2, Tiles(1, 2), "1x2")], rulings=["dishes.ruling.deal-3-players"],
                               budget=dv.PairBudget(max_pairs=50_000, max_seconds=None))
    assert rd.primary() is None and rd.never_part()
    doc = dv.proof_doc(RULES, rd)
    assert dv.check_proof(RULES, doc) is None
    assert doc["never_part"]["configurations"] == [{"players": 2, "components": "1-types-2-colours", "deck": "1x2"}]
