"""Broken engines for the conformance tests, run as subprocess engines (``python
tests/conform/broken_engine.py KIND``): each answers ``hello`` properly, then breaks the protocol
its own way (``garbage``, ``crash``, ``hang``, ``no-key``, ``nested``, ``long``, ``chatty``,
``negative``), or never answers ``hello`` (``hang-hello``).  Standard library only, so that it
starts at once."""

from __future__ import annotations

import json
import sys
import time


def main(kind: str) -> None:
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "hello" and kind == "hang-hello":
            time.sleep(600)
        if request["op"] == "hello":
            print(json.dumps({"ok": True, "protocol": request["protocol"], "engine": f"broken ({kind})"}), flush=True)
            continue
        if kind == "garbage":
            print("this is not json", flush=True)
        elif kind == "crash":
            print("engine: something went wrong", file=sys.stderr, flush=True)
            sys.exit(7)
        elif kind == "hang":
            time.sleep(60)
        elif kind == "no-key":
            print(json.dumps({"ok": True}), flush=True)
        elif kind == "nested":  # deeper than any JSON reader's recursion
            print("[" * 200_000 + "]" * 200_000, flush=True)
        elif kind == "long":  # a reply longer than the limit, in one go
            sys.stdout.write('{"ok": true, "pad": "' + "x" * (65 << 20) + '"}\n')
            sys.stdout.flush()
        elif kind == "chatty":  # 64 MB on standard error, then its last words, and it exits
            for _ in range(64):
                sys.stderr.write("x" * (1 << 20) + "\n")
            print("engine: out of patience", file=sys.stderr, flush=True)
            sys.exit(7)


if __name__ == "__main__":
    main(sys.argv[1])
