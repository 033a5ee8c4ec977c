"""Load and check a rule set's spec file (spec/<name>.toml).

Schema (see docs/spec-format.rst):

* ``[ruleset]`` id, title, seed (file name under shared/seeds).
* ``[[clause]]`` id, heading (of the seed), text (our paraphrase), and ``source``:
  ``"rulebook"`` (default) or ``"public"`` with a ``cite``.
* ``[[ruling]]`` id, question, clauses, default, reason, optional public_sources,
  ``[[ruling.alternative]]`` (id, meaning) and ``[[ruling.evidence]]`` (kind, file or
  proof, summary).
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any


class SpecError(ValueError):
    """A spec file that is malformed or inconsistent; the message is one line naming file and entry."""


@dataclass(frozen=True)
class Clause:
    id: str
    heading: str
    text: str
    source: str = "rulebook"
    cite: str = ""


@dataclass(frozen=True)
class Alternative:
    id: str
    meaning: str


@dataclass(frozen=True)
class Evidence:
    kind: str
    summary: str
    file: str = ""
    proof: str = ""


@dataclass(frozen=True)
class Ruling:
    id: str
    question: str
    clauses: tuple[str, ...]
    alternatives: tuple[Alternative, ...]
    default: str
    reason: str
    public_sources: str = ""
    evidence: tuple[Evidence, ...] = ()
    found_by: str = "reading"

    def alternative_ids(self) -> tuple[str, ...]:
        return tuple(a.id for a in self.alternatives)


@dataclass(frozen=True)
class Spec:
    id: str
    title: str
    seed: str
    clauses: dict[str, Clause]
    rulings: dict[str, Ruling]
    components: dict[str, Any]
    path: str
    digest: str
    extra: dict[str, Any] = field(default_factory=dict)

    def cite(self, entry_id: str) -> str:
        """`seed-file, "Heading"` for a clause id (or a ruling id's first clause)."""
        c = self.clauses.get(entry_id)
        if c is None:
            return ""
        return c.cite if c.source == "public" else f'{self.seed}, "{c.heading}"'


_FILES = {"dishes": "dishes.toml", "just-desserts": "just_desserts.toml", "just-desserts-2.3": "just_desserts_v23.toml"}


def spec_path(name: str) -> Path:
    """The packaged spec file for a rule set id (or a file name)."""
    fname = _FILES.get(name, name)
    return Path(str(resources.files("tablerules.spec").joinpath(fname)))


def load_spec(name: str | Path) -> Spec:
    """Load and check a spec; raises SpecError (one line) on any problem."""
    path = Path(name) if isinstance(name, Path) or str(name).endswith(".toml") and Path(name).exists() else spec_path(str(name))
    try:
        raw_bytes = path.read_bytes()
    except OSError as e:
        raise SpecError(f"{path}: cannot read: {e.strerror}") from None
    try:
        data = tomllib.loads(raw_bytes.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise SpecError(f"{path}: not valid TOML: {e}") from None
    return _build(path, data, hashlib.sha256(raw_bytes).hexdigest())


def _need(path: Path, where: str, entry: dict, key: str, kind: type = str) -> Any:
    if key not in entry:
        raise SpecError(f"{path}: {where}: missing {key!r}")
    value = entry[key]
    if not isinstance(value, kind):
        raise SpecError(f"{path}: {where}: {key!r} must be {kind.__name__}")
    if kind is str and not value.strip():
        raise SpecError(f"{path}: {where}: {key!r} is empty")
    return value


def _build(path: Path, data: dict, digest: str) -> Spec:
    rs = data.get("ruleset")
    if not isinstance(rs, dict):
        raise SpecError(f"{path}: missing [ruleset] table")
    rs_id = _need(path, "[ruleset]", rs, "id")
    prefix = rs.get("prefix", rs_id)
    clauses: dict[str, Clause] = {}
    for i, c in enumerate(data.get("clause", [])):
        where = f"clause[{i}]"
        cid = _need(path, where, c, "id")
        where = f"clause {cid}"
        if not cid.startswith(prefix + "."):
            raise SpecError(f"{path}: {where}: id must start with {prefix!r}")
        if cid in clauses:
            raise SpecError(f"{path}: {where}: duplicate id")
        source = c.get("source", "rulebook")
        if source not in ("rulebook", "public"):
            raise SpecError(f"{path}: {where}: source must be 'rulebook' or 'public'")
        if source == "public":
            _need(path, where, c, "cite")
        clauses[cid] = Clause(cid, _need(path, where, c, "heading"), _need(path, where, c, "text"), source, c.get("cite", ""))
    rulings: dict[str, Ruling] = {}
    for i, r in enumerate(data.get("ruling", [])):
        rid = _need(path, f"ruling[{i}]", r, "id")
        where = f"ruling {rid}"
        if not rid.startswith(prefix + ".ruling."):
            raise SpecError(f"{path}: {where}: id must start with {prefix + '.ruling.'!r}")
        if rid in rulings or rid in clauses:
            raise SpecError(f"{path}: {where}: duplicate id")
        alts = tuple(
            Alternative(_need(path, f"{where} alternative[{j}]", a, "id"), _need(path, f"{where} alternative[{j}]", a, "meaning"))
            for j, a in enumerate(r.get("alternative", []))
        )
        if len(alts) < 2:
            raise SpecError(f"{path}: {where}: needs at least two alternatives")
        ids = [a.id for a in alts]
        if len(set(ids)) != len(ids):
            raise SpecError(f"{path}: {where}: duplicate alternative id")
        default = _need(path, where, r, "default")
        if default not in ids:
            raise SpecError(f"{path}: {where}: default {default!r} is not one of its alternatives")
        cl = tuple(r.get("clauses", []))
        for c in cl:
            if c not in clauses:
                raise SpecError(f"{path}: {where}: cites unknown clause {c!r}")
        ev = tuple(
            Evidence(_need(path, f"{where} evidence[{j}]", e, "kind"), _need(path, f"{where} evidence[{j}]", e, "summary"), e.get("file", ""), e.get("proof", ""))
            for j, e in enumerate(r.get("evidence", []))
        )
        rulings[rid] = Ruling(
            rid, _need(path, where, r, "question"), cl, alts, default, _need(path, where, r, "reason"),
            r.get("public_sources", ""), ev, r.get("found_by", "reading"),
        )
    extra = {k: v for k, v in data.items() if k not in ("ruleset", "clause", "ruling", "components")}
    return Spec(rs_id, rs.get("title", rs_id), rs.get("seed", ""), clauses, rulings, data.get("components", {}), str(path), digest, extra)
