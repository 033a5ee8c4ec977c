"""The workbench's routes through Starlette's test client: choose, play, step back, ask (the same
answer as `tablerules judge`), compare, export (a vector `vectors verify` accepts; a golden vector
read and exported again unchanged), links that reopen a position, witnesses, and bad input as a
one-line message within the server's bounds."""

from __future__ import annotations

import json
import warnings
from fractions import Fraction
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

pytest.importorskip("starlette", reason="the workbench's routes need starlette (pip install '.[test]')")
pytest.importorskip("httpx", reason="Starlette's test client needs httpx (pip install '.[test]')")

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx is what the extra names
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from tablerules.model import registry  # noqa: E402
from tablerules.model.core import ruling_fields, variant_fields  # noqa: E402
from tablerules.workbench import bounds  # noqa: E402
from tablerules.workbench.app import STATIC, create_app  # noqa: E402
from tablerules.workbench.catalog import Catalog, StartDeck  # noqa: E402
from tablerules.workbench.store import Store  # noqa: E402
from tests.tool.runner import run_cli  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")

REPO = Path(__file__).resolve().parents[2]
POACH_LOG = REPO / "docs" / "guides" / "poach-back.itf.json"
POACH_BACK = "poach GARDENER with FRUIT_TART"
ADVANCED = ["poaching", "buffet", "surprise-parties"]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def poach_moves() -> list[str]:
    doc = json.loads(POACH_LOG.read_text())
    return [s["#meta"]["move"] for s in doc["states"][1:]]


def new(client, **choices) -> dict:
    r = client.post("/api/games", json=choices)
    assert r.status_code == 200, r.text
    return r.json()


def at_poach_back(client) -> dict:
    return new(client, ruleset="just-desserts", players=2, deck="jd-rivals", options=ADVANCED, moves=poach_moves())


def one_line_error(r, status: int) -> str:
    assert r.status_code == status, (r.status_code, r.text[:300])
    message = r.json()["error"]
    assert message and "\n" not in message and "Traceback" not in message
    return message


# --------------------------------------------------------------------------- choosing


def test_the_catalog_offers_every_rule_set_ruling_alternative_option_and_teaching_deck(client):
    listed = client.get("/api/catalog").json()["rulesets"]
    assert [r["id"] for r in listed] == registry.ruleset_ids()
    for r in listed:
        rules = registry.get(r["id"])
        assert {g["id"]: g["alternatives"] for g in r["rulings"]} == {
            rid: list(f.metadata["alternatives"]) for rid, f in ruling_fields(rules.Options).items()}
        assert [o["name"] for o in r["options"]] == list(variant_fields(rules.Options))
        values = [d["value"] for d in r["decks"]]
        assert "FILE" not in values and "KINDSxCOLOURS" not in values
        assert [d["value"] for d in r["decks"] if d["default"]] == [rules.default_components().name]
    jd = next(r for r in listed if r["id"] == "just-desserts")
    assert {"jd-rivals", "jd-one-suit", "jd-two-suits"} <= {d["value"] for d in jd["decks"]}


def test_the_deck_given_at_start_is_offered_and_played(retail_deck_path, retail_deck):
    catalog = Catalog(StartDeck(retail_deck.name, retail_deck_path, retail_deck))
    with TestClient(create_app(catalog)) as c:
        jd = next(r for r in c.get("/api/catalog").json()["rulesets"] if r["id"] == "just-desserts")
        assert retail_deck.name in [d["value"] for d in jd["decks"]]
        dishes = next(r for r in c.get("/api/catalog").json()["rulesets"] if r["id"] == "dishes")
        assert retail_deck.name not in [d["value"] for d in dishes["decks"]]
        v = new(c, ruleset="just-desserts", players=3, deck=retail_deck.name)
        assert v["deck"] == retail_deck.name and v["to_move"] == "CHANCE"
        assert v["choices"]["count"] == len(set(retail_deck.dessert_cards())) == 76  # the first card dealt


def test_a_new_game_follows_the_choices_of_setup(client):
    v = new(client, ruleset="just-desserts", players=3, deck="jd-crowd", options=["surprise-parties"],
            rulings={"serving-size": "any", "jd.ruling.tip-count": "one-per-favourite"}, seed=7)
    assert v["players"] == 3 and v["deck"] == "jd-crowd" and v["seed"] == 7
    assert v["options"]["surprise-parties"] is True and v["options"]["poaching"] is False
    assert v["options"]["jd.ruling.serving-size"] == "any"
    assert v["options"]["jd.ruling.tip-count"] == "one-per-favourite"
    assert "serving-size=any" in v["setup"] and v["at"] == 0 and v["history"] == []


# --------------------------------------------------------------------------- playing


def test_chance_outcomes_carry_their_exact_probabilities_and_seat_moves_are_the_legal_ones(client):
    v = new(client, ruleset="just-desserts", players=2, deck="jd-rivals")
    assert v["to_move"] == "CHANCE" and v["choices"]["kind"] == "chance"
    probs = {c["move"]: Fraction(c["probability"]) for c in v["choices"]["items"]}
    assert probs == {"draw FRUIT_TART": Fraction(1, 3), "draw SPONGE": Fraction(2, 3)}
    for m in poach_moves()[:9]:
        v = client.post(f"/api/games/{v['game']}/play", json={"move": m}).json()
    assert v["to_move"] == "seat 0" and v["choices"]["kind"] == "seat"
    rules = registry.get("just-desserts")
    from tablerules.model.core import play

    setup = rules.setup(2, components=rules.load_components("jd-rivals"))
    state = play(rules, rules.new_game(setup), poach_moves()[:9])
    assert [c["move"] for c in v["choices"]["items"]] == [str(m) for m in rules.legal_moves(state)]
    assert [h["probability"] for h in v["history"]][:2] == ["1/3", "1/5"]


def test_a_move_the_rules_refuse_gets_its_clause_and_the_game_is_unchanged(client):
    v = at_poach_back(client)
    r = client.post(f"/api/games/{v['game']}/play", json={"move": POACH_BACK})
    assert "jd.surprise.no-poach-back" in one_line_error(r, 400)
    r = client.post(f"/api/games/{v['game']}/play", json={"move": "fly to the moon"})
    assert "not a move of just-desserts" in one_line_error(r, 400)
    after = client.get(f"/api/games/{v['game']}").json()
    assert after["at"] == v["at"] == 11 and after["history"] == v["history"]


def test_the_history_steps_back_and_a_move_played_there_replaces_the_rest(client):
    v = at_poach_back(client)
    gid = v["game"]
    back = client.post(f"/api/games/{gid}/goto", json={"at": 10}).json()
    assert back["at"] == 10 and back["length"] == 11 and back["to_move"] == "seat 1"
    assert "surprise with FRUIT_TART" in [c["move"] for c in back["choices"]["items"]]
    start = client.post(f"/api/games/{gid}/goto", json={"at": 0}).json()
    assert start["to_move"] == "CHANCE" and start["length"] == 11
    ahead = client.post(f"/api/games/{gid}/goto", json={"at": 11}).json()
    assert ahead["entries"] == v["entries"]
    client.post(f"/api/games/{gid}/goto", json={"at": 10})
    other = client.post(f"/api/games/{gid}/play", json={"move": "pass"}).json()
    assert other["length"] == other["at"] == 11 and other["history"][-1]["move"] == "pass"


def test_random_draws_follow_the_seed_and_the_deal_stops_where_a_seat_moves(client):
    lines = []
    for seed in (3, 3, 4):
        v = new(client, ruleset="just-desserts", players=2, deck="jd-two-suits", seed=seed)
        v = client.post(f"/api/games/{v['game']}/play", json={"random": 500}).json()
        assert v["to_move"].startswith("seat ") and all(h["actor"] == "CHANCE" for h in v["history"])
        lines.append([h["move"] for h in v["history"]])
    assert lines[0] == lines[1]
    v = new(client, ruleset="dishes", players=2, deck="2x2", seed=5)
    end = client.post(f"/api/games/{v['game']}/play", json={"random": 3000, "seats": True}).json()
    assert end["to_move"] == "TERMINAL" and end["outcome"]["summary"] and end["choices"]["kind"] == "end"


def test_two_games_at_once_do_not_disturb_each_other(client):
    a = new(client, ruleset="just-desserts", players=2, deck="jd-rivals")
    b = new(client, ruleset="just-desserts", players=2, deck="jd-rivals")
    assert a["game"] != b["game"]
    client.post(f"/api/games/{a['game']}/play", json={"move": "draw SPONGE"})
    assert client.get(f"/api/games/{b['game']}").json()["history"] == []
    assert client.get(f"/api/games/{a['game']}").json()["history"][0]["move"] == "draw SPONGE"


def test_the_store_holds_a_bounded_number_of_games_and_says_when_one_was_let_go():
    with TestClient(create_app(store=Store(limit=2))) as c:
        ids = [new(c, ruleset="dishes", players=2)["game"] for _ in range(3)]
        r = c.get(f"/api/games/{ids[0]}")
        assert "not held here any more" in one_line_error(r, 404) and r.json()["gone"] is True
        assert c.get(f"/api/games/{ids[2]}").status_code == 200
        assert len(c.app.state.workbench.store) == 2


# --------------------------------------------------------------------------- views


def test_a_seat_sees_its_own_hand_and_not_the_others(client):
    v = at_poach_back(client)
    every = dict(v["entries"])
    assert json.loads(every["hands"]) == [["FRUIT_TART", "SPONGE", "SPONGE"], ["SPONGE", "SPONGE"]]
    seat1 = dict(client.get(f"/api/games/{v['game']}?view=seat-1").json()["entries"])
    assert json.loads(seat1["hand"]) == ["SPONGE", "SPONGE"] and "hands" not in seat1
    assert "FRUIT_TART" not in seat1["hand"] and json.loads(seat1["hand_sizes"]) == [3, 2]
    r = client.get(f"/api/games/{v['game']}?view=seat-2")
    assert "not 'all' or a seat of this game" in one_line_error(r, 400)


def _line_to_a_stack(players: int, tiles: str) -> tuple[list[str], str]:
    """A seeded random line of Dishes up to the first stack of two tiles, and the tile covered there."""
    import random

    from tablerules.model.core import CHANCE, pick_by_probability

    rules = registry.get("dishes")
    state = rules.new_game(rules.setup(players, components=rules.load_components(tiles)))
    rng, moves = random.Random(4), []
    while True:
        actor = rules.to_move(state)
        move = (pick_by_probability(rules.chance_outcomes(state), rng.random()) if actor is CHANCE
                else rng.choice(rules.legal_moves(state)))
        state = rules.apply(state, move)
        moves.append(str(move))
        stacks = [v for v in rules.state_vars(state)["places"].values() if isinstance(v, (list, tuple)) and len(v) > 1]
        if stacks:
            return moves, str(stacks[0][0])


def test_a_covered_tile_is_hidden_from_the_seat_but_not_from_the_all_seeing_view(client):
    moves, covered = _line_to_a_stack(2, "3x4")
    v = new(client, ruleset="dishes", players=2, deck="3x4", moves=moves)
    assert v["notice"] == "" and v["at"] == len(moves), v["notice"]
    seat = client.get(f"/api/games/{v['game']}?view=seat-1").json()
    assert f"below: {covered}" in v["picture"] and "below: covered tile" in seat["picture"]
    assert f"below: {covered}" not in seat["picture"]
    opened = new(client, ruleset="dishes", players=2, deck="3x4", moves=moves, rulings={"covered-tiles": "open-piles"})
    assert f"below: {covered}" in client.get(f"/api/games/{opened['game']}?view=seat-1").json()["picture"]


def test_the_picture_is_the_docs_position_picture(client):
    from tablerules.pictures.positions import draw

    v = at_poach_back(client)
    assert v["picture"].startswith("<svg") and "Gardener" in v["picture"]
    rules = registry.get("just-desserts")
    assert draw.__module__ == "tablerules.pictures.positions" and rules.id in v["query"]


# --------------------------------------------------------------------------- asking


def _judge(*args: str) -> dict:
    r = run_cli("judge", *args, "--json", cwd=REPO)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("move", [POACH_BACK, "serve BAKER with FRUIT_TART+SPONGE", "pass"])
def test_asking_gives_the_answer_tablerules_judge_gives(client, move):
    v = at_poach_back(client)
    got = client.post(f"/api/games/{v['game']}/ask", json={"move": move}).json()
    want = _judge("just-desserts", str(POACH_LOG), "--move", move)
    for key in ("answer", "rulings", "departs", "alternatives_tried", "to_move", "position", "view", "step"):
        assert got[key] == want[key], key


def test_the_poach_back_answer_names_its_clause_wording_and_rulebook_lines(client):
    v = at_poach_back(client)
    a = client.post(f"/api/games/{v['game']}/ask", json={"move": POACH_BACK}).json()
    assert a["answer"]["verdict"] == "not legal" and a["answer"]["clause"] == "jd.surprise.no-poach-back"
    assert "cannot be poached back" in a["answer"]["wording"]
    assert a["rulebook"]["heading"] == "Surprise Parties" and a["rulebook"]["lines"] == [51, 51]
    assert a["rulings"] == [] and a["departs"]
    assert a["judge_command"] == "tablerules judge just-desserts LINE.itf.json --move 'poach GARDENER with FRUIT_TART'"


def test_asking_at_an_earlier_step_asks_there(client):
    v = at_poach_back(client)
    client.post(f"/api/games/{v['game']}/goto", json={"at": 0})
    a = client.post(f"/api/games/{v['game']}/ask", json={"move": "draw SPONGE"}).json()
    want = _judge("just-desserts", str(POACH_LOG), "--at", "0", "--move", "draw SPONGE")
    assert a["answer"] == want["answer"] and a["step"] == 0 and "2/3" in a["answer"]["detail"]


def test_a_ruling_that_decides_shows_every_alternative(client):
    v = at_poach_back(client)
    a = client.post(f"/api/games/{v['game']}/ask", json={"move": "serve BAKER with FRUIT_TART+SPONGE"}).json()
    size = next(r for r in a["rulings"] if r["ruling"] == "jd.ruling.serving-size")
    assert size["answers"]["minimal"]["verdict"] == "not legal" and size["answers"]["any"]["verdict"] == "legal"
    assert "extra" in a["ruling_texts"]["jd.ruling.serving-size"]["alternatives"]["any"]


# --------------------------------------------------------------------------- comparing


def test_compare_shows_where_two_alternatives_part_and_plays_on_under_both(client):
    v = at_poach_back(client)
    c = client.post(f"/api/games/{v['game']}/compare",
                    json={"ruling": "serving-size", "a": "minimal", "b": "any", "onward": []}).json()
    assert c["parts"]["step"] == 9 and c["parts"]["kind"] == "moves" and not c["parts"]["onward"]
    both = {n["move"]: (n["a"], n["b"]) for n in c["next"]}
    assert both["serve BAKER with FRUIT_TART+SPONGE"] == (None, "legal") and both["kitchen"] == ("legal", "legal")
    on = client.post(f"/api/games/{v['game']}/compare", json={
        "ruling": "serving-size", "a": "minimal", "b": "any", "onward": ["serve BAKER with FRUIT_TART+SPONGE"]}).json()
    a_side, b_side = on["sides"]
    assert "refuses step 12" in a_side["stopped"] and not b_side["stopped"] and b_side["steps"] == 12


def test_the_search_from_here_finds_the_shortest_way_on_to_a_parting(client):
    ws = client.get("/api/witnesses/just-desserts").json()
    w = next(w for w in ws if w["ruling"] == "jd.ruling.serving-size")
    v = client.post("/api/witness", json={"ruleset": "just-desserts", "key": w["key"]}).json()
    client.post(f"/api/games/{v['game']}/goto", json={"at": v["length"] - 3})
    c = client.post(f"/api/games/{v['game']}/compare",
                    json={"ruling": w["ruling"], "a": "minimal", "b": "any", "search": True}).json()
    s = c["search"]
    assert s["found"] and len(s["moves"]) <= 3 and s["pairs"] <= bounds.COMPARE_PAIRS, s
    replayed = client.post(f"/api/games/{v['game']}/compare", json={
        "ruling": w["ruling"], "a": "minimal", "b": "any", "onward": s["moves"]}).json()
    assert replayed["parts"]["step"] == v["length"] - 3 + len(s["moves"])


@pytest.mark.parametrize("ruleset", registry.ruleset_ids())
def test_every_witness_opens_at_the_position_where_its_readings_part(client, ruleset):
    """A ruling's witness, opened with one click, stands where its two alternatives part (or, for a
    gap, before the move the vector says meets it; for a trap, where no end can be reached)."""
    ws = client.get(f"/api/witnesses/{ruleset}").json()
    rules = registry.get(ruleset)
    assert ws and {w["ruling"] for w in ws} <= set(ruling_fields(rules.Options))
    parted = 0
    for w in ws:
        v = client.post("/api/witness", json={"ruleset": ruleset, "key": w["key"]}).json()
        assert "error" not in v, v
        assert v["at"] == v["length"] == w["steps"] and v["origin"]["unchanged"], w["key"]
        if w["compare"] and not v.get("pending_gap"):
            a, b = w["compare"]
            c = client.post(f"/api/games/{v['game']}/compare", json={"ruling": w["ruling"], "a": a, "b": b}).json()
            parts = c["parts"]
            assert parts is not None and parts["step"] == w["steps"], (w["key"], parts)
            assert not parts["quiet"] or "only in what a seat sees" in w["note"], (w["key"], parts)
            parted += 1
    assert parted >= len(ws) // 2


# --------------------------------------------------------------------------- export and links


def test_an_exported_line_is_a_vector_that_vectors_verify_accepts(client, tmp_path):
    v = at_poach_back(client)
    r = client.get(f"/api/games/{v['game']}/export")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    path = tmp_path / "line.itf.json"
    path.write_text(r.text)
    check = run_cli("vectors", "verify", str(path))
    assert check.returncode == 0, check.stdout + check.stderr
    doc = json.loads(r.text)
    assert doc["#meta"]["steps"] == 11 and doc["#meta"]["components"]["argument"] == "jd-rivals"
    client.post(f"/api/games/{v['game']}/goto", json={"at": 4})
    assert json.loads(client.get(f"/api/games/{v['game']}/export").text)["#meta"]["steps"] == 4


@pytest.mark.parametrize("ruleset", registry.ruleset_ids())
def test_a_golden_vector_read_and_exported_again_is_unchanged(client, ruleset):
    files = sorted((REPO / "vectors" / ruleset).glob("*.itf.json"))
    assert files
    for path in files[:: max(1, len(files) // 12)]:
        text = path.read_text()
        v = client.post("/api/load", json={"kind": "itf", "text": text, "name": path.name}).json()
        assert "error" not in v and v["origin"]["unchanged"], (path.name, v.get("error"), v.get("notice"))
        assert client.get(f"/api/games/{v['game']}/export").text == text, path.name


def test_a_loaded_vector_names_its_components_as_a_choice_so_its_link_reopens_it(client):
    text = (REPO / "vectors" / "dishes" / "3p-3x4-default-s1.itf.json").read_text()
    v = client.post("/api/load", json={"kind": "itf", "text": text, "name": "x"}).json()
    assert v["deck"] == "3x4" and ("deck", "3x4") in parse_qsl(v["query"])
    pairs = parse_qsl(v["query"])
    again = new(client, ruleset="dishes", players=3, deck="3x4", moves=[x for k, x in pairs if k == "m"])
    assert again["entries"] == v["entries"] and again["notice"] == ""


def test_a_changed_line_exports_as_the_workbench_line(client):
    text = (REPO / "vectors" / "dishes" / "2p-3x4-default-s1.itf.json").read_text()
    v = client.post("/api/load", json={"kind": "itf", "text": text, "name": "x"}).json()
    client.post(f"/api/games/{v['game']}/goto", json={"at": v["length"] - 1})
    doc = json.loads(client.get(f"/api/games/{v['game']}/export").text)
    assert doc["#meta"]["source"] == "tablerules workbench" and doc["#meta"]["steps"] == v["length"] - 1


def test_the_link_reopens_the_same_position(client):
    v = at_poach_back(client)
    client.post(f"/api/games/{v['game']}/goto", json={"at": 10})
    here = client.get(f"/api/games/{v['game']}?view=seat-1").json()
    pairs = parse_qsl(here["query"])
    keys = [k for k, _ in pairs]
    assert ("ruleset", "just-desserts") in pairs and keys.count("m") == 11 and ("at", "10") in pairs
    assert ("view", "seat-1") in pairs and [x for k, x in pairs if k == "option"] == ADVANCED
    body = {"ruleset": "just-desserts", "players": 2, "deck": "jd-rivals", "seed": 1,
            "options": [x for k, x in pairs if k == "option"], "moves": [x for k, x in pairs if k == "m"],
            "at": 10, "view": "seat-1"}
    again = new(client, **body)
    assert again["game"] != here["game"]
    for key in ("entries", "choices", "history", "query", "picture", "at", "to_move"):
        assert again[key] == here[key], key


def test_a_link_with_a_ruling_keeps_it(client):
    v = new(client, ruleset="dishes", players=3, deck="3x4", rulings={"tie-for-most": "no-loser"})
    assert ("ruling", "tie-for-most=no-loser") in parse_qsl(v["query"])


# --------------------------------------------------------------------------- loading


def test_a_text_log_is_played_on_the_chosen_setup_and_a_refused_line_says_where(client):
    log = "# the poach-back game\n" + "\n".join(poach_moves()) + "\n"
    v = client.post("/api/load", json={"kind": "log", "text": log, "ruleset": "just-desserts", "players": 2,
                                       "deck": "jd-rivals", "options": ADVANCED}).json()
    assert v["at"] == 11 and v["notice"] == "" and v["origin"]["kind"] == "log"
    bad = "\n".join(poach_moves()[:10] + [POACH_BACK, "pass"])
    v = client.post("/api/load", json={"kind": "log", "text": bad, "ruleset": "just-desserts", "players": 2,
                                       "deck": "jd-rivals", "options": ADVANCED}).json()
    assert v["at"] == 10 and "move 11 of 12" in v["notice"] and "jd." in v["notice"]


def test_a_vector_that_breaks_a_rule_loads_up_to_the_step_before(client):
    doc = json.loads(POACH_LOG.read_text())
    doc["states"][10]["#meta"]["move"] = "serve GARDENER with FRUIT_TART+SPONGE"
    v = client.post("/api/load", json={"kind": "itf", "text": json.dumps(doc), "name": "broken.json"}).json()
    assert v["at"] == 9 and "move 10 of 11" in v["notice"] and v["origin"] is None


# --------------------------------------------------------------------------- bad input


BAD = [
    ("post", "/api/games", b"{not json", 400, "not JSON the workbench reads"),
    ("post", "/api/games", b"[1, 2]", 400, "must be a JSON object"),
    ("post", "/api/games", b'{"ruleset": "dishes", "ruleset": "dishes"}', 400, 'duplicate key "ruleset"'),
    ("post", "/api/games", b"[" * 100 + b"]" * 100, 400, "nested too deeply"),
    ("post", "/api/games", b"\xff\xfe", 400, "not UTF-8"),
    ("post", "/api/games", {"ruleset": "chess"}, 400, "ruleset: choose one of dishes"),
    ("post", "/api/games", {"ruleset": "dishes", "players": 9}, 400, "9 players is not allowed"),
    ("post", "/api/games", {"ruleset": "dishes", "players": "two"}, 400, "players: expected a whole number"),
    ("post", "/api/games", {"ruleset": "dishes", "players": "\u0662"}, 400, "players: expected a whole number"),
    ("post", "/api/games", {"ruleset": "dishes", "players": "02"}, 400, "players: expected a whole number"),
    ("post", "/api/games", {"ruleset": "dishes", "seed": " 1"}, 400, "seed: expected a whole number"),
    ("post", "/api/games", {"ruleset": "dishes", "seed": "\uff11"}, 400, "seed: expected a whole number"),
    ("post", "/api/games", {"ruleset": "dishes", "seed": "1_0"}, 400, "seed: expected a whole number"),
    ("post", "/api/games", {"ruleset": "dishes", "view": "seat-\u0661"}, 400, "not 'all' or a seat"),
    ("post", "/api/games", {"ruleset": "dishes", "view": "seat-01"}, 400, "not 'all' or a seat"),
    ("post", "/api/games", {"ruleset": "dishes", "rulings": {"nosuch": "x"}}, 400, "unknown ruling"),
    ("post", "/api/games", {"ruleset": "dishes", "rulings": {"tie-for-most": "x"}}, 400, "unknown alternative"),
    ("post", "/api/games", {"ruleset": "dishes", "options": ["poaching"]}, 400, "unknown option"),
    ("post", "/api/games", {"ruleset": "just-desserts", "deck": "/etc/passwd"}, 400, "not one of just-desserts's"),
    ("post", "/api/games", {"ruleset": "just-desserts", "deck": "../spec/decks/jd-rivals"}, 400, "not one of"),
    ("post", "/api/games", {"ruleset": "just-desserts", "deck": "spec/decks/jd-rivals.json"}, 400, "not one of"),
    ("post", "/api/games", {"ruleset": "dishes", "deck": "9x9"}, 400, "dishes tiles"),
    ("post", "/api/games", {"ruleset": "dishes", "seed": -1}, 400, "seed: -1 is not from 0"),
    ("post", "/api/games", {"ruleset": "dishes", "moves": "turn 0.soup"}, 400, "expected a list of moves"),
    ("post", "/api/games", {"ruleset": "dishes", "moves": [1]}, 400, "expected a move as text"),
    ("post", "/api/games", {"ruleset": "dishes", "moves": ["x" * 500]}, 413, "longer than 400 characters"),
    ("post", "/api/games", {"ruleset": "dishes", "moves": ["pass"] * 3001}, 413, "more than 3,000 moves"),
    ("post", "/api/games", {"ruleset": "dishes", "at": 5}, 400, "at: 5 is not from 0 to 0"),
    ("post", "/api/games", {"ruleset": "dishes", "view": "seat-7"}, 400, "not 'all' or a seat"),
    ("post", "/api/load", {"kind": "zip", "text": "x"}, 400, "kind: 'itf'"),
    ("post", "/api/load", {"kind": "itf", "text": "{}"}, 400, "#meta"),
    ("post", "/api/load", {"kind": "itf", "text": "[]"}, 400, "expected a JSON object"),
    ("post", "/api/load", {"kind": "itf", "text": '{"#meta": {"ruleset": "chess"}, "states": [{}]}'}, 400,
     "is not a rule set here"),
    ("post", "/api/load", {"kind": "itf", "text": json.dumps({
        "#meta": {"ruleset": "just-desserts", "players": 2, "components": {"name": "x", "argument": "/etc/passwd"}},
        "states": [{}]})}, 400, "not a deck this workbench knows"),
    ("post", "/api/load", {"kind": "itf", "text": json.dumps({
        "#meta": {"ruleset": "dishes", "players": 2}, "states": [{}, {"#meta": {}}]})}, 400, "move: missing"),
    ("post", "/api/load", {"kind": "log", "text": "pass\n", "ruleset": "dishes", "players": 5}, 400,
     "5 players is not allowed"),
    ("post", "/api/witness", {"ruleset": "dishes", "key": "nosuch/1"}, 400, "no such witness trace"),
    ("get", "/api/witnesses/chess", None, 400, "ruleset: choose one of"),
    ("get", "/api/games/nosuchgame", None, 404, "not held here any more"),
    ("post", "/api/games/nosuchgame/play", {"move": "pass"}, 404, "not held here any more"),
    ("get", "/api/nothing/here", None, 404, "no such page"),
    ("put", "/api/games", {}, 405, "PUT is not taken here"),
]


@pytest.mark.parametrize("method, path, body, status, needle", BAD, ids=[f"{i}-{b[1]}" for i, b in enumerate(BAD)])
def test_bad_input_gets_a_one_line_message_never_a_server_error(client, method, path, body, status, needle):
    kwargs = {"content": body} if isinstance(body, bytes) else {} if body is None else {"json": body}
    r = client.request(method.upper(), path, **kwargs)
    assert needle in one_line_error(r, status)


def test_bad_input_about_a_game_is_one_line_and_leaves_it_as_it_was(client):
    v = at_poach_back(client)
    gid = v["game"]
    for path, body, needle in [
        ("play", {"move": ""}, "say which move"), ("play", {"move": 5}, "move: expected text"),
        ("play", {"random": 0}, "random: 0 is not from 1"), ("goto", {"at": 12}, "not a step of this line"),
        ("goto", {"at": "x"}, "expected a whole number"), ("ask", {"move": "fly"}, "not a move of just-desserts"),
        ("ask", {}, "move: missing"), ("compare", {"ruling": "nosuch", "a": "x", "b": "y"}, "not a ruling"),
        ("compare", {"ruling": "serving-size", "a": "any", "b": "any"}, "two different alternatives"),
        ("compare", {"ruling": "serving-size", "a": "any", "b": "most"}, "not one of its alternatives"),
    ]:
        assert needle in one_line_error(client.post(f"/api/games/{gid}/{path}", json=body), 400), path
    after = client.get(f"/api/games/{gid}").json()
    assert after["history"] == v["history"] and after["at"] == 11


def test_a_request_over_the_size_bound_is_refused_before_it_is_read(client):
    big = b'{"kind": "itf", "text": "' + b"x" * (bounds.MAX_BODY_BYTES + 10) + b'"}'
    assert "larger than 4 MiB" in one_line_error(client.post("/api/load", content=big), 413)


def test_an_error_nobody_expected_is_one_line_without_a_traceback(client, monkeypatch):
    from tablerules.workbench import app as app_module

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a fault planted by the test")

    monkeypatch.setattr(app_module, "answer_view", broken)
    v = at_poach_back(client)
    message = one_line_error(client.post(f"/api/games/{v['game']}/ask", json={"move": POACH_BACK}), 500)
    assert "ZeroDivisionError" in message and "report it" in message


def test_the_page_and_its_files_come_from_here_only(client):
    r = client.get("/")
    assert r.status_code == 200 and "default-src 'self'" in r.headers["content-security-policy"]
    for name in ("index.html", "workbench.js", "workbench.css"):
        text = (STATIC / name).read_text()
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, name
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../app.py").status_code == 404


def test_a_host_name_other_than_this_machine_is_refused_when_the_command_says_so():
    with TestClient(create_app(allowed_hosts=["127.0.0.1", "localhost"]), base_url="http://evil.example") as c:
        assert c.get("/api/catalog").status_code == 400
    with TestClient(create_app(allowed_hosts=["127.0.0.1", "localhost"]), base_url="http://127.0.0.1:8150") as c:
        assert c.get("/api/catalog").status_code == 200
