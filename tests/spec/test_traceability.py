"""Every clause is implemented and tested somewhere; every ruling is an Options field (DESIGN.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tablerules.model import registry
from tablerules.model.core import ruling_fields
from tablerules.spec import load_spec

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO.parent / "shared" / "seeds"
IDS = registry.ruleset_ids()


def _text(folder: str) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO / folder).rglob("*.py")))


@pytest.fixture(scope="module")
def model_text() -> str:
    return _text("model")


@pytest.fixture(scope="module")
def test_text() -> str:
    return _text("tests")


def _implemented_at(spec, cid: str) -> str:
    """The clause a model or test must cite for ``cid``: itself, or the one a reminder restates."""
    return spec.clauses[cid].restates or cid


@pytest.mark.parametrize("ruleset", IDS)
def test_every_clause_is_referenced_by_the_model(ruleset, model_text):
    spec = load_spec(ruleset)
    missing = [c for c in spec.clauses if not re.search(re.escape(_implemented_at(spec, c)) + r"(?![\w-])", model_text)]
    assert not missing, f"clauses the model never cites: {missing}"


@pytest.mark.parametrize("ruleset", IDS)
def test_every_clause_is_referenced_by_a_test(ruleset, test_text):
    spec = load_spec(ruleset)
    own = Path(__file__).read_text(encoding="utf-8")
    text = test_text.replace(own, "")
    missing = [c for c in spec.clauses if not re.search(re.escape(_implemented_at(spec, c)) + r"(?![\w-])", text)]
    assert not missing, f"clauses no test cites: {missing}"


@pytest.mark.parametrize("ruleset", IDS)
def test_every_ruling_is_an_options_field_with_the_same_alternatives(ruleset):
    spec = load_spec(ruleset)
    rules = registry.get(ruleset)
    fields = ruling_fields(rules.Options)
    implemented = {rid for rid, r in spec.rulings.items() if not r.pending}
    assert set(fields) == implemented, (
        f"only in Options: {sorted(set(fields) - implemented)}; only in spec: {sorted(implemented - set(fields))}"
    )
    for rid, ruling in spec.rulings.items():
        if ruling.pending:
            continue
        f = fields[rid]
        assert tuple(f.metadata["alternatives"]) == ruling.alternative_ids(), rid
        assert f.default == ruling.default, rid


@pytest.mark.parametrize("ruleset", IDS)
def test_a_pending_ruling_has_no_options_field_yet(ruleset):
    """`pending` marks a ruling registered before its Options field: it must go when the field comes."""
    spec = load_spec(ruleset)
    fields = ruling_fields(registry.get(ruleset).Options)
    stale = [rid for rid, r in spec.rulings.items() if r.pending and rid in fields]
    assert not stale, f"rulings marked pending that have an Options field now (remove `pending`): {stale}"


@pytest.mark.parametrize("ruleset", IDS)
def test_spec_cites_a_real_seed_heading(ruleset):
    spec = load_spec(ruleset)
    seed = SEEDS / spec.seed
    if not seed.exists():
        pytest.skip(f"seed {seed} is not beside the checkout")
    lines = {line.strip() for line in seed.read_text(encoding="utf-8").splitlines()}
    headings_text = seed.read_text(encoding="utf-8")
    for c in spec.clauses.values():
        if c.source == "rulebook":
            assert c.heading in lines or c.heading in headings_text, f"{c.id}: heading {c.heading!r} not in {spec.seed}"


@pytest.mark.parametrize("ruleset", IDS)
def test_spec_paraphrases_and_does_not_paste_the_rulebook(ruleset):
    """No clause or ruling shares a run of eight words with the rulebook."""
    spec = load_spec(ruleset)
    seed = SEEDS / spec.seed
    if not seed.exists():
        pytest.skip(f"seed {seed} is not beside the checkout")

    def grams(text: str) -> set[tuple[str, ...]]:
        words = re.findall(r"[a-z0-9']+", text.lower())
        return {tuple(words[i:i + 8]) for i in range(len(words) - 7)}

    book = grams(seed.read_text(encoding="utf-8"))
    for c in spec.clauses.values():
        shared = grams(c.text) & book
        assert not shared, f"{c.id} copies the rulebook: {' '.join(next(iter(shared)))!r}"
    for r in spec.rulings.values():
        shared = grams(r.question + " " + r.reason) & book
        assert not shared, f"{r.id} copies the rulebook: {' '.join(next(iter(shared)))!r}"
