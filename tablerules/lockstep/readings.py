"""Which independent reading answers for a rule set, and how it is run in process.

A reading is a package of ``tablerules.readings`` with a class ``Engine`` whose
``handle(request) -> reply`` speaks the ``conform`` protocol (``tablerules-conform/1``) and whose
instances ``copy.deepcopy`` branches.  :class:`Reading` wraps one game of it: the requests of
the protocol as methods, each reply checked for its form, and :meth:`Reading.fork` for a branch.
A reply of the wrong form, or an exception inside the reading, is a :class:`ReadingError`: a
defect of the reading, reported with the request, never a traceback.
"""

from __future__ import annotations

import copy
import importlib
from fractions import Fraction
from pathlib import Path
from typing import Any

from tablerules.model.core import Setup, options_text, variant_fields

READINGS = {
    "just-desserts": "tablerules.readings.just_desserts",
    "just-desserts-2.3": "tablerules.readings.just_desserts_v23",
    "dishes": "tablerules.readings.dishes",
}
"""Rule set id -> the package of its independent reading (its author's brief: BRIEF.md beside it)."""

PROTOCOL = "tablerules-conform/1"


class ReadingError(Exception):
    """The reading broke the protocol or raised: one line naming the request."""


def reading_module(ruleset_id: str, module: str | None = None) -> str:
    """The package of the reading to run (``module`` if given); ReadingError if the rule set has none."""
    name = module or READINGS.get(ruleset_id)
    if name is None:
        known = ", ".join(sorted(READINGS))
        raise ReadingError(f"{ruleset_id}: no independent reading (readings exist for {known})")
    return name


def load_engine_class(module: str) -> type:
    """The engine class of ``module`` (``package`` or ``package:Class``; the class ``Engine`` by default)."""
    name, _, cls_name = module.partition(":")
    try:
        mod = importlib.import_module(name)
    except ImportError as e:
        raise ReadingError(f"reading {name}: cannot be imported ({e})") from None
    cls = getattr(mod, cls_name or "Engine", None)
    if cls is None:
        raise ReadingError(f"reading {name}: has no class {cls_name or 'Engine'}")
    return cls


def reading_options(options: Any) -> dict[str, Any]:
    """What a reading is told of the options: the optional rules only, never our rulings (a reading
    knows nothing of the register)."""
    names = set(variant_fields(type(options)))
    return {k: v for k, v in options_text(options).items() if k in names}


def deck_file(components: Any, argument: str | None) -> str | None:
    """The card-list file a reading loads for these components: ``argument`` when it is a file, else the
    embedded deck of that name (spec/decks/NAME.json)."""
    if components is None:
        return None
    if argument and Path(argument).is_file():
        return str(Path(argument).resolve())
    name = getattr(components, "name", None)
    from importlib import resources

    path = resources.files("tablerules.spec").joinpath("decks", f"{name}.json")
    return str(path) if path.is_file() else argument


class Reading:
    """One game of a reading, asked through its ``handle``."""

    def __init__(self, engine_cls: type, module: str) -> None:
        self.module = module
        try:
            self.engine = engine_cls()
        except Exception as e:  # a reading's own defect: reported, never a traceback
            raise ReadingError(f"reading {module}: Engine() raised {type(e).__name__}: {e}") from None
        hello = self._ask({"op": "hello", "protocol": PROTOCOL})
        if hello.get("protocol") != PROTOCOL:
            raise ReadingError(f"reading {module}: hello answered protocol {hello.get('protocol')!r}")

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            reply = self.engine.handle(dict(request))
        except Exception as e:  # a reading's own defect: reported, never a traceback
            raise ReadingError(f"reading {self.module}: {request['op']} raised {type(e).__name__}: {e}") from None
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            raise ReadingError(f"reading {self.module}: reply to {request['op']} is not an object with 'ok'")
        return reply

    def _need(self, reply: dict[str, Any], key: str, op: str) -> Any:
        if not reply.get("ok") or key not in reply:
            raise ReadingError(f"reading {self.module}: reply to {op} has no {key!r} ({str(reply)[:80]})")
        return reply[key]

    def fork(self) -> "Reading":
        """An independent copy of this game in progress."""
        twin = copy.copy(self)
        twin.engine = copy.deepcopy(self.engine)
        return twin

    def new_game(self, ruleset_id: str, setup: Setup, deck: str | None, seed: int = 0) -> str | None:
        """Start a game; the reason the reading declines this setup, or None."""
        comp = setup.components
        components = None if comp is None else {"name": getattr(comp, "name", str(comp)), "argument": deck or ""}
        reply = self._ask({"op": "new_game", "ruleset": ruleset_id, "players": setup.players,
                           "options": reading_options(setup.options), "components": components, "seed": seed})
        if not reply["ok"]:
            return str(reply.get("unsupported") or reply.get("error") or "declined")
        return None

    def to_move(self) -> str:
        return str(self._need(self._ask({"op": "to_move"}), "to_move", "to_move"))

    def legal_moves(self) -> list[str]:
        moves = self._need(self._ask({"op": "legal_moves"}), "moves", "legal_moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise ReadingError(f"reading {self.module}: legal_moves is not a list of move texts")
        return moves

    def chance_outcomes(self) -> dict[str, Fraction]:
        outs = self._need(self._ask({"op": "chance_outcomes"}), "outcomes", "chance_outcomes")
        try:
            return {str(m): Fraction(str(p)) for m, p in outs}
        except (TypeError, ValueError, ZeroDivisionError):
            raise ReadingError(f"reading {self.module}: chance_outcomes is not a list of [move, \"p/q\"]") from None

    def apply(self, move: str) -> str | None:
        """Play ``move``; the reading's reason if it refuses it, else None."""
        reply = self._ask({"op": "apply", "move": move})
        return None if reply["ok"] else str(reply.get("refused") or reply.get("error") or "refused")

    def observation(self, seat: int) -> Any:
        return self._need(self._ask({"op": "observation", "seat": seat}), "observation", "observation")

    def outcome(self) -> dict[str, Any] | None:
        return self._need(self._ask({"op": "outcome"}), "outcome", "outcome")
