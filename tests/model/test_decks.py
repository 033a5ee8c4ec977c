"""The shared Just Desserts deck loader (model/decks.py): the retail list loads as it is; bad decks fail in one line."""

from __future__ import annotations

import copy
import json

import pytest

from tablerules.model.decks import (
    DeckError,
    deck_argument,
    embedded_deck,
    embedded_deck_names,
    load_deck,
    servings,
)


def _small() -> dict:
    return {
        "about": "test deck",
        "tastes": ["Cake", "Fruit"],
        "suits": ["spoon", "whisk"],
        "desserts": [
            {"id": "SPONGE", "name": "Sponge", "tastes": ["Cake"], "copies": 2},
            {"id": "PLUM", "name": "Plum", "tastes": ["Fruit"]},
        ],
        "guests": [
            {
                "id": "BAKER", "name": "Baker", "suit": "spoon", "wants": ["Cake"], "refuses": [],
                "favorites": ["Sponge"],
            },
            {
                "id": "PICKER", "name": "Picker", "suit": "whisk", "wants": ["Fruit"], "refuses": ["Cake"],
                "favorites": ["PLUM"],
            },
        ],
    }


def _write(tmp_path, data, name="deck.json") -> str:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(p)


def test_retail_deck_loads_as_it_is(retail_deck):
    """jd.setup.components: 76 desserts, 24 guests, six suits of four (FACTS.md)."""
    assert len(retail_deck.dessert_cards()) == 76
    assert len(retail_deck.guests) == 24
    assert len(retail_deck.suits) == 6
    per_suit = {s: sum(1 for g in retail_deck.guests if g.suit == s) for s in retail_deck.suits}
    assert set(per_suit.values()) == {4}
    icons = sorted(len(d.tastes) for d in retail_deck.desserts)
    assert [icons.count(k) for k in (1, 2, 3, 4)] == [17, 43, 14, 2]
    assert sum(1 for g in retail_deck.guests if len(g.favorites) == 2) == 4
    assert [g.name for g in retail_deck.guests if not g.favorites] == ["Nature girl"]


def test_favourites_are_resolved_by_name_to_ids(retail_deck):
    girl = retail_deck.guest("THE_LITTLE_GIRL")
    assert girl.favorites == ("ICE_CREAM_CAKE",) or all(retail_deck.has_dessert(f) for f in girl.favorites)
    assert all(retail_deck.has_dessert(f) for g in retail_deck.guests for f in g.favorites)


def test_small_deck_loads_and_copies_count(tmp_path):
    deck = load_deck(_write(tmp_path, _small()))
    assert deck.dessert_cards() == ("PLUM", "SPONGE", "SPONGE")
    assert deck.guest("BAKER").favorites == ("SPONGE",)
    assert servings(deck, ("SPONGE", "PLUM"), "PICKER") == (("PLUM",),)


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda d: d["desserts"][1]["tastes"].append("Bacon"), ["$.desserts[1] (PLUM)", "unknown taste 'Bacon'"]),
        (lambda d: d["guests"][0]["wants"].append("Bacon"), ["$.guests[0] (BAKER)", "unknown taste 'Bacon'"]),
        (
            lambda d: d["guests"][1].__setitem__("favorites", ["Trifle"]),
            ["$.guests[1] (PICKER)", "favourite 'Trifle' is not a dessert"],
        ),
        (
            lambda d: d["guests"].append({"id": "MILLER", "suit": "spoon", "wants": ["Cake"]}),
            ["$.guests", "same number of guests", "spoon: 2", "whisk: 1"],
        ),
        (
            lambda d: d["desserts"].append({"id": "SPONGE", "tastes": ["Cake"]}),
            ["$.desserts[2] (SPONGE)", "duplicate id 'SPONGE'"],
        ),
        (lambda d: d["guests"][1].__setitem__("id", "PLUM"), ["$.guests[1] (PLUM)", "duplicate id 'PLUM'"]),
        (lambda d: d["guests"][0].__setitem__("suit", "ladle"), ["$.guests[0] (BAKER)", "unknown suit 'ladle'"]),
        (lambda d: d.pop("guests"), ["$.guests", "missing"]),
    ],
    ids=[
        "unknown-taste-dessert", "unknown-taste-guest", "favourite-not-in-deck", "wrong-suit-count",
        "duplicate-dessert-id", "duplicate-guest-id", "unknown-suit", "missing-key",
    ],
)
def test_bad_deck_gives_one_line_naming_card_and_problem(tmp_path, mutate, words):
    data = copy.deepcopy(_small())
    mutate(data)
    path = _write(tmp_path, data)
    with pytest.raises(DeckError) as err:
        load_deck(path)
    msg = str(err.value)
    assert "\n" not in msg
    assert msg.startswith(path)
    for w in words:
        assert w in msg, msg


@pytest.mark.parametrize("text, words", [
    ('{"tastes": [', ["line 1", "not valid JSON"]),
    ("[1, 2]", ["a deck must be a JSON object"]),
])
def test_malformed_file_is_one_line(tmp_path, text, words):
    path = _write(tmp_path, text)
    with pytest.raises(DeckError) as err:
        load_deck(path)
    assert "\n" not in str(err.value)
    for w in words:
        assert w in str(err.value)


def test_missing_file_is_one_line(tmp_path):
    with pytest.raises(DeckError) as err:
        load_deck(tmp_path / "nope.json")
    assert "cannot read deck" in str(err.value) and "\n" not in str(err.value)


def test_embedded_teaching_decks_load_and_deck_argument_takes_names_and_paths(tmp_path):
    names = embedded_deck_names()
    for name in ("jd-two-suits", "jd-one-suit", "jd-rivals", "jd-crowd"):
        assert name in names
        deck = embedded_deck(name)
        assert deck.about, f"{name} must say what it is for"
        assert deck_argument(name).digest() == deck.digest()
    path = _write(tmp_path, _small())
    assert deck_argument(path).name == "deck"
    with pytest.raises(DeckError):
        embedded_deck("no-such-deck")
