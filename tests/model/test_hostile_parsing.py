"""Hostile text read by the models: every number in a move or a --deck value has one spelling
(ASCII digits, no leading zero), every card id is an identifier, a deck whose guests could be
served in more ways than play can list is refused, and a serving is judged without listing
every serving of the hand (model/core.py read_number, model/decks.py, model/just_desserts/game.py)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from tablerules.model import registry
from tablerules.model.core import CHANCE, TERMINAL, MoveSyntaxError, SetupError, pick_by_probability, read_number
from tablerules.model.decks import MAX_SERVINGS, DeckError, embedded_deck, load_deck
from tablerules.model.dishes import game as dishes
from tablerules.model.just_desserts import game as jd
from tablerules.model.just_desserts.moves import Move
from tests.deck_files import tiny_deck

DISHES = registry.get("dishes")
JD = registry.get("just-desserts")
V23 = registry.get("just-desserts-2.3")

ARABIC_ZERO, FULL_WIDTH_ONE, SUPERSCRIPT_TWO = "\u0660", "\uff11", "\u00b2"


@pytest.mark.parametrize("text", ["0", "7", "10", "123456789"])
def test_a_number_in_ascii_digits_reads(text):
    assert read_number(text) == int(text)


@pytest.mark.parametrize("text", ["", "00", "07", "-1", "+1", " 1", "1_0", "1e3", ARABIC_ZERO, FULL_WIDTH_ONE,
                                  SUPERSCRIPT_TWO, "9" * 5000, "1234567890"])
def test_any_other_spelling_of_a_number_is_none(text):
    assert read_number(text) is None


@pytest.mark.parametrize("text", [f"turn {ARABIC_ZERO}.main", f"turn {FULL_WIDTH_ONE}.main", "turn 00.main",
                                  "turn 01.main", f"turn {SUPERSCRIPT_TWO}.main", "turn " + "9" * 5000 + ".main",
                                  f"place 0.main on {ARABIC_ZERO}.soup", f"first {ARABIC_ZERO}", "first 01",
                                  f"reveal {FULL_WIDTH_ONE}.soup red"])
def test_a_dishes_move_takes_ascii_numbers_only(text):
    with pytest.raises(MoveSyntaxError):
        DISHES.parse_move(text)


@pytest.mark.parametrize("text", ["turn 0.main", "turn 10.main", "place 1.soup on 0.soup", "first 0", "first 3"])
def test_a_dishes_move_in_its_canonical_form_still_reads_back(text):
    assert str(DISHES.parse_move(text)) == text


@pytest.mark.parametrize("text", ["\uff13x\uff14", "\u0663x\u0664", "03x4", "3x04", "", "x", "3x", "+3x4", "3 x4",
                                  SUPERSCRIPT_TWO + "x4", "9" * 5000 + "x4"])
def test_a_tile_set_takes_ascii_numbers_only(text):
    with pytest.raises(SetupError, match="ASCII digits"):
        dishes.parse_tiles(text)
    assert dishes.parse_tiles("3x4") == dishes.Tiles(3, 4)


@pytest.mark.parametrize("text", [f"first seat {ARABIC_ZERO}", "first seat 01", f"first seat {FULL_WIDTH_ONE}",
                                  "first seat " + "9" * 5000])
def test_a_just_desserts_seat_takes_ascii_numbers_only(text):
    setup = JD.setup(2, JD.Options(), None)
    with pytest.raises(MoveSyntaxError):
        JD.parse_move(text, setup)
    assert str(JD.parse_move("first seat 1", setup)) == "first seat 1"


@pytest.mark.parametrize("text", [f"first {ARABIC_ZERO}", "first 01", f"seat {FULL_WIDTH_ONE} draws FUDGE",
                                  f"seat 0 takes FUDGE from seat {ARABIC_ZERO}", "seat 00 draws FUDGE"])
def test_a_2_3_seat_takes_ascii_numbers_only(text):
    with pytest.raises(MoveSyntaxError):
        V23.parse_move(text)
    assert str(V23.parse_move("seat 1 draws FUDGE")) == "seat 1 draws FUDGE"


def test_a_dump_names_one_dessert_a_move():
    """jd.turn.dump-tray: as many desserts as the player likes, one ``dump`` each, then ``stop``."""
    setup = JD.setup(2, JD.Options(), embedded_deck("jd-rivals"))
    with pytest.raises(MoveSyntaxError, match=r"a dump names one dessert.*dump A, then dump B.*jd\.turn\.dump-tray"):
        JD.parse_move("dump FRUIT_TART+SPONGE", setup)
    assert JD.parse_move("dump SPONGE", setup) == Move("dump", cards=("SPONGE",))


# --------------------------------------------------------------------------- deck files


@pytest.mark.parametrize("card_id", ["A+B", "TWO WORDS", "1CAKE", "K\u00c4SE", "CAKE\u0660", ""])
def test_a_card_id_is_an_ascii_identifier(tmp_path, card_id):
    path = tmp_path / "deck.json"
    deck = tiny_deck()
    deck["desserts"][0]["id"] = card_id
    path.write_text(json.dumps(deck))
    with pytest.raises(DeckError, match=r"\$\.desserts\[0\]\.id: "):
        load_deck(path)


def test_a_deck_whose_guests_want_every_taste_is_refused_with_its_count(tmp_path):
    """Twelve tastes, sixty desserts of three tastes each: a guest that wants all twelve could be
    served in about 1.5e12 ways, which play would list as moves (it never finished)."""
    rng = random.Random(1)
    tastes = [f"t{i}" for i in range(12)]
    desserts = [{"id": f"D{i}", "tastes": rng.sample(tastes, 3), "copies": 2} for i in range(60)]
    guests = [{"id": f"G{i}", "suit": "s", "wants": tastes} for i in range(6)]
    path = tmp_path / "every-taste.json"
    path.write_text(json.dumps({"tastes": tastes, "suits": ["s"], "desserts": desserts, "guests": guests}))
    with pytest.raises(DeckError) as e:
        load_deck(path)
    text = str(e.value)
    assert text.startswith(f"{path}: $.guests[0] (G0): the deck could serve it ") and "\n" not in text
    assert f"more than the limit of {MAX_SERVINGS:,}" in text and "(12 wanted tastes)" in text


def test_every_shipped_deck_and_the_retail_deck_are_within_the_limit(retail_deck):
    assert retail_deck.guests  # loaded: MOJO, the retail deck's largest, has 152,201 sets


# --------------------------------------------------------------------------- a serving judged, not listed


def _choose_position(deck, options, seed=3):
    """A position where a seat chooses its turn option (random play from the deal)."""
    rng = random.Random(seed)
    s = JD.new_game(JD.setup(2, options, deck))
    while True:
        actor = JD.to_move(s)
        assert actor is not TERMINAL
        if actor is not CHANCE and s.phase == "choose" and not s.committed and len(s.hands[s.turn]) >= 3:
            return s
        s = JD.apply(s, pick_by_probability(JD.chance_outcomes(s), rng.random()) if actor is CHANCE
                     else rng.choice(JD.legal_moves(s)))


def test_a_serving_and_a_turn_option_are_judged_without_listing_every_serving(monkeypatch):
    """Under jd.ruling.serving-size=any a retail hand of eighteen cards has 262,144 subsets; asking
    about one move must not list them (the judge's replay asks about every move of a log)."""
    deck = embedded_deck("jd-one-suit")
    s = _choose_position(deck, dataclasses.replace(JD.Options(), serving_size="any", poaching=True))
    legal = {str(m) for m in JD.legal_moves(s)}
    serve = next(m for m in JD.legal_moves(s) if m.verb == "serve")
    fresh = dataclasses.replace(s)  # a state the remembered legal moves were not asked about

    def listed(*args):
        raise AssertionError("every serving listed")

    monkeypatch.setattr(jd, "_serve_moves", listed)
    monkeypatch.setattr(jd.adv, "poach_moves", listed)
    assert JD.illegal_reason(fresh, serve) is None
    assert JD.illegal_reason(fresh, Move("kitchen")) is None and "kitchen" in legal
    hand = fresh.hands[fresh.turn]
    assert JD.illegal_reason(fresh, Move("serve", serve.guest, (hand[0],) * (hand.count(hand[0]) + 1))) is not None


@pytest.mark.parametrize("options", [dict(), dict(serving_size="any", poaching=True, buffet=True),
                                     dict(poaching=True, surprise_parties=True)], ids=["default", "any", "advanced"])
def test_illegal_reason_answers_as_the_legal_moves_list_says(options):
    """The direct decision and the list agree on every legal move and on servings and options
    that are not legal (seeded random play on three teaching decks)."""
    rng = random.Random(5)
    asked = 0
    for name in ("jd-crowd", "jd-one-suit", "jd-famine"):
        deck = embedded_deck(name)
        s = JD.new_game(JD.setup(2, dataclasses.replace(JD.Options(), **options), deck))
        for _ in range(150):
            actor = JD.to_move(s)
            if actor is TERMINAL:
                break
            if actor is CHANCE:
                s = JD.apply(s, pick_by_probability(JD.chance_outcomes(s), rng.random()))
                continue
            legal = JD.legal_moves(s)
            hand = s.hands[s.turn]
            asked_here = list(legal)
            for _ in range(6):
                pool = hand + deck.dessert_cards()[:1]
                cards = tuple(sorted(rng.sample(pool, min(len(pool), rng.randint(1, 3)))))
                guest = rng.choice(deck.guest_cards())
                asked_here += [Move("serve", guest, cards), Move("poach", guest, cards), Move("dump", cards=cards[:1])]
            asked_here += [Move("kitchen"), Move("stop"), Move("dump"), Move("pass")]
            for m in asked_here:
                assert (JD.illegal_reason(s, m) is None) == (m in legal), (str(m), s.phase)
                asked += 1
            s = JD.apply(s, rng.choice(legal))
    assert asked > 500
