"""`tablerules explain ID`: one clause or ruling, everything the project knows about it.

For a clause: our wording, the rulebook lines it cites (printed from the rulebook file when
it is at hand, with its digest checked; else located by file and line), its basis, the
rulings that bear on it, the model lines that implement it (the ``# rule:`` tags, see
:mod:`tablerules.traceability`), the property checks and tests that name it, the vectors
that exercise it and the witnesses of its rulings.  For a ruling: the question, every
alternative with the default marked and its reason, public sources, how it was found, its
evidence, the clauses it reads, and the same code, checks, tests and witnesses.

``ID`` is a full id (``jd.surprise.no-poach-back``) or a unique tail of one
(``no-poach-back``, ``answer-order``).  Tests and vectors are read from the source checkout
when there is one (the folder the package was installed from in editable mode, or the
current folder); an installed package alone ships the model, the specs and the witnesses.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from tablerules.model import registry
from tablerules.model.core import ruling_fields, short_ruling_name
from tablerules.spec import SpecError, load_spec
from tablerules.spec.provenance import Sources, digest_of

from .. import traceability
from .common import UsageError, add_command, emit_json, measured
from ..limits import EXIT_OK

EXAMPLES = [
    "tablerules explain jd.surprise.no-poach-back",
    "tablerules explain poach-back                    # a unique part of an id",
    "tablerules explain just-desserts                 # every clause and ruling, in a few words",
    "tablerules explain jd.ruling.answer-order",
    "tablerules explain dishes.ruling.tie-for-most --json",
]
NOTES = ("The rulebook files are looked for under $TABLERULES_SHARED/seeds (default: ../shared beside the "
         "checkout); without them the lines are located by file and line only.  Time for the whole command, "
         + measured("2026-12-06", "with another job using one core (load average 2.4)")
         + ": 1.4 s (explain answer-order).")


def add_parsers(sub: Any) -> None:
    p = add_command(sub, "explain", "show a clause or ruling: wording, rulebook lines, code, tests, witnesses",
                    "Show everything known about one clause or ruling: our wording, the rulebook lines it cites, "
                    "its basis, the rulings that bear on it, the model lines that implement it, and the checks, "
                    "tests, vectors and witnesses that name it.", EXAMPLES, NOTES)
    p.add_argument("id", metavar="ID", help="a clause or ruling id, or a unique part of one (poach-back); a rule set "
                                            "id lists every clause and ruling of it")
    p.add_argument("--json", action="store_true",
                   help="write the explanation as one JSON document on standard output (schema: "
                        "spec/schemas/explain.schema.json)")
    p.set_defaults(run=run)


# --------------------------------------------------------------------------- where things are


def package_root() -> Path:
    """The installed package's folder: it holds model/, spec/ and proofs/ under those names."""
    import tablerules.model

    return Path(tablerules.model.__file__).resolve().parent.parent


def checkout_root() -> Path | None:
    """The source checkout: the editable install's folder, else the current folder or a parent
    of it, if it is this project's (pyproject.toml naming tablerules, with tests/)."""
    import tablerules.model

    here = Path(tablerules.model.__file__).resolve().parent.parent
    for folder in (here, Path.cwd(), *Path.cwd().parents):
        project = folder / "pyproject.toml"
        try:
            named = 'name = "tablerules"' in project.read_text(encoding="utf-8")
        except OSError:
            continue
        if named and (folder / "tests").is_dir() and (folder / "model").is_dir():
            return folder
    return None


@dataclass(frozen=True)
class Found:
    """The entry explained: its id, kind, rule set and the loaded spec."""

    id: str
    kind: str
    ruleset: str
    spec: Any


def _specs() -> dict[str, Any]:
    out = {}
    for rid in registry.ruleset_ids():
        try:
            out[rid] = load_spec(registry.get(rid).spec_file)
        except SpecError as e:
            raise UsageError(str(e)) from None
    return out


def find(text: str) -> Found:
    """The clause or ruling ``text`` names: a full id, else the one id ending in ``.TEXT``,
    else the one id containing TEXT; UsageError naming the candidates otherwise."""
    specs = _specs()
    ids = {eid: (kind, rid) for rid, spec in specs.items()
           for kind, entries in (("clause", spec.clauses), ("ruling", spec.rulings)) for eid in entries}
    for match in ([text] if text in ids else [],
                  [eid for eid in ids if eid.endswith("." + text)],
                  [eid for eid in ids if text.lower() in eid.lower()]):
        if len(match) == 1:
            kind, rid = ids[match[0]]
            return Found(match[0], kind, rid, specs[rid])
        if match:
            shown = ", ".join(sorted(match)[:12]) + (f", ... ({len(match)} in all)" if len(match) > 12 else "")
            raise UsageError(f"explain: {text!r} names {len(match)} ids, say which: {shown}")
    raise UsageError(f"explain: no clause or ruling {text!r} (`tablerules explain RULESET` lists them all)")


def index(ruleset: str) -> list[tuple[str, str, str]]:
    """(id, kind, what it says in a few words) for every clause and ruling of a rule set."""
    spec = _specs()[ruleset]
    rows = [(cid, "clause", c.text) for cid, c in spec.clauses.items()]
    return rows + [(rid, "ruling", r.question) for rid, r in spec.rulings.items()]


# --------------------------------------------------------------------------- what is said about it


def rulebook(found: Found, clause: Any, sources: Sources) -> dict[str, Any]:
    """Where a clause's lines are, and the lines themselves when the file is at hand."""
    file = clause.cited_file(found.spec.seed)
    out: dict[str, Any] = {"file": file, "heading": clause.heading, "lines": list(clause.lines or ()),
                           "digest": clause.digest, "text": None, "digest_matches": None}
    if clause.lines is None:
        return out
    path = sources.file(file, clause.source == "public")
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        out["missing"] = str(path)
        return out
    first, last = clause.lines
    out["text"] = [[n, lines[n - 1]] for n in range(first, min(last, len(lines)) + 1)]
    out["digest_matches"] = bool(clause.digest) and digest_of(lines, first, last) == clause.digest
    return out


def bearing_rulings(found: Found) -> list[str]:
    """The rulings that bear on a clause: those that read it, and the one whose default it states."""
    spec, out = found.spec, []
    clause = spec.clauses[found.id]
    if clause.ruling:
        out.append(clause.ruling)
    out += [rid for rid, r in spec.rulings.items() if found.id in r.clauses and rid not in out]
    return out


def ruling_summary(spec: Any, rid: str) -> dict[str, Any]:
    r = spec.rulings[rid]
    return {"id": rid, "question": r.question, "default": r.default,
            "alternatives": [{"id": a.id, "meaning": a.meaning} for a in r.alternatives],
            "option": f"--ruling {short_ruling_name(rid)}=ALT" if _has_field(spec.id, rid) else None,
            "pending": r.pending or None}


def _has_field(ruleset: str, rid: str) -> bool:
    return rid in ruling_fields(registry.get(ruleset).Options)


TEST_DEF = re.compile(r"^(?:\s{0,4})(?:async\s+)?def\s+(test_\w+)")


def test_names(root: Path, files: list[str], ident: str) -> list[str]:
    """``file::test`` for every test function whose lines name ``ident`` (the file alone where
    it is named outside a test)."""
    pattern = re.compile(rf"(?<![\w.-]){re.escape(ident)}(?![\w-])")
    out: list[str] = []
    for rel in files:
        current, named = None, []
        for line in (root / rel).read_text(encoding="utf-8").splitlines():
            m = TEST_DEF.match(line)
            if m:
                current = m.group(1)
            elif line and not line[0].isspace() and not line.startswith(("#", ")", "]", "}", '"', "'", "@")):
                current = None
            if pattern.search(line):
                named.append(f"{rel}::{current}" if current else rel)
        out += list(dict.fromkeys(named))
    return out


def witness_lengths(doc: Any) -> list[tuple[str, int]]:
    """(name, steps) of every move list in a witness file (``moves`` lists, nested by name)."""
    out: list[tuple[str, int]] = []

    def walk(node: Any, name: str) -> None:
        if isinstance(node, dict):
            moves = node.get("moves")
            if isinstance(moves, list):
                out.append((name or "trace", len(moves)))
            for key, value in node.items():
                if key != "moves" and isinstance(value, (dict, list)):
                    walk(value, key if isinstance(value, dict) else name)
        elif isinstance(node, list):
            for item in node:
                walk(item, name)

    walk(doc, "")
    return out


def explanation(found: Found, sources: Sources | None = None) -> dict[str, Any]:
    """Everything ``explain`` shows, as JSON values."""
    sources = sources or Sources.beside()
    root = checkout_root()
    report = traceability.scan(root or package_root())
    trace = report.traces.get(found.id, traceability.Trace())
    spec = found.spec
    out: dict[str, Any] = {"id": found.id, "kind": found.kind, "ruleset": found.ruleset, "title": spec.title,
                           "spec_file": f"spec/{Path(spec.path).name}"}
    if found.kind == "clause":
        c = spec.clauses[found.id]
        out.update(wording=c.text, basis=c.basis, restates=c.restates or None, source=c.source,
                   cite=c.cite or None, rulebook=rulebook(found, c, sources),
                   rulings=[ruling_summary(spec, rid) for rid in bearing_rulings(found)])
    else:
        r = spec.rulings[found.id]
        out.update(ruling_summary(spec, found.id))
        out.update(reason=r.reason, public_sources=r.public_sources or None, found_by=r.found_by,
                   evidence=[{"kind": e.kind, "summary": e.summary, "file": e.file or None, "proof": e.proof or None}
                             for e in r.evidence],
                   clauses=[{"id": cid, "wording": spec.clauses[cid].text if cid in spec.clauses else None}
                            for cid in r.clauses])
    out["code"] = [{"file": p, "line": n, "code": code, "decision": bool(trace.tagged)} for p, n, code in trace.code]
    out["checks"] = checks(package_root(), found.id)
    out["tests"] = test_names(root, trace.tests, found.id) if root else None
    out["vectors"] = None if not root else trace.vectors if found.kind == "clause" else sorted(
        set(trace.vectors) | set(ruling_vectors(root, found.id, spec.rulings[found.id].default, trace.witnesses)))
    witnesses = []
    for rel in trace.witnesses:
        path = (root or package_root()) / rel
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            doc = None
        witnesses.append({"file": rel, "about": doc.get("about") if isinstance(doc, dict) else None,
                          "traces": [{"name": n, "steps": k} for n, k in witness_lengths(doc)]})
    out["witnesses"] = witnesses
    out["checkout"] = str(root) if root else None
    return out


def ruling_vectors(root: Path, ruling: str, default: str, witnesses: list[str]) -> list[str]:
    """The vectors (``vectors/**.json``) that play a ruling: under one of its other alternatives
    (``#meta.options``), or as a witness of it (``#meta.generator`` names the ruling or one of its
    witness files); paths relative to ``root``."""
    out = []
    for path in sorted((root / "vectors").rglob("*.json")):
        try:
            meta = json.loads(path.read_text(encoding="utf-8")).get("#meta")
        except (OSError, ValueError, AttributeError):
            continue
        if not isinstance(meta, dict):
            continue
        options = meta.get("options") if isinstance(meta.get("options"), dict) else {}
        generator = meta.get("generator") if isinstance(meta.get("generator"), dict) else {}
        chosen = options.get(ruling)
        if (isinstance(chosen, str) and chosen != default) or generator.get("ruling") == ruling or (
                generator.get("kind") == "witness" and generator.get("file") in witnesses):
            out.append(path.relative_to(root).as_posix())
    return out


def checks(root: Path, ident: str) -> list[dict[str, Any]]:
    """The property checks and proofs (proofs/**.py) whose lines name ``ident``: file and line numbers."""
    pattern = re.compile(rf"(?<![\w.-]){re.escape(ident)}(?![\w#-])")
    out = []
    for path in sorted((root / "proofs").rglob("*.py")):
        lines = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
        if lines:
            out.append({"file": path.relative_to(root).as_posix(), "lines": lines})
    return out


# --------------------------------------------------------------------------- printing


def _wrap(write: Callable[[str], Any], text: str, indent: str = "  ", width: int = 96, hang: str | None = None) -> None:
    """``text`` wrapped at ``width``, its first line after ``indent``, the rest after ``hang``
    (default: as many spaces)."""
    import textwrap

    hang = " " * len(indent) if hang is None else hang
    for line in textwrap.wrap(text, width=width, initial_indent=indent, subsequent_indent=hang) or [indent]:
        write(line.rstrip() + "\n")


def _listed(write: Callable[[str], Any], title: str, items: list[str] | None, none: str, limit: int = 12) -> None:
    if items is None:
        write(f"{title}: {none}\n")
        return
    write(f"{title}: {len(items)}\n" if items else f"{title}: none\n")
    for item in items[:limit]:
        write(f"  {item}\n")
    if len(items) > limit:
        write(f"  ... and {len(items) - limit} more (--json lists them all)\n")


def write_text(write: Callable[[str], Any], e: dict[str, Any]) -> None:
    write(f"{e['id']}  ({e['kind']} of {e['title']}, {e['spec_file']})\n\n")
    if e["kind"] == "clause":
        write("Our wording\n")
        _wrap(write, e["wording"])
        rb = e["rulebook"]
        where = f"{rb['file']}, \"{rb['heading']}\""
        if rb["lines"]:
            a, b = rb["lines"]
            where += f", line {a}" if a == b else f", lines {a}-{b}"
        write(f"\nThe rulebook: {where}" + (f" ({e['cite']})" if e.get("cite") else "") + "\n")
        if rb["text"] is not None:
            for n, line in rb["text"]:
                _wrap(write, line, indent=f"  {n:>4} | ", hang="       | ")
            write("  digest " + ("matches the cited lines\n" if rb["digest_matches"] else
                                 f"{rb['digest']} does not match these lines: the file differs from the one cited\n"))
        elif rb["lines"]:
            write(f"  (the file is not at hand: {rb.get('missing', 'no path')}; set TABLERULES_SHARED to the folder "
                  "holding seeds/)\n")
        basis = {
            "text": "text: says what the cited sentences say",
            "reading": "reading: an interpretation where the text is silent or unclear",
        }.get(e["basis"], e["basis"])
        write(f"\nBasis: {basis}\n")
        if e.get("restates"):
            write(f"  a reminder of {e['restates']}: implemented and checked there\n")
        write("\nRulings that bear on it: " + ("none\n" if not e["rulings"] else "\n"))
        for r in e["rulings"]:
            write(f"  {r['id']}: {r['question']}\n")
            for a in r["alternatives"]:
                write(f"    {'*' if a['id'] == r['default'] else ' '} {a['id']}: {a['meaning']}\n")
            if r["option"]:
                write(f"    choose with {r['option']} (`tablerules explain {r['id']}` for its reason and evidence)\n")
    else:
        write("Question\n")
        _wrap(write, e["question"])
        write("\nAlternatives (* the default)\n")
        for a in e["alternatives"]:
            _wrap(write, f"{'*' if a['id'] == e['default'] else ' '} {a['id']}: {a['meaning']}", hang="      ")
        write("\nWhy the default\n")
        _wrap(write, e["reason"])
        if e.get("public_sources"):
            write("\nPublic sources\n")
            _wrap(write, e["public_sources"])
        write(f"\nFound by: {e['found_by']}\n")
        if e["option"]:
            write(f"Choose it with: {e['option']}\n")
        if e.get("pending"):
            write(f"Not yet in the model: {e['pending']}\n")
        write("\nEvidence\n" if e["evidence"] else "\nEvidence: none recorded\n")
        for ev in e["evidence"]:
            _wrap(write, f"- {ev['kind']}: {ev['summary']}" + (f" ({ev['file']})" if ev["file"] else ""), hang="    ")
        write("\nClauses it reads\n")
        for c in e["clauses"]:
            _wrap(write, f"- {c['id']}: {c['wording'] or '(not a clause of this rule set)'}", hang="    ")
    code = e["code"]
    tagged = bool(code) and code[0]["decision"]
    write(f"\nModel lines ({'decisions tagged # rule:' if tagged else 'lines that name it; no tagged decision'}): "
          f"{len(code) if code else 'none'}\n")
    for c in code[:16]:
        write(f"  {c['file']}:{c['line']}  {c['code'][:110]}\n")
    if len(code) > 16:
        write(f"  ... and {len(code) - 16} more\n")
    write(f"\nProperty checks and proofs: {len(e['checks']) or 'none'}\n")
    for c in e["checks"]:
        write(
            f"  {c['file']} (lines {', '.join(map(str, c['lines'][:10]))}{', ...' if len(c['lines']) > 10 else ''})\n"
        )
    no_checkout = "not at hand (they are in the source checkout; run from it)"
    write("\n")
    _listed(write, "Tests", e["tests"], no_checkout)
    write("\n")
    _listed(write, "Vectors (tablerules vectors verify FILE)", e["vectors"], no_checkout, limit=5)
    write("\nWitnesses: " + (f"{len(e['witnesses'])}\n" if e["witnesses"] else "none\n"))
    for w in e["witnesses"]:
        steps = ", ".join(f"{t['name']}: {t['steps']} steps" for t in w["traces"][:6])
        write(f"  {w['file']}" + (f" ({steps})" if steps else "") + "\n")


def run(args: argparse.Namespace) -> int:
    if args.id in registry.ruleset_ids():
        rows = index(args.id)
        if args.json:
            raise UsageError("explain RULESET lists ids as text; --json takes one id")
        for eid, kind, words in rows:
            write = sys.stdout.write
            write(f"{eid:<44} {kind:<6}  {words[:80] + ('...' if len(words) > 80 else '')}\n")
        sys.stdout.write(f"\n{len(rows)} clauses and rulings; `tablerules explain ID` shows one.\n")
        return EXIT_OK
    found = find(args.id)
    e = explanation(found)
    if args.json:
        from .. import schemas

        emit_json(schemas.document("explain", {**e, "exit_status": EXIT_OK}))
    else:
        write_text(sys.stdout.write, e)
    return EXIT_OK
