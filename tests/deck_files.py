"""A two-dessert, two-guest Just Desserts deck as JSON, for tests that write a deck file with one thing changed."""

from __future__ import annotations


def tiny_deck(**changes) -> dict:
    """The deck as a JSON document, with ``changes`` replacing its top-level keys."""
    deck = {"tastes": ["sweet", "sour"], "suits": ["red"],
            "desserts": [{"id": "CAKE", "name": "Cake", "tastes": ["sweet"]},
                         {"id": "LIME", "name": "Lime", "tastes": ["sour"]}],
            "guests": [{"id": "ANN", "name": "Ann", "suit": "red", "wants": ["sweet"]},
                       {"id": "BOB", "name": "Bob", "suit": "red", "wants": ["sour"]}]}
    deck.update(changes)
    return deck
