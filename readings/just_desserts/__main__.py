"""JSON-lines loop: one request per line on stdin, one reply per line on stdout."""

import json
import sys

from .engine import Engine


def main():
    engine = Engine()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError as exc:
            reply = {"ok": False, "error": "bad JSON: %s" % exc}
        else:
            try:
                reply = engine.handle(req)
            except Exception as exc:  # keep running on anything unexpected
                print("internal error: %r" % (exc,), file=sys.stderr)
                reply = {"ok": False, "error": "internal error: %s" % exc}
            if reply is None:
                break
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
