"""Compiled states: the step API of Just Desserts on the compiled loop's state vector.

``new_game(setup)`` here starts a game whose states are :class:`CompiledState`: a ``State``
whose fields are read from an int vector (the layout of model/just_desserts/playout_loops.py)
the first time anybody reads one.  The step API (the package's ``RULES``: ``to_move``,
``legal_moves``, ``chance_outcomes``, ``apply``) plays such a state without reading its fields:
the legal moves are listed, and a move or chance outcome applied and settled, in compiled code
(the step API's section of ``playout_loops.py``), so a random game costs a few microseconds an
action.  Nothing of the rules is new here: the loops mirror game.py clause by clause, and
tests/model/test_jd_compiled.py plays compiled states and the model's states in lockstep,
comparing every state, legal-move list and chance distribution.

A compiled state *is* a ``State``: anything that reads a field (``state.hands``, equality,
hashing, ``repr``, ``evolve``, pickling) gets the model's value, and from then on the object
is an ordinary ``State`` (its class is changed once its fields are filled); the step API then
plays it through the model.  What plays as a compiled state (:func:`why_not`): every setup the
compiled playout plays (playout.py's ``available``) with servings without a card to spare
(jd.ruling.serving-size=minimal), on decks of at most 127 dessert types and 255 guests.  For
any other setup ``new_game`` returns the model's state, and the step API plays it as always.

The moves and outcomes are the model's values: ``legal_moves`` gives ``Move`` objects equal to
game.py's, in the same order; ``chance_outcomes`` gives a draw as a
:class:`~tablerules.model.core.PileDraw` over the pile in the vector.  ``apply`` of a move that
is not legal, or a step into a strict ruling's gap, is replayed by the model, so the error raised
is the model's own.

>>> from tablerules.model.just_desserts import RULES, Options, compiled
>>> setup = RULES.setup(2, Options(poaching=True), RULES.default_components())
>>> state = compiled.new_game(setup)
>>> type(state).__name__, RULES.to_move(state)
('CompiledState', CHANCE)
>>> state = RULES.apply(state, RULES.chance_outcomes(state)[0][0])
>>> state.hands[0], type(state).__name__
(('PLUM',), 'State')
"""

from __future__ import annotations

import importlib
from fractions import Fraction
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from ..core import CHANCE, TERMINAL, PileDraw, Setup, probability
from ..decks import Deck
from . import game
from .ending import ALL_CLAIMED, NO_SERVING
from .moves import KITCHEN, PASS, STOP, Move
from .state import DRAW, TURN_UP, Offer, State

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "why_not": "what the compiled loop plays",
    "loops": "loaded once",
    "new_game": "a setup the loop plays; encoded once",
    "to_move": "a compiled state or the model's",
    "legal_moves": "a compiled state or the model's; listed last",
    "chance_outcomes": "a compiled state or the model's; which chance event",
    "apply": "a compiled state or the model's; chance or seat; a move the engine did not make; the loop's answer",
    "_model_copy": "a compiled state or the model's",
    "Engine.keys_of": "more moves than the room for keys holds",
    "Engine.outcome_of": "a move of this deck",
    "MoveOfKey.__missing__": "no more cards",
    "CompiledState.decoded": "the vector's codes back to the model's values",
    "CompiledState.__eq__": "both compiled",
    "CompiledDraw.listed": "the pile read once",
}

P: Any = None
L: Any = None
"""model/just_desserts/playout.py and playout_loops.py, loaded by :func:`loops` the first time a setup is asked
about: Numba takes a third of a second to import, and a command that never plays a compiled state need not wait
(tests/tool/test_start_up.py)."""


def loops() -> Any:
    """Load the compiled loops (once), by name, as model/playout.py loads a rule set's compiled playout."""
    global P, L
    if L is None:  # plumbing: loaded once
        P = importlib.import_module(f"{__package__}.playout")
        L = importlib.import_module(f"{__package__}.playout_loops")
        assert L.ACTOR_GAP == _GAP
    return L


_FIELDS = [name for name in State.__slots__ if name != "setup"]  # plumbing: every field but the setup
_SLOT = {name: State.__dict__[name] for name in State.__slots__}
"""The slots of State (member descriptors): a compiled state keeps (vector, engine, actor) in the
``hands`` slot until its fields are filled, and its setup in ``setup`` throughout."""
_PACKED = _SLOT["hands"].__get__
_SET_SETUP, _SET_PACKED = _SLOT["setup"].__set__, _SLOT["hands"].__set__


# --------------------------------------------------------------------------- which setups


@lru_cache(maxsize=256)
def why_not(setup: Setup) -> str | None:
    """Why this setup's games cannot be compiled states (None if they can)."""
    loops()
    if not isinstance(setup.components, Deck) or not P.available(setup):  # plumbing: what the loop plays
        return "the compiled playout does not play this setup (model/just_desserts/playout.py: available)"
    if setup.options.serving_size != "minimal":  # rule: jd.ruling.serving-size
        return "jd.ruling.serving-size=any: a serving may hold a whole hand, too many cards for a move's key"
    t = P.tables(setup.components)
    if len(t.desserts) > L.MAX_TYPES or len(t.guests) > L.MAX_GUESTS:  # plumbing: what a key holds
        return f"more than {L.MAX_TYPES} dessert types or {L.MAX_GUESTS} guests: too many for a move's key"
    return None


# --------------------------------------------------------------------------- the engine of a setup


class MoveOfKey(dict):
    """Key (playout_loops' ``move_key``) -> the model's ``Move``, made the first time it is asked for."""

    def __init__(self, engine: "Engine") -> None:
        super().__init__()
        self.engine = engine
        self.verbs = {int(L.VERB_RANK[code]): name for name, code in engine.verb_codes.items()}
        self.shared = {"stop": STOP, "kitchen": KITCHEN, "pass": PASS}

    def __missing__(self, key: int) -> Move:
        """The key's fields read back (as ``key_to_ws`` reads them), the move made from them."""
        e = self.engine
        verb = self.verbs[key >> L.RANK_SHIFT]
        guest = ((key >> L.GUEST_SHIFT) & L.MAX_GUESTS) - 1
        cards = []
        for j in range(1, L.KEY_CARDS + 1):
            c = (key >> (L.GUEST_SHIFT - L.CARD_BITS * j)) & L.MAX_TYPES
            if c == 0:  # plumbing: no more cards
                break
            cards.append(e.tables.desserts[c - 1])
        move = self.shared.get(verb) or Move(verb, e.tables.guests[guest] if guest >= 0 else "", tuple(cards))
        self[key] = move
        e.key_of_id[id(move)] = key
        return move


class Engine:
    """What every compiled state of one setup shares: the tables and options as one vector, the
    workspace of the compiled calls, the moves made so far by key, and the last listing."""

    def __init__(self, setup: Setup) -> None:
        loops()
        self.setup = setup
        self.phase_names = {code: name for name, code in P.PHASES.items()} | {L.P_OVER: "over"}
        self.poach_names = {L.POACH_NONE: "", L.POACH_DONE: "done", L.POACH_BLOCKED: "blocked"}
        self.actors = {L.ACTOR_CHANCE: CHANCE, L.ACTOR_OVER: TERMINAL}
        """The loop's actor codes that are no seat."""
        self.verb_codes = {"block": L.V_BLOCK, "buffet": L.V_BUFFET, "depart": L.V_DEPART, "dump": L.V_DUMP,
                           "kitchen": L.V_KITCHEN, "pass": L.V_PASS, "poach": L.V_POACH, "return": L.V_RETURN,
                           "serve": L.V_SERVE, "stop": L.V_STOP, "surprise": L.V_SURPRISE}
        """The seat moves' verbs (moves.py) and their codes in the loop (a dump of one card or none: V_DUMP)."""
        self.tables = t = P.tables(setup.components)
        self.prm = P.options_vector(P.playable(setup), t)
        self.pack = L.pack_tables(t, self.prm, 1024)
        """The tables, options, workspace and room for keys that every compiled call is given."""
        self.keys_at = int(self.pack[L.K_KEYS])
        self.play_key, self.play_outcome = L.play_key, L.play_outcome
        self.moves = MoveOfKey(self)
        self.key_of_id: dict[int, int] = {}
        """id(move) -> key, for every move in ``moves`` (kept alive there, so an id names one move)."""
        self.last: tuple[Any, list[int], tuple[Move, ...]] = (None, [], ())
        """(the state listed last, its keys, its moves)."""
        self.dessert_index = {d: i for i, d in enumerate(t.desserts)}
        self.guest_index = {g: i for i, g in enumerate(t.guests)}
        self.draws = game._chance_moves(setup.components, DRAW)
        self.turn_ups = game._chance_moves(setup.components, TURN_UP)
        self.start: tuple[np.ndarray, Any] | None = None
        """The vector of game.py's new_game for this setup and who moves first (:func:`new_game`)."""
        self.desserts = np.array(t.desserts, dtype=object)
        self.guests = np.array(t.guests, dtype=object)

    def keys_of(self, vec: np.ndarray) -> list[int]:
        """The keys of the legal moves at ``vec`` (playout_loops' legal_keys), in the order of moves."""
        n = L.legal_keys(vec, self.pack)
        if n > self.pack[L.K_NKEYS]:  # plumbing: more moves than the room for keys holds
            self.pack = L.pack_tables(self.tables, self.prm, 2 * n)
            n = L.legal_keys(vec, self.pack)
        at = self.keys_at
        return self.pack[at:at + n].tolist()

    def key_among(self, keys: list[int], move: Any) -> int | None:
        """The key among ``keys`` of the move equal to ``move`` (a move made elsewhere, parsed from its text say),
        or None."""
        for key in keys:
            if self.moves[key] == move:  # plumbing: the listed move it equals
                return key
        return None

    def outcome_of(self, move: Any) -> tuple[int, int] | None:
        """(verb code, argument) of a chance move of this deck, or None."""
        if not isinstance(move, Move):  # plumbing: a move of this deck
            return None
        if move.verb == "draw" and len(move.cards) == 1 and move.cards[0] in self.dessert_index:
            return L.V_DRAW, self.dessert_index[move.cards[0]]
        if move.verb == "turn-up" and move.guest in self.guest_index:
            return L.V_TURN_UP, self.guest_index[move.guest]
        if move.verb == "first" and 0 <= move.seat < self.setup.players:
            return L.V_FIRST, move.seat
        return None


@lru_cache(maxsize=64)
def engine(setup: Setup) -> Engine:
    return Engine(setup)


# --------------------------------------------------------------------------- the state


class CompiledState(State):
    """A ``State`` held as the compiled loop's vector until a field is read (see the module docstring)."""

    __slots__ = ()

    def decoded(self) -> None:
        """Fill every field from the vector; the object is an ordinary ``State`` from then on."""
        vec, eng, _ = _PACKED(self)
        v = vec.tolist()
        t, n = eng.tables, v[L.S_N]
        D, G = len(t.desserts), len(t.guests)

        def cards(at: int, size: int, names: np.ndarray) -> tuple[str, ...]:
            return tuple(np.repeat(names, vec[at:at + size]).tolist())

        def guests_where(at: int) -> tuple[str, ...]:
            return tuple(t.guests[g] for g in range(G) if v[at + g])

        holder = v[v[L.O_HOLDER]:v[L.O_HOLDER] + G]
        claimed = tuple(tuple(t.guests[g] for g in range(G) if holder[g] == seat) for seat in range(n))
        phase = eng.phase_names[v[L.S_PHASE]]
        end, win = v[L.S_END], v[L.S_WINNER]
        if end == L.END_WIN:  # rule: jd.win.any-time
            end_clause = game.winning_clause(self.setup.components, claimed[win])
        else:
            end_clause = {L.END_NONE: "", L.END_GUEST_SUPPLY: "jd.ruling.guest-supply-empty",
                          L.END_ALL_CLAIMED: ALL_CLAIMED, L.END_NO_SERVING: NO_SERVING}[end]
            win = -1
        offer = None
        if v[L.S_OFFER]:  # plumbing: an attempt on the table
            o = v[L.O_OCARDS]
            offer = Offer(v[L.S_OSERVER], t.guests[v[L.S_OGUEST]],
                          tuple(sorted(t.desserts[c] for c in v[o:o + v[L.S_ONCARDS]])), v[L.S_OVICTIM],
                          "buffet" if v[L.S_OBACK] else "choose")
        o = v[L.O_TASKS]
        fields = {
            "hands": tuple(cards(v[L.O_HAND] + seat * D, D, eng.desserts) for seat in range(n)),
            "claimed": claimed,
            "dessert_pile": cards(v[L.O_DPILE], D, eng.desserts),
            "guest_pile": guests_where(v[L.O_GPILE]),
            "dessert_discard": cards(v[L.O_DDISC], D, eng.desserts),
            "guest_discard": tuple(t.guests[g] for g in v[v[L.O_GDISC]:v[L.O_GDISC] + v[L.S_NGDISC]]),
            "centre": guests_where(v[L.O_CENTRE]),
            "turn": v[L.S_TURN],
            "phase": phase,
            "tasks": tuple((DRAW if v[o + 2 * i] == L.K_DRAW else TURN_UP, v[o + 2 * i + 1])
                           for i in range(v[L.S_NTASKS])),
            "opening": bool(v[L.S_OPENING]),
            "served": v[L.S_SERVED],
            "committed": bool(v[L.S_COMMITTED]),
            "poach": eng.poach_names[v[L.S_POACH]],
            "shielded": guests_where(v[L.O_SHIELD]),
            "offer": offer,
            "answerers": tuple(seat for seat in range(n) if v[v[L.O_ANS] + seat]),
            "speaker": v[L.S_SPEAKER],
            "returning": tuple(v[v[L.O_RET]:v[L.O_RET] + v[L.S_NRET]]),
            "dumped": v[L.S_DUMPED],
            "winner": win,
            "end_clause": end_clause,
            "seen": frozenset(),
        }
        for name in _FIELDS:
            _SLOT[name].__set__(self, fields[name])
        object.__setattr__(self, "__class__", State)

    # What a State does with its fields, done once the fields are filled (then as an ordinary State): equality
    # (the dataclass's compares objects of one class only), hashing, the text form (which names the class),
    # pickling and copying (which would otherwise record this class with unfilled fields).

    def __eq__(self, other: object) -> bool:
        self.decoded()
        if type(other) is CompiledState:  # plumbing: both compiled
            other.decoded()
        return self == other

    def __hash__(self) -> int:
        self.decoded()
        return hash(self)

    def __repr__(self) -> str:
        self.decoded()
        return repr(self)

    def __reduce_ex__(self, protocol: Any) -> Any:
        self.decoded()
        return self.__reduce_ex__(protocol)


def _field(name: str) -> property:
    slot = _SLOT[name]

    def read(self: CompiledState) -> Any:
        self.decoded()
        return slot.__get__(self)

    return property(read, doc=f"State.{name}, read from the vector the first time a field is read.")


for _name in _FIELDS:
    setattr(CompiledState, _name, _field(_name))


def _made(setup: Setup, vec: np.ndarray, eng: Engine, actor: Any) -> CompiledState:
    state = object.__new__(CompiledState)
    _SET_SETUP(state, setup)
    _SET_PACKED(state, (vec, eng, actor))
    return state




def compile_state(state: State) -> State:
    """``state`` as a compiled state (one not yet over, of a setup :func:`why_not` accepts), else ``state``."""
    if type(state) is not State or why_not(state.setup) is not None or state.phase == "over":  # plumbing: as is
        return state
    eng = engine(state.setup)
    vec = P.encode(state, eng.tables)
    return _made(state.setup, vec, eng, game.to_move(state))


def new_game(setup: Setup) -> State:
    """game.py's new_game, as a compiled state where the setup allows (:func:`why_not`): a copy of the
    engine's first state (encoded once per setup)."""
    if why_not(setup) is not None:  # plumbing: a setup the loop plays
        return game.new_game(setup)
    eng = engine(setup)
    if eng.start is None:  # plumbing: encoded once
        first = game.new_game(setup)
        eng.start = (P.encode(first, eng.tables), game.to_move(first))
    return _made(setup, eng.start[0].copy(), eng, eng.start[1])


# --------------------------------------------------------------------------- the step API


def to_move(state: State) -> Any:
    if type(state) is CompiledState:  # plumbing: a compiled state or the model's
        return _PACKED(state)[2]
    return game.to_move(state)


def legal_moves(state: State) -> tuple[Move, ...]:
    if type(state) is not CompiledState:  # plumbing: a compiled state or the model's
        return game.legal_moves(state)
    vec, eng, actor = _PACKED(state)
    if eng.last[0] is state:  # plumbing: listed last
        return eng.last[2]
    if actor is CHANCE or actor is TERMINAL:  # plumbing: only a seat has moves
        return ()
    keys = eng.keys_of(vec)
    moves = tuple(map(eng.moves.__getitem__, keys))
    eng.last = (state, keys, moves)
    return moves


def pile_cards(vec: np.ndarray, verb: int, names: tuple[str, ...]) -> tuple[str, ...]:
    """The pile the next draw (L.V_DRAW) or turn-up (L.V_TURN_UP) comes from, read from a compiled state's vector:
    its cards in the order of ids, copies together, as game.py's sorted piles hold them."""
    counts = np.zeros(len(names), dtype=np.int64)
    L.pile_counts(vec, verb, counts)
    return tuple(np.repeat(np.array(names, dtype=object), counts).tolist())


class CompiledDraw(PileDraw):
    """A draw or turn-up of a compiled state: :class:`~tablerules.model.core.PileDraw` over the pile in the vector
    (read by :func:`pile_cards` only when the outcomes are listed), whose random pick is one compiled call
    (playout_loops' ``pick_card``)."""

    __slots__ = ("vec", "verb", "names")

    def __init__(self, moves: Any, vec: np.ndarray, verb: int, names: tuple[str, ...]) -> None:
        self.moves, self.vec, self.verb, self.names = moves, vec, verb, names
        self.pile = self._listed = None

    def pick(self, r: float) -> Any:
        return self.moves[self.names[L.pick_card(self.vec, self.verb, r)]]

    def listed(self) -> Any:
        if self.pile is None:  # plumbing: the pile read once
            self.pile = pile_cards(self.vec, self.verb, self.names)
        return PileDraw.listed(self)

    def __bool__(self) -> bool:
        return L.pile_size(self.vec, self.verb) > 0


def chance_outcomes(state: State) -> Sequence[tuple[Move, Fraction]]:
    if type(state) is not CompiledState:  # plumbing: a compiled state or the model's
        return game.chance_outcomes(state)
    vec, eng, actor = _PACKED(state)
    if actor is not CHANCE:  # plumbing: which chance event
        return ()
    if vec[L.S_NTASKS] > 0:  # rule: jd.reshuffle.desserts, jd.reshuffle.guests
        if vec[vec[L.O_TASKS]] == L.K_DRAW:  # plumbing: which pile
            return CompiledDraw(eng.draws, vec, L.V_DRAW, eng.tables.desserts)
        return CompiledDraw(eng.turn_ups, vec, L.V_TURN_UP, eng.tables.guests)
    seats = [seat for seat in range(eng.setup.players) if vec[vec[L.O_ANS] + seat]]
    p = probability(1, len(seats))  # rule: jd.surprise.first-offered
    return tuple((game._first_move(seat), p) for seat in seats)


def apply(state: State, move: Any) -> State:
    if type(state) is not CompiledState:  # plumbing: a compiled state or the model's
        return game.apply(state, move)
    vec, eng, actor = _PACKED(state)
    nxt = vec.copy()
    if actor is CHANCE:  # plumbing: chance or seat
        found = eng.outcome_of(move)
        code = _GAP if found is None else eng.play_outcome(nxt, eng.pack, found[0], found[1])
    elif actor is TERMINAL:  # rule: jd.win.any-time
        code = _GAP
    else:
        last = eng.last
        keys = last[1] if last[0] is state else eng.keys_of(vec)
        key = eng.key_of_id.get(id(move))
        if key is None:  # plumbing: a move the engine did not make
            key = eng.key_among(keys, move)
        code = eng.play_key(nxt, eng.pack, key) if key in keys else _GAP
    if code == _GAP:  # plumbing: the loop's answer
        return _advance(state, move)
    made = _NEW(CompiledState)
    _SET_SETUP(made, state.setup)
    _SET_PACKED(made, (nxt, eng, eng.actors.get(code, code)))
    return made


_GAP = -3
"""playout_loops' ACTOR_GAP (checked when the loops are imported)."""
_NEW = object.__new__


def _advance(state: State, move: Any) -> State:
    """A step the compiled loop does not take (an illegal move, a strict ruling's gap): the model takes
    it from the state read as the model's, and raises its own error."""
    return game.apply(_model_copy(state), move)


def illegal_reason(state: State, move: Any) -> str | None:
    """game.py's illegal_reason, a compiled state read as the model's (a copy: the state stays compiled)."""
    return game.illegal_reason(_model_copy(state), move)


def _model_copy(state: State) -> State:
    """A compiled state's copy read as the model's (the state itself if it is the model's)."""
    if type(state) is not CompiledState:  # plumbing: a compiled state or the model's
        return state
    copy = _made(state.setup, *_PACKED(state))
    copy.decoded()
    return copy


__all__ = ["CompiledState", "new_game", "compile_state", "why_not", "to_move", "legal_moves", "chance_outcomes",
           "apply", "illegal_reason"]
