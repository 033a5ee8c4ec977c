"""Running the installed `tablerules` command as a user does: a fresh process, its exit
status, standard output and standard error."""

from __future__ import annotations

import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

EXIT_STATUSES = (0, 1, 2, 3, 130, 143)
"""Every exit status the command line documents."""


def run_cli(*args: str, input: bytes | str | None = None, timeout: float = 300, env: dict | None = None,
            cwd: str | Path | None = None, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    """Run ``tablerules ARGS`` in a new process (``-P``: the installed package, not the
    checkout's own folder), text mode unless ``input`` is bytes.  Standard error comes back
    without the heartbeat's lines: whether one is written depends on how busy the machine is.
    ``r.cpu_seconds`` is the CPU time the process used (user and system, in seconds): unlike the
    time on the clock it hardly grows on a busy machine, so "refused before any work" is stated in it."""
    text = not isinstance(input, bytes)
    before = _children_cpu_seconds()
    r = subprocess.run([sys.executable, "-P", "-m", "tablerules", *args], input=input, stdout=stdout,
                       stderr=subprocess.PIPE, text=text, timeout=timeout, env=_environment(env), cwd=cwd)
    r.cpu_seconds = _children_cpu_seconds() - before
    r.stderr = without_heartbeat(r.stderr)
    return r


def _children_cpu_seconds() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime



HEARTBEAT = re.compile(r"^  \.\.\. .*: still working, .*\n?", re.MULTILINE)
"""A line of the heartbeat (tablerules.console.heartbeat_text)."""


def without_heartbeat(stderr: str | bytes) -> str | bytes:
    """Standard error without the heartbeat's lines (their presence depends on time)."""
    if isinstance(stderr, bytes):
        return re.compile(HEARTBEAT.pattern.encode(), re.MULTILINE).sub(b"", stderr)
    return HEARTBEAT.sub("", stderr)


def _environment(extra: dict | None) -> dict:
    """The caller's environment without its terminal width (a test runner may set COLUMNS;
    the tool's plain-text width must not follow it), plus ``extra``."""
    return {**{k: v for k, v in os.environ.items() if k != "COLUMNS"}, **(extra or {})}


def takes_signals(proc: subprocess.Popen, timeout: float = 300) -> None:
    """Wait until ``proc`` catches SIGTERM itself (``tablerules/__main__.py`` sets its handler as
    the first thing it does; Python alone leaves SIGTERM to the system, which would end the process
    with no exit status of its own).  Read from the process's own signal mask in
    ``/proc/PID/status``, so a signal sent after this never depends on how fast the machine is.
    An ended process is left to the caller (its exit status tells)."""
    deadline = time.monotonic() + timeout
    status = Path(f"/proc/{proc.pid}/status")
    while proc.poll() is None:
        caught = next((int(x.split()[1], 16) for x in status.read_text().splitlines() if x.startswith("SigCgt:")), 0)
        if caught >> (signal.SIGTERM - 1) & 1:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"tablerules did not take SIGTERM in {timeout} s")
        time.sleep(0.005)


def interrupt_after(args: list[str], wait_for: str, *, env: dict | None = None, timeout: float = 300,
                    signum: int = signal.SIGINT, cwd: str | Path | None = None) -> tuple[int, str, str]:
    """Start ``tablerules ARGS``, send ``signum`` once ``wait_for`` appears on its standard
    error, and return (exit status, stdout, stderr)."""
    proc = subprocess.Popen([sys.executable, "-P", "-m", "tablerules", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_environment(env), cwd=cwd)
    err_lines: list[str] = []
    deadline = time.monotonic() + timeout
    assert proc.stderr is not None
    for line in proc.stderr:
        err_lines.append(line)
        if wait_for in line:
            proc.send_signal(signum)
            break
        if time.monotonic() > deadline:
            proc.kill()
            raise TimeoutError(f"{wait_for!r} never appeared: {''.join(err_lines)[-2000:]}")
    else:  # standard error closed: the run ended without the line the signal was to wait for
        out, err = proc.communicate(timeout=timeout)
        raise AssertionError(f"{wait_for!r} never appeared (exit status {proc.returncode}): "
                             f"{''.join(err_lines)[-2000:]}{err[-2000:]}")
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:  # it hangs after the signal: leave no process behind
        proc.kill()
        proc.communicate()
        raise
    return proc.returncode, out, without_heartbeat("".join(err_lines) + err)


def one_line_error(stderr: str) -> str:
    """The single line a usage error must be (asserts there is exactly one and no traceback)."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert "Traceback" not in stderr, stderr
    assert len(lines) == 1, stderr
    assert ": error: " in lines[0], lines[0]
    return lines[0]


def last_line_error(stderr: str) -> str:
    """For a command that shows progress first: its last line is the one error line."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert "Traceback" not in stderr, stderr
    assert sum(": error: " in line for line in lines) == 1 and ": error: " in lines[-1], stderr
    return lines[-1]
