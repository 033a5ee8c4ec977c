"""Who Is Going to Do the Dishes?: the end (dishes.end.*).

The game is over when nobody can move (or as the stuck-player ruling says), nothing is accepted
after it, and the players with the most dishes lose, the outcome citing the clause or the ruling
that decided it.
"""

from __future__ import annotations

from tablerules.model.core import CHANCE, TERMINAL, RuleGap

from .. import but
from .readers import (CLEAN, COMBINATION_READS, Table, _state, clear_combination, disagreement, dishes_of, has_move,
    probe_places, ruling, table, texts)


def ends_when_nobody_can_move(rules, state):
    """dishes.end.no-moves: when no player has a move of either kind the game is over:
    nobody is to move and no move is legal."""
    if rules.to_move(state) is CHANCE:
        return None
    t = table(rules, state)
    setup = state.setup
    if any(has_move(setup, t, s) for s in range(setup.players)):
        return None
    if rules.to_move(state) is not TERMINAL:
        return f"nobody can move, yet {rules.to_move(state)} is to move"
    if rules.legal_moves(state):
        return f"the game is over, yet {texts(rules.legal_moves(state))} are legal"
    return None


def nothing_after_the_end(rules, state):
    """dishes.end.no-moves: once the game is over no move is legal: legal_moves is empty and
    illegal_reason refuses a pass, every turn and every placement."""
    if rules.to_move(state) is not TERMINAL:
        return None
    if rules.legal_moves(state) or rules.chance_outcomes(state):
        return "the game is over, yet moves or chance outcomes are offered"
    t = table(rules, state)
    probes = probe_places(t)
    candidates = ["pass"] + [f"turn {p}" for p in probes] + [f"place {a} on {b}" for a in probes for b in probes]
    return disagreement(rules, state, candidates, set(), "after the end")


def ends_only_then(rules, state):
    """dishes.end.no-moves: the game is over only when nobody has a move (not under
    stuck-player=game-ends, which departs: see the next property)."""
    if rules.to_move(state) is not TERMINAL:
        return None
    t = table(rules, state)
    setup = state.setup
    movers = [s for s in range(setup.players) if has_move(setup, t, s)]
    return f"the game is over, yet seats {movers} have moves" if movers else None


def stuck_ends_game(rules, state):
    """dishes.end.no-moves under stuck-player=game-ends (its meaning): the game is over exactly
    when the player whose turn it is has no move."""
    if rules.to_move(state) is CHANCE:
        return None
    t = table(rules, state)
    stuck = not has_move(state.setup, t, t.turn)
    over = rules.to_move(state) is TERMINAL
    if stuck != over:
        return f"seat {t.turn} {'is stuck' if stuck else 'can move'}, yet the game is {'over' if over else 'not over'}"
    return None


def silent_end(setup, t: Table, most: set[int]) -> set[str]:
    """The strict alternatives chosen that find the text silent at this end: a clean tile left on
    the table (clean-at-end), tile and pile counts naming different losers (dishes-count),
    a tie for most (tie-for-most)."""
    out = set()
    if ruling(setup, "clean-at-end") == "strict" and any(s == CLEAN for s in t.places.values()):
        out.add("dishes.ruling.clean-at-end")
    if ruling(setup, "dishes-count") == "strict":
        by = {how: [dishes_of(setup, t, s, how) for s in range(setup.players)] for how in ("tiles", "stacks")}
        if len({frozenset(s for s, c in enumerate(cs) if c == max(cs)) for cs in by.values()}) > 1:
            out.add("dishes.ruling.dishes-count")
    if ruling(setup, "tie-for-most") == "strict" and len(most) > 1:
        out.add("dishes.ruling.tie-for-most")
    return out


def most_dishes_loses(rules, state):
    """dishes.end.most-dishes-loses: a finished game's losers are the players with the most
    dishes (counted as dishes-count and clean-at-end choose; ties as tie-for-most chooses),
    and its scores, where given, are those dishes; an unfinished game has no outcome.  Where
    a chosen strict alternative finds the text silent nothing is claimed; a gap anywhere else
    is reported."""
    if rules.to_move(state) is not TERMINAL:
        result = rules.outcome(state)
        return None if result is None else f"an outcome {result.summary()} before the end"
    t = table(rules, state)
    setup = state.setup
    seats = range(setup.players)
    counts = [dishes_of(setup, t, s) for s in seats]
    most = {s for s, c in enumerate(counts) if c == max(counts)}
    silent = silent_end(setup, t, most)
    try:
        result = rules.outcome(state)
    except RuleGap as gap:
        if gap.ruling in silent:
            return None
        return f"a rule gap {gap.ruling} at the end, yet no strict alternative chosen finds the text silent here"
    if silent:
        return None  # the text is silent here; whether strict raises is the gap finder's business
    if result is None:
        return "the game is over but has no outcome"
    if result.scores and list(result.scores) != counts:
        return f"scores {list(result.scores)}, but the players' dishes are {counts}"
    if len(most) > 1 and ruling(setup, "tie-for-most") == "no-loser":
        if result.losers or not result.draw:
            return f"dishes {counts}: a tie, expected a draw, got {result.summary()}"
        return None
    if set(result.losers) != most or result.draw:
        return f"dishes {counts}: expected losers {sorted(most)}, got {result.summary()}"
    return None


def outcome_cites_its_clause(rules, state):
    """dishes.end.most-dishes-loses: an outcome names what decided it.  One player with
    strictly the most dishes loses by the clause itself; a tie for most is decided by the
    tie ruling (dishes.ruling.tie-for-most), which the outcome must then name (a reading
    says so, and names its ruling)."""
    if rules.to_move(state) is not TERMINAL:
        return None
    t = table(rules, state)
    setup = state.setup
    counts = [dishes_of(setup, t, s) for s in range(setup.players)]
    most = {s for s, c in enumerate(counts) if c == max(counts)}
    if silent_end(setup, t, most):
        return None
    result = rules.outcome(state)
    if result is None:
        return None
    expected = "dishes.end.most-dishes-loses" if len(most) == 1 else "dishes.ruling.tie-for-most"
    if result.clause != expected:
        return f"dishes {counts}: the outcome cites {result.clause!r}, expected {expected!r}"
    return None


PROPERTIES = (
    _state("dishes.end.no-moves", "when nobody can move the game is over",
           ends_when_nobody_can_move, applies=clear_combination, name="ends", lines=(32, 32),
           reads=COMBINATION_READS),
    _state("dishes.end.no-moves", "after the end no move is legal or accepted",
           nothing_after_the_end, name="nothing-after", lines=(32, 32)),
    _state("dishes.end.no-moves", "the game is over only when nobody can move (not under stuck-player=game-ends)",
           ends_only_then, applies=clear_combination,
           under=but("dishes.ruling.stuck-player", "game-ends"), name="only-then", lines=(32, 32),
           reads=COMBINATION_READS),
    _state("dishes.end.no-moves", "under stuck-player=game-ends: over exactly when the player to move is stuck",
           stuck_ends_game, applies=clear_combination,
           under={"dishes.ruling.stuck-player": ("game-ends",)}, name="game-ends", lines=(32, 32),
           reads=COMBINATION_READS),
    _state("dishes.end.most-dishes-loses", "the players with the most dishes lose (counting, tie, strict rulings)",
           most_dishes_loses, applies=clear_combination, lines=(32, 32),
           reads=(*COMBINATION_READS, "dishes.ruling.dishes-count", "dishes.ruling.clean-at-end",
                  "dishes.ruling.tie-for-most")),
    _state("dishes.end.most-dishes-loses", "the outcome cites the clause, or the tie ruling when players tie",
           outcome_cites_its_clause, applies=clear_combination, name="cites", lines=(32, 32),
           reads=(*COMBINATION_READS, "dishes.ruling.dishes-count", "dishes.ruling.clean-at-end",
                  "dishes.ruling.tie-for-most")),
)
