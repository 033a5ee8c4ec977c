"""A conformance run is bounded as a whole, in the engine's replies (--max-replies), never in seconds:
reached before a difference, the run is incomplete (exit status 3) and says how far it got; the bound
is printed with every verdict; the shrinking of a difference found stops there too, the difference
standing."""

from __future__ import annotations

import json

from tablerules.conform.client import MAX_REPLIES, Counted
from tablerules.conform.games import Game, play
from tablerules.conform.run import Budget, conform
from tablerules.model import registry
from tests.conform.engines import LocalEngine
from tests.tool.runner import run_cli


def test_a_run_stops_incomplete_at_max_replies_and_says_how_far_it_got(tmp_path):
    r = run_cli("conform", "dishes", "--engine", "reference", "--games", "20", "--steered", "3", "--max-replies",
                "300", "--json", cwd=tmp_path)
    assert r.returncode == 3, r.stderr[-2000:]
    doc = json.loads(r.stdout)
    assert doc["difference"] is None and not doc["complete"] and doc["replies"] == 300 == doc["max_replies"]
    stopped = doc["stopped"]
    assert stopped.startswith("--max-replies reached before the run could decide (300 replies): "), stopped
    assert "of 20 random games, 0 of ? golden vectors and witnesses, 0 of 3 steered games played" in stopped, stopped
    played = doc["games"]["random"]["played"]
    assert 1 <= played < 20 and f"{played} of 20 random games" in stopped


def test_the_verdict_says_how_many_replies_of_the_bound_were_used(tmp_path):
    r = run_cli("conform", "dishes", "--engine", "reference", "--games", "1", "--steered", "0", "--no-vectors",
                cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.splitlines()
    verdict = lines.index("conformant: no difference within the budget")
    assert lines[verdict - 1].startswith("replies: ")
    assert f"of at most {MAX_REPLIES:,} (--max-replies" in lines[verdict - 1]
    r = run_cli("conform", "dishes", "--engine", "reference", "--games", "1", "--max-replies", "40", cwd=tmp_path)
    assert r.returncode == 3 and "incomplete: --max-replies reached before the run could decide" in r.stdout
    assert "replies: 40 of at most 40" in r.stdout


def test_the_default_bound_is_stated_and_finite():
    assert Budget().max_replies == MAX_REPLIES < 10**6
    r = run_cli("conform", "--help")
    text = " ".join(r.stdout.split())
    assert f"--max-replies N requests the engine may answer in the whole run, shrinking included (default " \
           f"{MAX_REPLIES:,}" in text


def _no_place(request, reply, server):  # a fault: no placement is ever offered
    if request["op"] == "legal_moves":
        reply = {**reply, "moves": [m for m in reply["moves"] if not m.startswith("place")]}
    return reply


def test_a_difference_found_stands_when_the_bound_stops_its_shrinking():
    rules = registry.get("dishes")
    setup = rules.setup(2, components=rules.load_components("3x4"))
    finding = Counted(LocalEngine(_no_place))
    first = play(rules, finding, Game("random 1", setup, "3x4", 0))
    assert first.difference is not None
    limit = finding.replies + 30  # the failing game, and a little of the shrinking
    engine = LocalEngine(_no_place)
    out = conform(rules, setup, "3x4", engine, Budget(games=1, steered=0, vectors=False, max_replies=limit))
    assert out.difference is not None and out.failing.difference.step == first.difference.step
    assert out.shrunk.reply_limit and not out.shrunk.complete and out.reply_limit
    assert out.replies == limit == len(engine.log)  # never a request past the bound


def test_the_bound_counts_every_request_once():
    engine = LocalEngine()
    counted = Counted(engine, 10**6)
    rules = registry.get("just-desserts")
    play(rules, counted, Game("random 1", rules.setup(2), None, 4))
    assert counted.replies == len(engine.log) > 0
