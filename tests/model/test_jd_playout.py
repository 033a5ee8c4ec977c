"""The compiled random playout of Just Desserts (model/just_desserts/playout.py) against the
model, action by action, and against exact values for random play.

Every game must replay through ``RULES.apply`` (model/playout.py's ``replay_problem``), and
more strongly: at every seat step the compiled loop chose among exactly
``len(RULES.legal_moves(s))`` moves (its debug record says how many), and at every chance
step it drew an outcome ``chance_outcomes`` offers, with that outcome's probability.  Over
many games the win shares must match the exact values of random play (an absorbing Markov
chain over the reachable states, solved here) within five standard errors.
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import numpy as np
import pytest

from tablerules.model import registry
from tablerules.model.core import CHANCE, STRICT, TERMINAL, RuleGap
from tablerules.model.decks import embedded_deck
from tablerules.model.just_desserts import RULES, Options
from tablerules.model.just_desserts import playout as jp
from tablerules.model.just_desserts import playout_loops as loops
from tablerules.model.playout import (compiled, iter_games, random_playouts, replay_problem, standard_errors,
                                      step_playouts)

TEACHING = ("jd-two-suits", "jd-one-suit", "jd-rivals", "jd-crowd")
ADVANCED = ("poaching", "buffet", "surprise_parties")
ALL_ON = dict(poaching=True, buffet=True, surprise_parties=True)


def _setup(deck, players, **options):
    return RULES.setup(players, Options(**options), deck if not isinstance(deck, str) else embedded_deck(deck))


def step_problem(state, playout, info) -> str | None:
    """The first action where the compiled loop's choice differs from the step API's law:
    a seat move not among ``legal_moves`` or chosen among another number of moves, a chance
    outcome not offered or drawn with another probability; then replay_problem's checks of
    the end (a game stopped at a strict ruling's gap: its last action refused with that RuleGap).
    None if the game agrees throughout."""
    s = state
    if len(info) != len(playout.moves):  # plumbing: one record per action
        return f"{len(info)} records for {len(playout.moves)} actions"
    last = len(playout.moves) - 1
    for step, (move, (a, b)) in enumerate(zip(playout.moves, info)):
        if RULES.to_move(s) is CHANCE:
            offered = dict(RULES.chance_outcomes(s))
            if move not in offered:
                return f"action {step + 1} ({move}): not a chance outcome here"
            if b == 0 or Fraction(a, b) != offered[move]:
                return f"action {step + 1} ({move}): drawn with {a}/{b}, the model says {offered[move]}"
        else:
            legal = RULES.legal_moves(s)
            if move not in legal:
                return f"action {step + 1} ({move}): not a legal move"
            if b != 0 or a != len(legal):
                return f"action {step + 1} ({move}): chosen among {a} moves, the model has {len(legal)}"
        if playout.gap and step == last:
            break
        s = RULES.apply(s, move)
    return replay_problem(RULES, state, [playout])


def _agree(state, games, seed):
    """``games`` compiled games from ``state`` agree with the model step by step."""
    count = 0
    for i, (g, info) in enumerate(jp.played(state, games, seed, debug=True)):
        problem = step_problem(state, g, info)
        assert problem is None, f"game {i}: {problem}"
        count += 1
    assert count == games


# --------------------------------------------------------------------------- replays


@pytest.mark.parametrize("deck", TEACHING)
@pytest.mark.parametrize(
    "combo", list(itertools.product((False, True), repeat=3)),
    ids=lambda c: "".join("PBS"[i] if x else "-" for i, x in enumerate(c)),
)
def test_compiled_games_follow_the_step_api_on_the_teaching_decks(deck, combo):
    """Every combination of the advanced rules, 2 players (and 3 where the deck deals to 3)."""
    options = dict(zip(ADVANCED, combo))
    for players in (2, 3):
        try:
            setup = _setup(deck, players, **options)
        except Exception:  # a deck too small to deal to three players
            continue
        assert jp.available(setup)
        _agree(RULES.new_game(setup), 60, seed=players)


def _alternatives(strict=True):
    """(field, value) for every non-default alternative of every ruling (strict ones too, unless not ``strict``) that
    the loop plays (not those of ``playout.NOT_COMPILED``, which the step API plays)."""
    out = []
    for f in dataclasses.fields(Options):
        for value in f.metadata.get("alternatives", ())[1:]:
            declined = value == STRICT and f.metadata.get("ruling") not in loops.GAPS  # the step API plays it
            if (strict or value != STRICT) and jp.NOT_COMPILED.get(f.metadata.get("ruling")) != value and not declined:
                out.append((f.name, value))
    return out


@pytest.mark.parametrize("ruling,value", sorted(jp.NOT_COMPILED.items()))
def test_an_alternative_the_loop_does_not_play_is_refused_by_name(ruling, value):
    name = jp.ruling_field(ruling)
    setup = _setup("jd-crowd", 3, **ALL_ON, **{name: value})
    assert not jp.available(setup)
    with pytest.raises(ValueError, match=f"{ruling}={value}"):
        list(jp.random_playouts(RULES.new_game(setup), 1, 1))


def test_a_strict_ruling_the_loop_cannot_stop_at_is_left_to_the_step_api():
    """jd.ruling.endless-play=strict keeps a history of positions: the step API plays it."""
    setup = _setup("jd-famine", 2, poaching=True, endless_play=STRICT)
    assert "jd.ruling.endless-play" not in loops.GAPS and not jp.available(setup) and not compiled(RULES, setup)


@pytest.mark.parametrize("name,value", _alternatives(), ids=lambda x: str(x))
def test_every_ruling_alternative_follows_the_step_api(name, value):
    """Each alternative alone, with all three advanced rules on, on jd-crowd (3 players) and
    jd-five-suits (2 players); under a strict one, a game stops where the step API raises."""
    for deck, players in (("jd-crowd", 3), ("jd-five-suits", 2)):
        setup = _setup(deck, players, **ALL_ON, **{name: value})
        assert jp.available(setup)
        _agree(RULES.new_game(setup), 40, seed=5)


GAP_SETUPS = {
    "jd.ruling.dessert-supply-empty": ("jd-crowd", 3, dict(dessert_supply=STRICT)),
    "jd.ruling.guest-supply-empty": ("jd-crowd", 2, dict(guest_supply=STRICT)),
    "jd.ruling.all-guests-claimed": ("jd-crowd", 2, dict(all_claimed=STRICT)),
    "jd.ruling.no-serving-possible": ("jd-famine", 2, dict(no_serving=STRICT)),
    "jd.ruling.turn-direction": ("jd-crowd", 3, dict(turn_direction=STRICT)),
    "jd.ruling.answer-order": ("jd-crowd", 3, dict(answer_order=STRICT, **ALL_ON)),
    "jd.ruling.plain-block-vs-surprise": ("jd-crowd", 3, dict(block_or_surprise=STRICT, **ALL_ON)),
    "jd.ruling.surprise-on-block": ("jd-crowd", 3, dict(surprise_on_block=STRICT, **ALL_ON)),
    "jd.ruling.victim-tip-on-surprise": ("jd-crowd", 3, dict(victim_tip_surprise=STRICT, **ALL_ON)),
}


def test_every_gap_the_loop_knows_has_a_setup_here():
    assert set(GAP_SETUPS) == set(loops.GAPS)
    strict_rulings = {
        f.metadata["ruling"] for f in dataclasses.fields(Options) if STRICT in f.metadata.get("alternatives", ())
    }
    # jd.ruling.endless-play=strict keeps a history of positions: the step API plays it (test above)
    assert strict_rulings - {"jd.ruling.endless-play"} == set(loops.GAPS)


@pytest.mark.parametrize("ruling", list(GAP_SETUPS))
def test_a_strict_ruling_stops_compiled_games_where_the_step_api_raises(ruling):
    """Some games reach the gap, some (but for turn-direction and guest-supply, which every game
    reaches) do not; every one agrees with the step API action by action, its last action
    refused with the RuleGap it names; iter_playouts raises that RuleGap at the first."""
    deck, players, options = GAP_SETUPS[ruling]
    start = RULES.new_game(_setup(deck, players, **options))
    games = list(iter_games(RULES, start, 200, 3))
    stopped = [g for g in games if g.gap]
    assert {g.gap for g in stopped} == {ruling}
    assert len(stopped) >= 3
    assert replay_problem(RULES, start, games) is None
    _agree(start, 40, seed=3)
    with pytest.raises(RuleGap) as e:
        list(random_playouts(RULES, start, 200, 3))
    assert e.value.ruling == ruling


def test_a_gap_in_the_wrong_place_is_caught():
    """replay_problem refuses a game that names a gap the model does not reach, and one that plays past a gap."""
    deck, players, options = GAP_SETUPS["jd.ruling.all-guests-claimed"]
    start = RULES.new_game(_setup(deck, players, **options))
    games = list(iter_games(RULES, start, 100, 3))
    stopped = next(g for g in games if g.gap)
    early = dataclasses.replace(stopped, moves=stopped.moves[:-1])
    assert "plays on" in (replay_problem(RULES, start, [early]) or "")
    unnamed = dataclasses.replace(stopped, gap="")
    assert "stops at the gap" in (replay_problem(RULES, start, [unnamed]) or "")


@pytest.mark.parametrize("reading", ["at-once", "turn-end", "when-settled"])
@pytest.mark.parametrize(
    "combo", [dict(), dict(poaching=True), dict(buffet=True), ALL_ON], ids=["basic", "P", "B", "PBS"]
)
def test_the_all_claimed_score_readings_follow_the_step_api(reading, combo):
    """jd.ruling.faq-score-when on jd-crowd, where every guest is soon claimed."""
    for players in (2, 3):
        _agree(RULES.new_game(_setup("jd-crowd", players, faq_score_when=reading, **combo)), 60, seed=players)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_retail_games_follow_the_step_api(players, retail_deck):
    for options in (dict(), ALL_ON):
        _agree(RULES.new_game(_setup(retail_deck, players, **options)), 15, seed=players)


def test_any_serving_size_on_the_retail_deck_follows_the_step_api(retail_deck):
    """Hands of the retail deck offer many servings under serving-size=any: each counted as the model lists them."""
    for players in (2, 4):
        _agree(RULES.new_game(_setup(retail_deck, players, serving_size="any", **ALL_ON)), 4, seed=players)


def test_a_sample_of_ruling_mixes_on_the_retail_deck(retail_deck):
    alts = _alternatives(strict=False)
    rng = np.random.default_rng(3)
    for k in range(6):
        pick = {name: value for name, value in (alts[i] for i in rng.choice(len(alts), 6, replace=False))}
        _agree(RULES.new_game(_setup(retail_deck, 3 + k % 3, **ALL_ON, **pick)), 5, seed=k)


def test_games_go_through_the_registered_compiled_playout():
    setup = _setup("jd-crowd", 3, **ALL_ON)
    assert registry.ENTRIES["just-desserts"].playout == "tablerules.model.just_desserts.playout"
    assert compiled(RULES, setup)
    start = RULES.new_game(setup)
    games = random_playouts(RULES, start, 300, seed=4)
    assert replay_problem(RULES, start, games) is None
    assert games == list(jp.random_playouts(start, 300, 4))


# --------------------------------------------------------------------------- from any state


def _states_along(setup, seed, every=3):
    """States met along a step API game: mid-turn, in windows, waiting on chance."""
    s = RULES.new_game(setup)
    g = next(step_playouts(RULES, s, 1, seed))
    out = []
    for i, m in enumerate(g.moves):
        s = RULES.apply(s, m)
        if i % every == 0 and RULES.to_move(s) is not TERMINAL:
            out.append(s)
    return out, s


def test_play_goes_on_from_any_state():
    seen = set()
    for deck, players, seed in (("jd-crowd", 3, 1), ("jd-five-suits", 3, 2), ("jd-rivals", 2, 3)):
        states, over = _states_along(_setup(deck, players, **ALL_ON), seed)
        for s in states:
            seen.add("chance" if RULES.to_move(s) is CHANCE else s.phase)
            _agree(s, 8, seed=11)
        assert [g.moves for g in jp.random_playouts(over, 3, 1)] == [(), (), ()]
    assert {"chance", "choose", "discard", "window"} <= seen, seen


def test_the_opening_sort_and_the_answer_race_are_played():
    """jd.ruling.opening-duplicates=at-setup starts in the sort phase; with three players the
    answer race of jd.surprise.first-offered is a chance step."""
    setup = _setup("jd-crowd", 3, opening_duplicates="at-setup", **ALL_ON)
    _agree(RULES.new_game(setup), 100, seed=2)
    games = random_playouts(RULES, RULES.new_game(_setup("jd-crowd", 3, surprise_parties=True)), 400, seed=3)
    assert any(m.verb == "first" for g in games for m in g.moves)


# --------------------------------------------------------------------------- seeds, batches, limits


def test_a_seed_gives_the_same_games_and_another_seed_others():
    start = RULES.new_game(_setup("jd-crowd", 3, **ALL_ON))
    a = random_playouts(RULES, start, 50, seed=11)
    assert a == random_playouts(RULES, start, 50, seed=11)
    assert a != random_playouts(RULES, start, 50, seed=12)
    assert a != random_playouts(RULES, start, 50, seed=-11)
    assert random_playouts(RULES, start, 0, seed=11) == []


def test_batches_and_a_full_buffer_give_the_same_games(monkeypatch):
    """Games cross a batch boundary; a buffer that fills mid-batch plays the game again in
    the next call from the same random state, so the games do not depend on the buffer."""
    start = RULES.new_game(_setup("jd-two-suits", 2, **ALL_ON))
    monkeypatch.setattr(jp, "BATCH", 64)
    whole = list(jp.random_playouts(start, 150, 9))
    monkeypatch.setattr(jp, "CODE_BUFFER", 2000)  # a few games per call
    small = list(jp.random_playouts(start, 150, 9))
    assert small == whole


def test_a_game_that_does_not_end_raises_after_the_games_before_it():
    """Poaching on jd-famine: guests can change hands for ever (the step API would loop)."""
    start = RULES.new_game(_setup("jd-famine", 2, poaching=True))
    played = []
    with pytest.raises(jp.EndlessGame, match="100,000 actions"):
        for g in random_playouts(RULES, start, 200, seed=1):
            played.append(g)
    assert replay_problem(RULES, start, played) is None


def test_what_the_compiled_loop_cannot_play_goes_through_the_step_api():
    """A guest wanting no taste under serving-size=any (every set of the hand would satisfy it) is
    left to the step API; a strict ruling that cannot be reached plays as its default."""
    deck = embedded_deck("jd-crowd")
    wantless = dataclasses.replace(deck, guests=tuple(dataclasses.replace(g, wants=frozenset()) if i == 0 else g
                                                      for i, g in enumerate(deck.guests)))
    assert jp.available(_setup(wantless, 2))
    assert not jp.available(_setup(wantless, 2, serving_size="any"))
    assert not compiled(RULES, _setup(wantless, 2, serving_size="any"))
    assert jp.available(_setup("jd-crowd", 2, serving_size="any", dessert_supply=STRICT, **ALL_ON))
    strict = _setup("jd-crowd", 2, turn_direction=STRICT, **ALL_ON)  # both directions give the other seat
    assert random_playouts(RULES, RULES.new_game(strict), 20, 3) == random_playouts(
        RULES, RULES.new_game(_setup("jd-crowd", 2, **ALL_ON)), 20, 3
    )


@pytest.mark.parametrize("players", [2, 3])
def test_any_serving_size_follows_the_step_api(players):
    """jd.ruling.serving-size=any: the servings are counted, not listed; each choice among
    exactly the model's number of moves, every advanced rule on and off."""
    for options in (dict(), ALL_ON, dict(surprise_serving="serving-with-favourite", **ALL_ON)):
        setup = _setup("jd-crowd", players, serving_size="any", **options)
        assert jp.available(setup)
        _agree(RULES.new_game(setup), 60, seed=players)


# --------------------------------------------------------------------------- planted faults


def test_a_wrong_kernel_is_caught(monkeypatch):
    """A guest satisfied by a dessert it does not want, or the turn passing the wrong way,
    makes the replay fail: the check can see a wrong loop."""
    setup = _setup("jd-five-suits", 3)
    start = RULES.new_game(setup)
    t = jp.tables(setup.components)
    assert replay_problem(RULES, start, list(jp.random_playouts(start, 30, 1))) is None
    wrong = dataclasses.replace(t, gmask=t.gmask.copy(), moves={})
    baker = t.guests.index("BAKER_SPOON")
    wrong.gmask[baker, t.desserts.index("PLUM")] = 1  # Plum now "shows Cake" to the baker
    monkeypatch.setattr(jp, "tables", lambda deck: wrong)
    assert "refused by" in (replay_problem(RULES, start, list(jp.random_playouts(start, 30, 1))) or "")
    monkeypatch.undo()
    original = jp.options_vector

    def flipped(setup, tables):
        p = original(setup, tables)
        p[loops.R_CCW] = 1
        return p

    monkeypatch.setattr(jp, "options_vector", flipped)
    assert replay_problem(RULES, start, list(jp.random_playouts(start, 30, 1))) is not None


def test_a_refused_dessert_counted_as_accepted_is_caught(monkeypatch):
    """Under serving-size=any a dessert a guest refuses may not join a serving: tables that
    forget the refusal give servings the model refuses (or choices among too many moves)."""
    deck = embedded_deck("jd-crowd")
    # the gardener now refuses the fruit of the fruit tart (no teaching deck has a refusal)
    gardener = next(g for g in deck.guests if g.id == "GARDENER")
    spare = sorted(deck.dessert("FRUIT_TART").tastes - gardener.wants)[0]
    refusing = dataclasses.replace(
        deck,
        guests=tuple(dataclasses.replace(g, refuses=frozenset({spare})) if g is gardener else g for g in deck.guests),
    )
    setup = _setup(refusing, 2, serving_size="any")
    start = RULES.new_game(setup)
    t = jp.tables(setup.components)
    _agree(start, 30, seed=1)
    wrong = dataclasses.replace(t, gmask=t.gmask.copy(), moves={})
    wrong.gmask[wrong.gmask < 0] = 0
    assert (t.gmask < 0).any()
    monkeypatch.setattr(jp, "tables", lambda deck: wrong)
    problems = [step_problem(start, g, info) for g, info in jp.played(start, 30, 1, debug=True)]
    assert any(problems), "a serving with a refused dessert went unnoticed"


def test_a_miscounted_choice_is_caught(monkeypatch):
    """A loop that forgets the kitchen move still plays legal moves, but the step record
    shows the choice among the wrong number of moves (the law of random play is off)."""
    setup = _setup("jd-crowd", 2)
    start = RULES.new_game(setup)
    g, info = next(jp.played(start, 1, 1, debug=True))
    tampered = [(a - 1, b) if b == 0 else (a, b) for a, b in info]
    assert "chosen among" in step_problem(start, g, tampered)
    wrong_chance = [(a, b + 1) if b else (a, b) for a, b in info]
    assert "drawn with" in step_problem(start, g, wrong_chance)


# --------------------------------------------------------------------------- distributions


def exact_random_play(start, limit=20_000):
    """Each seat's exact chance of winning under random play from ``start``: the absorbing
    Markov chain over the states the step API reaches (cycles included), solved with numpy."""
    index, order, frontier = {start: 0}, [start], [start]
    while frontier:
        s = frontier.pop()
        for nxt, _ in _successors(s):
            if nxt not in index:
                index[nxt] = len(order)
                order.append(nxt)
                frontier.append(nxt)
                assert len(order) <= limit, "state space too large for the exact solve"
    n = len(order)
    players = start.setup.players
    a = np.eye(n)
    b = np.zeros((n, players))
    for i, s in enumerate(order):
        if RULES.to_move(s) is TERMINAL:
            for w in RULES.outcome(s).winners:
                b[i, w] = 1.0
            continue
        for nxt, p in _successors(s):
            a[i, index[nxt]] -= p
    return np.linalg.solve(a, b)[0]


def _successors(s):
    actor = RULES.to_move(s)
    if actor is TERMINAL:
        return []
    if actor is CHANCE:
        return [(RULES.apply(s, m), float(p)) for m, p in RULES.chance_outcomes(s)]
    legal = RULES.legal_moves(s)
    return [(RULES.apply(s, m), 1.0 / len(legal)) for m in legal]


def _win_shares(games, players):
    return [sum(seat in g.winners for g in games) / len(games) for seat in range(players)]


@pytest.mark.slow
@pytest.mark.parametrize("options", [dict(), dict(surprise_parties=True)], ids=["basic", "S"])
def test_win_shares_match_the_exact_values_of_random_play(options):
    """A tiny game (jd-rivals, 2 players, from the first deal of hands and middle; 2,743 and
    4,049 states): 40,000 compiled games."""
    start = RULES.new_game(_setup("jd-rivals", 2, **options))
    s = start
    for _ in range(3 * 2 + 3):  # deal the hands and the middle: a smaller graph to solve
        s = RULES.apply(s, RULES.chance_outcomes(s)[0][0])
    exact = exact_random_play(s)
    games = random_playouts(RULES, s, 40_000, seed=21)
    for seat, share in enumerate(_win_shares(games, 2)):
        assert abs(standard_errors(share, exact[seat], len(games))) <= 5, (seat, share, exact)


@pytest.mark.slow
@pytest.mark.parametrize("options", [ALL_ON, dict(serving_size="any", **ALL_ON)], ids=["PBS", "any-PBS"])
def test_compiled_and_step_api_win_shares_agree_on_a_teaching_deck(options):
    """Where the exact solve does not fit (serving-size=any makes every teaching deck's graph too
    large for it), the compiled loop's shares against the step API's own random games."""
    start = RULES.new_game(_setup("jd-crowd", 3, **options))
    fast = random_playouts(RULES, start, 20_000, seed=5)
    slow = list(step_playouts(RULES, start, 1_500, seed=5))
    for seat, (a, b) in enumerate(zip(_win_shares(fast, 3), _win_shares(slow, 3))):
        spread = np.sqrt(a * (1 - a) / len(fast) + b * (1 - b) / len(slow))
        assert abs(a - b) <= 5 * spread, (seat, a, b)
