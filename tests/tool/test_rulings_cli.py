"""`tablerules rulings` (tablerules/cli/rulings.py): the report, its exit status, one-line errors."""

from __future__ import annotations

import pytest
from tablerules.cli import rulings as rulings_cli
from tablerules.cli import main as top_main
from tablerules.model import registry

SMALL = ["--config", "2:2x4", "--config", "3:2x4"]


@pytest.mark.slow
def test_report_for_dishes_on_small_configurations(tmp_path, capsys):
    out = tmp_path / "dishes.md"
    rc = top_main(["rulings", "dishes", "--quick", *SMALL, "--ruling", "stuck-player", "--ruling", "tie-for-most",
                           "--out", str(out)])
    assert rc == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Rulings: Who Is Going to Do the Dishes?")
    assert "## Gap finder (strict mode)" in text and "unregistered" in text
    assert "### dishes.ruling.stuck-player" in text
    assert "**Question.** What happens when the player to move has no move" in text
    # the witness as a numbered list of moves, and what each reading does next
    assert "1. seat 0: turn 0.dessert" in text
    assert "- `game-ends`: game over:" in text and "- `strict`: raises RuleGap dishes.ruling.stuck-player" in text
    assert "| alternative | configuration | method |" in text and "exact (" in text
    assert "not applicable" in text  # dishes has no races
    assert "### dishes.ruling.deal-2-players" not in text  # only the rulings asked for
    err = capsys.readouterr().err
    assert "gap finder" in err and "wrote" in err


@pytest.mark.slow
def test_top_level_cli_forwards_to_rulings(capsys):
    rc = top_main(["rulings", "dishes", "--quick", "--config", "2:2x4", "--ruling", "voluntary-pass"])
    assert rc == 0
    assert "### dishes.ruling.voluntary-pass" in capsys.readouterr().out


def test_bad_input_is_one_line_and_status_2(capsys):
    for argv in (["no-such-game"], ["dishes", "--config", "x:3x4"], ["dishes", "--config", "2:9x9"],
                 ["dishes", "--ruling", "no-such-ruling", "--config", "2:2x4"], ["dishes", "--bogus"]):
        assert top_main(["rulings", *argv]) == 2, argv
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and "error" in err and "Traceback" not in err, (argv, err)


def test_a_model_that_does_not_import_is_skipped_with_a_clear_line(monkeypatch, capsys):
    monkeypatch.setitem(registry.ENTRIES, "broken", registry.Entry("broken", "b", "tablerules.model.no_such_model", ""))
    assert top_main(["rulings", "broken"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("tablerules: error: skipped broken: model") and "\n" not in err


def test_unregistered_gap_sets_exit_status_1(monkeypatch, tmp_path, capsys):
    # the toy of tests/proofs/discovery/test_gaps.py has gaps and no spec: nothing is registered
    toy = registry.Entry("toy-gaps", "toy", "tests.proofs.discovery.test_gaps", "")
    monkeypatch.setitem(registry.ENTRIES, "toy-gaps", toy)
    out = tmp_path / "toy.md"
    assert top_main(["rulings", "toy-gaps", "--quick", "--out", str(out)]) == 1
    text = out.read_text(encoding="utf-8")
    assert "gap toy.ruling.at-four | unregistered" in text
    assert "(not in the spec register)" in text


def test_a_trace_opening_with_chance_events_shows_the_deal_in_one_line():
    from tablerules.proofs.explorer import Step

    steps = [Step("CHANCE", "seat 0 draws A"), Step("CHANCE", "seat 0 draws A"), Step("CHANCE", "seat 1 draws B"),
             Step("seat 0", "call"), Step("CHANCE", "first 0")]
    text = rulings_cli.steps_md(steps)
    assert text.splitlines() == ["1-3. the deal (3 chance events): seat 0 draws A ×2, seat 1 draws B",
                                 "4. seat 0: call", "5. CHANCE: first 0"]
    assert rulings_cli.steps_md(steps[3:]).splitlines()[0] == "1. seat 0: call"


@pytest.mark.slow
def test_json_report_has_the_summary_rulings_and_decisions(capsys):
    import json

    rc = top_main(["rulings", "dishes", "--quick", "--json", "--config", "2:2x4", "--ruling", "tie-for-most"])
    assert rc == 0
    (doc,) = json.loads(capsys.readouterr().out)["rulesets"]
    assert doc["ruleset"] == "dishes" and "rulings" in doc["summary"] and "unregistered decisions" in doc["summary"]
    (ruling,) = doc["rulings"]
    assert ruling["id"] == "dishes.ruling.tie-for-most" and ruling["witness"]["found"]
    assert ruling["witness"]["moves"] and ruling["witness_file"].startswith("dishes-tie-for-most.json")
    for row in ruling["impact"]:  # separate outcomes for the first seat
        assert "a draw (nobody named)" in row and "first seat loses (alone or shared)" in row
    assert doc["decisions"]["findings"] == []


@pytest.mark.slow
def test_the_2_3_report_states_the_race_odds_its_statistics_used(capsys):
    """jd23.ruling.race-odds weighs chance only: the summary, and every impact row in the JSON, say which
    alternative."""
    import json

    rc = top_main(["rulings", "just-desserts-2.3", "--quick", "--json", "--ruling", "race-odds"])
    assert rc == 0
    (doc,) = json.loads(capsys.readouterr().out)["rulesets"]
    assert doc["summary"]["statistics weigh chance by"].startswith("jd23.ruling.race-odds=tie-one-in-ten (the default)")
    assert doc["statistics_weigh_chance_by"] == doc["summary"]["statistics weigh chance by"]
    (ruling,) = doc["rulings"]
    rows = {row["alternative"]: row["weights"] for row in ruling["impact"]}
    assert rows == {"tie-one-in-ten": "jd23.ruling.race-odds=tie-one-in-ten", "equal": "jd23.ruling.race-odds=equal"}
    top_main(["rulings", "dishes", "--quick", "--json", "--config", "2:2x4", "--ruling", "tie-for-most"])
    # dishes weighs no race
    assert "statistics weigh chance by" not in json.loads(capsys.readouterr().out)["rulesets"][0]["summary"]


@pytest.mark.slow
def test_gap_traces_are_written_as_itf_and_shown_with_their_states(tmp_path, capsys):
    folder = tmp_path / "gaps"
    out = tmp_path / "report.md"
    assert top_main(["rulings", "dishes", "--quick", *SMALL, "--ruling", "stuck-player", "--out", str(out),
                     "--out-itf", str(folder)]) == 0
    files = sorted(folder.glob("*.itf.json"))
    assert any("stuck-player" in p.name for p in files)
    assert top_main(["vectors", "verify", *map(str, files)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "the state at each step" in text and "ITF trace: `" in text


# --------------------------------------------------------------------------- the retail deck


def test_retail_options_parse():
    args = __import__("tablerules.cli", fromlist=["parser"]).parser().parse_args(
        ["rulings", "just-desserts", "--retail-deck", "deck.json", "--retail-games", "5000"])
    assert args.retail_deck == "deck.json" and args.retail_games == 5000
    default = __import__("tablerules.cli", fromlist=["parser"]).parser().parse_args(["rulings", "just-desserts"])
    assert default.retail_deck is None and default.retail_games == 100_000
    budget = rulings_cli.retail_budget(100_000)
    assert (budget.games, budget.step_games, budget.probe_games) == (100_000, 1_000, 300)


def test_bad_retail_input_is_one_line_and_status_2(tmp_path, capsys, monkeypatch):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    monkeypatch.delenv("TABLERULES_RETAIL_DECK", raising=False)
    for argv in (
        ["just-desserts", "--retail-deck", str(tmp_path / "missing.json")],
        ["just-desserts", "--retail-deck", str(bad)], ["just-desserts", "--retail-deck", str(tmp_path)],
        ["just-desserts", "--retail-games", "0"], ["just-desserts", "--retail-games", "many"],
    ):
        assert top_main(["rulings", *argv]) == 2, argv
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and "error" in err and "Traceback" not in err, (argv, err)
    monkeypatch.setenv("TABLERULES_RETAIL_DECK", str(bad))
    assert top_main(["rulings", "just-desserts-2.3"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "TABLERULES_RETAIL_DECK" in err


def test_without_a_retail_deck_the_report_says_it_was_not_measured(monkeypatch):
    import argparse
    import io

    monkeypatch.delenv("TABLERULES_RETAIL_DECK", raising=False)
    rules = registry.get("just-desserts")
    for quick, why in ((False, "no retail deck given"), (True, "not measured with --quick")):
        args = argparse.Namespace(quick=quick, retail=None, retail_games=100_000, retail_deck=None)
        ri = rulings_cli._retail(rules, args, None, 1)
        assert not ri.measured and why in ri.reason
        out = io.StringIO()
        rulings_cli.write_retail(out.write, ri)
        assert "## Impact on the retail deck" in out.getvalue() and why in out.getvalue()
    assert rulings_cli._retail(registry.get("dishes"), args, None, 1) is None


def test_the_retail_table_and_its_json_follow_the_schema(monkeypatch):
    import io
    import json
    from importlib import resources

    import jsonschema
    from tablerules.model.decks import embedded_deck
    from tablerules.proofs.just_desserts import retail_impact as rim

    rules = registry.get("just-desserts")
    budget = rim.RetailBudget(games=200, step_games=2, probe_games=5, seed=3)
    # a teaching deck (for 3 players) stands in for the retail one: the table does not depend on which deck
    monkeypatch.setattr(rim, "retail_configs", lambda r: [rim.RetailConfig("3 players, basic game", 3, r.Options())])
    ri = rim.all_retail(rules, embedded_deck("jd-crowd"), "jd-crowd", budget,
                        rulings=["jd.ruling.opening-duplicates", "jd.ruling.turn-direction"])
    out = io.StringIO()
    rulings_cli.write_retail(out.write, ri)
    text = out.getvalue()
    assert "| `opening-duplicates` | at-setup | 3 players, basic game | 200 | compiled playouts (seed 3) |" in text
    # a strict alternative is played by the compiled loop too: every game stops at the gap
    strict = next(line for line in text.splitlines() if line.startswith("| `turn-direction` | strict |"))
    assert "| 3 players, basic game | 200 | compiled playouts (seed 3) |" in strict
    assert "| 100.0% [98.1%, 100.0%] |" in strict
    schema = json.loads(resources.files("tablerules.spec").joinpath("schemas", "rulings.schema.json").read_text())
    sub = {"$defs": schema["$defs"], **schema["$defs"]["ruleset"]["properties"]["retail_impact"]}
    jsonschema.Draft202012Validator(sub).validate(rulings_cli.retail_json(ri))
    jsonschema.Draft202012Validator(sub).validate(rulings_cli.retail_json(rim.not_measured("", "not measured: x")))
