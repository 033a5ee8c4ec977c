"""An engine for the conformance tests: the reference engine, except that it declines every game with
the number of players given (``python tests/conform/declining_engine.py 3``)."""

from __future__ import annotations

import json
import sys

from tablerules.conform.reference_engine import Server, _unwrap


def main(players: int) -> None:
    server = Server(told=False, name="declines one player count")
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("op") == "quit":
            return
        if request.get("op") == "new_game" and request.get("players") == players:
            reply = {"ok": False, "unsupported": f"{players} players are not offered"}
        else:
            reply = _unwrap(server.answer(request))
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]))
