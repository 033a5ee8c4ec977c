"""The pages of the tablerules site, written as reStructuredText from the project (no Sphinx
needed here: ``tablerules_site.py`` is the Sphinx glue that calls these at build time).

Per rule set: an overview page (the hand-written ``docs/overviews/<stem>.rst`` and the rulings
at a glance), the clauses page, a rulings index and one page per ruling; then "Pictures from
the tools" and the traceability page.  Pictures are written under ``docs/rules/_pictures``.
"""

from __future__ import annotations

import time
import tomllib
from pathlib import Path
from typing import Any, Callable

from tablerules import traceability


class SiteError(Exception):
    """Something the site cannot be built without (the build stops with this message)."""


HERE = Path(__file__).resolve().parent
DOCS = HERE.parent
ROOT = DOCS.parent
OUT = DOCS / "rules"
PICTURES = OUT / "_pictures"

# Small configurations keep the build short; every figure states its configuration.
TOOLS = {
    "graph": ("dishes", 2, "2x2"),
    "levels": [("dishes", 2, "4x4"), ("dishes", 3, "2x4"), ("dishes", 4, "2x4")],
    "lengths_dishes": [("dishes", 2, "box"), ("dishes", 3, "box"), ("dishes", 4, "box")],
    "lengths_jd": [("just-desserts", 2, None), ("just-desserts-2.3", 2, None)],
    "games": 300,
}


# --------------------------------------------------------------------------- text helpers


def esc(text: Any) -> str:
    """Plain text made safe inside reStructuredText inline markup."""
    out = str(text)
    for ch in ("\\", "*", "`", "|", "_"):
        out = out.replace(ch, "\\" + ch)
    return out.replace("\n", " ")


def ref(entry_id: str, known: dict) -> str:
    """A link to a clause or ruling (literal text if the id is not known: traceability reports it)."""
    if entry_id not in known:
        return f"``{entry_id}``"
    return f":ruling:`{entry_id}`" if known[entry_id].kind == "ruling" else f":clause:`{entry_id}`"


def heading(text: str, char: str) -> list[str]:
    return [text, char * max(len(text), 3), ""]


def list_table(header: list[str], rows: list[list[str]], widths: list[int] | None = None, cls: str = "") -> list[str]:
    out = [".. list-table::", "   :header-rows: 1"]
    if widths:
        out.append("   :widths: " + " ".join(map(str, widths)))
    if cls:
        out.append(f"   :class: {cls}")
    out.append("")
    for row in [header] + rows:
        first = True
        for cell in row:
            lead = "   * - " if first else "     - "
            out.append(lead + (cell if str(cell).strip() else "\u2014"))
            first = False
    return out + [""]


def write_if_changed(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower()).strip("-")


# --------------------------------------------------------------------------- rule set pages


def load_specs() -> list[dict[str, Any]]:
    out = []
    for path in sorted((ROOT / "spec").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        data["_stem"] = path.stem
        out.append(data)
    return out


PUBLIC_NOTE = "a note kept beside the project, not published"
"""What a reader of the site is told about the file a public-source citation rests on
(shared/data/FACTS.md, or the clause's ``cite_file``): it lives outside the repository, so
the site names no path to open and shows our own paraphrase (the clause text, the
ruling's ``public_sources``) instead of its text."""


def _without_note_file(text: str, cite_file: str = "") -> str:
    """A citation with the unpublished note's file name taken off its front:
    ``shared/data/FACTS.md, 'Who Is ...'`` gives ``'Who Is ...'``, and ``FACTS.md: no public
    source ...`` gives ``No public source ...``.  Other text is returned unchanged."""
    out = str(text).strip()
    for name in dict.fromkeys(n for n in (cite_file, "FACTS.md") if n):
        for lead in (f"shared/data/{name}", name):
            sep = out[len(lead):len(lead) + 1]
            if out.startswith(lead) and sep in (",", ":"):
                rest = out[len(lead) + 1:].strip()
                return rest[:1].upper() + rest[1:] if sep == ":" else rest
    return out


def rulebook_line(spec: dict, clause: dict) -> str:
    """Where the clause comes from: seed file, heading, and the provenance fields when present.
    A public-source clause names its source and says that the note it is recorded in is not
    published; the clause text above is what the site shows of it."""
    lines = clause.get("lines")
    if clause.get("source") == "public":
        cite = _without_note_file(clause.get("cite", ""), clause.get("cite_file", ""))
        out = (f"public source: {esc(cite)}, recorded in " if cite else "a public source recorded in ") + PUBLIC_NOTE
        where = []
        if isinstance(lines, list) and len(lines) == 2:
            where.append(f"lines {lines[0]}\u2013{lines[1]}" if lines[0] != lines[1] else f"line {lines[0]}")
        if clause.get("digest"):
            where.append(f"digest ``{str(clause['digest'])[:19]}``")
        return out + (f" ({', '.join(where)})" if where else "") + "; the clause text is our paraphrase of it"
    seed = spec["ruleset"].get("seed", "")
    parts = [f"``{seed}``" if seed else "the rulebook", f"under *{esc(clause.get('heading', ''))}*"]
    if isinstance(lines, list) and len(lines) == 2:
        parts.append(f"lines {lines[0]}\u2013{lines[1]}" if lines[0] != lines[1] else f"line {lines[0]}")
    else:
        parts.append(":muted:`line range not recorded yet`")
    if clause.get("digest"):
        parts.append(f"digest ``{str(clause['digest'])[:19]}``")
    return ", ".join(parts)


def basis_line(clause: dict, known: dict) -> str:
    basis = clause.get("basis")
    if basis == "text":
        return "**text**: says what the cited sentences say"
    if basis == "reading":
        r = clause.get("ruling")
        return "**reading**: an interpretation" + (f", the default of {ref(r, known)}" if r else "")
    if basis:
        return esc(basis)
    return ":muted:`not recorded yet`"


def traced_line(tr: traceability.Trace, play: bool) -> str:
    parts = []
    if tr.tagged:
        parts.append("decision at " + ", ".join(f"``{p}:{n}``" for p, n, _ in tr.tagged[:3]))
    elif tr.mentions:
        parts.append("named at " + ", ".join(f"``{p}:{n}``" for p, n, _ in tr.mentions[:2]) + " (no tagged decision)")
    else:
        parts.append(":gap:`no model code`")
    parts.append(f"{len(tr.tests)} test file{'s' if len(tr.tests) != 1 else ''}" if tr.tests else ":gap:`no test`")
    if tr.vectors:
        parts.append(f"{len(tr.vectors)} vector{'s' if len(tr.vectors) != 1 else ''}")
    else:
        parts.append(":gap:`no vector`" if play else "no vector (not about play)")
    return "; ".join(parts) + " (:doc:`traceability </rules/traceability>`)"


def clauses_page(spec: dict, known: dict, report: traceability.Report) -> str:
    rs = spec["ruleset"]
    out = heading(f"Clauses of {rs['title']}", "=")
    out += [f"Every rule of ``{rs['id']}`` in our own words, grouped under the rulebook heading it comes from. "
            "Each clause has an anchor (link to it with ``:clause:`ID```), says where in the rulebook it rests and "
            "whether it states the text or a reading of it, and how far it is traced into code, tests and vectors.", "",
            ".. contents:: Headings", "   :local:", "   :backlinks: none", ""]
    groups: dict[str, list[dict]] = {}
    for c in spec.get("clause", []):
        groups.setdefault(c.get("heading", "(no heading)"), []).append(c)
    rulings_of: dict[str, list[str]] = {}
    for r in spec.get("ruling", []):
        for cid in r.get("clauses", []):
            rulings_of.setdefault(cid, []).append(r["id"])
    for head, clauses in groups.items():
        out += heading(esc(head), "-")
        for c in clauses:
            entry = report.entries.get(c["id"])
            tr = report.traces.get(c["id"], traceability.Trace())
            out += [f".. clause:: {c['id']}", "", f"   {esc(c['text'])}", "",
                    f"   :Rulebook: {rulebook_line(spec, c)}", f"   :Basis: {basis_line(c, known)}"]
            if c.get("restates"):
                out.append(f"   :Restates: {ref(c['restates'], known)}")
            if rulings_of.get(c["id"]):
                out.append("   :Rulings: " + ", ".join(ref(r, known) for r in rulings_of[c["id"]]))
            out += [f"   :Traced: {traced_line(tr, traceability.is_play(entry) if entry else True)}", ""]
    not_rules = spec.get("not_rule", [])
    if not_rules:
        out += heading("Lines that state no rule", "-")
        out += ["Every line of the rulebook is cited by a clause or listed here with the reason it states no rule.", ""]
        rows = []
        for n in not_rules:
            lines = n.get("lines") or []
            where = (
                f"{lines[0]}\u2013{lines[1]}"
                if len(lines) == 2 and lines[0] != lines[1]
                else (str(lines[0]) if lines else "")
            )
            rows.append([where, esc(n.get("reason", ""))])
        out += list_table(["lines", "why it is not a rule"], rows, [15, 85])
    return "\n".join(out) + "\n"


def ruleset_page(spec: dict, stem: str, known: dict) -> str:
    rs = spec["ruleset"]
    out = heading(f"{rs['title']}", "=")
    overview = DOCS / "overviews" / f"{stem}.rst"
    if overview.exists():
        out += [f".. include:: /overviews/{stem}.rst", ""]
    else:
        out += [f"Rule set ``{rs['id']}``. (No overview written yet: add ``docs/overviews/{stem}.rst``.)", ""]
    out += heading("Rulings at a glance", "-")
    rows = []
    for r in spec.get("ruling", []):
        rows.append([ref(r["id"], known), esc(r.get("question", "")), f"``{r.get('default', '')}``"])
    out += list_table(["ruling", "question", "default"], rows, [25, 60, 15])
    out += [".. toctree::", "   :maxdepth: 1", "", "   clauses", "   rulings/index", ""]
    return "\n".join(out) + "\n"


def rulings_index(spec: dict, known: dict) -> str:
    rs = spec["ruleset"]
    out = heading(f"Rulings of {rs['title']}", "=")
    out += ["Every place where the rulebook is silent, ambiguous or contradictory, with the alternatives "
            "the model implements, the default and why, the witness trace where the readings part, and "
            "what each alternative changes in play.", "", ".. toctree::", "   :maxdepth: 1", ""]
    out += [f"   {slug(r['id'].split('.ruling.', 1)[-1])}" for r in spec.get("ruling", [])]
    return "\n".join(out + [""]) + "\n"


# --------------------------------------------------------------------------- ruling pages


def _options_from(rules: Any, given: dict[str, Any]) -> Any:
    from tablerules.model.core import parse_options, ruling_fields, variant_fields

    rulings = ruling_fields(rules.Options)
    variants = variant_fields(rules.Options)
    pairs = [f"{k}={v}" for k, v in given.items() if k in rulings and not isinstance(v, bool)]
    on = [k for k, v in given.items() if k in variants and v is True]
    return parse_options(rules.Options, pairs, variants=on)


def ruling_job(rules: Any, rid: str, players: int, components: Any, deck: str | None,
               options: dict[str, Any]) -> Callable[[], Any]:
    """The slow part of a ruling page: the impact table rows and the effects plot (run in a
    forked process: the arguments are inherited, only the JSON result comes back)."""

    def run() -> dict[str, Any]:
        from tablerules.pictures import figures, plots

        base = _options_from(rules, options)
        t0 = time.perf_counter()
        rows = figures.impact_rows(rules, rid, players, components, base, deck=deck)
        exact = {row[0] for row in rows if row[2].startswith("exact")}
        effects = figures.alternative_effects(rules, rid, players, components, base, exact=exact)
        svg = plots.effects_figure(effects, f"{rid}: {players} players, {deck or 'default components'}")
        return {"rows": rows, "effects": [e.to_json() for e in effects], "svg": svg,
                "seconds": round(time.perf_counter() - t0, 2)}

    return run


def witness_section(rules: Any, ruling: dict, traces: list, known: dict, stem: str) -> list[str]:
    from tablerules.pictures.positions import draw

    out = heading("Witness", "-")
    if not traces:
        return out + [":gap:`No witness trace yet` for this ruling (no witness file cites it).", ""]
    for i, t in enumerate(traces):
        if t.label:
            out += heading(esc(t.label), "~")
        changed = {k: v for k, v in t.options.items() if v not in (False,) and _is_not_default(rules, k, v)}
        setting = ", ".join(f"``{k.split('.ruling.', 1)[-1]}={v}``" if not isinstance(v, bool) else f"``{k}``"
                            for k, v in changed.items())
        note = t.note.strip() or "a trace where the readings part"
        note = esc(note if note[-1] in ".?!" else note + ".")
        out += [f"From ``{t.file}``: {note}", "",
                f":Setup: {t.players} players, components ``{t.components or 'default'}``"
                + (f"; not at the default: {setting}" if setting else "; every ruling at its default"), ""]
        rows = []
        for s in t.steps:
            cl = ", ".join(ref(c, known) for c in s.clauses)
            rows.append([str(s.index), esc(s.actor), f"``{s.move}``", esc(s.probability) if s.probability else "",
                         cl])
        if rows:
            out += list_table(["step", "who", "move", "probability", "clauses exercised"], rows, [6, 10, 30, 10, 44],
                              cls="witness-steps")
        else:
            out += ["No move: the readings part at the very start.", ""]
        components = rules.load_components(t.components) if t.components and rules.load_components else None
        name = f"witness-{stem}-{slug(ruling['id'].split('.ruling.', 1)[-1])}-{i + 1}.svg"
        title = f"{ruling['id']}: the position after step {len(t.steps)}"
        write_if_changed(PICTURES / name, draw(rules.id, t.final, title=title, players=t.players, components=components,
                                               to_move=t.to_move or None))
        out += [
            f".. figure:: /rules/_pictures/{name}", f"   :alt: {title}", "",
            f"   The position after step {len(t.steps)}, where the readings part: drawn from the model's state.", "",
        ]
        if t.readings:
            out += ["What each reading does next:", ""]
            out += list_table(
                ["reading", "what follows"], [[f"``{k}``", esc(v)] for k, v in t.readings.items()], [30, 70]
            )
    return out


def _is_not_default(rules: Any, key: str, value: Any) -> bool:
    from tablerules.model.core import ruling_fields, variant_fields

    f = ruling_fields(rules.Options).get(key) or variant_fields(rules.Options).get(key)
    return f is not None and f.default != value


def sources_line(ruling: dict) -> str:
    """The ruling's ``public_sources`` (our summary of what public sources say).  One that
    rests on the project's unpublished notes (``FACTS.md: ...``) is shown as that summary,
    saying where it is kept, not as a file to open."""
    text = str(ruling["public_sources"])
    summary = _without_note_file(text)
    if summary == text.strip():
        return f"**Sources.** {esc(text)}"
    return f"**Sources.** {esc(summary)} (Recorded in {PUBLIC_NOTE}.)"


def ruling_page(spec: dict, ruling: dict, known: dict, traces: list, computed: dict[str, Any] | None,
                config_label: str, rules: Any) -> str:
    rid = ruling["id"]
    short = rid.split(".ruling.", 1)[-1]
    out = heading(short, "=")
    out += [f".. ruling:: {rid}", "", f"   **Question.** {esc(ruling.get('question', ''))}", ""]
    if ruling.get("clauses"):
        out += ["   :Concerns: " + ", ".join(ref(c, known) for c in ruling["clauses"])]
    readings = [c["id"] for c in spec.get("clause", []) if c.get("ruling") == rid]
    if readings:
        out += ["   :Its default is read into: " + ", ".join(ref(c, known) for c in readings)]
    out += [f"   :Found by: {esc(ruling.get('found_by', 'reading'))}"]
    if ruling.get("pending"):
        out += [f"   :Pending: {esc(ruling['pending'])}"]
    out += [""]
    out += heading("Alternatives", "-")
    rows = []
    for a in ruling.get("alternative", []):
        mark = "**default**" if a["id"] == ruling.get("default") else ""
        rows.append([f"``{a['id']}``", mark, esc(a.get("meaning", ""))])
    out += list_table(["alternative", "", "meaning"], rows, [20, 10, 70])
    out += [f"**Default and reason.** ``{ruling.get('default', '')}``: {esc(ruling.get('reason', ''))}", ""]
    if ruling.get("public_sources"):
        out += [sources_line(ruling), ""]
    ev = ruling.get("evidence", [])
    if ev:
        out += ["**Evidence on record.**", ""]
        for e in ev:
            where = e.get("file") or e.get("proof") or ""
            out += [
                f"* {esc(e.get('kind', ''))}" + (f" (``{where}``)" if where else "") + f": {esc(e.get('summary', ''))}"
            ]
        out += [""]
    out += witness_section(rules, ruling, traces, known, spec["_stem"])
    out += heading("What each alternative changes", "-")
    if computed is None:
        why = ruling.get("pending") or "the model has no option for this ruling"
        out += [f":gap:`Not measured yet`: {esc(why)}.", ""]
        return "\n".join(out) + "\n"
    from tablerules.proofs.discovery.impact import HEADER

    out += [f"Measured on {esc(config_label)}, every other option as in the witness (or at its default), under "
            "uniform random play: the player to move picks uniformly among its legal moves. Exact over the "
            "chance tree where the game is small and has no cycle, else sampled from seeded games (95% "
            "intervals in brackets). Length counts seat moves; chance events are not moves.", ""]
    out += list_table(list(HEADER), [[esc(c) for c in row] for row in computed["rows"]])
    name = f"impact-{spec['_stem']}-{slug(short)}.svg"
    write_if_changed(PICTURES / name, computed["svg"])
    methods = "; ".join(f"``{e['alternative']}``: {esc(e['method'])}" for e in computed["effects"])
    out += [f".. figure:: /rules/_pictures/{name}", f"   :alt: what each alternative of {rid} changes", "",
            "   Left: each seat's chance of losing (a seat loses when the outcome names it a loser, or names "
            "winners and not it); a cross marks the chance of meeting a rule gap. Right: expected seat moves per "
            f"game, with a 95% interval where sampled. ({methods}.)", ""]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- traceability page


def traceability_page(report: traceability.Report, specs: list[dict]) -> str:
    known = report.entries
    out = heading("Traceability", "=")
    out += ["Generated from the code at every build: for each clause, the model code that implements it (a line "
            "carrying the house tag ``# rule: <id>``, else the lines that name the id), the test files that name "
            "it, the reference vectors whose steps exercise it (``#meta.clauses``, written by "
            "``tablerules/vectors/coverage.py``), and the witness traces of the rulings that concern it. "
            ":gap:`Highlighted` cells are gaps: no code, no test, or no vector for a clause about play "
            "(clauses about components or worked examples are checked by proofs, not by play). "
            "The build fails on a dangling reference: an id that no spec defines, or a missing evidence file.", ""]
    out += heading("Counts", "-")
    rows = []
    total = {k: 0 for k in report.counts()}
    for spec in specs:
        rs = spec["ruleset"]["id"]
        c = report.counts(rs)
        for k in total:
            total[k] += c[k]
        rows.append([f"``{rs}``", *(str(c[k]) for k in total)])
    rows.append(["**all**", *(f"**{v}**" for v in total.values())])
    out += list_table(["rule set", *total.keys()], rows)
    out += ["*with code*: a tagged decision or a line naming the id; *tagged*: a line with ``# rule:``; "
            "*no vector (play)*: clauses about play that no vector exercises.", ""]
    for spec in specs:
        rs = spec["ruleset"]["id"]
        out += heading(esc(spec["ruleset"]["title"]), "-")
        rows = []
        for e in report.clauses(rs):
            t = report.traces[e.id]
            if t.tagged:
                code = ", ".join(f"``{p}:{n}``" for p, n, _ in t.tagged[:4])
            elif t.mentions:
                code = ", ".join(f"``{p}:{n}``" for p, n, _ in t.mentions[:2]) + " (names it)"
            else:
                code = ":gap:`none`"
            tests = ", ".join(f"``{Path(x).name}``" for x in t.tests[:3]) + (
                f" (+{len(t.tests) - 3})" if len(t.tests) > 3 else ""
            )
            if not t.vectors:
                vectors = ":gap:`none`" if traceability.is_play(e) else "not about play"
            else:
                vectors = f"{len(t.vectors)}"
            wit = ", ".join(f"``{Path(w).name}``" for w in t.witnesses[:2]) + (
                f" (+{len(t.witnesses) - 2})" if len(t.witnesses) > 2 else ""
            )
            rows.append([ref(e.id, known), code, tests or ":gap:`none`", vectors, wit])
        out += list_table(["clause", "model code", "tests", "vectors", "witnesses"], rows, [26, 26, 22, 8, 18],
                          cls="traceability")
        rulings = [e for e in report.entries.values() if e.kind == "ruling" and e.ruleset == rs]
        rows = []
        for e in rulings:
            t = report.traces[e.id]
            code = ", ".join(f"``{p}:{n}``" for p, n, _ in (t.tagged or t.mentions)[:2]) or ":gap:`none`"
            rows.append([ref(e.id, known), code, str(len(t.tests)) if t.tests else ":gap:`none`", str(len(t.vectors)),
                         ", ".join(f"``{Path(w).name}``" for w in t.witnesses) or ":gap:`none`"])
        out += ["Rulings:", ""]
        out += list_table(["ruling", "model code", "test files", "vectors", "witnesses"], rows, [30, 30, 10, 10, 20])
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- pictures from the tools


def tools_jobs() -> dict[str, Callable[[], Any]]:
    def graph() -> Any:
        from tablerules.pictures.figures import state_graph

        ruleset, players, deck = TOOLS["graph"]
        g = state_graph(ruleset, players, deck)
        return {"dot": g.dot(), "nodes": len(g.nodes), "edges": len(g.edges)}

    def levels() -> Any:
        from tablerules.pictures.figures import level_counts

        return {f"{p} players, {d} tiles": level_counts(rs, p, d) for rs, p, d in TOOLS["levels"]}

    def lengths(key: str) -> Callable[[], Any]:
        def run() -> Any:
            from tablerules.pictures.figures import game_lengths

            out = {}
            for rs, p, d in TOOLS[key]:
                counts, unfinished = game_lengths(rs, p, d, games=TOOLS["games"])
                out[f"{rs}, {p} players{', ' + d if d else ''}"] = [sorted(counts.items()), unfinished]
            return out

        return run

    return {
        "tools-graph.json": graph, "tools-levels.json": levels, "tools-lengths-dishes.json": lengths("lengths_dishes"),
        "tools-lengths-jd.json": lengths("lengths_jd"),
    }


def render_dot(dot: str) -> str:
    """SVG from graphviz's ``dot`` program; a missing program or package stops the build, saying what to install."""
    try:
        import graphviz
    except ImportError:
        raise SiteError("the graphviz Python package is not installed (pip install '.[docs]'), so the state graph "
                        "cannot be drawn") from None
    try:
        return graphviz.Source(dot).pipe(format="svg").decode("utf-8")
    except graphviz.ExecutableNotFound:
        raise SiteError("graphviz's 'dot' program is not installed, so the state graph cannot be drawn "
                        "(Debian: apt-get install graphviz; .ci/run installs it)") from None


def tools_page(results: dict[str, Any]) -> str:
    from collections import Counter

    from tablerules.pictures import plots

    out = heading("Pictures from the tools", "=")
    out += ["Every picture on this page is computed while the site is built, by the project's own functions "
            "(``tablerules.pictures.figures``), so it changes when the rules do.", ""]
    g = results["tools-graph.json"]
    ruleset, players, deck = TOOLS["graph"]
    write_if_changed(PICTURES / "tools-state-graph.svg", render_dot(g["dot"]))
    out += heading("The state graph of a tiny game", "-")
    out += [f"*Who Is Going to Do the Dishes?* for {players} players with {deck} tiles (two kinds in two colours): "
            f"every state the explorer keeps ({g['nodes']} nodes, {g['edges']} moves between them), with states that "
            "differ only by renaming colours or kinds drawn once. Circles are seats to move (the number is the "
            "seat), diamonds are chance events (a turned tile's colour), boxes are ends with the result. "
            "Every path from the top reaches an end: the graph has no cycle and no dead end.", "",
            ".. figure:: /rules/_pictures/tools-state-graph.svg", "   :alt: state graph of a tiny Dishes game",
            "   :width: 100%", "   :target: ../_images/tools-state-graph.svg", "",
            "   Drawn with graphviz from ``figures.state_graph()`` (select the picture to see it full size).", ""]
    from tablerules.pictures.figures import LEVELS_UNIT

    levels = results["tools-levels.json"]
    write_if_changed(PICTURES / "tools-levels.svg", plots.levels_figure(levels, "table states at this level"))
    out += heading("States per level of the exact search", "-")
    out += ["How many states *Who Is Going to Do the Dishes?* has at each level, a level being the number of actions "
            f"played so far, on tile sets small enough to count while the site is built. The unit: {esc(LEVELS_UNIT)}. "
            "Each level is complete before the next starts; the boxed game's levels are in :doc:`/exact`.", "",
            ".. figure:: /rules/_pictures/tools-levels.svg", "   :alt: table states per level", "",
            "   From ``figures.level_counts()`` (the exact engine, ``tablerules.proofs.exact.run.solve``).", ""]
    games = TOOLS["games"]
    for key, title, text in (
        (
            "tools-lengths-dishes.json", "Dishes",
            "*Who Is Going to Do the Dishes?*, boxed game (six kinds, four colours)",
        ),
        (
            "tools-lengths-jd.json", "Just Desserts",
            "*Just Desserts* (current rulebook, basic game) and rules version 2.3, on the default teaching decks",
        ),
    ):
        series = {label: (Counter(dict((int(k), v) for k, v in items)), unfinished)
                  for label, (items, unfinished) in results[key].items()}
        name = f"tools-lengths-{slug(title)}.svg"
        write_if_changed(PICTURES / name, plots.lengths_figure(series, games))
        out += heading(f"Game lengths under random play: {title}", "-")
        out += [f"{text}: {games} seeded games per configuration in which the player to move picks uniformly "
                "among its legal moves. Length counts seat moves (a forced pass counts as a move where the rules "
                "make it one); chance events are not moves.", "",
                f".. figure:: /rules/_pictures/{name}", f"   :alt: game lengths, {title}", "",
                "   From ``figures.game_lengths()``.", ""]
    return "\n".join(out) + "\n"
