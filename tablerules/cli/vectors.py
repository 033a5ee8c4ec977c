"""`tablerules vectors generate` and `tablerules vectors verify`: the command line.

What a vector holds is :mod:`tablerules.vectors.recording`; how a trace is checked is
:mod:`tablerules.vectors.verifier`; which games make the golden set is :mod:`tablerules.vectors.generation`.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from tablerules.model import registry

from .. import console
from .common import MEASURED, DECK_LIMITS, UsageError, add_command, add_json, emit_json, named_text, ruleset_arg, unique
from tablerules.proofs.files import check_writable_folder
from ..vectors.itf import MAX_DIGITS, MAX_FILE_BYTES, MAX_NESTING, STDIN
from ..limits import EXIT_FAIL, EXIT_OK, MAX_VECTOR_BYTES, Statuses, number
from ..schemas import document
from ..vectors.files import compare_sets, coverage_lines, write_set
from ..vectors.generation import default_out, generate_ruleset
from ..vectors import mapping as itf_mapping
from ..vectors.verifier import FileResult
from .vectors_map import add_map



def add_parsers(sub: Any) -> None:
    v = add_command(sub, "vectors", "generate or verify reference test vectors (ITF traces)",
                    "Reference test vectors: games as ITF traces.  `generate` writes the golden set; `verify` replays "
                    "trace files written by any engine and names the first step that breaks a rule; `map` drafts a "
                    "mapping that reads another tool's traces.",
                    ["tablerules vectors verify mygame.itf.json", "tablerules vectors generate --check"],
                    statuses=Statuses(fail="verify: a trace that breaks the rules; generate: a rule set whose vectors "
                                           "fail, or (--check) vectors that differ"))
    vsub = v.add_subparsers(dest="action", metavar="{generate,verify,map}", parser_class=type(v))
    v.set_defaults(run=lambda args: _missing_action(v))
    g = add_command(vsub, "generate", "write the golden vectors (deterministic)",
                    "Write the golden set of reference vectors (deterministic: fixed seeds) and print which clauses "
                    "and ruling alternatives each vector exercises.",
                    ["tablerules vectors generate", "tablerules vectors generate --check",
                     "tablerules vectors generate --ruleset dishes --out /tmp/vectors"],
                    f"Time, {MEASURED}: the whole golden set (178 vectors) 4.5 s, --check 5.5 s.",
                    statuses=Statuses(fail="a rule set whose vectors fail to generate, or (--check) vectors that "
                                           "differ "
                                           "from the folder"))
    g.add_argument("--out", metavar="DIR", help="folder to write (default: the repository's vectors/)")
    g.add_argument("--check", action="store_true", help="regenerate into a temporary folder and compare with DIR")
    g.add_argument("--ruleset", action="append", default=[], type=ruleset_arg, help="only this rule set (repeatable)")
    g.add_argument("--quiet", "-q", action="store_true", help="no coverage table")
    g.set_defaults(run=_generate)
    r = add_command(vsub, "verify", "replay trace files against the rules",
                    "Replay ITF trace files against our rules: each move must be legal (or a possible chance outcome "
                    "with its probability), and every state, player to move, list of moves and outcome the file "
                    "records must be ours.  One line per file, then a summary line.",
                    ["tablerules vectors verify mygame.itf.json more/*.itf.json",
                     "my-engine --log | tablerules vectors verify -",
                     "tablerules vectors verify retail-game.itf.json --deck just_desserts_2015_deck.json --json"],
                    notes=f"limits: a trace file of at most --max-bytes (default {MAX_FILE_BYTES:,}), JSON nested at\n"
                          f"most {MAX_NESTING} levels, integers of at most {MAX_DIGITS:,} digits, move texts of at "
                          "most 1,000 characters,\nprobabilities written \"p/q\" in ASCII digits (or as JSON "
                          "numbers).  Only regular files\nare read: a named pipe or a device is refused (pipe a trace "
                          "into - "
                          "instead).\n\n"
                          f"Time, {MEASURED}: a 49-move Just Desserts trace 0.9 s, most of it start-up.",
                    statuses=Statuses(fail="a trace that breaks the rules or cannot be read as a game"))
    r.add_argument("files", nargs="+", metavar="FILE", help="trace files; - reads standard input")
    r.add_argument("--deck", metavar="FILE|NAME", type=named_text,
                   help="components for traces whose components we do not ship: a shipped deck's name or a deck "
                        f"file ({DECK_LIMITS})")
    r.add_argument("--mapping", metavar="FILE|NAME", type=named_text,
                   help="read traces from another tool through this mapping: a shipped mapping's name or a mapping "
                        f"file of at most {itf_mapping.MAX_MAPPING_BYTES // 1_000_000} MB (default: a shipped mapping "
                        "that recognises the trace; see docs/guides/quint.rst)")
    r.add_argument("--max-bytes", type=number(int, 1, MAX_VECTOR_BYTES), default=MAX_FILE_BYTES,
                   help=f"refuse larger trace files (1 to {MAX_VECTOR_BYTES:,}; default {MAX_FILE_BYTES:,})")
    add_json(r, "vectors-verify")
    r.set_defaults(run=_verify)
    add_map(vsub)


def _missing_action(parser: argparse.ArgumentParser) -> int:
    raise UsageError(f"{parser.prog}: say what to do: generate, verify or map (see --help)")


# --------------------------------------------------------------------------- verify


def _verify(args: argparse.Namespace) -> int:
    if args.files.count(STDIN) > 1:
        raise UsageError("tablerules vectors verify: standard input (-) can be read only once")
    if args.mapping is not None:  # a bad mapping is the command's fault, not each file's: said once
        try:
            itf_mapping.load_mapping(args.mapping)
        except itf_mapping.MappingError as e:
            raise UsageError(f"tablerules vectors verify: --mapping: {e}") from None
    results: list[FileResult] = []
    for f in args.files:
        result = itf_mapping.verify_path(f, deck=args.deck, max_bytes=args.max_bytes, mapping=args.mapping)
        results.append(result)
        if not args.json:
            console.line(result.line, sys.stdout if result.status == 0 else sys.stderr)
    worst = max(r.status for r in results)
    summary = _summary(results)
    if args.json:
        emit_json(
            document(
                "vectors-verify", {"files": [_file_json(r) for r in results], "summary": summary, "exit_status": worst}
            )
        )
    else:
        status = "FAIL" if summary["failed"] or summary["unreadable"] else "ok"
        console.line(f"{status}: {console.plural(summary['files'], 'file')}, "
                     f"{console.plural(summary['steps'], 'step')} "
                     f"replayed: {summary['passed']} passed, {summary['failed']} failed, {summary['unreadable']} "
                     f"unreadable",
                     status=status)
    return worst


def _summary(results: list[FileResult]) -> dict[str, int]:
    return {"files": len(results), "steps": sum(r.verdict.replayed for r in results if r.verdict is not None),
            "passed": sum(r.status == 0 for r in results), "failed": sum(r.status == 1 for r in results),
            "unreadable": sum(r.status == 2 for r in results)}


def _file_json(r: FileResult) -> dict[str, Any]:
    v = r.verdict
    return {"file": r.file, "status": {0: "ok", 1: "fail", 2: "unreadable"}[r.status], "exit_status": r.status,
            "ruleset": v.ruleset if v else None, "players": v.players if v else None, "steps": v.steps if v else None,
            "finding": v.finding.to_json() if v and v.finding else None, "problem": r.problem or None,
            "notes": list(v.notes) if v else [], "line": r.line}


# --------------------------------------------------------------------------- generate


def _generate(args: argparse.Namespace) -> int:
    ids = unique(args.ruleset) or registry.ruleset_ids()
    out = Path(args.out) if args.out else default_out()
    if args.check:
        if not out.is_dir():
            raise UsageError(f"tablerules vectors generate --check: no folder {out} to compare with "
                             "(generate it first, or give --out DIR)")
    else:
        check_writable_folder(out, "--out")  # before the work, not after it
    reports = [generate_ruleset(rid) for rid in ids]
    if not args.quiet:
        for line in coverage_lines(reports):
            print(line)
    for r in reports:
        if r.skipped:
            print(f"skipped {r.ruleset}: {r.skipped}", file=sys.stderr)
        if r.failed:
            print(f"tablerules vectors generate: error: {r.ruleset}: {r.failed}", file=sys.stderr)
    failed = EXIT_FAIL if any(r.failed for r in reports) else EXIT_OK
    if not args.check:
        written = write_set(reports, out)
        size = sum(p.stat().st_size for p in written)
        print(f"wrote {len(written)} vectors ({size / 1e6:.2f} MB) to {out}")
        return failed
    with tempfile.TemporaryDirectory(prefix="tablerules-vectors-") as tmp:
        fresh = Path(tmp)
        for r in reports:
            if (r.skipped or r.failed) and (out / r.ruleset).is_dir():
                shutil.copytree(out / r.ruleset, fresh / r.ruleset)
        write_set(reports, fresh)
        lines = []
        for rid in ids:
            if not (out / rid).is_dir():
                lines.append(f"{rid}: missing folder {out / rid} (every vector of it would be new)")
                continue
            lines += [f"{rid}: {line}" for line in compare_sets(fresh / rid, out / rid)]
    if lines:
        print(
            f"vectors differ from {out} ({len(lines)} lines): regenerate with `tablerules vectors generate` and "
            f"review the diff"
        )
        for line in lines:
            print("  " + line)
        return EXIT_FAIL
    print(f"vectors in {out} are up to date")
    return failed



def main(argv: list[str]) -> int:
    """`tablerules vectors ARGV...` as a function (its exit status)."""
    from . import main as cli_main

    return cli_main(["vectors", *argv])
