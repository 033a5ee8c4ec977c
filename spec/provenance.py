"""Where each clause comes from: citations of rulebook lines, checked against the rulebooks.

A clause cites ``lines = [FIRST, LAST]`` of its rule set's seed file (or, for a public
source, of a file under ``shared/data``) with a ``digest`` of the cited text; ``[[not_rule]]``
entries list the seed lines that state no rule.  This module checks the citations against
the files (which live beside the checkout, in ``../shared``, and are never copied into the
project), lists seed lines nobody cites, and rewrites stale digests::

    python -m tablerules.spec.provenance check [SPEC.toml ...]   # problems, one per line
    python -m tablerules.spec.provenance stamp SPEC.toml ...     # recompute every digest in place

Coverage is by line, the unit a citation names: a line is accounted for when a clause or a
not_rule cites it.  Blank lines need no citation.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .loader import PUBLIC_FILE, Spec, SpecError, load_spec, spec_path

SPEC_IDS = ("dishes", "just-desserts", "just-desserts-2.3")


def digest_of(lines: Sequence[str], first: int, last: int) -> str:
    """First 16 hex digits of sha256 of lines FIRST..LAST (1-based, inclusive) joined with a newline."""
    return hashlib.sha256("\n".join(lines[first - 1:last]).encode("utf-8")).hexdigest()[:16]


def shared_folder(start: Path | None = None) -> Path:
    """``shared/`` beside the checkout: $TABLERULES_SHARED, else ``../shared`` of the repository root."""
    env = os.environ.get("TABLERULES_SHARED")
    if env:
        return Path(env)
    here = (start or Path(__file__)).resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").exists():
            return parent.parent / "shared"
    return Path.cwd().parent / "shared"


@dataclass(frozen=True)
class Sources:
    """The folders citations point into."""

    seeds: Path
    data: Path

    @classmethod
    def beside(cls, shared: Path | None = None) -> "Sources":
        shared = shared or shared_folder()
        return cls(shared / "seeds", shared / "data")

    def file(self, name: str, public: bool) -> Path:
        """A cited file: under data/ for a public source, else under seeds/."""
        return (self.data if public else self.seeds) / name


def _read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def citations(spec: Spec) -> list[tuple[str, str, bool, tuple[int, int], str]]:
    """(entry, file, public, lines, digest) for every clause and not_rule with lines."""
    out = []
    for c in spec.clauses.values():
        if c.lines is not None:
            out.append((f"clause {c.id}", c.cited_file(spec.seed), c.source == "public", c.lines, c.digest))
    for n in spec.not_rules:
        out.append((f"not_rule {list(n.lines)} ({n.reason})", spec.seed, False, n.lines, n.digest))
    return out


def check_citations(spec: Spec, sources: Sources) -> tuple[list[str], list[str]]:
    """(problems, files missing): each problem one line naming the spec file, entry and what is wrong."""
    problems, missing = [], []
    cache: dict[Path, list[str] | None] = {}
    for entry, file, public, (first, last), digest in citations(spec):
        path = sources.file(file, public)
        if path not in cache:
            cache[path] = _read_lines(path) if path.exists() else None
            if cache[path] is None:
                missing.append(str(path))
        text = cache[path]
        if text is None:
            continue
        if last > len(text):
            problems.append(f"{spec.path}: {entry}: lines [{first}, {last}] pass the end of {file} ({len(text)} lines)")
            continue
        if not any(line.strip() for line in text[first - 1:last]):
            problems.append(f"{spec.path}: {entry}: lines [{first}, {last}] of {file} are blank")
            continue
        now = digest_of(text, first, last)
        if now != digest:
            problems.append(f"{spec.path}: {entry}: digest {digest} does not match lines [{first}, {last}] of {file} "
                            f"(now {now}): the cited text changed; re-read it and restamp")
    return problems, missing


def uncited_lines(spec: Spec, sources: Sources) -> list[int] | None:
    """Non-blank seed lines no clause or not_rule cites (None when the seed is absent)."""
    path = sources.seeds / spec.seed
    if not path.exists():
        return None
    text = _read_lines(path)
    cited = set()
    for _entry, _file, public, (first, last), _digest in citations(spec):
        if not public:
            cited.update(range(first, last + 1))
    return [i for i, line in enumerate(text, 1) if line.strip() and i not in cited]


def basis_counts(spec: Spec) -> dict[str, int]:
    out = {"text": 0, "reading": 0}
    for c in spec.clauses.values():
        out[c.basis] += 1
    return out


# --------------------------------------------------------------------------- stamping digests

_TABLE = re.compile(r"^\s*\[\[(clause|not_rule)\]\]\s*$")
_OTHER_TABLE = re.compile(r"^\s*\[")
_LINES = re.compile(r"^\s*lines\s*=\s*\[\s*(\d+)\s*,\s*(\d+)\s*\]")
_DIGEST = re.compile(r'^(\s*digest\s*=\s*)"[^"]*"(.*)$')
_SOURCE = re.compile(r'^\s*source\s*=\s*"public"')
_CITE_FILE = re.compile(r'^\s*cite_file\s*=\s*"([^"]+)"')


def stamp(path: Path, seed: str, sources: Sources) -> int:
    """Rewrite the digest of every clause and not_rule in a spec file from its lines; how many changed.

    Works on the text (comments and layout stay as they are): within each ``[[clause]]`` or
    ``[[not_rule]]`` table the ``digest = "..."`` line is recomputed from ``lines``.
    """
    text = path.read_text(encoding="utf-8").split("\n")
    changed = 0
    i = 0
    while i < len(text):
        if not _TABLE.match(text[i]):
            i += 1
            continue
        j = i + 1
        while j < len(text) and not _OTHER_TABLE.match(text[j]):
            j += 1
        body = range(i + 1, j)
        lines = next((m for m in (_LINES.match(text[k]) for k in body) if m), None)
        public = any(_SOURCE.match(text[k]) for k in body)
        cf = next((m.group(1) for m in (_CITE_FILE.match(text[k]) for k in body) if m), None)
        if lines is not None:
            file = sources.file((cf or PUBLIC_FILE) if public else seed, public)
            src = _read_lines(file)
            value = digest_of(src, int(lines.group(1)), int(lines.group(2)))
            for k in body:
                m = _DIGEST.match(text[k])
                if m:
                    new = f'{m.group(1)}"{value}"{m.group(2)}'
                    if new != text[k]:
                        text[k] = new
                        changed += 1
                    break
        i = j
    path.write_text("\n".join(text), encoding="utf-8")
    return changed


def main(argv: Sequence[str]) -> int:
    if not argv or argv[0] not in ("check", "stamp"):
        print("usage: python -m tablerules.spec.provenance check|stamp [SPEC.toml ...]", file=sys.stderr)
        return 2
    sources = Sources.beside()
    files = [Path(a) for a in argv[1:]] or [spec_path(i) for i in SPEC_IDS]
    status = 0
    for f in files:
        try:
            spec = load_spec(f)
        except SpecError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        if argv[0] == "stamp":
            n = stamp(f, spec.seed, sources)
            print(f"{f}: {n} digests rewritten")
            continue
        problems, missing = check_citations(spec, sources)
        for m in missing:
            print(f"{f}: cannot check citations: {m} is absent")
        for p in problems:
            print(p)
        left = uncited_lines(spec, sources)
        if left:
            print(f"{f}: seed lines cited by no clause or not_rule: {left}")
        counts = basis_counts(spec)
        print(f"{f}: {len(spec.clauses)} clauses ({counts['text']} text, {counts['reading']} reading), "
              f"{len(spec.not_rules)} not_rule entries, {len(problems)} problems")
        status = max(status, 1 if problems or left else 0)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
