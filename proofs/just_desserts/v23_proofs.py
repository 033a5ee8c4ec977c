"""Deck facts for Just Desserts 2.3: the rulebook's claims about its (lost) deck, checked on ours.

The 2.3 rules were written for an older deck whose card list is not available.  Its
"Tips & Hints" and its Favorites section state facts about that deck; each is checked here,
directly, as a property of a deck in the schema (the retail 2015 list, given at run time,
and the project's teaching decks).  A result is ``holds`` or ``fails``; a failure names the
cards that break the claim.  Expected results are on record in
proofs/manifests/just_desserts_23.toml.
"""

from __future__ import annotations

from typing import Callable

import z3

from tablerules.model.just_desserts import v23 as jd
from tablerules.model.just_desserts import v23_claims as claims
from tablerules.model.decks import Deck

from ..checks import ProofResult

RULESET = jd.RULESET_ID
HOLDS, FAILS = "holds", "fails"


def _result(name: str, deck: Deck, clause: str, claim: str, breakers: tuple, witnesses: tuple = ()) -> ProofResult:
    status = FAILS if breakers else HOLDS
    rows = [
        ("deck", f"{deck.name} ({len(deck.dessert_cards())} desserts, {len(deck.guests)} guests)"),
        ("claim", claim),
    ]
    if breakers:
        rows.append(("broken by", ", ".join(_names(deck, breakers))))
    if witnesses:
        rows.append(("for instance", ", ".join(_names(deck, witnesses))))
    detail = "broken by: " + ", ".join(_names(deck, breakers)) if breakers else "nothing breaks it"
    return ProofResult(RULESET, name, (clause,), status, detail, rows,
                       data={"deck": deck.name, "breakers": [list(b) if isinstance(b, tuple) else b for b in breakers]})


def _names(deck: Deck, items: tuple) -> list[str]:
    out = []
    for it in items:
        if isinstance(it, tuple):
            out.append(" / ".join(_name(deck, x) for x in it))
        else:
            out.append(_name(deck, it))
    return out


def _name(deck: Deck, card: str) -> str:
    if deck.has_dessert(card):
        return deck.dessert(card).name
    if deck.has_guest(card):
        return deck.guest(card).name
    return card


def three_icons_favourite(deck: Deck, name: str) -> ProofResult:
    """jd23.tips.three-icons-favourite"""
    return _result(name, deck, "jd23.tips.three-icons-favourite",
                   "every dessert with three or more icons is some guest's Favorite",
                   claims.three_icons_not_favourite(deck))


def two_icons_some_favourite(deck: Deck, name: str) -> ProofResult:
    """jd23.tips.two-icons-some-favourite: both halves; a half that is empty breaks the claim."""
    favs, others = claims.two_icon_split(deck)
    breakers: tuple = ()
    if not favs:
        breakers += ("no two-icon dessert is a Favorite",)
    if not others:
        breakers += ("every two-icon dessert is a Favorite",)
    return _result(name, deck, "jd23.tips.two-icons-some-favourite",
                   "some two-icon desserts are Favorites and some are not", breakers,
                   witnesses=favs[:1] + others[:1])


def single_icon_never_favourite(deck: Deck, name: str) -> ProofResult:
    """jd23.tips.single-icon-never-favourite"""
    return _result(name, deck, "jd23.tips.single-icon-never-favourite",
                   "no single-icon dessert is a Favorite", claims.single_icon_favourites(deck))


def names_hint(deck: Deck, name: str) -> ProofResult:
    """jd23.tips.names-hint: holds when at least one guest's name shares a word with its Favorite."""
    hints = claims.name_hints(deck)
    breakers = () if hints else ("no guest's name shares a word with its Favorite",)
    return _result(name, deck, "jd23.tips.names-hint",
                   "some guest's name shares a word (4+ letters) with its Favorite", breakers, witnesses=hints)


def nature_girl(deck: Deck, name: str) -> ProofResult:
    """jd23.favourite.nature-girl"""
    return _result(name, deck, "jd23.favourite.nature-girl",
                   "every guest but Nature Girl has a Favorite, and she has none", claims.favourite_exceptions(deck))


def servable_guests(deck: Deck, name: str) -> ProofResult:
    """jd23.serve.one-to-three: each guest can be served from the deck's cards with one to three desserts."""
    return _result(name, deck, "jd23.serve.one-to-three",
                   "every guest can be satisfied by one to three desserts of the deck", claims.unservable_guests(deck))


def favourites_usable(deck: Deck, name: str) -> ProofResult:
    """jd23.favourite.extra-card: each Favorite belongs to a serving with no card to spare."""
    return _result(name, deck, "jd23.favourite.extra-card",
                   "every Favorite is part of some serving of one to three cards with none to spare",
                   claims.idle_favourites(deck))


FACTS: dict[str, Callable[[Deck, str], ProofResult]] = {
    "three-icons-favourite": three_icons_favourite,
    "two-icons-some-favourite": two_icons_some_favourite,
    "single-icon-never-favourite": single_icon_never_favourite,
    "names-hint": names_hint,
    "nature-girl": nature_girl,
    "servable-guests": servable_guests,
    "favourites-usable": favourites_usable,
}
TEACHING_DECKS = ("v23-tiny", "v23-crowd", "v23-tips")


def fact_name(fact: str, deck_label: str) -> str:
    """Manifest key: `<fact>@<deck>`, e.g. `single-icon-never-favourite@retail`."""
    return f"{fact}@{deck_label}"


def deck_facts(deck: Deck, deck_label: str) -> list[ProofResult]:
    """Every claim on one deck."""
    return [fn(deck, fact_name(fact, deck_label)) for fact, fn in FACTS.items()]


# --------------------------------------------------------------------------- a bound for every deck

PROVED, COUNTEREXAMPLE = "proved", "counterexample"


def rounds_bounded() -> ProofResult:
    """With G guests, a game has at most 2G rounds (turn-ups), on any deck (z3).

    Between rounds the guest cards are in the pile (p), the discards (d) or collected (c),
    p + d + c = G.  A round turns up one guest (jd23.round.turn-up-guest) that is then
    either served or discarded (jd23.round.five-endings); the first time the pile is empty
    the discards become the pile (jd23.guests.reshuffle-once); the second time the game
    ends (jd23.end.second-exhaustion).  The ranking V = p + (p + d, until the reshuffle)
    starts at 2G, never goes below 0, drops by at least one each round and does not rise
    at the reshuffle: z3 finds no transition that breaks this (the negations are unsat).
    """
    G, p, d, c = z3.Ints("G p d c")
    p2, d2, c2 = z3.Ints("p2 d2 c2")
    r, r2 = z3.Bools("reshuffled reshuffled2")
    served = z3.Bool("served")

    def rank(p, d, r):
        return z3.If(r, p, 2 * p + d)

    def base(s: z3.Solver) -> None:
        s.assert_and_track(
            z3.And(G >= 1, p >= 0, d >= 0, c >= 0, p + d + c == G),
            "jd23.setup.shuffle#guests-in-pile-discards-or-collected",
        )

    rows = []
    # a round
    s = z3.Solver()
    s.set(unsat_core=True)
    base(s)
    s.assert_and_track(p >= 1, "jd23.round.turn-up-guest#a-guest-to-turn-up")
    s.assert_and_track(z3.And(p2 == p - 1, r2 == r), "jd23.round.turn-up-guest#one-guest-leaves-the-pile")
    s.assert_and_track(z3.If(served, z3.And(c2 == c + 1, d2 == d), z3.And(d2 == d + 1, c2 == c)),
                       "jd23.round.five-endings#served-or-discarded")
    s.assert_and_track(rank(p2, d2, r2) > rank(p, d, r) - 1, "claim-negated#rank-drops-each-round")
    round_ok = s.check() == z3.unsat
    rows.append(
        (
            "each round lowers the rank",
            "unsat: " + ", ".join(sorted(str(x) for x in s.unsat_core())) if round_ok else f"sat: {s.model()}",
        )
    )
    # the reshuffle
    s = z3.Solver()
    s.set(unsat_core=True)
    base(s)
    s.assert_and_track(z3.And(p == 0, z3.Not(r), d >= 1), "jd23.guests.reshuffle-once#first-run-out")
    s.assert_and_track(z3.And(p2 == d, d2 == 0, c2 == c, r2), "jd23.guests.reshuffle-once#discards-become-the-pile")
    s.assert_and_track(rank(p2, d2, r2) > rank(p, d, r), "claim-negated#rank-does-not-rise")
    shuffle_ok = s.check() == z3.unsat
    rows.append(
        (
            "the reshuffle does not raise it",
            "unsat: " + ", ".join(sorted(str(x) for x in s.unsat_core())) if shuffle_ok else f"sat: {s.model()}",
        )
    )
    # start value and floor
    s = z3.Solver()
    base(s)
    s.add(z3.Or(rank(p, d, r) < 0, z3.And(p == G, d == 0, z3.Not(r), rank(p, d, r) != 2 * G)))
    start_ok = s.check() == z3.unsat
    rows.append(("it starts at 2G and is never negative", "unsat" if start_ok else f"sat: {s.model()}"))
    ok = round_ok and shuffle_ok and start_ok
    clauses = (
        "jd23.round.turn-up-guest", "jd23.round.five-endings", "jd23.guests.reshuffle-once",
        "jd23.end.second-exhaustion",
    )
    detail = "at most 2 x guests rounds in any game on any deck" if ok else "the ranking argument fails"
    return ProofResult(RULESET, "rounds-bounded", clauses, PROVED if ok else COUNTEREXAMPLE, detail, rows)
