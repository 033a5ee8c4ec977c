"""The command line as a user meets it: one-line errors, exit codes, readable output."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tablerules.cli import main

from .runner import run_cli


def run(*args: str) -> subprocess.CompletedProcess:
    """``tablerules ARGS`` in a fresh process, standard error without the heartbeat (runner.run_cli)."""
    return run_cli(*args)


@pytest.mark.parametrize("args,needle", [
    (["explore", "nosuchgame"], "unknown rule set"),
    (["explore", "dishes", "--players", "7"], "7 players is not allowed"),
    (["explore", "dishes", "--players", "1"], "1 player is not allowed"),
    (["explore", "dishes", "--deck", "\u00b2x4"], "TYPESxCOLOURS in ASCII digits"),
    (["explore", "just-desserts", "--deck", "x" * 5000], "longer than 4,096 characters"),
    ([], "say which command"),
    (["explore", "dishes", "--ruling", "deal-2-players=whatever"], "unknown alternative"),
    (["explore", "dishes", "--ruling", "nosuch=1"], "unknown ruling"),
    (["explore", "dishes", "--ruling", "novalue"], "expected ID=ALTERNATIVE"),
    (["explore", "dishes", "--option", "poaching"], "unknown option"),
    (["explore", "dishes", "--deck", "12x12"], "dishes tiles"),
    (["explore", "dishes", "--symmetry", "mirror"], "unknown symmetry"),
    (["explore", "dishes", "--players", "two"], "argument --players/-n: expected a whole number in ASCII digits"),
    (["frobnicate"], "invalid choice"),
    (["check", "--ruleset", "chess"], "unknown rule set"),
])
def test_bad_input_gives_one_line_and_exit_2(args, needle, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "\n" not in err and "Traceback" not in err


def test_explore_small_configuration_prints_a_report():
    r = run("explore", "dishes", "--players", "2", "--deck", "2x4", "--graph")
    assert r.returncode == 0, r.stderr
    assert "every state can reach an end" in r.stdout and "complete" in r.stdout
    assert "loser" in r.stdout


def test_explore_strict_lists_gaps_with_traces():
    r = run("explore", "dishes", "--players", "2", "--deck", "3x4", "--ruling", "stuck-player=strict")
    assert r.returncode == 0, r.stderr  # a gap of a ruling set to strict is what strict mode looks for
    assert "gap: dishes.ruling.stuck-player" in r.stdout
    assert "  1. seat 0: turn" in r.stdout


def test_prove_dishes():
    r = run("prove", "dishes")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "prove worked-example" in r.stdout and "FAIL" not in r.stdout


# --------------------------------------------------------------------------- what every command offers

from tests.tool.runner import run_cli  # noqa: E402

COMMANDS = [
    ["check"], ["explore"], ["prove"], ["list"], ["rulings"], ["simulate"], ["solve"], ["vectors"],
    ["vectors", "generate"], ["vectors", "verify"], ["vectors", "map"],
]


def test_version():
    r = run_cli("--version")
    assert r.returncode == 0 and r.stdout.startswith("tablerules ")


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_help_has_examples_and_exit_statuses(command):
    r = run_cli(*command, "--help")
    assert r.returncode == 0
    assert "examples:" in r.stdout and "\n  tablerules " + command[0] in r.stdout
    # its own list: test_run_discipline.py
    assert "\nexit status:\n  0 " in r.stdout and "\n  130  interrupted" in r.stdout


def test_list_shows_rule_sets_then_rulings_options_and_components():
    r = run_cli("list")
    assert r.returncode == 0
    for rid in ("dishes", "just-desserts", "just-desserts-2.3"):
        assert f"\n{rid} " in r.stdout
    r = run_cli("list", "dishes")
    assert "tie-for-most" in r.stdout and "all-tied-lose (default), no-loser, strict" in r.stdout
    assert "KINDSxCOLOURS" in r.stdout and "box" in r.stdout
    r = run_cli("list", "just-desserts")
    assert "poaching" in r.stdout and "jd-rivals" in r.stdout


def test_list_json_holds_every_choice_the_model_declares():
    """Every rule set, and per rule set every ruling with its alternatives (default first),
    every optional rule and the default deck: read from the model, so the two cannot drift."""
    import json

    from tablerules.model import registry
    from tablerules.model.core import ruling_fields, variant_fields

    every = json.loads(run_cli("list", "--json").stdout)
    assert [r["id"] for r in every["rulesets"]] == registry.ruleset_ids()
    for listed in every["rulesets"]:
        rules = registry.get(listed["id"])
        assert {r["id"]: r["alternatives"] for r in listed["rulings"]} == {
            rid: list(f.metadata["alternatives"]) for rid, f in ruling_fields(rules.Options).items()}
        assert all(r["default"] == r["alternatives"][0] and r["question"] for r in listed["rulings"])
        assert [o["name"] for o in listed["options"]] == list(variant_fields(rules.Options))
        assert [d["value"] for d in listed["decks"] if d["default"]] == [rules.default_components().name]
    one = json.loads(run_cli("list", "dishes", "--json").stdout)
    assert [r["id"] for r in one["rulesets"]] == ["dishes"] and one["rulesets"][0] == every["rulesets"][0]


def test_explore_says_which_tile_set_or_deck_it_explored():
    r = run_cli("explore", "dishes", "--players", "2", "--deck", "2x4")
    assert "tile set 2-types-4-colours (2 kinds x 4 colours)" in r.stdout.splitlines()[0]
    r = run_cli("explore", "just-desserts", "--deck", "jd-one-suit", "--max-states", "200")
    assert "deck jd-one-suit" in r.stdout.splitlines()[0]


def test_progress_lines_also_when_standard_error_is_not_a_terminal():
    r = run_cli("explore", "dishes", "--players", "3", "--deck", "2x4", env={"TABLERULES_PROGRESS_SECONDS": "0.05"})
    lines = [line for line in r.stderr.splitlines() if line.startswith("explore dishes 3p: ")]
    assert lines, r.stderr
    assert all(" distinct states, frontier " in line and ", depth " in line and " states/s, " in line for line in lines)


def test_colour_only_on_a_terminal():
    import os
    import pty

    r = run_cli("explore", "dishes", "--players", "2", "--deck", "1x4")
    assert "\x1b[" not in r.stdout and "\x1b[" not in r.stderr
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command with a terminal for its output
        os.execv(sys.executable, [sys.executable, "-P", "-m", "tablerules", "explore", "dishes", "--deck", "1x4"])
    chunks = []
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.waitpid(pid, 0)
    assert re.search(rb"\x1b\[[0-9;]*32m", b"".join(chunks))  # the verdict in green


def test_findings_are_written_as_itf_that_verify_replays(tmp_path):
    out = tmp_path / "traces"
    r = run_cli("explore", "dishes", "--players", "2", "--deck", "3x4", "--strict", "--out-itf", str(out))
    assert r.returncode == 0, r.stderr
    files = sorted(out.glob("*.itf.json"))
    assert {p.name for p in files} >= {"dishes-gap-dishes-ruling-deal-2-players.itf.json",
                                       "dishes-gap-dishes-ruling-stuck-player.itf.json"}
    assert f"trace written to {out}" in r.stdout
    v = run_cli("vectors", "verify", *map(str, files))
    assert v.returncode == 0, v.stdout + v.stderr


def test_traces_show_the_state_at_each_step():
    r = run_cli("explore", "dishes", "--players", "2", "--deck", "2x4", "--ruling", "stuck-player=strict")
    text = r.stdout
    assert "  0. start" in text and 'places["0.dessert"] = "clean"' in text
    assert "1. seat 0: turn 0.dessert" in text and '* reveal = ["0.dessert"]' in text


def test_a_command_module_written_with_add_parser_and_run_is_wired_in(monkeypatch, capsys):
    """A command such as `solve` may offer add_parser(subparsers, setup_args) and run(args, build_setup)."""
    import types

    from tablerules import cli

    mod = types.ModuleType("tablerules.fake_cli")

    def add_parser(sub, setup_args):
        p = sub.add_parser("fake", help="a command for this test")
        setup_args(p, players_default=3)

    def run(args, build_setup):
        rules, setup = build_setup(args)
        print(f"{rules.id} {setup.players}")
        return 0

    mod.add_parser, mod.run = add_parser, run
    monkeypatch.setitem(sys.modules, "tablerules.fake_cli", mod)
    monkeypatch.setattr(cli, "COMMANDS", cli.COMMANDS + (("fake", "tablerules.fake_cli"),))
    assert cli.main(["fake", "dishes"]) == 0
    assert capsys.readouterr().out == "dishes 3\n"
    assert cli.main(["fake", "dishes", "--players", "9"]) == 2


@pytest.mark.slow
def test_solve_gives_the_same_figures_whatever_the_number_of_partitions():
    import json

    docs = [json.loads(run("solve", "dishes", "--players", "2", "--deck", "3x4", "--json", *extra).stdout)
            for extra in ([], ["--partitions", "7"], ["--partitions", "1", "--executor", "serial"])]
    keys = (
        "table_states", "table_states_by_actions", "terminal_states", "engine_states", "random_play", "optimal_play",
    )
    assert docs[0]["table_states"] == 83_893
    assert [{k: d[k] for k in keys} for d in docs[1:]] == [{k: docs[0][k] for k in keys}] * 2


def test_solve_stopped_by_its_time_limit_exits_3_and_claims_nothing_complete():
    import json

    r = run("solve", "dishes", "--players", "2", "--deck", "4x4", "--json", "--max-seconds", "0.001")
    doc = json.loads(r.stdout)
    assert r.returncode == 3 and doc["exit_status"] == 3 and "Traceback" not in r.stderr
    assert not doc["complete"] and "time limit" in doc["stopped"]
    assert doc["longest_game_actions"] is None and doc["random_play"] is None and doc["optimal_play"] is None


@pytest.mark.parametrize("value", ["0", "-3", "x", "70000"])
def test_solve_refuses_a_bad_number_of_partitions_with_one_line(value):
    r = run("solve", "dishes", "--deck", "2x4", "--partitions", value)
    assert r.returncode == 2 and "--partitions" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_reader_that_goes_away_is_an_output_that_cannot_be_written_not_a_broken_rule():
    """`tablerules ... | head -1`: exit status 2 (an output that cannot be written), never 1,
    which would claim a rule was broken; no traceback."""
    from pathlib import Path

    vectors = sorted(str(p) for p in (Path(__file__).resolve().parents[2] / "vectors" / "dishes").glob("*.json"))
    proc = subprocess.Popen([sys.executable, "-P", "-m", "tablerules", "vectors", "verify", *vectors],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None and len(vectors) > 20
    proc.stdout.readline()  # one line of many, then the reader goes
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=300) == 2 and "Traceback" not in err


def test_a_file_error_inside_a_command_names_the_file_not_the_output(monkeypatch, capsys):
    """An OSError about a file (a missing data file, say) names that file; only an error
    without one is standard output that cannot be written."""
    import tablerules.cli.listing as list_cli

    def missing(args):
        raise FileNotFoundError(2, "No such file or directory", "/no/such/data.json")

    monkeypatch.setattr(list_cli, "run", missing)
    assert main(["list"]) == 2
    err = capsys.readouterr().err
    assert err == "tablerules: error: /no/such/data.json: No such file or directory\n"


def test_explore_says_when_it_did_not_ask_whether_every_state_can_reach_an_end():
    """Without --graph the verdict says it did not ask (with --graph on jd-famine with Poaching, where 2,452 states
    can never reach an end, it fails on the traps: tests/tool/test_endless_cli.py runs that whole graph once)."""
    from tests.tool.runner import run_cli

    plain = run_cli("explore", "dishes", "--players", "2", "--deck", "2x2", timeout=600)
    assert plain.returncode == 0 and "was not asked: --graph asks" in plain.stdout, plain.stderr[-2000:]
