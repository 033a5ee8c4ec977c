"""--seed on the commands that play random games beside rulings and simulate: `tablerules
check` (its compiled playouts, the retail deck's games, the mutation subset's recorded games)
and `tablerules mutants` (the games recorded after each run's breadth-first part).  The same
seed gives the same figures, another seed other games, the default seed the games on record,
and each report names the command line that plays the same games again."""

from __future__ import annotations

import json
import re

import pytest

from tablerules.proofs.checks import Context as CheckContext
from tablerules.model import registry
from tablerules.proofs.dishes import playout_check as dishes_playout_check
from tablerules.proofs.just_desserts import (
    playout_check as just_desserts_playout_check, v23_playout_check as just_desserts_v23_playout_check,
)
from tablerules.proofs.checks import PASS, Context
from tablerules.proofs.discovery.mutation.coverage import CoverageBudget, record_runs
from tests.tool.runner import run_cli
from tests.tool.test_json_output import REPO, _validator

QUICK_ITEMS = {"just-desserts": just_desserts_playout_check.playout_check_item,
               "just-desserts-2.3": just_desserts_v23_playout_check.playout_check_item}


def _rows(item, ctx) -> list[tuple[str, str]]:
    result = item.run(ctx)
    assert result.status == PASS, result.summary
    return result.rows


def _same_games_for_a_seed_other_games_for_another(item) -> None:
    seeded = _rows(item, CheckContext(quick=True, scale=0.1, seed=5))
    assert _rows(item, CheckContext(quick=True, scale=0.1, seed=5)) == seeded
    on_record = _rows(item, CheckContext(quick=True, scale=0.1))
    assert [k for k, _ in on_record] == [k for k, _ in seeded]
    assert on_record != seeded, "another seed must play other games (other action counts or shares)"
    # a context without a seed (tests, the docs) plays the games on record
    assert _rows(item, Context(quick=True, scale=0.1)) == on_record


@pytest.mark.parametrize("ruleset", list(QUICK_ITEMS))
def test_a_playout_check_plays_the_same_games_for_a_seed_and_other_games_for_another(ruleset):
    _same_games_for_a_seed_other_games_for_another(QUICK_ITEMS[ruleset]())


@pytest.mark.slow
def test_the_dishes_playouts_follow_the_seed_too():
    _same_games_for_a_seed_other_games_for_another(dishes_playout_check.checks(Context())[0])


@pytest.mark.slow
def test_the_mutation_records_follow_the_seed():
    rules = registry.get("dishes")

    def figures(seed: int) -> tuple:
        runs = record_runs(rules, CoverageBudget(record_states=50, record_games=2, seed=seed), workers=2)
        return [r.games for r in runs], sum(len(r.states) for r in runs)

    on_record = figures(0)
    assert on_record[0][:2] == [(1000, 1001), (2000, 2001)], (
        "the default seed plays the games run i always played (seed i + 1)"
    )
    seeded = figures(5)
    assert figures(5) == seeded
    assert seeded[0][:2] == [(6000, 6001), (7000, 7001)]
    assert seeded[1] != on_record[1], "other games record other states"


def test_check_and_mutants_take_a_seed_and_say_what_it_decides():
    for command, words in (("check", "compiled playouts"), ("mutants", "random games recorded")):
        r = run_cli(command, "--help")
        assert r.returncode == 0, r.stderr
        text = " ".join(r.stdout.split())
        assert "--seed S" in text and words in text and "(default 0)" in text, text


def test_the_check_report_names_the_line_that_reproduces_it():
    # the time limit stops the run at once: the report (and its reproduce line) is still written
    r = run_cli("check", "dishes", "--quick", "--max-seconds", "0.5", "--seed", "5")
    assert r.returncode == 3, r.stderr[-2000:]
    assert "reproduce: tablerules check dishes --quick --max-seconds 0.5 --seed 5\n" in r.stdout
    r = run_cli("check", "dishes", "--quick", "--max-seconds", "0.5")
    assert "reproduce: tablerules check dishes --quick --max-seconds 0.5 --seed 0\n" in r.stdout


def _check_json(*args: str) -> dict:
    r = run_cli("check", "dishes", "--quick", *args, "--json", cwd=REPO)
    assert r.returncode == 0, r.stderr[-2000:]
    doc = json.loads(r.stdout)
    errors = list(_validator("check").iter_errors(doc))
    assert not errors, errors[0].message
    return doc


def _details(doc: dict, name: str) -> list:
    return next(c["details"] for c in doc["checks"] if c["name"] == name)


@pytest.mark.slow
def test_check_reports_the_figures_its_seed_gives_and_names_it():
    seeded = _check_json("--seed", "5")
    assert seeded["seed"] == 5
    playouts = "compiled random playouts agree with the model and the exact engine"
    # the item in this process with the same seed gives the figures the command gave (that another
    # seed gives other figures, and the default the figures on record, the quick tests show in process)
    ctx = CheckContext(quick=True, seed=5)
    assert [list(row) for row in dishes_playout_check.checks(ctx)[0].run(ctx).rows] == _details(seeded, playouts)
    mutation = "mutation coverage (fixed subset): every uncovered mutant triaged"
    again = dict(map(tuple, _details(seeded, mutation)))["again"]
    assert again.endswith(" --seed 5"), again


def _mutants(*args: str) -> tuple[int, str]:
    r = run_cli("mutants", "dishes", "--every", "1000", "--record-states", "50", "--states", "50", *args, cwd=REPO)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.returncode, r.stdout


@pytest.mark.slow
def test_mutants_records_the_same_games_for_a_seed_and_names_the_line_that_reproduces_them():
    _, text = _mutants("--seed", "5")
    assert text.rstrip().endswith(
        "reproduce: tablerules mutants dishes --every 1000 --record-states 50 --states 50 --seed 5"
    )
    seeded = json.loads(_mutants("--seed", "5", "--json")[1])
    errors = list(_validator("mutants").iter_errors(seeded))
    assert not errors, errors[0].message
    assert seeded["seed"] == 5
    again = json.loads(_mutants("--seed", "5", "--json")[1])
    strip = lambda d: re.sub(r'"seconds": [0-9.e+-]+', "", json.dumps(d, sort_keys=True))  # noqa: E731
    assert strip(again) == strip(seeded)
    on_record = json.loads(_mutants("--json")[1])
    assert on_record["seed"] == 0
    assert on_record["rulesets"][0]["recorded_states"] != seeded["rulesets"][0]["recorded_states"]


class _Caught(Exception):
    """Raised by a stand-in to stop a check item once it has shown what it was given."""


@pytest.mark.parametrize("seed", [0, 5])
def test_the_gap_finder_and_the_clause_reach_search_probe_with_the_check_seed(monkeypatch, seed):
    from tablerules.proofs.discovery import clause_reach, gaps

    given: dict[str, int] = {}

    def find_gaps(rules, configs, *, budget, **_kw):
        given["gaps"] = budget.seed
        raise _Caught

    def reach_report(ruleset, *, budget, **_kw):
        given["reach"] = budget.seed
        raise _Caught

    monkeypatch.setattr(gaps, "find_gaps", find_gaps)
    monkeypatch.setattr(clause_reach, "reach_report", reach_report)
    for item in (gaps.gap_check_item("dishes"), clause_reach.reach_check_item("just-desserts")):
        with pytest.raises(_Caught):
            item.run(CheckContext(seed=seed))
    assert given == {"gaps": 1 + seed, "reach": 1 + seed}, "--seed reaches the probing games (1 + seed; 0: on record)"

    # and the budgets' seeds are the ones the probing games are played with
    played: list[int] = []
    monkeypatch.setattr(gaps, "_random_games_meet", lambda *a: played.append(a[-1]) or False)
    rules = registry.get("just-desserts")
    rid = next(iter(gaps.strict_rulings(rules)))
    gaps._gap_setting(rules, rid, [object()], seed=7)
    assert played and set(played) == {7}
