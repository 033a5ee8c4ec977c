"""Scenario tests for the advanced rules (Poaching & Blocking, Opening a Buffet, Surprise Parties), retail deck."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tablerules.model.core import CHANCE, RuleGap, parse_options, play
from tablerules.model.just_desserts import RULES, Move, Options
from tests.model.test_just_desserts import check_invariants, chance_to, position

ALL = dict(poaching=True, buffet=True, surprise_parties=True)


def moves(state):
    return [str(m) for m in RULES.legal_moves(state)]


def test_advanced_rules_are_options_off_by_default(retail_deck):
    """jd.advanced.options: each rule is an option; names as on the command line."""
    opts = parse_options(Options, [], variants=["poaching", "buffet", "surprise-parties"])
    assert (opts.poaching, opts.buffet, opts.surprise_parties) == (True, True, True)
    s = position(retail_deck, hands=(("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM"), ()),
                 claimed=((), ("THE_LITTLE_GIRL",)))
    assert not any(m.startswith("poach") for m in moves(s))
    assert RULES.illegal_reason(s, Move("poach", "THE_LITTLE_GIRL", ("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM"))) \
        == "jd.poach.attempt"


# --------------------------------------------------------------------------- poaching and blocking


def test_successful_poach_tips_the_victim_and_allows_one_more_serving_from_the_middle(retail_deck):
    """jd.poach.attempt, jd.poach.one-opportunity, jd.poach.victim-tip."""
    s = position(retail_deck, hands=(("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM", "FRUIT_SALAD", "CHEESECAKE"), ()),
                 claimed=((), ("THE_LITTLE_GIRL", "GRANNY")), centre=("MR_HEALTHY",), options=Options(poaching=True))
    assert "poach THE_LITTLE_GIRL with STRAWBERRY_SHORTCAKE+VANILLA_ICE_CREAM" in moves(s)
    s = RULES.apply(s, Move("poach", "THE_LITTLE_GIRL", ("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM")))
    assert s.claimed == (("THE_LITTLE_GIRL",), ("GRANNY",))
    assert s.tasks == (("d", 1),)  # the victim's tip
    s = chance_to(s, "draw FUDGE")
    assert s.poach == "done" and s.served == 1
    # a second poach is not allowed (Granny: Fruit, Pie, Ice Cream would be satisfiable otherwise)
    assert RULES.illegal_reason(s, Move("poach", "GRANNY", ("CHEESECAKE", "FRUIT_SALAD"))) == "jd.poach.one-opportunity"
    check_invariants(s)


def test_block_returns_the_cards_and_forbids_a_second_poach_but_not_two_servings(retail_deck):
    """jd.block.defender, jd.block.cards-back, jd.poach.blocked-no-retry."""
    s = position(
        retail_deck,
        hands=(
            ("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM", "CHEESECAKE", "FRUIT_SALAD"),
            ("POUND_CAKE", "ORANGE_SHERBET"),
        ),
        claimed=((), ("THE_LITTLE_GIRL", "GRANNY")), centre=("THE_PROFESSOR",), options=Options(poaching=True),
    )
    s = RULES.apply(s, Move("poach", "THE_LITTLE_GIRL", ("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM")))
    assert s.phase == "window" and RULES.to_move(s) == 1
    assert moves(s) == ["block with ORANGE_SHERBET+POUND_CAKE", "pass"]
    s = RULES.apply(s, Move("block", cards=("ORANGE_SHERBET", "POUND_CAKE")))
    assert s.claimed[1] == ("GRANNY", "THE_LITTLE_GIRL") and s.hands[1] == ()
    assert "STRAWBERRY_SHORTCAKE" in s.hands[0] and s.poach == "blocked" and s.served == 0 and s.tasks == ()
    assert RULES.illegal_reason(s, Move("poach", "GRANNY", ("CHEESECAKE", "FRUIT_SALAD", "VANILLA_ICE_CREAM"))) \
        == "jd.poach.blocked-no-retry"
    assert RULES.illegal_reason(s, Move("kitchen")) == "jd.turn.one-option"
    s = RULES.apply(s, Move("serve", "THE_PROFESSOR", ("STRAWBERRY_SHORTCAKE",)))
    s = chance_to(s, "draw FUDGE")  # the Professor's favourite: a tip
    assert s.served == 1 and s.claimed[0] == ("THE_PROFESSOR",) and "stop" in moves(s)
    check_invariants(s)


def test_favourite_poach_blocked_only_with_the_other_favourite(retail_deck):
    """jd.block.favourite-only-by-other-favourite, jd.tip.block-favourite, jd.poach.blocked-no-tip."""
    defender = ("CHOCOLATE_ANGEL_FOOD_CAKE", "CHOCOLATE_CANDY_BAR", "POUND_CAKE")
    s = position(retail_deck, hands=(("DEVILS_FOOD_CUPCAKES",), defender), claimed=((), ("THE_EMPEROR",)),
                 options=Options(poaching=True))
    s = RULES.apply(s, Move("poach", "THE_EMPEROR", ("DEVILS_FOOD_CUPCAKES",)))
    assert s.tasks == () and RULES.to_move(s) == 1  # no tip yet for the poacher
    assert moves(s) == ["block with CHOCOLATE_ANGEL_FOOD_CAKE", "pass"]
    assert RULES.illegal_reason(s, Move("block", cards=("CHOCOLATE_CANDY_BAR", "POUND_CAKE"))) \
        == "jd.block.favourite-only-by-other-favourite"
    t = RULES.apply(s, Move("block", cards=("CHOCOLATE_ANGEL_FOOD_CAKE",)))
    assert t.tasks == (("d", 1),)  # the blocker's tip; none for the poacher
    assert t.hands[0] == ("DEVILS_FOOD_CUPCAKES",) and t.claimed[1] == ("THE_EMPEROR",)


def test_favourite_poach_on_a_one_favourite_guest_cannot_be_blocked(retail_deck):
    """jd.block.favourite-only-by-other-favourite, jd.tip.block-favourite: poacher and victim both draw."""
    s = position(retail_deck, hands=(("ICE_CREAM_CAKE",), ("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM")),
                 claimed=((), ("THE_LITTLE_GIRL",)), options=Options(poaching=True))
    s = RULES.apply(s, Move("poach", "THE_LITTLE_GIRL", ("ICE_CREAM_CAKE",)))
    assert s.phase == "choose" and s.claimed == (("THE_LITTLE_GIRL",), ())
    assert sorted(s.tasks) == [("d", 0), ("d", 1)]


# --------------------------------------------------------------------------- the buffet


def test_buffet_needs_four_aces_others_return_a_guest_then_draw_three_and_serve_one(retail_deck):
    """jd.buffet.aces, jd.buffet.others-return, jd.buffet.draw-three, jd.buffet.serve-one."""
    aces = ("CHEESECAKE", "FUDGE", "POUND_CAKE", "VANILLA_ICE_CREAM")
    s = position(retail_deck, hands=(aces + ("STRAWBERRY_SHORTCAKE",), (), ("FRUIT_SALAD",)),
                 claimed=((), ("THE_LITTLE_GIRL", "GRANNY"), ("MOJO",)), options=Options(**ALL))
    assert "buffet CHEESECAKE+FUDGE+POUND_CAKE+VANILLA_ICE_CREAM" in moves(s)
    assert (
        RULES.illegal_reason(s, Move("buffet", cards=("CHEESECAKE", "FUDGE", "POUND_CAKE", "STRAWBERRY_SHORTCAKE")))
        == "jd.buffet.aces"
    )
    s = RULES.apply(s, Move("buffet", cards=aces))
    assert s.phase == "return" and RULES.to_move(s) == 1
    assert moves(s) == ["return GRANNY", "return THE_LITTLE_GIRL"]
    s = RULES.apply(s, Move("return", "THE_LITTLE_GIRL"))
    assert RULES.to_move(s) == 2 and moves(s) == ["return MOJO"]
    s = RULES.apply(s, Move("return", "MOJO"))
    assert s.centre == ("MOJO", "THE_LITTLE_GIRL") and s.tasks == (("d", 0),) * 3
    for card in ("YELLOW_CAKE", "SUGAR_COOKIES", "ICE_CREAM_CAKE"):
        s = chance_to(s, f"draw {card}")
    assert s.phase == "buffet" and not any(m.startswith("poach") for m in moves(s))
    assert RULES.illegal_reason(s, Move("poach", "GRANNY", ("STRAWBERRY_SHORTCAKE",))) == "jd.buffet.serve-one"
    s = RULES.apply(s, Move("serve", "THE_LITTLE_GIRL", ("ICE_CREAM_CAKE",)))
    s = chance_to(s, "draw NAPOLEON")  # the favourite's tip
    assert s.claimed[0] == ("THE_LITTLE_GIRL",) and s.turn == 1
    check_invariants(s)


def test_buffet_serving_is_one_guest_then_the_discard_phase(retail_deck):
    """jd.buffet.serve-one."""
    aces = ("CHEESECAKE", "FUDGE", "POUND_CAKE", "YELLOW_CAKE")
    s = position(retail_deck, hands=(aces + ("ICE_CREAM_CAKE",), ()), centre=("THE_LITTLE_GIRL", "MOJO"),
                 claimed=((), ()), options=Options(buffet=True))
    s = RULES.apply(s, Move("buffet", cards=aces))
    for card in ("SUGAR_COOKIES", "FORTUNE_COOKIES", "GLAZED_DONUT"):
        s = chance_to(s, f"draw {card}")
    assert s.phase == "buffet" and "stop" in moves(s)
    s = RULES.apply(s, Move("serve", "THE_LITTLE_GIRL", ("ICE_CREAM_CAKE",)))
    s = chance_to(s, "draw NAPOLEON")  # the favourite's tip
    assert s.turn == 1 and s.claimed[0] == ("THE_LITTLE_GIRL",)


# --------------------------------------------------------------------------- surprise parties


def test_surprise_from_the_middle_no_tip_and_the_server_goes_on(retail_deck):
    """jd.surprise.intercept, jd.surprise.needs-favourite, jd.surprise.no-tip, jd.surprise.continue."""
    s = position(retail_deck, hands=(("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM"), ("ICE_CREAM_CAKE", "FUDGE")),
                 centre=("THE_LITTLE_GIRL", "MOJO"), options=Options(surprise_parties=True))
    s = RULES.apply(s, Move("serve", "THE_LITTLE_GIRL", ("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM")))
    assert RULES.to_move(s) == 1 and moves(s) == ["pass", "surprise with ICE_CREAM_CAKE"]
    assert RULES.illegal_reason(s, Move("surprise", cards=("FUDGE",))) == "jd.surprise.needs-favourite"
    t = RULES.apply(s, Move("surprise", cards=("ICE_CREAM_CAKE",)))
    assert t.claimed == ((), ("THE_LITTLE_GIRL",)) and t.tasks == ()  # no tip at a surprise
    assert t.hands[0] == ("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM") and t.served == 0
    assert "kitchen" in moves(t)  # as if the attempt never happened
    passed = RULES.apply(s, Move("pass"))
    assert passed.claimed == (("THE_LITTLE_GIRL",), ())


def test_no_surprise_when_the_favourite_was_served(retail_deck):
    """jd.surprise.intercept: only a serving without a favourite can be surprised."""
    s = position(retail_deck, hands=(("ICE_CREAM_CAKE",), ("FUDGE",)),
                 centre=("THE_LITTLE_GIRL",), options=Options(surprise_parties=True))
    s = RULES.apply(s, Move("serve", "THE_LITTLE_GIRL", ("ICE_CREAM_CAKE",)))
    assert s.phase == "choose" and s.claimed[0] == ("THE_LITTLE_GIRL",)


def test_surprised_poach_allows_another_poach_but_not_of_that_guest(retail_deck):
    """jd.surprise.continue, jd.surprise.no-poach-back, jd.ruling.victim-tip-on-surprise."""
    hand = ("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM", "APPLE_TURNOVER", "CHEESECAKE", "FRUIT_SALAD")
    s = position(retail_deck, hands=(hand, (), ("ICE_CREAM_CAKE",)),
                 claimed=((), ("THE_LITTLE_GIRL", "AGENT_17"), ()), options=Options(**ALL))
    s = RULES.apply(s, Move("poach", "THE_LITTLE_GIRL", ("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM")))
    assert s.answerers == (2,) and RULES.to_move(s) == 2
    s = RULES.apply(s, Move("surprise", cards=("ICE_CREAM_CAKE",)))
    assert s.claimed == ((), ("AGENT_17",), ("THE_LITTLE_GIRL",))
    assert s.tasks == (("d", 1),)  # the former holder's tip (default ruling)
    s = chance_to(s, "draw FUDGE")
    assert s.poach == "" and s.shielded == ("THE_LITTLE_GIRL",)
    assert RULES.illegal_reason(s, Move("poach", "THE_LITTLE_GIRL", ("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM"))) \
        == "jd.surprise.no-poach-back"
    assert "poach AGENT_17 with APPLE_TURNOVER" in moves(s)
    for choice, tasks in (("no-tip", ()),):
        s2 = position(retail_deck, hands=(hand, (), ("ICE_CREAM_CAKE",)), claimed=((), ("THE_LITTLE_GIRL",), ()),
                      options=Options(victim_tip_surprise=choice, **ALL))
        s2 = play(
            RULES, s2,
            ["poach THE_LITTLE_GIRL with STRAWBERRY_SHORTCAKE+VANILLA_ICE_CREAM", "surprise with ICE_CREAM_CAKE"],
        )
        assert s2.tasks == tasks
    strict = position(retail_deck, hands=(hand, (), ("ICE_CREAM_CAKE",)), claimed=((), ("THE_LITTLE_GIRL",), ()),
                      options=Options(victim_tip_surprise="strict", **ALL))
    strict = RULES.apply(strict, Move("poach", "THE_LITTLE_GIRL", ("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM")))
    with pytest.raises(RuleGap):
        RULES.apply(strict, Move("surprise", cards=("ICE_CREAM_CAKE",)))


def _professor_race(retail_deck, **rulings):
    """Seat 0 poaches the Professor from seat 1 without a favourite; seat 1 and seat 2 each hold a favourite."""
    s = position(
        retail_deck, hands=(("FRUIT_SALAD", "POUND_CAKE"), ("STRAWBERRY_SHORTCAKE",), ("PINEAPPLE_UPSIDE_DOWN_CAKE",)),
        claimed=((), ("THE_PROFESSOR",), ()), options=Options(**ALL, **rulings),
    )
    return RULES.apply(s, Move("poach", "THE_PROFESSOR", ("FRUIT_SALAD", "POUND_CAKE")))


def test_block_and_surprise_race_the_first_favourite_offered_wins(retail_deck):
    """jd.surprise.first-offered, jd.ruling.answer-order=race: every order is a chance outcome."""
    s = _professor_race(retail_deck)
    assert RULES.to_move(s) is CHANCE and s.answerers == (1, 2)
    assert [(str(m), p) for m, p in RULES.chance_outcomes(s)] == [
        ("first seat 1", Fraction(1, 2)),
        ("first seat 2", Fraction(1, 2)),
    ]
    blocked = play(RULES, s, ["first seat 1", "block with STRAWBERRY_SHORTCAKE"])
    assert blocked.claimed[1] == ("THE_PROFESSOR",) and blocked.tasks == (("d", 1),)
    surprised = play(RULES, s, ["first seat 2", "surprise with PINEAPPLE_UPSIDE_DOWN_CAKE"])
    assert surprised.claimed[2] == ("THE_PROFESSOR",)
    # the first speaker passes: the other still may answer
    later = play(RULES, s, ["first seat 2", "pass"])
    assert RULES.to_move(later) == 1 and "block with STRAWBERRY_SHORTCAKE" in moves(later)


def test_answer_order_alternatives(retail_deck):
    """jd.ruling.answer-order: clockwise asks seat 1 first; strict raises."""
    s = _professor_race(retail_deck, answer_order="clockwise")
    assert RULES.to_move(s) == 1
    with pytest.raises(RuleGap) as gap:
        _professor_race(retail_deck, answer_order="strict")
    assert gap.value.ruling == "jd.ruling.answer-order"


def test_plain_block_against_surprise_is_a_gap_in_strict_mode(retail_deck):
    """jd.ruling.plain-block-vs-surprise."""
    s = position(
        retail_deck, hands=(("FRUIT_SALAD", "POUND_CAKE"), ("CHERRY_PIE", "YELLOW_CAKE"), ("STRAWBERRY_SHORTCAKE",)),
        claimed=((), ("THE_PROFESSOR",), ()), options=Options(block_or_surprise="strict", **ALL),
    )
    with pytest.raises(RuleGap) as gap:
        RULES.apply(s, Move("poach", "THE_PROFESSOR", ("FRUIT_SALAD", "POUND_CAKE")))
    assert gap.value.ruling == "jd.ruling.plain-block-vs-surprise"


def test_a_block_is_not_surprised_unless_strict_asks(retail_deck):
    """jd.ruling.surprise-on-block: default no; strict raises where a plain block meets a held favourite."""
    hands = (("FRUIT_SALAD", "POUND_CAKE"), ("CHERRY_PIE", "YELLOW_CAKE"), ("STRAWBERRY_SHORTCAKE",))
    for choice in ("no", "strict"):
        s = position(retail_deck, hands=hands, claimed=((), ("THE_PROFESSOR",), ()),
                     options=Options(surprise_on_block=choice, **ALL))
        s = play(RULES, s, ["poach THE_PROFESSOR with FRUIT_SALAD+POUND_CAKE", "first seat 1"])
        block = Move("block", cards=("CHERRY_PIE", "YELLOW_CAKE"))
        if choice == "no":
            t = RULES.apply(s, block)
            assert (
                t.claimed[1] == ("THE_PROFESSOR",) and t.phase == "choose" and t.hands[2] == ("STRAWBERRY_SHORTCAKE",)
            )
        else:
            with pytest.raises(RuleGap) as gap:
                RULES.apply(s, block)
            assert gap.value.ruling == "jd.ruling.surprise-on-block"


def test_two_surprised_guests_in_one_turn_are_both_shielded_from_a_poach_back(retail_deck):
    """jd.surprise.no-poach-back: a second surprise in the same turn does not lift the first guest's shield
    (an outside referee's retail game, 2 players, all options, took The Dude back this way)."""
    s = position(retail_deck,
                 hands=(("AMBROSIA_SALAD", "CHOCOLATE_FROSTED_DONUTS", "DEVILS_FOOD_CUPCAKES"),
                        ("BELGIAN_WAFFLE", "CHOCOLATE_FONDUE")),
                 centre=("AGENT_17", "THE_DUDE"), options=Options(**ALL))
    s = play(RULES, s, ["serve THE_DUDE with AMBROSIA_SALAD+DEVILS_FOOD_CUPCAKES", "surprise with CHOCOLATE_FONDUE"])
    s = play(RULES, s, ["serve AGENT_17 with AMBROSIA_SALAD+CHOCOLATE_FROSTED_DONUTS", "surprise with BELGIAN_WAFFLE"])
    assert s.claimed == ((), ("AGENT_17", "THE_DUDE")) and RULES.to_move(s) == 0
    back = Move("poach", "THE_DUDE", ("AMBROSIA_SALAD", "DEVILS_FOOD_CUPCAKES"))
    assert str(back) not in moves(s)
    assert RULES.illegal_reason(s, back) == "jd.surprise.no-poach-back"
    check_invariants(s)


def test_a_doorway_serving_is_surprised_only_under_any_serving(retail_deck):
    """jd.ruling.surprise-doorway, jd.surprise.intercept, jd.discard.doorway: the rule names the middle and poaches."""
    hands = (("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM"), ("ICE_CREAM_CAKE", "FUDGE"))
    serve = Move("serve", "THE_LITTLE_GIRL", ("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM"))
    s = position(retail_deck, hands=hands, centre=("MOJO",), guest_discard=("AGENT_17", "THE_LITTLE_GIRL"),
                 options=Options(surprise_parties=True))
    t = RULES.apply(s, serve)
    assert t.phase == "choose" and t.claimed[0] == ("THE_LITTLE_GIRL",) and t.answerers == ()  # no window
    s = position(retail_deck, hands=hands, centre=("MOJO",), guest_discard=("AGENT_17", "THE_LITTLE_GIRL"),
                 options=Options(surprise_parties=True, surprise_doorway="any-serving"))
    t = RULES.apply(s, serve)
    assert t.phase == "window" and RULES.to_move(t) == 1 and moves(t) == ["pass", "surprise with ICE_CREAM_CAKE"]
    t = RULES.apply(t, Move("surprise", cards=("ICE_CREAM_CAKE",)))
    assert t.claimed == ((), ("THE_LITTLE_GIRL",)) and t.guest_discard == ("AGENT_17",)
    # from the middle, both readings let the guest be surprised
    s = position(retail_deck, hands=hands, centre=("THE_LITTLE_GIRL",), options=Options(surprise_parties=True))
    assert RULES.apply(s, serve).phase == "window"


def test_a_surprise_offers_one_favourite_or_a_serving_with_one(retail_deck):
    """jd.ruling.surprise-serving, jd.surprise.needs-favourite (with jd.ruling.serving-size=any, where they part)."""
    hands = (("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM"), ("ICE_CREAM_CAKE", "FUDGE"))
    serve = Move("serve", "THE_LITTLE_GIRL", ("STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM"))
    got = {}
    for choice in ("favourite-alone", "serving-with-favourite"):
        s = position(retail_deck, hands=hands, centre=("THE_LITTLE_GIRL",),
                     options=Options(surprise_parties=True, serving_size="any", surprise_serving=choice))
        got[choice] = RULES.apply(s, serve)
    assert moves(got["favourite-alone"]) == ["pass", "surprise with ICE_CREAM_CAKE"]
    assert moves(got["serving-with-favourite"]) == [
        "pass", "surprise with FUDGE+ICE_CREAM_CAKE", "surprise with ICE_CREAM_CAKE",
    ]
    assert RULES.illegal_reason(got["favourite-alone"], Move("surprise", cards=("FUDGE", "ICE_CREAM_CAKE"))) \
        == "jd.surprise.needs-favourite"
    t = RULES.apply(got["serving-with-favourite"], Move("surprise", cards=("FUDGE", "ICE_CREAM_CAKE")))
    assert t.claimed == ((), ("THE_LITTLE_GIRL",)) and t.hands[1] == () and t.tasks == ()  # both cards go; no tip
    check_invariants(t)


def test_the_poached_player_may_surprise_unless_only_a_block_is_allowed(retail_deck):
    """jd.ruling.victim-surprise, jd.block.defender, jd.surprise.intercept."""
    s = _professor_race(retail_deck, answer_order="clockwise")
    assert RULES.to_move(s) == 1
    assert moves(s) == ["block with STRAWBERRY_SHORTCAKE", "pass", "surprise with STRAWBERRY_SHORTCAKE"]
    t = RULES.apply(s, Move("surprise", cards=("STRAWBERRY_SHORTCAKE",)))
    assert t.claimed[1] == ("THE_PROFESSOR",) and t.poach == "" and t.tasks == ()  # no tip; the poacher may try again
    only = _professor_race(retail_deck, answer_order="clockwise", victim_surprise="block-only")
    assert moves(only) == ["block with STRAWBERRY_SHORTCAKE", "pass"]
    assert RULES.illegal_reason(only, Move("surprise", cards=("STRAWBERRY_SHORTCAKE",))) == "jd.ruling.victim-surprise"
    later = play(RULES, only, ["pass"])
    assert RULES.to_move(later) == 2 and "surprise with PINEAPPLE_UPSIDE_DOWN_CAKE" in moves(later)
