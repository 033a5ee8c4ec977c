"""The referee for Just Desserts rules version 2.3: its own legal moves, chance outcomes and checks.

Like current.py it reads states only through their JSON view and judges with its own card data
and arithmetic.  Clause ids refer to spec/just_desserts_v23.toml; default rulings.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from .cards import Cards


def _j(cards) -> str:
    return "+".join(sorted(cards))


class V23Referee:
    def __init__(self, cards: Cards, players: int):
        self.cards, self.n = cards, players

    def _servings(self, hand, guest):
        return self.cards.servings(hand, guest, most=3)

    def _favourite_servings(self, hand, guest):
        return {s for s in self._servings(hand, guest) if self.cards.favourites[guest] & set(s)}

    def _live(self, v):
        return [s for s, a in enumerate(v["answers"]) if a == "call" and s not in v["mistaken"]]

    def actor(self, v):
        phase = v["phase"]
        if phase == "over":
            return "TERMINAL"
        if phase in ("deal", "turn-up", "race", "penalty", "draw"):
            return "CHANCE"
        if phase == "answer":
            return v["answers"].index("")
        if phase == "trump":
            return min((s for s, a in enumerate(v["trumps"]) if a == ""), key=lambda s: (s - v["first"]) % self.n)
        return v["first"]

    def legal(self, v) -> set[str]:
        seat, phase = self.actor(v), v["phase"]
        hand = v["hands"][seat]
        if phase == "answer":
            return {"call", "pass"}
        if phase in ("trump", "counter"):
            return {"favourite"} if self._favourite_servings(hand, v["guest"]) else {"pass"}
        offered = self._servings(hand, v["guest"])
        fav = self._favourite_servings(hand, v["guest"])
        if len(self._live(v)) > 1 and fav:
            offered = fav
        return {f"serve {_j(s)}" for s in offered} or {"fail"}

    def chance(self, v) -> dict[str, Fraction]:
        phase = v["phase"]
        if phase == "turn-up":
            return {f"turn up {g}": Fraction(k, len(v["guest_pile"])) for g, k in Counter(v["guest_pile"]).items()}
        if phase in ("deal", "draw"):
            seat, pile = v["draws"][0], v["dessert_pile"]
            return {f"seat {seat} draws {c}": Fraction(k, len(pile)) for c, k in Counter(pile).items()}
        if phase == "penalty":
            seat = v["penalties"][0]
            hand = v["hands"][seat]
            return {f"seat {(seat + 1) % self.n} takes {c} from seat {seat}": Fraction(k, len(hand))
                    for c, k in Counter(hand).items()}
        live = self._live(v)
        if v["trumped"]:
            who = [s for s in live if v["trumps"][s] == "favourite"]
            return {f"first {s}": Fraction(1, len(who)) for s in who}
        out = {f"first {s}": Fraction(9, 10) / len(live) for s in live}
        out["simultaneous"] = Fraction(1, 10)
        return out

    def conservation(self, v) -> list[str]:
        desserts = Counter(v["dessert_pile"]) + Counter(v["set_aside"]) + Counter(v["floor"])
        for part in v["hands"] + v["dishes"]:
            desserts += Counter(part)
        guests = Counter(v["guest_pile"]) + Counter(v["discards"]) + Counter([v["guest"]] if v["guest"] else [])
        for c in v["collected"]:
            guests += Counter(c)
        out = []
        if desserts != self.cards.all_desserts():
            out.append("desserts not conserved [jd23.setup.deal-five]")
        if guests != self.cards.all_guests():
            out.append("guests not conserved [jd23.round.turn-up-guest]")
        return out

    def step(self, b: dict, move: str, a: dict) -> list[str]:
        bad = self.conservation(a)
        if move.startswith("serve "):
            seat, cards = b["first"], move.split()[1].split("+")
            if not 1 <= len(cards) <= 3 or not self.cards.pleases(cards, b["guest"]):
                bad.append(f"{b['guest']} served with {cards} [jd23.satisfy.tastes, jd23.serve.one-to-three]")
            if set(a["collected"][seat]) - set(b["collected"][seat]) != {b["guest"]}:
                bad.append("the server did not collect the guest [jd23.serve.reveal-dirty-dishes]")
            favourite = bool(self.cards.favourites[b["guest"]] & set(cards))
            due = 1 if favourite and not b["kitchen_closed"] and b["dessert_pile"] else 0
            if a["phase"] != "over" and (a["draws"] if a["phase"] == "draw" else []) != [seat] * due:
                bad.append(f"draws after serving: {a['draws']} (favourite: {favourite}) [jd23.favourite.extra-card]")
        if b["kitchen_closed"] and a["phase"] == "draw":
            bad.append("a draw after the kitchen closed [jd23.kitchen.closes]")
        if a["phase"] in ("turn-up", "answer") and not a["kitchen_closed"] and len(a["dessert_pile"]) < self.n:
            bad.append(
                f"kitchen open with {len(a['dessert_pile'])} desserts for {self.n} players [jd23.kitchen.closes]"
            )
        if a["phase"] == "over" and (a["guest_pile"] or not a["reshuffled"]):
            bad.append("game over before the guest pile ran out twice [jd23.end.second-exhaustion]")
        return bad
