"""A command's start imports only what every command needs: the command line is built from every
command's module, so a heavy import at the top of one (numba for the compiled loops, pyspiel where
OpenSpiel is installed) would slow every run of every command, and every test that runs one."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("numba", "pyspiel", "llvmlite", "z3", "networkx", "matplotlib", "starlette")


def test_building_the_command_line_imports_no_heavy_library():
    code = ("import sys; from tablerules.cli import parser; parser(); "
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    r = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == [], f"imported at start: {r.stdout.strip()}"
