"""The lockstep's report: what each configuration covered, every group of differences, and each
finding with its shortest witness; the same content as one JSON body (``tablerules readings --json``).

Units: a *state* is a distinct position of the model (every-state walks) or a position of a game
(random games); a *move* is a seat's move or a chance outcome; a *part* is one point where the
model and the reading part at one state (a move one side lists, an observation key, ...).
A run has rounds: the first with the model at its defaults, a later one with the model set to the
alternatives that explained the groups before it (so it walks past them and sees what they hid).
"""

from __future__ import annotations

from typing import Any, TextIO

from tablerules import console
from tablerules.console import plural

from .groups import Group
from .run import Result

WITNESS_MOVES_SHOWN = 60


def summary(result: Result) -> dict[str, int]:
    groups = [g for _, g in result.all_groups()]
    walked = result.walked
    return {"rounds": len(result.rounds), "groups": len(groups),
            "findings": sum(1 for g in groups if not g.explained_by),
            "rulings_found_again": sum(1 for g in groups if g.explained_by),
            "parts": sum(g.count for g in groups), "states": sum(w.states for w in walked),
            "games": sum(w.games for w in walked), "moves": sum(w.moves for w in walked),
            "incomplete_configs": sum(1 for w in walked if not w.complete)}


def found_again(result: Result) -> list[str]:
    """Every ruling some group is explained by, sorted."""
    return sorted({r for _, g in result.all_groups() for rids, _ in g.explained_by for r in rids.split(" + ")})


def body(result: Result) -> dict[str, Any]:
    return {"ruleset": result.ruleset, "reading": result.reading, "summary": summary(result),
            "rulings_found_again": found_again(result),
            "rounds": [{"round": r.number, "aligned": [f"{rid}={alt}" for rid, alt in r.aligned]}
                       for r in result.rounds],
            "configs": [dict(w.to_json(), round=r.number) for r in result.rounds for w in r.walked],
            "groups": [dict(g.to_json(), round=n) for n, g in result.all_groups()]}


def _explained(g: Group) -> str:
    if not g.explained_by:
        return "FINDING"
    return ", ".join(" + ".join(f"{r1.split('.ruling.', 1)[-1]}={a1}" for r1, a1 in zip(r.split(" + "), a.split(" + ")))
                     for r, a in g.explained_by)


def write(result: Result, out: TextIO) -> None:
    s = summary(result)
    out.write(f"lockstep: {result.ruleset} beside the independent reading {result.reading}\n")
    for r in result.rounds:
        out.write(f"\nround {r.number}: the model " + (
            "at its defaults" if not r.aligned else
            "aligned with what round {} explained: {}".format(
                r.number - 1, ", ".join(f"{rid.split('.ruling.', 1)[-1]}={alt}" for rid, alt in r.aligned))) + "\n\n")
        rows = [(w.config.label(), w.config.kind, f"{w.states:,}", f"{w.games:,}" if w.games else "",
                 f"{w.moves:,}" if w.moves else "", "yes" if w.complete else ("declined" if w.declined else "budget"),
                 f"{w.parts:,}") for w in r.walked]
        out.write("What was walked (state: a distinct model state, or a position of a random game; move: a seat's "
                  "move or a chance outcome; part: one point where the two part at a state)\n")
        console.table(rows, ["configuration", "walk", "states", "games", "moves", "complete", "parts"], out=out)
        out.write("\n")
        groups = r.groups.ordered()
        if not groups:
            out.write(f"round {r.number}: no difference: the model and the reading agree at every state walked\n")
            continue
        found = sum(1 for g in groups if not g.explained_by)
        rows = [(i, "finding" if not g.explained_by else "found again", g.key[0], g.key[1], g.key[2], g.key[3],
                 f"{g.count:,}", len(g.witness.path), _explained(g)) for i, g in enumerate(groups, 1)]
        console.table(rows, ["#", "status", "aspect", "model's decision point", "clause", "kind", "parts",
                             "witness moves", "explained by"], out=out,
                      title=f"round {r.number}: {plural(len(groups), 'group')} of differences: "
                            f"{plural(found, 'finding')}, {len(groups) - found} explained by a registered ruling")
        for i, g in enumerate(groups, 1):
            if not g.explained_by:
                _finding(out, r.number, i, g)
    out.write(f"\n{plural(s['findings'], 'finding')} in {plural(s['rounds'], 'round')}; rulings found again: "
              + (", ".join(x.split(".ruling.", 1)[-1] for x in found_again(result)) or "none") + "\n")


def _finding(out: TextIO, number: int, i: int, g: Group) -> None:
    w = g.witness
    out.write(f"\nfinding {number}.{i}: {g.key[0]} at {g.key[1]} [{g.key[2]}], {g.count:,} parts in "
              f"{plural(len(g.configs), 'configuration')}\n")
    out.write(f"  {w.part.subject}: ours {w.part.ours}; the reading's {w.part.theirs}\n")
    shown = ", ".join(w.path[:WITNESS_MOVES_SHOWN]) + (" ..." if len(w.path) > WITNESS_MOVES_SHOWN else "")
    where = f"{w.config.label()}, {w.config.kind}, {len(w.path)} moves"
    out.write(f"  shortest witness ({where}): {shown or '(the deal)'}\n")
