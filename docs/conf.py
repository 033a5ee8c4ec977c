"""Sphinx configuration.  Rule pages are generated from spec/*.toml before each build."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

project = "tablerules"
author = "the tablerules team"
copyright = "2026, the tablerules team"
extensions: list[str] = []
exclude_patterns = ["_build"]
html_theme = "alabaster"
nitpicky = True


def _esc(text: str) -> str:
    for ch in ("\\", "*", "`", "|", "_"):
        text = text.replace(ch, "\\" + ch)
    return text


def _rule_page(path: Path) -> tuple[str, str]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    rs = data["ruleset"]
    title = f"{rs['title']} (``{rs['id']}``)"
    out = [title, "=" * len(title), "",
           f"Generated from ``spec/{path.name}``. Rulebook: ``shared/seeds/{rs.get('seed', '')}``.", ""]
    out += ["Clauses", "-------", ""]
    heading = None
    for c in data.get("clause", []):
        if c["heading"] != heading:
            heading = c["heading"]
            out += [f"**{_esc(heading)}**", ""]
        src = " *(public source: " + _esc(c["cite"]) + ")*" if c.get("source") == "public" else ""
        out += [f"``{c['id']}``", f"   {_esc(c['text'])}{src}", ""]
    out += ["Rulings", "-------", ""]
    for r in data.get("ruling", []):
        rid = r["id"]
        out += [f"``{rid}``", "~" * (len(rid) + 4), "", f"**Question.** {_esc(r['question'])}", ""]
        for a in r.get("alternative", []):
            mark = " **(default)**" if a["id"] == r["default"] else ""
            out += [f"* ``{a['id']}``{mark}: {_esc(a['meaning'])}"]
        out += ["", f"**Reason.** {_esc(r['reason'])}", ""]
        if r.get("public_sources"):
            out += [f"**Public sources.** {_esc(r['public_sources'])}", ""]
        for e in r.get("evidence", []):
            where = e.get("file") or e.get("proof") or ""
            out += [f"* Evidence ({_esc(e['kind'])}{', ``' + where + '``' if where else ''}): {_esc(e['summary'])}"]
        out += [""]
    return rs["id"], "\n".join(out) + "\n"


def generate(app=None) -> None:
    target = HERE / "rules"
    target.mkdir(exist_ok=True)
    names = []
    for path in sorted((ROOT / "spec").glob("*.toml")):
        rid, text = _rule_page(path)
        name = path.stem
        (target / f"{name}.rst").write_text(text, encoding="utf-8")
        names.append(name)
    index = ["Rule sets", "=========", "", ".. toctree::", "   :maxdepth: 2", ""] + [f"   {n}" for n in names]
    (target / "index.rst").write_text("\n".join(index) + "\n", encoding="utf-8")


def generate_schemas(app=None) -> None:
    """docs/schemas/index.rst: every JSON Schema of spec/schemas/ (tablerules.schemas.rst_page)."""
    from tablerules import schemas

    (HERE / "schemas").mkdir(exist_ok=True)
    (HERE / "schemas" / "index.rst").write_text(schemas.rst_page(), encoding="utf-8")


generate()
generate_schemas()


def setup(app):
    app.connect("builder-inited", generate)
    app.connect("builder-inited", generate_schemas)
