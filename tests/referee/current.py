"""The referee for Just Desserts, current rulebook: its own legal moves, chance outcomes and checks.

It reads the model's states only through their JSON view (``state_vars``) and judges with its own
card data (cards.py), its own satisfaction and tip arithmetic and its own memory of the turn
(servings made, poach used or blocked, guests surprised away), never with the model's functions.
Clause ids refer to spec/just_desserts.toml.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from .cards import Cards


@dataclass
class Turn:
    """What the referee remembers of the turn in progress."""

    seat: int = 0
    served: int = 0
    poach: str = ""
    shield: set = field(default_factory=set)


def _j(cards) -> str:
    return "+".join(sorted(cards))


class CurrentReferee:
    def __init__(self, cards: Cards, players: int, variants: dict[str, bool]):
        self.cards, self.n = cards, players
        self.poaching = variants.get("poaching", False)
        self.buffet = variants.get("buffet", False)
        self.surprise = variants.get("surprise_parties", False)
        self.turn = Turn()

    # ------------------------------------------------------------------ who moves, and what they may do

    def actor(self, v: dict):
        if v["phase"] == "over":
            return "TERMINAL"
        if v["tasks"]:
            return "CHANCE"
        if v["phase"] == "window":
            return "CHANCE" if v["speaker"] < 0 else v["speaker"]
        if v["phase"] == "return":
            return v["returning"][0]
        return v["turn"]

    def _unclaimed(self, v) -> list[str]:
        out = set(v["centre"])
        if v["guest_discard"]:
            out.add(v["guest_discard"][-1])
        return sorted(out)

    def _serves(self, v, seat, verb="serve", guests=None) -> set[str]:
        hand = v["hands"][seat]
        return {f"{verb} {g} with {_j(s)}" for g in (guests if guests is not None else self._unclaimed(v))
                for s in self.cards.servings(hand, g)}

    def legal(self, v: dict) -> set[str]:
        seat, phase = self.actor(v), v["phase"]
        hand = v["hands"][seat]
        if phase == "window":
            return self._answers(v, seat)
        if phase == "return":
            return {f"return {g}" for g in v["claimed"][seat]}
        if phase == "discard":  # jd.ruling.discard-which=any-guest: any guest while a suit shows twice
            suits = Counter(self.cards.suit[g] for g in v["centre"])
            return {f"depart {g}" for g in v["centre"]} if any(k > 1 for k in suits.values()) else set()
        if phase == "dump":
            return {f"dump {c}" for c in hand} | {"stop"}
        if phase == "buffet":
            return self._serves(v, seat) | {"stop"}
        moves: set[str] = set()
        t = self.turn
        if t.served < 2:
            moves |= self._serves(v, seat)
            if self.poaching and not t.poach:
                theirs = {g for o in range(self.n) if o != seat for g in v["claimed"][o]} - t.shield
                moves |= self._serves(v, seat, "poach", sorted(theirs))
        if t.served or t.poach == "blocked":
            moves.add("stop")
        else:
            moves |= {"kitchen"} | {f"dump {c}" for c in hand}
            if self.buffet:
                aces = [c for c in hand if self.cards.is_ace(c)]
                moves |= {f"buffet {_j(c)}" for c in itertools.combinations(sorted(aces), 4)}
        return moves

    def _answers(self, v, seat) -> set[str]:
        o = v["offer"]
        favs = self.cards.favourites[o["guest"]]
        used = favs & set(o["cards"])
        moves = {"pass"}
        if seat == o["victim"] and self.poaching:
            for s in self.cards.servings(v["hands"][seat], o["guest"]):
                if not used or (favs - used) & set(s):
                    moves.add(f"block with {_j(s)}")
        if self.surprise and seat != o["server"] and not used and self._surprisable(v, o):
            moves |= {f"surprise with {f}" for f in favs & set(v["hands"][seat])}
        return moves

    def eligible(self, v) -> list[int]:
        """Who is asked to answer the offer just made: known from what everyone sees."""
        o = v["offer"]
        favs = self.cards.favourites[o["guest"]]
        used = favs & set(o["cards"])
        out = set()
        if self.poaching and o["victim"] >= 0 and v["hands"][o["victim"]] and (not used or favs - used):
            out.add(o["victim"])
        if self.surprise and favs and not used and self._surprisable(v, o):
            out |= {s for s in range(self.n) if s != o["server"] and v["hands"][s]}
        return sorted(out)

    @staticmethod
    def _surprisable(v, o) -> bool:
        """A serving from the middle or a poach; not the doorway guest (jd.ruling.surprise-doorway=middle-and-poach)."""
        return o["victim"] >= 0 or o["guest"] in v["centre"]

    def chance(self, v) -> dict[str, Fraction]:
        if v["tasks"]:
            kind, _ = v["tasks"][0]
            if kind == "d":
                src = v["dessert_pile"] or v["dessert_discard"]
                return {f"draw {c}": Fraction(k, len(src)) for c, k in Counter(src).items()}
            src = v["guest_pile"] or v["guest_discard"][:-1]
            return {f"turn up {g}": Fraction(k, len(src)) for g, k in Counter(src).items()}
        return {f"first seat {s}": Fraction(1, len(v["answerers"])) for s in v["answerers"]}

    # ------------------------------------------------------------------ what a step must leave behind

    def conservation(self, v) -> list[str]:
        desserts = Counter(v["dessert_pile"]) + Counter(v["dessert_discard"])
        for h in v["hands"]:
            desserts += Counter(h)
        if v["offer"]:
            desserts += Counter(v["offer"]["cards"])
        guests = Counter(v["guest_pile"]) + Counter(v["guest_discard"]) + Counter(v["centre"])
        for c in v["claimed"]:
            guests += Counter(c)
        out = []
        if desserts != self.cards.all_desserts():
            out.append(f"desserts not conserved: {dict(desserts - self.cards.all_desserts())} extra, "
                       f"{dict(self.cards.all_desserts() - desserts)} missing [jd.setup.components]")
        if guests != self.cards.all_guests():
            out.append("guests not conserved [jd.setup.components]")
        return out

    def step(self, b: dict, move: str, a: dict) -> list[str]:
        """Judge one step; update the referee's memory of the turn."""
        bad = self.conservation(a)
        verb = move.split()[0]
        t = self.turn
        gained = [(s, g) for s in range(self.n) for g in set(a["claimed"][s]) - set(b["claimed"][s])]
        thrown = list((Counter(a["dessert_discard"]) - Counter(b["dessert_discard"])).elements())
        new_tasks = [tuple(x) for x in a["tasks"]][len(b["tasks"]):] if a["phase"] != "over" else []
        if a["turn"] != b["turn"] and new_tasks[-2:] == [("d", a["turn"]), ("g", -1)]:
            new_tasks = new_tasks[:-2]  # the next turn's draw phase (jd.turn.draw-phase)
        if b["offer"] is not None:
            o = b["offer"]
        elif verb in ("serve", "poach"):
            words = move.split()
            victim = next((s for s in range(self.n) if words[1] in b["claimed"][s]), -1) if verb == "poach" else -1
            o = {"server": b["turn"], "guest": words[1], "cards": words[3].split("+"), "victim": victim}
        else:
            o = None
        if a["phase"] == "window" and b["phase"] != "window" and a["offer"]:
            want = self.eligible(a)
            if sorted(a["answerers"]) != want:
                bad.append(f"answer window asks seats {a['answerers']}, expected {want} (by what all can see) "
                           "[jd.surprise.intercept, jd.block.defender]")
        for seat, g in gained:
            if o is None or g != o["guest"]:
                bad.append(f"seat {seat} gained {g} without a serving [jd.turn.satisfy-guests]")
                continue
            favs = self.cards.favourites[g]
            if verb == "surprise":
                if len(thrown) != 1 or thrown[0] not in favs:
                    bad.append(f"surprise of {g} without a single favourite [jd.surprise.needs-favourite]")
                want = [("d", o["victim"])] if o["victim"] >= 0 and o["victim"] != seat else []
                if a["phase"] != "over" and new_tasks != want:
                    bad.append(
                        f"draws after a surprise {new_tasks}, expected {want} [jd.surprise.no-tip, jd.poach.victim-tip]"
                    )
                continue
            if not self.cards.pleases(o["cards"], g) or sorted(thrown) != sorted(o["cards"]):
                bad.append(f"{g} served with {o['cards']} which does not satisfy it [jd.serve.satisfies]")
            tip = 1 if favs & set(o["cards"]) else 0
            want = ([("d", o["victim"])] if o["victim"] >= 0 else []) + [("d", seat)] * tip
            if a["phase"] != "over" and new_tasks != want:
                bad.append(
                    f"draws after serving {g}: {new_tasks}, expected {want} [jd.tip.favourite, jd.poach.victim-tip]"
                )
            if seat == b["turn"]:
                t.served += 1
                if o["victim"] >= 0:
                    t.poach = "done"
        if verb == "surprise" and o is not None and b["turn"] == o["server"]:
            t.shield.add(o["guest"])  # jd.surprise.no-poach-back (also when the holder itself surprises)
        if verb == "block":
            t.poach = "blocked"
            favs = self.cards.favourites[o["guest"]]
            if not self.cards.pleases(thrown, o["guest"]):
                bad.append(f"block with {thrown} does not satisfy {o['guest']} [jd.block.defender]")
            tip = 1 if favs & set(thrown) else 0
            if a["phase"] != "over" and new_tasks != [("d", o["victim"])] * tip:
                bad.append(f"draws after a block {new_tasks} [jd.tip.block-favourite, jd.poach.blocked-no-tip]")
        winners = [s for s in range(self.n) if self.cards.wins(a["claimed"][s])]
        if winners and a["phase"] != "over":
            bad.append(f"seats {winners} hold a winning set but play goes on [jd.win.any-time]")
        if a["phase"] == "over" and a["winner"] >= 0 and not self.cards.wins(a["claimed"][a["winner"]]):
            bad.append(f"seat {a['winner']} declared winner without a winning set [jd.win.three-of-a-suit]")
        if a["phase"] == "over" and a["winner"] < 0 and b["phase"] != "over":
            bad += self._end_without_win(a)
        if a["turn"] != b["turn"] or (a["phase"] == "choose" and b["phase"] == "discard"):
            suits = Counter(self.cards.suit[g] for g in a["centre"])
            if not b["opening"] and any(k > 1 for k in suits.values()):
                bad.append("turn ended with a suit twice in the middle [jd.discard.one-per-suit]")
            self.turn = Turn(seat=a["turn"])
        return bad

    def _end_without_win(self, a) -> list[str]:
        unclaimed = a["guest_pile"] + a["guest_discard"] + a["centre"]
        if a["end_clause"] == "jd.ruling.all-guests-claimed":
            return [f"all-guests-claimed end with {len(unclaimed)} guests unclaimed"] if unclaimed else []
        if a["end_clause"] == "jd.ruling.no-serving-possible":
            for seat in range(self.n):
                for g in unclaimed:
                    if self.cards.servings(a["hands"][seat], g):
                        return [f"game ended as stuck but seat {seat} can serve {g} [jd.ruling.no-serving-possible]"]
            if self.buffet and any(sum(map(self.cards.is_ace, h)) >= 4 for h in a["hands"]):
                return ["game ended as stuck but a buffet is possible [jd.ruling.no-serving-possible]"]
            return []
        if a["end_clause"] == "jd.ruling.guest-supply-empty":
            return []
        return [f"game ended without a winner by {a['end_clause']!r}"]
