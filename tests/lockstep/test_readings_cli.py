"""`tablerules readings`: the model beside the independent readings, as CI runs it (small configurations), with
every difference explained by a registered ruling; bad input in one line."""

from __future__ import annotations

import json

import pytest

from tablerules.cli import main


def _run(argv, capsys):
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.parametrize("ruleset", ["just-desserts", "just-desserts-2.3", "dishes"])
def test_the_quick_lockstep_leaves_no_finding(ruleset, capsys):
    status, out, err = _run(["readings", ruleset, "--quick", "--games", "0", "--json"], capsys)
    doc = json.loads(out)
    (rs,) = doc["rulesets"]
    findings = [g for g in rs["groups"] if g["status"] == "finding"]
    assert not findings, json.dumps(findings[:3], indent=1)
    assert status == 0 and doc["findings"] == 0
    walked = rs["configs"][0]
    assert 0 < walked["states"] <= 3_000 and (walked["complete"] or walked["states"] == 3_000)
    if ruleset == "dishes":  # the Dishes reading chose what the model's defaults choose
        assert not rs["groups"] and walked["parts"] == 0
    else:
        assert rs["groups"], "the readings part somewhere: every group is a ruling found again"
    assert "Traceback" not in err


def test_the_quick_lockstep_plays_random_retail_games(retail_deck_path, capsys):
    status, out, _ = _run(["readings", "just-desserts-2.3", "--quick", "--retail-deck", retail_deck_path,
                           "--max-states", "50", "--json"], capsys)
    doc = json.loads(out)
    games = [c for c in doc["rulesets"][0]["configs"] if c["kind"] == "random games" and c["round"] == 1]
    assert [c["players"] for c in games] == [2, 3, 4, 5]
    assert all(c["games"] == 2 and c["moves"] > 0 for c in games)
    assert status in (0, 1)


def test_the_report_is_a_table_with_the_command_that_reproduces_it(capsys):
    status, out, _ = _run(["readings", "just-desserts-2.3", "--quick", "--games", "0", "--max-states", "400"],
                          capsys)
    assert "What was walked" in out and ("groups of differences" in out or "no difference" in out)
    assert "findings in" in out or "finding in" in out
    assert "reproduce: tablerules readings just-desserts-2.3 --quick --games 0 --max-states 400 --seed 1" in out


@pytest.mark.parametrize("argv,message", [
    (["readings", "no-such-game"], "invalid choice"),
    (["readings", "just-desserts", "--players", "7"], "--players 7"),
    (["readings", "just-desserts", "--reading", "no_such_module_here"], "cannot be imported"),
    (["readings", "just-desserts", "--max-states", "0"], "--max-states"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        raise SystemExit(main(argv))
    err = capsys.readouterr().err
    assert e.value.code == 2
    assert message in err and "Traceback" not in err
