"""The workbench's guide (docs/guides/workbench.rst) says what the workbench does: its links reopen
the positions it shows, its answer and parting are the workbench's, its bounds are bounds.py's."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

pytest.importorskip("starlette", reason="the workbench's routes need starlette (pip install '.[test]')")
pytest.importorskip("httpx", reason="Starlette's test client needs httpx (pip install '.[test]')")

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx is what the extra names
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from tablerules.workbench import bounds  # noqa: E402
from tablerules.workbench.app import create_app  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guides" / "workbench.rst"


def _screens() -> list[dict[str, str]]:
    """Each ``tablerules-workbench`` directive of the guide, with its options."""
    out: list[dict[str, str]] = []
    for line in GUIDE.read_text().splitlines():
        if line.startswith(".. tablerules-workbench:: "):
            out.append({"name": line.split(":: ", 1)[1]})
        elif out and re.match(r"   :\w+: ", line):
            key, value = line.strip()[1:].split(": ", 1)
            out[-1][key] = value
    return out


def _link(query: str) -> dict:
    pairs = parse_qsl(query)
    one = dict(pairs)
    return {"ruleset": one["ruleset"], "players": int(one["players"]), "deck": one.get("deck"),
            "seed": int(one.get("seed", 1)), "options": [v for k, v in pairs if k == "option"],
            "moves": [v for k, v in pairs if k == "m"]}


def test_every_screenshot_of_the_guide_opens_its_position_and_shows_what_its_caption_says():
    screens = _screens()
    assert [s["name"] for s in screens] == ["position", "answer", "compare", "phone"]
    with TestClient(create_app()) as c:
        for s in screens:
            v = c.post("/api/games", json=_link(s["query"])).json()
            assert v.get("notice") == "" and v["at"] == 11 and v["to_move"] == "seat 0", (s["name"], v)
            assert v["query"] == s["query"]  # the link the workbench itself makes
            if "ask" in s:
                a = c.post(f"/api/games/{v['game']}/ask", json={"move": s["ask"]}).json()
                assert a["answer"]["verdict"] == "not legal" and a["answer"]["clause"] == "jd.surprise.no-poach-back"
            if "compare" in s:
                ruling, a, b = s["compare"].split()
                parts = c.post(f"/api/games/{v['game']}/compare", json={"ruling": ruling, "a": a, "b": b}).json()
                assert parts["parts"]["step"] == 9 and parts["parts"]["kind"] == "moves"
    assert "part at step 9, in the legal moves" in " ".join(GUIDE.read_text().split())


def test_the_bounds_the_guide_states_are_the_servers():
    text = " ".join(GUIDE.read_text().split())
    stated = [f"a request of at most {bounds.MAX_BODY_BYTES // (1024 * 1024)} MiB",
              f"JSON nested at most {bounds.MAX_NESTING} levels",
              f"at most {bounds.MAX_GAMES} games held at once",
              f"a line of at most {bounds.MAX_LINE:,} moves",
              f"a move of at most {bounds.MAX_MOVE_TEXT} characters",
              f"at most {bounds.MAX_LISTED} moves or chance outcomes as buttons",
              f"at most {bounds.COMPARE_PAIRS:,} state pairs",
              f"and {bounds.COMPARE_SECONDS:g} s of wall-clock time"]
    missing = [s for s in stated if s not in text]
    assert not missing, missing
