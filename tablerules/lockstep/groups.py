"""Differences grouped, and each group tried under every alternative of every registered ruling.

A group is every part with the same aspect, model decision point, clause and kind
(:attr:`.compare.Part.key`).  It keeps its count, the configurations it was seen in, and its
shortest sightings (the first one found breadth-first is a shortest witness from the deal).
:func:`explain` replays each kept sighting with one ruling set to another alternative (the
reading, which knows no rulings, replays it unchanged) and asks whether the part is still there:
a group whose every kept sighting loses its part under an alternative is that ruling *found
again*; a group that no alternative explains is a *finding*.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from tablerules.model.core import STRICT, IllegalMove, MoveSyntaxError, RuleGap, RuleSet, ruling_fields

from .compare import decision_point, look
from .readings import Reading, ReadingError
from .walk import Config, Sighting

KEEP = 3
"""Sightings a group keeps (its shortest) and replays under each alternative."""


@dataclass
class Group:
    key: tuple[str, str, str, str]
    count: int = 0
    configs: Counter = field(default_factory=Counter)
    subjects: Counter = field(default_factory=Counter)
    kept: list[Sighting] = field(default_factory=list)
    explained_by: list[tuple[str, str]] = field(default_factory=list)
    """(ruling id, alternative) under which every kept sighting's part disappears; for two rulings at once,
    `R1 + R2` and `A1 + A2`."""

    @property
    def aspect(self) -> str:
        return self.key[0]

    @property
    def witness(self) -> Sighting:
        return self.kept[0]

    def status(self) -> str:
        return "ruling found again" if self.explained_by else "finding"

    def add(self, s: Sighting) -> None:
        self.count += 1
        self.configs[s.config.label()] += 1
        self.subjects[s.part.subject] += 1
        if len(self.kept) < KEEP or len(s.path) < len(self.kept[-1].path):
            if any(k.part.subject == s.part.subject and k.config == s.config and len(k.path) <= len(s.path)
                   for k in self.kept):
                return
            self.kept.append(s)
            self.kept.sort(key=lambda k: len(k.path))
            del self.kept[KEEP:]

    def to_json(self) -> dict[str, Any]:
        aspect, point, clause, kind = self.key
        w = self.witness
        return {
            "aspect": aspect, "point": point, "clause": clause, "kind": kind, "count": self.count,
            "status": self.status(),
            "explained_by": [{"ruling": r, "alternative": a} for r, a in self.explained_by],
            "configs": dict(self.configs.most_common()),
            "subjects": dict(self.subjects.most_common(5)),
            "witness": {"config": w.config.label(), "kind": w.config.kind, "players": w.config.players,
                        "deck": w.config.deck, "variants": list(w.config.variants), "rulings": w.config.rulings(),
                        "moves": list(w.path),
                        "length": len(w.path), "part": w.part.to_json()},
        }


class Groups:
    """Every sighting, grouped."""

    def __init__(self) -> None:
        self.by_key: dict[tuple[str, str, str, str], Group] = {}

    def record(self, s: Sighting) -> None:
        g = self.by_key.get(s.part.key)
        if g is None:
            g = self.by_key[s.part.key] = Group(s.part.key)
        g.add(s)

    def ordered(self) -> list[Group]:
        """Findings first, then by aspect and count."""
        return sorted(self.by_key.values(), key=lambda g: (bool(g.explained_by), g.key[0], -g.count, g.key))


SetupOf = Callable[[Config, Any], Any]
"""(config, options) -> a Setup of ours for that configuration under those options."""


def alternatives(rules: RuleSet) -> list[tuple[str, str, str]]:
    """(ruling id, Options field, alternative) for every non-strict alternative of every ruling."""
    out = []
    for rid, f in ruling_fields(rules.Options).items():
        out += [(rid, f.name, alt) for alt in f.metadata["alternatives"] if alt != STRICT]
    return out


def _replay_model(rules: RuleSet, setup: Any, path: tuple[str, ...]) -> Any | None:
    state = rules.new_game(setup)
    try:
        for text in path:
            move = rules.parse_move(text, setup)
            if rules.illegal_reason(state, move) is not None:
                return None
            state = rules.apply(state, move)
    except (IllegalMove, MoveSyntaxError, RuleGap, ValueError):
        return None
    return state


def explain(rules: RuleSet, groups: Groups, setup_of: SetupOf, new_reading: Callable[[], Reading],
            deck_file_of: Callable[[Config], str | None], progress: Callable[[int], None] = lambda n: None) -> None:
    """Fill each group's ``explained_by``: the alternatives under which its kept sightings' parts vanish."""
    alts = alternatives(rules)
    readings: dict[tuple[Config, tuple[str, ...]], Reading | None] = {}

    def reading_at(s: Sighting) -> Reading | None:
        key = (s.config, s.path)
        if key not in readings:
            rd = new_reading()
            base = setup_of(s.config, None)
            ok = rd.new_game(rules.id, base, deck_file_of(s.config)) is None
            for text in s.path:
                if not ok:
                    break
                ok = rd.apply(text) is None
            readings[key] = rd if ok else None
        found = readings[key]
        return None if found is None else found.fork()

    ordered = groups.ordered()
    for done, g in enumerate(ordered, 1):
        progress(done)
        for rid, fname, alt in alts:
            if all(_vanishes(rules, s, ((fname, alt),), setup_of, reading_at) for s in g.kept):
                g.explained_by.append((rid, alt))
    # a group may need two rulings at once (a reshuffle and an end, say): pair each alternative found above
    # with every other one
    found = sorted({(rid, alt) for g in ordered for rid, alt in g.explained_by if " + " not in rid})
    field_of = {rid: fname for rid, fname, _ in alts}
    for done, g in enumerate(ordered, 1):
        progress(done)
        if g.explained_by:
            continue
        tried: set[frozenset[tuple[str, str]]] = set()
        for rid1, alt1 in found:
            for rid, fname, alt in alts:
                both = frozenset({(rid1, alt1), (rid, alt)})
                if rid == rid1 or both in tried:
                    continue
                tried.add(both)
                pair = ((field_of[rid1], alt1), (fname, alt))
                if all(_vanishes(rules, s, pair, setup_of, reading_at) for s in g.kept):
                    g.explained_by.append((f"{rid1} + {rid}", f"{alt1} + {alt}"))


def _vanishes(rules: RuleSet, s: Sighting, change: tuple[tuple[str, str], ...], setup_of: SetupOf,
              reading_at: Callable[[Sighting], Reading | None]) -> bool:
    """Does the sighting's part vanish with these Options fields set to these alternatives?"""
    base = setup_of(s.config, None)
    if any(getattr(base.options, fname) == alt for fname, alt in change):
        return False
    setup = setup_of(s.config, dataclasses.replace(base.options, **dict(change)))
    state = _replay_model(rules, setup, s.path)
    rd = reading_at(s)
    if state is None or rd is None:
        return False
    try:
        seen = look(rules, state, rd)
    except (RuleGap, ReadingError):
        return False
    if s.part.aspect == "state":  # the same moves leave both games in the same position under the alternative
        return not seen.apart
    if decision_point(rules, state, seen.actor) != s.part.at:
        return False  # the alternative moved play elsewhere (ended it, say): that explains nothing
    return not seen.apart and not any(p.aspect == s.part.aspect and p.subject == s.part.subject for p in seen.parts)
