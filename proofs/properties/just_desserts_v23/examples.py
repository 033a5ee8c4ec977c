"""Just Desserts 2.3: fixed positions, played move by move through the API (each round's
ending, mistaken calls, the Favorite's trump and card, the Kitchen, the guest pile, scoring, the
deal and the deck claims).
"""

from __future__ import annotations

from typing import Any, Callable

from tablerules.model.core import CHANCE, TERMINAL, RuleGap, SetupError, parse_options

from .. import Example, Problem
from .deck_claims import DECK_CLAIMS
from .readers import EMPTY_HAND, follow_forced, race_seats, refused, said, server_of, table


def _setup(rules: Any, deck: str = "v23-tiny", players: int = 2, *rulings: str) -> Any:
    return rules.setup(players, parse_options(rules.Options, list(rulings)), rules.load_components(deck))


def _step(rules: Any, state: Any, text: str) -> Any:
    """Apply a seat's move by its text, or the chance outcome whose text contains ``text``
    (so an example does not depend on the order in which seats are dealt or draw)."""
    if rules.to_move(state) is CHANCE:
        for m, _ in rules.chance_outcomes(state):
            if text in str(m):
                return rules.apply(state, m)
        raise AssertionError(f"no chance outcome {text!r} in {[str(m) for m, _ in rules.chance_outcomes(state)]}")
    return rules.apply(state, rules.parse_move(text, state.setup))


def _play(rules: Any, setup: Any, deal: tuple[str, ...], *moves: str) -> Any:
    """A game from the deal: ``deal`` is seat 0's hand then seat 1's (space-separated), then moves."""
    s = rules.new_game(setup)
    for seat, hand in enumerate(deal):
        for card in hand.split():
            s = _step(rules, s, f"seat {seat} draws {card}")
    for text in moves:
        s = _step(rules, s, text)
    return s


def _expect(rules: Any, state: Any, **want: Any) -> Problem:
    """Compare named readings of the final position with what the sentences settle."""
    t = table(rules, state)
    got = {
        "hand_sizes": [len(h) for h in t.hands], "dishes": [list(d) for d in t.dishes],
        "collected": [list(c) for c in t.collected], "discards": list(t.discards), "pile": len(t.pile),
        "closed": t.closed, "guest": t.guest, "over": rules.to_move(state) is TERMINAL,
        "floor": list(t.floor),
    }
    for k, v in want.items():
        if got[k] != v:
            return f"{k}: {got[k]}, the text says {v}"
    return None


# v23-tiny: FUDGE (Chocolate) x3, BERRIES (Fruit) x4, TART (Chocolate+Fruit) x2, NUT_BAR (Nuts) x3;
# BELLE wants Chocolate+Fruit, refuses Nuts, Favorite TART; NED wants Chocolate+Nuts, Favorites FUDGE and NUT_BAR.
SPLIT = ("FUDGE FUDGE FUDGE BERRIES BERRIES", "BERRIES BERRIES TART TART NUT_BAR")  # pile: NUT_BAR NUT_BAR


def ex_all_pass(rules: Any) -> Problem:
    """jd23.round.all-pass: both pass Nutty Ned: he is discarded, each draws one (the last two
    desserts; the Kitchen then closes), and the next guest is due."""
    s = _play(rules, _setup(rules), SPLIT, "turn up NED", "pass", "pass", "draws NUT_BAR", "draws NUT_BAR")
    return _expect(
        rules, s, hand_sizes=[6, 6], discards=["NED"], collected=[[], []], dishes=[[], []], pile=0, closed=True,
        guest=None,
    ) or (None if {said(m).kind for m, _ in rules.chance_outcomes(s)} == {"turn-up"} else "the next guest is not due")


def ex_lone_mistaken_caller(rules: Any) -> Problem:
    """jd23.call.erroneous-penalty: seat 0 alone calls for Nutty Ned with no nuts in hand, fails,
    loses a random card (onto its own dirty dishes: penalty-pile = caller), and still draws."""
    s = _play(rules, _setup(rules), SPLIT, "turn up NED", "call", "pass", "fail")
    if "penalty" not in {said(m).kind for m, _ in rules.chance_outcomes(s)}:
        return "no penalty after the lone caller failed"
    s = _step(rules, _step(rules, _step(rules, s, "takes FUDGE from seat 0"), "draws NUT_BAR"), "draws NUT_BAR")
    return _expect(rules, s, hand_sizes=[5, 6], dishes=[["FUDGE"], []], discards=["NED"], collected=[[], []])


def ex_several_mistaken(rules: Any) -> Problem:
    """jd23.reminder.all-mistaken-pay: both call for Nutty Ned, neither can serve him: each loses a
    random card onto its own dirty dishes, and both draw."""
    deal = ("FUDGE FUDGE FUDGE TART TART", "BERRIES BERRIES BERRIES BERRIES NUT_BAR")
    s, problem = follow_forced(rules, _play(rules, _setup(rules), deal, "turn up NED", "call", "call", "first 0"))
    if problem:
        return problem
    s = _step(rules, _step(rules, s, "fail"), "fail")
    for text in ("takes TART from seat 0", "takes BERRIES from seat 1", "draws NUT_BAR", "draws NUT_BAR"):
        s = _step(rules, s, text)
    return _expect(rules, s, hand_sizes=[5, 5], dishes=[["TART"], ["BERRIES"]], discards=["NED"], collected=[[], []])


def ex_covered(rules: Any) -> Problem:
    """jd23.call.erroneous-covered: both call for Berry Belle; seat 0 (no chocolate) is first and
    fails, seat 1 serves instead and nobody pays."""
    deal = ("NUT_BAR NUT_BAR NUT_BAR BERRIES BERRIES", "FUDGE FUDGE FUDGE BERRIES BERRIES")
    s = _play(rules, _setup(rules), deal, "turn up BELLE", "call", "call", "first 0")
    s, problem = follow_forced(rules, s)
    if problem:
        return problem
    s = _step(rules, s, "fail")
    if server_of(rules, s) != 1:
        return f"after seat 0 failed, {rules.to_move(s)!r} is to serve, not seat 1"
    s = _step(rules, s, "serve BERRIES+FUDGE")
    return _expect(
        rules, s, hand_sizes=[5, 3], dishes=[[], ["BERRIES", "FUDGE"]], collected=[[], ["BELLE"]], discards=[]
    )


def ex_simultaneous(rules: Any) -> Problem:
    """jd23.call.simultaneous: both call for Berry Belle at the very same moment: she is discarded,
    nobody serves, and both draw."""
    s = _play(rules, _setup(rules), ("FUDGE FUDGE FUDGE BERRIES BERRIES", "BERRIES BERRIES TART TART NUT_BAR"),
              "turn up BELLE", "call", "call", "simultaneous", "draws NUT_BAR", "draws NUT_BAR")
    return _expect(rules, s, hand_sizes=[6, 6], discards=["BELLE"], collected=[[], []], dishes=[[], []])


def ex_favourite_draws(rules: Any) -> Problem:
    """jd23.favourite.extra-card: seat 1 serves Berry Belle her Favorite, the tart, and draws one more
    dessert; one is left for two players, so the Kitchen closes."""
    s = _play(rules, _setup(rules), SPLIT, "turn up BELLE", "pass", "call", "serve TART", "draws NUT_BAR")
    return _expect(rules, s, hand_sizes=[5, 5], dishes=[[], ["TART"]], collected=[[], ["BELLE"]], pile=0, closed=True)


def ex_no_favourite_no_draw(rules: Any) -> Problem:
    """jd23.draw.guest-leaves-hungry: seat 0 serves Berry Belle fudge and berries, not her Favorite:
    nobody draws."""
    s = _play(rules, _setup(rules), SPLIT, "turn up BELLE", "call", "pass", "serve BERRIES+FUDGE")
    return _expect(rules, s, hand_sizes=[3, 5], pile=2, closed=False, collected=[["BELLE"], []]) or (
        None
        if {said(m).kind for m, _ in rules.chance_outcomes(s)} == {"turn-up"}
        else "a draw after a serving without a Favorite"
    )


def ex_closed_kitchen(rules: Any) -> Problem:
    """jd23.reminder.closed-kitchen: everyone drew the last desserts for hungry Ned, so the Kitchen
    is closed; seat 1 then serves Berry Belle her Favorite and draws nothing."""
    s = _play(rules, _setup(rules), SPLIT, "turn up NED", "pass", "pass", "draws NUT_BAR", "draws NUT_BAR",
              "turn up BELLE", "pass", "call", "serve TART")
    return _expect(rules, s, hand_sizes=[6, 5], closed=True, collected=[[], ["BELLE"]])


def ex_kitchen_closes_after_deal(rules: Any) -> Problem:
    """jd23.kitchen.closes: on v23-crowd (11 desserts) the deal leaves one dessert for two players:
    the Kitchen is closed before the first guest and that dessert set aside (kitchen-check =
    whenever-short)."""
    s = _play(
        rules, _setup(rules, "v23-crowd"), ("FUDGE FUDGE FUDGE NUT_BAR NUT_BAR", "FUDGE FUDGE FUDGE NUT_BAR NUT_BAR")
    )
    t = table(rules, s)
    return (
        None
        if t.closed and t.set_aside == ("NUT_BAR",) and not t.pile
        else f"closed {t.closed}, set aside {t.set_aside}"
    )


def ex_trump(rules: Any) -> Problem:
    """jd23.call.favourite-trump (favourite-caller-first): both call for Berry Belle; seat 0 is first
    with fudge and berries, seat 1 holds her Favorite and trumps; seat 1 must serve the tart."""
    deal = ("FUDGE BERRIES NUT_BAR NUT_BAR NUT_BAR", "TART FUDGE BERRIES BERRIES BERRIES")
    s = _play(rules, _setup(rules), deal, "turn up BELLE", "call", "call", "first 0")
    s, problem = follow_forced(rules, s)
    if problem:
        return problem
    if server_of(rules, s) != 1 or [str(m) for m in rules.legal_moves(s)] != ["serve TART"]:
        return (
            f"{rules.to_move(s)!r} serves with {[str(m) for m in rules.legal_moves(s)]}, seat 1 should serve the tart"
        )
    return None


def ex_reshuffle_and_end(rules: Any) -> Problem:
    """jd23.guests.reshuffle-once / jd23.end.second-exhaustion: everybody passes everything; after
    both guests the discards become the guest pile again; after both once more the game is over."""
    setup = _setup(rules)
    s = _play(rules, setup, SPLIT, "turn up NED", "pass", "pass", "draws NUT_BAR", "draws NUT_BAR",
              "turn up BELLE", "pass", "pass")
    t = table(rules, s)
    if rules.to_move(s) is TERMINAL or t.guest_pile != ("BELLE", "NED") or t.discards:
        return (f"after the first pass: guest pile {t.guest_pile}, discards {t.discards}, over "
                f"{rules.to_move(s) is TERMINAL}")
    s = _step(rules, _step(rules, _step(rules, s, "turn up BELLE"), "pass"), "pass")
    if rules.to_move(s) is TERMINAL:
        return "the game ended with a guest left in the second pass"
    s = _step(rules, _step(rules, _step(rules, s, "turn up NED"), "pass"), "pass")
    return _expect(rules, s, over=True)


def ex_full_tie(rules: Any) -> Problem:
    """jd23.score.full-tie: nobody serves anybody: both hold six desserts, no guests, no dishes:
    a draw (jd23.ruling.full-tie = draw)."""
    s = _play(rules, _setup(rules), SPLIT, "turn up NED", "pass", "pass", "draws NUT_BAR", "draws NUT_BAR",
              "turn up BELLE", "pass", "pass", "turn up BELLE", "pass", "pass", "turn up NED", "pass", "pass")
    out = rules.outcome(s)
    return None if out is not None and out.draw and not out.winners else f"outcome {out and out.summary()}"


def ex_most_guests(rules: Any) -> Problem:
    """jd23.score.guests: seat 0 serves both guests and wins with the smaller hand."""
    deal = ("TART FUDGE NUT_BAR BERRIES BERRIES", "BERRIES BERRIES FUDGE FUDGE NUT_BAR")
    s = _play(rules, _setup(rules), deal, "turn up BELLE", "call", "pass", "serve TART", "draws TART",
              "turn up NED", "call", "pass", "serve FUDGE+NUT_BAR")
    out = rules.outcome(s)
    return _expect(rules, s, over=True, hand_sizes=[3, 5]) or (
        None if out.winners == {0} else f"outcome {out.summary()}"
    )


def ex_hand_breaks_tie(rules: Any) -> Problem:
    """jd23.score.tiebreak-hand: one guest each; seat 0 kept five desserts, seat 1 three: seat 0 wins."""
    deal = ("TART FUDGE FUDGE BERRIES BERRIES", "TART NUT_BAR NUT_BAR BERRIES BERRIES")
    s = _play(rules, _setup(rules), deal, "turn up BELLE", "call", "pass", "serve TART", "draws FUDGE",
              "turn up NED", "pass", "call", "serve NUT_BAR+TART")
    out = rules.outcome(s)
    return _expect(rules, s, over=True, hand_sizes=[5, 3]) or (
        None if out.winners == {0} else f"outcome {out.summary()}"
    )


def ex_dishes_break_tie(rules: Any) -> Problem:
    """jd23.score.tiebreak-dirty-dishes: one guest and four desserts each; seat 0 has one dirty dish,
    seat 1 two: seat 0 wins."""
    deal = ("TART BERRIES BERRIES BERRIES BERRIES", "FUDGE NUT_BAR FUDGE NUT_BAR TART")
    s = _play(rules, _setup(rules), deal, "turn up NED", "pass", "call", "serve FUDGE+NUT_BAR", "draws FUDGE",
              "turn up BELLE", "call", "pass", "serve TART")
    out = rules.outcome(s)
    return _expect(rules, s, over=True, hand_sizes=[4, 4], dishes=[["TART"], ["FUDGE", "NUT_BAR"]]) or (
        None if out.winners == {0} else f"outcome {out.summary()}")


def ex_deal_five(rules: Any) -> Problem:
    """jd23.setup.deal-five: two players on v23-tiny are dealt five each; three players cannot be
    (twelve desserts for fifteen)."""
    s = _play(rules, _setup(rules), SPLIT)
    if [len(h) for h in table(rules, s).hands] != [5, 5]:
        return "hands after the deal are not five each"
    try:
        _setup(rules, "v23-tiny", 3)
    except SetupError:
        return None
    return "three players accepted on a deck of twelve desserts"


def ex_player_counts(rules: Any) -> Problem:
    """jd23.setup.players: two to five players, no fewer, no more."""
    for n in range(1, 7):
        try:
            _setup(rules, "v23-tips", n)
            ok = True
        except SetupError:
            ok = False
        if ok != (2 <= n <= 5):
            return f"{n} players {'accepted' if ok else 'refused'}"
    return None


def ex_first_caller_keeps(rules: Any) -> Problem:
    """jd23.call.favourite-trump (favourite-caller-first): both call for Berry Belle and hold her
    Favorite; seat 0 is first, so it keeps her, and must serve her the tart."""
    deal = ("TART FUDGE BERRIES NUT_BAR NUT_BAR", "TART FUDGE BERRIES BERRIES BERRIES")
    s, problem = follow_forced(rules, _play(rules, _setup(rules), deal, "turn up BELLE", "call", "call", "first 0"))
    if problem:
        return problem
    got = [str(m) for m in rules.legal_moves(s)]
    return (
        None
        if server_of(rules, s) == 0 and got == ["serve TART"]
        else f"{rules.to_move(s)!r} may {got}, seat 0 should serve the tart"
    )


def ex_no_trump(rules: Any) -> Problem:
    """jd23.call.first-serves (favourite-trump = no-trump): the same position; seat 0 was first and
    serves as it likes, the tart or fudge and berries."""
    deal = ("TART FUDGE BERRIES NUT_BAR NUT_BAR", "TART FUDGE BERRIES BERRIES BERRIES")
    s = _play(rules, _setup(rules, "v23-tiny", 2, "jd23.ruling.favourite-trump=no-trump"), deal,
              "turn up BELLE", "call", "call", "first 0")
    got = sorted(str(m) for m in rules.legal_moves(s))
    return (
        None
        if server_of(rules, s) == 0 and got == ["serve BERRIES+FUDGE", "serve TART"]
        else f"{rules.to_move(s)!r} may {got}"
    )


# v23-tips: Chocolate Charlie wants Chocolate+Cake, refuses Nuts, Favorite CHOC_CAKE (Chocolate+Cake).
THREE = (
    "FUDGE SPONGE BERRIES BERRIES BERRIES", "CHOC_CAKE PEANUTS PEANUTS PEANUTS BERRIES",
    "CHOC_CAKE SPONGE FUDGE FUDGE FUDGE",
)


def ex_trumpers_race(rules: Any) -> Problem:
    """jd23.call.favourite-trump (favourite-caller-first), three players: all call for Chocolate
    Charlie; seat 0 is first without his Favorite, seats 1 and 2 both hold it: they race, and the
    winner must serve the chocolate cake."""
    s, problem = follow_forced(rules, _play(rules, _setup(rules, "v23-tips", 3), THREE, "turn up CHARLIE",
                                            "call", "call", "call", "first 0"))
    if problem:
        return problem
    race = race_seats(rules, s)
    if race is None or race[0] != {1, 2}:
        return f"the trumpers do not race: {race}"
    if not refused(rules, s, "first 0"):
        return "seat 0, trumped, may still be first in the trumpers' race"
    s = _step(rules, s, "first 2")
    got = [str(m) for m in rules.legal_moves(s)]
    return None if server_of(rules, s) == 2 and got == ["serve CHOC_CAKE"] else f"{rules.to_move(s)!r} may {got}"


def ex_next_seat_takes(rules: Any) -> Problem:
    """jd23.call.erroneous-penalty (penalty-taker = next-seat), three players: seat 1 alone calls for
    Chocolate Charlie with no cake and fails; seat 2 takes its random card."""
    deal = (
        "FUDGE SPONGE BERRIES BERRIES BERRIES", "FUDGE PEANUTS PEANUTS PEANUTS BERRIES",
        "CHOC_CAKE SPONGE FUDGE FUDGE SPONGE",
    )
    s = _play(rules, _setup(rules, "v23-tips", 3), deal, "turn up CHARLIE", "pass", "call", "pass", "fail")
    takers = {said(m).taker for m, _ in rules.chance_outcomes(s)}
    return None if takers == {2} else f"penalty takers {takers}, the next seat is 2"


def ex_three_players_scored(rules: Any) -> Problem:
    """jd23.score.guests, three players: seat 0 serves the first guest and everybody passes every
    other guest: seat 0 wins, on guests."""
    deal = (
        "FUDGE SPONGE BERRIES BERRIES BERRIES", "FUDGE PEANUTS PEANUTS PEANUTS BERRIES",
        "CHOC_CAKE SPONGE FUDGE PEANUTS SPONGE",
    )
    s = _play(
        rules, _setup(rules, "v23-tips", 3), deal, "turn up CHARLIE", "call", "pass", "pass", "serve FUDGE+SPONGE"
    )
    for _ in range(200):
        actor = rules.to_move(s)
        if actor is TERMINAL:
            break
        s = rules.apply(s, rules.chance_outcomes(s)[0][0] if actor is CHANCE else rules.parse_move("pass", s.setup))
    out = rules.outcome(s)
    if out is None or set(out.winners) != {0} or out.clause != "jd23.score.guests":
        return f"outcome {out and out.summary()} by {out and out.clause}, seat 0 should win on guests"
    return None


EMPTY_HANDED = (
    "turn up HAZEL", "pass", "call", "serve NUT_BAR", "turn up MIXIE", "pass", "call", "serve FUDGE+NUT_BAR",
    "turn up COCO", "pass", "call", "fail", "seat 0 takes NUT_BAR from seat 1", "turn up NOLA", "pass", "call",
    "serve NUT_BAR", "turn up COCO", "pass", "call",
)
"""v23-crowd (the Kitchen closes after the deal): seat 1 serves and pays until its hand is empty,
then calls again for Coco, whom it cannot serve (spec/witnesses/jd23-penalty-empty-hand.json)."""


def ex_empty_handed_caller(rules: Any) -> Problem:
    """jd23.call.erroneous-penalty with jd23.ruling.penalty-empty-hand: a lone mistaken caller with
    no dessert left loses nothing and Coco goes away (no-penalty); under strict that is the gap."""
    deal = ("FUDGE FUDGE FUDGE FUDGE FUDGE", "FUDGE NUT_BAR NUT_BAR NUT_BAR NUT_BAR")
    for choice in ("no-penalty", "strict"):
        s = _play(rules, _setup(rules, "v23-crowd", 2, f"{EMPTY_HAND}={choice}"), deal, *EMPTY_HANDED)
        if table(rules, s).hands[1]:
            return f"seat 1 still holds {table(rules, s).hands[1]}"
        try:
            s = _step(rules, s, "fail")
        except RuleGap:
            if choice == "strict":
                continue
            return "no-penalty raises a gap for the empty-handed caller"
        if choice == "strict":
            return "strict raises no gap for the empty-handed caller"
        t = table(rules, s)
        if t.guest is not None or t.discards != ("COCO",) or t.hands[1] or any(t.dishes[0]):
            return f"after the empty-handed failure: guest {t.guest}, discards {t.discards}, hands {t.hands}"
    return None


def ex_deck_claim(clause: str) -> Callable[[Any], Problem]:
    def check(rules: Any) -> Problem:
        return DECK_CLAIMS[clause](rules.load_components("v23-tips"))
    check.__doc__ = f"{clause} on v23-tips, the deck built to the Tips & Hints."
    return check


EXAMPLES = (
    Example(
        "jd23.round.all-pass", "all pass: the guest is discarded and everyone draws", ex_all_pass,
        lines=((15, 15), (21, 21), (31, 31)),
    ),
    Example(
        "jd23.call.erroneous-penalty", "a lone mistaken caller pays a card onto its dishes and still draws",
        ex_lone_mistaken_caller, lines=((19, 19), (29, 29)),
    ),
    Example(
        "jd23.reminder.all-mistaken-pay", "two mistaken callers each pay onto their own dishes", ex_several_mistaken,
        lines=((19, 19), (46, 46)),
    ),
    Example(
        "jd23.call.erroneous-covered", "a mistaken first caller is covered by the other caller; nobody pays",
        ex_covered, lines=(29, 29),
    ),
    Example(
        "jd23.call.simultaneous", "a tie: the guest is discarded and everyone draws", ex_simultaneous,
        lines=((18, 18), (27, 27)),
    ),
    Example(
        "jd23.favourite.extra-card", "a Favorite served draws an extra card", ex_favourite_draws,
        lines=((17, 17), (25, 25), (31, 31)),
    ),
    Example(
        "jd23.draw.guest-leaves-hungry", "a serving without a Favorite draws nothing", ex_no_favourite_no_draw,
        lines=(47, 47),
    ),
    Example(
        "jd23.reminder.closed-kitchen", "after the Kitchen closes nobody draws, not even for a Favorite",
        ex_closed_kitchen, lines=((31, 31), (48, 48)),
    ),
    Example(
        "jd23.kitchen.closes", "a deal that leaves too few desserts closes the Kitchen", ex_kitchen_closes_after_deal,
        lines=(31, 31),
    ),
    Example("jd23.call.favourite-trump", "a Favorite trumps the first caller", ex_trump, lines=((11, 11), (23, 23))),
    Example(
        "jd23.call.favourite-trump", "a first caller with the Favorite keeps the guest and serves it",
        ex_first_caller_keeps, name="first-keeps", lines=((11, 11), (23, 23)),
    ),
    Example(
        "jd23.call.favourite-trump", "two trumpers race; the winner serves the Favorite", ex_trumpers_race,
        name="trumpers-race", lines=((11, 11), (23, 23)),
    ),
    Example(
        "jd23.call.first-serves", "no-trump: the first caller serves any serving", ex_no_trump,
        lines=((11, 11), (23, 23)),
    ),
    Example(
        "jd23.call.erroneous-penalty", "three players: the next seat takes the card", ex_next_seat_takes,
        name="next-seat", lines=(29, 29),
    ),
    Example(
        "jd23.call.erroneous-penalty", "a mistaken caller with an empty hand pays nothing (strict: a gap)",
        ex_empty_handed_caller, name="empty-hand", lines=((29, 29), (46, 46)),
    ),
    Example(
        "jd23.score.guests", "three players: most guests wins", ex_three_players_scored, name="three-players",
        lines=(35, 35),
    ),
    Example(
        "jd23.guests.reshuffle-once", "the discards become the guest pile once; the game ends at the second run-out",
        ex_reshuffle_and_end, lines=(31, 33),
    ),
    Example("jd23.score.guests", "most guests wins despite a smaller hand", ex_most_guests, lines=(35, 35)),
    Example("jd23.score.tiebreak-hand", "tied on guests, the bigger hand wins", ex_hand_breaks_tie, lines=(35, 35)),
    Example(
        "jd23.score.tiebreak-dirty-dishes", "tied on guests and hand, fewer dirty dishes win", ex_dishes_break_tie,
        lines=(35, 35),
    ),
    Example("jd23.score.full-tie", "tied on everything: a draw", ex_full_tie, lines=(35, 35)),
    Example("jd23.setup.deal-five", "five each; a deck too small for the deal is refused", ex_deal_five, lines=(9, 9)),
    Example("jd23.setup.players", "two to five players", ex_player_counts, lines=(25, 25)),
    *(
        Example(
            clause, f"{clause} holds on v23-tips", ex_deck_claim(clause),
            lines={"jd23.tips.three-icons-favourite": (39, 39), "jd23.tips.two-icons-some-favourite": (40, 40),
                   "jd23.tips.single-icon-never-favourite": (41, 41), "jd23.tips.names-hint": (42, 42),
                   "jd23.favourite.nature-girl": (25, 25)}[clause],
        )
        for clause in DECK_CLAIMS
    ),
)
