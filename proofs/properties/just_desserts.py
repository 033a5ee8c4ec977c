"""Just Desserts (current rulebook, spec/just_desserts.toml) as executable properties.

Every property reads a game only through the core API (``state_vars``, ``to_move``,
``legal_moves``, ``chance_outcomes``, ``apply``, ``outcome``, ``str(move)``) and the printed
cards of the deck (``state.setup.components``); what satisfies a guest, what a tip is worth,
which guests may leave the middle and so on are worked out here from the rulebook's words,
never asked of the model's own rule functions.  Where the rulebook is silent a ruling
decides, and a property reads the chosen alternative from ``state.setup.options`` with the
meaning the spec gives it.

Three kinds of check:

* *state* properties: the legal moves of a position against what the text allows there
  (both ways: every legal move is allowed, every allowed move is legal), the chance
  outcomes, card conservation, the win conditions;
* *transition* properties: what a move does, often followed a few steps ahead through
  chance and the other players' answers (the draw phase after a turn ends, the tips after a
  serving, the answers to a poach, the returns of a buffet) until the mover decides again;
* *examples*: fixed positions, the rulebook's own worked example first.

A few facts about the turn so far are read from the state's record (``served``,
``committed``, ``poach``, ``shielded``, ``phase``); separate transition properties check
that the record moves as the text says (reset when a turn starts, a serving counted only
when a guest is claimed, and so on), so a wrong record is caught on its own.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Iterable

from tablerules.model.core import CHANCE, TERMINAL, RuleGap, SetupError
from tablerules.model.decks import deck_from_json

from . import Example, Problem, Property

# =========================================================================== reading the API


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


# =========================================================================== the printed cards


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


# =========================================================================== what the text allows


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


# =========================================================================== looking ahead


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


# =========================================================================== set up and components


_TWELVE = {"Chocolate", "Cookie", "Nuts", "Pie", "Spices", "Ice Cream", "Fruit", "Cake", "Marshmallow", "Pastry",
           "Veggies", "Pudding"}


@lru_cache(maxsize=256)
def _deck_faces(deck: Any) -> Problem:
    """jd.setup.components: a dessert shows one to four tastes; a guest has a suit, cravings,
    refusals and at most two favourites, which are desserts of the deck."""
    for d in deck.desserts:
        if not 1 <= len(d.tastes) <= 4:
            return f"dessert {d.id} shows {len(d.tastes)} tastes"
    for g in deck.guests:
        if not g.wants:
            return f"guest {g.id} craves nothing"
        if len(g.favorites) > 2:
            return f"guest {g.id} has {len(g.favorites)} favourites"
        for f in g.favorites:
            if not deck.has_dessert(f):
                return f"guest {g.id}: favourite {f} is not a dessert"
    return None


def p_card_faces(rules: Any, state: Any) -> Problem:
    """jd.setup.components: the printed cards have the faces the rulebook describes."""
    return _deck_faces(state.setup.components)


def p_conservation(rules: Any, state: Any) -> Problem:
    """jd.setup.components: every card is in exactly one place (piles, discards, hands, the
    desserts on offer, the middle, claimed guests)."""
    deck, v = state.setup.components, V(rules, state)
    desserts = Counter(v["dessert_pile"]) + Counter(v["dessert_discard"])
    for h in v["hands"]:
        desserts += Counter(h)
    if v["offer"] is not None:
        desserts += Counter(v["offer"]["cards"])
    if desserts != Counter(deck.dessert_cards()):
        diff = (desserts - Counter(deck.dessert_cards())) + (Counter(deck.dessert_cards()) - desserts)
        return f"desserts are not each in one place: {dict(diff)}"
    guests = list(v["guest_pile"]) + list(v["guest_discard"]) + list(v["centre"]) + [g for c in v["claimed"] for g in c]
    if sorted(guests) != sorted(deck.guest_cards()):
        return f"guests are not each in one place: {sorted(Counter(guests) - Counter(deck.guest_cards()))} twice, " \
               f"{sorted(set(deck.guest_cards()) - set(guests))} nowhere"
    return None


def p_suits(rules: Any, state: Any) -> Problem:
    """jd.suits.six: every guest has one of the deck's suits; every suit has the same number of guests."""
    deck = state.setup.components
    counts = suit_counts(deck, deck.guest_cards())
    if set(counts) != set(deck.suits) or len(set(counts.values())) != 1:
        return f"suits of unequal size: {dict(counts)}"
    return None


def p_tastes(rules: Any, state: Any) -> Problem:
    """jd.tastes.icons: the deck's tastes are among the twelve icons and every card uses only them."""
    deck = state.setup.components
    listed = set(deck.tastes)
    if not listed <= _TWELVE:
        return f"tastes not among the twelve icons: {sorted(listed - _TWELVE)}"
    for d in deck.desserts:
        if not set(d.tastes) <= listed:
            return f"dessert {d.id} shows a taste the deck does not list"
    for g in deck.guests:
        if not (set(g.wants) | set(g.refuses)) <= listed:
            return f"guest {g.id} names a taste the deck does not list"
    return None


def is_start(rules: Any, state: Any) -> bool:
    v = V(rules, state)
    if any(v["hands"]) or v["centre"] or any(v["claimed"]) or v["guest_discard"] or v["dessert_discard"]:
        return False
    return state == rules.new_game(state.setup)


def p_piles(rules: Any, state: Any) -> Problem:
    """jd.setup.piles: before the deal both decks are whole draw piles with empty discard piles
    beside them; a discard pile only ever holds cards of its own deck."""
    deck, v = state.setup.components, V(rules, state)
    if any(not deck.has_dessert(c) for c in v["dessert_discard"]) \
            or any(not deck.has_guest(g) for g in v["guest_discard"]):
        return "a discard pile holds a card of the other deck"
    if not is_start(rules, state):
        return None
    if not same(v["dessert_pile"], deck.dessert_cards()) or not same(v["guest_pile"], deck.guest_cards()):
        return "before the deal the draw piles are not the whole decks"
    return None


def _deal_paths(rules: Any, start: Any, paths: int = 16) -> list[Any]:
    """The first positions where a player decides, after the deal: ``paths`` ways the deal can
    fall (each chance event takes the outcome the path's number picks; the first and the last
    outcome every time are among them)."""
    ends = []
    for i in range(paths):
        x, depth = start, 0
        turned: list[str] = []
        while actor(rules, x) is CHANCE and depth < 200:
            outs = rules.chance_outcomes(x)
            pick = 0 if i == 0 else len(outs) - 1 if i == 1 else (i * 7 + depth * (i + 3)) % len(outs)
            text = str(outs[pick][0])
            if text.startswith("turn up "):
                turned.append(text[len("turn up "):])
            try:
                x = apply(rules, x, outs[pick][0])
            except RuleGap:
                break
            depth += 1
        if actor(rules, x) is not CHANCE and x not in ends:
            ends.append(x)
            _DEALT[id(x)] = tuple(turned[:3])
    return ends


_DEALT: dict[int, tuple[str, ...]] = {}
"""id(position after the deal) -> the three guests dealt on the way there (kept with the
positions themselves in _MEMO, so an id is not reused while it is looked up)."""


def _opening_ends(rules: Any, start: Any) -> list[Any]:
    return _MEMO.get(rules, ("opening", start), lambda: _deal_paths(rules, start))


def _opening(rules: Any, state: Any, check: Callable[[Any, dict, Any], Problem]) -> Problem:
    if not is_start(rules, state):
        return None
    for end in _opening_ends(rules, state):
        problem = check(state.setup, V(rules, end), end)
        if problem:
            return problem
    return None


def _sorting(setup: Any, v: dict, end: Any = None) -> bool:
    """jd.ruling.opening-duplicates=at-setup: the first player sorts the dealt guests before the first draw.
    Only the three guests dealt decide it (``_DEALT``: the first three turned up on the way to
    this position): with no suit twice among them the draw phase follows at once, and a guest
    it turns up that repeats a suit waits for the discard phase."""
    dealt = _DEALT.get(id(end)) if end is not None else None
    guests = dealt if dealt is not None else v["centre"]
    return setup.options.opening_duplicates == "at-setup" and bool(duplicated_suits(setup.components, guests))


def p_deal_hands(rules: Any, state: Any) -> Problem:
    """jd.setup.deal-hands: when play starts every player holds three desserts (the first
    player one more from the draw phase, if any is left)."""
    def check(setup, v, end):
        n, deck = setup.players, setup.components
        left = len(deck.dessert_cards()) - 3 * n
        want = [3] * n
        if not _sorting(setup, v, end) and left > 0:
            want[0] = 4
        if actor(rules, end) is not TERMINAL and hand_sizes(v) != want:
            return f"after the deal the hands hold {hand_sizes(v)} desserts, not {want}"
        return None
    return _opening(rules, state, check)


def p_deal_guests(rules: Any, state: Any) -> Problem:
    """jd.setup.deal-guests: three guests face up in the middle when play starts (four once the
    first draw phase turned one up), nobody has claimed any, both discard piles are empty."""
    def check(setup, v, end):
        deck = setup.components
        want = 3 if _sorting(setup, v, end) or len(deck.guests) == 3 else 4
        if actor(rules, end) is TERMINAL:
            return None
        if len(v["centre"]) != want or any(v["claimed"]) or v["guest_discard"] or v["dessert_discard"]:
            return f"after the deal the middle holds {len(v['centre'])} guests (not {want}), or cards are elsewhere"
        return None
    return _opening(rules, state, check)


def p_first_player(rules: Any, state: Any) -> Problem:
    """jd.first.player: the first player (seat 0) makes the first decision of the game, and
    it is the start of a turn (or the sorting of jd.ruling.opening-duplicates=at-setup)."""
    def check(setup, v, end):
        a = actor(rules, end)
        if a is TERMINAL:
            return None
        if a != 0 or v["turn"] != 0:
            return f"the first decision falls to {a}, not seat 0"
        if _sorting(setup, v, end):
            return compare("sorting the dealt guests", depart_keys(setup, v), legal(rules, end))
        return compare("the first player's options", turn_start_keys(setup, v, 0), legal(rules, end))
    return _opening(rules, state, check)


def ex_players(rules: Any) -> Problem:
    """jd.players.count: two to five players, no fewer, no more."""
    deck = _example_deck()
    for n in (2, 3, 4, 5):
        try:
            rules.setup(n, rules.Options(), deck)
        except SetupError as e:
            return f"{n} players refused: {e}"
    for n in (1, 6):
        try:
            rules.setup(n, rules.Options(), deck)
        except SetupError:
            continue
        return f"{n} players accepted"
    return None


# =========================================================================== the draw phase and the end of a turn


def turn_begins(rules: Any, s: Any, t: Any) -> bool:
    """A turn starts between s and t: the turn passed, or the dealt guests were sorted out
    (jd.ruling.opening-duplicates=at-setup) and the first player's draw phase follows."""
    vs, vt = V(rules, s), V(rules, t)
    if actor(rules, t) is TERMINAL:
        return False
    return vs["turn"] != vt["turn"] or (vs["phase"] == "sort" and vt["phase"] != "sort")


def _draw_phase(rules: Any, s: Any, m: Any, t: Any) -> dict[str, str]:
    """Everything between the start of a turn and the player's first decision."""
    out: dict[str, str] = {}
    vt = V(rules, t)
    b = vt["turn"]
    has_dessert = sum(dessert_supply(vt).values()) > 0
    has_guest = guest_supply_size(vt) > 0
    # jd.turn.draw-phase: first the dessert, then the guest.
    if actor(rules, t) is CHANCE:
        first = [mv(x) for x, _ in rules.chance_outcomes(t)]
        want = "draw" if has_dessert else "turn-up" if has_guest else None
        if want and any(f.verb != want for f in first):
            out["jd.turn.draw-phase"] = f"the draw phase starts with {first[0].verb}, not {want}"
    elif has_dessert or has_guest:
        out["jd.turn.draw-phase"] = f"the turn starts without a draw phase ({actor(rules, t)} to move)"
    for end in until_decides(rules, t, b, cap=2_000):
        ve = V(rules, end)
        a = actor(rules, end)
        if a is TERMINAL:
            continue
        if ve["turn"] != b or a != b:
            out.setdefault("jd.turn.draw-phase", f"after the draw phase {a} is to move, not seat {b}")
            continue
        gained = msub(ve["hands"][b], vt["hands"][b])
        if gained is None or sum(gained.values()) != (1 if has_dessert else 0):
            out.setdefault("jd.turn.draw-phase", f"seat {b} drew {len(ve['hands'][b]) - len(vt['hands'][b])} desserts "
                                                 f"in the draw phase, not {1 if has_dessert else 0}")
        new = msub(ve["centre"], vt["centre"])
        if new is None or sum(new.values()) != (1 if has_guest else 0):
            out.setdefault("jd.turn.draw-phase", f"the draw phase turned up "
                                                 f"{len(ve['centre']) - len(vt['centre'])} guests, "
                                                 f"not {1 if has_guest else 0}")
        if any(not same(ve["hands"][q], vt["hands"][q]) for q in range(len(ve["hands"])) if q != b) \
                or ve["claimed"] != vt["claimed"]:
            out.setdefault("jd.turn.draw-phase", "the draw phase changed another player's hand or the claimed guests")
        if t.setup.options.no_serving in ("faq-score", "draw") and not serving_ever(t.setup, ve) \
                and not (nothing_unclaimed(ve) and t.setup.options.all_claimed == "play-on"):
            # all-guests-claimed=play-on: its meaning says play goes on once every guest is claimed.
            out.setdefault("jd.win.any-time#stuck", "a turn starts with nothing ever to serve, poach or buffet, "
                                                   "but the game goes on")
        late = faq_score_late(t.setup, ve)
        if late:
            out.setdefault("jd.win.any-time#faq-late", late)
        if not has_guest and t.setup.options.guest_supply == "draw-game":
            out.setdefault("jd.turn.draw-phase#no-guest-left", "no guest was left to turn up, but the game goes on "
                                                               "(guest-supply-empty=draw-game)")
        problem = compare(f"seat {b}'s options after the draw phase", turn_start_keys(t.setup, ve, b),
                          legal(rules, end))
        if problem:
            out.setdefault("jd.turn.one-option#turn-start", problem)
        if ve["served"] != 0 or ve["committed"] or ve["poach"] or ve["shielded"]:
            out.setdefault("jd.turn.one-option#record", f"a turn starts with the record served={ve['served']}, "
                                                       f"committed={ve['committed']}, poach={ve['poach']!r}, "
                                                       f"shielded={ve['shielded']}")
    return out


def draw_phase(key: str) -> Callable:
    def check(rules: Any, s: Any, m: Any, t: Any) -> Problem:
        if not turn_begins(rules, s, t):
            return None
        return _MEMO.get(rules, ("draw-phase", s, m), lambda: _draw_phase(rules, s, m, t)).get(key)
    check.__doc__ = f"{key}: checked from the start of every turn to the player's first decision."
    return check


def t_turn_passes(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.discard.turn-ends (jd.ruling.turn-direction): a turn ends after the discard phase and
    the next player in the chosen direction begins."""
    vs, vt = V(rules, s), V(rules, t)
    if vs["turn"] == vt["turn"] or actor(rules, t) is TERMINAL:
        return None
    n = s.setup.players
    step = -1 if s.setup.options.turn_direction == "counter-clockwise" else 1
    if vt["turn"] != (vs["turn"] + step) % n:
        return f"the turn passed from seat {vs['turn']} to seat {vt['turn']}"
    return None


def t_turn_end_sorted(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.discard.one-per-suit: when a turn ends at most one guest of each suit waits in the middle."""
    vs, vt = V(rules, s), V(rules, t)
    if vs["turn"] == vt["turn"] or actor(rules, t) is TERMINAL:
        return None
    dup = duplicated_suits(s.setup.components, vt["centre"])
    return f"the turn ended with suits {sorted(dup)} showing twice in the middle" if dup else None


def p_discard_choices(rules: Any, state: Any) -> Problem:
    """jd.discard.one-per-suit (jd.ruling.discard-which): while a suit shows twice at the end
    of a turn the player sends guests away, choosing which; nothing else can be done then."""
    a = actor(rules, state)
    if not is_seat(a):
        return None
    got = legal(rules, state)
    v = V(rules, state)
    if not of_verbs(got, "depart") and v["phase"] not in ("discard", "sort"):
        return None
    if v["phase"] not in ("discard", "sort") or a != v["turn"]:
        return f"guests may be sent away in the {v['phase']} phase"
    if not duplicated_suits(state.setup.components, v["centre"]):
        return "the player is asked to send guests away though every suit shows once"
    return compare("guests the player may send away", depart_keys(state.setup, v), got)


def t_depart(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.discard.one-per-suit: a guest sent away leaves the middle for the top of the guest
    discard pile; the player goes on until every suit shows at most once, and no longer."""
    k = mv(m)
    if k.verb != "depart":
        return None
    vs, vt = V(rules, s), V(rules, t)
    left = msub(vs["centre"], [k.guest])
    if left is None or not same(vt["centre"], left.elements()):
        return f"departing {k.guest} did not take it out of the middle"
    if doorway(vt) != k.guest:
        return f"the departed {k.guest} is not on top of the guest discard pile"
    p = vs["turn"]
    if actor(rules, t) is TERMINAL:
        return None
    if duplicated_suits(s.setup.components, vt["centre"]):
        if not decides(rules, t, p):
            return "a suit still shows twice but the player is not asked to send another guest away"
    elif vs["phase"] == "discard" and vt["turn"] == p:
        return "every suit shows once but the turn does not end"
    return None


def t_doorway_kept(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.reshuffle.guests, jd.discard.doorway: the guest in the doorway changes only when a guest
    departs (it takes the doorway) or the doorway guest is claimed (the one beneath it takes
    its place); a reshuffle of the guests leaves it standing."""
    vs, vt = V(rules, s), V(rules, t)
    before, after = doorway(vs), doorway(vt)
    if before == after:
        return None
    k = mv(m)
    if k.verb == "depart" and after == k.guest:
        return None
    claimed_now = {g for c in vt["claimed"] for g in c}
    if before is not None and before in claimed_now and before not in {g for c in vs["claimed"] for g in c}:
        beneath = vs["guest_discard"][-2] if len(vs["guest_discard"]) > 1 else None
        if after == beneath:
            return None
        return f"after the doorway guest {before} was claimed, {after} stands in the doorway, not {beneath}"
    return f"the doorway guest changed from {before} to {after} on {m}"


# =========================================================================== chance: drawing and reshuffling


def p_dessert_draws(rules: Any, state: Any) -> Problem:
    """jd.reshuffle.desserts: a dessert is drawn from the pile, or from its reshuffled discards
    when the pile is out; each card is equally likely."""
    if actor(rules, state) is not CHANCE:
        return None
    outs = rules.chance_outcomes(state)
    draws = [(mv(m), p) for m, p in outs if mv(m).verb == "draw"]
    if not draws:
        return None
    if len(draws) != len(outs):
        return "a dessert draw mixed with other chance events"
    v = V(rules, state)
    source = Counter(v["dessert_pile"]) or Counter(v["dessert_discard"])
    total = sum(source.values())
    want = {c: Fraction(k, total) for c, k in source.items()} if total else {}
    got: dict[str, Fraction] = {}
    for k, p in draws:
        got[k.cards[0]] = got.get(k.cards[0], Fraction(0)) + p
    if got != want:
        return f"dessert draw odds {dict(sorted(got.items()))} are not the pile's {dict(sorted(want.items()))}"
    return None


def p_guest_turn_ups(rules: Any, state: Any) -> Problem:
    """jd.reshuffle.guests: a guest is turned up from the guest pile, or from the reshuffled
    discards without the top one when the pile is out; each equally likely."""
    if actor(rules, state) is not CHANCE:
        return None
    outs = rules.chance_outcomes(state)
    ups = [(mv(m), p) for m, p in outs if mv(m).verb == "turn-up"]
    if not ups:
        return None
    if len(ups) != len(outs):
        return "a guest turn-up mixed with other chance events"
    v = V(rules, state)
    source = list(v["guest_pile"]) or list(v["guest_discard"][:-1])
    want = {g: Fraction(1, len(source)) for g in source} if source else {}
    got = {k.guest: p for k, p in ups}
    if got != want:
        return f"guest turn-up odds {got} are not the pile's {want}"
    return None


def p_dessert_reshuffle_at_once(rules: Any, state: Any) -> Problem:
    """jd.reshuffle.desserts (jd.ruling.reshuffle-time=at-once): the dessert pile is never out
    while its discards hold cards."""
    v = V(rules, state)
    if not v["dessert_pile"] and v["dessert_discard"]:
        return "the dessert pile ran out but its discards were not reshuffled"
    return None


def p_guest_reshuffle_at_once(rules: Any, state: Any) -> Problem:
    """jd.reshuffle.guests (jd.ruling.reshuffle-time=at-once): the guest pile is never out while
    the guest discards hold more than the doorway guest."""
    v = V(rules, state)
    if not v["guest_pile"] and len(v["guest_discard"]) > 1:
        return "the guest pile ran out but its discards were not reshuffled"
    return None


def t_dessert_draw(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.reshuffle.desserts: a draw moves one dessert from the pile (or the reshuffled discards)
    into one hand; nothing else moves."""
    k = mv(m)
    if k.verb != "draw" or actor(rules, s) is not CHANCE:
        return None
    vs, vt = V(rules, s), V(rules, t)
    gained = [q for q in range(len(vs["hands"])) if msub(vt["hands"][q], vs["hands"][q]) == Counter(k.cards)]
    others_same = [q for q in range(len(vs["hands"])) if same(vt["hands"][q], vs["hands"][q])]
    if len(gained) != 1 or len(others_same) != len(vs["hands"]) - 1:
        return f"{m} did not put that one dessert into one hand"
    if msub(dessert_supply(vs).elements(), k.cards) != dessert_supply(vt):
        return f"{m} did not take the dessert from the pile or its discards"
    if not vs["dessert_pile"] and vs["dessert_discard"] and vt["dessert_discard"]:
        return "drawing from the reshuffled discards left a discard pile"
    if vs["claimed"] != vt["claimed"] or not same(vs["centre"], vt["centre"]):
        return f"{m} moved guests"
    return None


def t_guest_turn_up(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.reshuffle.guests: a turn-up moves one guest from the pile (or the discards but the top
    one, reshuffled) into the middle; the top discard stays, starting the new discard pile."""
    k = mv(m)
    if k.verb != "turn-up" or actor(rules, s) is not CHANCE:
        return None
    vs, vt = V(rules, s), V(rules, t)
    if not same(vt["centre"], list(vs["centre"]) + [k.guest]):
        return f"{m} did not put {k.guest} into the middle"
    before = Counter(vs["guest_pile"]) + Counter(vs["guest_discard"])
    after = Counter(vt["guest_pile"]) + Counter(vt["guest_discard"])
    if msub(before.elements(), [k.guest]) != after:
        return f"{m} did not take {k.guest} from the guest pile or its discards"
    if not vs["guest_pile"] and vs["guest_discard"] and vt["guest_discard"] != vs["guest_discard"][-1:]:
        return "a guest reshuffle did not keep only the top discard behind"
    return None


# =========================================================================== winning


def _win_holders(rules: Any, state: Any, kind: str) -> list[int]:
    deck, v = state.setup.components, V(rules, state)
    return [q for q, c in enumerate(v["claimed"]) if winning_set(deck, c) == kind]


def _wins(kind: str) -> Callable:
    def check(rules: Any, state: Any) -> Problem:
        seats = _win_holders(rules, state, kind)
        if not seats:
            return None
        if actor(rules, state) is not TERMINAL:
            return f"seat {seats[0]} holds a winning set ({kind}) but the game goes on"
        o = rules.outcome(state)
        if o is None or not set(o.winners) or not set(o.winners) <= set(seats):
            return f"seat(s) {seats} hold a winning set ({kind}) but the outcome is {o}"
        return None
    check.__doc__ = f"jd.win: a player holding a winning set ({kind}) has won, and the game is over."
    return check


def p_win_any_time(rules: Any, state: Any) -> Problem:
    """jd.win.any-time: the game ends the moment somebody wins and at no other win; an ended
    game has no more moves; a win is only ever given for a winning set."""
    a = actor(rules, state)
    if a is not TERMINAL:
        return None
    if rules.legal_moves(state) or rules.chance_outcomes(state):
        return "the game is over but moves remain"
    o = rules.outcome(state)
    if o is None:
        return "the game is over without an outcome"
    deck, v = state.setup.components, V(rules, state)
    holders = [q for q, c in enumerate(v["claimed"]) if winning_set(deck, c)]
    if o.clause.startswith("jd.win.") and (not o.winners or not set(o.winners) <= set(holders)):
        return f"a win ({o.clause}) for {sorted(o.winners)} who hold no winning set"
    if not holders and o.clause.startswith("jd.win."):
        return "a win is declared although nobody holds a winning set"
    return None


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


def faq_points(setup: Any, v: dict) -> list[int]:
    """The publisher's score (jd.ruling.all-guests-claimed): a point per guest and a bonus per
    matching pair (jd.ruling.matching-pair)."""
    deck, reading = setup.components, setup.options.matching_pair
    out = []
    for c in v["claimed"]:
        counts = suit_counts(deck, c).values()
        if reading == "exactly-two":
            pairs = sum(1 for k in counts if k == 2)
        elif reading == "every-two":
            pairs = sum(k * (k - 1) // 2 for k in counts)
        else:
            pairs = sum(k // 2 for k in counts)
        out.append(len(c) + pairs)
    return out


_ENDS = {"jd.ruling.all-guests-claimed": "all_claimed", "jd.ruling.no-serving-possible": "no_serving"}


def p_end_without_win(rules: Any, state: Any) -> Problem:
    """jd.win.any-time with jd.ruling.all-guests-claimed, jd.ruling.no-serving-possible and
    jd.ruling.guest-supply-empty: a game that ends without a winning set ends only as the chosen
    alternative says (every guest claimed; nothing can ever be served again; no guest left to
    turn up under draw-game), and its result is the publisher's score or a draw as chosen."""
    if actor(rules, state) is not TERMINAL:
        return None
    o = rules.outcome(state)
    if o is None or o.clause.startswith("jd.win."):
        return None
    setup, v = state.setup, V(rules, state)
    opts = setup.options
    end = v["end_clause"] or o.clause
    if end == "jd.ruling.guest-supply-empty":
        if opts.guest_supply != "draw-game" or guest_supply_size(v) or not o.draw:
            return "the game ended for want of guests, which the chosen alternative does not say"
        return None
    if end == "jd.ruling.endless-play" and opts.endless_play != "repeated-position":
        return f"the game ended by a repeated position under jd.ruling.endless-play={opts.endless_play}"
    if end not in _ENDS and end != "jd.ruling.endless-play":
        return f"the game ended by {end!r}"
    # jd.ruling.endless-play=repeated-position: scored by the publisher's count, as faq-score scores
    choice = "faq-score" if end == "jd.ruling.endless-play" else getattr(opts, _ENDS[end])
    if choice not in ("faq-score", "draw"):
        return f"the game ended by {end} under the alternative {choice}"
    if end == "jd.ruling.all-guests-claimed":
        if not nothing_unclaimed(v):
            return "the game ended as if every guest were claimed, but some are not"
        if choice == "draw" and (opts.poaching or buffet_ever(setup, v)):
            return "all-guests-claimed=draw ended the game while guests could still change hands"
        if choice == "faq-score" and opts.faq_score_when == "when-settled" and serving_ever(setup, v):
            return "faq-score-when=when-settled scored the game while a claimed guest could still change hands"
    elif end == "jd.ruling.no-serving-possible" and serving_ever(setup, v):
        return "the game ended as stuck, but a serving, poach or buffet is still possible"
    if choice == "draw":
        return None if o.draw and not o.winners else f"a draw was due, the outcome is {o.summary()}"
    points = faq_points(setup, v)
    keys = [(points[q], len(v["hands"][q])) for q in range(setup.players)]
    top = {q for q in range(setup.players) if keys[q] == max(keys)}
    if len(top) > 1 and opts.score_full_tie == "draw":
        want_draw, want = True, set()
    else:
        want_draw, want = False, top
    if tuple(o.scores) != tuple(points):
        return f"the publisher's score is {points}, the outcome counts {list(o.scores)}"
    if set(o.winners) != want or (want_draw and not o.draw):
        return f"the publisher's score {points} (hands {[k[1] for k in keys]}) gives winners {sorted(want)}, " \
               f"the outcome says {o.summary()}"
    return None


def p_all_claimed_ends(rules: Any, state: Any) -> Problem:
    """jd.win.any-time (jd.ruling.all-guests-claimed): under faq-score the game is over once every
    guest is claimed (and under draw too, unless a poach or a buffet could still move a guest)."""
    a = actor(rules, state)
    if not is_seat(a):
        return None
    setup, v = state.setup, V(rules, state)
    if v["offer"] is not None or not nothing_unclaimed(v):
        return None
    choice = setup.options.all_claimed
    if choice == "faq-score" and setup.options.faq_score_when == "at-once" \
            or (choice == "draw" and not setup.options.poaching and not buffet_ever(setup, v)):
        return f"every guest is claimed but play goes on (all-guests-claimed={choice})"
    return None


def faq_score_late(setup: Any, v: dict) -> Problem:
    """jd.ruling.faq-score-when: a turn starts (after its draw phase) with every guest claimed under
    faq-score: under at-once the serving that claimed the last guest, and under turn-end the turn that
    claimed it, should have ended the game; under
    when-settled the game should end now unless a claimed guest can still change hands (a poach or
    a buffet anybody could still make)."""
    if setup.options.all_claimed != "faq-score" or v["offer"] is not None or not nothing_unclaimed(v):
        return None
    when = setup.options.faq_score_when
    if when in ("at-once", "turn-end") or when == "when-settled" and not serving_ever(setup, v):
        return f"a turn starts with every guest claimed and the game goes on (faq-score-when={when})"
    return None


def t_stuck_at_turn_start(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.win.any-time (jd.ruling.no-serving-possible): a stuck game ends when a turn starts: after
    the draw phase (or when a surprise has undone the only attempt, as if it had not happened)."""
    if actor(rules, t) is not TERMINAL or V(rules, t)["end_clause"] != "jd.ruling.no-serving-possible":
        return None
    k = mv(m)
    if actor(rules, s) is CHANCE or k.verb == "surprise" or V(rules, s)["turn"] != V(rules, t)["turn"]:
        return None  # after a draw phase (a move may end a turn and find nothing to draw), or an undone attempt
    return f"the game ended as stuck right after {m}, not as a turn starts"


def _gap_alternative(setup: Any, ruling_id: str) -> str | None:
    for f in dataclasses.fields(setup.options):
        if f.metadata.get("ruling") == ruling_id:
            return getattr(setup.options, f.name)
    return None


def p_no_gap(rules: Any, state: Any) -> Problem:
    """The rulings decide every place the text is silent: no move raises a rule gap unless the
    ruling it names is set to its strict alternative (and turn-direction=strict only with three
    or more players, as its meaning says)."""
    a = actor(rules, state)
    if a is TERMINAL:
        return None
    moves = [m for m, _ in rules.chance_outcomes(state)] if a is CHANCE else list(rules.legal_moves(state))
    for m in moves:
        try:
            apply(rules, state, m)
        except RuleGap as gap:
            choice = _gap_alternative(state.setup, gap.ruling)
            if choice != "strict":
                return f"{m} raises a rule gap for {gap.ruling}, whose alternative is {choice}"
            if gap.ruling == "jd.ruling.turn-direction" and state.setup.players < 3:
                return f"{m} raises the turn-direction gap with {state.setup.players} players"
    return None


# =========================================================================== the turn options


def _options_gate(rules: Any, state: Any) -> Problem:
    """jd.advanced.options: a move of an advanced rule appears only with that rule in use."""
    a = actor(rules, state)
    if not is_seat(a):
        return None
    o = state.setup.options
    verbs = {k[0] for k in legal(rules, state)}
    if not o.poaching and verbs & {"poach", "block"}:
        return "a poach or block without the Poaching & Blocking rule"
    if not o.buffet and verbs & {"buffet", "return"}:
        return "a buffet without the Buffet rule"
    if not o.surprise_parties and "surprise" in verbs:
        return "a surprise without the Surprise Parties rule"
    return None


def _choose_expected(setup: Any, v: dict, p: int) -> set[tuple]:
    """The moves the text allows in the middle of the option choice, given the record of the
    turn so far (guests served, an option taken, a poach made or blocked, guests surprised away)."""
    out: set[tuple] = set()
    o = setup.options
    if v["served"] < 2:
        out |= serve_keys(setup, v, p, servable(v))
        if v["poach"] == "":
            out |= poach_keys(setup, v, p, exclude=v["shielded"])
    if not v["committed"]:
        out.add(("kitchen", "", ()))
        out |= dump_keys(setup, v, p, empty=True) | buffet_keys(setup, v, p)
    if v["committed"] or o.serve_none == "allowed":
        out.add(("stop", "", ()))
    return out


def _choose(verbs: tuple[str, ...], what: str) -> Callable:
    def check(rules: Any, state: Any) -> Problem:
        v = V(rules, state)
        a = actor(rules, state)
        if v["phase"] != "choose" or not is_seat(a) or a != v["turn"]:
            return None
        exp = of_verbs(_choose_expected(state.setup, v, a), *verbs)
        got = of_verbs(legal(rules, state), *verbs)
        return compare(what, exp, got)
    check.__doc__ = f"The option choice: {what} are exactly those the text allows."
    return check


def _doorway_serves(rules: Any, state: Any) -> Problem:
    """jd.discard.doorway: the guest on top of the guest discard pile may be served like one in the
    middle, and no other discarded guest may."""
    v = V(rules, state)
    a = actor(rules, state)
    if v["phase"] not in ("choose", "buffet") or not is_seat(a) or a != v["turn"]:
        return None
    got = of_verbs(legal(rules, state), "serve")
    buried = set(v["guest_discard"][:-1]) - servable(v)
    if any(k[1] in buried for k in got):
        return "a guest below the top of the guest discard pile may be served"
    d = doorway(v)
    if d is None or (v["phase"] == "choose" and v["served"] >= 2):
        return None
    return compare("serving the doorway guest", serve_keys(state.setup, v, a, [d]), {k for k in got if k[1] == d})


def p_serve_sound(rules: Any, state: Any) -> Problem:
    """jd.serve.satisfies: every serving, poach, block (and surprise under
    jd.ruling.surprise-serving=serving-with-favourite) that is legal uses desserts from the
    mover's hand that show every craving of the guest and nothing it refuses (and, under
    jd.ruling.serving-size=minimal, none to spare)."""
    a = actor(rules, state)
    if not is_seat(a):
        return None
    deck, v = state.setup.components, V(rules, state)
    h = Counter(hand(v, a))
    for verb, guest, cards in legal(rules, state):
        if verb not in ("serve", "poach", "block") and not (
                verb == "surprise" and state.setup.options.surprise_serving == "serving-with-favourite"):
            continue
        g = guest or v["offer"]["guest"]
        if msub(h.elements(), cards) is None:
            return f"{key_text((verb, guest, cards))}: the desserts are not in seat {a}'s hand"
        if not satisfies(deck, cards, g):
            return f"{key_text((verb, guest, cards))} does not satisfy {g}"
        if minimal_rule(state.setup) and not no_spare(deck, cards, g):
            return f"{key_text((verb, guest, cards))} has a dessert to spare"
    return None


def p_dump_phase(rules: Any, state: Any) -> Problem:
    """jd.turn.dump-tray: while dumping, the player may throw away any dessert still in hand, one
    at a time, or stop and draw back."""
    v = V(rules, state)
    a = actor(rules, state)
    if v["phase"] != "dump" or not is_seat(a) or a != v["turn"]:
        return None
    exp = dump_keys(state.setup, v, a, empty=False) | {("stop", "", ())}
    return compare("moves while dumping the tray", exp, legal(rules, state))


def p_buffet_phase(rules: Any, state: Any) -> Problem:
    """jd.buffet.serve-one: after opening a buffet the player may serve one unclaimed guest
    (the middle or the doorway) or stop; no poach, no other option."""
    v = V(rules, state)
    a = actor(rules, state)
    if v["phase"] != "buffet" or not is_seat(a) or a != v["turn"]:
        return None
    exp = serve_keys(state.setup, v, a, servable(v)) | {("stop", "", ())}
    return compare("moves after opening a buffet", exp, legal(rules, state))


def p_return_phase(rules: Any, state: Any) -> Problem:
    """jd.buffet.others-return: a player asked to give a guest back to the buffet chooses any one
    of their own claimed guests; only other players than the one who opened it are asked."""
    v = V(rules, state)
    a = actor(rules, state)
    got = legal(rules, state)
    if not is_seat(a) or (v["phase"] != "return" and not of_verbs(got, "return")):
        return None
    if a == v["turn"]:
        return "the player who opened the buffet is asked to return a guest"
    if not v["claimed"][a]:
        return f"seat {a} holds no guest but is asked to return one"
    return compare(f"guests seat {a} may return", {("return", g, ()) for g in v["claimed"][a]}, got)


# ---------------------------------------------------------------- the answer window


def _window(rules: Any, state: Any) -> tuple[int, dict] | None:
    v = V(rules, state)
    a = actor(rules, state)
    if v["offer"] is None or not is_seat(a):
        return None
    return a, v


def _answers(verbs: tuple[str, ...], what: str) -> Callable:
    def check(rules: Any, state: Any) -> Problem:
        w = _window(rules, state)
        if w is None:
            return None
        a, v = w
        if a == v["offer"]["server"]:
            return "the server is asked to answer their own serving"
        exp = of_verbs(answer_keys(state.setup, v, a), *verbs)
        return compare(f"{what} open to seat {a}", exp, of_verbs(legal(rules, state), *verbs))
    check.__doc__ = f"The answers to a serving: {what} are exactly those the text allows."
    return check


def p_window_only_answers(rules: Any, state: Any) -> Problem:
    """jd.surprise.first-offered: while a serving waits for answers, the only moves are answers
    (block, surprise, pass), and the server is not among those answering."""
    w = _window(rules, state)
    if w is None:
        return None
    extra = {k for k in legal(rules, state) if k[0] not in ("block", "surprise", "pass")}
    return f"moves other than answers while a serving waits: {sorted(map(key_text, extra))}" if extra else None


def p_race(rules: Any, state: Any) -> Problem:
    """jd.surprise.first-offered (jd.ruling.answer-order): when several players may answer, who
    speaks first is a chance event over the players asked (race), never the server; under
    clockwise there is no such event."""
    if actor(rules, state) is not CHANCE:
        return None
    firsts = [(mv(m), p) for m, p in rules.chance_outcomes(state) if mv(m).verb == "first"]
    if not firsts:
        return None
    v = V(rules, state)
    if state.setup.options.answer_order == "clockwise":
        return "a race for the first answer under answer-order=clockwise"
    seats = [k.seat for k, _ in firsts]
    if len(set(seats)) != len(seats) or len(seats) < 2:
        return f"a race among seats {seats}"
    if v["offer"] is None or v["offer"]["server"] in seats:
        return "the server takes part in the race to answer"
    if any(p <= 0 for _, p in firsts) or sum(p for _, p in firsts) != 1:
        return "the race's odds are not a distribution"
    return None


# =========================================================================== following a serving attempt


def _serving_moves(rules: Any, s: Any, m: Any) -> bool:
    k = mv(m)
    v = V(rules, s)
    return k.verb in ("serve", "poach") and actor(rules, s) == v["turn"] and v["phase"] in ("choose", "buffet")


def _note(out: dict, key: str, problem: Problem) -> None:
    if problem and key not in out:
        out[key] = problem


def _by_verb(out: dict, what: str, expected: set, got: set, keys: dict[str, str]) -> None:
    """Compare two move sets and file each difference under the clause its verb belongs to."""
    for verb in {k[0] for k in expected ^ got}:
        clause = keys.get(verb, keys.get("*", ""))
        _note(out, clause, compare(what, of_verbs(expected, verb), of_verbs(got, verb)))


def _serving(rules: Any, s: Any, m: Any, t: Any) -> dict[str, str]:
    """A serving attempt followed through its answer window, its tips, and up to the server's
    next decision (or the end of the turn)."""
    out: dict[str, str] = {}
    setup, deck, o = s.setup, s.setup.components, s.setup.options
    vs, vt = V(rules, s), V(rules, t)
    p = vs["turn"]
    k = mv(m)
    g, S = k.guest, k.cards
    poach = k.verb == "poach"
    victim = holder(vs, g) if poach else -1
    in_buffet = vs["phase"] == "buffet"
    origin = "claimed" if poach else ("centre" if g in vs["centre"] else "doorway")
    serve_clause = "jd.poach.attempt" if poach else "jd.turn.satisfy-guests#effect"
    # -- the attempt itself: the desserts leave the hand, onto the table or to the guest
    if msub(vs["hands"][p], S) != Counter(vt["hands"][p]) and vt["offer"] is not None:
        _note(out, serve_clause, f"{m}: the offered desserts did not leave seat {p}'s hand")
    if vt["offer"] is not None:
        off = vt["offer"]
        if (off["server"], off["guest"], tuple(sorted(off["cards"])), off["victim"]) != (p, g, S, victim):
            _note(out, serve_clause, f"{m}: the offer on the table is {off}")
    # -- who had something to answer with (hands do not change while a serving waits)
    able: dict[int, set] = {}
    if vt["offer"] is not None:
        for q in range(setup.players):
            if q != p:
                opts = answer_keys(setup, vt, q) - {("pass", "", ())}
                if opts:
                    able[q] = opts
    else:
        fake = dict(vs, offer={"server": p, "guest": g, "cards": list(S), "victim": victim},
                    hands=[list(hand(vs, q)) if q != p else list(msub(vs["hands"][p], S).elements())
                           for q in range(setup.players)])
        for q in range(setup.players):
            if q != p:
                opts = answer_keys(setup, fake, q) - {("pass", "", ())}
                if opts:
                    able[q] = opts
    ls = legal(rules, s)
    rs = resolutions(rules, t)
    _answer_order(out, setup, p, able, rs)
    for r in rs:
        if r.gap:
            continue
        ve = V(rules, r.end)
        # -- every player who could block or surprise was asked before the serving succeeded
        if r.answer is None:
            for q, opts in able.items():
                if q not in r.asked:
                    clause = "jd.block.defender" if of_verbs(opts, "block") else "jd.surprise.intercept"
                    _note(out, clause + "#asked", f"{m} succeeded without asking seat {q}, who could answer with "
                                                 f"{key_text(sorted(opts)[0])}")
            _check_success(out, setup, vs, ve, p, g, S, victim, origin, serve_clause)
        elif r.answer[0] == "block":
            _check_block(out, setup, vs, ve, p, g, S, r.answer)
        else:
            _check_surprise(out, setup, vs, ve, p, g, S, victim, origin, r.answer)
        if actor(rules, r.end) is TERMINAL:
            continue
        _after(out, rules, s, r, p, g, S, poach, victim, in_buffet, ls)
    return out


def _answer_order(out: dict, setup: Any, p: int, able: dict[int, set], rs: list[Resolution]) -> None:
    """jd.surprise.first-offered (jd.ruling.answer-order): each player answers a serving at most
    once; under race any player able to answer may be the first to speak, under clockwise the
    players are asked clockwise from the server."""
    key = "jd.surprise.first-offered#order"
    for r in rs:
        if r.gap:
            continue
        if len(set(r.order)) != len(r.order):
            _note(out, key, f"seat(s) answered the same serving twice: {r.order}")
        if r.answer is None and r.open:
            _note(out, key, f"the answers never settle the serving: {r.order}")
    if setup.options.answer_order == "race":
        for q in able:
            if not any(r.order[:1] == (q,) for r in rs):
                _note(out, key, f"seat {q}, able to answer, is never the first to speak (answer-order=race)")
    elif setup.options.answer_order == "clockwise":
        n = setup.players
        for r in rs:
            if r.gap:
                continue
            dist = [(q - p) % n for q in r.order]
            if dist != sorted(dist):
                _note(out, key, f"answers came in the order {r.order}, not clockwise from seat {p}")


def _check_success(out: dict, setup: Any, vs: dict, ve: dict, p: int, g: str, S: tuple, victim: int, origin: str,
                   clause: str) -> None:
    """jd.turn.satisfy-guests / jd.poach.attempt: the guest joins the server, the desserts go to
    the discard pile."""
    if g not in ve["claimed"][p]:
        _note(out, clause, f"serving {g} succeeded but it is not with seat {p}")
        return
    if origin == "claimed" and g in ve["claimed"][victim]:
        _note(out, clause, f"poached {g} is still with seat {victim}")
    if origin == "centre" and g in ve["centre"]:
        _note(out, clause, f"served {g} is still in the middle")
    if origin == "doorway":
        beneath = vs["guest_discard"][-2] if len(vs["guest_discard"]) > 1 else None
        if doorway(ve) != beneath or g in ve["guest_discard"]:
            _note(out, "jd.discard.doorway", f"after the doorway guest {g} was served, {doorway(ve)} stands in the "
                                             f"doorway, not the guest beneath ({beneath})")
    if msub(dessert_supply(ve).elements(), S) != dessert_supply(vs):
        _note(out, clause, f"the desserts served to {g} did not go to the discard pile")
    if msub(vs["hands"][p], S) != Counter(ve["hands"][p]):
        _note(out, clause, f"serving {g} did not take exactly the served desserts from the hand")


def _check_block(out: dict, setup: Any, vs: dict, ve: dict, p: int, g: str, S: tuple, answer: tuple) -> None:
    """jd.block.defender, jd.block.cards-back: the guest stays, the blocker's desserts are
    discarded, the poacher takes the offered desserts back."""
    _, b, B = answer
    if g not in ve["claimed"][b] or ve["claimed"] != vs["claimed"]:
        _note(out, "jd.block.defender#effect", f"after the block {g} is not with its holder, seat {b}")
    if msub(vs["hands"][b], B) != Counter(ve["hands"][b]) \
            or msub(dessert_supply(ve).elements(), B) != dessert_supply(vs):
        _note(out, "jd.block.defender#effect", "the blocking desserts did not go from the hand to the discards")
    if not same(ve["hands"][p], vs["hands"][p]):
        _note(out, "jd.block.cards-back", f"the blocked poacher's hand is {sorted(ve['hands'][p])}, "
                                          f"not {sorted(vs['hands'][p])}")
    if ve["served"] != vs["served"]:
        _note(out, "jd.block.cards-back", f"the blocked poach counted as a serving ({vs['served']} -> {ve['served']})")


def _check_surprise(out: dict, setup: Any, vs: dict, ve: dict, p: int, g: str, S: tuple, victim: int,
                    origin: str, answer: tuple) -> None:
    """jd.surprise.intercept, jd.surprise.continue: the guest goes to the surprising player, whose
    desserts are discarded; the server takes the offered desserts back."""
    _, q, F = answer
    if g not in ve["claimed"][q] or any(g in ve["claimed"][x] for x in range(len(ve["claimed"])) if x != q):
        _note(out, "jd.surprise.intercept#effect", f"after the surprise {g} is not with seat {q} alone")
    if origin == "centre" and g in ve["centre"]:
        _note(out, "jd.surprise.intercept#effect", f"surprised {g} is still in the middle")
    if msub(vs["hands"][q], F) != Counter(ve["hands"][q]) \
            or msub(dessert_supply(ve).elements(), F) != dessert_supply(vs):
        _note(out, "jd.surprise.intercept#effect", "the surprising desserts did not go from the hand to the discards")
    if not same(ve["hands"][p], vs["hands"][p]):
        _note(out, "jd.surprise.continue", f"the surprised server's hand is {sorted(ve['hands'][p])}, "
                                           f"not {sorted(vs['hands'][p])}")
    if ve["served"] != vs["served"]:
        _note(out, "jd.surprise.continue", f"the surprised attempt counted as a serving "
                                           f"({vs['served']} -> {ve['served']})")
    if g not in ve["shielded"] or not set(vs["shielded"]) <= set(ve["shielded"]):
        _note(out, "jd.surprise.no-poach-back#record", f"the surprised guest {g} is not recorded as shielded")


def _expected_tips(setup: Any, vs: dict, p: int, g: str, S: tuple, victim: int,
                   answer: tuple | None) -> dict[str, tuple[int, int]]:
    """clause -> (seat, desserts it draws) after the serving attempt is settled."""
    o = setup.options
    if answer is None:
        out = {"jd.tip.favourite": (p, tips(setup, g, S))}
        if victim >= 0:
            out["jd.poach.victim-tip"] = (victim, 1)
        return out
    verb, q, cards = answer
    if verb == "block":
        return {"jd.tip.block-favourite": (q, tips(setup, g, cards)), "jd.poach.blocked-no-tip": (p, 0)}
    out = {"jd.surprise.no-tip": (q, 0), "jd.surprise.continue#no-tip": (p, 0)}
    if victim >= 0 and victim != q:
        out["jd.poach.victim-tip"] = (victim, 1 if o.victim_tip_surprise == "tip" else 0)
    return out


def _after(out: dict, rules: Any, s: Any, r: Resolution, p: int, g: str, S: tuple, poach: bool, victim: int,
           in_buffet: bool, ls: frozenset) -> None:
    """The tips drawn after the serving attempt, and the server's next decision."""
    setup = s.setup
    vs, ve = V(rules, s), V(rules, r.end)
    expected = _expected_tips(setup, vs, p, g, S, victim, r.answer)
    supply = sum(dessert_supply(ve).values())
    total = sum(n for _, n in expected.values())
    for u in until_decides(rules, r.end, p, first_only=True, cap=50):
        vu = V(rules, u)
        drawn = [len(vu["hands"][q]) - len(ve["hands"][q]) for q in range(setup.players)]
        if total <= supply:
            want = [0] * setup.players
            for seat, n in expected.values():
                want[seat] += n
            if drawn != want:
                for clause, (seat, n) in expected.items():
                    if drawn[seat] != want[seat]:
                        _note(out, clause, f"after {key_text(('poach' if poach else 'serve', g, S))} "
                                           f"({'success' if r.answer is None else r.answer[0]}) seat {seat} drew "
                                           f"{drawn[seat]} desserts, not {want[seat]}")
                        break
                else:
                    _note(out, "jd.tip.favourite", f"after serving {g} the hands grew by {drawn}, not {want}")
        elif sum(drawn) != supply:
            _note(out, "jd.tip.favourite", f"{sum(drawn)} tips drawn with {supply} desserts left for {total} owed")
        if not decides(rules, u, p):
            continue
        _next_decision(out, rules, s, u, r, p, g, poach, in_buffet, ls)


def _next_decision(out: dict, rules: Any, s: Any, u: Any, r: Resolution, p: int, g: str, poach: bool,
                   in_buffet: bool, ls: frozenset) -> None:
    """What the server may do next: the text for a success, a block and a surprise."""
    setup = s.setup
    vs, vu = V(rules, s), V(rules, u)
    lu = set(legal(rules, u))
    if r.answer is None:
        count = vs["served"] + 1
        if in_buffet or count >= 2:
            extra = {k for k in lu if k[0] != "depart"}
            clause = "jd.buffet.serve-one" if in_buffet else "jd.turn.satisfy-guests#up-to-two"
            _note(out, clause, f"after serving {'the buffet guest' if in_buffet else 'two guests'} the player may "
                               f"still {', '.join(sorted(map(key_text, extra))[:3])}" if extra else None)
            return
        exp = serve_keys(setup, vu, p, servable(vu)) | {("stop", "", ())}
        if not poach and vs["poach"] == "":
            exp |= poach_keys(setup, vu, p, exclude=vu["shielded"])
        _by_verb(out, f"after {'poaching' if poach else 'serving'} {g}", exp, lu, {
            "poach": "jd.poach.one-opportunity" if poach else "jd.poach.attempt",
            "serve": "jd.poach.one-opportunity" if poach else "jd.turn.satisfy-guests#up-to-two",
            "stop": "jd.turn.satisfy-guests#up-to-two",
            "*": "jd.turn.one-option#no-second-option"})
        return
    verb = r.answer[0]
    if verb == "block":
        exp = of_verbs(ls, "serve") | {("stop", "", ())}
        _by_verb(out, f"after the poach of {g} was blocked", exp, lu, {
            "poach": "jd.poach.blocked-no-retry", "serve": "jd.block.cards-back", "stop": "jd.block.cards-back",
            "*": "jd.turn.one-option#no-second-option"})
        return
    # a surprise: as if the attempt had not happened, less the surprised guest
    if ("poach", g) in {(k[0], k[1]) for k in lu}:
        _note(out, "jd.surprise.no-poach-back", f"the surprised guest {g} may be poached back at once")
    new = servable(vu) - servable(vs)
    before = {k for k in ls if k[1] != g}
    after = {k for k in lu if k[1] != g and k[1] not in new}
    if setup.options.surprised_attempt == "commits":
        # jd.ruling.surprised-attempt=commits: the attempt chose the serving option; servings (and stopping) are left
        before = {k for k in before if k[0] in ("serve", "poach")} | {("stop", "", ())}
    _note(out, "jd.surprise.continue", compare(f"after the surprise over {g}, the server's moves (compared with "
                                               f"before the attempt)", before, after))


def serving(key: str) -> Callable:
    def check(rules: Any, s: Any, m: Any, t: Any) -> Problem:
        if not _serving_moves(rules, s, m):
            return None
        return _MEMO.get(rules, ("serving", s, m), lambda: _serving(rules, s, m, t)).get(key)
    check.__doc__ = f"{key}: a serving attempt followed through its answers and tips to the server's next decision."
    return check


# ---------------------------------------------------------------- records of the turn


def _same_turn(rules: Any, s: Any, t: Any) -> bool:
    return actor(rules, t) is not TERMINAL and V(rules, s)["turn"] == V(rules, t)["turn"]


def _claimed_by_mover(vs: dict, vt: dict, p: int) -> set[str]:
    return set(vt["claimed"][p]) - set(vs["claimed"][p])


def t_served_record(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.turn.satisfy-guests: the count of guests served this turn grows by one exactly when the
    player claims a guest, and never passes two."""
    if not _same_turn(rules, s, t):
        return None
    vs, vt = V(rules, s), V(rules, t)
    want = vs["served"] + len(_claimed_by_mover(vs, vt, vs["turn"]))
    if vt["served"] != want or vt["served"] > 2:
        return f"{m}: served went {vs['served']} -> {vt['served']}, not {want}"
    return None


def t_committed_record(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.turn.one-option: the player has taken an option once they went to the kitchen, dumped,
    opened a buffet, claimed a guest or had a poach blocked (a poach is one of the serving
    opportunities); a surprised attempt counts as never made."""
    if not _same_turn(rules, s, t):
        return None
    vs, vt = V(rules, s), V(rules, t)
    if vt["phase"] != "choose":
        return None
    k = mv(m)
    want = bool(vs["committed"] or k.verb in ("kitchen", "dump", "buffet", "block")
                or _claimed_by_mover(vs, vt, vs["turn"]))
    if bool(vt["committed"]) != want:
        return f"{m}: the option is {'taken' if vt['committed'] else 'not taken'}, the text says " \
               f"{'taken' if want else 'not taken'}"
    return None


def t_poach_record(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.poach.one-opportunity, jd.poach.blocked-no-retry: the poaching opportunity is used up by
    a successful poach or a blocked one, by nothing else."""
    if not _same_turn(rules, s, t):
        return None
    vs, vt = V(rules, s), V(rules, t)
    k = mv(m)
    p = vs["turn"]
    stolen = {g for g in _claimed_by_mover(vs, vt, p) if holder(vs, g) >= 0}
    want = "blocked" if k.verb == "block" else "done" if stolen else vs["poach"]
    if vt["poach"] != want:
        return f"{m}: the poaching record went {vs['poach']!r} -> {vt['poach']!r}, not {want!r}"
    return None


def t_shield_record(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.surprise.no-poach-back: a guest surprised away is kept from the thwarted player for the
    rest of the turn, and only such guests."""
    if not _same_turn(rules, s, t):
        return None
    vs, vt = V(rules, s), V(rules, t)
    k = mv(m)
    want = set(vs["shielded"]) | ({vs["offer"]["guest"]} if k.verb == "surprise" and vs["offer"] else set())
    if set(vt["shielded"]) != want:
        return f"{m}: the guests kept from poaching went {vs['shielded']} -> {vt['shielded']}"
    return None


def t_hands_only_by_moves(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.discard.no-hand-limit: desserts leave a hand only when its owner serves, poaches,
    blocks, surprises, dumps or opens a buffet with them; no hand is ever cut down."""
    a = actor(rules, s)
    if not is_seat(a):
        return None
    vs, vt = V(rules, s), V(rules, t)
    k = mv(m)
    for q in range(s.setup.players):
        lost = msub(vs["hands"][q], vt["hands"][q]) if msub(vs["hands"][q], vt["hands"][q]) is not None else None
        if lost is None:
            # the hand grew: only a thwarted server taking back the offered desserts
            off = vs["offer"]
            back = off is not None and q == off["server"] and k.verb in ("block", "surprise") \
                and msub(vt["hands"][q], vs["hands"][q]) == Counter(off["cards"])
            if not back:
                return f"{m}: seat {q}'s hand went {sorted(vs['hands'][q])} -> {sorted(vt['hands'][q])}"
            continue
        if not lost:
            continue
        own = k.verb in ("serve", "poach", "block", "surprise", "dump", "buffet")
        if q != a or not own or lost != Counter(k.cards):
            return f"{m}: seat {q} lost {sorted(lost.elements())} from the hand"
    return None


# ---------------------------------------------------------------- the other options


def _option_moves(rules: Any, s: Any, m: Any, verbs: tuple[str, ...]) -> bool:
    v = V(rules, s)
    return mv(m).verb in verbs and actor(rules, s) == v["turn"]


def _departs_only(rules: Any, u: Any, p: int, what: str) -> Problem:
    """After the option is done: the discard phase only (the turn ends when every suit shows once)."""
    if not decides(rules, u, p):
        return None
    extra = {k for k in legal(rules, u) if k[0] != "depart"}
    if extra:
        return f"after {what} the player may still {', '.join(sorted(map(key_text, extra))[:3])}"
    return None


def t_kitchen(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.turn.kitchen: going back to the kitchen draws exactly one dessert (if any is left) and
    nothing else happens before the discard phase."""
    if not _option_moves(rules, s, m, ("kitchen",)):
        return None
    vs, vt = V(rules, s), V(rules, t)
    p = vs["turn"]
    want = 1 if sum(dessert_supply(vs).values()) else 0
    for u in until_decides(rules, t, p, cap=50):
        vu = V(rules, u)
        drawn = [len(vu["hands"][q]) - len(vs["hands"][q]) for q in range(s.setup.players)]
        exp = [want if q == p else 0 for q in range(s.setup.players)]
        if drawn != exp:
            return f"going back to the kitchen drew {drawn}, not {exp}"
        if vu["claimed"] != vs["claimed"] or not same(vu["centre"], vs["centre"]):
            return "going back to the kitchen moved guests"
    return None


def t_no_second_option(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.turn.one-option: after the kitchen, a dump, a stop or a buffet's serving the player
    has no other option left, only the discard phase."""
    if not _option_moves(rules, s, m, ("kitchen", "stop", "dump")):
        return None
    vs = V(rules, s)
    p = vs["turn"]
    k = mv(m)
    if k.verb == "dump" and k.cards:
        return None  # the tray is dumped one dessert at a time: see jd.turn.dump-tray
    for u in until_decides(rules, t, p, cap=100):
        problem = _departs_only(rules, u, p, str(m))
        if problem:
            return problem
    return None


def _dump(rules: Any, s: Any, m: Any, t: Any) -> dict[str, str]:
    """The whole tray option from its first dessert: every choice of desserts, and the draw back."""
    out: dict[str, str] = {}
    vs = V(rules, s)
    p = vs["turn"]
    first = mv(m).cards[0]
    h0 = hand(vs, p)
    seen = {t}
    frontier = [t]
    chosen: set[tuple] = set()
    while frontier and len(seen) < 300:
        w = frontier.pop()
        vw = V(rules, w)
        if not decides(rules, w, p):
            _note(out, "jd.turn.dump-tray#choices", f"while dumping, {actor(rules, w)} is to move")
            continue
        d = msub(h0, vw["hands"][p])
        if d is None:
            _note(out, "jd.turn.dump-tray#choices", "the hand gained desserts while dumping")
            continue
        chosen.add(tuple(sorted(d.elements())))
        if msub(dessert_supply(vw).elements(), d.elements()) != dessert_supply(vs):
            _note(out, "jd.turn.dump-tray#choices", "dumped desserts did not go to the discard pile")
        exp = dump_keys(s.setup, vw, p, empty=False) | {("stop", "", ())}
        _note(out, "jd.turn.dump-tray#choices", compare("moves while dumping", exp, legal(rules, w)))
        for x, y in successors(rules, w):
            kx = mv(x)
            if kx.verb == "dump" and y not in seen:
                seen.add(y)
                frontier.append(y)
            elif kx.verb == "stop":
                for u in until_decides(rules, y, p, first_only=True, cap=50):
                    vu = V(rules, u)
                    if len(vu["hands"][p]) != len(h0) or msub(vu["hands"][p], vw["hands"][p]) is None:
                        _note(out, "jd.turn.dump-tray#draw-back", f"after dumping {sorted(d.elements())} the hand "
                                                                  f"holds {len(vu['hands'][p])}, not {len(h0)}")
                    if any(len(vu["hands"][q]) != len(vs["hands"][q]) for q in range(s.setup.players) if q != p):
                        _note(out, "jd.turn.dump-tray#draw-back", "another player drew during the tray option")
                    _note(out, "jd.turn.one-option#no-second-option", _departs_only(rules, u, p, "dumping the tray"))
    if len(seen) < 300:
        want = {tuple(sorted(x)) for x in sub_multisets(h0) if first in x}
        _note(out, "jd.turn.dump-tray#choices", compare("desserts that may be dumped together",
                                                         {("dump", "", w) for w in want},
                                                         {("dump", "", c) for c in chosen}))
    return out


def dump(key: str) -> Callable:
    def check(rules: Any, s: Any, m: Any, t: Any) -> Problem:
        vs = V(rules, s)
        if not _option_moves(rules, s, m, ("dump",)) or vs["phase"] != "choose" or not mv(m).cards:
            return None
        return _MEMO.get(rules, ("dump", s, m), lambda: _dump(rules, s, m, t)).get(key)
    check.__doc__ = f"{key}: the tray option followed from its first dessert to the draw back."
    return check


def t_empty_dump(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.turn.dump-tray (jd.ruling.dump-none=allowed): dumping nothing draws nothing and ends the options."""
    if not _option_moves(rules, s, m, ("dump",)) or mv(m).cards:
        return None
    vs = V(rules, s)
    p = vs["turn"]
    for u in until_decides(rules, t, p, cap=50):
        vu = V(rules, u)
        if len(vu["hands"][p]) != len(vs["hands"][p]):
            return "dumping no dessert changed the hand"
        problem = _departs_only(rules, u, p, "dumping nothing")
        if problem:
            return problem
    return None


def _buffet(rules: Any, s: Any, m: Any, t: Any) -> dict[str, str]:
    """A buffet followed through the others' returns and the three draws to the opener's serving."""
    out: dict[str, str] = {}
    setup = s.setup
    vs, vt = V(rules, s), V(rules, t)
    p = vs["turn"]
    A = mv(m).cards
    deck = setup.components
    if len(A) != 4 or not all(is_ace(deck, c) for c in A) or msub(vs["hands"][p], A) is None:
        _note(out, "jd.buffet.aces", f"{m} is not four aces from the hand")
    if msub(vs["hands"][p], A) != Counter(vt["hands"][p]):
        _note(out, "jd.buffet.aces", "opening the buffet did not discard exactly the four aces")
    supply = sum(dessert_supply(vt).values())
    owners = [q for q in range(setup.players) if q != p and vs["claimed"][q]]
    combos: set[tuple] = set()
    ends = until_decides(rules, t, p, others=True, cap=2_000)
    for u in ends:
        vu = V(rules, u)
        if actor(rules, u) is TERMINAL or vu["turn"] != p:
            continue
        back = []
        for q in range(setup.players):
            lost = msub(vs["claimed"][q], vu["claimed"][q])
            want = 1 if q in owners else 0
            if lost is None or sum(lost.values()) != want:
                gone = sorted(set(vs["claimed"][q]) ^ set(vu["claimed"][q]))
                _note(out, "jd.buffet.others-return", f"seat {q} gave back {gone} to the buffet, not {want} guest")
                continue
            back += list(lost.elements())
        combos.add(tuple(sorted(back)))
        if not same(vu["centre"], list(vs["centre"]) + back):
            _note(out, "jd.buffet.others-return", "the returned guests are not in the middle")
        got = len(vu["hands"][p]) - len(vt["hands"][p])
        if got != min(3, supply) or msub(vu["hands"][p], vt["hands"][p]) is None:
            _note(out, "jd.buffet.draw-three", f"the buffet's opener drew {got} desserts, not {min(3, supply)}")
        if any(len(vu["hands"][q]) != len(vs["hands"][q]) for q in range(setup.players) if q != p):
            _note(out, "jd.buffet.draw-three", "another player's hand changed during the buffet")
        if decides(rules, u, p):
            exp = serve_keys(setup, vu, p, servable(vu)) | {("stop", "", ())}
            _note(out, "jd.buffet.serve-one", compare("the buffet opener's moves", exp, legal(rules, u)))
    if len(ends) < 500:
        want = {tuple(sorted(c)) for c in itertools.product(*(sorted(set(vs["claimed"][q])) for q in owners))}
        if combos and combos != want:
            _note(out, "jd.buffet.others-return", f"the guests given back can be {sorted(combos)[:3]}, not every "
                                                  f"choice {sorted(want)[:3]}")
    return out


def buffet(key: str) -> Callable:
    def check(rules: Any, s: Any, m: Any, t: Any) -> Problem:
        if not _option_moves(rules, s, m, ("buffet",)):
            return None
        return _MEMO.get(rules, ("buffet", s, m), lambda: _buffet(rules, s, m, t)).get(key)
    check.__doc__ = f"{key}: a buffet followed to the opener's serving."
    return check


def t_answer_closes(rules: Any, s: Any, m: Any, t: Any) -> Problem:
    """jd.surprise.first-offered: the first block or surprise offered settles the guest; nobody
    else answers that serving."""
    if mv(m).verb not in ("block", "surprise"):
        return None
    if V(rules, t)["offer"] is not None:
        return f"after {m} the serving still waits for answers"
    return None


# =========================================================================== examples


def _example_deck() -> Any:
    """A small deck for the fixed positions: four suits of two guests, aces and two-taste desserts,
    and the three desserts and the guest of the rulebook's worked example."""
    d = lambda i, t, n=1: {"id": i, "name": i.replace("_", " ").lower(), "tastes": t, "copies": n}  # noqa: E731
    g = lambda i, s, w, r=(), f=(): {  # noqa: E731
        "id": i, "name": i.lower(), "suit": s, "wants": list(w), "refuses": list(r), "favorites": list(f)}
    return deck_from_json({
        "tastes": ["Cake", "Fruit", "Nuts", "Pie", "Ice Cream", "Veggies"],
        "suits": ["cup", "mitt", "hat", "pin"],
        "desserts": [d("SPONGE", ["Cake"], 4), d("PLUM", ["Fruit"], 4), d("WALNUT", ["Nuts"], 4), d("PIE", ["Pie"], 4),
                     d("TART", ["Cake", "Fruit"], 2), d("CREAM", ["Ice Cream"], 2),
                     d("CARROT_CAKE", ["Cake", "Veggies"]), d("STRAWBERRY_SHORTCAKE", ["Fruit", "Cake"]),
                     d("BUTTER_PECAN_ICE_CREAM", ["Nuts", "Ice Cream"]), d("ICE_CREAM_CAKE", ["Ice Cream", "Cake"])],
        "guests": [g("BAKER", "cup", ["Cake"], f=["SPONGE", "TART"]), g("PICKER", "cup", ["Fruit"], f=["PLUM"]),
                   g("NUTTER", "mitt", ["Nuts"]), g("PIEMAN", "mitt", ["Pie"], f=["PIE"]),
                   g("LITTLE_GIRL", "hat", ["Ice Cream", "Cake"], ["Veggies"], ["ICE_CREAM_CAKE"]),
                   g("GRUMP", "hat", ["Veggies"]), g("ICY", "pin", ["Ice Cream"], f=["CREAM"]),
                   g("OWL", "pin", ["Nuts", "Pie"])],
    }, name="jd-rulebook-examples")


class _Stuck(Exception):
    pass


def deal(rules: Any, setup: Any, hands: list[list[str]], centre: list[str]) -> Any:
    """A new game with these hands and these guests face up, choosing the chance outcomes of the
    deal (whoever a dessert goes to, the model says; the outcome is picked to fit)."""
    state = rules.new_game(setup)
    need = [Counter(h) for h in hands]
    up = Counter(centre)
    while actor(rules, state) is CHANCE and (any(need) or up):
        for m, _ in rules.chance_outcomes(state):
            nxt = rules.apply(state, m)
            vs, vn = V(rules, state), V(rules, nxt)
            k = mv(m)
            if k.verb == "draw":
                q = next(i for i in range(setup.players) if len(vn["hands"][i]) > len(vs["hands"][i]))
                if need[q][k.cards[0]] > 0:
                    need[q][k.cards[0]] -= 1
                    need[q] += Counter()
                    state = nxt
                    break
            elif k.verb == "turn-up" and up[k.guest] > 0:
                up[k.guest] -= 1
                up += Counter()
                state = nxt
                break
        else:
            raise _Stuck(f"cannot deal {need} / {up}")
    return state


def play(rules: Any, state: Any, moves: Iterable[str]) -> Any:
    for text in moves:
        state = rules.apply(state, rules.parse_move(text, state.setup))
    return state


def _options(rules: Any, **changes: Any) -> Any:
    import dataclasses
    return dataclasses.replace(rules.Options(), **changes)


def ex_little_girl(rules: Any) -> Problem:
    """jd.turn.example: holding the carrot cake, the strawberry shortcake and the butter pecan ice
    cream, the only way to claim the Little Girl is the shortcake with the butter pecan (the
    player served NUTTER first, so exactly those three desserts are in hand)."""
    deck = _example_deck()
    three = ["BUTTER_PECAN_ICE_CREAM", "CARROT_CAKE", "STRAWBERRY_SHORTCAKE"]
    for size in ("minimal", "any"):
        setup = rules.setup(2, _options(rules, serving_size=size), deck)
        s = deal(rules, setup, [three, ["PIE", "PIE", "PIE"]], ["LITTLE_GIRL", "NUTTER", "PICKER"])
        s = play(rules, s, ["draw WALNUT", "turn up ICY", "serve NUTTER with WALNUT"])
        v = V(rules, s)
        if actor(rules, s) != 0 or sorted(v["hands"][0]) != three:
            return f"the example position was not reached: {v['hands'][0]}"
        girl = {k for k in legal(rules, s) if k[0] == "serve" and k[1] == "LITTLE_GIRL"}
        want = {("serve", "LITTLE_GIRL", ("BUTTER_PECAN_ICE_CREAM", "STRAWBERRY_SHORTCAKE"))}
        if girl != want:
            return f"serving-size={size}: the Little Girl may be served {sorted(map(key_text, girl))}"
        if {k[2] for k in serve_keys(setup, v, 0, ["LITTLE_GIRL"])} != {want.pop()[2]}:
            return "the properties' own reading of the tastes disagrees with the rulebook's example"
        for bad in ("CARROT_CAKE+STRAWBERRY_SHORTCAKE", "BUTTER_PECAN_ICE_CREAM+CARROT_CAKE",
                    "BUTTER_PECAN_ICE_CREAM+CARROT_CAKE+STRAWBERRY_SHORTCAKE", "STRAWBERRY_SHORTCAKE",
                    "BUTTER_PECAN_ICE_CREAM"):
            if rules.illegal_reason(s, rules.parse_move(f"serve LITTLE_GIRL with {bad}", setup)) is None:
                return f"serving-size={size}: the Little Girl accepts {bad}"
    return None


def _poaching_position(rules: Any, **changes: Any) -> Any:
    """Seat 1 holds NUTTER and PIEMAN; seat 0, to choose, holds SPONGE, PIE and WALNUT; BAKER and
    ICY wait in the middle."""
    setup = rules.setup(2, _options(rules, poaching=True, **changes), _example_deck())
    s = deal(rules, setup, [["SPONGE", "PLUM", "PIE"], ["WALNUT", "PIE", "SPONGE"]], ["NUTTER", "PICKER", "ICY"])
    return play(rules, s, [
        "draw WALNUT", "turn up OWL",
        "serve PICKER with PLUM", "draw PIE",          # a favourite: a tip
        "serve OWL with PIE+WALNUT",                   # two servings: the turn ends (no suit twice)
        "draw WALNUT", "turn up PIEMAN",
        "serve NUTTER with WALNUT",
        "serve PIEMAN with PIE", "draw CREAM",         # a favourite: a tip
        "draw WALNUT", "turn up BAKER",
    ])


def ex_blocked_no_retry(rules: Any) -> Problem:
    """jd.poach.blocked-no-retry: once a poach is blocked the poacher may not poach again that
    turn (not even another guest), but may still serve guests from the middle."""
    s = _poaching_position(rules)
    v = V(rules, s)
    if actor(rules, s) != 0 or sorted(v["claimed"][1]) != ["NUTTER", "PIEMAN"]:
        return f"the poaching position was not reached: {v['claimed']}"
    before = legal(rules, s)
    if ("poach", "PIEMAN", ("PIE",)) not in before or ("poach", "NUTTER", ("WALNUT",)) not in before:
        return "both poaches should be open before the attempt"
    s = play(rules, s, ["poach NUTTER with WALNUT"])
    if actor(rules, s) != 1 or ("block", "", ("WALNUT",)) not in legal(rules, s):
        return "seat 1 may not block the poach with its walnut"
    s = play(rules, s, ["block with WALNUT"])
    after = legal(rules, s)
    if actor(rules, s) != 0 or of_verbs(after, "poach"):
        return f"after the block seat 0 may still poach: {sorted(map(key_text, of_verbs(after, 'poach')))}"
    if ("serve", "BAKER", ("SPONGE",)) not in after:
        return "after the block seat 0 may not serve BAKER from the middle"
    if sorted(V(rules, s)["hands"][0]) != ["PIE", "SPONGE", "WALNUT"]:
        return "the blocked poacher did not take the walnut back"
    return None


def ex_favourite_block(rules: Any) -> Problem:
    """jd.block.favourite-only-by-other-favourite: a poach with a favourite can be blocked only
    with the guest's other favourite; a guest with one favourite cannot be defended at all."""
    setup = rules.setup(2, _options(rules, poaching=True), _example_deck())
    s = deal(rules, setup, [["SPONGE", "PIE", "PLUM"], ["SPONGE", "PIE", "TART"]], ["BAKER", "PIEMAN", "ICY"])
    s = play(rules, s, [
        "draw SPONGE", "turn up GRUMP", "kitchen", "draw PLUM",          # seat 0: four suits, no discard
        "draw CREAM", "turn up PICKER",
        "serve BAKER with SPONGE", "draw SPONGE",                     # favourite: tip
        "serve PIEMAN with PIE", "draw PIE",                          # favourite: tip
        "draw WALNUT", "turn up NUTTER",
    ])
    v = V(rules, s)
    if actor(rules, s) != 0 or sorted(v["claimed"][1]) != ["BAKER", "PIEMAN"] or "TART" not in v["hands"][1]:
        return f"the position was not reached: {v['claimed']}, {v['hands']}"
    baker = play(rules, s, ["poach BAKER with SPONGE"])
    blocks = of_verbs(legal(rules, baker), "block") if actor(rules, baker) == 1 else set()
    if blocks != {("block", "", ("TART",))}:
        return f"a poach of BAKER with SPONGE may be blocked {sorted(map(key_text, blocks))}, not only with TART"
    pieman = play(rules, s, ["poach PIEMAN with PIE"])
    if actor(rules, pieman) == 1 and of_verbs(legal(rules, pieman), "block"):
        return "a poach of PIEMAN with its only favourite may be blocked"
    return None


def ex_surprise(rules: Any) -> Problem:
    """jd.surprise.no-tip, jd.surprise.continue: a surprise earns no tip; the thwarted server gets
    the desserts back and chooses again as if nothing had been tried (the kitchen too)."""
    setup = rules.setup(2, _options(rules, surprise_parties=True), _example_deck())
    s = deal(rules, setup, [["CARROT_CAKE", "PLUM", "WALNUT"], ["SPONGE", "PIE", "PLUM"]], ["BAKER", "NUTTER", "ICY"])
    s = play(rules, s, ["draw PIE", "turn up GRUMP"])
    before = legal(rules, s)
    s = play(rules, s, ["serve BAKER with CARROT_CAKE"])
    if actor(rules, s) != 1 or ("surprise", "", ("SPONGE",)) not in legal(rules, s):
        return "seat 1 may not surprise BAKER with its favourite"
    s = play(rules, s, ["surprise with SPONGE"])
    v = V(rules, s)
    if actor(rules, s) is CHANCE:
        return "a surprise is followed by a draw (a tip?)"
    if v["claimed"][1] != ["BAKER"] or sorted(v["hands"][1]) != ["PIE", "PLUM"]:
        return f"after the surprise: claimed {v['claimed']}, seat 1 holds {v['hands'][1]}"
    if sorted(v["hands"][0]) != ["CARROT_CAKE", "PIE", "PLUM", "WALNUT"]:
        return "the surprised server did not take the carrot cake back"
    after = legal(rules, s)
    want = {k for k in before if k[1] != "BAKER"}
    if set(after) != want:
        return compare("after the surprise, seat 0's moves (as before the attempt)", want, after)
    return None


def ex_doorway(rules: Any) -> Problem:
    """jd.discard.doorway, jd.discard.one-per-suit: the player chooses who leaves (any guest while
    a suit shows twice, jd.ruling.discard-which); the last to leave may be served from the doorway."""
    for which in ("any-guest", "duplicates-only"):
        setup = rules.setup(2, _options(rules, discard_which=which), _example_deck())
        s = deal(rules, setup, [["SPONGE", "SPONGE", "SPONGE"], ["PLUM", "PIE", "PIE"]], ["BAKER", "PICKER", "ICY"])
        s = play(rules, s, ["draw SPONGE", "turn up GRUMP", "kitchen", "draw WALNUT"])
        departs = {k[1] for k in legal(rules, s) if k[0] == "depart"}
        want = {"BAKER", "PICKER", "ICY", "GRUMP"} if which == "any-guest" else {"BAKER", "PICKER"}
        if departs != want:
            return f"discard-which={which}: may send away {sorted(departs)}, not {sorted(want)}"
        s = play(rules, s, ["depart PICKER", "draw PIE", "turn up NUTTER"])
        if actor(rules, s) != 1 or ("serve", "PICKER", ("PLUM",)) not in legal(rules, s):
            return "the guest in the doorway cannot be served"
    return None


def ex_surprise_doorway(rules: Any) -> Problem:
    """jd.surprise.intercept (jd.ruling.surprise-doorway): serving the doorway guest cannot be
    surprised under middle-and-poach, and can under any-serving."""
    for rule, open_ in (("middle-and-poach", False), ("any-serving", True)):
        setup = rules.setup(2, _options(rules, surprise_parties=True, surprise_doorway=rule), _example_deck())
        s = deal(rules, setup, [["SPONGE", "SPONGE", "PLUM"], ["PLUM", "PIE", "PIE"]], ["BAKER", "PICKER", "ICY"])
        s = play(rules, s, ["draw SPONGE", "turn up GRUMP", "kitchen", "draw WALNUT", "depart PICKER",
                            "draw TART", "turn up NUTTER", "serve PICKER with TART"])
        asked = actor(rules, s) == 0 and ("surprise", "", ("PLUM",)) in legal(rules, s)
        if asked != open_:
            return f"surprise-doorway={rule}: a surprise over the doorway guest is {'open' if asked else 'closed'}"
    return None


def ex_buffet(rules: Any) -> Problem:
    """jd.buffet.aces, jd.buffet.others-return, jd.buffet.draw-three, jd.buffet.serve-one: four
    aces open the buffet; the other player chooses which guest goes back to the middle; the
    opener draws three and may serve one unclaimed guest (not poach); then the turn ends."""
    setup = rules.setup(2, _options(rules, buffet=True, poaching=True), _example_deck())
    s = deal(rules, setup, [["SPONGE", "PLUM", "WALNUT"], ["PIE", "PLUM", "SPONGE"]], ["NUTTER", "PICKER", "ICY"])
    s = play(rules, s, [
        "draw PIE", "turn up GRUMP", "kitchen", "draw SPONGE",           # seat 0: five aces, four suits
        "draw WALNUT", "turn up PIEMAN",
        "serve PICKER with PLUM", "draw TART", "serve NUTTER with WALNUT",  # seat 1 claims two guests
        "draw CREAM", "turn up OWL",
    ])
    v = V(rules, s)
    if actor(rules, s) != 0 or sorted(v["claimed"][1]) != ["NUTTER", "PICKER"]:
        return f"the buffet position was not reached: {v['claimed']}"
    buffets = of_verbs(legal(rules, s), "buffet")
    if ("buffet", "", ("PIE", "PLUM", "SPONGE", "WALNUT")) not in buffets or \
            any(not all(is_ace(setup.components, c) for c in k[2]) or len(k[2]) != 4 for k in buffets):
        return f"the buffets open to six aces are {sorted(map(key_text, buffets))[:3]}"
    s = play(rules, s, ["buffet PIE+PLUM+SPONGE+WALNUT"])
    returns = legal(rules, s) if actor(rules, s) == 1 else set()
    if returns != {("return", "NUTTER", ()), ("return", "PICKER", ())}:
        return f"the other player may give back {sorted(map(key_text, returns))}, not either guest"
    s = play(rules, s, ["return PICKER", "draw WALNUT", "draw PLUM", "draw PIE"])
    v = V(rules, s)
    if actor(rules, s) != 0 or "PICKER" not in v["centre"] or len(v["hands"][0]) != 5:
        return f"after the returns and three draws: centre {v['centre']}, hand {v['hands'][0]}"
    moves = legal(rules, s)
    if of_verbs(moves, "poach") or not {("serve", "PICKER", ("PLUM",)), ("serve", "ICY", ("CREAM",)),
                                        ("stop", "", ())} <= set(moves):
        return f"after the buffet the opener may {sorted(map(key_text, moves))[:5]}"
    s = play(rules, s, ["serve ICY with CREAM", "draw SPONGE"])
    if V(rules, s)["turn"] != 1:
        return "after the buffet's one serving the turn does not end"
    return None


# =========================================================================== the tables


def _on(*names: str) -> Callable:
    def applies(setup: Any) -> bool:
        return all(getattr(setup.options, n) for n in names)
    return applies


_AT_ONCE = {"jd.ruling.reshuffle-time": ("at-once",)}
"""``under=``: only where the discards become the pile at once."""


P = Property
PROPERTIES: tuple[Property, ...] = (
    # -- components and set up
    P("jd.setup.components", "every dessert and guest is in exactly one place at all times", state=p_conservation,
      name="one-place", lines=(22, 22)),
    P("jd.setup.components", "desserts show one to four tastes; guests crave something and have at most two "
      "favourites from the deck", state=p_card_faces, name="faces", lines=((23, 23), (26, 27))),
    P("jd.setup.deal-hands", "when play starts each player holds three desserts (the first player one more from the "
      "draw phase)", state=p_deal_hands, lines=((6, 6), (17, 17)), reads=("jd.ruling.opening-duplicates",)),
    P("jd.setup.deal-guests", "when play starts three guests wait face up in the middle (plus the first turn-up)",
      state=p_deal_guests, lines=((6, 6), (17, 17)), reads=("jd.ruling.opening-duplicates",)),
    P("jd.setup.piles", "before the deal the decks are whole draw piles with empty discard piles; each discard pile "
      "holds only its own deck's cards", state=p_piles, lines=((6, 6), (34, 34))),
    P("jd.first.player", "seat 0 makes the first decision of the game, with the full choice of options",
      state=p_first_player, lines=((15, 15), (17, 22), (28, 28)),
      reads=("jd.ruling.opening-duplicates", "jd.ruling.discard-which", "jd.ruling.serving-size",
             "jd.ruling.dump-none", "jd.ruling.serve-none")),
    P("jd.suits.six", "every suit has the same number of guests", state=p_suits, lines=((28, 28), (32, 32))),
    P("jd.tastes.icons", "the deck's tastes are among the twelve icons and the cards use only those", state=p_tastes,
      lines=(54, 54)),
    # -- the turn
    P("jd.turn.draw-phase", "a turn starts with one dessert to the player, then one guest into the middle, then the "
      "player decides", transition=draw_phase("jd.turn.draw-phase"), lines=((17, 17), (19, 19))),
    P("jd.turn.one-option", "right after the draw phase the player's moves are exactly the options: serve or poach "
      "any satisfying set, kitchen, dump any dessert, a buffet of four aces", transition=draw_phase(
          "jd.turn.one-option#turn-start"), name="turn-start", lines=((19, 22), (29, 29), (42, 42), (48, 48)),
      reads=("jd.ruling.serving-size", "jd.ruling.dump-none", "jd.ruling.serve-none")),
    P("jd.turn.one-option", "a turn starts with nothing served, no option taken, no poach used, no guest kept from "
      "poaching", transition=draw_phase("jd.turn.one-option#record"), name="record",
      lines=((19, 20), (42, 43), (51, 51))),
    P("jd.turn.one-option", "the option counts as taken after kitchen, dump, buffet, a claimed guest or a blocked "
      "poach, and not after a surprised attempt (jd.ruling.surprised-attempt=as-if-not-made: the text does not say "
      "whether a surprised attempt chose the serving option)", transition=t_committed_record,
      under={"jd.ruling.surprised-attempt": ("as-if-not-made",)}, name="committed-record",
      lines=((19, 19), (43, 43), (51, 51))),
    P("jd.turn.one-option", "after the kitchen, a dump, or stopping, only the discard phase is left",
      transition=t_no_second_option, name="no-second-option", lines=((19, 22), (28, 28))),
    P("jd.turn.one-option", "after a serving attempt no other option is offered (unless a surprise undid the attempt)",
      transition=serving("jd.turn.one-option#no-second-option"), name="no-option-after-serving",
      lines=((19, 20), (43, 43))),
    P("jd.turn.one-option", "while choosing, kitchen, dumps, buffets and stop are offered exactly when the text "
      "allows them", state=_choose(("kitchen", "dump", "buffet", "stop", "depart", "return", "block", "surprise",
                                   "pass"), "the other options"), name="choose", lines=((19, 22), (48, 48)),
      reads=("jd.ruling.dump-none", "jd.ruling.serve-none")),
    P("jd.serve.satisfies", "every legal serving, poach and block is from the mover's hand, shows every craving and no "
      "refused taste (and has no dessert to spare under serving-size=minimal)", state=p_serve_sound,
      lines=((20, 20), (42, 43)), reads=("jd.ruling.serving-size", "jd.ruling.surprise-serving")),
    P("jd.turn.satisfy-guests", "while choosing, the servings offered are every satisfying set for every guest in the "
      "middle or the doorway, while fewer than two guests are served", state=_choose(("serve",), "servings"),
      name="choose", lines=((20, 20), (29, 29)), reads=("jd.ruling.serving-size",)),
    P("jd.turn.satisfy-guests", "a serving that is not thwarted moves the guest in front of the server and the "
      "desserts to the discard pile", transition=serving("jd.turn.satisfy-guests#effect"), name="effect",
      lines=(20, 20)),
    P("jd.turn.satisfy-guests", "after one guest served the player may serve a second or stop; after two, nothing "
      "but the discard phase", transition=serving("jd.turn.satisfy-guests#up-to-two"), name="up-to-two",
      lines=((19, 20), (28, 28)), reads=("jd.ruling.serving-size",)),
    P("jd.turn.satisfy-guests", "the count of guests served grows exactly when the player claims a guest",
      transition=t_served_record, name="served-record", lines=((20, 20), (42, 42))),
    P("jd.turn.kitchen", "going back to the kitchen draws exactly one dessert", transition=t_kitchen,
      lines=((19, 19), (21, 21))),
    P("jd.turn.kitchen", "the kitchen is offered exactly while no option has been taken",
      state=_choose(("kitchen",), "the kitchen"), name="offered", lines=((19, 19), (21, 21))),
    P("jd.turn.dump-tray", "any non-empty choice of desserts can be dumped, one at a time, and the tray phase offers "
      "exactly the desserts still in hand", transition=dump("jd.turn.dump-tray#choices"), name="choices",
      lines=(22, 22)),
    P("jd.turn.dump-tray", "after dumping the player draws back as many desserts as were dumped",
      transition=dump("jd.turn.dump-tray#draw-back"), name="draw-back", lines=(22, 22)),
    P("jd.turn.dump-tray", "while dumping, the moves are the desserts in hand and stop", state=p_dump_phase,
      name="phase", lines=(22, 22)),
    P("jd.turn.dump-tray", "dumping nothing (dump-none=allowed) draws nothing and ends the options",
      transition=t_empty_dump, name="empty", lines=(22, 22), under={"jd.ruling.dump-none": ("allowed",)}),
    P("jd.tip.favourite", "serving a guest its favourite draws the tip (tip-count, favourite-with-others), other "
      "servings draw nothing", transition=serving("jd.tip.favourite"), lines=((26, 26), (46, 46)),
      reads=("jd.ruling.tip-count", "jd.ruling.favourite-with-others", "jd.ruling.victim-tip-on-surprise")),
    P("jd.discard.one-per-suit", "at the end of the turn the player sends away guests of their choice while a suit "
      "shows twice, and nothing else", state=p_discard_choices, name="choices", lines=(28, 28),
      reads=("jd.ruling.discard-which",)),
    P("jd.discard.one-per-suit", "a departing guest goes to the top of the guest discard pile; departures go on "
      "exactly while a suit shows twice", transition=t_depart, name="depart", lines=(28, 29)),
    P("jd.discard.one-per-suit", "no turn ends with a suit showing twice in the middle", transition=t_turn_end_sorted,
      name="turn-end", lines=((28, 28), (30, 30))),
    P("jd.discard.doorway", "the guest on top of the guest discard pile may be served like one in the middle; "
      "buried guests may not", state=_doorway_serves, name="servable", lines=((29, 29), (48, 48)),
      reads=("jd.ruling.serving-size",)),
    P("jd.discard.doorway", "serving the doorway guest leaves the guest beneath in the doorway",
      transition=serving("jd.discard.doorway"), name="beneath", lines=(29, 29)),
    P("jd.discard.doorway", "the doorway guest changes only by a departure or by being claimed; reshuffles keep it",
      transition=t_doorway_kept, name="kept", lines=((29, 29), (34, 34))),
    P("jd.discard.turn-ends", "a turn ends after its discard phase and passes to the next seat in the chosen "
      "direction (turn-direction)", transition=t_turn_passes, lines=(30, 30), reads=("jd.ruling.turn-direction",)),
    P("jd.discard.no-hand-limit", "desserts leave a hand only in its owner's own serving, answer, dump or buffet; "
      "no hand is ever cut down", transition=t_hands_only_by_moves, lines=(30, 30)),
    P("jd.reshuffle.desserts", "a dessert is drawn from the pile (or its reshuffled discards), each card equally "
      "likely", state=p_dessert_draws, name="odds", lines=(34, 34)),
    P("jd.reshuffle.desserts", "a draw moves one dessert from the pile into one hand", transition=t_dessert_draw,
      name="draw", lines=((17, 17), (34, 34))),
    P("jd.reshuffle.desserts", "(reshuffle-time=at-once) the dessert pile is never empty while its discards hold "
      "cards", state=p_dessert_reshuffle_at_once, under=_AT_ONCE, name="at-once", lines=(34, 34)),
    P("jd.reshuffle.guests", "a guest is turned up from the pile, or the reshuffled discards without the top one, "
      "each equally likely", state=p_guest_turn_ups, name="odds", lines=(34, 34)),
    P("jd.reshuffle.guests", "a turn-up moves one guest into the middle; a reshuffle leaves only the top discard",
      transition=t_guest_turn_up, name="turn-up", lines=((17, 17), (34, 34))),
    P("jd.reshuffle.guests", "(reshuffle-time=at-once) the guest pile is never empty while the discards hold more "
      "than the doorway guest", state=p_guest_reshuffle_at_once, under=_AT_ONCE, name="at-once", lines=(34, 34)),
    P("jd.win.three-of-a-suit", "a player with three guests of one suit has won and the game is over",
      state=_wins("three"), lines=(36, 37)),
    P("jd.win.five-suits", "a player with guests of five suits has won and the game is over", state=_wins("five"),
      lines=((36, 36), (38, 38))),
    P("jd.win.any-time", "a finished game has no moves, and a win is declared only for a winning set",
      state=p_win_any_time, lines=(36, 38)),
    P("jd.win.any-time", "a game ends without a win only as the chosen ending says, with the publisher's score or a "
      "draw (all-guests-claimed, no-serving-possible, guest-supply-empty, matching-pair, score-full-tie)",
      state=p_end_without_win, name="other-ends", lines=((17, 17), (34, 34), (36, 38)),
      reads=("jd.ruling.all-guests-claimed", "jd.ruling.no-serving-possible", "jd.ruling.guest-supply-empty",
             "jd.ruling.faq-score-when", "jd.ruling.matching-pair", "jd.ruling.score-full-tie")),
    P("jd.win.any-time", "once every guest is claimed the game is over (all-guests-claimed=faq-score at once; "
      "=draw unless guests can still move)", state=p_all_claimed_ends, name="all-claimed",
      lines=((36, 38), (42, 42), (48, 48)), reads=("jd.ruling.all-guests-claimed", "jd.ruling.faq-score-when")),
    P("jd.win.any-time", "under faq-score, no turn starts with every guest claimed (faq-score-when=turn-end), nor "
      "with every guest claimed and none able to change hands (when-settled)",
      transition=draw_phase("jd.win.any-time#faq-late"), name="faq-late", lines=((36, 38), (42, 42), (48, 48)),
      reads=("jd.ruling.all-guests-claimed", "jd.ruling.faq-score-when")),
    P("jd.win.any-time", "a turn that starts with nothing ever to serve, poach or buffet ends the game "
      "(no-serving-possible=faq-score or draw)", transition=draw_phase("jd.win.any-time#stuck"), name="stuck",
      lines=((20, 22), (34, 34), (36, 36)), reads=("jd.ruling.no-serving-possible", "jd.ruling.all-guests-claimed")),
    P("jd.win.any-time", "a stuck game ends as a turn starts, not in the middle of one (no-serving-possible)",
      transition=t_stuck_at_turn_start, name="stuck-when", lines=((17, 22), (34, 34), (36, 36), (51, 51)),
      under={"jd.ruling.no-serving-possible": ("faq-score", "draw")}),
    P("jd.turn.draw-phase", "no move raises a rule gap where the chosen alternatives decide (dessert-supply-empty, "
      "guest-supply-empty, turn-direction, ...)", state=p_no_gap, name="no-gap",
      lines=((15, 15), (17, 17), (20, 22), (30, 30), (34, 34), (36, 38), (43, 43), (46, 46), (50, 52)),
      reads=("jd.ruling.dessert-supply-empty", "jd.ruling.guest-supply-empty", "jd.ruling.all-guests-claimed",
             "jd.ruling.no-serving-possible", "jd.ruling.answer-order", "jd.ruling.plain-block-vs-surprise",
             "jd.ruling.victim-tip-on-surprise", "jd.ruling.surprise-on-block", "jd.ruling.turn-direction")),
    P("jd.turn.draw-phase", "with no guest left to turn up the game ends (guest-supply-empty=draw-game)",
      transition=draw_phase("jd.turn.draw-phase#no-guest-left"), name="no-guest-left", lines=((17, 17), (34, 34)),
      reads=("jd.ruling.guest-supply-empty",)),
    # -- advanced rules
    P("jd.advanced.options", "moves of an advanced rule appear only when that rule is in use", state=_options_gate,
      lines=(40, 40)),
    P("jd.poach.attempt", "while choosing, the poaches offered are every satisfying set for every guest another "
      "player holds, while the poaching opportunity lasts and the guest was not surprised away",
      state=_choose(("poach",), "poaches"), applies=_on("poaching"), lines=((42, 43), (51, 51)),
      reads=("jd.ruling.serving-size",)),
    P("jd.poach.attempt", "a poach that is not thwarted takes the guest from its holder to the poacher",
      transition=serving("jd.poach.attempt"), applies=_on("poaching"), name="effect", lines=(42, 42),
      reads=("jd.ruling.serving-size",)),
    P("jd.poach.one-opportunity", "after a successful poach no second poach; a guest from the middle may still be "
      "served", transition=serving("jd.poach.one-opportunity"), applies=_on("poaching"), lines=(42, 44),
      reads=("jd.ruling.serving-size",)),
    P("jd.poach.one-opportunity", "the poaching opportunity is used up only by a successful or blocked poach",
      transition=t_poach_record, applies=_on("poaching"), name="record", lines=((42, 43), (51, 51))),
    P("jd.block.defender", "the poached player may block with every set from their hand that satisfies the guest, "
      "and nobody else may block", state=_answers(("block",), "blocks"), applies=_on("poaching"),
      lines=((43, 43), (45, 45)), reads=("jd.ruling.serving-size",)),
    P("jd.block.defender", "a poach is not settled before the poached player, if able to block, was asked",
      transition=serving("jd.block.defender#asked"), applies=_on("poaching"), name="asked",
      lines=((43, 43), (45, 45)), reads=("jd.ruling.serving-size",)),
    P("jd.block.defender", "a block keeps the guest with its holder and discards the blocking desserts",
      transition=serving("jd.block.defender#effect"), applies=_on("poaching"), name="effect", lines=(43, 43)),
    P("jd.block.cards-back", "a blocked poacher takes the desserts back, the attempt counts as no serving, and the "
      "servings from the middle stay open", transition=serving("jd.block.cards-back"), applies=_on("poaching"),
      lines=(43, 43)),
    P("jd.poach.blocked-no-retry", "after a blocked poach no poach at all is offered for the rest of the turn",
      transition=serving("jd.poach.blocked-no-retry"), applies=_on("poaching"), lines=(43, 43)),
    P("jd.block.favourite-only-by-other-favourite", "a poach with a favourite can be blocked only with the guest's "
      "other favourite", state=_answers(("block",), "blocks"), applies=_on("poaching"), lines=((43, 43), (45, 45)),
      reads=("jd.ruling.serving-size",)),
    P("jd.poach.victim-tip", "a player who loses a guest to a poach draws one dessert (and, on a surprised poach, as "
      "victim-tip-on-surprise says)", transition=serving("jd.poach.victim-tip"), applies=_on("poaching"),
      lines=((46, 46), (52, 52)),
      reads=("jd.ruling.victim-tip-on-surprise", "jd.ruling.tip-count", "jd.ruling.favourite-with-others")),
    P("jd.tip.block-favourite", "blocking with a favourite draws the tip", transition=serving("jd.tip.block-favourite"),
      applies=_on("poaching"), lines=(46, 46), reads=("jd.ruling.tip-count", "jd.ruling.favourite-with-others")),
    P("jd.poach.blocked-no-tip", "a blocked poacher draws nothing, favourite or not",
      transition=serving("jd.poach.blocked-no-tip"), applies=_on("poaching"), lines=(46, 46),
      reads=("jd.ruling.tip-count", "jd.ruling.favourite-with-others")),
    P("jd.buffet.aces", "while no option is taken, every choice of four aces from the hand opens a buffet",
      state=_choose(("buffet",), "buffets"), applies=_on("buffet"), lines=(48, 48)),
    P("jd.buffet.aces", "opening a buffet discards exactly four single-taste desserts from the hand",
      transition=buffet("jd.buffet.aces"), applies=_on("buffet"), name="discard", lines=(48, 48)),
    P("jd.buffet.others-return", "each other player holding guests gives back one guest of their choice to the middle",
      transition=buffet("jd.buffet.others-return"), applies=_on("buffet"), lines=(48, 48)),
    P("jd.buffet.others-return", "a player asked to give a guest back may choose any of their own guests",
      state=p_return_phase, applies=_on("buffet"), name="choice", lines=(48, 48)),
    P("jd.buffet.draw-three", "the buffet's opener draws three desserts", transition=buffet("jd.buffet.draw-three"),
      applies=_on("buffet"), lines=(48, 48)),
    P("jd.buffet.serve-one", "then the opener may serve one unclaimed guest or stop; no poach, nothing more",
      transition=buffet("jd.buffet.serve-one"), applies=_on("buffet"), lines=((29, 29), (48, 48)),
      reads=("jd.ruling.serving-size",)),
    P("jd.buffet.serve-one", "while the buffet's serving is open the moves are servings of unclaimed guests and stop",
      state=p_buffet_phase, applies=_on("buffet"), name="phase", lines=((29, 29), (48, 48)),
      reads=("jd.ruling.serving-size",)),
    P("jd.buffet.serve-one", "after the buffet's one serving only the discard phase is left",
      transition=serving("jd.buffet.serve-one"), applies=_on("buffet"), name="after", lines=(48, 48)),
    P("jd.surprise.intercept", "a serving without a favourite from the middle or a poach (the doorway under "
      "surprise-doorway=any-serving) may be surprised by any other player holding a favourite",
      state=_answers(("surprise",), "surprises"), applies=_on("surprise_parties"), lines=((29, 29), (50, 50)),
      reads=("jd.ruling.surprise-doorway", "jd.ruling.victim-surprise", "jd.ruling.surprise-serving",
             "jd.ruling.serving-size")),
    P("jd.surprise.intercept", "a surprisable serving is not settled before every player able to surprise was asked",
      transition=serving("jd.surprise.intercept#asked"), applies=_on("surprise_parties"), name="asked",
      lines=((29, 29), (50, 50)),
      reads=("jd.ruling.surprise-doorway", "jd.ruling.victim-surprise", "jd.ruling.surprise-serving",
             "jd.ruling.serving-size")),
    P("jd.surprise.intercept", "a surprise gives the guest to the surprising player and discards the favourite",
      transition=serving("jd.surprise.intercept#effect"), applies=_on("surprise_parties"), name="effect",
      lines=(50, 50)),
    P("jd.surprise.needs-favourite", "a surprise is one favourite alone (or a serving with a favourite under "
      "surprise-serving=serving-with-favourite)", state=_answers(("surprise",), "surprises"),
      applies=_on("surprise_parties"), lines=(50, 50),
      reads=("jd.ruling.surprise-serving", "jd.ruling.surprise-doorway", "jd.ruling.victim-surprise",
             "jd.ruling.serving-size")),
    P("jd.surprise.continue", "after a surprise the server has the desserts back and exactly the moves they had before "
      "the attempt, less the surprised guest (under jd.ruling.surprised-attempt=commits, only its servings and stop)",
      transition=serving("jd.surprise.continue"),
      applies=_on("surprise_parties"), lines=(51, 51), reads=("jd.ruling.surprised-attempt",)),
    P("jd.surprise.continue", "the surprised server draws nothing", transition=serving("jd.surprise.continue#no-tip"),
      applies=_on("surprise_parties"), name="no-tip", lines=(51, 51), reads=("jd.ruling.victim-tip-on-surprise",)),
    P("jd.surprise.no-poach-back", "the surprised guest may not be poached back in the same turn",
      transition=serving("jd.surprise.no-poach-back"), applies=_on("surprise_parties", "poaching"), lines=(51, 51)),
    P("jd.surprise.no-poach-back", "a surprised guest is kept from poaching for the rest of the turn, only it",
      transition=t_shield_record, applies=_on("surprise_parties"), name="record", lines=(51, 51)),
    P("jd.surprise.no-poach-back", "the surprise records the guest as kept from poaching",
      transition=serving("jd.surprise.no-poach-back#record"), applies=_on("surprise_parties"), name="recorded",
      lines=(51, 51)),
    P("jd.surprise.no-tip", "a surprise earns no tip", transition=serving("jd.surprise.no-tip"),
      applies=_on("surprise_parties"), lines=(52, 52), reads=("jd.ruling.victim-tip-on-surprise",)),
    P("jd.surprise.first-offered", "the first block or surprise settles the serving; while it waits only answers are "
      "possible", transition=t_answer_closes, lines=((43, 43), (50, 51)),
      under={"jd.ruling.plain-block-vs-surprise": ("first-offered",), "jd.ruling.surprise-on-block": ("no",)}),
    P("jd.surprise.first-offered", "each player answers a serving at most once; under answer-order=race anyone able "
      "may speak first, under clockwise the answers go clockwise from the server",
      transition=serving("jd.surprise.first-offered#order"), name="order", lines=((43, 43), (50, 51)),
      reads=("jd.ruling.answer-order", "jd.ruling.serving-size", "jd.ruling.surprise-doorway",
             "jd.ruling.victim-surprise", "jd.ruling.surprise-serving")),
    P("jd.surprise.first-offered", "while a serving waits, the only moves are answers", state=p_window_only_answers,
      name="answers-only", lines=((43, 43), (50, 51))),
    P("jd.surprise.first-offered", "who answers first is a chance event over the players asked (answer-order=race), "
      "never the server", state=p_race, name="race", lines=(51, 51), reads=("jd.ruling.answer-order",)),
)

EXAMPLES: tuple[Example, ...] = (
    Example("jd.turn.example", "the Little Girl takes only the shortcake with the butter pecan ice cream "
            "(either serving-size)", ex_little_girl, name="example", lines=(24, 24)),
    Example("jd.players.count", "two to five players are accepted, one and six refused", ex_players, name="example",
            lines=(25, 25)),
    Example("jd.poach.blocked-no-retry", "a blocked poacher may not poach another guest that turn but may serve "
            "from the middle", ex_blocked_no_retry, name="example", lines=(43, 43)),
    Example("jd.block.favourite-only-by-other-favourite", "a poach of BAKER with SPONGE is blocked only with TART; "
            "PIEMAN poached with its only favourite cannot be blocked", ex_favourite_block, name="example",
            lines=(45, 45)),
    Example("jd.surprise.no-tip", "a surprise draws no tip; the thwarted server has the desserts back and every "
            "option as before (the kitchen too)", ex_surprise, name="example", lines=(51, 52)),
    Example("jd.discard.doorway", "the player picks who departs; the departed guest is served from the doorway",
            ex_doorway, name="example", lines=(28, 29)),
    Example("jd.buffet.serve-one", "four aces open a buffet; the other player picks the guest to give back; three "
            "draws; one unclaimed guest served, no poach; the turn ends", ex_buffet, name="example", lines=(48, 48)),
    Example("jd.surprise.intercept", "a doorway serving can be surprised only under surprise-doorway=any-serving",
            ex_surprise_doorway, name="example", lines=((29, 29), (50, 50))),
)

UNOBSERVABLE: dict[str, str] = {}
