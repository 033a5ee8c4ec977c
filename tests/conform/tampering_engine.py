"""An engine for the conformance tests: the reference engine, with the line of one kind of reply
written otherwise (``python tests/conform/tampering_engine.py KIND``):

* ``big-int``: every observation holds ``"seat"`` as a 5,000-digit integer;
* ``twice``: every ``to_move`` reply holds the key ``to_move`` twice (the engine's answer, then
  ``"seat 9"``);
* ``arabic``, ``spaces``, ``underscores``, ``plus``: every probability is written ``"١/٤"`` (Arabic
  digits), ``" 1/4 "``, ``"1_0/4_0"`` or ``"+1/4"`` (the same value, in a form the protocol does not have).
"""

from __future__ import annotations

import json
import sys

from tablerules.conform.reference_engine import Server, _unwrap

ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def _probability(kind: str, text: str) -> str:
    if kind == "arabic":
        return text.translate(ARABIC)
    if kind == "spaces":
        return f" {text} "
    if kind == "underscores":
        return "/".join(f"{part}_0" for part in text.split("/")) if text not in ("0", "1") else text
    return "+" + text


def line(kind: str, request: dict, reply: dict) -> str:
    op = request.get("op")
    if kind == "big-int" and op == "observation" and reply.get("ok"):
        body = json.dumps({**reply["observation"], "seat": 0})
        return json.dumps({"ok": True, "observation": "@"}).replace('"@"', body.replace('"seat": 0', '"seat": '
                                                                                         + "9" * 5000))
    if kind == "twice" and op == "to_move" and "to_move" in reply:
        return json.dumps(reply)[:-1] + ', "to_move": "seat 9"}'
    if kind in ("arabic", "spaces", "underscores", "plus") and op == "chance_outcomes" and "outcomes" in reply:
        outcomes = [[m, _probability(kind, p)] for m, p in reply["outcomes"]]
        return json.dumps({**reply, "outcomes": outcomes}, ensure_ascii=False)
    return json.dumps(reply, ensure_ascii=False)


def main(kind: str) -> None:
    server = Server(name=f"tampered ({kind})")
    for text in sys.stdin:
        request = json.loads(text)
        reply = server.answer(request)
        if reply is None:
            return
        print(line(kind, request, _unwrap(reply)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
