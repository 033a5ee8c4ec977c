"""Just Desserts: what the registered rulings' alternatives mean, as properties, and what a
seat may see.

The text properties (:mod:`.just_desserts`) say what the rulebook says; where it is silent a
ruling decides, and its alternatives' meanings (spec/just_desserts.toml) are what the model
must then do.  These properties state those meanings, read through the core API like the
text properties, so a mutant inside a ruling's implementation that does what no alternative
means is caught:

* the publisher's scoring (jd.ruling.all-guests-claimed = faq-score): a point per guest and a
  bonus per matching pair, where a matching pair is as jd.ruling.matching-pair's chosen
  alternative counts it; most points wins, a tie goes to the most desserts in hand, then
  jd.ruling.score-full-tie;
* a hand is its holder's (jd.setup.deal-hands, jd.turn.draw-phase: the cards are dealt to
  and drawn into *your* hand): a seat's observation shows its own hand, the others only as
  sizes, and the legal moves only of the seat to move, to that seat alone (a move names the
  cards it plays, so another seat's moves would show its hand);
* the end tells nobody more than they see (jd.ruling.no-serving-possible: the stuck-game end
  looks at hands, so the players lay them open first): two positions a seat cannot tell
  apart, because two other seats' hidden desserts are swapped, end alike after the same
  move, or the hands are open where they part;
* a drawn card comes from the pile a seat sees (jd.ruling.reshuffle-time, whichever alternative).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from tablerules.model.core import CHANCE, TERMINAL, IllegalMove, RuleGap

from . import Property

SCORING_END = "jd.ruling.all-guests-claimed"


def _pairs(counts: list[int], reading: str) -> int:
    """jd.ruling.matching-pair, as each alternative's meaning says."""
    if reading == "exactly-two":
        return sum(1 for k in counts if k == 2)
    if reading == "every-two":
        return sum(k * (k - 1) // 2 for k in counts)
    return sum(k // 2 for k in counts)  # pairs: each two guests of one suit


def faq_scoring(rules: Any, state: Any) -> str | None:
    """jd.ruling.all-guests-claimed = faq-score (with jd.ruling.matching-pair and
    jd.ruling.score-full-tie): a game scored by the publisher's answer gives each seat a
    point per guest and a bonus point per matching pair; the most points win, a tie goes to
    the most desserts in hand, and a tie on both is a draw or a shared win."""
    if rules.to_move(state) is not TERMINAL:
        return None
    result = rules.outcome(state)
    if result is None or result.clause not in (SCORING_END, "jd.ruling.score-full-tie") or not result.scores:
        return None
    v = rules.state_vars(state)
    deck = state.setup.components
    reading = state.setup.options.matching_pair
    points = []
    for guests in v["claimed"]:
        counts = list(Counter(deck.suit_of(g) for g in guests).values())
        points.append(len(guests) + _pairs(counts, reading))
    if list(result.scores) != points:
        return f"scores {list(result.scores)}, the publisher's count ({reading} pairs) gives {points}"
    keys = [(points[s], len(v["hands"][s])) for s in range(len(points))]
    top = {s for s, k in enumerate(keys) if k == max(keys)}
    if len(top) == 1 or state.setup.options.score_full_tie == "shared-win":
        if set(result.winners) != top or result.draw:
            return f"points and hands {keys}: expected winners {sorted(top)}, got {result.summary()}"
    elif not result.draw or result.winners:
        return f"points and hands {keys} tie: expected a draw (score-full-tie), got {result.summary()}"
    return None


def private_hands(rules: Any, state: Any) -> str | None:
    """jd.setup.deal-hands: each seat sees its own hand and only the sizes of the others
    (jd.ruling.open-hands=when-all-in-hands: all of them, exactly when every dessert is in a hand);
    it is shown the legal moves when it is the seat to move, and no one else's."""
    v = rules.state_vars(state)
    actor = rules.to_move(state)
    moves = [str(m) for m in rules.legal_moves(state)] if isinstance(actor, int) else []
    for seat in range(state.setup.players):
        seen = rules.observation(state, seat)
        if list(seen.get("hand", [])) != list(v["hands"][seat]):
            return f"seat {seat} is shown the hand {seen.get('hand')}, it holds {v['hands'][seat]}"
        if list(seen.get("hand_sizes", [])) != [len(h) for h in v["hands"]]:
            return f"seat {seat} is shown hand sizes {seen.get('hand_sizes')}"
        every_dessert_held = not (v["dessert_pile"] or v["dessert_discard"])
        every_dessert_held = every_dessert_held and state.setup.options.open_hands == "when-all-in-hands"
        if seen.get("open_hands") != ([list(h) for h in v["hands"]] if every_dessert_held else None):
            return f"seat {seat} is shown open hands {seen.get('open_hands')} while " + (
                "every dessert is in a hand" if every_dessert_held else "desserts lie in the pile or its discards"
            )
        shown = list(seen.get("legal_moves", []))
        expected = moves if actor == seat else []
        if shown != expected:
            return f"seat {seat} is shown the legal moves {shown[:4]}, expected {expected[:4]} (seat {actor} moves)"
        if seen.get("to_move") != (actor if isinstance(actor, int) else repr(actor)):
            return f"seat {seat} is told {seen.get('to_move')!r} moves, it is {actor!r}"
    return None


def hidden_twin(state: Any, seat: int) -> Any | None:
    """The same position with one dessert swapped between the hands of two other seats (a
    position ``seat`` cannot tell apart from this one), or None if there is no such swap.
    The one place this module builds a state: by replacing its hands, no rule function."""
    others = [s for s in range(len(state.hands)) if s != seat]
    for i, a in enumerate(others):
        for b in others[i + 1:]:
            for x in sorted(set(state.hands[a])):
                for y in sorted(set(state.hands[b])):
                    if x != y:
                        ha, hb = list(state.hands[a]), list(state.hands[b])
                        ha.remove(x)
                        hb.remove(y)
                        hands = list(state.hands)
                        hands[a], hands[b] = tuple(sorted(ha + [y])), tuple(sorted(hb + [x]))
                        return dataclasses.replace(state, hands=tuple(hands))
    return None


def _over(rules: Any, state: Any) -> bool:
    return rules.to_move(state) is TERMINAL


def end_is_public(rules: Any, state: Any, move: Any, nxt: Any) -> str | None:
    """jd.ruling.no-serving-possible: for each seat, a twin position it cannot tell apart
    (two other seats' desserts swapped, :func:`hidden_twin`) ends after the same move exactly
    when this one does, unless the hands lie open there (``open_hands`` in the observation
    shows the two positions apart).  A property of jd.ruling.open-hands=when-all-in-hands: under
    ``never`` the end can show what a seat cannot see, the reason for that ruling's default."""
    if rules.to_move(state) is CHANCE and getattr(move, "verb", "") == "first":
        return None  # who speaks first in a race is drawn among the seats answering
    for seat in range(state.setup.players):
        twin = hidden_twin(state, seat)
        if twin is None or rules.observation(twin, seat) != rules.observation(state, seat):
            continue
        try:
            other = rules.apply(twin, move)
        except (IllegalMove, RuleGap):
            continue  # the move shows a card the twin's seat does not hold: the move itself is public
        if _over(rules, nxt) == _over(rules, other):
            continue
        if rules.observation(nxt, seat).get("open_hands") != rules.observation(other, seat).get("open_hands"):
            continue
        ended = "ends" if _over(rules, nxt) else "goes on"
        return (f"after {move}, the game {ended} here but not in a position seat {seat} cannot tell apart "
                f"(hidden desserts of two other seats swapped): the end shows what the seat cannot see")
    return None


def draws_from_the_visible_pile(rules: Any, state: Any) -> str | None:
    """jd.ruling.reshuffle-time: a card drawn or turned up comes from the pile every seat sees (at-once: the pile is
    rebuilt the moment it runs out; when-needed: when a draw is due, before it)."""
    if rules.to_move(state) is not CHANCE:
        return None
    v = rules.state_vars(state)
    for move, _ in rules.chance_outcomes(state):
        verb = getattr(move, "verb", "")
        card, pile = ((move.cards[0], v["dessert_pile"]) if verb == "draw" else
                      (move.guest, v["guest_pile"]) if verb == "turn-up" else (None, ()))
        if card is not None and card not in pile:
            return f"{move} may happen, but the pile it comes from is seen as {sorted(pile)}"
    return None


PROPERTIES = (
    Property("jd.ruling.all-guests-claimed", "the publisher's scoring: a point per guest, a bonus per matching pair "
             "(as matching-pair counts it); most points, then most desserts in hand, then score-full-tie",
             state=faq_scoring, name="faq-score", lines=(36, 38),
             under={"jd.ruling.all-guests-claimed": ("faq-score",)},
             reads=("jd.ruling.matching-pair", "jd.ruling.score-full-tie")),
    Property("jd.setup.deal-hands", "a seat sees its own hand, the others' sizes (every hand once every dessert is in "
             "a hand, under open-hands=when-all-in-hands), and the legal moves only when it moves",
             state=private_hands, name="private", lines=((6, 6), (17, 17)), reads=("jd.ruling.open-hands",)),
    Property("jd.ruling.reshuffle-time", "a card drawn or turned up comes from the pile every seat sees (rebuilt "
             "from its discards at once, or when the draw is due)", state=draws_from_the_visible_pile,
             name="visible-pile", lines=(34, 34)),
    Property("jd.ruling.no-serving-possible", "two positions a seat cannot tell apart (other seats' hidden desserts "
             "swapped) end alike after the same move, or the hands lie open where they part",
             transition=end_is_public,
             applies=lambda setup: setup.players >= 3, under={"jd.ruling.open-hands": ("when-all-in-hands",)},
             name="public-end", lines=((6, 6), (34, 34), (36, 36))),
)
