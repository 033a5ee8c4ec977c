"""Who Is Going to Do the Dishes?: play (dishes.play.*).

Who moves (the first player, then clockwise), the one move of a turn, turning one's own clean tile
(its colour then shown by chance), and placing a soiled pile, whole, on a top of the same kind or
colour in any layout.
"""

from __future__ import annotations

import json
from fractions import Fraction

from tablerules.model.core import CHANCE, TERMINAL, RuleGap

from .readers import (CLEAN, COMBINATION_READS, _move, _state, clear_combination, compare, disagreement, is_start,
    kind_of, kinds_in_play, layout_of, may_move, probe_places, refused, ruling, seat_places, seat_to_move, settle,
    table, text_places, text_turns, texts, tiles_match)


def first_player_starts(rules, state):
    """dishes.play.first-player: once any chance at the start is done, the first player
    moves: seat 0 (the player who washed up last) under seat-0; under random a chance draw
    picks each seat with probability 1/n, and the seat drawn moves."""
    if not is_start(rules, state):
        return None
    rule = ruling(state.setup, "first-player")
    for path, s in settle(rules, state):
        firsts = [m for m in path if m.startswith("first ")]
        actor = rules.to_move(s)
        if rule == "seat-0":
            if firsts or actor != 0:
                return f"after {list(path)} {actor} moves first, expected seat 0"
        else:
            if len(firsts) != 1 or actor != int(firsts[0].split()[1]):
                return f"after {list(path)} {actor} moves first"
    return None


def first_player_draw(rules, state):
    """dishes.play.first-player: a first-player draw happens only under random, before
    anybody has moved, and gives every seat the same chance."""
    if rules.to_move(state) is not CHANCE:
        return None
    outcomes = {str(m): p for m, p in rules.chance_outcomes(state)}
    firsts = {m: p for m, p in outcomes.items() if m.startswith("first ")}
    if not firsts:
        return None
    n = state.setup.players
    if ruling(state.setup, "first-player") != "random":
        return "a first-player draw under first-player=seat-0"
    if firsts != outcomes or firsts != {f"first {k}": Fraction(1, n) for k in range(n)}:
        return f"first-player draw {outcomes}, expected each of {n} seats with 1/{n}"
    t = table(rules, state)
    if any(t.places[p] != CLEAN for s in range(n) for p in seat_places(state.setup, t, s)
           if kind_of(p) in kinds_in_play(state.setup)):
        return "a first-player draw after a player has moved"
    return None


def clockwise(rules, state, move, nxt):
    """dishes.play.clockwise: after a player's move (its tile's colour shown, if it turned
    one) the next player clockwise, seat k + 1, moves, unless the game is over."""
    seat = seat_to_move(rules, state)
    if seat is None:
        return None
    want = (seat + 1) % state.setup.players
    for path, s in settle(rules, nxt):
        actor = rules.to_move(s)
        if actor is not TERMINAL and actor != want:
            return f"after seat {seat}'s {move} {list(path)}: {actor} moves, expected seat {want}"
    return None


def move_kinds(rules, state):
    """dishes.play.one-move: the player to move has the two kinds of move and nothing else;
    a pass only where a ruling gives one: always under voluntary-pass=allowed, and as the
    only move of a stuck player under stuck-player=skip."""
    seat = seat_to_move(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    setup = state.setup
    real = text_turns(setup, t, seat) | text_places(setup, t, seat)
    stuck = not real
    try:
        moves = set(texts(rules.legal_moves(state)))
    except RuleGap as gap:
        if gap.ruling == "dishes.ruling.stuck-player" and not stuck:
            return f"a stuck-player gap, yet seat {seat} has moves {sorted(real)[:3]}"
        raise
    if stuck and ruling(setup, "stuck-player") == "strict":
        return None  # the text is silent here; whether strict raises is the gap finder's business
    passes = ruling(setup, "voluntary-pass") == "allowed" or (stuck and ruling(setup, "stuck-player") == "skip")
    if stuck and ruling(setup, "stuck-player") == "skip" and moves != {"pass"}:
        return f"seat {seat} is stuck: moves {sorted(moves)}, expected only a pass"
    problem = compare(moves, real | ({"pass"} if passes else set()), f"seat {seat}")
    if problem:
        return problem
    if refused(rules, state, "pass") == passes:
        return f"illegal_reason {'refuses' if passes else 'allows'} a pass"
    return None


def pass_changes_nothing(rules, state, move, nxt):
    """dishes.play.one-move: a pass leaves the table as it was."""
    if str(move) != "pass":
        return None
    before, after = table(rules, state), table(rules, nxt)
    if before.places != after.places or after.reveal:
        return "a pass changed the table"
    return None


def turnable(rules, state):
    """dishes.play.turn-own-tile: the player to move may turn exactly their own clean tiles
    (legal_moves and illegal_reason agree, over every place)."""
    seat = seat_to_move(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    want = text_turns(state.setup, t, seat)
    got = {m for m in texts(rules.legal_moves(state)) if m.startswith("turn ")}
    return compare(got, want, f"seat {seat}'s turns") or disagreement(
        rules, state, (f"turn {p}" for p in probe_places(t)), want, "turning")


def turning_soils_one_tile(rules, state, move, nxt):
    """dishes.play.turn-own-tile: turning changes exactly that tile, from clean to one
    soiled tile of its kind lying in its place; nothing else on the table moves."""
    text = str(move)
    if not text.startswith("turn ") or seat_to_move(rules, state) is None:
        return None
    place = text.split()[1]
    before = table(rules, state)
    if before.places.get(place) != CLEAN:
        return f"{text}: {place} was not clean"
    for path, s in settle(rules, nxt):
        after = table(rules, s)
        changed = sorted(p for p in before.places if after.places.get(p) != before.places[p])
        if changed != [place]:
            return f"{text} {list(path)}: places {changed} changed, expected only {place}"
        pile = after.places[place]
        if len(pile) != 1 or pile[0].kind != kind_of(place) or pile[0].origin not in (None, layout_of(place)):
            return f"{text} {list(path)}: {place} holds {pile}, expected one soiled {kind_of(place)}"
    return None


def reveal_shows_that_tile(rules, state, move, nxt):
    """dishes.play.turn-own-tile: a tile's colour shows on that tile only: the revealed place
    was clean and waiting, and now holds one tile of its kind in the colour shown."""
    text = str(move)
    if not text.startswith("reveal "):
        return None
    _, place, colour = text.split()
    before, after = table(rules, state), table(rules, nxt)
    if place not in before.reveal or before.places.get(place) != CLEAN:
        return f"{text}: {place} was not a clean tile waiting to show"
    want = dict(before.places)
    got_tile = after.places.get(place)
    if (not isinstance(got_tile, tuple) or len(got_tile) != 1
            or (got_tile[0].colour, got_tile[0].kind) != (colour, kind_of(place))
            or got_tile[0].origin not in (None, layout_of(place))):
        return f"{text}: {place} now holds {got_tile}"
    want[place] = got_tile
    if after.places != want:
        return f"{text}: other places changed"
    if place in after.reveal or len(after.reveal) != len(before.reveal) - 1:
        return f"{text}: waiting tiles {list(before.reveal)} -> {list(after.reveal)}"
    return None


def waiting_tile_is_chance(rules, state):
    """dishes.play.turn-own-tile: while a turned tile has not shown its colour, nobody moves
    and the game is not over: chance shows it."""
    t = table(rules, state)
    if t.reveal and rules.to_move(state) is not CHANCE:
        return f"tiles {list(t.reveal)} wait to show their colour, yet {rules.to_move(state)} is to move"
    return None


def _legal_places(rules, state) -> set[str]:
    return {m for m in texts(rules.legal_moves(state)) if m.startswith("place ")}


def places_from_and_onto_dirty(rules, state):
    """dishes.play.place-dirty: every legal placement picks up a pile of soiled tiles the
    mover may move (dishes.ruling.movable-stacks) and puts it on a different pile of soiled
    tiles; never from or onto a clean tile or an empty place."""
    seat = seat_to_move(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    for m in sorted(_legal_places(rules, state)):
        _, src, _, dst = m.split()
        if src == dst:
            return f"{m}: a pile onto itself"
        if not t.pile(src) or not t.pile(dst):
            return f"{m}: {'source' if not t.pile(src) else 'target'} holds no soiled tile"
        if not may_move(state.setup, t, seat, src):
            return f"{m}: seat {seat} may not move the pile at {src}"
    return None


def places_match(rules, state):
    """dishes.play.place-match: every legal placement puts a top onto a top of the same kind
    or the same colour."""
    if seat_to_move(rules, state) is None:
        return None
    t = table(rules, state)
    for m in sorted(_legal_places(rules, state)):
        _, src, _, dst = m.split()
        if t.pile(src) and t.pile(dst) and not tiles_match(t.top(src), t.top(dst)):
            return f"{m}: {t.top(src).text} onto {t.top(dst).text} shares neither kind nor colour"
    return None


def places_refused(rules, state):
    """dishes.play.place-match: illegal_reason refuses exactly the placements the text
    forbids, over every pair of places."""
    seat = seat_to_move(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    want = text_places(state.setup, t, seat)
    probes = probe_places(t)
    pairs = (f"place {a} on {b}" for a in probes for b in probes)
    return disagreement(rules, state, pairs, want, "placing")


def places_anywhere(rules, state):
    """dishes.play.place-anyone: every placement the text allows is legal, onto piles in the
    mover's own layout and in every other layout alike."""
    seat = seat_to_move(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    missing = sorted(text_places(state.setup, t, seat) - _legal_places(rules, state))
    return f"seat {seat} may not make {', '.join(missing[:4])}" if missing else None


def places_by_tops(rules, state):
    """dishes.play.top-counts: the legal placements are exactly those judged on the piles'
    top tiles (what lies below plays no part)."""
    seat = seat_to_move(rules, state)
    if seat is None:
        return None
    t = table(rules, state)
    return compare(_legal_places(rules, state), text_places(state.setup, t, seat), f"seat {seat}'s placements")


def top_is_what_is_seen(rules, state):
    """dishes.play.top-counts: of a pile every seat sees the top tile; a tile below it, where
    it differs from the top, is not shown."""
    t = table(rules, state)
    for seat in range(state.setup.players):
        places = rules.observation(state, seat)["places"]
        for p in t.piles():
            entry = json.dumps(places[p])
            pile = t.places[p]
            if pile[-1].text not in entry:
                return f"seat {seat} does not see the top {pile[-1].text} at {p}"
            hidden = [s.text for s in pile[:-1] if s.text != pile[-1].text and s.text in entry]
            if hidden:
                return f"seat {seat} sees {hidden[0]}, covered in the pile at {p}"
    return None


def whole_pile_moves(rules, state, move, nxt):
    """dishes.play.move-whole-stack: placing puts the whole pile, in its order, on top of the
    target pile and leaves its place empty; nothing else changes."""
    text = str(move)
    if not text.startswith("place "):
        return None
    _, src, _, dst = text.split()
    before, after = table(rules, state), table(rules, nxt)
    want = dict(before.places)
    want[dst] = before.pile(dst) + before.pile(src)
    want[src] = ()
    if after.places != want:
        changed = sorted(p for p in want if after.places.get(p) != want[p])
        return (f"{text}: {', '.join(f'{p} holds {after.places.get(p)}' for p in changed[:2])}, expected "
                f"{[want[p] for p in changed[:2]]}")
    if after.reveal:
        return f"{text}: tiles wait to show their colour after a placement"
    return None


PROPERTIES = (
    _state("dishes.play.first-player", "after the start's chance the first player moves (first-player ruling)",
           first_player_starts, name="start", lines=(20, 20), reads=("dishes.ruling.first-player",)),
    _state("dishes.play.first-player", "a first-player draw only under random, before anyone moved, 1/n each",
           first_player_draw, name="draw", lines=(20, 20),
           reads=("dishes.ruling.first-player", "dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players")),
    _move("dishes.play.clockwise", "after a player's move the next seat clockwise moves (or the game is over)",
          clockwise, lines=(20, 20)),
    _state("dishes.play.one-move", "legal moves are turns, placements, and a pass only where a ruling gives one",
           move_kinds, applies=clear_combination, name="kinds", lines=(21, 23),
           reads=(*COMBINATION_READS, "dishes.ruling.stuck-player", "dishes.ruling.voluntary-pass")),
    _move("dishes.play.one-move", "a pass leaves the table unchanged",
          pass_changes_nothing, name="pass", lines=(21, 21)),
    _state("dishes.play.turn-own-tile", "the mover may turn exactly their own clean tiles",
           turnable, name="legal", lines=(22, 22),
           reads=("dishes.ruling.deal-2-players", "dishes.ruling.deal-3-players")),
    _move("dishes.play.turn-own-tile", "turning soils exactly that tile, in its place",
          turning_soils_one_tile, name="flip", lines=(22, 22)),
    _move("dishes.play.turn-own-tile", "a colour shows on the waiting clean tile only",
          reveal_shows_that_tile, name="reveal", lines=(22, 22)),
    _state("dishes.play.turn-own-tile", "while a turned tile waits for its colour, chance acts",
           waiting_tile_is_chance, name="waiting", lines=(22, 22)),
    _state("dishes.play.place-dirty", "placements move a movable soiled pile onto another soiled pile",
           places_from_and_onto_dirty, applies=clear_combination, lines=(23, 23),
           reads=COMBINATION_READS),
    _state("dishes.play.place-match", "placements put a top on a top of the same kind or colour",
           places_match, lines=(23, 24)),
    _state("dishes.play.place-match", "illegal_reason refuses exactly the placements the text forbids",
           places_refused, applies=clear_combination, name="refused", lines=(23, 24),
           reads=COMBINATION_READS),
    _state("dishes.play.place-anyone", "every placement the text allows is legal, in any layout",
           places_anywhere, applies=clear_combination, lines=(24, 24),
           reads=COMBINATION_READS),
    _state("dishes.play.top-counts", "legal placements are exactly those judged on the tops",
           places_by_tops, applies=clear_combination, name="moves", lines=(23, 24),
           reads=COMBINATION_READS),
    _state("dishes.play.top-counts", "every seat sees a pile's top, not what it covers (covered-tiles=top-only)",
           top_is_what_is_seen, name="seen", lines=(24, 24), under={"dishes.ruling.covered-tiles": ("top-only",)}),
    _move("dishes.play.move-whole-stack", "a placement puts the whole pile, in order, on the target's top",
          whole_pile_moves, lines=(23, 24)),
)
