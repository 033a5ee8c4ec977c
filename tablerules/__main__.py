"""`python -m tablerules` and the `tablerules` program.

Ctrl-C and SIGTERM are taken care of before anything else is imported, so that even an
interruption during start-up ends with exit status 130 (143 for SIGTERM) and one line, not a traceback.
"""

from __future__ import annotations

import signal
import sys

from tablerules.limits import install, interrupted_status, interrupted_text, signalled


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
