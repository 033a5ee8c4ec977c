"""The driver's side of the protocol: an engine run as a subprocess, asked one line at a time.

:class:`Engine` is what the comparison asks (who moves, the legal moves, the chance outcomes,
apply, a seat's observation, the outcome); :class:`ProcessEngine` asks a subprocess over the
protocol of :mod:`.protocol` and checks every reply's form.  A reply that does not come
within ``reply_seconds`` raises :class:`~.protocol.EngineHang` (the run stops incomplete:
the clock never decides a verdict); an engine that exits or writes what is not a reply
raises :class:`~.protocol.ProtocolError` naming the request.  :class:`Counted` counts an engine's
answers and stops asking past a run's ``--max-replies`` (:class:`~.protocol.ReplyLimit`).
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import subprocess
import sys
import threading
import time
from fractions import Fraction
from typing import Any

from tablerules.model.core import Setup

from .protocol import (
    MAX_LINE_BYTES, PROTOCOL, EngineHang, EngineRuleGap, ProtocolError, Refused, ReplyLimit, Unsupported, actor_form,
    fraction_of, new_game_request, read_reply, require, show,
)

REFERENCE = "reference"
"""An engine command whose first word is this runs the reference engine (:mod:`.reference_engine`)
under the Python that runs tablerules, with the rest of the words as its arguments."""
REPLY_SECONDS = 30.0
"""How long the driver waits for one reply by default (--reply-seconds)."""
STDERR_SETTLE_SECONDS = 10.0
"""How long an engine that exited is given for its standard error to be read to the end (its last words are
quoted); a descendant that keeps the stream open only delays the message by this much."""


class Engine:
    """What the comparison asks an engine about its current game (one game at a time)."""

    name = "engine"

    def new_game(self, rules_id: str, setup: Setup, components_argument: str | None, seed: int) -> None:
        raise NotImplementedError

    def to_move(self) -> str:
        raise NotImplementedError

    def legal_moves(self) -> list[str]:
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[str, Fraction | float]] | None:
        """(move, probability) pairs, or None: the engine is told which outcome happens."""
        raise NotImplementedError

    def apply(self, move: str) -> None:
        raise NotImplementedError

    def observation(self, seat: int) -> Any:
        raise NotImplementedError

    def outcome(self) -> dict[str, Any] | None:
        raise NotImplementedError

    def close(self) -> None:
        pass


MAX_REPLIES = 200_000
"""How many requests a run may ask the engine by default (--max-replies): a bound on the whole run
counted in the engine's answers, not in seconds.  The default runs of every rule set and player count
need fewer (measured with the reference engine: 14,147 for Dishes with 2 players, 28,293 for Just
Desserts with 2, 121,461 for Just Desserts on the retail deck with 5)."""


class Counted(Engine):
    """An engine whose answers are counted: past ``limit`` of them, a question raises
    :class:`~.protocol.ReplyLimit` instead of being asked (every question is one request and one
    reply of the protocol; ``hello`` is not counted)."""

    def __init__(self, engine: Engine, limit: int = MAX_REPLIES) -> None:
        self.engine = engine
        self.limit = limit
        self.replies = 0

    @property
    def name(self) -> str:  # type: ignore[override]
        return self.engine.name

    def _ask(self) -> Engine:
        if self.replies >= self.limit:
            raise ReplyLimit(f"--max-replies {self.limit:,} reached")
        self.replies += 1
        return self.engine

    def new_game(self, rules_id: str, setup: Setup, components_argument: str | None, seed: int) -> None:
        self._ask().new_game(rules_id, setup, components_argument, seed)

    def to_move(self) -> str:
        return self._ask().to_move()

    def legal_moves(self) -> list[str]:
        return self._ask().legal_moves()

    def chance_outcomes(self) -> list[tuple[str, Fraction | float]] | None:
        return self._ask().chance_outcomes()

    def apply(self, move: str) -> None:
        self._ask().apply(move)

    def observation(self, seat: int) -> Any:
        return self._ask().observation(seat)

    def outcome(self) -> dict[str, Any] | None:
        return self._ask().outcome()

    def close(self) -> None:
        self.engine.close()


class _Tail:
    """The engine's standard error, read as it comes by a thread of its own and kept only as its last
    ``KEEP`` bytes (an engine may write without end; only its last words are ever shown)."""

    KEEP = 64 * 1024

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._kept = bytearray()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, name="engine-stderr", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for chunk in iter(lambda: self._stream.read1(1 << 16), b""):
                with self._lock:
                    self._kept += chunk
                    if len(self._kept) > 2 * self.KEEP:
                        del self._kept[:-self.KEEP]
        except (OSError, ValueError):
            pass

    def text(self, settle: float = 0.0) -> str:
        """The last words kept; with ``settle``, first wait up to that many seconds for the stream to end (an
        engine that exited has written its last words, but the thread may not have read them yet)."""
        if settle:
            self._thread.join(timeout=settle)
        with self._lock:
            return bytes(self._kept[-4000:]).decode("utf-8", "replace")

    def join(self) -> None:
        self._thread.join(timeout=2)
        try:
            self._stream.close()
        except OSError:
            pass


class ProcessEngine(Engine):
    """An engine command run as a subprocess speaking the protocol."""

    def __init__(self, command: str, reply_seconds: float = REPLY_SECONDS) -> None:
        self.command = command
        self.name = command
        self.reply_seconds = reply_seconds
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise ProtocolError(f"--engine {command!r}: not a command line ({e})") from None
        if not argv:
            raise ProtocolError("--engine: an empty command")
        if argv[0] == REFERENCE:  # our own reference engine, under this interpreter
            argv = [sys.executable, "-m", "tablerules.conform.reference_engine", *argv[1:]]
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError as e:
            raise ProtocolError(f"--engine {command!r}: cannot start it ({e.strerror or e})") from None
        self._errors = _Tail(self.proc.stderr)
        self._buffer = bytearray()
        self._hung = False
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.proc.stdout, selectors.EVENT_READ)
        try:
            reply = self.ask({"op": "hello", "protocol": PROTOCOL})
            said = require(reply, "protocol", str, "hello")
            if said != PROTOCOL:
                raise ProtocolError(f"reply to hello: the engine speaks {show(said)}, not {PROTOCOL!r}")
        except BaseException:  # a hello that fails (or hangs) leaves no engine running behind us
            self.close()
            raise
        engine = reply.get("engine")
        if isinstance(engine, str) and engine:
            self.name = engine

    # ----------------------------------------------------------------------- one request

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send one request, read one reply (a JSON object with a boolean ``ok``)."""
        op = request["op"]
        try:
            self.proc.stdin.write((json.dumps(request, ensure_ascii=False) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise ProtocolError(f"the engine exited{self._status()} before it was asked {op}"
                                f"{self._last_error()}") from None
        reply = read_reply(self._read_line(op), op)
        if not isinstance(reply, dict):
            raise ProtocolError(f"reply to {op}: expected a JSON object, not {show(reply)}")
        require(reply, "ok", bool, op)
        if reply["ok"] is False:
            if "unsupported" in reply and op == "new_game":
                raise Unsupported(str(reply["unsupported"]))
            if "refused" in reply and op == "apply":
                raise Refused(str(reply["refused"]))
            raise ProtocolError(f"reply to {op}: \"ok\": false ({show(reply.get('error', reply))})")
        gap = reply.get("rule_gap")
        if gap is not None and op in ("to_move", "legal_moves", "chance_outcomes", "apply", "outcome"):
            if not isinstance(gap, str):
                raise ProtocolError(f"reply to {op}: 'rule_gap' is {show(gap)}, expected a ruling id")
            raise EngineRuleGap(gap)
        return reply

    def _read_line(self, op: str) -> bytes:
        deadline = time.monotonic() + self.reply_seconds
        fd = self.proc.stdout.fileno()
        end = self._buffer.find(b"\n")
        while end < 0:  # each chunk is searched once: reading a long reply takes time in proportion to it
            left = deadline - time.monotonic()
            if left <= 0 or not self._selector.select(left):
                self._hung = True
                raise EngineHang(f"the engine did not answer {op} within {self.reply_seconds:g} s (--reply-seconds)")
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise ProtocolError(f"the engine exited{self._status()} while asked {op}{self._last_error()}")
            at = chunk.find(b"\n")
            end = len(self._buffer) + at if at >= 0 else -1
            self._buffer += chunk
            if (end if end >= 0 else len(self._buffer)) > MAX_LINE_BYTES:
                raise ProtocolError(f"reply to {op}: longer than {MAX_LINE_BYTES:,} bytes")
        line = bytes(self._buffer[:end])
        del self._buffer[:end + 1]
        return line

    def _status(self) -> str:
        try:
            code = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            return ""
        return f" (status {code})"

    def _last_error(self) -> str:
        """`: <its last line on standard error>`, where it wrote one (read to its end once the engine has exited,
        however busy the machine)."""
        exited = self.proc.poll() is not None
        said = self._errors.text(settle=STDERR_SETTLE_SECONDS if exited else 0.0)
        lines = [x for x in said.splitlines() if x.strip()]
        return f"; its last words: {lines[-1].strip()[:160]}" if lines else ""

    # ----------------------------------------------------------------------- the questions

    def new_game(self, rules_id: str, setup: Setup, components_argument: str | None, seed: int) -> None:
        self.ask(new_game_request(rules_id, setup, components_argument, seed))

    def to_move(self) -> str:
        said = require(self.ask({"op": "to_move"}), "to_move", str, "to_move")
        if not actor_form().fullmatch(said):
            raise ProtocolError(f"reply to to_move: $.to_move is {show(said)}, expected \"seat N\" (N in ASCII "
                                "digits), \"CHANCE\" or \"TERMINAL\"")
        return said

    def legal_moves(self) -> list[str]:
        moves = require(self.ask({"op": "legal_moves"}), "moves", list, "legal_moves")
        for i, m in enumerate(moves):
            if not isinstance(m, str):
                raise ProtocolError(f"reply to legal_moves: $.moves[{i}] is {show(m)}, expected a move text")
        return moves

    def chance_outcomes(self) -> list[tuple[str, Fraction | float]] | None:
        reply = self.ask({"op": "chance_outcomes"})
        if reply.get("told") is True:
            return None
        outs = require(reply, "outcomes", list, "chance_outcomes")
        pairs = []
        for i, pair in enumerate(outs):
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
                raise ProtocolError(f"reply to chance_outcomes: $.outcomes[{i}] is {show(pair)}, "
                                    "expected [move, \"p/q\"]")
            pairs.append((pair[0], fraction_of(pair[1], f"reply to chance_outcomes: $.outcomes[{i}][1]")))
        return pairs

    def apply(self, move: str) -> None:
        self.ask({"op": "apply", "move": move})

    def observation(self, seat: int) -> Any:
        reply = self.ask({"op": "observation", "seat": seat})
        if "observation" not in reply:
            raise ProtocolError(f"reply to observation: the key 'observation' is missing (reply: {show(reply)})")
        return reply["observation"]

    def outcome(self) -> dict[str, Any] | None:
        value = require(self.ask({"op": "outcome"}), "outcome", (dict, type(None)), "outcome")
        if value is not None:
            for key in ("winners", "losers"):
                if key not in value:
                    raise ProtocolError(f"reply to outcome: $.outcome.{key} is missing (a list of seats, [] for none)")
                seats = value[key]
                seat_numbers = isinstance(seats, list) and all(type(s) is int and s >= 0 for s in seats)
                if not seat_numbers:
                    raise ProtocolError(f"reply to outcome: $.outcome.{key} is {show(seats)}, expected a list of seats")
            if "draw" in value and type(value["draw"]) is not bool:
                raise ProtocolError(f"reply to outcome: $.outcome.draw is {show(value['draw'])}, "
                                    "expected true or false")
            if "scores" in value and not isinstance(value["scores"], list):
                raise ProtocolError(f"reply to outcome: $.outcome.scores is {show(value['scores'])}, expected a list")
        return value

    def close(self) -> None:
        """Ask the engine to quit; end it if it does not (it is ours: we started it)."""
        proc = getattr(self, "proc", None)
        if proc is None:
            return
        try:
            if proc.poll() is None and not self._hung:
                proc.stdin.write(b'{"op": "quit"}\n')
                proc.stdin.flush()
                proc.stdin.close()
                proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            pass
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        self._selector.close()
        self._errors.join()
