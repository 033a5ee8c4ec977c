"""Moves of Just Desserts (current rulebook): values with a canonical text and a parser.

Every move is a :class:`Move`; its ``verb`` picks the text form.  Seat moves: serve, poach,
stop, kitchen, dump, buffet (jd.turn.one-option, jd.poach.attempt, jd.buffet.aces), block,
surprise, pass (jd.block.defender, jd.surprise.intercept), return (jd.buffet.others-return),
depart (jd.discard.one-per-suit).  Chance moves: draw, turn up, first seat (the race of
jd.surprise.first-offered).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import MoveSyntaxError, Setup, read_number
from ..decks import Deck

# this module decides nothing about play, and why (the decision-point finder reads this)
PLUMBING = "the text form of moves and its parser"


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """One move; ``verb`` picks the form of its text (see :func:`parse_move`)."""

    verb: str
    guest: str = ""
    cards: tuple[str, ...] = ()
    seat: int = -1

    def __str__(self) -> str:
        cards = "+".join(self.cards)
        if self.verb in ("serve", "poach"):
            return f"{self.verb} {self.guest} with {cards}"
        if self.verb in ("block", "surprise"):
            return f"{self.verb} with {cards}"
        if self.verb in ("dump", "buffet"):
            return f"{self.verb} {cards}".rstrip() if cards else self.verb
        if self.verb == "draw":
            return f"draw {cards}"
        if self.verb == "first":
            return f"first seat {self.seat}"
        if self.verb in ("turn-up", "depart", "return"):
            return f"{self.verb.replace('-', ' ')} {self.guest}"
        return self.verb


def parse_move(text: str, setup: Setup) -> Move:
    """The move a text names; MoveSyntaxError (one line) if it is not one."""
    words = text.split()
    if not words:
        raise MoveSyntaxError("empty move")
    verb, rest = words[0], words[1:]
    deck: Deck = setup.components

    def cards(token: str) -> tuple[str, ...]:
        out = tuple(sorted(token.split("+")))
        for c in out:
            if not deck.has_dessert(c):
                raise MoveSyntaxError(f"{text!r}: unknown dessert {c!r}")
        return out

    def guest(token: str) -> str:
        if not deck.has_guest(token):
            raise MoveSyntaxError(f"{text!r}: unknown guest {token!r}")
        return token

    if verb in ("serve", "poach") and len(rest) == 3 and rest[1] == "with":
        return Move(verb, guest(rest[0]), cards(rest[2]))
    if verb in ("block", "surprise") and len(rest) == 2 and rest[0] == "with":
        return Move(verb, cards=cards(rest[1]))
    if verb == "dump" and len(rest) == 1 and "+" in rest[0]:  # plumbing: jd.turn.dump-tray's move form
        raise MoveSyntaxError(f"{text!r}: a dump names one dessert: the tray option throws away as many desserts as "
                              "the player likes, one move each (dump A, then dump B, ...), then stop draws as many "
                              "(jd.turn.dump-tray)")
    if verb in ("dump", "buffet") and len(rest) <= 1:
        return Move(verb, cards=cards(rest[0]) if rest else ())
    if verb == "draw" and len(rest) == 1:
        return Move("draw", cards=cards(rest[0]))
    if verb == "first" and len(rest) == 2 and rest[0] == "seat" and read_number(rest[1]) is not None:
        return Move("first", seat=read_number(rest[1]))
    if verb == "turn" and len(rest) == 2 and rest[0] == "up":
        return Move("turn-up", guest(rest[1]))
    if verb in ("depart", "return") and len(rest) == 1:
        return Move(verb, guest(rest[0]))
    if verb in ("stop", "kitchen", "pass") and not rest:
        return Move(verb)
    raise MoveSyntaxError(
        f"{text!r}: not a move (try: serve G with A+B, poach G with A, stop, kitchen, dump A (one dessert a move), "
        "buffet A+B+C+D, block with A, surprise with F, pass, return G, depart G)"
    )


STOP, KITCHEN, PASS = Move("stop"), Move("kitchen"), Move("pass")


