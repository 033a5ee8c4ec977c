"""Every property and example names the rulebook lines it formalises, and its review against
those lines is on record (spec/reviews/RULESET.md, one row per property)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tablerules.model import registry
from tablerules.proofs.properties import property_set
from tablerules.spec.loader import load_spec
from tablerules.spec.provenance import Sources

REPO = Path(__file__).resolve().parents[2]
SOURCES = Sources.beside()
RULESETS = [r for r in registry.ruleset_ids() if property_set(r).properties]


def _everything(ruleset: str):
    ps = property_set(ruleset)
    return (*ps.properties, *ps.examples)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_property_names_the_lines_it_formalises(ruleset):
    spec = load_spec(ruleset)
    clauses = spec.clauses
    problems = []
    for p in _everything(ruleset):
        if not p.lines:
            problems.append(f"{p.key}: no lines")
            continue
        clause = clauses.get(p.clause)
        cited = clause.cited_file(spec.seed) if clause is not None else spec.seed
        path = SOURCES.file(cited, clause is not None and clause.source == "public")
        if not path.exists():
            continue  # checked below only where the rulebook is beside the checkout
        length = len(path.read_text(encoding="utf-8").splitlines())
        for first, last in p.lines:
            if not 1 <= first <= last <= length:
                problems.append(f"{p.key}: lines {first}-{last} are not lines of {cited} (1-{length})")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_property_has_a_row_in_its_review(ruleset):
    review = REPO / "spec" / "reviews" / f"{ruleset}.md"
    assert review.exists(), f"{review} is missing"
    text = review.read_text(encoding="utf-8")
    rows = set(re.findall(r"^\|\s*`?([a-z0-9.#-]+)`?\s*\|", text, re.MULTILINE))
    missing = sorted({p.key for p in _everything(ruleset)} - rows)
    assert not missing, f"{review.name} has no row for: {', '.join(missing)}"


def test_lines_are_read_in_either_form():
    from tablerules.proofs.properties import Property

    one = Property("x", "y", state=lambda r, s: None, lines=(3, 5))
    two = Property("x", "y", state=lambda r, s: None, lines=((3, 5), (9, 9)))
    assert one.lines == ((3, 5),) and two.lines == ((3, 5), (9, 9))
