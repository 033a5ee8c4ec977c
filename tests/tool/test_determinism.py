"""A verdict never depends on the machine's load or on how the checks are spread over
processes: `tablerules check --quick` gives the same report twice, once serially and once in
two workers beside a CPU hog, byte for byte but for the timings."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.tool.runner import run_cli

HOG = "import time\nend = time.monotonic() + 900\nwhile time.monotonic() < end:\n    pass\n"


def _without_timings(report: str) -> str:
    """The report with its timings (the `time` column and the `total` line) blanked."""
    report = re.sub(r" +\d+\.\d s$", " <time>", report, flags=re.M)
    return re.sub(r"^total \d+ s", "total <time>", report, flags=re.M)


@pytest.mark.slow
def test_check_quick_gives_the_same_report_beside_a_cpu_hog():
    # string hashing salted
    quiet = run_cli("check", "--quick", "--scale", "0.3", timeout=1800, env={"PYTHONHASHSEED": "1"})
    # differently in the two runs: no verdict or row may follow a set's order
    assert quiet.returncode == 0, quiet.stdout[-3000:]
    hog = subprocess.Popen([sys.executable, "-c", HOG])
    try:
        busy = run_cli("check", "--quick", "--scale", "0.3", "--jobs", "2", timeout=1800,
                       env={"PYTHONHASHSEED": "2"})
    finally:
        hog.kill()
        hog.wait()
    assert busy.returncode == 0, busy.stdout[-3000:]
    assert _without_timings(busy.stdout).replace(" --jobs 2", "") == _without_timings(quiet.stdout)
    assert re.search(r"^\d+ passed, 0 failed$", quiet.stdout, re.M), quiet.stdout[-500:]


def test_timings_are_the_only_thing_blanked():
    line = "dishes   explore the boxed game   pass   partial, stopped by state budget (1,200)      17.1 s"
    assert (
        _without_timings(line)
        == "dishes   explore the boxed game   pass   partial, stopped by state budget (1,200) <time>"
    )
    assert _without_timings("total 12 s; retail deck not given") == "total <time>; retail deck not given"
