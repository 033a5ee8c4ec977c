"""Writing the golden set to disk, comparing two sets, and the coverage table."""

from __future__ import annotations

import filecmp
from pathlib import Path
from typing import Any

from . import coverage
from tablerules.proofs.files import OutputError, write_atomic
from tablerules.spec.files import UnreadableFile, read_regular_file

from .itf import MAX_FILE_BYTES, VectorError, dumps, parse_document
from .generation import SUFFIX, Report


def write_set(reports: list[Report], out: Path) -> list[Path]:
    """Write every vector; remove stale *.itf.json in the folders of the rule sets written."""
    written = []
    for r in reports:
        if r.skipped or r.failed:
            continue
        folder = out / r.ruleset  # made by its first vector's write (a run stopped before leaves none behind)
        names = {v.name + SUFFIX for v in r.vectors}
        for old in folder.glob("*" + SUFFIX):
            if old.name not in names:
                old.unlink()
        for v in r.vectors:
            p = folder / (v.name + SUFFIX)
            text = dumps(v.document)
            if _old_text(p) != text:
                write_atomic(p, text)
            written.append(p)
    return written


def _old_text(path: Path) -> str | None:
    """The vector already at ``path``, or None where there is none to keep; OutputError for
    something that is not a regular file (a pipe or a device would take what we write)."""
    if not path.exists():
        return None
    try:
        return read_regular_file(path, MAX_FILE_BYTES).decode("utf-8")
    except UnicodeDecodeError:
        return None
    except UnreadableFile as e:
        if not path.is_file():
            raise OutputError(f"cannot write {path}: {e}") from None
        return None


def compare_sets(fresh: Path, golden: Path) -> list[str]:
    """One readable line per vector that was added, removed or changed."""
    lines = []
    fresh_files = {p.relative_to(fresh).as_posix() for p in fresh.rglob("*" + SUFFIX)}
    golden_files = {p.relative_to(golden).as_posix() for p in golden.rglob("*" + SUFFIX)} if golden.is_dir() else set()
    for name in sorted(fresh_files - golden_files):
        lines.append(f"added    {name}")
    for name in sorted(golden_files - fresh_files):
        lines.append(f"removed  {name}")
    for name in sorted(fresh_files & golden_files):
        a, b = golden / name, fresh / name
        if filecmp.cmp(a, b, shallow=False):
            continue
        lines.append(f"changed  {name}: {_change_summary(a, b)}")
    return lines


def _change_summary(old: Path, new: Path) -> str:
    """Where a vector changed: its #meta, and the first state (with the moves) that differs."""
    try:
        a = parse_document(read_regular_file(old, MAX_FILE_BYTES))
        b = parse_document(read_regular_file(new, MAX_FILE_BYTES))
    except (VectorError, UnreadableFile) as e:
        return f"unreadable golden file ({e})"
    parts = []
    ma, mb = a.get("#meta", {}), b.get("#meta", {})
    keys = [k for k in sorted(set(ma) | set(mb)) if ma.get(k) != mb.get(k)]
    if keys:
        parts.append("#meta " + ", ".join(keys))
    sa, sb = a.get("states", []), b.get("states", [])
    for i in range(max(len(sa), len(sb))):
        x = sa[i] if i < len(sa) else None
        y = sb[i] if i < len(sb) else None
        if x != y:
            def mv(s: Any) -> str:
                return (s or {}).get("#meta", {}).get("move", "(start)" if i == 0 else "(none)") if s else "(absent)"

            what = (
                "move"
                if mv(x) != mv(y)
                else next((k for k in sorted(set(x or {}) | set(y or {})) if (x or {}).get(k) != (y or {}).get(k)), "?")
            )
            parts.append(f"states from {i} differ ({what}: {mv(x)!r} -> {mv(y)!r}); {len(sa)} -> {len(sb)} states")
            break
    return "; ".join(parts) or "formatting only"


# --------------------------------------------------------------------------- the coverage table


def coverage_lines(reports: list[Report], show: int = 3) -> list[str]:
    lines = []
    for r in reports:
        if r.skipped or r.failed:
            lines.append(f"{r.ruleset}: {'skipped: ' + r.skipped if r.skipped else 'FAILED: ' + r.failed}")
            continue
        by_item: dict[str, list[str]] = {}
        for v in r.vectors:
            for c in v.clauses:
                by_item.setdefault(c, []).append(v.name)
            for k in v.option_keys:
                by_item.setdefault(k, []).append(v.name)
        items = sorted(set(by_item) | set(r.universe))
        width = max((len(i) for i in items), default=10)
        lines.append(f"{r.ruleset}: {len(r.vectors)} vectors in {r.seconds:.1f} s")
        lines.append(f"  {'clause / ruling=alternative'.ljust(width)}  vectors")
        for item in items:
            names = by_item.get(item, [])
            shown = ", ".join(names[:show]) + (f" +{len(names) - show} more" if len(names) > show else "")
            lines.append(f"  {item.ljust(width)}  {shown or '-- NONE --'}")
        missing = [i for i in r.universe if i not in by_item]
        clauses = [i for i in missing if "=" not in i and coverage.is_play_clause(r.ruleset, i)]
        facts = [i for i in missing if "=" not in i and not coverage.is_play_clause(r.ruleset, i)]
        alts = [i for i in missing if "=" in i]
        lines.append(f"  clauses with no vector ({len(clauses)}): {', '.join(clauses) or 'none'}")
        if facts:
            lines.append(
                f"  not about play (component facts, worked examples; see the proofs) ({len(facts)}): "
                f"{', '.join(facts)}"
            )
        lines.append(f"  ruling alternatives with no vector ({len(alts)}): {', '.join(alts) or 'none'}")
        for n in r.notes:
            lines.append(f"  note: {n}")
    return lines
