"""`tablerules explain` and `tablerules judge`: the judge's question answered from the model."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from tablerules import judging
from tablerules.model import registry
from tablerules.model.decks import embedded_deck
from tests.tool.runner import run_cli

REPO = Path(__file__).resolve().parents[2]
LOG = "docs/guides/poach-back.itf.json"
POACH_BACK = "poach GARDENER with FRUIT_TART"


def test_explain_a_clause_shows_wording_code_tests_and_where_the_rulebook_says_it():
    r = run_cli("explain", "poach-back", cwd=REPO, env={"TABLERULES_SHARED": "no-such-folder"})
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.startswith("jd.surprise.no-poach-back  (clause of Just Desserts")
    assert "cannot be poached back by the surprised player in the same turn" in out  # our wording
    assert '"Surprise Parties", line 51' in out and "the file is not at hand" in out
    assert "model/just_desserts/advanced.py:" in out and "# rule: jd.surprise.no-poach-back" in out
    assert "tests/model/test_just_desserts_advanced.py::test_two_surprised_guests_in_one_turn" in out
    assert "proofs/properties/just_desserts/surprise.py" in out


def test_explain_prints_the_cited_lines_when_the_rulebook_is_at_hand(tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    lines = [f"line {n}" for n in range(1, 60)]
    lines[50] = "A STAND-IN FOR LINE 51"
    (seeds / "001_3e6c4b93f769387d.txt").write_text("\n".join(lines) + "\n")
    r = run_cli("explain", "jd.surprise.no-poach-back", cwd=REPO, env={"TABLERULES_SHARED": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    assert "    51 | A STAND-IN FOR LINE 51" in r.stdout
    assert "does not match these lines" in r.stdout  # the digest is checked against the cited text


def test_explain_a_ruling_marks_the_default_and_lists_its_witnesses():
    r = run_cli("explain", "jd.ruling.answer-order", cwd=REPO)
    assert r.returncode == 0, r.stderr
    assert "  * race: Whoever speaks first" in r.stdout and "    clockwise:" in r.stdout
    assert "Why the default" in r.stdout and "Found by: reading" in r.stdout
    assert re.search(r"spec/witnesses/jd-answer-order.json \(any answers: \d+ steps", r.stdout)
    assert "Choose it with: --ruling answer-order=ALT" in r.stdout


@pytest.mark.parametrize("text,why", [("poach", "names 6 ids, say which"), ("nothing-like-it", "no clause or ruling")])
def test_explain_refuses_an_unclear_id_in_one_line(text, why):
    r = run_cli("explain", text, cwd=REPO)
    assert r.returncode == 2 and why in r.stderr and len(r.stderr.strip().splitlines()) == 1


def _setup():
    rules = registry.get("just-desserts")
    setup = rules.setup(2, rules.Options(poaching=True, buffet=True, surprise_parties=True), embedded_deck("jd-rivals"))
    doc = json.loads((REPO / LOG).read_text())
    return rules, setup, [s["#meta"]["move"] for s in doc["states"][1:]]


def test_the_surprised_guest_may_not_be_poached_back_at_once_but_on_a_later_turn():
    rules, setup, moves = _setup()
    pos = judging.position(rules, setup, moves, len(moves))
    assert pos.failed is None and pos.state.shielded == ("GARDENER",)
    refused = judging.answer(rules, pos.state, POACH_BACK)
    assert (refused.verdict, refused.clause) == (judging.ILLEGAL, "jd.surprise.no-poach-back")
    # the same move with the shield lifted (a later turn) is legal: the clause, not the cards, refuses it
    import dataclasses

    later = dataclasses.replace(pos.state, shielded=())
    assert judging.answer(rules, later, POACH_BACK).verdict == judging.LEGAL


def test_judge_answers_the_poach_back_question_with_its_clause():
    r = run_cli("judge", "just-desserts", LOG, "--move", POACH_BACK, cwd=REPO)
    assert r.returncode == 0, r.stderr
    assert "Answer: not legal, decided by jd.surprise.no-poach-back" in r.stdout
    assert 'hands = [["FRUIT_TART", "SPONGE", "SPONGE"], ["SPONGE", "SPONGE"]]' in r.stdout  # the all-seeing view
    assert "what seat 0 sees:" in r.stdout
    assert "Rulings whose alternatives answer differently: none" in r.stdout
    assert "jd.ruling.opening-duplicates=at-setup: step 10" in r.stdout  # the log could not be played so


def test_judge_gives_every_alternative_where_a_ruling_decides():
    r = run_cli("judge", "just-desserts", LOG, "--move", "serve BAKER with FRUIT_TART+SPONGE", "--json", cwd=REPO)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["answer"]["verdict"] == "not legal"
    by = {x["ruling"]: x for x in doc["rulings"]}
    assert set(by) == {"jd.ruling.serving-size"}
    assert by["jd.ruling.serving-size"]["answers"]["any"]["verdict"] == "legal"
    assert doc["alternatives_tried"] == sum(len(f.metadata["alternatives"]) - 1 for f in
                                            __import__("tablerules.model.core", fromlist=["x"]).ruling_fields(
                                                registry.get("just-desserts").Options).values())


def test_judge_at_an_earlier_step_and_on_a_text_log(tmp_path):
    r = run_cli("judge", "just-desserts", LOG, "--at", "0", "--move", "draw SPONGE", cwd=REPO)
    assert r.returncode == 0 and "CHANCE to move" in r.stdout and "Answer: legal" in r.stdout
    assert "a chance outcome here, with probability" in r.stdout
    _, _, moves = _setup()
    text = tmp_path / "moves.txt"
    text.write_text("# the same game, one move per line\n" + "\n".join(moves) + "\n")
    r = run_cli("judge", "just-desserts", str(text), "--players", "2", "--deck", "jd-rivals", "--option", "poaching",
                "--option", "buffet", "--option", "surprise-parties", "--move", POACH_BACK, cwd=REPO)
    assert r.returncode == 0, r.stderr
    assert "decided by jd.surprise.no-poach-back" in r.stdout


def test_judge_says_when_the_log_itself_breaks_a_rule(tmp_path):
    _, _, moves = _setup()
    text = tmp_path / "moves.txt"
    text.write_text("\n".join(moves[:9] + ["serve GARDENER with FRUIT_TART+FRUIT_TART+SPONGE"]) + "\n")
    r = run_cli(
        "judge", "just-desserts", str(text), "--players", "2", "--deck", "jd-rivals", "--move", "pass", cwd=REPO
    )
    assert r.returncode == 1 and "step 10" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("args,why", [
    (["--at", "99"], "--at 99: the log has 11 moves"),
    (["--at", "-1"], "argument --at: must be >= 0"),
    (["--players", "3"], "a trace's #meta gives the setup"),
])
def test_judge_refuses_bad_input_in_one_line(args, why):
    r = run_cli("judge", "just-desserts", LOG, "--move", POACH_BACK, *args, cwd=REPO)
    assert r.returncode == 2 and why in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_judge_refuses_a_move_of_no_rule_set_and_a_log_of_another(tmp_path):
    r = run_cli("judge", "just-desserts", LOG, "--move", "fly to the moon", cwd=REPO)
    assert r.returncode == 2 and "not a move of just-desserts" in r.stderr
    r = run_cli("judge", "dishes", LOG, "--move", "pass", cwd=REPO)
    assert r.returncode == 2 and "$['#meta'].ruleset is 'just-desserts', not 'dishes'" in r.stderr
    fifo = tmp_path / "pipe.json"
    __import__("os").mkfifo(fifo)
    r = run_cli("judge", "just-desserts", str(fifo), "--move", "pass", cwd=REPO, timeout=20)
    assert r.returncode == 2 and "not a regular file" in r.stderr


def test_the_guide_runs_the_commands_it_shows():
    page = (REPO / "docs" / "guides" / "judge.rst").read_text()
    commands = re.findall(r"^\.\. tablerules-output:: (.+)$", page, re.M)
    assert len(commands) == 3
    for line in commands:
        r = run_cli(*shlex.split(line), cwd=REPO, env={"TABLERULES_SHARED": "rulebooks-not-reprinted-here"})
        assert r.returncode == 0, (line, r.stderr)


def test_a_place_the_table_lacks_is_an_unknown_place_not_a_rule_of_play(tmp_path):
    """The 3x4 tile set has no soup: the answer names dishes.components.tiles, not a rule of play;
    a strict deal ruling that is silent about the deal itself is a log that cannot be played."""
    empty = tmp_path / "moves.txt"
    empty.write_text("")
    r = run_cli("judge", "dishes", str(empty), "--players", "2", "--deck", "3x4", "--move", "place 1.main on 1.soup")
    assert r.returncode == 0, r.stderr
    assert "Answer: not legal, decided by dishes.components.tiles" in r.stdout and "unknown place 1.soup" in r.stdout
    assert "dishes.ruling.deal-2-players=strict: step 0" in r.stdout
    r = run_cli("judge", "dishes", str(empty), "--players", "2", "--deck", "3x4", "--ruling", "deal-2-players=strict",
                "--move", "pass")
    assert r.returncode == 1 and "the deal meets a gap" in r.stderr and "Traceback" not in r.stderr


def test_a_log_line_that_is_no_move_is_bad_input_naming_it(tmp_path):
    text = tmp_path / "moves.txt"
    text.write_text("draw SPONGE\nthis is prose, not a move\n")
    r = run_cli(
        "judge", "just-desserts", str(text), "--players", "2", "--deck", "jd-rivals", "--move", "pass", cwd=REPO
    )
    assert r.returncode == 2 and "move 2 'this is prose, not a move' is not a move of just-desserts" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


# --------------------------------------------------------------------------- what the faces say


def test_explain_counts_the_vectors_that_play_a_ruling():
    """jd.ruling.answer-order: two vectors under its other alternatives, three of its witnesses."""
    r = run_cli("explain", "answer-order", cwd=REPO)
    assert r.returncode == 0, r.stderr
    assert "Vectors (tablerules vectors verify FILE): 5\n" in r.stdout
    assert "vectors/just-desserts/4p-v23-tips-advanced+answer-order=clockwise-s1.itf.json" in r.stdout
    assert "vectors/just-desserts/witness-just-desserts-answer-order.itf.json" in r.stdout


def test_a_dump_of_two_desserts_is_refused_with_the_form_the_clause_takes():
    """jd.turn.dump-tray lets a player throw away as many desserts as they like: one ``dump`` each,
    then ``stop`` draws as many.  ``dump A+B`` is not a move, and the refusal says so and how."""
    r = run_cli("judge", "just-desserts", LOG, "--move", "dump FRUIT_TART+SPONGE", cwd=REPO)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "a dump names one dessert" in r.stderr and "dump A, then dump B" in r.stderr
    assert "jd.turn.dump-tray" in r.stderr
    r = run_cli("judge", "just-desserts", LOG, "--at", "9", "--move", "dump FRUIT_TART", cwd=REPO)
    assert r.returncode == 0 and "Answer: legal" in r.stdout, r.stdout + r.stderr


def test_a_refusal_says_why_which_taste_and_which_card():
    rules, setup, moves = _setup()
    pos = judging.position(rules, setup, moves, len(moves))
    spare = judging.answer(rules, pos.state, "serve BAKER with FRUIT_TART+SPONGE")
    assert spare.verdict == judging.ILLEGAL
    assert spare.detail.endswith("FRUIT_TART could be left out and the rest would still satisfy BAKER "
                                 "(jd.ruling.serving-size=minimal: a serving has no card to spare)")
    absent = judging.answer(rules, pos.state, "serve BAKER with FRUIT_TART+FRUIT_TART")
    assert absent.detail.endswith("seat 0 holds one FRUIT_TART, the move names two")
    back = judging.answer(rules, pos.state, POACH_BACK)
    assert back.detail.endswith("GARDENER was taken by a surprise this turn: it is poached back on a later turn only")


def test_a_refusal_names_the_taste_a_guest_refuses():
    """v23-tips: CHARLIE wants Cake and Chocolate and refuses Nuts; NUT_FUDGE shows Nuts."""
    import dataclasses

    rules = registry.get("just-desserts")
    deck = embedded_deck("v23-tips")
    pos = judging.position(rules, rules.setup(2, rules.Options(), deck), [], 0)
    state = dataclasses.replace(pos.state, hands=(("NUT_FUDGE", "SPONGE"), ()), centre=("CHARLIE",), phase="choose",
                                tasks=(), turn=0)
    a = judging.answer(rules, state, "serve CHARLIE with NUT_FUDGE+SPONGE")
    assert a.verdict == judging.ILLEGAL
    assert a.detail.endswith("CHARLIE refuses Nuts: NUT_FUDGE shows Nuts")
    lacking = judging.answer(rules, state, "serve CHARLIE with SPONGE")
    assert lacking.detail.endswith("CHARLIE wants Cake and Chocolate; SPONGE shows no Chocolate")


def test_a_dishes_refusal_names_the_two_tops():
    rules = registry.get("dishes")
    setup = rules.setup(2, rules.Options(), rules.load_components("3x4"))
    doc = json.loads((REPO / "vectors" / "dishes" / "2p-3x4-default-s1.itf.json").read_text())
    moves = [s["#meta"]["move"] for s in doc["states"][1:]]
    for steps in range(len(moves)):
        pos = judging.position(rules, setup, moves, steps)
        if rules.to_move(pos.state) not in (0, 1):
            continue
        places = rules.state_vars(pos.state)["places"]
        piles = [p for p, v in places.items() if isinstance(v, list) and v]
        pairs = [(a, b) for a in piles for b in piles if a != b]
        for a, b in pairs:
            answer = judging.answer(rules, pos.state, f"place {a} on {b}")
            if answer.clause == "dishes.play.place-match":
                assert answer.detail.endswith(f"{places[a][-1]} (top of {a}) and {places[b][-1]} (top of {b}) share "
                                              "neither kind nor colour")
                return
    pytest.fail("no refused placement found in the vector")
