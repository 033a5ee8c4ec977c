"""Screenshots of the judge's workbench, made by the site's build.

``.. tablerules-workbench:: NAME`` opens the workbench (served in-process on a free port of
127.0.0.1, once per build) in headless Chromium (the docs' browser setup: selenium driving
Debian's chromium and chromedriver) at the position a link gives, does what the options say,
and shows a screenshot of the page or of one part of it; the caption is the directive's content.

The rulebook is not reprinted on this site: while the screenshots are taken, the workbench's
answers do not find the rulebook files (``TABLERULES_SHARED`` points at no folder), so an answer
names the lines of its clause without printing them, as ``tablerules explain`` does on the
judge's guide.

Options: ``:query:`` the page address's query (a link the workbench made); ``:ask:`` a move to
ask about; ``:compare:`` ``RULING A B`` to compare; ``:part:`` the id of the part to show (default:
the page's first screen); ``:width:`` the window's width in CSS pixels (default 1280).

The pictures go to ``docs/rules/_pictures/workbench-NAME.png`` beside the site's other generated
pictures.  Where no browser can be had the page says so in place of the picture (and, with
``TABLERULES_REQUIRE_BROWSER=1``, as CI sets it, the build stops instead).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)
PICTURES = Path(__file__).resolve().parent.parent / "rules" / "_pictures"
CHROME_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars",
                "--force-device-scale-factor=1")
NO_RULEBOOK = "rulebooks-not-reprinted-here"
"""Where the screenshots' workbench looks for the rulebook files: nowhere (see the module docstring)."""
WAIT_SECONDS = 120.0
"""How long one action may keep the page busy (a busy machine is slow, not wrong)."""


class _Session:
    """The workbench server and the browser, started on first use and stopped when the build ends."""

    stack: contextlib.ExitStack | None = None
    url = ""
    driver: Any = None
    problem = ""

    @classmethod
    def start(cls) -> bool:
        if cls.driver is not None or cls.problem:
            return cls.driver is not None
        try:
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service

            from tablerules.workbench.app import create_app
            from tablerules.workbench.serving import in_thread
        except ImportError as e:
            cls.problem = f"{e.name or e} is not installed (pip install '.[docs]')"
            return False
        chrome = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)),
                      None)
        driver = shutil.which("chromedriver")
        if not chrome or not driver:
            cls.problem = "no headless Chromium here (Debian: apt-get install chromium chromium-driver)"
            return False
        stack = contextlib.ExitStack()
        saved = os.environ.get("TABLERULES_SHARED")
        os.environ["TABLERULES_SHARED"] = NO_RULEBOOK
        stack.callback(_restore, "TABLERULES_SHARED", saved)
        cls.url = stack.enter_context(in_thread(create_app()))
        options = webdriver.ChromeOptions()
        options.binary_location = chrome
        for flag in CHROME_FLAGS:
            options.add_argument(flag)
        profile = tempfile.mkdtemp(prefix="tablerules-docs-workbench-")
        stack.callback(shutil.rmtree, profile, ignore_errors=True)
        options.add_argument(f"--user-data-dir={profile}")
        try:
            cls.driver = webdriver.Chrome(service=Service(driver), options=options)
        except Exception as e:  # noqa: BLE001 - any failure to start is "no browser here"
            stack.close()
            cls.problem = f"Chromium did not start: {str(e).splitlines()[0]}"
            return False
        stack.callback(cls.driver.quit)
        cls.stack = stack
        return True

    @classmethod
    def stop(cls, *_: Any) -> None:
        if cls.stack is not None:
            cls.stack.close()
        cls.stack, cls.driver = None, None


def _restore(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


def _settle(driver: Any) -> None:
    time.sleep(0.05)
    deadline = time.monotonic() + WAIT_SECONDS
    while driver.execute_script("return document.body.dataset.busy") != "0":
        if time.monotonic() > deadline:
            raise ExtensionError("tablerules-workbench: the page stayed busy")
        time.sleep(0.05)
    problem = driver.execute_script("var m = document.getElementById('message'); return m.hidden ? '' : m.textContent")
    if problem:
        raise ExtensionError(f"tablerules-workbench: the page says: {problem}")


def take(name: str, query: str, ask: str, compare: str, part: str, width: int) -> Path:
    """Open the workbench at ``query``, ask or compare, and save the screenshot; its path."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = _Session.driver
    d.set_window_size(width, 1000)
    d.get(_Session.url + ("?" + query if query else ""))
    _settle(d)
    if ask:
        box = d.find_element(By.ID, "ask-text")
        box.clear()
        box.send_keys(ask)
        d.find_element(By.CSS_SELECTOR, "#ask-form button").click()
        _settle(d)
    if compare:
        ruling, a, b = compare.split()
        Select(d.find_element(By.ID, "compare-ruling")).select_by_value(ruling)
        Select(d.find_element(By.ID, "compare-a")).select_by_value(a)
        Select(d.find_element(By.ID, "compare-b")).select_by_value(b)
        d.find_element(By.CSS_SELECTOR, "#compare-form button[type=submit]").click()
        _settle(d)
    PICTURES.mkdir(parents=True, exist_ok=True)
    path = PICTURES / f"workbench-{name}.png"
    if part:
        height = d.execute_script("return Math.min(document.body.scrollHeight, 12000)")
        d.set_window_size(width, max(1000, height))
        time.sleep(0.2)
        png = d.find_element(By.ID, part).screenshot_as_png
    else:
        png = d.get_screenshot_as_png()
    path.write_bytes(png)
    return path


class WorkbenchDirective(SphinxDirective):
    required_arguments = 1
    has_content = True
    option_spec = {"query": directives.unchanged, "ask": directives.unchanged, "compare": directives.unchanged,
                   "part": directives.unchanged, "width": directives.positive_int}

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        caption = " ".join(self.content) or f"The workbench: {name}"
        html = self.env.app.builder.name in ("html", "dirhtml", "singlehtml")
        import tablerules.workbench

        package = Path(tablerules.workbench.__file__).resolve().parent
        for source in sorted(package.glob("*.py")) + sorted((package / "static").iterdir()):
            self.env.note_dependency(str(source))  # the page is read again (and its pictures taken) when they change
        path = PICTURES / f"workbench-{name}.png"
        if html:
            if not _Session.start():
                if os.environ.get("TABLERULES_REQUIRE_BROWSER") == "1":
                    raise self.error(f"TABLERULES_REQUIRE_BROWSER=1 but {_Session.problem}")
                return [nodes.paragraph(text=f"(The screenshot “{caption}” is made by the site's build in headless "
                                             f"Chromium; this build had none: {_Session.problem}.)")]
            t0 = time.perf_counter()
            path = take(name, self.options.get("query", ""), self.options.get("ask", ""),
                        self.options.get("compare", ""), self.options.get("part", ""), self.options.get("width", 1280))
            logger.info(f"tablerules: workbench screenshot {path.name} in {time.perf_counter() - t0:.1f}s")
        elif not path.exists():
            return [nodes.paragraph(text=f"(Screenshot: {caption})")]
        width = self.options.get("width", 1280)
        text = [f".. figure:: /rules/_pictures/{path.name}", f"   :alt: {caption}",
                f"   :width: {min(width, 900) if width > 500 else width}px", "", f"   {caption}", ""]
        container = nodes.container()
        self.state.nested_parse(StringList(text, source=self.get_source_info()[0]), self.content_offset, container)
        return container.children


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("tablerules-workbench", WorkbenchDirective)
    app.connect("build-finished", _Session.stop)
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}
