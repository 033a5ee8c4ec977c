"""Scenario tests for the Just Desserts basic game, one or more per clause (spec/just_desserts.toml)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction

import pytest

from tablerules.model.core import CHANCE, TERMINAL, IllegalMove, MoveSyntaxError, RuleGap, SetupError, play
from tablerules.model.decks import embedded_deck
from tablerules.model.just_desserts import (
    INVARIANTS,
    RULES,
    Move,
    Options,
    State,
    canonical_twins,
    doorway,
    guest_servings,
    parse_move,
    satisfying_sets,
    winning_clause,
)


def position(deck, *, hands, claimed=None, centre=(), guest_discard=(), dessert_discard=(), turn=0,
             phase="choose", options=None, players=None, **fields) -> State:
    """A mid-game state: the draw phase done, the named cards placed, every other card in its pile."""
    players = players or len(hands)
    claimed = claimed or ((),) * players
    setup = RULES.setup(players, options or Options(), deck)
    placed_d = Counter(c for h in hands for c in h) + Counter(dessert_discard)
    pile_d = Counter(deck.dessert_cards()) - placed_d
    placed_g = set(centre) | set(guest_discard) | {g for c in claimed for g in c}
    return State(
        setup=setup, hands=tuple(tuple(sorted(h)) for h in hands), claimed=tuple(tuple(sorted(c)) for c in claimed),
        dessert_pile=tuple(sorted(pile_d.elements())),
        guest_pile=tuple(g for g in deck.guest_cards() if g not in placed_g),
        dessert_discard=tuple(sorted(dessert_discard)), guest_discard=tuple(guest_discard),
        centre=tuple(sorted(centre)), turn=turn, phase=phase, opening=False,
        **fields,
    )


def check_invariants(state):
    for inv in INVARIANTS:
        assert inv.check(state) is None, (inv.name, inv.check(state))


def chance_to(state, text):
    """Apply the chance outcome with this text (and check it is one)."""
    outs = dict((str(m), p) for m, p in RULES.chance_outcomes(state))
    assert text in outs, (text, list(outs))
    return RULES.apply(state, RULES.parse_move(text, state.setup))


TWO = embedded_deck("jd-two-suits")
ONE = embedded_deck("jd-one-suit")
FAMINE = embedded_deck("jd-famine")
CROWD = embedded_deck("jd-crowd")


# --------------------------------------------------------------------------- setting up


def test_deal_three_desserts_each_then_three_guests_then_the_first_draw_phase():
    """jd.setup.deal-hands, jd.setup.deal-guests, jd.first.player, jd.setup.piles."""
    s = RULES.new_game(RULES.setup(2))
    assert RULES.to_move(s) is CHANCE
    kinds = [k for k, _ in s.tasks]
    assert kinds == ["d"] * 6 + ["g"] * 3 + ["d", "g"]
    assert s.tasks[-2] == ("d", 0)  # seat 0 starts
    assert len(s.dessert_pile) == 7 and len(s.guest_pile) == 6
    assert s.dessert_discard == () and s.guest_discard == ()


def test_player_counts_follow_the_public_source():
    """jd.players.count: 2 to 5 players."""
    assert RULES.player_counts == (2, 3, 4, 5)
    with pytest.raises(SetupError):
        RULES.setup(6)
    with pytest.raises(SetupError, match="too few desserts"):
        RULES.setup(3, Options(), TWO)


def test_the_deal_is_exact_chance_over_the_multiset():
    """jd.reshuffle.desserts: a draw takes each remaining card with probability count/size."""
    s = RULES.new_game(RULES.setup(2))
    outs = dict((str(m), p) for m, p in RULES.chance_outcomes(s))
    assert outs == {"draw PLUM": Fraction(3, 7), "draw SPONGE": Fraction(4, 7)}
    s = chance_to(s, "draw PLUM")
    assert s.hands[0] == ("PLUM",)


def test_first_turn_starts_with_draw_then_turn_up():
    """jd.turn.draw-phase: a dessert to the player, then a guest into the middle."""
    s = RULES.new_game(RULES.setup(2))
    for text in ["draw PLUM", "draw PLUM", "draw PLUM", "draw SPONGE", "draw SPONGE", "draw SPONGE",
                 "turn up BAKER_A", "turn up BAKER_B", "turn up PICKER_A"]:
        s = chance_to(s, text)
    assert s.centre == ("BAKER_A", "BAKER_B", "PICKER_A")  # jd.setup.deal-guests may repeat a suit
    s = chance_to(s, "draw SPONGE")
    assert s.hands[0] == ("PLUM", "PLUM", "SPONGE", "SPONGE")  # dealt alternately, then the draw
    s = chance_to(s, "turn up PICKER_B")
    assert "PICKER_B" in s.centre and RULES.to_move(s) == 0
    check_invariants(s)


# --------------------------------------------------------------------------- serving


def test_worked_example_little_girl(retail_deck):
    """jd.turn.example: only the shortcake with the butter pecan ice cream claims the Little Girl."""
    hand = ("BUTTER_PECAN_ICE_CREAM", "CARROT_CAKE", "STRAWBERRY_SHORTCAKE")
    s = position(retail_deck, hands=(hand, ()), centre=("THE_LITTLE_GIRL",))
    assert guest_servings(s, s.hands[0], "THE_LITTLE_GIRL") == (("BUTTER_PECAN_ICE_CREAM", "STRAWBERRY_SHORTCAKE"),)
    any_size = position(retail_deck, hands=(hand, ()), centre=("THE_LITTLE_GIRL",), options=Options(serving_size="any"))
    assert guest_servings(any_size, hand, "THE_LITTLE_GIRL") == (("BUTTER_PECAN_ICE_CREAM", "STRAWBERRY_SHORTCAKE"),)
    assert RULES.illegal_reason(s, parse_move("serve THE_LITTLE_GIRL with CARROT_CAKE+STRAWBERRY_SHORTCAKE", s.setup)) \
        == "jd.turn.satisfy-guests"


def test_satisfying_sets_is_a_function_of_hand_and_guest(retail_deck):
    """jd.serve.satisfies, jd.turn.example: the pure function behind guest_servings."""
    hand = ("STRAWBERRY_SHORTCAKE", "CARROT_CAKE", "BUTTER_PECAN_ICE_CREAM")
    assert satisfying_sets(retail_deck, hand, "THE_LITTLE_GIRL") == (
        ("BUTTER_PECAN_ICE_CREAM", "STRAWBERRY_SHORTCAKE"),
    )
    hand2 = hand + ("ICE_CREAM_CAKE",)
    assert satisfying_sets(retail_deck, hand2, "THE_LITTLE_GIRL") == (
        ("ICE_CREAM_CAKE",), ("BUTTER_PECAN_ICE_CREAM", "STRAWBERRY_SHORTCAKE"))
    anything = satisfying_sets(retail_deck, hand2, "THE_LITTLE_GIRL", minimal=False)
    assert ("BUTTER_PECAN_ICE_CREAM", "ICE_CREAM_CAKE") in anything and len(anything) > 2
    assert satisfying_sets(retail_deck, ("CARROT_CAKE",), "THE_LITTLE_GIRL") == ()


def test_satisfying_needs_every_craving_and_no_refused_taste(retail_deck):
    """jd.serve.satisfies, jd.tastes.icons: Candice craves Marshmallow and Veggies and refuses Chocolate."""
    hand = ("CANDIED_YAMS", "CHOCOLATE_COVERED_MARSHMALLOWS", "CARROT_CAKE", "TOASTED_MARSHMALLOWS")
    s = position(retail_deck, hands=(hand, ()), centre=("CANDICE",))
    got = guest_servings(s, hand, "CANDICE")
    assert ("CANDIED_YAMS",) in got
    assert ("CARROT_CAKE", "TOASTED_MARSHMALLOWS") in got
    assert all("CHOCOLATE_COVERED_MARSHMALLOWS" not in g for g in got)
    assert set(retail_deck.tastes) == {"Chocolate", "Cookie", "Nuts", "Pie", "Spices", "Ice Cream", "Fruit", "Cake",
                                       "Marshmallow", "Pastry", "Veggies", "Pudding"}


def test_serving_size_minimal_forbids_spare_cards():
    """jd.ruling.serving-size: minimal by default; `any` allows extra desserts."""
    s = position(TWO, hands=(("SPONGE", "PLUM"), ()), centre=("BAKER_A",))
    extra = Move("serve", "BAKER_A", ("PLUM", "SPONGE"))
    assert extra not in RULES.legal_moves(s)
    s2 = position(TWO, hands=(("SPONGE", "PLUM"), ()), centre=("BAKER_A",), options=Options(serving_size="any"))
    assert extra in RULES.legal_moves(s2)


def test_serve_two_guests_then_the_option_is_over():
    """jd.turn.satisfy-guests: at most two guests; jd.turn.one-option: no kitchen after serving."""
    s = position(TWO, hands=(("PLUM", "PLUM", "SPONGE"), ("SPONGE",)), centre=("BAKER_A", "PICKER_A", "PICKER_B"))
    s = play(RULES, s, ["serve BAKER_A with SPONGE", "draw SPONGE"])  # tip: SPONGE is the Baker's favourite
    assert s.served == 1 and Move("kitchen") not in RULES.legal_moves(s)
    assert RULES.illegal_reason(s, Move("kitchen")) == "jd.turn.one-option"
    s = play(RULES, s, ["serve PICKER_A with PLUM", "draw SPONGE"])
    assert s.claimed[0] == ("BAKER_A", "PICKER_A")
    # the option is over; the discard phase finds one guest per suit, so the turn passes
    assert s.turn == 1 and s.tasks == (("d", 1), ("g", -1))
    check_invariants(s)


def test_stop_after_one_serving():
    """jd.turn.satisfy-guests: up to two, so stopping after one is allowed."""
    s = position(TWO, hands=(("PLUM",), ()), centre=("PICKER_A", "BAKER_A"))
    s = play(RULES, s, ["serve PICKER_A with PLUM", "draw SPONGE", "stop"])
    assert s.turn == 1 and s.claimed[0] == ("PICKER_A",)


def test_favourite_earns_a_tip_at_once_others_do_not(retail_deck):
    """jd.tip.favourite: a favourite served draws one more dessert at once; jd.ruling.tip-count."""
    s = position(retail_deck, hands=(("ICE_CREAM_CAKE", "STRAWBERRY_SHORTCAKE", "VANILLA_ICE_CREAM"), ()),
                 centre=("THE_LITTLE_GIRL",))
    tipped = RULES.apply(s, parse_move("serve THE_LITTLE_GIRL with ICE_CREAM_CAKE", s.setup))
    assert tipped.tasks == (("d", 0),) and RULES.to_move(tipped) is CHANCE
    plain = RULES.apply(s, parse_move("serve THE_LITTLE_GIRL with STRAWBERRY_SHORTCAKE+VANILLA_ICE_CREAM", s.setup))
    assert plain.tasks == () and RULES.to_move(plain) == 0


def test_tip_count_ruling_one_per_favourite(retail_deck):
    """jd.ruling.tip-count: with serving-size=any, two favourites to the Emperor give one or two tips."""
    hand = ("CHOCOLATE_ANGEL_FOOD_CAKE", "DEVILS_FOOD_CUPCAKES")
    for choice, tips in (("one-per-guest", 1), ("one-per-favourite", 2)):
        s = position(retail_deck, hands=(hand, ()), centre=("THE_EMPEROR",),
                     options=Options(serving_size="any", tip_count=choice))
        t = RULES.apply(s, Move("serve", "THE_EMPEROR", hand))
        assert len(t.tasks) == tips


def test_favourite_with_others_ruling(retail_deck):
    """jd.ruling.favourite-with-others: a favourite served with another dessert tips by default; alone-only not."""
    hand = ("ICE_CREAM_CAKE", "STRAWBERRY_SHORTCAKE")
    for choice, tips in (("counts", 1), ("alone-only", 0)):
        s = position(retail_deck, hands=(hand, ()), centre=("THE_LITTLE_GIRL",),
                     options=Options(serving_size="any", favourite_with_others=choice))
        t = RULES.apply(s, Move("serve", "THE_LITTLE_GIRL", hand))
        assert len(t.tasks) == tips, choice


def test_kitchen_draws_one_card():
    """jd.turn.kitchen."""
    s = position(TWO, hands=(("PLUM",), ("SPONGE",)), centre=("PICKER_A",))
    s = RULES.apply(s, Move("kitchen"))
    assert s.tasks == (("d", 0),)
    s = chance_to(s, "draw SPONGE")
    assert s.hands[0] == ("PLUM", "SPONGE") and s.turn == 1


def test_dump_tray_discards_then_draws_as_many():
    """jd.turn.dump-tray; jd.ruling.dump-none forbids an empty dump by default."""
    s = position(TWO, hands=(("PLUM", "PLUM", "SPONGE"), ()), centre=("PICKER_A",))
    assert RULES.illegal_reason(s, Move("dump")) == "jd.ruling.dump-none"
    assert [str(m) for m in RULES.legal_moves(s) if m.verb == "dump"] == ["dump PLUM", "dump SPONGE"]
    t = play(RULES, s, ["dump PLUM", "dump PLUM"])
    assert t.phase == "dump" and t.tasks == () and RULES.illegal_reason(t, Move("kitchen")) == "jd.turn.one-option"
    assert RULES.illegal_reason(t, Move("dump", cards=("PLUM",))) == "jd.turn.dump-tray"  # none left
    t = RULES.apply(t, Move("stop"))
    assert t.hands[0] == ("SPONGE",) and t.dessert_discard == ("PLUM", "PLUM") and len(t.tasks) == 2
    allowed = position(TWO, hands=(("PLUM",), ()), centre=("PICKER_A",), options=Options(dump_none="allowed"))
    assert Move("dump") in RULES.legal_moves(allowed)


def test_no_hand_limit():
    """jd.discard.no-hand-limit: a hand of every dessert is fine; the turn still ends."""
    s = position(TWO, hands=(TWO.dessert_cards()[:-1], ()), centre=("PICKER_A",))
    s = play(RULES, s, ["kitchen", "draw SPONGE"])
    assert len(s.hands[0]) == 7 and s.turn == 1


# --------------------------------------------------------------------------- discard phase and the doorway


def test_discard_phase_player_chooses_who_leaves_and_the_last_stands_in_the_doorway():
    """jd.discard.one-per-suit, jd.discard.doorway, jd.discard.turn-ends."""
    s = position(TWO, hands=(("PLUM",), ()), centre=("BAKER_A", "BAKER_B", "BAKER_C", "PICKER_A"))
    s = play(RULES, s, ["kitchen", "draw SPONGE"])
    assert s.phase == "discard" and RULES.to_move(s) == 0
    assert [str(m) for m in RULES.legal_moves(s)] == [
        "depart BAKER_A", "depart BAKER_B", "depart BAKER_C", "depart PICKER_A",
    ]
    s = play(RULES, s, ["depart BAKER_C", "depart BAKER_A"])
    assert s.guest_discard == ("BAKER_C", "BAKER_A") and doorway(s) == "BAKER_A"
    assert s.turn == 1 and s.centre == ("BAKER_B", "PICKER_A")
    check_invariants(s)


def test_doorway_guest_can_be_served_and_the_next_one_steps_up():
    """jd.discard.doorway."""
    s = position(ONE, hands=(("SPONGE", "PLUM"), ()), centre=("GARDENER",), guest_discard=("PICKER", "BAKER"),
                 options=Options(reshuffle_time="when-needed"))  # at-once would rebuild the empty guest pile
    moves = [str(m) for m in RULES.legal_moves(s)]
    assert "serve BAKER with SPONGE" in moves and "serve PICKER with PLUM" not in moves
    s = play(RULES, s, ["serve BAKER with SPONGE", "draw SPONGE"])
    assert doorway(s) == "PICKER"
    assert "serve PICKER with PLUM" in [str(m) for m in RULES.legal_moves(s)]


def test_which_guests_may_leave_in_the_discard_phase():
    """jd.ruling.discard-which: any guest while a suit shows twice (the literal reading), or only the duplicates."""
    centre = ("BAKER_A", "BAKER_B", "PICKER_A")
    s = position(TWO, hands=(("PLUM",), ()), centre=centre)
    s = play(RULES, s, ["kitchen", "draw SPONGE"])
    assert [str(m) for m in RULES.legal_moves(s)] == ["depart BAKER_A", "depart BAKER_B", "depart PICKER_A"]
    s = play(RULES, s, ["depart PICKER_A"])  # a lone guest goes; a suit still shows twice, so the phase goes on
    assert s.phase == "discard" and s.centre == ("BAKER_A", "BAKER_B") and doorway(s) == "PICKER_A"
    s = play(RULES, s, ["depart BAKER_B"])
    assert s.turn == 1 and s.centre == ("BAKER_A",) and doorway(s) == "BAKER_B"
    dup = position(TWO, hands=(("PLUM",), ()), centre=centre, options=Options(discard_which="duplicates-only"))
    dup = play(RULES, dup, ["kitchen", "draw SPONGE"])
    assert [str(m) for m in RULES.legal_moves(dup)] == ["depart BAKER_A", "depart BAKER_B"]
    assert RULES.illegal_reason(dup, Move("depart", "PICKER_A")) == "jd.discard.one-per-suit"


def test_the_turn_passes_clockwise_or_as_the_ruling_says():
    """jd.discard.turn-ends, jd.ruling.turn-direction: seats are numbered clockwise; strict raises with three
    players."""
    for direction, after in (("clockwise", 1), ("counter-clockwise", 2)):
        s = position(CROWD, hands=(("SPONGE",), (), ()), centre=("BAKER",), options=Options(turn_direction=direction))
        s = play(RULES, s, ["kitchen", "draw SPONGE"])
        assert s.turn == after and s.tasks[0] == ("d", after)
    two = position(TWO, hands=(("PLUM",), ()), centre=("BAKER_A",), options=Options(turn_direction="strict"))
    assert play(RULES, two, ["kitchen", "draw SPONGE"]).turn == 1  # two players: no question
    three = position(CROWD, hands=(("SPONGE",), (), ()), centre=("BAKER",), options=Options(turn_direction="strict"))
    three = RULES.apply(three, Move("kitchen"))
    with pytest.raises(RuleGap) as gap:
        RULES.apply(three, Move("draw", cards=("SPONGE",)))
    assert gap.value.ruling == "jd.ruling.turn-direction"


def test_dealt_guests_of_one_suit_wait_for_the_first_discard_phase_or_are_sorted_at_set_up():
    """jd.ruling.opening-duplicates, jd.setup.deal-guests, jd.discard.one-per-suit."""
    deal = ["draw SPONGE", "draw PLUM"] * 3 + ["turn up BAKER_A", "turn up BAKER_B", "turn up PICKER_A"]
    s = play(RULES, RULES.new_game(RULES.setup(2, Options(), TWO)), deal)
    assert s.centre == ("BAKER_A", "BAKER_B", "PICKER_A") and RULES.to_move(s) is CHANCE  # seat 0's draw phase
    check_invariants(s)
    early = RULES.new_game(RULES.setup(2, Options(opening_duplicates="at-setup"), TWO))
    early = play(RULES, early, deal)
    assert early.phase == "sort" and RULES.to_move(early) == 0
    assert [str(m) for m in RULES.legal_moves(early)] == ["depart BAKER_A", "depart BAKER_B", "depart PICKER_A"]
    assert RULES.illegal_reason(early, Move("kitchen")) == "jd.discard.one-per-suit"
    early = play(RULES, early, ["depart BAKER_B"])
    assert early.phase == "choose" and early.turn == 0 and not early.opening and doorway(early) == "BAKER_B"
    assert early.tasks == (("d", 0), ("g", -1))  # now seat 0's draw phase
    check_invariants(early)
    calm = play(RULES, RULES.new_game(RULES.setup(2, Options(opening_duplicates="at-setup"), TWO)),
                ["draw SPONGE", "draw PLUM"] * 3 + ["turn up BAKER_A", "turn up PICKER_A", "turn up PICKER_B"])
    assert calm.phase == "sort"  # PICKER twice
    calm = play(RULES, calm, ["depart PICKER_A"])
    assert calm.phase == "choose" and calm.tasks == (("d", 0), ("g", -1))


def test_the_serving_option_needs_a_guest_served_unless_the_ruling_allows_none():
    """jd.ruling.serve-none, jd.turn.one-option: stop only once a guest is served (or a poach blocked)."""
    s = position(TWO, hands=(("PLUM",), ()), centre=("BAKER_A",))
    assert "stop" not in [str(m) for m in RULES.legal_moves(s)]
    assert RULES.illegal_reason(s, Move("stop")) == "jd.ruling.serve-none"
    free = position(TWO, hands=(("PLUM",), ()), centre=("BAKER_A",), options=Options(serve_none="allowed"))
    assert "stop" in [str(m) for m in RULES.legal_moves(free)]
    t = RULES.apply(free, Move("stop"))
    assert t.turn == 1 and t.hands[0] == ("PLUM",) and t.tasks == (("d", 1), ("g", -1))  # nothing drawn: a pass


def test_a_guest_alone_in_its_suit_cannot_be_sent_away():
    """jd.discard.one-per-suit: the turn ends at once when no suit shows twice."""
    s = position(TWO, hands=(("PLUM",), ()), centre=("BAKER_A", "PICKER_A"))
    s = play(RULES, s, ["kitchen", "draw SPONGE"])
    assert s.turn == 1 and s.centre == ("BAKER_A", "PICKER_A")


# --------------------------------------------------------------------------- reshuffles and supply


def test_reshuffle_default_is_the_texts_whenever_a_deck_runs_out():
    """jd.reshuffle.desserts: the text rebuilds a pile whenever it runs out, so jd.ruling.reshuffle-time
    defaults to at-once; the served desserts become the new pile before the tip is drawn."""
    assert Options().reshuffle_time == "at-once"
    hands = (("PLUM", "PLUM", "SPONGE", "SPONGE"), ("PLUM", "SPONGE", "SPONGE"))
    s = position(TWO, hands=hands, centre=("PICKER_A",))
    t = RULES.apply(s, Move("serve", "PICKER_A", ("PLUM",)))
    assert (t.dessert_pile, t.dessert_discard) == (("PLUM",), ())


def test_dessert_pile_reshuffles_from_discards_when_needed():
    """jd.reshuffle.desserts, jd.ruling.reshuffle-time=when-needed."""
    s = position(TWO, hands=(("PLUM", "PLUM", "SPONGE", "SPONGE"), ("SPONGE", "SPONGE")), dessert_discard=("PLUM",),
                 centre=("PICKER_A",), options=Options(reshuffle_time="when-needed"))
    assert s.dessert_pile == ()
    s = RULES.apply(s, Move("kitchen"))
    assert [str(m) for m, _ in RULES.chance_outcomes(s)] == ["draw PLUM"]
    s = chance_to(s, "draw PLUM")
    assert s.dessert_discard == () and s.hands[0].count("PLUM") == 3


def test_reshuffle_at_once_ruling():
    """jd.ruling.reshuffle-time: at-once rebuilds the pile the moment discards exist and the pile is empty;
    when-needed when a draw is due from the empty pile, before the draw, so that the pile a seat sees is the pile
    the card comes from (the lockstep with the independent reading found it otherwise).  The cards discarded in
    between join the new pile only under when-needed."""
    from tablerules.model.just_desserts.game import settle

    hands = (("PLUM", "PLUM", "SPONGE", "SPONGE"), ("PLUM", "SPONGE", "SPONGE"))
    for choice in ("when-needed", "at-once"):
        s = position(TWO, hands=hands, centre=("PICKER_A",), options=Options(reshuffle_time=choice))
        assert s.dessert_pile == ()
        t = RULES.apply(s, Move("serve", "PICKER_A", ("PLUM",)))  # the tip is still to be drawn
        assert (t.dessert_pile, t.dessert_discard) == (("PLUM",), ()), choice
        assert [str(m) for m, _ in RULES.chance_outcomes(t)] == ["draw PLUM"]
    hands = (("PLUM", "SPONGE", "SPONGE"), ("PLUM", "SPONGE", "SPONGE"))
    for choice, pile, discard in (("when-needed", ("PLUM", "PLUM"), ()), ("at-once", ("PLUM",), ("PLUM",))):
        s = settle(position(TWO, hands=hands, centre=("PICKER_A",), dessert_discard=("PLUM",),
                            options=Options(reshuffle_time=choice)))
        t = RULES.apply(s, Move("serve", "PICKER_A", ("PLUM",)))
        assert (t.dessert_pile, t.dessert_discard) == (pile, discard), choice


def test_guest_reshuffle_keeps_the_doorway_guest():
    """jd.reshuffle.guests: the top discard stays; the rest become the pile."""
    claimed = (("PICKER_B",), ("PICKER_C",))
    s = position(TWO, hands=(("PLUM",), ()), claimed=claimed, centre=("BAKER_A",),
                 guest_discard=("BAKER_B", "PICKER_A", "BAKER_C"), players=2)
    assert s.guest_pile == ()
    s = play(RULES, s, ["kitchen", "draw SPONGE", "draw SPONGE"])
    outs = [str(m) for m, _ in RULES.chance_outcomes(s)]
    assert outs == ["turn up BAKER_B", "turn up PICKER_A"]
    s = chance_to(s, "turn up PICKER_A")
    assert s.guest_discard == ("BAKER_C",) and s.guest_pile == ("BAKER_B",)
    check_invariants(s)


def test_supply_rulings_skip_strict_and_draw_game():
    """jd.ruling.dessert-supply-empty and jd.ruling.guest-supply-empty."""
    hands = (("PLUM", "PLUM", "PLUM", "SPONGE"), ("SPONGE", "SPONGE", "SPONGE"))
    s = position(TWO, hands=hands, centre=("PICKER_A",))
    t = RULES.apply(s, Move("kitchen"))  # nothing to draw: skipped
    assert t.turn == 1 and t.hands == s.hands
    strict = position(TWO, hands=hands, centre=("PICKER_A",), options=Options(dessert_supply="strict"))
    with pytest.raises(RuleGap) as gap:
        RULES.apply(strict, Move("kitchen"))
    assert gap.value.ruling == "jd.ruling.dessert-supply-empty"
    claimed = (("BAKER_A", "PICKER_A"), ("BAKER_B", "PICKER_B"))
    g = position(TWO, hands=(("PLUM",), ()), claimed=claimed, centre=("BAKER_C", "PICKER_C"),
                 options=Options(guest_supply="draw-game"))
    g = play(RULES, g, ["kitchen", "draw SPONGE", "draw SPONGE"])
    assert RULES.to_move(g) is TERMINAL and RULES.outcome(g).draw


def _all_claimed_after_a_serving(**options):
    claimed = (("BAKER_A", "PICKER_A"), ("BAKER_B", "BAKER_C", "PICKER_B"))
    s = position(TWO, hands=(("PLUM",), ()), claimed=claimed, centre=("PICKER_C",), options=Options(**options))
    s = RULES.apply(s, Move("serve", "PICKER_C", ("PLUM",)))
    return chance_to(s, "draw SPONGE")


def test_all_guests_claimed_is_scored_as_the_publishers_faq_says_by_default():
    """jd.ruling.all-guests-claimed (Looney Labs FAQ, question 1026): a point per guest and one per
    matching pair (jd.ruling.matching-pair); 4 points each, so the larger hand wins the tie."""
    s = _all_claimed_after_a_serving()
    out = RULES.outcome(s)
    assert out.scores == (4, 4) and out.winners == {0} and out.clause == "jd.ruling.all-guests-claimed"
    empty_handed = dataclasses.replace(s, hands=((), ()), dessert_pile=s.dessert_pile + s.hands[0])
    assert RULES.outcome(empty_handed).draw and RULES.outcome(empty_handed).clause == "jd.ruling.score-full-tie"
    shared = dataclasses.replace(empty_handed, setup=RULES.setup(2, Options(score_full_tie="shared-win"), TWO))
    assert RULES.outcome(shared).winners == {0, 1}
    assert RULES.outcome(_all_claimed_after_a_serving(all_claimed="draw")).draw


def test_all_guests_claimed_draw_waits_while_a_buffet_can_still_be_opened():
    """jd.ruling.all-guests-claimed = draw, jd.buffet.aces, jd.buffet.others-return: a buffet sends guests
    back to the middle, so no draw while anybody can still open one (desserts left in the pile)."""
    s = _all_claimed_after_a_serving(all_claimed="draw", buffet=True)
    assert RULES.outcome(s) is None and s.dessert_pile
    assert RULES.outcome(_all_claimed_after_a_serving(all_claimed="draw")).draw


def _stuck(**options):
    """jd-famine: every dessert in a hand, and neither hand satisfies a guest still to be served."""
    return position(FAMINE, hands=(("WALNUT", "WALNUT"), ("PLUM", "PLUM", "SPONGE", "SPONGE")),
                    claimed=(("BAKER",), ("PICKER",)), centre=("FORAGER", "NUTTER"), options=Options(**options))


def test_play_that_can_never_change_anything_ends_and_is_scored():
    """jd.ruling.no-serving-possible: with every dessert in a hand, hands never change (a dump draws the
    same cards back), so nobody can serve again; by default the game ends at the next turn and is
    scored as the FAQ scores a game whose guests ran out (1 point each: the larger hand wins)."""
    s = RULES.apply(_stuck(), Move("kitchen"))
    out = RULES.outcome(s)
    assert out is not None and out.clause == "jd.ruling.no-serving-possible" and out.winners == {1}
    assert RULES.outcome(RULES.apply(_stuck(no_serving="draw"), Move("kitchen"))).draw
    with pytest.raises(RuleGap) as gap:
        RULES.apply(_stuck(no_serving="strict"), Move("kitchen"))
    assert gap.value.ruling == "jd.ruling.no-serving-possible"
    # play-on: the literal silence; the game goes round for ever
    s = RULES.apply(_stuck(no_serving="play-on"), Move("kitchen"))
    seen = set()
    for _ in range(40):
        assert RULES.outcome(s) is None
        seen.add(s)
        s = (
            RULES.apply(s, RULES.legal_moves(s)[0])
            if RULES.legal_moves(s)
            else RULES.apply(s, RULES.chance_outcomes(s)[0][0])
        )
    assert s in seen  # back where it was: a cycle


def test_a_serving_still_possible_keeps_the_game_going():
    """jd.ruling.no-serving-possible is not reached while a hand can serve (here: walnut and sponge)."""
    s = position(FAMINE, hands=(("SPONGE", "WALNUT"), ("PLUM", "PLUM", "SPONGE", "WALNUT")),
                 claimed=(("BAKER",), ("PICKER",)), centre=("FORAGER", "NUTTER"))
    assert RULES.outcome(RULES.apply(s, Move("kitchen"))) is None


def test_matching_pair_readings_differ_only_for_three_or_four_of_a_suit():
    """jd.ruling.matching-pair: pairs, exactly-two and every-two agree for at most two guests of a suit,
    which is all a player can hold without winning (jd.win.three-of-a-suit)."""
    from tablerules.model.just_desserts.ending import pairs

    two = ("BAKER_A", "BAKER_B", "PICKER_A")
    assert {pairs(TWO, two, r) for r in ("pairs", "exactly-two", "every-two")} == {1}
    three = ("BAKER_A", "BAKER_B", "BAKER_C")
    assert [pairs(TWO, three, r) for r in ("pairs", "exactly-two", "every-two")] == [1, 0, 3]


# --------------------------------------------------------------------------- winning


def test_three_of_a_suit_wins_at_once():
    """jd.win.three-of-a-suit, jd.win.any-time: the game ends before the tip is drawn."""
    s = position(TWO, hands=(("SPONGE",), ()), claimed=(("BAKER_A", "BAKER_B"), ()), centre=("BAKER_C",))
    s = RULES.apply(s, Move("serve", "BAKER_C", ("SPONGE",)))
    assert RULES.to_move(s) is TERMINAL
    out = RULES.outcome(s)
    assert out.winners == {0} and out.losers == {1} and out.clause == "jd.win.three-of-a-suit"


def test_five_suits_win_and_suits_of_the_retail_deck(retail_deck):
    """jd.win.five-suits, jd.suits.six."""
    by_suit = {}
    for g in retail_deck.guests:
        by_suit.setdefault(g.suit, []).append(g.id)
    assert len(by_suit) == 6 and {len(v) for v in by_suit.values()} == {4}
    five = tuple(sorted(v[0] for v in list(by_suit.values())[:5]))
    assert winning_clause(retail_deck, five) == "jd.win.five-suits"
    assert winning_clause(retail_deck, five[:4]) is None
    two_two = tuple(sorted(v[i] for v in list(by_suit.values())[:4] for i in range(2)))
    assert len(two_two) == 8 and winning_clause(retail_deck, two_two) is None


# --------------------------------------------------------------------------- moves, views, errors


def test_moves_print_and_parse():
    s = position(TWO, hands=(("PLUM", "SPONGE"), ()), centre=("BAKER_A", "PICKER_A"))
    for m in RULES.legal_moves(s):
        assert parse_move(str(m), s.setup) == m
    for text in ["first seat 2", "turn up BAKER_A", "draw PLUM", "block with PLUM", "surprise with PLUM", "pass",
                 "return BAKER_A", "depart BAKER_A", "buffet PLUM+PLUM+SPONGE+SPONGE", "poach BAKER_A with SPONGE",
                 "dump PLUM", "dump", "kitchen", "stop"]:
        assert str(parse_move(text, s.setup)) == text
    for bad in ["", "serve NOBODY with PLUM", "serve BAKER_A with CAVIAR", "fly away"]:
        with pytest.raises(MoveSyntaxError) as e:
            parse_move(bad, s.setup)
        assert "\n" not in str(e.value)


def test_illegal_moves_name_their_clause():
    s = position(TWO, hands=(("PLUM",), ()), centre=("BAKER_A",))
    with pytest.raises(IllegalMove) as e:
        RULES.apply(s, Move("serve", "BAKER_A", ("PLUM",)))
    assert e.value.clause == "jd.turn.satisfy-guests"
    assert RULES.illegal_reason(s, Move("serve", "PICKER_B", ("PLUM",))) == "jd.discard.doorway"
    assert RULES.illegal_reason(s, Move("poach", "PICKER_B", ("PLUM",))) == "jd.poach.attempt"
    assert RULES.illegal_reason(s, Move("buffet", cards=("PLUM",) * 4)) == "jd.buffet.aces"


def test_observation_hides_other_hands_and_piles():
    s = position(TWO, hands=(("PLUM",), ("SPONGE", "SPONGE")), centre=("BAKER_A",))
    o = RULES.observation(s, 0)
    assert o["hand"] == ["PLUM"] and o["hand_sizes"] == [1, 2]
    assert "SPONGE" not in str(o["hand"]) and "dessert_pile" not in o and o["dessert_pile_size"] == 4
    assert RULES.observation(s, 1)["hand"] == ["SPONGE", "SPONGE"]
    assert RULES.observation(s, 1)["legal_moves"] == []


def test_invariants_catch_a_lost_card():
    """jd.setup.components: every card in exactly one zone."""
    s = position(TWO, hands=(("PLUM",), ()), centre=("BAKER_A",))
    broken = State(**{**{f: getattr(s, f) for f in State.__slots__}, "hands": ((), ())})
    assert INVARIANTS[0].check(broken) is not None
    assert INVARIANTS[0].check(s) is None


def test_twins_symmetry_maps_equivalent_states_together():
    a = position(TWO, hands=(("PLUM",), ()), centre=("BAKER_B",), claimed=(("BAKER_C",), ()))
    b = position(TWO, hands=(("PLUM",), ()), centre=("BAKER_C",), claimed=(("BAKER_A",), ()))
    assert canonical_twins(a) == canonical_twins(b)
    assert canonical_twins(a) != canonical_twins(position(TWO, hands=(("PLUM",), ()), centre=("BAKER_B",)))
