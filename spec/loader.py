r"""Load and check a rule set's spec file (spec/<name>.toml).

Schema (see docs/spec-format.rst):

* ``[ruleset]`` id, title, seed (file name under shared/seeds).
* ``[[clause]]`` id, heading (of the seed), text (our paraphrase), and ``source``:
  ``"rulebook"`` (default) or ``"public"`` with a ``cite``.  Provenance:

  - ``lines = [FIRST, LAST]``: the 1-based, inclusive line range the clause rests on, in
    the rule set's seed file (``shared/seeds/<seed>``), or, for ``source = "public"``, in
    ``cite_file`` (a file under ``shared/data``; ``"FACTS.md"`` when not given).  A public
    clause whose source is not a file we hold (a publisher's web page) has no ``lines``;
    its ``cite`` says where it comes from.
  - ``digest``: the first 16 hex digits of the sha256 of those lines joined with ``"\n"``
    (UTF-8, no trailing newline), so an edited rulebook shows up as a stale citation.
  - ``basis = "text"`` (the clause says what the cited lines say) or ``"reading"`` (an
    interpretation); a reading names ``ruling = "<ruling id>"``, the ruling whose default
    it states, and that ruling lists the alternatives.
  - ``restates = "<clause id>"`` (optional): the cited lines only repeat a rule stated
    elsewhere (a reminder); that clause is where the model implements it.
* ``[[not_rule]]`` lines, digest (as above, in the seed) and ``reason``: seed lines that
  are not rules (title, table of contents, heading, flavour, example, credits...).  Every
  line of the seed is cited by a clause or a not_rule (tests/spec/test_provenance.py).
* ``[[ruling]]`` id, question, clauses, default, reason, optional public_sources,
  ``[[ruling.alternative]]`` (id, meaning) and ``[[ruling.evidence]]`` (kind, file or
  proof, summary).  ``pending = "<why>"`` marks a ruling registered before the model has
  its Options field (the model follows the default until then).
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


BASES = ("text", "reading")
PUBLIC_FILE = "FACTS.md"
"""The file under shared/data that public-source clauses cite unless ``cite_file`` says otherwise."""


@dataclass(frozen=True)
class Clause:
    id: str
    heading: str
    text: str
    source: str = "rulebook"
    cite: str = ""
    lines: tuple[int, int] | None = None
    """1-based inclusive line range in the cited file (the seed, or ``cite_file`` for a public clause)."""
    digest: str = ""
    basis: str = "text"
    ruling: str = ""
    """For basis = "reading": the ruling whose default this clause states."""
    cite_file: str = ""
    """For source = "public": the file under shared/data the lines are in."""
    restates: str = ""
    """A clause whose lines only repeat a rule stated elsewhere (a reminder) names that clause:
    the model and the tests implement and check it there."""

    def cited_file(self, seed: str) -> str:
        """The file the lines are in: the seed, or the public file under shared/data."""
        return (self.cite_file or PUBLIC_FILE) if self.source == "public" else seed


@dataclass(frozen=True)
class NotRule:
    """Seed lines that state no rule, with the reason (title, heading, flavour, example...)."""

    lines: tuple[int, int]
    digest: str
    reason: str


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
    """How the question was first found: ``reading`` (a person reading the rulebook) or the command that
    finds it (every command is run by tests/spec/test_found_by.py)."""
    pending: str = ""
    """Why the model has no Options field for this ruling yet (empty when it has one)."""
    found_again_by: tuple[str, ...] = ()
    """Commands that find the question again without being told it (a difference between independent
    readings: ``tablerules readings``); each is run by tests/spec/test_found_by.py."""

    def alternative_ids(self) -> tuple[str, ...]:
        return tuple(a.id for a in self.alternatives)

    def how_found(self) -> str:
        """``discovered`` (a command that did not know the question found it: a difference between independent
        readings), ``switch`` (a command that only confirms a switch written beforehand: a strict alternative
        or a mutant), or ``reading`` (a person reading the rulebook)."""
        if self.found_by == "reading":
            return "reading"
        return "discovered" if self.found_by.startswith("tablerules readings ") else "switch"


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
    not_rules: tuple[NotRule, ...] = ()

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
    path = (
        Path(name)
        if isinstance(name, Path) or str(name).endswith(".toml") and Path(name).exists()
        else spec_path(str(name))
    )
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
        clauses[cid] = Clause(
            cid, _need(path, where, c, "heading"), _need(path, where, c, "text"), source, c.get("cite", ""),
            **_provenance(path, where, c, source),
        )
    rulings: dict[str, Ruling] = {}
    for i, r in enumerate(data.get("ruling", [])):
        rid = _need(path, f"ruling[{i}]", r, "id")
        where = f"ruling {rid}"
        if not rid.startswith(prefix + ".ruling."):
            raise SpecError(f"{path}: {where}: id must start with {prefix + '.ruling.'!r}")
        if rid in rulings or rid in clauses:
            raise SpecError(f"{path}: {where}: duplicate id")
        alts = tuple(
            Alternative(
                _need(path, f"{where} alternative[{j}]", a, "id"),
                _need(path, f"{where} alternative[{j}]", a, "meaning"),
            )
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
            Evidence(
                _need(path, f"{where} evidence[{j}]", e, "kind"), _need(path, f"{where} evidence[{j}]", e, "summary"),
                e.get("file", ""), e.get("proof", ""),
            )
            for j, e in enumerate(r.get("evidence", []))
        )
        pending = r.get("pending", "")
        if not isinstance(pending, str):
            raise SpecError(f"{path}: {where}: 'pending' must be str")
        rulings[rid] = Ruling(
            rid, _need(path, where, r, "question"), cl, alts, default, _need(path, where, r, "reason"),
            r.get("public_sources", ""), ev, _need(path, where, r, "found_by"), pending,
            tuple(r.get("found_again_by", ())),
        )
    for c in clauses.values():
        if c.restates and (c.restates not in clauses or clauses[c.restates].restates):
            raise SpecError(
                f"{path}: clause {c.id}: restates {c.restates!r}, which is not a clause stated in its own right"
            )
        if c.basis == "reading" and c.ruling not in rulings:
            raise SpecError(f"{path}: clause {c.id}: basis 'reading' names unknown ruling {c.ruling!r}")
    not_rules = []
    for i, n in enumerate(data.get("not_rule", [])):
        where = f"not_rule[{i}]"
        if not isinstance(n, dict):
            raise SpecError(f"{path}: {where}: must be a table")
        lines = _lines(path, where, n)
        if lines is None:
            raise SpecError(f"{path}: {where}: missing 'lines'")
        not_rules.append(NotRule(lines, _digest(path, where, n), _need(path, where, n, "reason")))
    extra = {k: v for k, v in data.items() if k not in ("ruleset", "clause", "ruling", "components", "not_rule")}
    return Spec(
        rs_id, rs.get("title", rs_id), rs.get("seed", ""), clauses, rulings, data.get("components", {}), str(path),
        digest, extra, tuple(not_rules),
    )


def _lines(path: Path, where: str, entry: dict) -> tuple[int, int] | None:
    """``lines = [FIRST, LAST]`` (1-based, inclusive) or None when absent."""
    if "lines" not in entry:
        return None
    v = entry["lines"]
    if (not isinstance(v, list) or len(v) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
            or not 1 <= v[0] <= v[1]):
        raise SpecError(f"{path}: {where}: 'lines' must be [FIRST, LAST] with 1 <= FIRST <= LAST, got {v!r}")
    return (v[0], v[1])


def _digest(path: Path, where: str, entry: dict) -> str:
    d = _need(path, where, entry, "digest")
    if len(d) != 16 or any(ch not in "0123456789abcdef" for ch in d):
        raise SpecError(f"{path}: {where}: 'digest' must be 16 lowercase hex digits, got {d!r}")
    return d


def _provenance(path: Path, where: str, c: dict, source: str) -> dict[str, Any]:
    """lines, digest, basis, ruling and cite_file of a clause, checked (the ruling's existence is checked later)."""
    lines = _lines(path, where, c)
    if lines is None and source == "rulebook":
        raise SpecError(f"{path}: {where}: missing 'lines' (the seed lines it rests on)")
    digest = _digest(path, where, c) if lines is not None else ""
    if lines is None and "digest" in c:
        raise SpecError(f"{path}: {where}: 'digest' without 'lines'")
    basis = _need(path, where, c, "basis")
    if basis not in BASES:
        raise SpecError(f"{path}: {where}: basis must be 'text' or 'reading', got {basis!r}")
    ruling_id = c.get("ruling", "")
    if basis == "reading":
        ruling_id = _need(path, where, c, "ruling")
    elif "ruling" in c:
        raise SpecError(f"{path}: {where}: 'ruling' is only for basis = 'reading'")
    cite_file = c.get("cite_file", "")
    if cite_file and source != "public":
        raise SpecError(f"{path}: {where}: 'cite_file' is only for source = 'public'")
    if not isinstance(cite_file, str) or "/" in cite_file or cite_file.startswith("."):
        raise SpecError(f"{path}: {where}: 'cite_file' must be a file name under shared/data")
    restates = c.get("restates", "")
    if not isinstance(restates, str):
        raise SpecError(f"{path}: {where}: 'restates' must be a clause id")
    return {"lines": lines, "digest": digest, "basis": basis, "ruling": ruling_id, "cite_file": cite_file,
            "restates": restates}
