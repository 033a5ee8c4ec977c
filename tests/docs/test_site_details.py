"""Details of the site a reader meets: the traceability tables fit the page, and citations of
the project's unpublished notes (shared/data/FACTS.md, the facts about components that the
rulebooks omit) show our paraphrase rather than a file the reader cannot open.

The generators are loaded and called without a Sphinx build (as in test_site_sources.py);
the browser check (marked ``browser``) measures the built traceability page in headless
Chromium at the 1280 px window tests/docs/test_browser.py uses.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.docs.site_modules import load

REPO = Path(__file__).resolve().parents[2]
CSS = REPO / "docs" / "_static" / "tablerules.css"


_load = load


@pytest.fixture(scope="module")
def pages():
    return _load(REPO / "docs" / "_ext" / "pages.py", "_details_pages")


@pytest.fixture(scope="module")
def report():
    from tablerules import traceability

    return traceability.scan(REPO)


# --------------------------------------------------------------------------- traceability table


def _rules(css: str) -> list[tuple[list[str], dict[str, str]]]:
    """(selectors, declarations) of every rule of a plain stylesheet (no @media here)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    out = []
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        decls = {}
        for d in body.split(";"):
            if ":" in d:
                k, v = d.split(":", 1)
                decls[k.strip().lower()] = v.strip().lower()
        out.append(([s.strip() for s in selectors.split(",")], decls))
    return out


def _declared(selector_re: str, prop: str) -> set[str]:
    return {
        d[prop] for sels, d in _rules(CSS.read_text()) if prop in d and any(re.fullmatch(selector_re, s) for s in sels)
    }


def test_the_traceability_table_is_laid_out_to_fit_the_page():
    """Fixed layout at the body's width, and cell text (long ids, file:line literals, which
    Sphinx marks ``white-space: nowrap``) allowed to wrap: nothing can push the witnesses
    column past the page."""
    assert "fixed" in _declared(r"table\.traceability", "table-layout")
    assert "100%" in _declared(r"table\.traceability", "width")
    assert _declared(r"table\.traceability (td|th)", "overflow-wrap") & {"anywhere", "break-word"}
    assert "normal" in _declared(r"table\.traceability (code|span\.pre)", "white-space")
    assert _declared(r"table\.traceability (code|span\.pre)", "word-break") & {"break-all"} or \
        _declared(r"table\.traceability (code|span\.pre)", "overflow-wrap") & {"anywhere"}


def test_the_traceability_page_tables_carry_the_class_or_sit_in_its_section(pages):
    """The clause tables have class ``traceability``; the CSS reaches the rulings tables
    through the page's section (id ``traceability``, from its title)."""
    assert pages.heading("Traceability", "=")[0] == "Traceability"
    assert "fixed" in _declared(r"section#traceability table\.docutils", "table-layout")


# The built site and headless Chromium, as the browser test gets them (it builds the site
# when TABLERULES_DOCS_HTML names none, and skips, or fails under TABLERULES_REQUIRE_BROWSER=1,
# where no browser can be had).
_browser_test = _load(REPO / "tests" / "docs" / "test_browser.py", "_details_browser")
site = _browser_test.site
browser = _browser_test.browser


@pytest.mark.browser
def test_the_traceability_tables_are_within_the_window_at_1280_px(site, browser):
    """Every table of the traceability page ends inside the window (1280 px wide), or, if it
    is wider, scrolls inside its own box; its last column (witnesses) is on screen."""
    browser.set_window_size(1280, 1600)
    browser.get((Path(site) / "rules" / "traceability.html").resolve().as_uri())
    found = browser.execute_script("""
        const width = document.documentElement.clientWidth;
        return Array.from(document.querySelectorAll('table.docutils')).map(t => {
            const r = t.getBoundingClientRect();
            const heads = t.querySelectorAll('thead th');
            const last = heads.length ? heads[heads.length - 1].getBoundingClientRect().right : r.right;
            const box = t.parentElement;
            const scrolls = ['auto', 'scroll'].includes(getComputedStyle(t).overflowX) && t.scrollWidth > t.clientWidth
                || ['auto', 'scroll'].includes(getComputedStyle(box).overflowX) && box.scrollWidth > box.clientWidth;
            return {cls: t.className, right: r.right, last: last, width: width, scrolls: scrolls,
                    page: document.documentElement.scrollWidth};
        });
    """)
    tables = [t for t in found if "traceability" in t["cls"]]
    assert tables, "no table.traceability on the traceability page"
    for t in found:
        assert t["scrolls"] or (t["right"] <= t["width"] + 0.5 and t["last"] <= t["width"] + 0.5), t
    assert found[0]["page"] <= found[0]["width"], "the page scrolls sideways"


# --------------------------------------------------------------------------- citations of FACTS.md


def _cites_the_note_as_a_file(text: str) -> list[str]:
    """Places where a page presents the unpublished note as a path or link to open."""
    bad = re.findall(
        r"[^\n]*(?:shared/data/|``[^`]*FACTS\.md[^`]*``|<[^>]*FACTS\.md>|:download:|FACTS\.md)[^\n]*", text
    )
    return [b for b in bad if "FACTS.md" in b or "shared/data/" in b]


def _spec(pages, stem: str) -> dict:
    return next(s for s in pages.load_specs() if s["_stem"] == stem)


def test_a_dishes_clause_page_shows_the_paraphrase_and_names_no_note_to_open(pages, report):
    spec = _spec(pages, "dishes")
    page = pages.clauses_page(spec, report.entries, report)
    assert _cites_the_note_as_a_file(page) == []
    clause = next(c for c in spec["clause"] if c["id"] == "dishes.components.colour-sets")
    assert "FACTS.md" in clause["cite"]  # the spec does cite the note
    block = page.split(".. clause:: dishes.components.colour-sets", 1)[1].split(".. clause::", 1)[0]
    assert pages.esc(clause["text"]) in block  # what the citation says, in our words
    assert "public source: 'Who Is Going to Do the Dishes?' (component facts; the rulebook is silent)" in block
    assert "a note kept beside the project, not published" in block and "lines 12\u201315" in block


def test_every_clause_page_names_no_note_to_open(pages, report):
    specs = pages.load_specs()
    assert len(specs) >= 3 and any(c.get("source") == "public" for s in specs for c in s["clause"])
    for spec in specs:
        assert _cites_the_note_as_a_file(pages.clauses_page(spec, report.entries, report)) == [], spec["_stem"]


def test_a_dishes_ruling_page_shows_what_the_notes_say_not_the_file(pages, report):
    from tablerules.model import registry

    spec = _spec(pages, "dishes")
    rules = registry.get("dishes")
    for rid, summary in [
        ("dishes.ruling.colour-model", "Four colours in four sets of six tiles, one of each kind per colour."),
        ("dishes.ruling.deal-2-players", "No public source found says how to deal with 2 or 3 players."),
    ]:
        ruling = next(r for r in spec["ruling"] if r["id"] == rid)
        assert ruling["public_sources"].startswith("FACTS.md")
        page = pages.ruling_page(spec, ruling, report.entries, [], None, "", rules)
        assert _cites_the_note_as_a_file(page) == [], rid
        assert f"**Sources.** {summary} (Recorded in a note kept beside the project, not published.)" in page


def test_sources_that_are_not_the_notes_are_shown_as_written(pages):
    text = "Looney Labs FAQ for Just Desserts, question 1026 (the publisher's answer), for the basic game only."
    assert pages.sources_line({"public_sources": text}) == f"**Sources.** {pages.esc(text)}"
    specs = pages.load_specs()
    assert (
        sum(1 for s in specs for r in s.get("ruling", []) if str(r.get("public_sources", "")).startswith("FACTS.md"))
        >= 3
    )
    for spec in specs:
        for r in spec.get("ruling", []):
            if r.get("public_sources"):
                assert _cites_the_note_as_a_file(pages.sources_line(r)) == [], r["id"]
