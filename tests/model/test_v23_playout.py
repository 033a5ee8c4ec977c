"""The compiled random playout of Just Desserts 2.3 (model/just_desserts/v23_playout.py)
against the model: move by move, step by step and in distribution.

* Every game replays on the model (model/playout.py's ``replay_problem``) and, more
  strictly, at every seat step the compiled loop chose among as many moves as
  ``legal_moves`` lists (the move among them), and at every chance step drew an outcome
  ``chance_outcomes`` offers with its probability (proofs/just_desserts/v23_playout_check.py,
  ``step_problem``): on the teaching decks with every non-strict ruling alternative, and
  on the retail deck (TABLERULES_RETAIL_DECK).
* Win shares agree with the exact values of random play (the absorbing Markov chain over
  the reachable states, solved here) within five standard errors, and with the step API's.
* Under each strict ruling a game stops where v23.py raises its RuleGap (the last action
  refused by ``apply``, or all applied and the next chance outcomes refused: WHERE), as
  often as through the step API; all seven strict rulings together stop at the model's
  first gap.
* Planted faults (a wrong deck table, a wrong ruling constant, a lost or moved strict bit)
  are caught.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import random

import numpy as np
import pytest

from tablerules.model.core import CHANCE, TERMINAL, RuleGap, strict_options
from tablerules.model.decks import embedded_deck
from tablerules.model.just_desserts import v23 as jd
from tablerules.model.just_desserts import v23_loops as loops
from tablerules.model.just_desserts import v23_playout as fast
from tablerules.model.playout import (Playout, compiled, iter_games, random_playouts, replay_problem, standard_errors,
                                      step_playouts)
from tablerules.proofs.just_desserts.v23_playout_check import _one_step, alternatives, playout_check_item, step_problem
from tablerules.proofs.checks import FAIL, PASS, Context

RULES = jd.RULES

MIXED = (
    jd.Options(
        spare_desserts="any", two_favourites="card-per-favourite", simultaneous_mistaken="penalty", race_odds="equal",
        penalty_taker="maitre-d", penalty_pile="taker",
    ),
    jd.Options(
        favourite_with_others="alone-only", kitchen_check="when-everyone-draws", guest_pile_empty="at-last-turn-up",
        full_tie="shared-win", penalty_pile="out-of-play", simultaneous_mistaken="penalty",
    ),
)
"""Alternatives mixed with the favourite trump on (alternatives(1) turns it off)."""
OPTION_SETS = {"defaults": alternatives(0), "alternatives-1": alternatives(1), "alternatives-2": alternatives(2),
               "mixed-a": MIXED[0], "mixed-b": MIXED[1]}
TEACHING = [("v23-tiny", 2), ("v23-crowd", 2), ("v23-tips", 2), ("v23-tips", 3), ("v23-tips", 4)]


def _start(deck, players, options=None):
    return RULES.new_game(
        RULES.setup(players, options or jd.Options(), deck if not isinstance(deck, str) else embedded_deck(deck))
    )


def _stepped(start, games, seed):
    """The compiled games step by step against the model; returns the games as Playouts."""
    out = []
    book = fast.codebook(fast.tables(start.setup.components))
    for batch in fast.play_batches(start, games, seed, debug=True):
        assert (problem := step_problem(start, batch)) is None, problem
        a = 0
        for b in batch.ends.tolist():
            out.append([book[c] for c in batch.codes[a:b].tolist()])
            a = b
    return out


def test_every_non_strict_alternative_is_in_a_sample():
    """... every one the loop plays; the others (found by the independent reading) are refused by name."""
    for f in dataclasses.fields(jd.Options):
        skipped = fast.NOT_COMPILED.get(f.metadata["ruling"])
        wanted = {a for a in f.metadata["alternatives"] if a not in ("strict", skipped)}
        assert wanted <= {getattr(o, f.name) for o in OPTION_SETS.values()}, f.name


@pytest.mark.parametrize("ruling,value", sorted(fast.NOT_COMPILED.items()))
def test_an_alternative_the_loop_does_not_play_is_left_to_the_step_api(ruling, value):
    name = next(f.name for f in dataclasses.fields(jd.Options) if f.metadata["ruling"] == ruling)
    setup = jd.RULES.setup(3, jd.Options(**{name: value}), embedded_deck("v23-tips"))
    assert not fast.available(setup)
    assert fast.available(jd.RULES.setup(3, jd.Options(), embedded_deck("v23-tips")))


# --------------------------------------------------------------------------- the deck's servings


@pytest.mark.parametrize("deck_name", ["v23-tiny", "v23-tips", "v23-crowd"])
def test_compiled_servings_are_the_models(deck_name, request):
    _servings_agree(embedded_deck(deck_name), seed=1)


def test_compiled_servings_are_the_models_on_the_retail_deck(retail_deck):
    _servings_agree(retail_deck, seed=2)


def _servings_agree(deck, seed):
    """For random hands of every size up to 14 and every guest: the same servings as the
    model lists (jd23.ruling.spare-desserts both ways), each with as many favourites."""
    tab = fast.tables(deck)
    di = tab.dessert_index()
    rng = random.Random(seed)
    cards = deck.dessert_cards()
    T = len(tab.desserts)
    kinds, counts = np.zeros(T, dtype=np.int64), np.zeros(T, dtype=np.int64)
    out = np.zeros((T + T * (T + 1) // 2 + T * (T + 1) * (T + 2) // 6, 3), dtype=np.int64)
    for _ in range(150):
        hand = tuple(sorted(rng.sample(cards, rng.randint(0, min(14, len(cards))))))
        counts_in = np.zeros(T, dtype=np.int32)
        for c in hand:
            counts_in[di[c]] += 1
        for gi, guest in enumerate(tab.guests):
            for minimal in (True, False):
                k = loops.servings(counts_in, gi, tab.refuses, tab.wants, tab.full, minimal, kinds, counts, out)
                mine = sorted(tuple(tab.desserts[t] for t in row if t >= 0) for row in out[:k].tolist())
                theirs = sorted(jd._servings(deck, hand, guest, minimal))
                assert mine == theirs, (hand, guest, minimal)
                for alone in (False, True):
                    options = jd.Options(favourite_with_others="alone-only" if alone else "counts")
                    got = [loops.favourites_in(out, r, gi, tab.fav, alone) for r in range(k)]
                    want = [jd.favourites_served(deck, tuple(tab.desserts[t] for t in row if t >= 0), guest, options)
                            for row in out[:k].tolist()]
                    assert got == want


# --------------------------------------------------------------------------- every step as the model lists it


@pytest.mark.parametrize("label", list(OPTION_SETS))
@pytest.mark.parametrize("deck_name,players", TEACHING, ids=[f"{d}-{n}p" for d, n in TEACHING])
def test_every_step_is_one_the_model_offers_on_the_teaching_decks(deck_name, players, label):
    start = _start(deck_name, players, OPTION_SETS[label])
    assert compiled(RULES, start.setup)
    games = random_playouts(RULES, start, 300, seed=players)
    assert replay_problem(RULES, start, games) is None, replay_problem(RULES, start, games)
    assert len({g.moves for g in games}) > 250  # the games differ
    _stepped(start, 40, seed=players)


def test_every_kind_of_move_is_played():
    """Over the sampled rulings, the compiled games take every kind of move the model has:
    the trump and its answer, failures, ties, penalties and the favourite's extra cards."""
    seen = set()
    for options in OPTION_SETS.values():
        for g in random_playouts(RULES, _start("v23-tiny", 2, options), 2000, seed=5):
            seen.update(
                type(m).__name__ + ("-tie" if isinstance(m, jd.Race) and m.seat is None else "") for m in g.moves
            )
    assert seen == {"Call", "Pass", "Favourite", "Serve", "Fail", "TurnUp", "Race", "Race-tie", "Penalty", "Draw"}


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_step_is_one_the_model_offers_on_the_retail_deck(retail_deck, players):
    for options in (jd.Options(), alternatives(1), MIXED[0]):
        start = _start(retail_deck, players, options)
        games = random_playouts(RULES, start, 40, seed=players)
        assert replay_problem(RULES, start, games) is None, replay_problem(RULES, start, games)
        _stepped(start, 8, seed=players)


# --------------------------------------------------------------------------- distributions


def _dealt(options, pick):
    """v23-tiny, two players, after a deal chosen by ``pick`` (a mid-game start: the whole
    game from the shuffle has too many states to solve densely)."""
    s = _start("v23-tiny", 2, options)
    i = 0
    while s.phase == jd.DEAL:  # the deal, one fixed card at a time
        outcomes = RULES.chance_outcomes(s)
        s = RULES.apply(s, outcomes[(i * 7 + pick * 3) % len(outcomes)][0])
        i += 1
    return s


def exact_shares(start):
    """Per seat the probability of being among the winners, and of a game with no winner,
    under random play from ``start``: the absorbing Markov chain over the states reachable
    through the step API (X = Q X + R), solved with numpy: densely where it is small, else
    by iterating X = Q X + R over the sparse edges until it stands still (the chain is
    absorbing, so the iteration converges; on an acyclic graph it is exact after as many
    rounds as the longest game)."""
    n = start.setup.players
    index, order = {start: 0}, [start]
    edges = []
    for i, s in enumerate(order):  # grows while it is read: breadth first
        actor = RULES.to_move(s)
        if actor is TERMINAL:
            continue
        step = (
            RULES.chance_outcomes(s)
            if actor is CHANCE
            else [(m, 1 / len(RULES.legal_moves(s))) for m in RULES.legal_moves(s)]
        )
        for move, p in step:
            t = RULES.apply(s, move)
            if t not in index:
                index[t] = len(order)
                order.append(t)
            edges.append((i, index[t], float(p)))
    N = len(order)
    r = np.zeros((N, n + 1))
    for i, s in enumerate(order):
        if RULES.to_move(s) is TERMINAL:
            won = RULES.outcome(s).winners
            r[i, :n] = [seat in won for seat in range(n)]
            r[i, n] = not won
    src, dst, p = (np.array(c) for c in zip(*edges))
    if N <= 4000:
        q = np.zeros((N, N))
        np.add.at(q, (src, dst), p)
        return np.linalg.solve(np.eye(N) - q, r)[0]
    x = r.copy()
    for _ in range(10_000):
        nxt = r.copy()
        np.add.at(nxt, src, p[:, None] * x[dst])
        if np.array_equal(nxt, x):
            break
        x = nxt
    else:
        raise AssertionError("the iteration did not settle")
    return x[0]


def _shares(games, n):
    return [sum(seat in g.winners for g in games) / len(games) for seat in range(n)] + [
        sum(not g.winners for g in games) / len(games)
    ]


@pytest.mark.parametrize(
    "label,pick", [("defaults", 0), ("defaults", 3), ("alternatives-1", 1), ("mixed-a", 2), ("mixed-b", 0)]
)
def test_compiled_win_shares_are_the_exact_values_of_random_play(label, pick):
    start = _dealt(OPTION_SETS[label], pick)
    exact = exact_shares(start)
    games = random_playouts(RULES, start, 40_000, seed=pick)
    seen = _shares(games, 2)
    for share, value in zip(seen, exact):
        assert abs(standard_errors(share, float(value), len(games))) <= 5, (seen, exact.tolist())


@pytest.mark.slow
def test_compiled_win_shares_are_the_exact_values_from_the_shuffle():
    """v23-tiny, two players, the whole game from the shuffle (the deal included: some 87,000 states)."""
    start = _start("v23-tiny", 2)
    exact = exact_shares(start)
    games = random_playouts(RULES, start, 40_000, seed=9)
    seen = _shares(games, 2)
    for share, value in zip(seen, exact):
        assert abs(standard_errors(share, float(value), len(games))) <= 5, (seen, exact.tolist())


@pytest.mark.slow
def test_compiled_win_shares_are_the_step_apis_on_a_larger_deck():
    """v23-tips, three players from the shuffle: the compiled shares against the step API's
    (a two-sample comparison, within five standard errors of the difference)."""
    start = _start("v23-tips", 3, MIXED[0])
    ours = _shares(random_playouts(RULES, start, 30_000, seed=1), 3)
    theirs = _shares(list(step_playouts(RULES, start, 2_000, seed=1)), 3)
    for a, b in zip(ours, theirs):
        p = (a * 30_000 + b * 2_000) / 32_000
        spread = math.sqrt(p * (1 - p) * (1 / 30_000 + 1 / 2_000))
        assert abs(a - b) <= 5 * spread, (ours, theirs)


# --------------------------------------------------------------------------- planted faults


def _planted(start, games=300, seed=1, **changes):
    """Games of a kernel with a planted fault (``tab_*`` replaces a deck table, ``prm``
    the rulings' constants), decoded with the true codebook."""
    tab = fast.tables(start.setup.components)
    prm = changes.pop("prm", None)
    if changes:
        tab = dataclasses.replace(tab, **changes)
    book = fast.codebook(fast.tables(start.setup.components))
    batches = list(fast.play_batches(start, games, seed, debug=True, prm=prm, tab=tab))
    playouts = []
    for batch in batches:
        a = 0
        for b, mask, gap in zip(batch.ends.tolist(), batch.winners.tolist(), batch.gaps.tolist()):
            playouts.append(Playout(tuple(book[c] for c in batch.codes[a:b].tolist()),
                                    winners=frozenset(s for s in range(8) if mask >> s & 1),
                                    gap=loops.GAPS[gap] if gap >= 0 else ""))
            a = b
    return playouts, batches


def test_a_wrong_taste_table_is_caught_by_the_replay():
    """Fudge planted as showing every taste Berry Belle wants: the loop serves it alone,
    which the model refuses (jd23.satisfy.tastes)."""
    start = _start("v23-tiny", 2)
    tab = fast.tables(start.setup.components)
    wants = tab.wants.copy()
    wants[tab.guest_index()["BELLE"], tab.dessert_index()["FUDGE"]] = tab.full[tab.guest_index()["BELLE"]]
    games, batches = _planted(start, wants=wants)
    problem = replay_problem(RULES, start, games)
    assert problem is not None and "refused" in problem
    assert any(step_problem(start, b) for b in batches)


def test_a_lost_favourite_is_caught():
    """Berry Belle's tart planted as no favourite: the trump answers and the extra card part."""
    start = _start("v23-tiny", 2)
    tab = fast.tables(start.setup.components)
    fav = tab.fav.copy()
    fav[tab.guest_index()["BELLE"], tab.dessert_index()["TART"]] = 0
    games, batches = _planted(start, fav=fav)
    assert replay_problem(RULES, start, games) is not None
    assert any(step_problem(start, b) for b in batches)


def test_wrong_race_odds_are_caught_step_by_step():
    """Equal odds planted where the rulings say one in ten: every outcome is still one the
    model offers (the replay cannot tell), but not with its probability."""
    start = _start("v23-tiny", 2)
    prm = fast.params(start.setup)
    prm[loops.P_EQUAL_ODDS] = 1
    games, batches = _planted(start, prm=prm)
    assert replay_problem(RULES, start, games) is None
    problems = [p for b in batches if (p := step_problem(start, b))]
    assert problems and "probability" in problems[0]


def test_wrong_race_odds_move_the_win_shares_off_the_exact_values():
    """The same planted odds, seen by the distribution test alone: with ties three times as
    likely the share of drawn games lies many standard errors off."""
    start = _dealt(OPTION_SETS["defaults"], 0)
    exact = exact_shares(start)
    prm = fast.params(start.setup)
    prm[loops.P_EQUAL_ODDS] = 1
    games, _ = _planted(start, games=40_000, seed=3, prm=prm)
    errors = [standard_errors(share, float(value), len(games)) for share, value in zip(_shares(games, 2), exact)]
    assert max(abs(e) for e in errors) > 5, errors


def test_a_wrong_spare_desserts_constant_is_caught():
    start = _start("v23-tiny", 2)
    prm = fast.params(start.setup)
    prm[loops.P_MINIMAL] = 0
    games, batches = _planted(start, prm=prm)
    assert replay_problem(RULES, start, games) is not None
    problems = [p for b in batches if (p := step_problem(start, b))]
    assert problems and "chose among" in problems[0]


def test_the_check_item_passes_and_finds_a_planted_fault(monkeypatch):
    result = playout_check_item().run(Context(quick=True, scale=0.2))
    assert result.status == PASS, result.rows
    real = fast.params

    def no_trump(setup):
        prm = real(setup)
        prm[loops.P_TRUMP] = 0
        return prm

    monkeypatch.setattr(fast, "params", no_trump)
    result = playout_check_item().run(Context(quick=True, scale=0.2))
    assert result.status == FAIL


# --------------------------------------------------------------------------- seeds, states, limits


def test_a_seed_gives_the_same_games_and_another_seed_others():
    start = _start("v23-tips", 3)
    a = random_playouts(RULES, start, 50, seed=11)
    assert a == random_playouts(RULES, start, 50, seed=11)
    assert a != random_playouts(RULES, start, 50, seed=12)
    assert random_playouts(RULES, start, 50, seed=-11) != a
    assert random_playouts(RULES, start, 0, seed=11) == []


def test_the_games_do_not_depend_on_how_the_buffer_splits_them():
    """Over two batches of games (fast.BATCH), in one compiled call or one per game."""
    start = _start("v23-tiny", 2)
    games = fast.BATCH + 30
    whole = [b.codes.tolist() for b in fast.play_batches(start, games, 3)]
    split = [b for b in fast.play_batches(start, games, 3, buffer=1)]
    assert len(split) == games
    assert list(itertools.chain(*whole)) == list(itertools.chain(*(b.codes.tolist() for b in split)))


def test_a_game_longer_than_its_capacity_is_refused_not_overrun():
    start = _start("v23-tiny", 2)
    tab, prm = fast.tables(start.setup.components), fast.params(start.setup)
    codes = np.zeros(5, dtype=np.int32)
    ends, winners = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    gaps = np.zeros(1, dtype=np.int64)
    played, used = loops.play(*fast.encode(start, tab), prm, tab.refuses, tab.wants, tab.full, tab.fav, 1, rng,
                              codes, codes, np.zeros(1), False, ends, winners, gaps, 5)
    assert played == loops.REFUSED and used == 5
    played, used = loops.play(*fast.encode(start, tab), prm, tab.refuses, tab.wants, tab.full, tab.fav, 1, rng,
                              codes, codes, np.zeros(1), False, ends, winners, gaps, 6)
    assert played == 0  # the game does not start: its longest would not fit


def _states_by_phase(options, deck="v23-tiny", players=2):
    """One state of every phase, from games played through the step API."""
    found = {}
    for g in step_playouts(RULES, _start(deck, players, options), 400, seed=2):
        s = _start(deck, players, options)
        for m in g.moves:
            found.setdefault(s.phase, s)
            s = RULES.apply(s, m)
        found.setdefault(s.phase, s)
        if len(found) == len(jd.PHASES):
            break
    return found


@pytest.mark.parametrize("label", ["defaults", "mixed-a"])
def test_play_goes_on_from_any_state(label):
    """From a state of every phase (mid-deal, waiting on the race, in the trump, at a
    penalty, mid-draw, over): every game follows the model step by step."""
    states = _states_by_phase(OPTION_SETS[label])
    assert set(states) == set(jd.PHASES)
    for phase, s in states.items():
        games = random_playouts(RULES, s, 30, seed=1)
        assert replay_problem(RULES, s, games) is None, (phase, replay_problem(RULES, s, games))
        _stepped(s, 10, seed=1)
        if phase == jd.OVER:
            assert all(g.moves == () for g in games)
            assert games[0].winners == RULES.outcome(s).winners


def test_strict_rulings_are_compiled():
    """Every strict alternative is played by the compiled loop (to its gap); all of them at once too."""
    for f in dataclasses.fields(jd.Options):
        if "strict" in f.metadata["alternatives"]:
            setup = RULES.setup(2, jd.Options(**{f.name: "strict"}), embedded_deck("v23-tiny"))
            assert fast.available(setup) and compiled(RULES, setup)
    assert compiled(RULES, RULES.setup(5, strict_options(jd.Options), embedded_deck("v23-tips")))


# --------------------------------------------------------------------------- strict rulings: play stops at the gap


GAP_SETUPS = {
    "jd23.ruling.favourite-trump": ("v23-tiny", 2, dict(favourite_trump="strict")),
    "jd23.ruling.penalty-taker": ("v23-crowd", 2, dict(penalty_taker="strict")),
    "jd23.ruling.nothing-to-reshuffle": ("v23-tiny", 2, dict(nothing_to_reshuffle="strict")),
    "jd23.ruling.simultaneous-mistaken": ("v23-tips", 3, dict(simultaneous_mistaken="strict", race_odds="equal",
                                                                spare_desserts="any")),
    "jd23.ruling.two-favourites": ("v23-tiny", 2, dict(two_favourites="strict")),
    "jd23.ruling.penalty-empty-hand": ("v23-crowd", 2, dict(penalty_empty_hand="strict", spare_desserts="any",
                                                             simultaneous_mistaken="penalty", race_odds="equal")),
    "jd23.ruling.kitchen-check": ("v23-crowd", 2, dict(kitchen_check="strict")),
}
"""Per strict ruling a teaching setup where random play reaches its gap in some 10-60% of games."""
WHERE = {
    "jd23.ruling.favourite-trump": "listing", "jd23.ruling.penalty-taker": "listing",
    "jd23.ruling.nothing-to-reshuffle": "apply", "jd23.ruling.simultaneous-mistaken": "apply",
    "jd23.ruling.two-favourites": "apply", "jd23.ruling.penalty-empty-hand": "apply",
    "jd23.ruling.kitchen-check": "apply",
}
"""Where v23.py raises each gap: while ``apply`` plays the game's last action, or while
``chance_outcomes`` lists what comes after it (the race, a penalty)."""


def _gap_start(ruling):
    deck, players, options = GAP_SETUPS[ruling]
    return _start(deck, players, jd.Options(**options))


def _listing_raises(s):
    """The ruling whose RuleGap the model raises listing what comes next at ``s``, else None."""
    try:
        RULES.chance_outcomes(s) if RULES.to_move(s) is CHANCE else RULES.legal_moves(s)
    except RuleGap as e:
        return e.ruling
    return None


def where_the_model_stops(start, moves):
    """("apply", ruling) if ``apply`` refuses the last of ``moves`` with a RuleGap (the
    others applied), ("listing", ruling) if all apply and listing what comes next raises
    one, else None (the model plays on, or stops earlier: then another RuleGap escapes)."""
    s = start
    for i, move in enumerate(moves):
        try:
            s = RULES.apply(s, move)
        except RuleGap as e:
            assert i == len(moves) - 1, f"the model stops at {e.ruling} at action {i + 1} of {len(moves)}"
            return "apply", e.ruling
    ruling = _listing_raises(s)
    return ("listing", ruling) if ruling else None


def gap_step_problem(start, batch):
    """step_problem's checks (every action chosen among as many moves as the model lists,
    every chance outcome offered with its probability) for a debug batch whose games may
    stop at gaps: a game the batch says a gap stopped must stop where the model raises that
    RuleGap (its last action refused by ``apply``, or all applied and the next listing
    refused); any other game must end as the model says, with its winners."""
    book = fast.codebook(fast.tables(start.setup.components))
    codes, among, odds = batch.codes.tolist(), batch.among.tolist(), batch.odds.tolist()
    a = 0
    for game, (end, mask, gap) in enumerate(zip(batch.ends.tolist(), batch.winners.tolist(), batch.gaps.tolist())):
        ruling = loops.GAPS[gap] if gap >= 0 else ""
        s, stopped = start, None
        for step in range(a, end):
            move = book[codes[step]]
            where = f"game {game}, action {step - a + 1} ({move})"
            try:
                problem = _one_step(s, move, among[step], odds[step])
            except RuleGap as e:
                return f"{where}: the model stops at {e.ruling} before it"
            if problem:
                return f"{where}: {problem}"
            try:
                s = RULES.apply(s, move)
            except RuleGap as e:
                stopped = e.ruling
                if step != end - 1:
                    return f"{where}: the model stops at {e.ruling}, the compiled game plays on"
        stopped = stopped or _listing_raises(s)
        if stopped != (ruling or None):
            return f"game {game}: the compiled game stops at {ruling or 'no gap'}, the model at {stopped or 'no gap'}"
        if not ruling:
            if RULES.to_move(s) is not TERMINAL:
                return f"game {game}: not over after its {end - a} actions"
            if RULES.outcome(s).winners != frozenset(i for i in range(8) if mask >> i & 1):
                return f"game {game}: other winners"
        elif mask:
            return f"game {game}: a game stopped at a gap names winners"
        a = end
    return None


def test_every_strict_ruling_has_a_gap_setup_here():
    strict_rulings = {
        f.metadata["ruling"] for f in dataclasses.fields(jd.Options) if "strict" in f.metadata["alternatives"]
    }
    assert set(GAP_SETUPS) == set(WHERE) == set(loops.GAPS) == strict_rulings


@pytest.mark.parametrize("ruling", list(GAP_SETUPS))
def test_a_strict_ruling_stops_compiled_games_where_the_step_api_raises(ruling):
    """Some games reach the gap, some do not; each replays on the model and stops where
    v23.py raises (WHERE); step by step every action is one the model offers; iter_playouts
    raises the RuleGap at the first game that reaches it."""
    start = _gap_start(ruling)
    games = list(iter_games(RULES, start, 300, seed=3))
    stopped = [g for g in games if g.gap]
    assert {g.gap for g in stopped} == {ruling}
    assert 10 <= len(stopped) <= 290
    assert all(not g.winners for g in stopped)
    assert replay_problem(RULES, start, games) is None, replay_problem(RULES, start, games)
    assert {where_the_model_stops(start, g.moves) for g in stopped} == {(WHERE[ruling], ruling)}
    for batch in fast.play_batches(start, 60, seed=3, debug=True):
        assert (problem := gap_step_problem(start, batch)) is None, problem
    with pytest.raises(RuleGap) as e:
        random_playouts(RULES, start, 300, seed=3)
    assert e.value.ruling == ruling


def _agree_in_share(ours, theirs):
    """Two shares of games (compiled, step API) within five standard errors of their difference."""
    (a, n), (b, m) = ours, theirs
    p = (a * n + b * m) / (n + m)
    spread = math.sqrt(p * (1 - p) * (1 / n + 1 / m))
    return abs(a - b) <= 5 * spread


@pytest.mark.parametrize("ruling", list(GAP_SETUPS))
def test_the_share_of_games_stopped_at_a_gap_is_the_step_apis(ruling):
    """The compiled games reach the gap as often as the step API's (which raise it there:
    model/playout.py's step_playouts gives those games with ``gap``), and win as often."""
    start = _gap_start(ruling)
    ours = list(iter_games(RULES, start, 4_000, seed=7))
    theirs = list(step_playouts(RULES, start, 400, seed=7))
    assert {g.gap for g in theirs} == {ruling, ""}
    for stat in (lambda g: g.gap == ruling, lambda g: 0 in g.winners, lambda g: not g.gap and not g.winners):
        a, b = sum(map(stat, ours)) / len(ours), sum(map(stat, theirs)) / len(theirs)
        assert _agree_in_share((a, len(ours)), (b, len(theirs))), (ruling, a, b)


@pytest.mark.slow
def test_all_strict_rulings_at_once_stop_where_the_step_api_does():
    """All seven strict together on v23-crowd (two players) and v23-tips (three): the first
    gap a game meets is the model's (the order of the checks within a move matters), and
    each gap is met as often as through the step API."""
    for deck, players in (("v23-crowd", 2), ("v23-tips", 3)):
        start = _start(deck, players, strict_options(jd.Options))
        ours = list(iter_games(RULES, start, 6_000, seed=2))
        assert replay_problem(RULES, start, ours) is None, replay_problem(RULES, start, ours)
        for batch in fast.play_batches(start, 100, seed=2, debug=True):
            assert (problem := gap_step_problem(start, batch)) is None, problem
        theirs = list(step_playouts(RULES, start, 600, seed=2))
        for ruling in ("", *loops.GAPS):
            a = sum(g.gap == ruling for g in ours) / len(ours)
            b = sum(g.gap == ruling for g in theirs) / len(theirs)
            assert _agree_in_share((a, len(ours)), (b, len(theirs))), (deck, ruling, a, b)


@pytest.mark.parametrize("ruling", list(GAP_SETUPS))
def test_a_lost_strict_bit_is_caught(ruling):
    """The ruling's strict bit planted as clear: the compiled games play on through the gap
    (as under the default alternative), which the replay refuses, and step by step too."""
    start = _gap_start(ruling)
    prm = fast.params(start.setup)
    prm[loops.P_STRICT] &= ~(1 << loops.GAPS.index(ruling))
    games, batches = _planted(start, prm=prm)
    assert not any(g.gap for g in games)
    problem = replay_problem(RULES, start, games)
    assert problem is not None and f"stops at the gap {ruling}" in problem, problem
    assert any(gap_step_problem(start, b) for b in batches)


@pytest.mark.parametrize("planted", ["jd23.ruling.penalty-taker", "jd23.ruling.two-favourites"])
def test_a_strict_bit_moved_to_another_ruling_is_caught(planted):
    """Under favourite-trump = strict, the strict bit planted on another ruling (one met
    while listing, one met in apply): games stop where the model plays on, and play on
    where it stops."""
    start = _gap_start("jd23.ruling.favourite-trump")
    prm = fast.params(start.setup)
    prm[loops.P_STRICT] = 1 << loops.GAPS.index(planted)
    games, batches = _planted(start, prm=prm)
    assert {g.gap for g in games} == {planted, ""}
    problem = replay_problem(RULES, start, games)
    assert problem is not None and ("plays on" in problem or "jd23.ruling.favourite-trump" in problem), problem
    assert any(gap_step_problem(start, b) for b in batches)


@pytest.mark.parametrize("ruling", ["jd23.ruling.favourite-trump", "jd23.ruling.two-favourites"])
def test_a_gap_game_cut_short_or_played_past_its_gap_is_refused(ruling):
    """replay_problem refuses a gap game without its last action (the model plays on), one
    with a further action appended (the model stops before it), and one that does not name
    its gap."""
    start = _gap_start(ruling)
    stopped = next(g for g in iter_games(RULES, start, 100, seed=3) if g.gap)
    early = dataclasses.replace(stopped, moves=stopped.moves[:-1])
    assert "plays on" in (replay_problem(RULES, start, [early]) or "")
    unnamed = dataclasses.replace(stopped, gap="")
    assert f"gap {ruling}" in (replay_problem(RULES, start, [unnamed]) or "")
    past = dataclasses.replace(stopped, moves=stopped.moves + (jd.Race(0),))
    assert f"gap {ruling}" in (replay_problem(RULES, start, [past]) or "")
