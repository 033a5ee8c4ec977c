"""`python -m tablerules` and the `tablerules` program.

Ctrl-C and SIGTERM are taken care of before anything else is imported, so that even an
interruption during start-up ends with exit status 130 and one line, not a traceback.
"""

from __future__ import annotations

import signal
import sys

from tablerules.limits import EXIT_INTERRUPTED, interrupt


def run() -> None:
    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)
    try:
        from tablerules.cli import main

        status = main(last=True)
    except KeyboardInterrupt:  # before the command line was ready to handle it
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        exec("pass")  # noqa: S102 - clears CPython's memory of the interruption (see tablerules.cli.main)
        print("tablerules: interrupted", file=sys.stderr)
        status = EXIT_INTERRUPTED
    sys.exit(status)


if __name__ == "__main__":
    run()
