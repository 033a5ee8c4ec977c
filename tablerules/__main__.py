"""`python -m tablerules` and the `tablerules` program.

Ctrl-C and SIGTERM are taken care of before anything else is imported, so that even an
interruption during start-up ends with exit status 130 (143 for SIGTERM) and one line, not a traceback.

A standard stream the program was started without (``tablerules list >&-``) is taken care of
here too, for every command: its file descriptor is held open on the null device, so that no
file the run opens takes its number; writing to a closed standard output fails like any output
that cannot be written (one line on standard error, exit status 2); a closed standard error
swallows what is written to it (the exit status still tells).
"""

from __future__ import annotations

import errno
import io
import os
import signal
import sys


class ClosedOutput(io.TextIOBase):
    """Standard output when the program was started with it closed: every write fails with
    OSError ("standard output is closed"); a flush has nothing to write."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def flush(self) -> None:
        pass


def _closed_streams() -> None:
    """Hold each closed standard file descriptor open on the null device, and give Python a
    standard output that refuses writes and a standard error that swallows them."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            held = os.open(os.devnull, os.O_RDWR)  # the lowest free number: fd itself
            if held != fd:
                os.dup2(held, fd)
                os.close(held)
    if sys.stdout is None:
        sys.stdout = ClosedOutput()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the whole run


_closed_streams()  # before anything can write


def _first_signal(signum: int, frame: object) -> None:
    """Ctrl-C or SIGTERM before even the limits module is read: stop at once with its status."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    name = "SIGTERM" if signum == signal.SIGTERM else "Ctrl-C"
    sys.stderr.write(f"tablerules: interrupted ({name})\n")
    sys.stderr.flush()
    import os

    os._exit(143 if signum == signal.SIGTERM else 130)  # nothing has started: nothing to clean up


signal.signal(signal.SIGINT, _first_signal)  # the first thing the program does (its imports take a while under load)
signal.signal(signal.SIGTERM, _first_signal)

from tablerules.limits import install, interrupted_status, interrupted_text, signalled  # noqa: E402


def run() -> None:
    install()  # before the command line's imports (rich, numpy, numba, z3): they take seconds on a cold start
    try:
        from tablerules.cli import main

        status = main(last=True)
    except BaseException as e:  # before the command line was ready to handle it
        if isinstance(e, SystemExit) or not (isinstance(e, KeyboardInterrupt) or signalled()):
            raise
        # a signal during an import can surface as another exception (Python wraps what a class
        # body's __set_name__ raises in a RuntimeError): after a signal, it is the interruption
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        exec("pass")  # noqa: S102 - clears CPython's memory of the interruption (see tablerules.cli.main)
        print(f"tablerules: {interrupted_text()}", file=sys.stderr)
        status = interrupted_status()
    sys.exit(status)


if __name__ == "__main__":
    run()
