"""A ruling's ``found_by`` is something anyone can do again: ``reading`` (a person found it
reading the rulebook) or a command; every command is run here and must find its ruling, and so
must every command of its ``found_again_by`` (an independent reading's difference that the
ruling explains: ``tablerules readings``)."""

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


def _again():
    for ruleset in registry.ruleset_ids():
        for rid, r in load_spec(ruleset).rulings.items():
            for how in r.found_again_by:
                yield ruleset, rid, how


COMMANDS = [(ruleset, rid, how) for ruleset, rid, how in _all_rulings() if how != "reading"] + list(_again())


@pytest.mark.parametrize(
    "ruleset,rid,how", list(_all_rulings()), ids=lambda x: x if isinstance(x, str) and "." in x else None
)
def test_found_by_is_a_reading_or_a_command(ruleset, rid, how):
    assert (
        how == "reading"
        or how.startswith(f"tablerules explore {ruleset} ")
        or how.startswith(f"tablerules mutants {ruleset} ")
        or how.startswith(f"tablerules readings {ruleset} ")
    ), f"{rid}: found_by {how!r} is neither 'reading' nor a command of ours"


_FOUND: dict[str, tuple[int, dict]] = {}
"""Command -> (status, document): several rulings name one `tablerules readings` command, run once."""


def found(command: str, capsys) -> tuple[int, dict]:
    if command not in _FOUND:
        status = main(shlex.split(command)[1:] + ["--json"])
        _FOUND[command] = status, json.loads(capsys.readouterr().out)
    return _FOUND[command]


RUN_ELSEWHERE = {"jd.ruling.endless-play": "tests/tool/test_endless_cli.py"}
"""Rulings whose command another test runs (it explores a whole state graph, a minute or more: run once
in the suite, not twice); that test runs the found_by command as the register writes it."""


def test_a_command_run_elsewhere_is_run_there_as_the_register_writes_it():
    from tests.tool import test_endless_cli

    for ruleset, rid, how in COMMANDS:
        if rid in RUN_ELSEWHERE:
            assert test_endless_cli.__file__.endswith(RUN_ELSEWHERE[rid])
            assert test_endless_cli.FOUND_BY == how, (rid, how)


@pytest.mark.parametrize("ruleset,rid,how", [
    pytest.param(*c, id=c[1]) for c in COMMANDS if c[1] not in RUN_ELSEWHERE
])
def test_the_command_finds_its_ruling_again(ruleset, rid, how, capsys):
    status, doc = found(how, capsys)
    if how.startswith("tablerules explore"):
        # a gap, or (jd.ruling.endless-play) the closed sets the graph analysis names by their ruling
        gaps = {f["key"] for f in doc["findings"] if f["kind"] in ("gap", "endless")}
        assert rid in gaps, f"{how}: found {sorted(gaps)}, not {rid}"
    elif how.startswith("tablerules readings"):
        explained = {r for rs in doc["rulesets"] for g in rs["groups"] for e in g["explained_by"]
                     for r in e["ruling"].split(" + ")}
        assert rid in explained, f"{how}: no group of differences is explained by {rid}: {sorted(explained)}"
    else:
        named = {(m["ruling"], m["verdict"]) for rs in doc["rulesets"] for m in rs["mutants"]}
        assert (rid, "uncovered") in named, f"{how}: the mutant is not uncovered with a triage naming {rid}: {named}"
    assert status in (0, 1, 3)  # 3: the state budget cut the search (explore: incomplete, never "ok")
