"""The just-desserts proofs and explorations: results match proofs/manifests/just_desserts.toml."""

from __future__ import annotations

import json

import pytest

from tablerules.model.core import CHANCE, TERMINAL, play
from tablerules.model.decks import embedded_deck
from tablerules.model.just_desserts import RULES, Options
from tablerules.proofs.just_desserts import check
from tablerules.proofs.just_desserts import proofs
from tablerules.proofs.checks import Context, explore_result, manifest
from tablerules.proofs.explorer import Budget, explore, finding_traces, graph_analysis
from tablerules.spec import load_spec

EXPECTED = manifest("just-desserts")


def test_max_guests_without_win_is_eight_and_the_core_names_both_win_clauses():
    """jd.win.three-of-a-suit, jd.win.five-suits."""
    r = proofs.max_guests_without_win()
    assert r.status == r.expected() == EXPECTED["max-guests-without-win"]["expected"]
    assert r.data["max"] == 8
    assert set(r.data["core"]) == {"jd.win.three-of-a-suit", "jd.win.five-suits"}
    assert proofs.most_guests_without_win(3, 3)[0] == 6  # three suits: two of each


def test_guest_supply_runs_dry_only_with_three_players_or_more():
    """jd.reshuffle.guests, jd.ruling.guest-supply-empty."""
    r = proofs.guest_supply_players()
    assert r.status == r.expected()
    assert r.data["possible"] == {2: False, 3: True, 4: True, 5: True}
    assert proofs.supply_exhausted_possible(2, 2, 3)  # the two-suit teaching deck: 2 players can


@pytest.mark.parametrize("name", ["jd-two-suits", "jd-one-suit", "jd-rivals", "jd-crowd"])
def test_deck_facts_on_teaching_decks(name):
    for r in proofs.deck_facts(embedded_deck(name), name):
        assert r.status == r.expected(), r.name


def test_deck_facts_on_the_retail_deck(retail_deck):
    for r in proofs.deck_facts(retail_deck, "retail"):
        assert r.status == r.expected(), (r.name, r.detail)


def test_a_deck_fact_can_fail(tmp_path):
    data = json.loads(proofs.witness_path().parent.parent.joinpath("decks", "jd-rivals.json").read_text())
    data["guests"][0]["refuses"] = ["Fruit"]  # the Baker now refuses its own favourite, the Fruit tart
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    from tablerules.model.decks import load_deck

    facts = {r.name.split("@")[0]: r for r in proofs.deck_facts(load_deck(path), "bad")}
    assert facts["favourites-satisfy"].status == "fails" and "Baker" in facts["favourites-satisfy"].detail


def test_answer_order_witness_is_saved_and_replays():
    """jd.ruling.answer-order, jd.surprise.first-offered: the saved witness is what a fresh search finds."""
    r = proofs.answer_order()
    assert r.status == r.expected() == "depends on order"
    saved = json.loads(proofs.witness_path().read_text(encoding="utf-8"))
    assert saved == json.loads(json.dumps(r.data["witness"]))
    setup = RULES.setup(3, Options(poaching=True, buffet=True, surprise_parties=True), embedded_deck("jd-crowd"))
    for label, w in saved["witnesses"].items():
        s = play(RULES, RULES.new_game(setup), w["moves"])
        assert RULES.to_move(s) is CHANCE and list(s.answerers) == w["race"]["answerers"], label
        holders = {}
        for first, answers in w["branches"].items():
            for move, holder in answers.items():
                t = play(RULES, s, [first, move])
                assert t.claimed[holder] and w["race"]["guest"] in t.claimed[holder]
                holders.setdefault(first, set()).add(holder)
        assert len({frozenset(v) for v in holders.values()}) > 1
    assert "a block and a surprise" in saved["witnesses"]


def test_basic_game_explored_to_the_end_on_jd_rivals():
    """Every reachable state can reach an end; no invariant broken; both seats can win (a draw only
    by jd.ruling.score-full-tie after the publisher's scoring)."""
    setup = RULES.setup(2, Options(), embedded_deck("jd-rivals"))
    ex = explore(RULES, [RULES.new_game(setup)], keep_graph=True)
    assert ex.complete and not finding_traces(ex)
    gr = graph_analysis(ex)
    assert gr.traps == 0 and ex.terminals > 0
    assert (
        {"winner 0; loser 1", "winner 1; loser 0"}
        <= set(ex.outcomes)
        <= {"winner 0; loser 1", "winner 1; loser 0", "draw"}
    )


def test_play_on_alternative_has_traps_the_default_avoids():
    """jd.ruling.all-guests-claimed: the evidence finds traps; the saved witness is fresh and replays."""
    r = check._play_on_traps()
    assert r.status == r.expected() == "traps"
    saved = json.loads(proofs.witness_path().parent.joinpath(proofs.TRAP_WITNESS).read_text(encoding="utf-8"))
    for label, w in saved["witnesses"].items():
        setup = RULES.setup(
            2, Options(all_claimed="play-on", buffet=w["options"]["buffet"]), embedded_deck("jd-rivals")
        )
        end = play(RULES, RULES.new_game(setup), w["moves"])
        assert RULES.state_vars(end) == w["last_state"], label


def test_endless_play_is_told_apart_from_play_that_can_never_end():
    """proofs/endless.py on jd-rivals, 2 players: under the defaults play can go round (a kitchen
    with no dessert left, a guest leaving and another turning up) but an end is always
    reachable; under jd.ruling.all-guests-claimed=play-on it finds a closed set, with a trace
    to it and a loop inside it that replay."""
    from tablerules.proofs.endless import CLOSED, CYCLE, endless_play

    deck = embedded_deck("jd-rivals")
    default = endless_play(RULES, RULES.setup(2, Options(), deck), "default", 20_000)
    assert default.complete and default.count(CYCLE) > 0 and default.count(CLOSED) == 0, default.summary()
    play_on = endless_play(RULES, RULES.setup(2, Options(all_claimed="play-on"), deck), "play-on", 20_000)
    assert play_on.complete and play_on.count(CLOSED) > 0, play_on.summary()
    closed = play_on.nearest(CLOSED)
    setup = RULES.setup(2, Options(all_claimed="play-on"), deck)
    there = play(RULES, RULES.new_game(setup), [st.move for st in closed.trace])
    back = play(RULES, there, list(closed.loop))
    assert closed.loop and RULES.to_move(back) is not TERMINAL
    assert RULES.state_vars(RULES.symmetries["twins"](back)) == RULES.state_vars(RULES.symmetries["twins"](there))


def test_a_search_cut_by_its_budget_gives_no_verdict():
    from tablerules.proofs.endless import endless_play

    r = endless_play(RULES, RULES.setup(2, Options(poaching=True), embedded_deck("jd-rivals")), "cut", 500)
    assert not r.complete and r.components == {} and r.summary().startswith("incomplete")


@pytest.mark.slow
def test_strict_mode_reaches_every_strict_ruling_and_only_registered_gaps():
    r = check._strict(Context())
    assert r.ok, r.rows
    rows = dict(r.rows)
    assert rows["strict rulings never reached"] == "none"
    assert "dessert-supply-empty after" in rows["dessert-supply-empty"]
    assert "answer-order after" in rows["answer-order"]


def test_every_registered_ruling_with_a_witness_file_points_at_a_real_file():
    spec = load_spec("just-desserts")
    files = [e.file for r in spec.rulings.values() for e in r.evidence if e.file]
    assert files
    for f in files:
        assert proofs.witness_path().parent.parent.joinpath(*f.split("/")[1:]).exists(), f


def test_check_items_cover_the_defaults():
    names = [i.name for i in check.checks(Context(quick=True))]
    assert any("jd-two-suits" in n for n in names) and any("alone and together" in n for n in names)
    assert "prove max-guests-without-win" in names and "prove answer-order-matters" in names
    assert len(check.variant_combinations()) == 8 and len(check.check_combinations()) == 8


@pytest.mark.slow
@pytest.mark.parametrize("ruling_id, alternative", check.advanced_alternatives())
def test_advanced_ruling_alternatives_explored_to_the_end(ruling_id, alternative):
    """The alternatives `tablerules check` leaves out (jd.ruling.victim-tip-on-surprise, ...), with Poaching and
    Surprise Parties."""
    r = check.explore_alternative(ruling_id, alternative, Context(), dict(poaching=True, surprise_parties=True))
    assert r.ok and "complete" in r.summary
    assert dict(r.rows)["every state can reach an end"] == "yes"


def test_basic_alternatives_are_listed_for_the_check():
    listed = check.basic_alternatives()
    assert ("jd.ruling.serving-size", "any") in listed and ("jd.ruling.guest-supply-empty", "draw-game") in listed
    assert all(alt != "strict" for _, alt in listed)


def test_endless_play_is_found_with_play_on_and_not_with_the_default():
    """jd.ruling.no-serving-possible: on jd-famine, play-on reaches a set of states play can never leave
    (a bottom strongly connected component without an end); the saved witness is fresh and replays."""
    r = check._endless_play()
    assert r.status == r.expected() == "play-on never ends; default ends"
    saved = json.loads(proofs.witness_path().parent.joinpath(proofs.ENDLESS_WITNESS).read_text(encoding="utf-8"))
    w = saved["witnesses"]["basic game"]
    setup = RULES.setup(2, Options(no_serving="play-on"), embedded_deck("jd-famine"))
    end = play(RULES, RULES.new_game(setup), w["moves"])
    assert RULES.state_vars(end) == w["last_state"]
    closed, complete = proofs.closed_sets(RULES, end, 2_000)
    assert complete and closed and all(RULES.outcome(s) is None for s in closed[0])
    default_end = play(RULES, RULES.new_game(RULES.setup(2, Options(), embedded_deck("jd-famine"))), w["moves"])
    assert proofs.closed_sets(RULES, default_end, 2_000) == ([], True)


@pytest.mark.slow
def test_the_endless_play_table_does_not_depend_on_the_hash_seed():
    """proofs/endless.py names the nearest cycle by its trace; among cycles as near as each other
    the first found is named, never whichever a set happens to yield first (string hashing is
    salted per process, so two runs of `tablerules check` must still print the same table)."""
    import os
    import subprocess
    import sys

    script = ("from tablerules.model import registry; from tablerules.model.decks import embedded_deck; "
              "from tablerules.proofs.endless import endless_play; r = registry.get('just-desserts'); "
              "e = endless_play(r, r.setup(2, r.Options(), embedded_deck('jd-rivals')), 'basic', 20_000); "
              "print([(k, c.states, [str(x) for x in c.trace], c.loop) for k, cs in e.components.items() for c in cs])")
    outs = set()
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        run = subprocess.run([sys.executable, "-P", "-c", script], env=env, capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stderr[-2000:]
        outs.add(run.stdout)
    assert len(outs) == 1, "\n----\n".join(sorted(outs))
