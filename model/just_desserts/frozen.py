"""A fast ``dataclasses.replace`` for the frozen states of both editions (the hot path of play)."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

# functions that decide nothing about play, and why (the decision-point finder reads this)
PLUMBING = {
    "replacer.changing": "a field the class lacks; each field given or copied",
    "replacer.replace": "the function for these fields, made the first time",
    "replacer.builder": "the function for these fields, made the first time",
}


def replacer(cls: type) -> Callable[..., Any]:
    """A function ``(state, **changes) -> state`` like ``dataclasses.replace`` for a slotted
    frozen dataclass without ``__post_init__``, without its per-call field checks.

    A frozen dataclass fills its slots through ``object.__setattr__``, one call per field.  The
    new state is instead built as an instance of a plain twin class with the same slots (whose
    ``__init__`` stores them directly) and then given the frozen class: the same object in the
    end.  For each set of changed fields (in the order a call names them) a small function is
    written once that passes the twin every field, the unchanged ones read straight off the
    state, so a call reads no field by name and builds no list."""
    fields = cls.__slots__
    twin = dataclasses.make_dataclass(f"_{cls.__name__}Twin", [(name, Any) for name in fields], slots=True, eq=False,
                                      repr=False, match_args=False)
    assert twin.__slots__ == fields and twin.__basicsize__ == cls.__basicsize__
    made: dict[tuple[str, ...], Callable[..., Any]] = {}

    def changing(names: tuple[str, ...]) -> Callable[..., Any]:
        """The function that builds a state with these fields given and the others copied."""
        unknown = [name for name in names if name not in fields]
        if unknown:
            raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
        args = ", ".join(name if name in names else f"state.{name}" for name in fields)
        source = (f"def build(state, {', '.join(names)}):\n"
                  f"    made = twin({args})\n"
                  "    made.__class__ = cls\n"
                  "    return made\n")
        scope: dict[str, Any] = {"twin": twin, "cls": cls}
        exec(source, scope)  # noqa: S102 - the source is built from the class's own field names
        build = made[names] = scope["build"]
        return build

    def replace(state: Any, **changes: Any) -> Any:
        names = tuple(changes)
        build = made.get(names) or changing(names)
        return build(state, **changes)

    def builder(*names: str) -> Callable[..., Any]:
        """``replace`` for a hot call site that always changes these fields: called as ``build(state, *values)``,
        the values in this order, without packing them as keywords (about half the cost of ``replace``)."""
        return made.get(names) or changing(names)

    replace.__doc__ = f"``dataclasses.replace`` for {cls.__name__}, without its per-call overhead."
    replace.builder = builder  # type: ignore[attr-defined]
    # Forgotten with the model's other caches (a builder already handed out stays valid): whoever empties them
    # sees the same lines run whatever ran before in the process.
    replace.cache_clear = made.clear  # type: ignore[attr-defined]
    return replace
