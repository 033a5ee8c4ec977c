"""`tablerules workbench` as a user starts it: the address it prints, the page it serves, one line
and exit 2 for what it cannot do (the extra missing, a port taken, a deck that is no deck), and
Ctrl-C or SIGTERM ending it with its status."""

from __future__ import annotations

import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tablerules.workbench.serving import listen
from tests.tool.runner import _environment, one_line_error, run_cli, without_heartbeat

REPO = Path(__file__).resolve().parents[2]
pytest.importorskip("starlette", reason="the workbench needs starlette and uvicorn (pip install '.[workbench]')")
pytest.importorskip("uvicorn", reason="the workbench needs starlette and uvicorn (pip install '.[workbench]')")


def _start(*args: str) -> tuple[subprocess.Popen, str]:
    """Start `tablerules workbench ARGS` and wait for the line with its address."""
    proc = subprocess.Popen([sys.executable, "-P", "-m", "tablerules", "workbench", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_environment(None))
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        _, err = proc.communicate(timeout=30)
        raise AssertionError(f"no address printed: {line!r} {err[-2000:]}")
    return proc, line.split("tablerules workbench: ", 1)[1].split()[0]


@pytest.mark.parametrize("signum, status, said", [(signal.SIGINT, 130, "Ctrl-C"), (signal.SIGTERM, 143, "SIGTERM")])
def test_the_command_prints_its_address_serves_the_page_and_stops_on_a_signal(signum, status, said):
    proc, url = _start()
    try:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        with urllib.request.urlopen(url, timeout=30) as page:
            assert page.status == 200 and b"tablerules workbench" in page.read()
        with urllib.request.urlopen(url + "api/catalog", timeout=30) as catalog:
            assert b'"just-desserts"' in catalog.read()
    finally:
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)
    err = without_heartbeat(err)
    assert proc.returncode == status and "Traceback" not in err, err
    assert err.strip().splitlines() == [f"tablerules: interrupted ({said})"], err


def test_the_command_names_the_extra_to_install_when_starlette_is_missing():
    code = ("import sys; sys.modules['starlette'] = None; from tablerules.cli import main; "
            "sys.exit(main(['workbench', '--port', '0']))")
    r = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=120,
                       env=_environment(None))
    assert r.returncode == 2, r.stderr
    line = one_line_error(without_heartbeat(r.stderr))
    assert "starlette" in line and "pip install 'tablerules[workbench]'" in line and r.stdout == ""


def test_a_port_already_taken_is_one_line_and_exit_2():
    taken = listen("127.0.0.1", 0)
    try:
        port = taken.getsockname()[1]
        r = run_cli("workbench", "--port", str(port), timeout=120)
    finally:
        taken.close()
    assert r.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in one_line_error(r.stderr)


@pytest.mark.parametrize("deck, needle", [("no-such-deck.json", "no such file"), ("README.md", "cannot read deck")])
def test_a_deck_that_is_no_deck_file_is_one_line_and_exit_2(deck, needle):
    r = run_cli("workbench", "--port", "0", "--deck", deck, cwd=REPO, timeout=120)
    assert r.returncode == 2 and needle in one_line_error(r.stderr)


def test_the_deck_given_at_start_is_offered_in_the_page(retail_deck_path):
    proc, url = _start("--deck", retail_deck_path)
    try:
        with urllib.request.urlopen(url + "api/catalog", timeout=30) as catalog:
            text = catalog.read().decode()
        assert f'"value": "{Path(retail_deck_path).stem}"' in text.replace('":"', '": "')
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
