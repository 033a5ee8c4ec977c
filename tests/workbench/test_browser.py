"""The workbench in a real browser (headless Chromium, the docs' browser setup): Just Desserts with
the advanced rules played by clicking to the poach-back position and the question asked there (the
answer `tablerules judge` gives); a ruling's witness opened by clicking; a Dishes vector loaded
from a file and exported again unchanged; screenshots at 1280 and 420 px wide.

Marked ``browser`` (left out of the default run, like the docs' browser test).  CI runs::

    TABLERULES_REQUIRE_BROWSER=1 TABLERULES_SCREENSHOTS=docs/_build/screenshots \\
        pytest -m browser tests/workbench

Without a browser (no Chromium, chromedriver or selenium) the tests skip and say why; with
``TABLERULES_REQUIRE_BROWSER=1`` they fail instead.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.docs.test_browser import _not_blank  # the fixtures browser and shots: conftest.py
from tests.tool.runner import run_cli

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
POACH_LOG = REPO / "docs" / "guides" / "poach-back.itf.json"
POACH_BACK = "poach GARDENER with FRUIT_TART"
DISHES_VECTOR = REPO / "vectors" / "dishes" / "3p-3x4-default-s1.itf.json"
WIDTHS = (1280, 420)
"""The screenshot widths, in CSS pixels: a desk and a phone."""
WAIT_SECONDS = 120.0
"""How long a click may keep the page busy before the test gives up (a busy machine is slow, not wrong)."""


@pytest.fixture(scope="module")
def workbench():
    pytest.importorskip("starlette", reason="the workbench needs starlette and uvicorn (pip install '.[workbench]')")
    pytest.importorskip("uvicorn", reason="the workbench needs starlette and uvicorn (pip install '.[workbench]')")
    from tablerules.workbench.app import create_app
    from tablerules.workbench.serving import in_thread

    with in_thread(create_app()) as url:
        yield url


def settle(b) -> None:
    """Wait until the page has no request under way (the page marks it on <body data-busy>)."""
    time.sleep(0.05)
    deadline = time.monotonic() + WAIT_SECONDS
    while b.execute_script("return document.body.dataset.busy") != "0":
        assert time.monotonic() < deadline, "the page stayed busy"
        time.sleep(0.05)


def message(b) -> str:
    return b.execute_script("return document.getElementById('message').hidden ? '' : "
                            "document.getElementById('message').textContent")


def click(b, css: str) -> None:
    from selenium.webdriver.common.by import By

    b.find_element(By.CSS_SELECTOR, css).click()
    settle(b)
    assert message(b) == "", f"after clicking {css}: {message(b)}"


def choose(b, element_id: str, value: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(b.find_element(By.ID, element_id)).select_by_value(value)
    settle(b)


def screenshots(b, shots, name: str) -> list[Path]:
    """The whole page at each width; each checked for overflow sideways and for being more than one colour."""
    out = []
    for width in WIDTHS:
        b.set_window_size(width, 900)
        time.sleep(0.2)
        wide = b.execute_script("return document.documentElement.scrollWidth")
        assert wide <= width + 1, f"{name}: the page is {wide} px wide in a {width} px window"
        height = b.execute_script("return Math.min(document.body.scrollHeight, 12000)")
        b.set_window_size(width, max(800, height))
        time.sleep(0.2)
        png = b.get_screenshot_as_png()
        assert _not_blank(png) > 0.02, f"{name} at {width} px: the screenshot is nearly one colour"
        path = shots / f"workbench-{name}-{width}.png"
        path.write_bytes(png)
        out.append(path)
    b.set_window_size(1280, 1600)
    print("\nscreenshots:\n" + "\n".join(f"  {p}" for p in out))
    return out


def test_play_to_the_poach_back_position_by_clicking_and_ask_the_question(browser, workbench, shots):
    from selenium.webdriver.common.by import By

    b = browser
    started = time.monotonic()
    b.get(workbench)
    settle(b)
    assert message(b) == ""
    choose(b, "ruleset", "just-desserts")
    choose(b, "players", "2")
    choose(b, "deck", "jd-rivals")
    for option in ("poaching", "buffet", "surprise-parties"):
        click(b, f'#options input[value="{option}"]')
    click(b, "#new-game")
    moves = [s["#meta"]["move"] for s in json.loads(POACH_LOG.read_text())["states"][1:]]
    for move in moves:
        click(b, f'#choices button[data-move="{move}"]')
    assert b.execute_script("return document.body.dataset.at") == str(len(moves))
    b.find_element(By.ID, "play-text").send_keys(POACH_BACK)  # played, not asked: refused, in the page
    b.find_element(By.CSS_SELECTOR, "#play-form button").click()
    settle(b)
    assert "jd.surprise.no-poach-back" in message(b) and "Traceback" not in message(b)
    assert b.execute_script("return document.body.dataset.at") == str(len(moves))
    b.find_element(By.ID, "ask-text").send_keys(POACH_BACK)
    click(b, "#ask-form button")
    seconds = time.monotonic() - started
    answer = b.find_element(By.ID, "answer")
    judge = json.loads(run_cli("judge", "just-desserts", str(POACH_LOG), "--move", POACH_BACK, "--json",
                               cwd=REPO).stdout)["answer"]
    assert answer.get_attribute("data-verdict") == judge["verdict"] == "not legal"
    assert answer.get_attribute("data-clause") == judge["clause"] == "jd.surprise.no-poach-back"
    assert judge["wording"] in answer.text and "Surprise Parties" in answer.text
    assert "Rulings whose alternatives answer differently: none" in answer.text
    print(f"\nfrom opening the page to the answer: {seconds:.1f} s ({len(moves) + 6} clicks)")
    screenshots(b, shots, "poach-back")
    link = b.find_element(By.ID, "link").get_attribute("value")
    assert link == b.current_url and "m=surprise+with+FRUIT_TART" in link
    picture = b.find_element(By.ID, "picture").get_attribute("innerHTML")
    b.get(link)  # the link, opened again (a new game on the server): the same position
    settle(b)
    assert message(b) == "" and b.execute_script("return document.body.dataset.at") == str(len(moves))
    assert b.find_element(By.ID, "picture").get_attribute("innerHTML") == picture


def test_a_rulings_witness_opens_by_clicking_where_its_alternatives_part(browser, workbench, shots):
    from selenium.webdriver.common.by import By

    b = browser
    b.get(workbench)
    settle(b)
    choose(b, "ruleset", "just-desserts")
    choose(b, "witness", "just-desserts-serving-size/1")
    click(b, "#open-witness")
    note = b.find_element(By.ID, "witness-note").text
    assert "spec/witnesses/just-desserts-serving-size.json" in note
    assert b.find_element(By.ID, "compare-ruling").get_attribute("value") == "jd.ruling.serving-size"
    click(b, "#compare-form button[type=submit]")
    at = b.execute_script("return document.body.dataset.at")
    assert b.find_element(By.ID, "comparison").get_attribute("data-parts") == at == "9"
    sides = [s.get_attribute("data-alternative") for s in b.find_elements(By.CSS_SELECTOR, "#comparison .side")]
    assert sides == ["minimal", "any"]
    screenshots(b, shots, "compare")


def test_a_dishes_vector_loaded_from_a_file_exports_again_unchanged(browser, workbench, shots, tmp_path):
    from selenium.webdriver.common.by import By

    b = browser
    b.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    b.get(workbench)
    settle(b)
    b.find_element(By.CSS_SELECTOR, "#load-box summary").click()
    b.find_element(By.ID, "load-file").send_keys(str(DISHES_VECTOR))
    click(b, "#load-button")
    steps = json.loads(DISHES_VECTOR.read_text())["#meta"]["steps"]
    assert b.execute_script("return document.body.dataset.at") == str(steps)
    assert "(unchanged)" in b.find_element(By.ID, "notice").text
    click(b, "#last")
    link = b.find_element(By.ID, "export-link")
    name = link.get_attribute("download")
    link.click()
    target = tmp_path / name
    deadline = time.monotonic() + WAIT_SECONDS
    while not target.exists() or any(tmp_path.glob("*.crdownload")):
        assert time.monotonic() < deadline, f"no download: {sorted(p.name for p in tmp_path.iterdir())}"
        time.sleep(0.1)
    assert target.read_text() == DISHES_VECTOR.read_text()
    click(b, '#history button[data-step="3"]')
    assert b.execute_script("return document.body.dataset.at") == "3"
    screenshots(b, shots, "dishes")


def test_two_tabs_play_apart_and_a_game_let_go_is_made_again_from_its_link(browser):
    """With room for one game only, each tab's click lets the other's game go: every tab still plays
    on its own line (the page makes its game again from its link, without a word)."""
    from selenium.webdriver.common.by import By

    from tablerules.workbench.app import create_app
    from tablerules.workbench.serving import in_thread
    from tablerules.workbench.store import Store

    def line(b) -> list[str]:
        return [e.text for e in b.find_elements(By.CSS_SELECTOR, "#history button.step")][1:]

    b = browser
    with in_thread(create_app(store=Store(limit=1))) as url:
        first = b.current_window_handle
        b.get(url + "?ruleset=just-desserts&players=2&deck=jd-rivals")
        settle(b)
        click(b, '#choices button[data-move="draw SPONGE"]')
        b.switch_to.new_window("tab")
        second = b.current_window_handle
        b.get(url + "?ruleset=just-desserts&players=2&deck=jd-rivals")
        settle(b)
        click(b, '#choices button[data-move="draw FRUIT_TART"]')
        b.switch_to.window(first)
        click(b, '#choices button[data-move="draw FRUIT_TART"]')
        assert line(b) == ["CHANCE: draw SPONGE (p = 2/3)", "CHANCE: draw FRUIT_TART (p = 2/5)"]
        b.switch_to.window(second)
        click(b, '#choices button[data-move="draw SPONGE"]')
        assert line(b) == ["CHANCE: draw FRUIT_TART (p = 1/3)", "CHANCE: draw SPONGE (p = 4/5)"]
        b.close()
        b.switch_to.window(first)
