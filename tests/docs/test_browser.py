"""The built site in a real browser (headless Chromium): pages render, pictures load, internal
links resolve; a screenshot of every page checked.

Marked ``browser``: the default test run leaves it out (``-m "not browser"`` in
pyproject.toml) and CI runs it after building the docs::

    TABLERULES_DOCS_HTML=docs/_build/html TABLERULES_REQUIRE_BROWSER=1 \\
    TABLERULES_SCREENSHOTS=docs/_build/screenshots pytest -m browser tests/docs

Without ``TABLERULES_DOCS_HTML`` the site is built into a temporary folder first.  Where no
browser can be had (no Chromium, no chromedriver, no selenium) the tests skip and say why;
with ``TABLERULES_REQUIRE_BROWSER=1`` (CI) they fail instead.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("TABLERULES_REQUIRE_BROWSER") == "1"
CHROME_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--window-size=1280,1600")


def _unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"TABLERULES_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    given = os.environ.get("TABLERULES_DOCS_HTML")
    if given:
        path = Path(given).resolve()
        assert (path / "index.html").exists(), (
            f"TABLERULES_DOCS_HTML={given}: no index.html there (build the docs first)"
        )
        return path
    if importlib.util.find_spec("sphinx") is None:
        _unavailable("sphinx is not installed (pip install '.[docs]'), so the site cannot be built")
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(REPO / "docs"), str(out)],
                         capture_output=True, text=True)
    assert run.returncode == 0, f"the docs do not build:\n{run.stderr[-3000:]}"
    return out


@pytest.fixture(scope="module")
def browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _unavailable("selenium is not installed (pip install '.[docs]')")
    chrome = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    driver = shutil.which("chromedriver")
    if not chrome or not driver:
        _unavailable("no headless Chromium here (Debian: apt-get install chromium chromium-driver; .ci/run does)")
    options = webdriver.ChromeOptions()
    options.binary_location = chrome
    for flag in CHROME_FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="tablerules-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    try:
        b = webdriver.Chrome(service=Service(driver), options=options)
    except Exception as e:  # noqa: BLE001 - any failure to start is "no browser here"
        _unavailable(f"Chromium did not start: {str(e).splitlines()[0]}")
    yield b
    b.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("TABLERULES_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _pages(site: Path) -> list[tuple[str, str]]:
    """(name, path under the site): the home page, one rule page per rule set, one ruling page
    with a witness picture, the traceability page, the pictures from the tools."""
    pages = [("home", "index.html")]
    for d in sorted(
        p for p in (site / "rules").iterdir() if (p / "index.html").exists() and (p / "clauses.html").exists()
    ):
        pages.append((f"rules-{d.name}", f"rules/{d.name}/index.html"))
        pages.append((f"clauses-{d.name}", f"rules/{d.name}/clauses.html"))
    ruling = site / "rules" / "dishes" / "rulings" / "tie-for-most.html"
    if not ruling.exists():
        ruling = next(p for p in sorted((site / "rules").glob("*/rulings/*.html"))
                      if p.name != "index.html" and "witness-" in p.read_text(encoding="utf-8"))
    pages.append((f"ruling-{ruling.stem}", ruling.relative_to(site).as_posix()))
    pages += [("traceability", "rules/traceability.html"), ("tools", "rules/tools.html")]
    return pages


def _ids(html_file: Path, cache: dict[Path, set[str]]) -> set[str]:
    if html_file not in cache:
        text = html_file.read_text(encoding="utf-8", errors="replace")
        cache[html_file] = set(re.findall(r'\bid="([^"]+)"', text)) | set(re.findall(r'\bname="([^"]+)"', text))
    return cache[html_file]


def broken_internal_links(site: Path, html_file: Path, hrefs: list[str], cache: dict[Path, set[str]]) -> list[str]:
    """Links of ``html_file`` to a file of the site that is missing, or to an anchor it lacks."""
    bad = []
    for href in hrefs:
        url = urlparse(href)
        if url.scheme in ("http", "https", "mailto", "javascript", "data"):
            continue
        target = Path(unquote(url.path)) if url.scheme == "file" else (html_file.parent / unquote(url.path)).resolve()
        if url.scheme != "file" and not url.path:
            target = html_file
        if target.is_dir():
            target = target / "index.html"
        if not target.exists():
            bad.append(f"{href} (no such file)")
        elif url.fragment and target.suffix == ".html" and unquote(url.fragment) not in _ids(target, cache):
            bad.append(f"{href} (no anchor #{url.fragment})")
    return bad


def test_every_internal_link_of_the_site_resolves(site):
    """Every href and src in every built page points at a file (and anchor) that exists."""
    cache: dict[Path, set[str]] = {}
    bad = []
    pages = sorted(p for p in site.rglob("*.html") if "_modules" not in p.parts)
    assert len(pages) > 20
    for page in pages:
        text = page.read_text(encoding="utf-8", errors="replace")
        links = re.findall(r'\b(?:href|src)="([^"]+)"', text)
        bad += [f"{page.relative_to(site)}: {b}" for b in broken_internal_links(site, page, links, cache)]
    assert not bad, "broken internal links:\n" + "\n".join(bad[:40])


def test_the_link_check_finds_a_missing_file_and_a_missing_anchor(tmp_path):
    (tmp_path / "a.html").write_text('<p id="here">a</p>')
    page = tmp_path / "b.html"
    page.write_text("b")
    cache: dict[Path, set[str]] = {}
    links = ["a.html#here", "#", "https://example.org/x", "a.html#gone", "missing.html", page.as_uri()]
    assert broken_internal_links(tmp_path, page, links, cache) == ["a.html#gone (no anchor #gone)",
                                                                  "missing.html (no such file)"]


def _not_blank(png: bytes) -> float:
    """The share of pixels that differ from the page's most common colour."""
    import io

    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB").resize((320, 400))
    colours = img.getcolors(maxcolors=320 * 400)
    top = max(colours)[0]
    return 1 - top / (320 * 400)


def test_pages_render_with_their_pictures_and_links(site, browser, shots):
    taken, problems = [], []
    cache: dict[Path, set[str]] = {}
    for name, rel in _pages(site):
        page = site / rel
        browser.get(page.as_uri())
        state = browser.execute_script(
            "return {ready: document.readyState, text: document.body.innerText.length,"
            " images: Array.from(document.images).map(i => [i.getAttribute('src'), i.complete, i.naturalWidth]),"
            " links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href)}")
        full = browser.execute_script("return Math.min(document.body.scrollHeight, 12000)")
        browser.set_window_size(1280, max(800, full))
        png = browser.get_screenshot_as_png()
        browser.set_window_size(1280, 1600)
        out = shots / f"{name}.png"
        out.write_bytes(png)
        taken.append(out)
        where = f"{name} ({rel})"
        if state["text"] < 300:
            problems.append(f"{where}: blank page ({state['text']} characters of text)")
        if _not_blank(png) < 0.02:
            problems.append(f"{where}: the screenshot is nearly one colour")
        missing = [src for src, done, width in state["images"] if not done or not width]
        if missing:
            problems.append(f"{where}: pictures that did not load: {missing}")
        wants_picture = name.startswith(("rules-", "ruling-", "tools"))
        if wants_picture and not state["images"]:
            problems.append(f"{where}: no picture")
        problems += [f"{where}: broken link {b}" for b in broken_internal_links(site, page, state["links"], cache)]
    print("\nscreenshots:\n" + "\n".join(f"  {p}" for p in taken))
    assert not problems, "\n".join(problems)
    assert len(taken) >= 6
