"""JSON-lines loop: one request per stdin line, one reply per stdout line."""

import json
import sys

from .engine import Engine


def main():
    engine = Engine()
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
        except ValueError as exc:
            reply = {"ok": False, "error": "bad JSON: %s" % exc}
        else:
            try:
                reply = engine.handle(request)
            except Exception as exc:  # keep running; report on the reply and stderr
                print("internal error: %r" % (exc,), file=sys.stderr)
                reply = {"ok": False, "error": "internal error: %s" % exc}
            if reply is None:
                return
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
