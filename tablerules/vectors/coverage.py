"""Which clauses a step of play exercises: the data behind the vectors' coverage table.

A step is (state before, move, state after).  Its clauses come from these sources:

* the move's *kind* (``verb`` for moves that have one, else the class name), looked up in
  ``MOVE_CLAUSES``;
* *changes* between the two states' ``state_vars`` (a pile that grew, a flag that became
  true, ...), listed in ``CHANGE_CLAUSES`` as (move kind or "*", change, clauses);
* tests on the two states themselves (``STEP_CLAUSES``), where the state variables alone do
  not show it (a guest's favourites, who may serve);
* at the end of the game, the clause the outcome names, plus ``END_CLAUSES``.

The per-rule-set parts below are plain tables.  A rule set missing from them falls back
to a generic mapping: the spec clauses whose id contains the move kind's words.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from tablerules.model.core import CHANCE, TERMINAL, MoveSyntaxError, RuleGap, RuleSet

# --------------------------------------------------------------------------- changes between states

Change = Callable[[dict, dict, Any], bool]


def changed(var: str) -> Change:
    """The variable holds a different value after the step."""
    return lambda before, after, move: before.get(var) != after.get(var)


def became_true(var: str) -> Change:
    """The variable was falsy before the step and is truthy after it."""
    return lambda before, after, move: not before.get(var) and bool(after.get(var))


def grew(var: str) -> Change:
    """The variable (a list) is longer after the step."""
    return lambda before, after, move: _size(after.get(var)) > _size(before.get(var))


def became(var: str, value: Any) -> Change:
    """The variable takes ``value`` in this step."""
    return lambda before, after, move: before.get(var) != value and after.get(var) == value


def both(*tests: Change) -> Change:
    return lambda before, after, move: all(t(before, after, move) for t in tests)


def text_has(word: str) -> Change:
    """The move's canonical text contains ``word``."""
    return lambda before, after, move: word in str(move).split()


def _size(value: Any) -> int:
    if isinstance(value, (list, tuple, dict)):
        return sum(
            _size(v) if isinstance(v, (list, tuple)) else 1
            for v in (value.values() if isinstance(value, dict) else value)
        )
    return 0


def _other_layout(before: dict, after: dict, move: Any) -> bool:
    """Dishes: a Place lands on a tile in another layout (dishes.play.place-anyone)."""
    words = str(move).split()
    return len(words) == 4 and words[0] == "place" and words[1].split(".")[0] != words[3].split(".")[0]


def _claimed(sv: dict) -> list[int]:
    return [len(c) for c in sv.get("claimed", [])]


def _poached(before: dict, after: dict, move: Any) -> bool:
    """Just Desserts: one seat lost a claimed guest and another gained one."""
    b, a = _claimed(before), _claimed(after)
    return len(a) == len(b) and any(x < y for x, y in zip(a, b)) and any(x > y for x, y in zip(a, b))


def _tipped(before: dict, after: dict, move: Any) -> bool:
    """Just Desserts: a guest was served and more draws are due than a poach's parting tip."""
    served = sum(_claimed(after)) > sum(_claimed(before)) or _poached(before, after, move)
    extra = _size(after.get("tasks")) - _size(before.get("tasks"))
    return served and extra > (1 if _poached(before, after, move) else 0)


def _favourite_poach(before: Any) -> Any:
    """Just Desserts: the poach waiting for answers in ``before`` if it was made with one of the
    guest's favourites, else None."""
    from tablerules.model.decks import favorite_used

    offer = getattr(before, "offer", None)
    if offer is None or offer.victim < 0:
        return None
    return offer if favorite_used(before.setup.components, offer.cards, offer.guest) else None


def _blocked_favourite_poach(before: Any, move: Any, after: Any) -> bool:
    """Just Desserts: a block of a poach made with a favourite, with a favourite the poacher did not
    offer (jd.block.favourite-only-by-other-favourite)."""
    offer = _favourite_poach(before)
    if offer is None:
        return False
    favourites = set(before.setup.components.guest(offer.guest).favorites)
    return bool(set(move.cards) & (favourites - set(offer.cards)))


def _draws_for(state: Any, seat: int) -> int:
    from tablerules.model.just_desserts import DRAW

    return sum(1 for kind, s in state.tasks if kind == DRAW and s == seat)


def _favourite_poach_blocked_untipped(before: Any, move: Any, after: Any) -> bool:
    """Just Desserts: a block of a poach made with a favourite, after which the poacher has no
    more dessert draws due than before (jd.poach.blocked-no-tip)."""
    offer = _favourite_poach(before)
    return offer is not None and _draws_for(after, offer.server) <= _draws_for(before, offer.server)


def _won_by_favourite_trump(before: Any, move: Any, after: Any) -> bool:
    """Version 2.3: another caller trumped the first call by saying it holds a serving with the
    guest's favourite (jd23.call.favourite-trump): a ``favourite`` move while callers are asked."""
    from tablerules.model.just_desserts import v23

    return before.phase == v23.TRUMP and isinstance(move, v23.Favourite)


def _big_hand(before: dict, after: dict, move: Any) -> bool:
    """A hand of twice the deal or more: larger than any limit a player might assume (jd.discard.no-hand-limit)."""
    return any(isinstance(h, list) and len(h) >= 6 for h in after.get("hands", []))


def _stack_height_moved(before: dict, after: dict, move: Any) -> bool:
    """Dishes: a Place moved a stack of two or more tiles (dishes.play.move-whole-stack)."""
    words = str(move).split()
    if len(words) != 4 or words[0] != "place":
        return False
    stack = before.get("places", {}).get(words[1])
    return isinstance(stack, list) and len(stack) > 1


# --------------------------------------------------------------------------- the tables

START_CLAUSES: dict[str, tuple[str, ...]] = {  # the first one is named for a wrong initial state
    "dishes": ("dishes.setup.deal-one-of-each", "dishes.setup.layout", "dishes.setup.sort", "dishes.setup.hidden-backs",
               "dishes.components.players", "dishes.components.tiles", "dishes.components.clean-side"),
    "just-desserts": ("jd.setup.deal-hands", "jd.setup.deal-guests", "jd.setup.piles", "jd.setup.components",
                      "jd.players.count", "jd.first.player"),
    "just-desserts-2.3": ("jd23.setup.shuffle", "jd23.setup.maitre-d", "jd23.setup.players"),
}

START_WHEN: dict[str, tuple[tuple[Callable[[Any], bool], tuple[str, ...]], ...]] = {
    "dishes": ((lambda state: state.setup.players in (2, 3), ("dishes.setup.deal-2-3-unspecified",)),),
    "just-desserts": ((lambda state: _any_variant(state), ("jd.advanced.options",)),),
}
"""Start clauses that hold only for some setups: (test on the initial state, clauses)."""

MOVE_CLAUSES: dict[str, dict[str, tuple[str, ...]]] = {
    "dishes": {
        "FirstPlayer": ("dishes.play.first-player",),
        "Turn": ("dishes.play.turn-own-tile", "dishes.play.one-move"),
        "Reveal": ("dishes.play.turn-own-tile", "dishes.components.colour-sets"),
        "Place": (
            "dishes.play.place-dirty", "dishes.play.place-match", "dishes.play.top-counts", "dishes.play.one-move",
        ),
        "Pass": (),
    },
    "just-desserts": {
        "draw": ("jd.turn.draw-phase",),
        "turn-up": ("jd.setup.deal-guests",),
        "first": ("jd.surprise.first-offered",),
        "serve": ("jd.turn.one-option", "jd.turn.satisfy-guests", "jd.serve.satisfies"),
        "stop": ("jd.turn.satisfy-guests",),
        "kitchen": ("jd.turn.one-option", "jd.turn.kitchen"),
        "dump": ("jd.turn.one-option", "jd.turn.dump-tray"),
        "depart": ("jd.discard.one-per-suit",),
        "poach": ("jd.poach.attempt",),
        "block": ("jd.block.defender", "jd.block.cards-back"),
        "surprise": (
            "jd.surprise.intercept", "jd.surprise.needs-favourite", "jd.surprise.continue", "jd.surprise.no-tip",
        ),
        "buffet": ("jd.buffet.aces", "jd.buffet.draw-three"),
        "return": ("jd.buffet.others-return",),
        "pass": (),
    },
    "just-desserts-2.3": {
        "Deal": ("jd23.setup.deal-five",),
        "TurnUp": ("jd23.round.turn-up-guest",),
        "Call": ("jd23.call.got-it",),
        "Pass": ("jd23.call.pass",),
        "Race": ("jd23.call.first-serves",),
        "Serve": (
            "jd23.serve.reveal-dirty-dishes", "jd23.serve.one-to-three", "jd23.satisfy.tastes",
            "jd23.call.first-serves",
        ),
        "Fail": ("jd23.call.erroneous-covered",),
        "Penalty": ("jd23.call.erroneous-penalty",),
        "Draw": (),
    },
}

CHANGE_CLAUSES: dict[str, tuple[tuple[str, Change, tuple[str, ...]], ...]] = {
    "dishes": (
        ("*", both(changed("turn"), lambda b, a, m: b.get("turn", -1) >= 0), ("dishes.play.clockwise",)),
        ("Place", _stack_height_moved, ("dishes.play.move-whole-stack",)),
        ("Place", _other_layout, ("dishes.play.place-anyone",)),
    ),
    "just-desserts": (
        ("*", grew("guest_discard"), ("jd.discard.doorway",)),
        ("*", grew("dessert_pile"), ("jd.reshuffle.desserts",)),
        ("*", grew("guest_pile"), ("jd.reshuffle.guests",)),
        ("*", became("poach", "blocked"), ("jd.poach.blocked-no-retry",)),
        ("*", became("poach", "done"), ("jd.poach.one-opportunity",)),
        ("*", became_true("shielded"), ("jd.surprise.no-poach-back",)),
        ("*", changed("turn"), ("jd.discard.turn-ends",)),
        ("*", lambda b, a, m: a.get("winner", -1) >= 0 and b.get("winner", -1) < 0, ("jd.win.any-time",)),
        ("*", _poached, ("jd.poach.victim-tip",)),
        ("*", _tipped, ("jd.tip.favourite",)),
        ("block", grew("tasks"), ("jd.tip.block-favourite",)),
        ("*", _big_hand, ("jd.discard.no-hand-limit",)),
        ("*", became_true("returning"), ("jd.buffet.others-return",)),
        ("buffet", changed("phase"), ("jd.buffet.serve-one",)),
    ),
    "just-desserts-2.3": (
        ("*", became_true("kitchen_closed"), ("jd23.kitchen.closes",)),
        ("*", became_true("reshuffled"), ("jd23.guests.reshuffle-once",)),
        ("*", became_true("penalties"), ("jd23.call.erroneous-penalty",)),
        ("*", became_true("mistaken"), ("jd23.call.erroneous-covered",)),
        (
            "*", both(became("phase", "over"), lambda b, a, m: bool(a.get("reshuffled"))),
            ("jd23.end.second-exhaustion",),
        ),
        ("*", changed("guest"), ("jd23.round.five-endings",)),
        ("Pass", grew("discards"), ("jd23.round.all-pass", "jd23.draw.guest-leaves-hungry")),
        ("Serve", became_true("draws"), ("jd23.favourite.extra-card",)),
        ("Race", text_has("simultaneous"), ("jd23.call.simultaneous",)),
        ("Draw", lambda b, a, m: b.get("phase") == "deal", ("jd23.setup.deal-five",)),
        ("Draw", lambda b, a, m: b.get("phase") != "deal" and not b.get("guest"), ("jd23.draw.guest-leaves-hungry",)),
    ),
}

StepTest = Callable[[Any, Any, Any], bool]

STEP_CLAUSES: dict[str, tuple[tuple[str, StepTest, tuple[str, ...]], ...]] = {
    "just-desserts": (
        ("block", _blocked_favourite_poach, ("jd.block.favourite-only-by-other-favourite",)),
        ("block", _favourite_poach_blocked_untipped, ("jd.poach.blocked-no-tip",)),
    ),
    "just-desserts-2.3": (
        ("*", _won_by_favourite_trump, ("jd23.call.favourite-trump",)),
    ),
}
"""Like CHANGE_CLAUSES, for what the state variables alone do not show (which cards are a
guest's favourites, who may serve): (move kind or "*", test(state before, move, state after), clauses)."""

END_CLAUSES: dict[str, tuple[str, ...]] = {
    "dishes": ("dishes.end.no-moves", "dishes.goal"),
}

TURN_CLAUSES: dict[str, str] = {
    "dishes": "dishes.play.clockwise",
    "just-desserts": "jd.turn.one-option",
    "just-desserts-2.3": "jd23.call.got-it",
}
"""The clause that says who acts next: named when a file has the wrong player to move."""

OPTION_CLAUSES: dict[str, tuple[tuple[str, str, Change, tuple[str, ...]], ...]] = {
    "dishes": (
        ("Pass", "only", lambda b, a, m: True, ("dishes.ruling.stuck-player",)),
        ("Pass", "voluntary", lambda b, a, m: True, ("dishes.ruling.voluntary-pass",)),
    ),
}
"""(move kind, "only" / "voluntary" (was it the only legal move?), test, clauses)."""


def _any_variant(state: Any) -> bool:
    """Is any optional rule switched on (Options classes use slots, so no vars())?"""
    import dataclasses

    options = state.setup.options
    return any(f.metadata.get("variant") and getattr(options, f.name) for f in dataclasses.fields(options))


NOT_PLAY: dict[str, tuple[str, ...]] = {
    "dishes": ("dishes.example.",),
    "just-desserts": ("jd.turn.example", "jd.suits.six", "jd.tastes.icons"),
    "just-desserts-2.3": ("jd23.favourite.nature-girl", "jd23.tips."),
}
"""Clauses (or id prefixes) that state facts about the components or give worked examples:
no step of play exercises them; the proofs check them.  The coverage table lists them apart."""


def is_play_clause(ruleset_id: str, clause: str) -> bool:
    """False for clauses about the components or worked examples (see NOT_PLAY)."""
    prefixes = NOT_PLAY.get(ruleset_id)
    if prefixes is None:
        return ".example" not in clause
    return not any(
        clause == p or (p.endswith(".") and clause.startswith(p)) or clause.startswith(p + ".") for p in prefixes
    )


# --------------------------------------------------------------------------- lookups


def move_kind(move: Any) -> str:
    """`serve` for moves with a ``verb``; else the class name (`Place`, `TurnUp`)."""
    verb = getattr(move, "verb", None)
    return verb if isinstance(verb, str) else type(move).__name__


def _spec_clause_ids(rules: RuleSet) -> list[str]:
    from tablerules.spec.loader import SpecError, load_spec

    try:
        return list(load_spec(rules.id).clauses)
    except (SpecError, OSError):
        return []


def _generic_move_clauses(rules: RuleSet, kind: str) -> tuple[str, ...]:
    """Spec clauses whose last id part shares a word with the move kind (for rule sets without a table)."""
    words = {w for w in _split_words(kind) if len(w) > 2}
    return tuple(c for c in _spec_clause_ids(rules) if words & set(c.rsplit(".", 1)[-1].split("-")))


def _split_words(kind: str) -> list[str]:
    out, word = [], ""
    for ch in kind:
        if ch.isupper() and word:
            out.append(word.lower())
            word = ""
        if ch.isalnum():
            word += ch
        elif word:
            out.append(word.lower())
            word = ""
    if word:
        out.append(word.lower())
    return out


def start_clauses(rules: RuleSet, state: Any) -> list[str]:
    """Clauses the initial state shows (the deal, the layout)."""
    if rules.id in START_CLAUSES:
        out = list(START_CLAUSES[rules.id])
        for test, clauses in START_WHEN.get(rules.id, ()):
            if test(state):
                out += clauses
        return out
    return [c for c in _spec_clause_ids(rules) if ".setup." in c]


def transition_clauses(rules: RuleSet, before: Any, move: Any, after: Any, actor: Any = None) -> list[str]:
    """Every clause the step before --move--> after exercises, in a stable order."""
    kind = move_kind(move)
    out: list[str] = []
    table = MOVE_CLAUSES.get(rules.id)
    out += table.get(kind, ()) if table is not None else _generic_move_clauses(rules, kind)
    sv_before, sv_after = rules.state_vars(before), rules.state_vars(after)
    for want_kind, test, clauses in CHANGE_CLAUSES.get(rules.id, ()):
        if want_kind in ("*", kind) and test(sv_before, sv_after, move):
            out += clauses
    for want_kind, step_test, clauses in STEP_CLAUSES.get(rules.id, ()):
        if want_kind in ("*", kind) and step_test(before, move, after):
            out += clauses
    for want_kind, when, test, clauses in OPTION_CLAUSES.get(rules.id, ()):
        if want_kind == kind and actor is not CHANCE and test(sv_before, sv_after, move):
            try:
                only = len(rules.legal_moves(before)) == 1
            except RuleGap:
                only = True
            if (when == "only") == only:
                out += clauses
    out += end_clauses(rules, after)
    return _unique(out)


def end_clauses(rules: RuleSet, state: Any) -> list[str]:
    """At a terminal state: the outcome's clause and the rule set's end clauses."""
    try:
        if rules.to_move(state) is not TERMINAL:
            return []
        result = rules.outcome(state)
    except RuleGap as gap:
        return [gap.ruling]
    out = list(END_CLAUSES.get(rules.id, ()))
    if result is not None and result.clause:
        out.append(result.clause)
    return out


def turn_clause(rules: RuleSet) -> str:
    """The clause naming whose turn it is (for a wrong player to move)."""
    if rules.id in TURN_CLAUSES:
        return TURN_CLAUSES[rules.id]
    ids = _spec_clause_ids(rules)
    return next((c for c in ids if ".turn." in c or ".play." in c), "")


def end_clause(rules: RuleSet) -> str:
    """The clause that says when play stops (for a trace that claims an end too early)."""
    return END_CLAUSES.get(rules.id, (turn_clause(rules),))[0]


def chance_clause(rules: RuleSet, state: Any, move: Any) -> str:
    """The clause that governs a chance event (for a wrong probability or outcome list):
    the most specific clause its kind maps to, else the first clause the step exercises."""
    if move is None:
        try:
            outs = rules.chance_outcomes(state)
        except RuleGap as gap:
            return gap.ruling
        move = outs[0][0] if outs else None
    if move is None:
        return "core.chance"
    kind = move_kind(move)
    table = MOVE_CLAUSES.get(rules.id)
    clauses = table.get(kind, ()) if table is not None else _generic_move_clauses(rules, kind)
    if clauses:
        return clauses[-1]
    try:
        step = transition_clauses(rules, state, move, rules.apply(state, move), CHANCE)
    except Exception:  # noqa: BLE001 - an impossible outcome has no step to look at
        step = []
    return step[0] if step else "core.chance"


def move_clause(rules: RuleSet, state: Any, text: str) -> str:
    """The clause that allows the move ``text`` (for a legal move a file leaves out)."""
    try:
        move = rules.parse_move(text, state.setup)
    except MoveSyntaxError:
        return turn_clause(rules)
    kind = move_kind(move)
    table = MOVE_CLAUSES.get(rules.id)
    clauses = table.get(kind, ()) if table is not None else _generic_move_clauses(rules, kind)
    return clauses[0] if clauses else turn_clause(rules)


def parsed(rules: RuleSet, state: Any, text: str) -> Any:
    """The move ``text`` names in this state's setup, or None when it names none."""
    try:
        return rules.parse_move(text, state.setup)
    except (MoveSyntaxError, ValueError):
        return None


def forbidding_clause(rules: RuleSet, state: Any, text: str) -> str:
    """The clause that forbids the move ``text`` here (the turn's clause for text that is no move): for a move
    another engine allows and we do not."""
    move = parsed(rules, state, text)
    if move is None:
        return turn_clause(rules)
    try:
        return rules.illegal_reason(state, move) or turn_clause(rules)
    except (RuleGap, ValueError):
        return turn_clause(rules)


def first_clause(clauses: Iterable[str], rules: RuleSet) -> str:
    """The clause to name for a wrong state after a step: the step's most specific clause."""
    clauses = list(clauses)
    return clauses[0] if clauses else turn_clause(rules)


def _unique(items: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for c in items:
        if c and c not in seen:
            seen.append(c)
    return seen


def option_keys(options_text: dict[str, Any], defaults: dict[str, Any]) -> list[str]:
    """`ruling=alternative` for every ruling (and `option=on` for variants) in force, for the ruling coverage table."""
    out = []
    for k, v in options_text.items():
        if isinstance(v, bool):
            if v:
                out.append(f"{k}=on")
        else:
            out.append(f"{k}={v}")
    return sorted(out)
