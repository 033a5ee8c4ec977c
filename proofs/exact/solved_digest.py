"""What decides the stored exact figures (``spec/solved/``), as one digest.

The figures of a solved game follow from the rules as played, not from the bytes of the files
that play them.  The digest therefore covers

* the rulings of the spec (each ruling's id, default and alternatives, in order): they name
  the rows of a solved document; the spec's prose, citations and register notes decide no
  figure;
* the step API's behaviour (``model/dishes/game.py`` through the core API), as data: for the
  default and every alternative of every ruling but ``strict``, on each of
  :data:`CONFIGS`, every state reachable from the deal in breadth-first order with its state
  variables, the player to move, the outcome and each successor (move text, probability,
  the successor's place in that order);
* the exact engine's kernel (the rule set's compact kernel, which computed the figures), as
  data too: for the same readings and tables, every canonical row reachable from its start,
  level by level, with the start's probabilities, each row's level, history weight and action
  count, every child edge (parent, action, child, chance odds) sorted, the rows where a player
  passed, and the losers of every finished row.

So a refactor of the rules or of the kernel that keeps the play keeps the digest (and the
figures stay valid), wherever the code lives; a change of play on any of these small tile sets
changes it.  What the small tile sets cannot see, a regression in the slow tier does: every
finite alternative solved on 4 x 4 and compared with
``spec/solved/dishes-2p-4-types-4-colours.json``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from tablerules.model import registry
import numpy as np

from tablerules.model.core import STRICT, RuleGap, SetupError, ruling_fields

RULESET = "dishes"
CONFIGS = ((2, "2x2"), (2, "2x3"), (3, "1x3"), (4, "1x4"))
"""(players, tile set) played out whole for the digest: small enough that every alternative
takes well under a second in all, with two, three and four players."""


def _rulings_part() -> bytes:
    """Each ruling's id, default and alternatives, in order, as canonical JSON."""
    spec = tomllib.loads(resources.files("tablerules.spec").joinpath("dishes.toml").read_text(encoding="utf-8"))
    rulings = [[r["id"], r["default"], [a["id"] for a in r.get("alternative", [])]] for r in spec.get("ruling", [])]
    return json.dumps(rulings, separators=(",", ":")).encode()


def _readings(rules: Any) -> list[tuple[str, Any]]:
    """(label, options) for the default and every non-strict alternative of every ruling."""
    out = [("default", rules.Options())]
    for rid, f in ruling_fields(rules.Options).items():
        for alt in f.metadata["alternatives"][1:]:
            if alt != STRICT:
                out.append((f"{rid}={alt}", dataclasses.replace(rules.Options(), **{f.name: alt})))
    return out


def _play_data(rules: Any, setup: Any) -> bytes:
    """Every state reachable from the deal, breadth-first, as canonical JSON lines."""
    start = rules.new_game(setup)
    order = {start: 0}
    queue = [start]
    lines = []
    for state in queue:
        rows = []
        for move, p, nxt in rules.successors(state):
            if nxt not in order:
                order[nxt] = len(queue)
                queue.append(nxt)
            rows.append([str(move), None if p is None else str(p), order[nxt]])
        outcome = rules.outcome(state)
        lines.append(json.dumps([rules.state_vars(state), str(rules.to_move(state)),
                                 None if outcome is None else outcome.to_json(), rows],
                                sort_keys=True, default=str, separators=(",", ":")))
    return "\n".join(lines).encode()


def _source_key() -> str:
    """A hash of the bytes the digest is computed from (this module, every model module and the
    spec): where it is unchanged, the digest is too, so a memo of it may be reused."""
    h = hashlib.sha256(Path(__file__).read_bytes())  # this module decides what the digest covers
    model = Path(str(resources.files("tablerules.model")))
    for item in sorted(model.rglob("*.py")):
        h.update(str(item.relative_to(model)).encode() + b"\0" + item.read_bytes())
    h.update(resources.files("tablerules.spec").joinpath("dishes.toml").read_bytes())
    return h.hexdigest()


def _memo_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tablerules" / "solved-digest.json"


@lru_cache(maxsize=1)
def solved_digest() -> str:
    """The digest ``spec/solved/`` documents carry as ``sources`` (see the module docstring);
    remembered per user for sources byte for byte the same (computing it plays out about
    130 small games' state graphs: a second or two)."""
    key = _source_key()
    path = _memo_path()
    try:
        memo = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(memo, dict) and memo.get("key") == key and isinstance(memo.get("digest"), str):
            return memo["digest"]
    except (OSError, ValueError):
        pass
    digest = compute_digest()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"key": key, "digest": digest}), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:  # a read-only home: the digest is computed again next time
        pass
    return digest


def compute_digest() -> str:
    """The digest, computed from the sources (no memo)."""
    rules = registry.get(RULESET)
    h = hashlib.sha256(_rulings_part())
    for label, options in _readings(rules):
        for players, tiles in CONFIGS:
            h.update(f"\0{label}@{players}:{tiles}\0".encode())
            try:
                setup = rules.setup(players, options, rules.load_components(tiles))
                h.update(_play_data(rules, setup))
            except (SetupError, RuleGap) as e:  # an alternative that cannot set up or play here: its message counts
                h.update(f"{type(e).__name__}: {e}".encode())
                continue
            h.update(b"\0kernel\0")
            try:
                h.update(_kernel_data(registry.kernel(RULESET, setup)))
            except SetupError as e:  # no kernel for this reading (an endless or strict one): its message counts
                h.update(f"{type(e).__name__}: {e}".encode())
    return h.hexdigest()[:16]


def _sorted_rows(rows: np.ndarray) -> np.ndarray:
    """The distinct rows in lexicographic order (the canonical order of a level here)."""
    return np.unique(rows, axis=0) if len(rows) else rows


def _kernel_data(kernel: Any) -> bytes:
    """Every canonical row the kernel reaches from its start, level by level, as bytes (see the
    module docstring); the order of rows and edges is the kernel's own nowhere."""
    h = hashlib.sha256()
    starts = sorted((row.tobytes(), str(p)) for row, p in kernel.start())
    h.update(json.dumps([[r.hex(), p] for r, p in starts]).encode())
    rows = _sorted_rows(np.stack([np.frombuffer(r, dtype=np.uint8) for r, _ in starts]))
    while len(rows):
        ex = kernel.expand(rows)
        edges = np.column_stack([rows[ex.parent], ex.action.astype(np.int64)[:, None].view(np.uint8),
                                 ex.children, ex.p_num.astype(np.int64)[:, None].view(np.uint8),
                                 ex.p_den.astype(np.int64)[:, None].view(np.uint8)]) if len(ex.children) else rows[:0]
        for part in (rows, kernel.level(rows).astype(np.int64), kernel.history_weight(rows).astype(np.int64),
                     ex.actions.astype(np.int64), _sorted_rows(edges), _sorted_rows(ex.passes),
                     kernel.outcome(rows[ex.actions == 0]).losers.astype(np.uint8)):
            h.update(np.ascontiguousarray(part).tobytes() + b"\0")
        rows = _sorted_rows(ex.children)
    return h.digest()
