"""The house style that a reader sees first: no line of the project's Python over 120 characters, and
no module of the properties over about 800 lines (a rule set's properties live by clause family)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("spec", "model", "proofs", "tablerules", "tests", "docs", "benchmarks", "interop")
LIMIT = 120
MODULE_LINES = 800
"""The most lines a module of proofs/properties/ may have."""


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


def test_no_module_of_the_properties_is_over_about_800_lines():
    modules = sorted((ROOT / "proofs" / "properties").rglob("*.py"))
    assert modules, "the modules of proofs/properties/ were not found"
    big = [f"{p.relative_to(ROOT)}: {n} lines" for p in modules
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MODULE_LINES]
    assert not big, f"modules over {MODULE_LINES} lines (split them by clause family):\n" + "\n".join(big)
