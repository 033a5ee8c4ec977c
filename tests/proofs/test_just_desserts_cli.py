"""`tablerules explore just-desserts ...` and `tablerules check --ruleset just-desserts` pieces, through the CLI
entry."""

from __future__ import annotations

import json
import re

from tablerules.cli import main
from tablerules.model.decks import embedded_deck


def test_explore_with_deck_file_players_ruling_and_options(tmp_path, capsys):
    deck = tmp_path / "rivals.json"
    deck.write_text(json.dumps(embedded_deck("jd-rivals").to_json()), encoding="utf-8")
    code = main(
        [
            "explore", "just-desserts", "--deck", str(deck), "--players", "2", "--ruling",
            "tip-count=one-per-favourite", "--option", "buffet", "--graph",  # the default budget: 1,000,000 states
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert re.search(r"jd.ruling.tip-count +one-per-favourite", out)
    assert re.search(r"buffet +True", out) and re.search(r"poaching +False", out)
    assert re.search(r"every state can reach an end +yes", out)
    assert "complete" in out


def test_explore_default_deck_uses_the_twins_symmetry(capsys):
    code = main(["explore", "just-desserts", "--max-states", "3000"])
    out = capsys.readouterr().out
    assert code == 3 and "\nincomplete: " in out  # the budget cut the search: never "ok"
    assert re.search(r"symmetry +twins", out)


def test_bad_input_is_one_line(capsys):
    for argv, words in (
        (["explore", "just-desserts", "--deck", "/no/such/deck.json"], "no such file, nor a shipped deck (jd-crowd"),
        (["explore", "just-desserts", "--option", "teleport"], "unknown option"),
        (["explore", "just-desserts", "--ruling", "serving-size=huge"], "unknown alternative"),
        (["explore", "just-desserts", "--players", "3"], "too few desserts"),
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert words in err and "\n" not in err and "Traceback" not in err


def test_strict_explore_reports_the_gap_and_its_trace(capsys):
    code = main(["explore", "just-desserts", "--deck", "jd-one-suit", "--strict"])  # 1,000,000 states at most
    out = capsys.readouterr().out
    assert code == 0  # gaps are expected in strict mode
    assert "gap: jd.ruling.dessert-supply-empty" in out
