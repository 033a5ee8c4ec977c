"""The fast servings (model/just_desserts/tastes.py) agree with the reference enumeration of
model/decks.py on every guest and many random hands (jd.serve.satisfies, jd.ruling.serving-size,
jd23.ruling.spare-desserts)."""

from __future__ import annotations

import random

import pytest

from tablerules.model.decks import embedded_deck, embedded_deck_names, load_deck, servings
from tablerules.model.just_desserts.tastes import minimal_servings


def _agree(deck, seed: int, hands: int) -> None:
    rng = random.Random(seed)
    cards = list(deck.dessert_cards())
    for _ in range(hands):
        hand = tuple(sorted(rng.sample(cards, rng.randint(0, min(len(cards), 14)))))
        for g in deck.guest_cards():
            for most in (len(deck.guest(g).wants), 3):
                assert minimal_servings(deck, hand, g, most) == servings(deck, hand, g, max_cards=most, minimal=True), (
                    hand,
                    g,
                )


@pytest.mark.parametrize("name", embedded_deck_names())
def test_fast_servings_agree_with_the_reference_on_teaching_decks(name):
    _agree(embedded_deck(name), 1, 40)


def test_fast_servings_agree_with_the_reference_on_the_retail_deck(retail_deck_path):
    _agree(load_deck(retail_deck_path, name="retail-2015"), 2, 60)
