"""Proofs about Just Desserts (expected results: proofs/manifests/just_desserts.toml).

* :func:`max_guests_without_win`: the most guests one player can hold without having won
  (z3; jd.win.three-of-a-suit, jd.win.five-suits).
* :func:`guest_supply_players`: the fewest players who can use up the whole guest supply
  without a winner, i.e. reach jd.ruling.guest-supply-empty (z3).
* :func:`deck_facts`: facts about a deck the rules and our rulings lean on: each favourite
  alone satisfies its guest (jd.tip.favourite, jd.ruling.tip-count), every guest can be
  satisfied by some desserts of the deck (z3; needed for games to end), four aces exist
  (jd.buffet.aces).
* :func:`answer_order`: does the result of competing out-of-turn answers (a block and a
  surprise, or two surprises) depend on who answers first (jd.ruling.answer-order)?  A
  breadth-first search over 3-player games on jd-crowd; the shortest witness is saved in
  spec/witnesses/jd-answer-order.json.
"""

from __future__ import annotations

import json
from collections import deque
from importlib import resources
from pathlib import Path
from typing import Any

import z3

from tablerules.model.core import CHANCE, TERMINAL
from tablerules.model.decks import Deck, embedded_deck, satisfies

from ..checks import ProofResult
from ..files import write_atomic

RULESET = "just-desserts"
WIN_CLAUSES = ("jd.win.three-of-a-suit", "jd.win.five-suits")


# --------------------------------------------------------------------------- guests without a win


def _hand_vars(solver: z3.Solver, name: str, suits: int, per_suit: int) -> list[z3.ArithRef]:
    """Per-suit guest counts of one player who has not won (tracked by the winning clauses)."""
    xs = [z3.Int(f"{name}_{s}") for s in range(suits)]
    for s, x in enumerate(xs):
        solver.add(x >= 0, x <= per_suit)
        solver.assert_and_track(x <= 2, f"jd.win.three-of-a-suit#{name}_{s}")
    solver.assert_and_track(z3.Sum([z3.If(x > 0, 1, 0) for x in xs]) <= 4, f"jd.win.five-suits#{name}")
    return xs


def most_guests_without_win(suits: int, per_suit: int) -> tuple[int, list[str]]:
    """(the largest guest count with no win, the clauses in the unsat core one above it)."""
    best = 0
    core: list[str] = []
    for k in range(suits * per_suit + 1):
        s = z3.Solver()
        xs = _hand_vars(s, "p", suits, per_suit)
        s.add(z3.Sum(xs) == k)
        if s.check() == z3.sat:
            best = k
        else:
            core = sorted({str(c).split("#")[0] for c in s.unsat_core()})
            break
    return best, core


def max_guests_without_win(suits: int = 6, per_suit: int = 4) -> ProofResult:
    best, core = most_guests_without_win(suits, per_suit)
    return ProofResult(
        RULESET, "max-guests-without-win", WIN_CLAUSES, f"proved: {best}",
        f"{suits} suits of {per_suit}: {best} guests possible without a win, {best + 1} impossible (core: "
        f"{', '.join(core)})",
        rows=[("most guests without a win", str(best)), ("unsat core for one more", ", ".join(core))],
        data={"max": best, "core": core},
    )


def supply_exhausted_possible(players: int, suits: int, per_suit: int) -> bool:
    """Can every guest be claimed, in the middle (one per suit) or in the doorway, with no winner?

    That is the state of the guest supply when jd.ruling.guest-supply-empty applies: the
    pile is empty and the discards hold at most the doorway guest (jd.reshuffle.guests).
    """
    s = z3.Solver()
    held = [_hand_vars(s, f"p{p}", suits, per_suit) for p in range(players)]
    middle = [z3.Int(f"middle_{k}") for k in range(suits)]
    door = [z3.Int(f"door_{k}") for k in range(suits)]
    for k in range(suits):
        s.add(middle[k] >= 0, door[k] >= 0)
        s.assert_and_track(middle[k] <= 1, f"jd.discard.one-per-suit#{k}")
        s.add(z3.Sum([h[k] for h in held]) + middle[k] + door[k] == per_suit)
    s.assert_and_track(z3.Sum(door) <= 1, "jd.reshuffle.guests")
    return s.check() == z3.sat


def guest_supply_players(suits: int = 6, per_suit: int = 4, counts: tuple[int, ...] = (2, 3, 4, 5)) -> ProofResult:
    possible = {n: supply_exhausted_possible(n, suits, per_suit) for n in counts}
    fewest = min((n for n, ok in possible.items() if ok), default=None)
    status = f"proved: {fewest} players" if fewest is not None else "proved: never"
    return ProofResult(
        RULESET, "guest-supply-needs-three-players",
        WIN_CLAUSES + ("jd.reshuffle.guests", "jd.discard.one-per-suit"), status,
        f"{suits} suits of {per_suit}: the guest supply can run dry with no winner only with {fewest} or more players",
        rows=[(f"{n} players", "possible" if ok else "impossible") for n, ok in possible.items()],
        data={"possible": possible, "fewest": fewest},
    )


# --------------------------------------------------------------------------- deck facts


def favourites_alone(deck: Deck) -> list[str]:
    """Favourites that do NOT satisfy their guest on their own (empty: the fact holds)."""
    return [f"{g.name}: {deck.dessert(f).name}" for g in deck.guests for f in g.favorites
            if not satisfies(deck, (f,), g.id)]


def satisfiable(deck: Deck, guest_id: str) -> bool:
    """z3: some set of the deck's desserts satisfies the guest (jd.serve.satisfies)."""
    g = deck.guest(guest_id)
    pick = {d.id: z3.Bool(d.id) for d in deck.desserts}
    s = z3.Solver()
    s.add(z3.Or(list(pick.values())))
    for t in g.wants:
        s.add(z3.Or([pick[d.id] for d in deck.desserts if t in d.tastes] or [z3.BoolVal(False)]))
    for t in g.refuses:
        for d in deck.desserts:
            if t in d.tastes:
                s.add(z3.Not(pick[d.id]))
    return s.check() == z3.sat


def deck_facts(deck: Deck, label: str) -> list[ProofResult]:
    """The deck facts as proof results named `<fact>@<label>`."""
    out = []
    bad = favourites_alone(deck)
    out.append(
        ProofResult(
            RULESET, f"favourites-satisfy@{label}", ("jd.tip.favourite", "jd.ruling.tip-count"),
            "holds" if not bad else "fails", "; ".join(bad) or "every favourite alone satisfies its guest",
            data={"breakers": bad},
        )
    )
    unsat = [g.name for g in deck.guests if not satisfiable(deck, g.id)]
    out.append(
        ProofResult(
            RULESET, f"every-guest-satisfiable@{label}", ("jd.serve.satisfies",), "holds" if not unsat else "fails",
            ", ".join(unsat) or "some dessert set satisfies every guest", data={"breakers": unsat},
        )
    )
    aces = sum(d.copies for d in deck.desserts if len(d.tastes) == 1)
    out.append(ProofResult(RULESET, f"buffet-possible@{label}", ("jd.buffet.aces",),
                           "holds" if aces >= 4 else "fails", f"{aces} single-taste desserts", data={"aces": aces}))
    return out


# --------------------------------------------------------------------------- order of answers

WITNESS = "jd-answer-order.json"


def _resolutions(rules: Any, race_state: Any, first_move: Any) -> dict[str, Any]:
    """What happens when this seat speaks first and answers (not pass): move text -> state."""
    after = rules.apply(race_state, first_move)
    out = {}
    for m in rules.legal_moves(after):
        if m.verb != "pass":
            out[str(m)] = rules.apply(after, m)
    return out


def _holder(state: Any, guest: str) -> int:
    for seat, guests in enumerate(state.claimed):
        if guest in guests:
            return seat
    return -1


def find_order_dependence(rules: Any, setup: Any, max_states: int = 200_000, *,
                          with_block: bool = False) -> dict[str, Any] | None:
    """BFS from a new game to the first race whose result depends on who answers first.

    A race state is one where two or more seats may answer a serving (with ``with_block``:
    one of them the poached player, who may block).  The result of an
    answer is who ends up holding the guest.  Returns the witness (moves into the race
    state and, per first speaker, its answers and results) or None within the bound.
    """
    start = rules.new_game(setup)
    parent: dict[Any, tuple[Any, str | None]] = {start: (None, None)}
    queue = deque([start])
    while queue and len(parent) < max_states:
        state = queue.popleft()
        actor = rules.to_move(state)
        if actor is TERMINAL:
            continue
        race = actor is CHANCE and state.phase == "window" and len(state.answerers) >= 2
        if race and with_block and state.offer.victim not in state.answerers:
            race = False
        if race:
            branches = {}
            for first, _p in rules.chance_outcomes(state):
                res = _resolutions(rules, state, first)
                branches[str(first)] = {m: _holder(s, state.offer.guest) for m, s in res.items()}
            holders = [set(v.values()) for v in branches.values() if v]
            if len(holders) >= 2 and any(a != b for a in holders for b in holders):
                moves = []
                k = state
                while parent[k][0] is not None:
                    k, mv = parent[k]
                    moves.append(mv)
                moves.reverse()
                return {"state": state, "moves": moves, "branches": branches, "states_searched": len(parent)}
        nxt = rules.successors(state)
        for move, _p, t in nxt:
            if t not in parent:
                parent[t] = (state, str(move))
                queue.append(t)
    return None


def witness_path() -> Path:
    return Path(str(resources.files("tablerules.spec").joinpath("witnesses", WITNESS)))


def _witness(found: dict[str, Any], label: str) -> dict[str, Any]:
    state = found["state"]
    return {
        "about": f"Shortest trace (breadth-first) into a race of {label}: two players may answer one serving and "
                 "the guest ends with a different player depending on who answers first (jd.ruling.answer-order).",
        "moves": found["moves"],
        "race": {"guest": state.offer.guest, "server": state.offer.server, "victim": state.offer.victim,
                 "answerers": list(state.answerers)},
        "branches": found["branches"],
        "states_searched": found["states_searched"],
    }


def answer_order(max_states: int = 200_000, write: bool = False) -> ProofResult:
    """Search 3-player games on jd-crowd (all options) for races whose result depends on the order."""
    from tablerules.model.just_desserts import RULES, Options

    deck = embedded_deck("jd-crowd")
    options = Options(poaching=True, buffet=True, surprise_parties=True)
    setup = RULES.setup(3, options, deck)
    clauses = ("jd.surprise.first-offered", "jd.block.defender", "jd.surprise.intercept")
    found = {
        "any answers": find_order_dependence(RULES, setup, max_states),
        "a block and a surprise": find_order_dependence(RULES, setup, max_states, with_block=True),
    }
    if not any(found.values()):
        return ProofResult(RULESET, "answer-order-matters", clauses, "independent within bound",
                           f"no race whose result depends on the order among the first {max_states:,} states")
    witness = {
        "about": "Witnesses for jd.ruling.answer-order: traces from a new game into answer races whose result "
                 "depends on who answers first. Setup: 3 players, deck jd-crowd, all advanced options, default "
                 "rulings.",
        "ruleset": RULESET, "deck": "jd-crowd", "players": 3,
        "options": {"poaching": True, "buffet": True, "surprise-parties": True},
        "witnesses": {label: _witness(f, label) for label, f in found.items() if f is not None},
    }
    if write:
        write_atomic(witness_path(), json.dumps(witness, indent=1) + "\n")
    rows = []
    for label, f in found.items():
        if f is None:
            rows.append((label, f"no order-dependent race within {max_states:,} states"))
            continue
        kinds = sorted({m.split()[0] for b in f["branches"].values() for m in b})
        rows.append((label, f"{len(f['moves'])} moves; answers {', '.join(kinds)}; seats {list(f['state'].answerers)}; "
                            f"{f['states_searched']:,} states searched"))
    status = "depends on order" if all(found.values()) else "depends on order (partly)"
    shortest = min(len(f["moves"]) for f in found.values() if f)
    return ProofResult(
        RULESET, "answer-order-matters", clauses, status,
        f"shortest witness {shortest} moves; saved in spec/witnesses/{WITNESS}",
        rows=rows + [("witness", f"spec/witnesses/{WITNESS}")], data={"witness": witness},
    )


# --------------------------------------------------------------------------- traps without the draw ruling

TRAP_WITNESS = "jd-all-guests-claimed-trap.json"


def _trap_trace(options: Any) -> dict[str, Any] | None:
    from tablerules.model.just_desserts import RULES, state_vars

    from ..explorer import explore, graph_analysis

    setup = RULES.setup(2, options, embedded_deck("jd-rivals"))
    ex = explore(RULES, [RULES.new_game(setup)], keep_graph=True)
    gr = graph_analysis(ex)
    if not gr.traps:
        return None
    _, steps, states = ex.trace(gr.trap_example)
    return {
        "moves": [s.move for s in steps], "traps": gr.traps, "states": ex.states, "last_state": state_vars(states[-1]),
    }


def all_claimed_traps(write: bool = False) -> ProofResult:
    """With jd.ruling.all-guests-claimed=play-on, games that can never end (basic game; Buffet alone)."""
    from tablerules.model.just_desserts import Options

    found = {
        "basic game": _trap_trace(Options(all_claimed="play-on")),
        "buffet alone": _trap_trace(Options(all_claimed="play-on", buffet=True)),
    }
    clauses = ("jd.win.three-of-a-suit", "jd.win.any-time", "jd.buffet.aces")
    witness = {
        "about": "Witnesses for jd.ruling.all-guests-claimed: with the play-on alternative, the shortest traces "
                 "(breadth-first) into states from which no end can be reached. Setup: 2 players, deck jd-rivals.",
        "ruleset": RULESET, "deck": "jd-rivals", "players": 2, "rulings": {"jd.ruling.all-guests-claimed": "play-on"},
        "witnesses": {k: ({**v, "options": {"buffet": k == "buffet alone"}} if v else None) for k, v in found.items()},
    }
    if write:
        write_atomic(witness_path().parent.joinpath(TRAP_WITNESS), json.dumps(witness, indent=1) + "\n")
    status = "traps" if all(found.values()) else "no traps"
    rows = [
        (
            k,
            f"{v['traps']:,} trap states of {v['states']:,}; shortest trace {len(v['moves'])} moves"
            if v
            else "no trap",
        )
        for k, v in found.items()
    ]
    return ProofResult(RULESET, "play-on-has-traps", clauses, status,
                       f"witness spec/witnesses/{TRAP_WITNESS}", rows=rows, data={"witness": witness})


# --------------------------------------------------------------------------- play that can never end

ENDLESS_WITNESS = "jd-no-serving-possible.json"
ENDLESS_DECK = "jd-famine"


def closed_sets(rules: Any, start: Any, budget: int) -> tuple[list[frozenset], bool]:
    """(bottom strongly connected components without a terminal state among the states reachable
    from ``start``, whether the reachable states were all expanded within ``budget`` states).

    A bottom component is a set of states that play can never leave; without a terminal state
    in it, a game that enters it never ends.  Verdicts count states, never seconds.
    """
    import networkx as nx

    from ..explorer import Budget, explore

    ex = explore(rules, [start], budget=Budget(max_states=budget), keep_graph=True)
    if not ex.complete:
        return [], False
    g = nx.DiGraph()
    g.add_nodes_from(ex.parents)
    g.add_edges_from(ex.edges)
    cond = nx.condensation(g)
    ends = set(ex.terminal_states)
    out = []
    for c in cond.nodes:
        members = frozenset(cond.nodes[c]["members"])
        if cond.out_degree(c) == 0 and not members & ends:
            out.append(members)
    return out, True


def find_endless_play(options: Any, players: int = 2, deck_name: str = ENDLESS_DECK, budget: int = 3_000,
                      local_budget: int = 600, most_candidates: int = 30) -> dict[str, Any]:
    """Search for play that can never end (jd.ruling.no-serving-possible), counting states.

    Breadth-first from a new game for ``budget`` states; every state reached where every
    dessert sits in a hand at the start of a turn is a candidate, and the states reachable
    from it are explored to the end (at most ``local_budget`` each) and searched for bottom
    components without a terminal state.  Returns the first found (shortest trace), and
    how many candidates were examined (the ``most_candidates`` nearest the start) and completed.
    """
    from tablerules.model.just_desserts import RULES, state_vars

    from ..explorer import Budget, explore

    setup = RULES.setup(players, options, embedded_deck(deck_name))
    ex = explore(RULES, [RULES.new_game(setup)], budget=Budget(max_states=budget), keep_graph=False)
    candidates = [s for s in ex.parents
                  if not (s.dessert_pile or s.dessert_discard or s.tasks) and s.phase == "choose" and not s.committed]
    candidates.sort(key=lambda s: len(ex.key_path(s)))
    candidates = candidates[:most_candidates]
    complete = 0
    for s in candidates:
        found, done = closed_sets(RULES, s, local_budget)
        complete += done
        if found:
            _, steps, states = ex.trace(s)
            return {"moves": [st.move for st in steps], "closed_states": len(found[0]), "candidates": len(candidates),
                    "completed": complete, "states": ex.states, "last_state": state_vars(states[-1])}
    return {"moves": None, "candidates": len(candidates), "completed": complete, "states": ex.states}


def endless_play(write: bool = False) -> ProofResult:
    """jd.ruling.no-serving-possible: play-on lets a game run for ever on jd-famine; the default ends it."""
    from tablerules.model.just_desserts import Options

    clauses = ("jd.ruling.no-serving-possible", "jd.serve.satisfies", "jd.turn.dump-tray", "jd.reshuffle.desserts")
    play_on = find_endless_play(Options(no_serving="play-on"))
    default = find_endless_play(Options())
    rows = [("play-on", f"{play_on['closed_states']:,} states play can never leave; shortest trace "
                        f"{len(play_on['moves'])} moves" if play_on["moves"] else "none found"),
            ("default (faq-score)", "none found" if default["moves"] is None else
             f"FOUND: {default['closed_states']} states after {len(default['moves'])} moves")]
    for label, r in (("play-on", play_on), ("default (faq-score)", default)):
        rows.append((f"{label} searched", f"{r['states']:,} states breadth-first; {r['completed']} of "
                                          f"{r['candidates']} "
                                          "candidates (every dessert in a hand) explored to the end"))
    witness = {
        "about": "Witness for jd.ruling.no-serving-possible: with the play-on alternative, the shortest trace "
                 "(breadth-first) into a set of states that play can never leave and that holds no end. Setup: "
                 f"2 players, deck {ENDLESS_DECK}, default rulings otherwise.",
        "ruleset": RULESET, "deck": ENDLESS_DECK, "players": 2,
        "rulings": {"jd.ruling.no-serving-possible": "play-on"},
        "witnesses": {"basic game": {k: v for k, v in play_on.items() if k in ("moves", "closed_states", "last_state")}
                      if play_on["moves"] else None},
    }
    if write:
        write_atomic(witness_path().parent.joinpath(ENDLESS_WITNESS), json.dumps(witness, indent=1) + "\n")
    if play_on["moves"] and default["moves"] is None:
        status = "play-on never ends; default ends"
    else:
        status = "unexpected: " + ("play-on found nothing" if not play_on["moves"] else "the default can run for ever")
    return ProofResult(RULESET, "endless-play", clauses, status, f"witness spec/witnesses/{ENDLESS_WITNESS}",
                       rows=rows, data={"witness": witness})


# --------------------------------------------------------------------------- guests that change hands for ever

POACHING_WITNESS = "jd-endless-play.json"


def endless_poaching(write: bool = False) -> ProofResult:
    """jd.ruling.endless-play: with Poaching on jd-famine (2 players) play can go round for ever with no end
    reachable (closed sets of the whole state graph, :mod:`tablerules.proofs.endless`); play-on, the default,
    plays on there; repeated-position ends the same game the third time a position starts a turn.

    The search counts states (the whole graph, about 356,000 states), never seconds.  The witness: the
    shortest trace into the nearest closed set and its loop (play-on), and the same trace followed by the
    loop until repeated-position ends the game."""
    from tablerules.model.just_desserts import RULES, Options

    from ..endless import CLOSED, endless_play as search

    clauses = ("jd.ruling.endless-play", "jd.poach.attempt", "jd.block.defender", "jd.win.any-time")
    setup = RULES.setup(2, Options(poaching=True), embedded_deck(ENDLESS_DECK))
    report = search(RULES, setup, f"{ENDLESS_DECK}, 2 players, poaching", EXHAUSTIVE_ENDLESS)
    nearest = report.nearest(CLOSED) if report.complete else None
    ending = _third_repetition(nearest) if nearest is not None else None
    rows = [("searched", report.summary()),
            ("play-on", "no closed set" if nearest is None else
             f"{report.count(CLOSED)} closed sets ({report.states_in(CLOSED):,} states); the nearest after "
             f"{len(nearest.trace)} moves, loop {' ; '.join(nearest.loop)}"),
            ("repeated-position", "-" if ending is None else
             f"the same game ends after {len(ending[0])} moves ({ending[1]})")]
    witness = {
        "about": "Witness for jd.ruling.endless-play: with Poaching and the default play-on, the shortest trace "
                 "(breadth-first) into a set of states from which no end can be reached, and its loop; under "
                 "repeated-position the same trace, then the loop again, ends the game the third time a position "
                 f"starts a turn. Setup: 2 players, deck {ENDLESS_DECK}, poaching, default rulings otherwise. Found "
                 "by `tablerules check --only endless-poaching` (the cycle analysis of the whole state graph).",
        "ruleset": RULESET, "deck": ENDLESS_DECK, "players": 2,
        "rulings": {"jd.ruling.endless-play": "play-on", "poaching": True},
        "witnesses": {} if nearest is None else {
            "closed set (play-on)": {"moves": [s.move for s in nearest.trace], "loop": list(nearest.loop),
                                     "closed_sets": report.count(CLOSED),
                                     "closed_states": report.states_in(CLOSED)},
            "third repetition (repeated-position)": {
                "options": {"jd.ruling.endless-play": "repeated-position", "poaching": True},
                "moves": ending[0], "outcome": ending[1]} if ending else None,
        },
    }
    if write:
        write_atomic(witness_path().parent.joinpath(POACHING_WITNESS), json.dumps(witness, indent=1) + "\n")
    status = ("play-on never ends; repeated-position ends" if nearest is not None and ending is not None
              else "unexpected: " + ("no closed set found" if nearest is None else "repeated-position did not end it"))
    return ProofResult(RULESET, "endless-poaching", clauses, status, f"witness spec/witnesses/{POACHING_WITNESS}",
                       rows=rows, data={"witness": witness})


EXHAUSTIVE_ENDLESS = 500_000
"""States the endless-poaching search may store (jd-famine with Poaching, 2 players, has 356,226)."""


def _third_repetition(component: Any) -> tuple[list[str], str] | None:
    """Under repeated-position: the component's trace, then its loop over and over until the game ends (the moves,
    and the outcome's text); None if it has not ended after three loops."""
    from tablerules.model.just_desserts import RULES, Options

    state = RULES.new_game(RULES.setup(2, Options(poaching=True, endless_play="repeated-position"),
                                       embedded_deck(ENDLESS_DECK)))
    moves = [s.move for s in component.trace]
    for text in moves:
        state = RULES.apply(state, RULES.parse_move(text, state.setup))
    for _ in range(3):
        for text in component.loop:
            state = RULES.apply(state, RULES.parse_move(text, state.setup))
            moves.append(text)
            if RULES.to_move(state) is TERMINAL:
                result = RULES.outcome(state)
                return moves, f"{result.clause}: winners {sorted(result.winners)}, {result.detail}"
    return None
