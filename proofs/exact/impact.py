"""What each ruling alternative changes, exactly: the exact engine on every finite alternative.

For a rule set with a compact kernel, :func:`solve_alternatives` solves the default and then
each alternative of each ruling (one at a time, the others at their defaults) that keeps the
game finite (no ``strict`` alternative: it stops at a gap; no voluntary passes: a game need
not end).  The results are kept as one JSON document (``spec/solved/<ruleset>-<n>p-<tiles>.json``)
because the boxed game takes minutes per alternative; the document names the command that
remakes it and a digest of the sources it depends on, so a report can tell when it is stale.
"""

from __future__ import annotations

import dataclasses
import json
import re
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from tablerules.model import registry
from tablerules.model.core import STRICT, SetupError, ruling_fields

from .run import Executor, play_key, solve_together

def sources_digest() -> str:
    """The digest a solved document carries as ``sources``: what decides its figures
    (:mod:`.solved_digest`: the rulings, the step API's play as data, the kernel's files)."""
    from .solved_digest import solved_digest

    return solved_digest()


def finite_alternatives(ruleset: str, setup_for: Callable[[Any], Any], players: int) -> list[tuple[str, str, Any]]:
    """(ruling id, alternative, options) for the default and every alternative the exact engine
    takes.  Rulings named for another player count (``...deal-3-players`` with two players)
    change nothing here and are left out."""
    rules = registry.get(ruleset)
    out = [("default", "", rules.Options())]
    for rid, f in ruling_fields(rules.Options).items():
        named = re.search(r"-(\d)-players$", rid)
        if named and int(named.group(1)) != players:
            continue
        for alt in f.metadata["alternatives"][1:]:
            if alt == STRICT:
                continue
            options = dataclasses.replace(rules.Options(), **{f.name: alt})
            try:
                registry.kernel(ruleset, setup_for(options))
            except SetupError:
                continue  # no progress measure, or not for this player count
            out.append((rid, alt, options))
    return out


def _fraction(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"


def solve_alternatives(ruleset: str, players: int, components: Any, *, run: Executor | None = None,
                       parts: int | None = None, max_states: int | None = None, max_seconds: float | None = None,
                       progress: Callable[[str], None] | None = None,
                       labels: set[str] | None = None, segment: int | None = None,
                       share: bool = True) -> dict[str, Any]:
    """Solve the default and every finite alternative; a JSON-able document of the results.

    ``max_states`` and ``max_seconds`` apply to each alternative on its own: an alternative
    whose game is too large for the machine stops at the state budget, deterministically,
    and its row says so.  ``segment`` (rows) bounds each counting task (no figure changes).
    ``labels``: only the rows of these labels (``default``,
    ``stuck-player=game-ends``...).  With ``share``, alternatives that play the same game and
    only score its ends otherwise are solved over one state graph (counted once); each row's
    ``seconds`` then counts the counting for the first of them only."""
    rules = registry.get(ruleset)
    say = progress or (lambda text: None)

    def setup_for(options: Any) -> Any:
        return rules.setup(players, options, components)

    chosen = []
    for rid, alt, options in finite_alternatives(ruleset, setup_for, players):
        label = "default" if rid == "default" else f"{rid.split('.ruling.')[-1]}={alt}"
        if labels is None or label in labels:
            chosen.append((rid, alt, label, options))
    kernels: dict[str, Any] = {}
    for rid, alt, label, options in chosen:
        try:
            kernels[label] = registry.kernel(ruleset, setup_for(options))
        except SetupError as e:
            kernels[label] = e
    keys = {label: play_key(k) if share and not isinstance(k, SetupError) else None for label, k in kernels.items()}
    solved: dict[str, Any] = {}
    rows = []
    for rid, alt, label, options in chosen:
        kern = kernels[label]
        if isinstance(kern, SetupError):
            rows.append({"ruling": rid, "alternative": alt, "label": label, "complete": False, "stopped": str(kern)})
            continue
        if label not in solved:
            group = [other for other in kernels if other not in solved
                     and (other == label or (keys[label] is not None and keys[other] == keys[label]))]
            say(f"solving {', '.join(group)}" + (" over one state graph" if len(group) > 1 else ""))
            sols = solve_together([kernels[g] for g in group], run=run, parts=parts, max_states=max_states,
                                  max_seconds=max_seconds, segment=segment,
                                  progress=lambda text, name=group[0]: say(f"{name}: {text}"))  # its levels too
            solved.update(zip(group, sols))
        sol = solved[label]
        row: dict[str, Any] = {"ruling": rid, "alternative": alt, "label": label, "complete": sol.complete,
                               "stopped": sol.stopped or None, "table_states": sol.total("table_states"),
                               "engine_states": sol.total("nodes"), "longest_game_actions": sol.longest_game_actions,
                               "seconds": round(sol.seconds, 1)}
        for name, values in (("random_play", sol.random_play), ("optimal_play", sol.optimal_play)):
            if values is not None:
                row[name] = {"seat_among_losers": [_fraction(x) for x in values.among_losers],
                             "seat_sole_loser": [_fraction(x) for x in values.sole_loser],
                             "expected_actions": _fraction(values.expected_actions)}
        rows.append(row)
    return {"ruleset": ruleset, "players": players, "components": components.name, "sources": sources_digest(),
            "command": f"tablerules solve {ruleset} --players {players} --deck {deck_argument(components)} "
                       "--every-alternative "
                       + (f"--max-states {max_states} " if max_states is not None else "")
                       + (f"--partitions {parts} " if parts is not None else "")
                       + f"--out {default_path(ruleset, players, components)}",
            "alternatives": rows}


def deck_argument(components: Any) -> str:
    """The --deck text that loads these components again: ``box``, or KINDSxCOLOURS for a smaller tile set."""
    types, colours = getattr(components, "types", None), getattr(components, "colours", None)
    if components.name == "box" or types is None or colours is None:
        return components.name
    return f"{types}x{colours}"


def default_path(ruleset: str, players: int, components: Any) -> str:
    return f"spec/solved/{ruleset}-{players}p-{components.name}.json"


def load(ruleset: str, players: int, components: Any) -> dict[str, Any] | None:
    """The stored document for this configuration, with ``stale`` set if the sources changed since."""
    name = Path(default_path(ruleset, players, components)).name
    path = resources.files("tablerules.spec").joinpath("solved", name)
    if not path.is_file():
        return None
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["stale"] = doc.get("sources") != sources_digest()
    return doc


def random_play_on_record(rules: Any, setup: Any) -> tuple[dict[str, list[Fraction]] | None, str]:
    """The exact values for uniform random play that spec/solved/ holds for this setup
    (``among_losers`` and ``sole_loser`` per seat), and where they come from; or None and why
    there are none.  The file holds the default and each ruling changed alone."""
    if registry.ENTRIES[rules.id].kernel is None:
        return None, "none: the exact engine cannot run this rule set"
    doc = load(rules.id, setup.players, setup.components) if setup.components is not None else None
    if doc is None:
        return None, "none on record for this player count and tile set (tablerules solve computes them)"
    if doc["stale"]:
        return None, "none: spec/solved/ is stale (the sources changed since it was solved)"
    default = rules.Options()
    changed = [(rid, getattr(setup.options, f.name)) for rid, f in ruling_fields(rules.Options).items()
               if getattr(setup.options, f.name) != getattr(default, f.name)]
    want = ("default", "") if not changed else changed[0] if len(changed) == 1 else None
    row = next((r for r in doc["alternatives"] if want is not None and (r["ruling"], r["alternative"]) == want), None)
    if row is None or not row.get("random_play"):
        return None, ("none on record for these rulings (spec/solved/ holds the default and one ruling changed "
                      "at a time)")
    values = {key: [Fraction(x) for x in row["random_play"][f"seat_{key}"]] for key in ("among_losers", "sole_loser")}
    return values, f"{default_path(rules.id, setup.players, setup.components)}, {row['label']}"
