"""Scenario tests for Just Desserts 2.3 (model/just_desserts/v23.py): one or more per clause.

Positions are built on the teaching deck v23-tiny: Fudge (Chocolate) x3, Berries (Fruit) x4,
Chocolate berry tart (Chocolate, Fruit) x2, Nut bar (Nuts) x3; Berry Belle wants Chocolate
and Fruit, refuses Nuts, favours the tart; Nutty Ned wants Chocolate and Nuts and favours
both the fudge and the nut bar.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction

import pytest

from tablerules.model.just_desserts import v23 as jd
from tablerules.model.just_desserts import v23_claims as claims
from tablerules.model.core import CHANCE, TERMINAL, IllegalMove, MoveSyntaxError, RuleGap, SetupError, play
from tablerules.model.decks import embedded_deck

RULES = jd.RULES
TINY = embedded_deck("v23-tiny")
TIPS = embedded_deck("v23-tips")


def opts(**changes) -> jd.Options:
    return dataclasses.replace(jd.Options(), **changes)


def at_guest(hands, guest, *, options=None, deck=TINY, guest_pile=None, discards=(), dishes=None, collected=None,
             reshuffled=False, kitchen_closed=False, set_aside=()):
    """A position with ``guest`` just turned up and nobody answered yet; the rest of the cards in the piles."""
    n = len(hands)
    setup = RULES.setup(n, options or jd.Options(), deck)
    hands = tuple(tuple(sorted(h)) for h in hands)
    dishes = tuple(tuple(sorted(d)) for d in (dishes or ((),) * n))
    collected = tuple(tuple(sorted(c)) for c in (collected or ((),) * n))
    left = Counter(deck.dessert_cards())
    for part in hands + dishes + (tuple(set_aside),):
        left -= Counter(part)
    pile = () if kitchen_closed else tuple(sorted(left.elements()))
    used = {guest, *discards, *(g for c in collected for g in c)}
    if guest_pile is None:
        guest_pile = tuple(sorted(g for g in deck.guest_cards() if g not in used))
    state = jd.State(setup=setup, phase=jd.ANSWER, hands=hands, dessert_pile=pile, guest_pile=tuple(guest_pile),
                     dishes=dishes, collected=collected, discards=tuple(sorted(discards)), set_aside=tuple(set_aside),
                     kitchen_closed=kitchen_closed, reshuffled=reshuffled, guest=guest, answers=("",) * n)
    assert not _broken(state)
    return state


def _broken(state):
    return [inv.name for inv in jd.INVARIANTS if inv.check(state) is not None]


def outcomes(state):
    return {str(m): p for m, p in RULES.chance_outcomes(state)}


def moves(state):
    return [str(m) for m in RULES.legal_moves(state)]


# --------------------------------------------------------------------------- setup


DEAL = (
    ["seat 0 draws BERRIES"] * 2 + ["seat 0 draws FUDGE"] * 3 + ["seat 1 draws NUT_BAR"] * 3 + ["seat 1 draws TART"] * 2
)


def test_deal_five_each_with_exact_probabilities():
    """jd23.setup.shuffle, jd23.setup.deal-five: chance deals five cards to each seat from the shuffled deck."""
    s = RULES.new_game(RULES.setup(2))
    assert RULES.to_move(s) is CHANCE and s.phase == jd.DEAL
    first = outcomes(s)
    assert first == {"seat 0 draws BERRIES": Fraction(4, 12), "seat 0 draws FUDGE": Fraction(3, 12),
                     "seat 0 draws NUT_BAR": Fraction(3, 12), "seat 0 draws TART": Fraction(2, 12)}
    # two berries then three fudge: 4/12 * 3/11 * 3/10 * 2/9 * 1/8
    p = Fraction(1)
    for m in ["seat 0 draws BERRIES"] * 2 + ["seat 0 draws FUDGE"] * 3:
        p *= outcomes(s)[m]
        s = play(RULES, s, [m])
    assert p == Fraction(4 * 3 * 3 * 2 * 1, 12 * 11 * 10 * 9 * 8)
    assert all(m.startswith("seat 1 draws") for m in outcomes(s))
    s = play(RULES, s, DEAL[5:])
    assert [len(h) for h in s.hands] == [5, 5] and s.dessert_pile == ("BERRIES", "BERRIES")
    assert s.phase == jd.TURN_UP


def test_small_configs_are_the_default_teaching_deck():
    """The configuration the gap finder explores to the end: two players on v23-tiny (jd23.setup.deal-five)."""
    (setup,) = jd.SMALL_CONFIGS()
    assert setup.players == 2 and setup.components.name == "v23-tiny" and setup.options == jd.Options()


def test_player_counts_and_deck_size():
    """jd23.setup.players: two to five players; the deck must hold five desserts per player (jd23.setup.deal-five)."""
    assert RULES.player_counts == (2, 3, 4, 5)
    with pytest.raises(SetupError):
        RULES.setup(1)
    with pytest.raises(SetupError, match="fewer than the 15"):
        RULES.setup(3, None, TINY)
    assert RULES.setup(5, None, TIPS).players == 5


def test_turn_up_is_uniform_and_every_seat_answers():
    """jd23.round.turn-up-guest: the Maitre D' turns up a guest at random; then every seat owes an answer."""
    s = play(RULES, RULES.new_game(RULES.setup(2)), DEAL)
    assert outcomes(s) == {"turn up BELLE": Fraction(1, 2), "turn up NED": Fraction(1, 2)}
    s = play(RULES, s, ["turn up NED"])
    assert s.guest == "NED" and s.guest_pile == ("BELLE",)
    assert RULES.to_move(s) == 0 and moves(s) == ["call", "pass"]
    s = play(RULES, s, ["pass"])
    assert RULES.to_move(s) == 1


# --------------------------------------------------------------------------- calling


def test_a_player_may_pass_while_able_and_call_while_unable():
    """jd23.call.pass, jd23.call.got-it: answers are free; an unable caller is a mistaken caller."""
    s = at_guest([("TART", "FUDGE", "FUDGE", "NUT_BAR", "NUT_BAR"), ("BERRIES",) * 3 + ("FUDGE", "NUT_BAR")], "BELLE")
    assert jd.hand_servings(s, 0)  # seat 0 can serve
    s = play(RULES, s, ["pass", "call"])  # seat 0 passes anyway; seat 1 calls
    assert s.phase == jd.SERVE and s.first == 1
    assert moves(s) == ["serve BERRIES+FUDGE"]


def test_a_mistaken_lone_caller_must_fail():
    """jd23.call.got-it: the call is a claim; with no serving the only move is fail."""
    s = at_guest([("NUT_BAR",) * 3 + ("BERRIES", "BERRIES"), ("FUDGE",) * 3 + ("TART", "TART")], "NED")
    s = play(RULES, s, ["call", "pass"])
    assert RULES.to_move(s) == 0 and moves(s) == ["fail"]
    assert RULES.illegal_reason(s, jd.Serve(("NUT_BAR",))) == "jd23.satisfy.tastes"


def test_race_between_callers_includes_a_truly_simultaneous_call():
    """jd23.call.first-serves, jd23.call.simultaneous: chance says who called first, or that nobody can tell."""
    s = at_guest(
        [("FUDGE", "BERRIES", "NUT_BAR", "NUT_BAR", "NUT_BAR"), ("FUDGE", "FUDGE", "BERRIES", "BERRIES", "TART")],
        "BELLE", options=opts(favourite_trump="no-trump"),
    )
    s = play(RULES, s, ["call", "call"])
    assert s.phase == jd.RACE and jd.is_race(s)
    # jd23.ruling.race-odds: a truly simultaneous call is occasional (1 in 10), the callers share the rest
    assert outcomes(s) == {"first 0": Fraction(9, 20), "first 1": Fraction(9, 20), "simultaneous": Fraction(1, 10)}
    equal = play(RULES, dataclasses.replace(s, setup=RULES.setup(2, opts(favourite_trump="no-trump", race_odds="equal"),
                                                                    s.setup.components)), [])
    assert outcomes(equal) == {"first 0": Fraction(1, 3), "first 1": Fraction(1, 3), "simultaneous": Fraction(1, 3)}
    first0 = play(RULES, s, ["first 0"])
    assert RULES.to_move(first0) == 0 and moves(first0) == ["serve BERRIES+FUDGE"]


def test_three_callers_race_and_the_race_goes_on_after_a_failure():
    """jd23.call.first-serves, jd23.call.erroneous-covered with three seats: every order is reachable."""
    hands = [("BERRIES", "SPONGE"), ("PEANUTS", "SPONGE"), ("BERRIES", "FUDGE")]
    s = play(
        RULES, at_guest(hands, "FRUITY_FAY", deck=TIPS, options=opts(race_odds="equal", favourite_trump="no-trump")),
        ["call", "call", "call"],
    )
    assert outcomes(s) == {"first 0": Fraction(1, 4), "first 1": Fraction(1, 4), "first 2": Fraction(1, 4),
                           "simultaneous": Fraction(1, 4)}
    s = play(RULES, s, ["first 1", "fail"])
    assert s.phase == jd.RACE and s.mistaken == (1,)
    assert outcomes(s) == {"first 0": Fraction(1, 3), "first 2": Fraction(1, 3), "simultaneous": Fraction(1, 3)}
    s = play(RULES, s, ["first 2", "serve BERRIES"])
    assert s.collected[2] == ("FRUITY_FAY",) and s.dishes == ((), (), ("BERRIES",))


def test_simultaneous_call_discards_the_guest_and_everyone_draws():
    """jd23.call.simultaneous, jd23.round.five-endings (fourth ending): no server, no penalty, all draw."""
    hands = [("FUDGE", "BERRIES", "NUT_BAR", "NUT_BAR"), ("FUDGE", "FUDGE", "BERRIES", "TART")]
    s = at_guest(hands, "BELLE", options=opts(favourite_trump="no-trump"))
    s = play(RULES, s, ["call", "call", "simultaneous"])
    assert s.discards == ("BELLE",) and s.guest is None
    assert s.phase == jd.DRAW and s.draws == (0, 1)
    assert s.dishes == ((), ())


def test_favourite_trumps_the_first_call_by_default():
    """jd23.call.favourite-trump (jd23.ruling.favourite-trump = favourite-caller-first)."""
    hands = [("FUDGE", "BERRIES", "NUT_BAR", "NUT_BAR"), ("FUDGE", "BERRIES", "BERRIES", "TART")]
    s = play(RULES, at_guest(hands, "BELLE"), ["call", "call"])
    assert s.phase == jd.RACE  # every live caller races, whoever holds a favourite (nothing is revealed yet)
    trumped = play(RULES, s, ["first 0"])
    assert trumped.phase == jd.TRUMP and RULES.to_move(trumped) == 1 and moves(trumped) == ["favourite"]
    trumped = play(RULES, trumped, ["favourite"])
    assert trumped.phase == jd.COUNTER and RULES.to_move(trumped) == 0 and moves(trumped) == ["pass"]
    trumped = play(RULES, trumped, ["pass"])
    assert trumped.phase == jd.SERVE and trumped.first == 1 and moves(trumped) == ["serve TART"]
    assert RULES.illegal_reason(trumped, jd.Serve(("BERRIES", "FUDGE"))) == "jd23.call.favourite-trump"
    won = play(RULES, s, ["first 1"])
    assert won.phase == jd.TRUMP and RULES.to_move(won) == 0 and moves(won) == ["pass"]
    won = play(RULES, won, ["pass"])
    assert won.first == 1 and moves(won) == ["serve TART"]  # the first caller with a favourite serves it
    plain = play(RULES, at_guest(hands, "BELLE", options=opts(favourite_trump="no-trump")), ["call", "call", "first 0"])
    assert plain.phase == jd.SERVE and plain.first == 0
    strict = at_guest(hands, "BELLE", options=opts(favourite_trump="strict"))
    with pytest.raises(RuleGap) as gap:
        RULES.successors(play(RULES, strict, ["call", "call"]))
    assert gap.value.ruling == "jd23.ruling.favourite-trump"


def test_mistaken_first_caller_is_covered_by_another_caller():
    """jd23.call.erroneous-covered: the other caller serves and nobody pays a penalty."""
    hands = [("NUT_BAR",) * 3 + ("BERRIES", "BERRIES"), ("FUDGE", "FUDGE", "BERRIES")]
    s = play(RULES, at_guest(hands, "BELLE", options=opts(favourite_trump="no-trump")),
             ["call", "call", "first 0", "fail"])
    assert s.phase == jd.SERVE and s.first == 1 and s.mistaken == (0,)
    s = play(RULES, s, ["serve BERRIES+FUDGE"])
    assert s.collected == ((), ("BELLE",)) and s.dishes[0] == ()
    assert len(s.hands[0]) == 5 and s.phase == jd.TURN_UP


def test_several_mistaken_callers_race_again_then_all_pay():
    """jd23.call.erroneous-penalty (reminders: every mistaken caller pays), after a second race."""
    deck_hands = [("NUT_BAR",) * 2 + ("BERRIES", "BERRIES"), ("FUDGE",) * 3 + ("BERRIES", "NUT_BAR")]
    s = play(RULES, at_guest(deck_hands, "NED", options=opts(favourite_trump="no-trump")),
             ["call", "call", "first 1"])
    assert moves(s) == ["serve FUDGE+NUT_BAR"]  # seat 1 can serve: not mistaken
    s = play(RULES, at_guest(deck_hands, "BELLE", options=opts(favourite_trump="no-trump")),
             ["call", "call", "first 1", "serve BERRIES+FUDGE"])
    assert s.collected[1] == ("BELLE",)
    both_wrong = [("NUT_BAR",) * 2 + ("BERRIES", "BERRIES"), ("NUT_BAR", "BERRIES", "FUDGE", "FUDGE")]
    s = play(RULES, at_guest(both_wrong, "NED"), ["call", "call", "first 0", "favourite", "pass"])
    assert s.phase == jd.SERVE and s.first == 1  # seat 1 alone holds a favourite serving: it trumps
    s = play(RULES, at_guest([both_wrong[0], ("BERRIES", "TART", "TART")], "NED"),
             ["call", "call", "first 0", "pass", "fail"])
    assert s.phase == jd.SERVE and s.first == 1 and moves(s) == ["fail"]
    s = play(RULES, s, ["fail"])
    assert s.phase == jd.PENALTY and s.penalties == (0, 1)


def test_penalty_card_is_random_and_lands_on_the_callers_dishes():
    """jd23.call.erroneous-penalty: another player draws blind from the caller's hand; then everyone draws."""
    hands = [("NUT_BAR",) * 3 + ("BERRIES", "BERRIES"), ("FUDGE",) * 2 + ("TART",)]
    s = play(RULES, at_guest(hands, "NED"), ["call", "pass", "fail"])
    assert outcomes(s) == {"seat 1 takes BERRIES from seat 0": Fraction(2, 5),
                           "seat 1 takes NUT_BAR from seat 0": Fraction(3, 5)}
    after = play(RULES, s, ["seat 1 takes NUT_BAR from seat 0"])
    assert after.dishes == (("NUT_BAR",), ()) and len(after.hands[0]) == 4
    assert after.phase == jd.DRAW and after.draws == (0, 1) and after.discards == ("NED",)
    taker = play(RULES, at_guest(hands, "NED", options=opts(penalty_pile="taker")),
                 ["call", "pass", "fail", "seat 1 takes NUT_BAR from seat 0"])
    assert taker.dishes == ((), ("NUT_BAR",))
    floor = play(RULES, at_guest(hands, "NED", options=opts(penalty_pile="out-of-play")),
                 ["call", "pass", "fail", "seat 1 takes NUT_BAR from seat 0"])
    assert floor.dishes == ((), ()) and floor.floor == ("NUT_BAR",)


def test_penalty_taker_rulings():
    """jd23.ruling.penalty-taker with jd23.setup.maitre-d: seat 0 is the Maitre D'."""
    deck3 = TIPS  # three players need fifteen desserts
    hands = [("PEANUTS",) * 4 + ("FUDGE",), ("SPONGE",) * 5, ("BERRIES",) * 4 + ("FUDGE",)]
    s = at_guest(hands, "FRUITY_FAY", deck=deck3, options=opts(penalty_taker="maitre-d"))
    s = play(RULES, s, ["pass", "call", "pass", "fail"])
    assert set(outcomes(s)) == {"seat 0 takes SPONGE from seat 1"}
    s = at_guest(hands, "NUTTY_NED", deck=deck3, options=opts(penalty_taker="maitre-d"))
    s = play(RULES, s, ["pass", "pass", "call", "fail"])
    assert set(outcomes(s)) == {"seat 0 takes BERRIES from seat 2", "seat 0 takes FUDGE from seat 2"}
    s = at_guest(hands, "NUTTY_NED", deck=deck3)
    s = play(RULES, s, ["pass", "pass", "call", "fail"])
    assert {m.split()[1] for m in outcomes(s)} == {"0"}  # next seat after 2 is 0
    s = at_guest(hands, "FRUITY_FAY", deck=deck3, options=opts(penalty_taker="strict"))
    with pytest.raises(RuleGap):
        RULES.chance_outcomes(play(RULES, s, ["pass", "call", "pass", "fail"]))


def test_penalty_with_an_empty_hand():
    """jd23.ruling.penalty-empty-hand: nothing to take; strict raises."""
    hands = [(), ("FUDGE",) * 3 + ("TART", "TART")]
    s = play(RULES, at_guest(hands, "NED"), ["call", "pass", "fail"])
    assert s.phase == jd.DRAW and s.discards == ("NED",)
    with pytest.raises(RuleGap) as gap:
        play(RULES, at_guest(hands, "NED", options=opts(penalty_empty_hand="strict")), ["call", "pass", "fail"])
    assert gap.value.ruling == "jd23.ruling.penalty-empty-hand"


# --------------------------------------------------------------------------- serving


def test_serving_reveals_desserts_onto_dirty_dishes_and_keeps_the_guest():
    """jd23.serve.reveal-dirty-dishes, jd23.round.five-endings (second ending): no draws without a favourite."""
    hands = [("FUDGE", "BERRIES", "NUT_BAR", "NUT_BAR", "NUT_BAR"), ("FUDGE", "BERRIES", "BERRIES")]
    s = play(RULES, at_guest(hands, "BELLE"), ["call", "pass", "serve BERRIES+FUDGE"])
    assert s.dishes == (("BERRIES", "FUDGE"), ()) and s.collected == (("BELLE",), ())
    assert s.hands[0] == ("NUT_BAR",) * 3 and len(s.hands[1]) == 3
    assert s.phase == jd.TURN_UP  # jd23.draw.guest-leaves-hungry: nobody draws after a plain serving


def test_serving_rules_satisfy_and_one_to_three():
    """jd23.satisfy.tastes, jd23.serve.one-to-three, jd23.ruling.spare-desserts."""
    hands = [("FUDGE", "FUDGE", "BERRIES", "BERRIES", "NUT_BAR"), ("NUT_BAR",) * 2 + ("BERRIES", "FUDGE", "TART")]
    s = play(RULES, at_guest(hands, "BELLE", options=opts(favourite_trump="no-trump")), ["call", "pass"])
    assert RULES.illegal_reason(s, jd.Serve(("BERRIES", "FUDGE", "NUT_BAR"))) == "jd23.satisfy.tastes"
    assert RULES.illegal_reason(s, jd.Serve(("BERRIES", "BERRIES", "FUDGE", "FUDGE"))) == "jd23.serve.one-to-three"
    assert RULES.illegal_reason(s, jd.Serve(("TART",))) == "jd23.serve.reveal-dirty-dishes"
    assert RULES.illegal_reason(s, jd.Serve(("BERRIES", "FUDGE", "FUDGE"))) == "jd23.ruling.spare-desserts"
    assert RULES.illegal_reason(s, jd.Fail()) == "jd23.call.first-serves"
    with pytest.raises(IllegalMove) as e:
        RULES.apply(s, jd.Serve(("BERRIES", "FUDGE", "NUT_BAR")))
    assert e.value.clause == "jd23.satisfy.tastes"
    spare = play(RULES, at_guest(hands, "BELLE", options=opts(spare_desserts="any")), ["call", "pass"])
    assert "serve BERRIES+FUDGE+FUDGE" in moves(spare) and all(len(m.split("+")) <= 3 for m in moves(spare))


def test_favourite_earns_an_extra_card():
    """jd23.favourite.extra-card, jd23.round.five-endings (third ending)."""
    hands = [("TART", "NUT_BAR", "NUT_BAR", "NUT_BAR", "FUDGE"), ("BERRIES",) * 3 + ("FUDGE", "FUDGE")]
    s = play(RULES, at_guest(hands, "BELLE"), ["call", "pass", "serve TART"])
    assert s.phase == jd.DRAW and s.draws == (0,)
    assert outcomes(s) == {"seat 0 draws TART": Fraction(1, 2), "seat 0 draws BERRIES": Fraction(1, 2)}
    s = play(RULES, s, ["seat 0 draws TART"])
    assert len(s.hands[0]) == 5 and s.phase == jd.TURN_UP


def test_two_favourites_and_favourite_with_others():
    """jd23.ruling.two-favourites and jd23.ruling.favourite-with-others on Nutty Ned (two favourites)."""
    hands = [
        ("FUDGE", "NUT_BAR", "BERRIES", "BERRIES", "BERRIES"),
        ("BERRIES", "FUDGE", "FUDGE", "TART", "TART", "NUT_BAR"),
    ]
    one = play(RULES, at_guest(hands, "NED"), ["call", "pass", "serve FUDGE+NUT_BAR"])
    assert one.draws == (0,)
    two = play(RULES, at_guest(hands, "NED", options=opts(two_favourites="card-per-favourite")),
               ["call", "pass", "serve FUDGE+NUT_BAR"])
    assert two.draws == (0,)  # only one dessert is left in the pile
    assert len(two.dessert_pile) == 1
    alone = play(RULES, at_guest(hands, "NED", options=opts(favourite_with_others="alone-only")),
                 ["call", "pass", "serve FUDGE+NUT_BAR"])
    assert alone.phase == jd.TURN_UP and alone.draws == ()
    with pytest.raises(RuleGap):
        play(
            RULES, at_guest(hands, "NED", options=opts(two_favourites="strict")),
            ["call", "pass", "serve FUDGE+NUT_BAR"],
        )
    big = [("FUDGE", "NUT_BAR", "BERRIES", "BERRIES", "BERRIES"), ("FUDGE", "TART", "TART")]
    two = play(RULES, at_guest(big, "NED", options=opts(two_favourites="card-per-favourite")),
               ["call", "pass", "serve FUDGE+NUT_BAR"])
    assert two.draws == (0, 0)


def test_nature_girl_has_no_favourite_in_the_tips_deck():
    """jd23.favourite.nature-girl: a deck claim; holds on v23-tips, breaks on v23-crowd."""
    assert claims.favourite_exceptions(TIPS) == ()
    assert claims.favourite_exceptions(embedded_deck("v23-crowd")) == ("HAZEL", "NOLA")


# --------------------------------------------------------------------------- draws and the kitchen


def test_all_pass_discards_and_everyone_draws():
    """jd23.round.all-pass, jd23.draw.guest-leaves-hungry, jd23.round.five-endings (first ending)."""
    hands = [("FUDGE",) * 3 + ("NUT_BAR",), ("BERRIES",) * 3 + ("NUT_BAR",)]
    s = play(RULES, at_guest(hands, "BELLE"), ["pass", "pass"])
    assert s.discards == ("BELLE",) and s.phase == jd.DRAW and s.draws == (0, 1)
    assert sum(outcomes(s).values()) == 1
    s = play(RULES, s, ["seat 0 draws TART", "seat 1 draws TART"])
    assert s.hands[0].count("TART") == 1 and s.hands[1].count("TART") == 1 and s.phase == jd.TURN_UP


def test_kitchen_closes_when_the_pile_cannot_feed_everyone():
    """jd23.kitchen.closes: one dessert left for two players: set aside, nobody draws again."""
    hands = [("FUDGE",) * 3 + ("NUT_BAR", "NUT_BAR"), ("BERRIES",) * 4 + ("NUT_BAR", "TART")]
    s = play(RULES, at_guest(hands, "BELLE"), ["pass", "pass"])
    assert s.kitchen_closed and s.set_aside == ("TART",) and s.dessert_pile == ()
    assert s.phase == jd.TURN_UP and [len(h) for h in s.hands] == [5, 6]
    # not even a favourite draws after the kitchen closed (reminders)
    s = play(RULES, s, ["turn up NED"])
    s = play(RULES, replace_hands(s, [("TART", "FUDGE", "FUDGE", "FUDGE", "NUT_BAR"), s.hands[1]]), [])
    s = play(RULES, s, ["call", "pass", "serve FUDGE+NUT_BAR"])
    assert s.phase != jd.DRAW


def replace_hands(state, hands):
    """Swap cards between hands and the set-aside pile (keeps every card in one place)."""
    before = Counter(c for h in state.hands for c in h)
    after = Counter(c for h in hands for c in h)
    aside = Counter(state.set_aside) + before - after
    return dataclasses.replace(
        state, hands=tuple(tuple(sorted(h)) for h in hands), set_aside=tuple(sorted(aside.elements()))
    )


def test_kitchen_check_rulings():
    """jd23.ruling.kitchen-check: a favourite's card from a short pile; whenever-short closes after the deal."""
    hands = [("TART", "NUT_BAR", "NUT_BAR", "NUT_BAR", "FUDGE"), ("BERRIES",) * 4 + ("FUDGE", "FUDGE")]
    with pytest.raises(RuleGap) as gap:
        play(RULES, at_guest(hands, "BELLE", options=opts(kitchen_check="strict")), ["call", "pass", "serve TART"])
    assert gap.value.ruling == "jd23.ruling.kitchen-check"
    drawn_out = DEAL + ["turn up NED", "pass", "pass", "seat 0 draws BERRIES", "seat 1 draws BERRIES"]
    s = play(RULES, RULES.new_game(RULES.setup(2)), drawn_out)  # the default is the text's reading
    assert s.kitchen_closed and s.dessert_pile == () and s.set_aside == ()
    s = play(RULES, RULES.new_game(RULES.setup(2, opts(kitchen_check="when-everyone-draws"))), drawn_out)
    assert not s.kitchen_closed and s.dessert_pile == ()


def test_the_kitchen_closes_by_default_as_the_clause_says_so_no_favourite_draws_from_a_short_pile():
    """jd23.kitchen.closes is the text (a dessert pile shorter than the table closes the Kitchen), and the
    default of jd23.ruling.kitchen-check follows it: a favourite served after a draw left one dessert for
    two players earns no card (jd23.favourite.extra-card)."""
    assert jd.Options().kitchen_check == "whenever-short"
    hands = [("TART", "NUT_BAR", "NUT_BAR", "NUT_BAR", "FUDGE"), ("BERRIES",) * 4 + ("FUDGE",)]
    for options, closed in ((None, True), (opts(kitchen_check="when-everyone-draws"), False)):
        start = at_guest(hands, "NED", options=options)
        assert len(start.dessert_pile) == 2  # two players: one round of draws is still possible
        s = play(RULES, start, ["call", "pass", "serve FUDGE+NUT_BAR"])  # Nutty Ned's favourites: an extra card
        s = play(RULES, s, [str(RULES.chance_outcomes(s)[0][0])])
        assert s.kitchen_closed is closed and len(s.dessert_pile) == (0 if closed else 1), options
        assert len(s.set_aside) == (1 if closed else 0)


# --------------------------------------------------------------------------- running out of guests


def test_guest_pile_reshuffles_once_then_the_game_ends():
    """jd23.guests.reshuffle-once, jd23.end.second-exhaustion (jd23.ruling.guest-pile-empty = at-next-turn-up)."""
    hands = [("FUDGE",) * 3 + ("NUT_BAR",), ("BERRIES",) * 3 + ("NUT_BAR",)]
    s = at_guest(hands, "BELLE", discards=("NED",), guest_pile=())
    s = play(RULES, s, ["pass", "pass", "seat 0 draws TART", "seat 1 draws TART"])
    assert s.reshuffled and s.guest_pile == ("BELLE", "NED") and s.discards == () and s.phase == jd.TURN_UP
    last = at_guest(hands, "BELLE", discards=("NED",), guest_pile=(), reshuffled=True)
    end = play(RULES, last, ["pass", "pass", "seat 0 draws TART", "seat 1 draws TART"])
    assert RULES.to_move(end) is TERMINAL and RULES.outcome(end) is not None
    with pytest.raises(IllegalMove) as e:
        RULES.apply(end, jd.Call())
    assert e.value.clause == "jd23.end.second-exhaustion"


def test_at_last_turn_up_ends_with_the_last_guest_unplayed():
    """jd23.ruling.guest-pile-empty = at-last-turn-up: the second run-out ends the game at once."""
    hands = [("FUDGE",) * 3 + ("NUT_BAR",), ("BERRIES",) * 3 + ("NUT_BAR",)]
    s = at_guest(hands, "BELLE", guest_pile=("NED",), reshuffled=True, options=opts(guest_pile_empty="at-last-turn-up"))
    s = play(RULES, s, ["pass", "pass", "seat 0 draws TART", "seat 1 draws TART", "turn up NED"])
    assert RULES.to_move(s) is TERMINAL and s.guest == "NED"
    first = at_guest(hands, "BELLE", guest_pile=("NED",), options=opts(guest_pile_empty="at-last-turn-up"))
    first = play(RULES, first, ["pass", "pass", "seat 0 draws TART", "seat 1 draws TART", "turn up NED"])
    assert first.reshuffled and first.guest_pile == ("BELLE",) and first.phase == jd.ANSWER


def test_nothing_to_reshuffle_ends_the_game():
    """jd23.ruling.nothing-to-reshuffle: every guest served in the first pass."""
    hands = [("FUDGE", "BERRIES", "NUT_BAR", "NUT_BAR"), ("FUDGE", "BERRIES", "BERRIES")]
    served = {"collected": ((), ("NED",)), "dishes": ((), ("FUDGE", "NUT_BAR"))}
    s = at_guest(hands, "BELLE", guest_pile=(), **served)
    end = play(RULES, s, ["call", "pass", "serve BERRIES+FUDGE"])
    assert RULES.to_move(end) is TERMINAL and end.reshuffled
    with pytest.raises(RuleGap):
        play(RULES, at_guest(hands, "BELLE", guest_pile=(), **served,
                             options=opts(nothing_to_reshuffle="strict")), ["call", "pass", "serve BERRIES+FUDGE"])


# --------------------------------------------------------------------------- scoring


def over(hands, dishes, collected, options=None):
    s = at_guest(hands, "BELLE", dishes=dishes, collected=collected, options=options)
    return dataclasses.replace(
        s, phase=jd.OVER, guest=None, answers=(), discards=("BELLE",), reshuffled=True, guest_pile=()
    )


def test_most_guests_wins():
    """jd23.score.guests"""
    o = RULES.outcome(over([("FUDGE",), ("FUDGE", "FUDGE")], [("TART",), ()], [("NED",), ()]))
    assert o.winners == {0} and o.clause == "jd23.score.guests" and o.scores == ((1, 1, 1), (0, 2, 0))


def test_tie_on_guests_broken_by_the_larger_hand():
    """jd23.score.tiebreak-hand"""
    o = RULES.outcome(over([("FUDGE",), ("FUDGE", "FUDGE")], [(), ()], [(), ()]))
    assert o.winners == {1} and o.clause == "jd23.score.tiebreak-hand"


def test_then_by_the_smaller_dirty_dish_pile():
    """jd23.score.tiebreak-dirty-dishes"""
    o = RULES.outcome(over([("FUDGE",), ("BERRIES",)], [("TART", "TART"), ("NUT_BAR",)], [(), ()]))
    assert o.winners == {1} and o.clause == "jd23.score.tiebreak-dirty-dishes"


def test_full_tie_is_a_draw_or_a_shared_win():
    """jd23.score.full-tie (jd23.ruling.full-tie)."""
    o = RULES.outcome(over([("FUDGE",), ("BERRIES",)], [("TART",), ("NUT_BAR",)], [(), ()]))
    assert o.draw and not o.winners and o.clause == "jd23.score.full-tie"
    o = RULES.outcome(
        over([("FUDGE",), ("BERRIES",)], [("TART",), ("NUT_BAR",)], [(), ()], options=opts(full_tie="shared-win"))
    )
    assert o.winners == {0, 1} and not o.draw


# --------------------------------------------------------------------------- moves, views, invariants


def test_moves_print_and_parse():
    s = at_guest([("FUDGE",) * 3 + ("NUT_BAR",), ("BERRIES",) * 3 + ("NUT_BAR",)], "BELLE")
    setup = s.setup
    for m in (jd.Call(), jd.Pass(), jd.Fail(), jd.Serve(("BERRIES", "FUDGE")),
              jd.TurnUp("NED"), jd.Race(None), jd.Race(1), jd.Penalty(1, 0, "FUDGE"), jd.Draw(0, "TART")):
        assert RULES.parse_move(str(m), setup) == m
    for bad in ("shout", "serve CAKE", "deal 0 FUDGE", "turn up NOBODY", "seat 7 draws FUDGE", ""):
        with pytest.raises(MoveSyntaxError):
            RULES.parse_move(bad, setup)


def test_observation_hides_other_hands():
    """jd23.setup.shuffle: hands and pile order are hidden; dirty dishes and counts are public."""
    s = at_guest([("FUDGE",) * 3 + ("NUT_BAR",), ("BERRIES",) * 3 + ("NUT_BAR",)], "BELLE", dishes=[("TART",), ()])
    view = RULES.observation(s, 0)
    assert view["hand"] == ["FUDGE", "FUDGE", "FUDGE", "NUT_BAR"]
    assert view["hand_sizes"] == [4, 4] and "BERRIES" not in str(view["hand"])
    assert "hands" not in view and view["dessert_pile"] == len(s.dessert_pile)
    assert view["dishes"] == [["TART"], []]
    assert RULES.observation(s, 1)["hand"] == ["BERRIES", "BERRIES", "BERRIES", "NUT_BAR"]


def test_invariants_catch_a_broken_state():
    """Every invariant can fail: a duplicated card, a closed kitchen with cards, a serve without a call."""
    s = at_guest([("FUDGE",) * 3 + ("NUT_BAR",), ("BERRIES",) * 3 + ("NUT_BAR",)], "BELLE")
    assert "every-dessert-once" in _broken(dataclasses.replace(s, hands=(s.hands[0] + ("FUDGE",), s.hands[1])))
    assert "every-guest-once" in _broken(dataclasses.replace(s, discards=("BELLE",)))
    assert "closed-kitchen-is-empty" in _broken(dataclasses.replace(s, kitchen_closed=True))
    assert "guest-only-in-a-round" in _broken(dataclasses.replace(s, phase=jd.TURN_UP))
    assert "ends-after-second-run-out" in _broken(dataclasses.replace(s, phase=jd.OVER))
    assert "callers-consistent" in _broken(dataclasses.replace(s, phase=jd.SERVE, first=0))
    assert "servings-leave-dishes" in _broken(dataclasses.replace(s, collected=(("NED",), ()), guest_pile=()))


def test_simultaneous_tie_with_a_caller_who_cannot_serve_follows_the_ruling():
    """jd23.ruling.simultaneous-mistaken (with jd23.call.simultaneous): find a simultaneous
    tie whose callers include one without a serving, then compare the three readings."""
    import dataclasses
    import random

    from tablerules.model.just_desserts import v23 as v
    from tablerules.model.core import CHANCE, TERMINAL, RuleGap

    rules = v.RULES
    found = None
    for seed in range(400):
        rng = random.Random(seed)
        s = rules.new_game(rules.setup(2))
        for _ in range(200):
            actor = rules.to_move(s)
            if actor is TERMINAL:
                break
            if actor is CHANCE:
                outs = rules.chance_outcomes(s)
                if s.phase == v.RACE and any(c for c in v.contenders(s) if not v.hand_servings(s, c)):
                    found = s
                    break
                s = rules.apply(s, rng.choice([m for m, _ in outs]))
            else:
                moves = rules.legal_moves(s)
                calls = [m for m in moves if str(m) == "call"]
                s = rules.apply(s, calls[0] if calls and rng.random() < 0.8 else rng.choice(moves))
        if found:
            break
    assert found is not None, "no simultaneous tie with a mistaken caller within 400 random games"
    tie = v.Race(None)
    unable = [c for c in v.contenders(found) if not v.hand_servings(found, c)]
    after = rules.apply(found, tie)
    assert after.phase != v.PENALTY  # no-penalty: nobody pays
    pen = dataclasses.replace(found, setup=rules.setup(2, v.Options(simultaneous_mistaken="penalty")))
    after_pen = rules.apply(pen, tie)
    assert after_pen.phase == v.PENALTY and set(after_pen.penalties) <= set(unable)
    strict = dataclasses.replace(found, setup=rules.setup(2, v.Options(simultaneous_mistaken="strict")))
    try:
        rules.apply(strict, tie)
    except RuleGap as g:
        assert g.ruling == "jd23.ruling.simultaneous-mistaken"
    else:
        raise AssertionError("strict must raise a RuleGap")
