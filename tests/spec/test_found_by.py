"""A ruling's ``found_by`` is something anyone can do again: ``reading`` (a person found it
reading the rulebook) or a command; every command is run here and must find its ruling."""

from __future__ import annotations

import json
import shlex

import pytest

from tablerules.cli import main
from tablerules.model import registry
from tablerules.spec.loader import load_spec


def _all_rulings():
    for ruleset in registry.ruleset_ids():
        for rid, r in load_spec(ruleset).rulings.items():
            yield ruleset, rid, r.found_by


COMMANDS = [(ruleset, rid, how) for ruleset, rid, how in _all_rulings() if how != "reading"]


@pytest.mark.parametrize(
    "ruleset,rid,how", list(_all_rulings()), ids=lambda x: x if isinstance(x, str) and "." in x else None
)
def test_found_by_is_a_reading_or_a_command(ruleset, rid, how):
    assert (
        how == "reading"
        or how.startswith(f"tablerules explore {ruleset} ")
        or how.startswith(f"tablerules mutants {ruleset} ")
    ), f"{rid}: found_by {how!r} is neither 'reading' nor a command of ours"


def found(command: str, capsys) -> tuple[int, dict]:
    status = main(shlex.split(command)[1:] + ["--json"])
    return status, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("ruleset,rid,how", COMMANDS, ids=[c[1] for c in COMMANDS])
def test_the_command_finds_its_ruling_again(ruleset, rid, how, capsys):
    status, doc = found(how, capsys)
    if how.startswith("tablerules explore"):
        gaps = {f["key"] for f in doc["findings"] if f["kind"] == "gap"}
        assert rid in gaps, f"{how}: found {sorted(gaps)}, not {rid}"
    else:
        named = {(m["ruling"], m["verdict"]) for rs in doc["rulesets"] for m in rs["mutants"]}
        assert (rid, "uncovered") in named, f"{how}: the mutant is not uncovered with a triage naming {rid}: {named}"
    assert status in (0, 1)
