"""Clause -> model code -> tests -> vectors -> witnesses, read from the source tree.

``root`` is a checkout (``model/``, ``spec/``, ``tests/``, ``vectors/``) or the installed
package, which holds ``model/`` and ``spec/`` under the same names and no tests or vectors
(their lists are then empty).  The site's traceability page and ``tablerules explain`` read
the same scan.

* **code**: lines of ``model/**.py`` that carry the house tag, a trailing comment
  ``# rule: <id>[, <id>...]`` on the decision that implements a clause or ruling; where a
  clause has no tagged line, the lines of ``model/`` that mention its id (shown as
  mentions, not decisions);
* **tests**: files under ``tests/`` (but ``tests/docs/``) that mention the id;
* **vectors**: ``vectors/**.json`` whose ``#meta.clauses`` (written by
  :mod:`tablerules.vectors.coverage`) list the id;
* **witnesses**: ``spec/witnesses/*.json`` cited as evidence by a ruling that concerns the
  clause, or naming that ruling.

A *dangling reference* is an id the specs do not define, named by a ``# rule:`` tag, a
vector, a witness file, a reading clause (``ruling``) or a reminder (``restates``); or an
evidence file that does not exist.
:func:`scan` lists them; the site's build fails on any.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .vectors.coverage import is_play_clause

RULE_TAG = re.compile(r"#\s*rule:\s*(.+?)\s*$")
"""The house tag for a decision in model/: ``# rule: <id>[, <id>...]`` at the end of a line, or on a
comment line of its own right above it."""


@dataclass
class Entry:
    id: str
    kind: str
    """clause or ruling."""
    ruleset: str
    spec: str
    """The spec file's stem (``dishes``, ``just_desserts``...)."""
    data: dict[str, Any]


@dataclass
class Trace:
    tagged: list[tuple[str, int, str]] = field(default_factory=list)
    """(path, line number, code) of decision lines tagged with the id."""
    mentions: list[tuple[str, int, str]] = field(default_factory=list)
    """(path, line number, code) of other model lines mentioning the id."""
    tests: list[str] = field(default_factory=list)
    vectors: list[str] = field(default_factory=list)
    witnesses: list[str] = field(default_factory=list)

    @property
    def code(self) -> list[tuple[str, int, str]]:
        return self.tagged or self.mentions


@dataclass
class Report:
    entries: dict[str, Entry]
    traces: dict[str, Trace]
    dangling: list[str]

    def clauses(self, ruleset: str | None = None) -> list[Entry]:
        return [e for e in self.entries.values() if e.kind == "clause" and (ruleset is None or e.ruleset == ruleset)]

    def counts(self, ruleset: str | None = None) -> dict[str, int]:
        """clauses, with code (tagged or mentioned), tagged, with tests, with vectors, play clauses
        with no vector, clauses with no test."""
        cs = self.clauses(ruleset)
        t = self.traces
        return {
            "clauses": len(cs),
            "with code": sum(1 for c in cs if t[c.id].code),
            "tagged": sum(1 for c in cs if t[c.id].tagged),
            "with tests": sum(1 for c in cs if t[c.id].tests),
            "with vectors": sum(1 for c in cs if t[c.id].vectors),
            "with witnesses": sum(1 for c in cs if t[c.id].witnesses),
            "no test": sum(1 for c in cs if not t[c.id].tests),
            "no vector (play)": sum(1 for c in cs if not t[c.id].vectors and is_play(c)),
        }


def is_play(entry: Entry) -> bool:
    """False for clauses about components or worked examples, which no step of play exercises."""
    return is_play_clause(entry.ruleset, entry.id)


def load_entries(root: Path) -> dict[str, Entry]:
    """Every clause and ruling of every spec/*.toml, read as raw TOML (new fields pass through)."""
    out: dict[str, Entry] = {}
    for path in sorted((root / "spec").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        rs = data.get("ruleset", {}).get("id", path.stem)
        for kind in ("clause", "ruling"):
            for item in data.get(kind, []):
                out[item["id"]] = Entry(item["id"], kind, rs, path.stem, item)
    return out


def _id_pattern(ids: Iterable[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    return re.compile(rf"(?<![\w.-])({alternatives})(?![\w-])")


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def _witness_rulings(doc: Any) -> set[str]:
    if not isinstance(doc, dict):
        return set()
    found = {doc.get("ruling", "")}
    differs = doc.get("differs")
    if isinstance(differs, dict):
        found.add(differs.get("ruling", ""))
    if isinstance(doc.get("rulings"), dict):
        found |= {k for k in doc["rulings"] if ".ruling." in k}
    setup = doc.get("setup")
    if isinstance(setup, dict) and isinstance(setup.get("rulings"), dict):
        found |= {k for k in setup["rulings"] if ".ruling." in k}
    return {f for f in found if f}


def _tagged_line(lines: list[str], n: int) -> int:
    """The line a tag on line ``n`` names: ``n`` itself, or for a comment line of its own the first
    code line below it."""
    while n < len(lines) and lines[n - 1].lstrip().startswith("#"):
        n += 1
    return n


def scan(root: Path) -> Report:
    """Read the specs, model/, tests/, vectors/ and spec/witnesses/ under ``root``."""
    entries = load_entries(root)
    traces = {i: Trace() for i in entries}
    dangling: list[str] = []
    pattern = _id_pattern(entries)

    for path in sorted((root / "model").rglob("*.py")):
        rel = _rel(root, path)
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines, 1):
            tag = RULE_TAG.search(line)
            tagged_here: set[str] = set()
            if tag:
                # the ids of the annotation, read as the decision-point tool reads them: a comma-separated
                # list, each id the first word of its part (proofs/discovery/decisions.py, parse_annotation); a tag on
                # a comment line of its own names the code line right below it
                at = _tagged_line(lines, n)
                for rid in (p.strip().split(" ")[0] for p in tag.group(1).split(",") if p.strip()):
                    if rid in entries:
                        traces[rid].tagged.append((rel, at, lines[at - 1].strip()))
                        tagged_here.add(rid)
                    else:
                        dangling.append(f"{rel}:{n}: '# rule: {rid}' names no clause or ruling")
            for rid in set(pattern.findall(line)) - tagged_here:
                traces[rid].mentions.append((rel, n, line.strip()))

    for path in sorted((root / "tests").rglob("*.py")):
        rel = _rel(root, path)
        if rel.startswith("tests/docs/"):
            continue
        for rid in sorted(set(pattern.findall(path.read_text(encoding="utf-8")))):
            traces[rid].tests.append(rel)

    for path in sorted((root / "vectors").rglob("*.json")):
        rel = _rel(root, path)
        try:
            meta = json.loads(path.read_text(encoding="utf-8")).get("#meta", {})
        except (ValueError, AttributeError) as e:
            dangling.append(f"{rel}: unreadable vector ({e})")
            continue
        for cid in sorted(set(meta.get("clauses", []))):
            if cid in traces:
                traces[cid].vectors.append(rel)
            else:
                dangling.append(f"{rel}: #meta.clauses names {cid!r}, which no spec defines")

    witness_docs: dict[str, Any] = {}
    for path in sorted((root / "spec" / "witnesses").glob("*.json")):
        rel = _rel(root, path)
        try:
            witness_docs[rel] = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as e:
            dangling.append(f"{rel}: unreadable witness ({e})")
            continue
        for rid in sorted(_witness_rulings(witness_docs[rel])):
            if rid not in entries:
                dangling.append(f"{rel}: names ruling {rid!r}, which no spec defines")
    for entry in entries.values():
        if entry.kind != "ruling":
            continue
        files = []
        for ev in entry.data.get("evidence", []):
            f = ev.get("file", "")
            if not f:
                continue
            if not (root / f).exists():
                dangling.append(f"spec/{entry.spec}.toml: {entry.id} cites evidence file {f}, which does not exist")
            elif f.startswith("spec/witnesses/"):
                files.append(f)
        files += [
            rel
            for rel, doc in witness_docs.items()
            if entry.id in _witness_rulings(doc) and doc.get("ruleset") == entry.ruleset
        ]
        files = sorted(set(files))
        traces[entry.id].witnesses = files
        for cid in entry.data.get("clauses", []):
            if cid in traces:
                traces[cid].witnesses = sorted(set(traces[cid].witnesses) | set(files))
    for entry in entries.values():
        restates = entry.data.get("restates") if entry.kind == "clause" else None
        if restates and restates not in entries:
            dangling.append(f"spec/{entry.spec}.toml: clause {entry.id} restates {restates!r}, which no spec defines")
        ruling = entry.data.get("ruling") if entry.kind == "clause" else None
        if ruling:
            if ruling not in entries:
                dangling.append(
                    f"spec/{entry.spec}.toml: clause {entry.id} is a reading of ruling {ruling!r}, which no spec "
                    f"defines"
                )
            else:
                traces[entry.id].witnesses = sorted(set(traces[entry.id].witnesses) | set(traces[ruling].witnesses))
    return Report(entries, traces, dangling)
