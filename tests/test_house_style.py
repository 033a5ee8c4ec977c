"""The house style that a reader sees first: no line of the project's Python over 120 characters."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("spec", "model", "proofs", "tablerules", "tests", "docs", "benchmarks", "interop")
LIMIT = 120


def _python_files() -> list[Path]:
    out = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if not {"_build", "node_modules", "__pycache__"} & set(path.parts):
                out.append(path)
    return out


def test_no_line_is_longer_than_120_characters():
    files = _python_files()
    assert len(files) > 100, "the project's Python files were not found"
    long = [f"{p.relative_to(ROOT)}:{n}: {len(line)} characters"
            for p in files for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if len(line) > LIMIT]
    assert not long, f"{len(long)} lines over {LIMIT} characters:\n" + "\n".join(long[:30])
