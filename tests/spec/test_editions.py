"""Both editions of Just Desserts share questions (what a serving may contain, favourites served
with other desserts, tips, ties, running out of cards): every question registered for one edition
is registered for the other too (``counterpart``), or argued irrelevant there
(``counterpart_irrelevant``)."""

from __future__ import annotations

import tomllib

import pytest

from tablerules.spec import load_spec
from tablerules.spec.loader import spec_path

EDITIONS = ("just-desserts", "just-desserts-2.3")


def _rulings(ruleset: str) -> dict[str, dict]:
    data = tomllib.loads(spec_path(ruleset).read_text(encoding="utf-8"))
    return {r["id"]: r for r in data.get("ruling", [])}


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_every_question_is_registered_in_the_other_edition_or_argued_irrelevant(ruleset):
    other = EDITIONS[1 - EDITIONS.index(ruleset)]
    mine, theirs = _rulings(ruleset), _rulings(other)
    problems = []
    for rid, r in mine.items():
        twin, why = r.get("counterpart"), r.get("counterpart_irrelevant", "").strip()
        if twin and why:
            problems.append(f"{rid}: both a counterpart and a reason it is irrelevant")
        elif twin:
            if twin not in theirs:
                problems.append(f"{rid}: counterpart {twin} is not a ruling of {other}")
        elif len(why.split()) < 6:
            problems.append(f"{rid}: no counterpart in {other} and no reason (a sentence) why it is irrelevant there")
    assert not problems, "\n".join(problems)


def test_counterparts_point_both_ways():
    a, b = _rulings(EDITIONS[0]), _rulings(EDITIONS[1])
    for mine, theirs in ((a, b), (b, a)):
        for rid, r in mine.items():
            twin = r.get("counterpart")
            if twin:
                assert theirs[twin].get("counterpart") == rid, (
                    f"{rid} -> {twin}, but {twin} -> {theirs[twin].get('counterpart')}"
                )


def test_the_loader_still_reads_both_editions():
    for ruleset in EDITIONS:
        assert load_spec(ruleset).rulings
