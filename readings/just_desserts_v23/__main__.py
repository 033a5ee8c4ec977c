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
        except ValueError as e:
            reply = {"ok": False, "error": "bad JSON: %s" % e}
        else:
            try:
                reply = engine.handle(req)
            except Exception as e:  # keep running on anything unexpected
                print("internal error: %r" % (e,), file=sys.stderr)
                reply = {"ok": False, "error": "internal error: %s" % e}
            if reply is None:
                break
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
