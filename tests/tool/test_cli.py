"""The command line as a user meets it: one-line errors, exit codes, readable output."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tablerules.cli import main


def run(*args: str) -> subprocess.CompletedProcess:
    # -P: do not put the working directory first on sys.path, so the installed package runs
    # (the checkout's own tablerules/ folder would shadow it)
    return subprocess.run([sys.executable, "-P", "-m", "tablerules.cli", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("args,needle", [
    (["explore", "nosuchgame"], "unknown rule set"),
    (["explore", "dishes", "--players", "7"], "7 players is not allowed"),
    (["explore", "dishes", "--ruling", "deal-2-players=whatever"], "unknown alternative"),
    (["explore", "dishes", "--ruling", "nosuch=1"], "unknown ruling"),
    (["explore", "dishes", "--ruling", "novalue"], "expected ID=ALTERNATIVE"),
    (["explore", "dishes", "--option", "poaching"], "unknown option"),
    (["explore", "dishes", "--deck", "12x12"], "dishes tiles"),
    (["explore", "dishes", "--symmetry", "mirror"], "unknown symmetry"),
    (["explore", "dishes", "--players", "two"], "invalid int value"),
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
