"""Just Desserts: the shared readers of the properties.

How a property reads a game through the core API (moves by their text, ``state_vars`` and the
legal moves, cached), the deck's printed cards (what satisfies a guest, what a tip is worth, the
suits), the moves the text allows in a position (a serving, a poach, a dump, a buffet, a block or
a surprise), a few steps of looking ahead until a seat decides, and what can still happen in a
game (jd.ruling.no-serving-possible, jd.buffet.aces).  Every family of properties reads through
these; none of it asks the model's own rule functions.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable

from tablerules.model.core import CHANCE, TERMINAL, RuleGap

from .. import Problem


@dataclass(frozen=True)
class Mv:
    """A move as its text names it: ``verb`` and the guest, desserts (sorted) or seat it names."""

    verb: str
    guest: str = ""
    cards: tuple[str, ...] = ()
    seat: int = -1

    @property
    def key(self) -> tuple:
        return (self.verb, self.guest, self.cards)


def _cards(token: str) -> tuple[str, ...]:
    return tuple(sorted(token.split("+")))


def mv(move: Any) -> Mv:
    """Read a move from its text (``serve G with A+B``, ``block with A``, ``dump A``, ...)."""
    w = str(move).split()
    verb = w[0]
    if verb in ("serve", "poach"):
        return Mv(verb, w[1], _cards(w[3]))
    if verb in ("block", "surprise"):
        return Mv(verb, cards=_cards(w[2]))
    if verb in ("dump", "buffet", "draw"):
        return Mv(verb, cards=_cards(w[1]) if len(w) > 1 else ())
    if verb == "first":
        return Mv("first", seat=int(w[2]))
    if verb == "turn":
        return Mv("turn-up", w[2])
    if verb in ("depart", "return"):
        return Mv(verb, w[1])
    return Mv(verb)


def key_text(k: tuple) -> str:
    verb, guest, cards = k
    c = "+".join(cards)
    if verb in ("serve", "poach"):
        return f"{verb} {guest} with {c}"
    if verb in ("block", "surprise"):
        return f"{verb} with {c}"
    return " ".join(x for x in (verb, guest, c) if x)


class _Memo:
    """A small cache of values computed from (rules, state, move ...): several properties look at
    the same state or transition one after the other.  Keyed by the objects' identities (hashing
    a state is dear), each entry keeps its objects so that a reused id cannot hit."""

    def __init__(self, size: int = 200_000) -> None:
        self.size = size
        self.d: dict = {}

    def get(self, rules: Any, key: tuple, fn: Callable[[], Any]) -> Any:
        kind, *objs = key
        k = (kind, id(rules), *map(id, objs))
        hit = self.d.get(k)
        if hit is not None and hit[0] is rules and all(a is b for a, b in zip(hit[1], objs)):
            return hit[2]
        value = fn()
        if len(self.d) >= self.size:
            self.d.clear()
        self.d[k] = (rules, objs, value)
        return value


_MEMO = _Memo()


def V(rules: Any, state: Any) -> dict:
    """``rules.state_vars(state)``, cached."""
    return _MEMO.get(rules, ("vars", state), lambda: rules.state_vars(state))


def actor(rules: Any, state: Any) -> Any:
    return _MEMO.get(rules, ("actor", state), lambda: rules.to_move(state))


def legal(rules: Any, state: Any) -> frozenset:
    """The legal moves as keys (verb, guest, cards)."""
    return _MEMO.get(rules, ("legal", state), lambda: frozenset(mv(m).key for m in rules.legal_moves(state)))


def apply(rules: Any, state: Any, move: Any) -> Any:
    """``rules.apply``, cached (a rule gap is cached and raised again)."""
    def go() -> Any:
        try:
            return rules.apply(state, move)
        except RuleGap as gap:
            return gap
    out = _MEMO.get(rules, ("apply", state, move), go)
    if isinstance(out, RuleGap):
        raise out
    return out


def is_seat(a: Any) -> bool:
    return isinstance(a, int) and not isinstance(a, bool)


def hand(v: dict, seat: int) -> tuple[str, ...]:
    return tuple(sorted(v["hands"][seat]))


def doorway(v: dict) -> str | None:
    """jd.discard.doorway: the top of the guest discard pile."""
    return v["guest_discard"][-1] if v["guest_discard"] else None


def servable(v: dict) -> set[str]:
    """Guests that may be served without poaching: the middle and the doorway (jd.discard.doorway)."""
    out = set(v["centre"])
    d = doorway(v)
    if d is not None:
        out.add(d)
    return out


def holder(v: dict, guest: str) -> int:
    for seat, gs in enumerate(v["claimed"]):
        if guest in gs:
            return seat
    return -1


def dessert_supply(v: dict) -> Counter:
    """Desserts that can still be drawn: the pile and its discards (jd.reshuffle.desserts)."""
    return Counter(v["dessert_pile"]) + Counter(v["dessert_discard"])


def guest_supply_size(v: dict) -> int:
    """Guests that can still be turned up: the pile, or the discards but the top one (jd.reshuffle.guests)."""
    return len(v["guest_pile"]) + max(0, len(v["guest_discard"]) - 1)


def msub(a: Iterable[str], b: Iterable[str]) -> Counter | None:
    """Multiset a - b, or None if b is not inside a."""
    ca, cb = Counter(a), Counter(b)
    if any(cb[k] > ca[k] for k in cb):
        return None
    return ca - cb


def same(a: Iterable[str], b: Iterable[str]) -> bool:
    return Counter(a) == Counter(b)


def hand_sizes(v: dict) -> list[int]:
    return [len(h) for h in v["hands"]]


def tastes_of(deck: Any, cards: Iterable[str]) -> frozenset[str]:
    out: set[str] = set()
    for c in cards:
        out |= set(deck.dessert(c).tastes)
    return frozenset(out)


def satisfies(deck: Any, cards: tuple[str, ...], guest: str) -> bool:
    """jd.serve.satisfies: together the desserts show every craving and no refused taste."""
    if not cards:
        return False
    g = deck.guest(guest)
    t = tastes_of(deck, cards)
    return set(g.wants) <= t and not (set(g.refuses) & t)


def no_spare(deck: Any, cards: tuple[str, ...], guest: str) -> bool:
    """jd.ruling.serving-size=minimal: no dessert can be left out with the rest still satisfying."""
    return all(not satisfies(deck, cards[:i] + cards[i + 1:], guest) for i in range(len(cards)))


def sub_multisets(cards: Iterable[str]) -> Iterable[tuple[str, ...]]:
    counts = Counter(cards)
    kinds = sorted(counts)
    for ns in itertools.product(*(range(counts[k] + 1) for k in kinds)):
        yield tuple(k for k, n in zip(kinds, ns) for _ in range(n))


@lru_cache(maxsize=1 << 16)
def servings(deck: Any, hand_: tuple[str, ...], guest: str, minimal: bool) -> frozenset[tuple[str, ...]]:
    """Every set of desserts from the hand that may be served to the guest (jd.turn.satisfy-guests,
    jd.serve.satisfies, jd.ruling.serving-size).

    With no dessert to spare, every dessert shows a wanted taste the others lack, so such a
    serving holds distinct desserts, at most one per craving: the search looks only there."""
    g = deck.guest(guest)
    if minimal:
        useful = sorted({c for c in hand_ if set(deck.dessert(c).tastes) & set(g.wants)})
        out = set()
        for k in range(1, len(g.wants) + 1):
            for combo in itertools.combinations(useful, k):
                if satisfies(deck, combo, guest) and no_spare(deck, combo, guest):
                    out.add(combo)
        return frozenset(out)
    return frozenset(s for s in sub_multisets(hand_) if satisfies(deck, s, guest))


def minimal_rule(setup: Any) -> bool:
    return setup.options.serving_size == "minimal"


def favourites(deck: Any, guest: str) -> set[str]:
    return set(deck.guest(guest).favorites)


def is_ace(deck: Any, card: str) -> bool:
    """jd.buffet.aces: a dessert with a single taste."""
    return len(deck.dessert(card).tastes) == 1


def tips(setup: Any, guest: str, cards: tuple[str, ...]) -> int:
    """jd.tip.favourite with jd.ruling.tip-count and jd.ruling.favourite-with-others: the extra
    desserts earned by serving these desserts to this guest."""
    favs = favourites(setup.components, guest)
    n = sum(1 for c in cards if c in favs)
    if n == 0:
        return 0
    if len(cards) > 1 and setup.options.favourite_with_others == "alone-only":
        return 0
    return 1 if setup.options.tip_count == "one-per-guest" else n


def suit_counts(deck: Any, guests: Iterable[str]) -> Counter:
    return Counter(deck.guest(g).suit for g in guests)


def duplicated_suits(deck: Any, centre: Iterable[str]) -> set[str]:
    return {s for s, k in suit_counts(deck, centre).items() if k > 1}


def winning_set(deck: Any, guests: Iterable[str]) -> str | None:
    """jd.win.three-of-a-suit / jd.win.five-suits: which win these guests make, if any."""
    counts = suit_counts(deck, guests)
    if any(k >= 3 for k in counts.values()):
        return "three"
    if len(counts) >= 5:
        return "five"
    return None


def serve_keys(setup: Any, v: dict, seat: int, guests: Iterable[str]) -> set[tuple]:
    """serve g with S for every guest given and every serving from the seat's hand."""
    deck, h, mini = setup.components, hand(v, seat), minimal_rule(setup)
    return {("serve", g, s) for g in guests for s in servings(deck, h, g, mini)}


def poach_keys(setup: Any, v: dict, seat: int, exclude: Iterable[str] = ()) -> set[tuple]:
    """jd.poach.attempt: poach g with S for every guest another player holds."""
    if not setup.options.poaching:
        return set()
    deck, h, mini = setup.components, hand(v, seat), minimal_rule(setup)
    ex = set(exclude)
    return {("poach", g, s) for q, gs in enumerate(v["claimed"]) if q != seat for g in set(gs) if g not in ex
            for s in servings(deck, h, g, mini)}


def dump_keys(setup: Any, v: dict, seat: int, empty: bool) -> set[tuple]:
    """jd.turn.dump-tray, one dessert at a time (and the empty dump under jd.ruling.dump-none=allowed)."""
    out = {("dump", "", (c,)) for c in set(hand(v, seat))}
    if empty and setup.options.dump_none == "allowed":
        out.add(("dump", "", ()))
    return out


def buffet_keys(setup: Any, v: dict, seat: int) -> set[tuple]:
    """jd.buffet.aces: four single-taste desserts from the hand."""
    if not setup.options.buffet:
        return set()
    deck = setup.components
    aces = [c for c in hand(v, seat) if is_ace(deck, c)]
    return {("buffet", "", tuple(sorted(c))) for c in itertools.combinations(aces, 4)}


def depart_keys(setup: Any, v: dict) -> set[tuple]:
    """jd.discard.one-per-suit with jd.ruling.discard-which: who may be sent away."""
    deck = setup.components
    dup = duplicated_suits(deck, v["centre"])
    if not dup:
        return set()
    if setup.options.discard_which == "any-guest":
        return {("depart", g, ()) for g in v["centre"]}
    return {("depart", g, ()) for g in v["centre"] if deck.guest(g).suit in dup}


def turn_start_keys(setup: Any, v: dict, seat: int) -> set[tuple]:
    """jd.turn.one-option: the moves open to a player right after the draw phase."""
    out = serve_keys(setup, v, seat, servable(v)) | poach_keys(setup, v, seat)
    out.add(("kitchen", "", ()))
    out |= dump_keys(setup, v, seat, empty=True) | buffet_keys(setup, v, seat)
    if setup.options.serve_none == "allowed":
        out.add(("stop", "", ()))
    return out


def offer_from_doorway(v: dict) -> bool:
    off = v["offer"]
    return off["victim"] < 0 and off["guest"] not in v["centre"] and off["guest"] == doorway(v)


def may_be_surprised(setup: Any, v: dict) -> bool:
    """jd.surprise.intercept: a serving without any favourite, from the middle or by poaching
    (the doorway too under jd.ruling.surprise-doorway=any-serving), of a guest with a favourite."""
    o, off = setup.options, v["offer"]
    if not o.surprise_parties:
        return False
    favs = favourites(setup.components, off["guest"])
    if not favs or favs & set(off["cards"]):
        return False
    return not (offer_from_doorway(v) and o.surprise_doorway == "middle-and-poach")


def block_keys(setup: Any, v: dict, seat: int) -> set[tuple]:
    """jd.block.defender, jd.block.favourite-only-by-other-favourite: the victim's blocks."""
    off = v["offer"]
    if not setup.options.poaching or seat != off["victim"]:
        return set()
    deck, g = setup.components, off["guest"]
    sets = servings(deck, hand(v, seat), g, minimal_rule(setup))
    favs = favourites(deck, g)
    if favs & set(off["cards"]):
        other = favs - set(off["cards"])
        sets = {s for s in sets if other & set(s)}
    return {("block", "", s) for s in sets}


def surprise_keys(setup: Any, v: dict, seat: int) -> set[tuple]:
    """jd.surprise.intercept, jd.surprise.needs-favourite (jd.ruling.surprise-serving,
    jd.ruling.victim-surprise): what this seat may offer instead."""
    off, o = v["offer"], setup.options
    if seat == off["server"] or not may_be_surprised(setup, v):
        return set()
    if seat == off["victim"] and o.victim_surprise == "block-only":
        return set()
    deck, g = setup.components, off["guest"]
    favs = favourites(deck, g)
    h = hand(v, seat)
    if o.surprise_serving == "serving-with-favourite":
        return {("surprise", "", s) for s in servings(deck, h, g, minimal_rule(setup)) if favs & set(s)}
    return {("surprise", "", (f,)) for f in favs & set(h)}


def answer_keys(setup: Any, v: dict, seat: int) -> set[tuple]:
    return block_keys(setup, v, seat) | surprise_keys(setup, v, seat) | {("pass", "", ())}


def compare(what: str, expected: set, got: Iterable) -> Problem:
    got = set(got)
    missing, extra = expected - got, got - expected
    if not missing and not extra:
        return None
    parts = []
    if missing:
        parts.append("missing " + ", ".join(sorted(key_text(k) for k in missing)[:4]))
    if extra:
        parts.append("not allowed " + ", ".join(sorted(key_text(k) for k in extra)[:4]))
    return f"{what}: " + "; ".join(parts)


def of_verbs(keys: Iterable[tuple], *verbs: str) -> set[tuple]:
    return {k for k in keys if k[0] in verbs}


def successors(rules: Any, state: Any, first_only: bool = False) -> list[tuple[Any, Any]]:
    """(move, next state) for every chance outcome or legal move; a strict ruling's gap is left out."""
    a = actor(rules, state)
    if a is TERMINAL:
        return []
    if a is CHANCE:
        moves = [m for m, _ in rules.chance_outcomes(state)]
        if first_only:
            moves = moves[:1]
    else:
        moves = list(rules.legal_moves(state))
    out = []
    for m in moves:
        try:
            out.append((m, apply(rules, state, m)))
        except RuleGap:
            continue
    return out


def until_decides(rules: Any, start: Any, seat: int, *, others: bool = False, first_only: bool = False,
                  cap: int = 400) -> list[Any]:
    """The states where ``seat`` (whose turn it is) next decides, reached from ``start`` through
    chance (and, with ``others``, every move of the other players); also the states where the
    game is over or the turn has passed.  Breadth first, at most ``cap`` states."""
    seen = {start}
    frontier = [start]
    ends = []
    while frontier:
        x = frontier.pop()
        a = actor(rules, x)
        if a is TERMINAL or V(rules, x)["turn"] != seat or (is_seat(a) and a == seat):
            ends.append(x)
            continue
        if is_seat(a) and not others:
            ends.append(x)
            continue
        for _, y in successors(rules, x, first_only):
            if y not in seen and len(seen) < cap:
                seen.add(y)
                frontier.append(y)
    return ends


def decides(rules: Any, state: Any, seat: int) -> bool:
    """True if ``seat`` is to move in its own turn."""
    a = actor(rules, state)
    return is_seat(a) and a == seat and V(rules, state)["turn"] == seat


@dataclass(frozen=True)
class Resolution:
    """How a serving attempt ended: ``answer`` is None when it succeeded, else (verb, seat, cards);
    ``order`` lists the seats that answered, first to last."""

    end: Any
    order: tuple[int, ...]
    answer: tuple | None
    open: bool = False
    """True if the serving still waits for answers there (the answers went on too long)."""
    gap: bool = False
    """True if the last answer ran into a strict ruling's gap (``end`` is the state before it)."""

    @property
    def asked(self) -> frozenset[int]:
        return frozenset(self.order)


def resolutions(rules: Any, t: Any, cap: int = 200) -> list[Resolution]:
    """Every way the answer window after a serving attempt can close (every race order, every
    answer), with the seats that answered on the way, in order."""
    out: list[Resolution] = []
    stack: list[tuple[Any, tuple[int, ...], tuple | None]] = [(t, (), None)]
    steps = 0
    while stack and steps < cap:
        steps += 1
        x, order, answer = stack.pop()
        vx = V(rules, x)
        a = actor(rules, x)
        if vx["offer"] is None or a is TERMINAL or answer is not None or len(order) > len(vx["hands"]):
            out.append(Resolution(x, order, answer, vx["offer"] is not None and a is not TERMINAL and answer is None))
            continue
        moves = list(rules.legal_moves(x)) if is_seat(a) else [m for m, _ in rules.chance_outcomes(x)]
        for m in moves:
            k = mv(m)
            more = order + (a,) if is_seat(a) else order
            ans = (k.verb, a, k.cards) if is_seat(a) and k.verb in ("block", "surprise") else None
            try:
                y = apply(rules, x, m)
            except RuleGap:
                out.append(Resolution(x, more, ans, gap=True))
                continue
            stack.append((y, more, ans))
    return out


def nothing_unclaimed(v: dict) -> bool:
    """No guest is left to serve: none in the guest pile, its discards or the middle."""
    return not (v["guest_pile"] or v["guest_discard"] or v["centre"])


def buffet_ever(setup: Any, v: dict) -> bool:
    """Could anybody still open a buffet (jd.buffet.aces)?  While desserts can be drawn a hand can
    come to hold any four aces of the deck; once every dessert is in a hand, only a hand with four."""
    deck = setup.components
    if not setup.options.buffet:
        return False
    if dessert_supply(v):
        return sum(1 for c in deck.dessert_cards() if is_ace(deck, c)) >= 4
    return any(sum(1 for c in h if is_ace(deck, c)) >= 4 for h in v["hands"])


def serving_ever(setup: Any, v: dict) -> bool:
    """jd.ruling.no-serving-possible, as its reason states the test: could anybody ever serve,
    poach or open a buffet again?  While desserts can be drawn, the whole deck is tried against
    every guest still to be served (and every claimed guest, with Poaching); once every dessert is
    in a hand, each hand against the guests it could serve."""
    o, deck = setup.options, setup.components
    if buffet_ever(setup, v):
        return True
    unclaimed = set(v["guest_pile"]) | set(v["guest_discard"]) | set(v["centre"])
    if dessert_supply(v):
        every = tuple(sorted(deck.dessert_cards()))
        targets = unclaimed | ({g for c in v["claimed"] for g in c} if o.poaching and setup.players > 1 else set())
        return any(servings(deck, every, g, True) for g in targets)
    for q, h in enumerate(v["hands"]):
        targets = set(unclaimed)
        if o.poaching:
            targets |= {g for r, c in enumerate(v["claimed"]) if r != q for g in c}
        if any(servings(deck, tuple(sorted(h)), g, True) for g in targets):
            return True
    return False


def _note(out: dict, key: str, problem: Problem) -> None:
    if problem and key not in out:
        out[key] = problem
