"""Fuzzing the command line: flags, numbers, paths, deck files, vector files and signals.

Every run must end with a documented exit status (0, 1, 2, 3 incomplete, 130 interrupted),
never a traceback; a bad argument is one line on standard error; and each run ends within
bounded time (the subprocess timeout) and memory (an address-space limit).

CI runs a small number of cases with a fixed seed (``derandomize``).  A larger run:
``TABLERULES_FUZZ_CASES=400 pytest tests/tool/test_cli_fuzz.py -p no:cacheprovider``
(``TABLERULES_FUZZ_SEED=n`` for a seeded random run instead of the derandomized one).
"""

from __future__ import annotations

import pytest
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from tests.tool.runner import EXIT_STATUSES, takes_signals, without_heartbeat

REPO = Path(__file__).resolve().parents[2]
CASES = int(os.environ.get("TABLERULES_FUZZ_CASES", "12"))
SEED = os.environ.get("TABLERULES_FUZZ_SEED")
TIMEOUT = 90
"""Seconds a single run may take (each gets --max-seconds 2 where the command has it)."""
MEMORY = 4 << 30
"""Address space a single run may use."""
GOLDEN = sorted((REPO / "vectors").glob("dishes/*-3x4-*.itf.json"))[0]
GOLDEN_JD = sorted((REPO / "vectors").glob("just-desserts/2p-jd-rivals-default-s1.itf.json"))[0]

# --------------------------------------------------------------------------- files a user might give

SMALL_DECK = {"tastes": ["sweet", "sour"], "suits": ["red"],
              "desserts": [{"id": "CAKE", "name": "Cake", "tastes": ["sweet"]},
                           {"id": "LIME", "name": "Lime", "tastes": ["sour"], "copies": 2}],
              "guests": [{"id": "ANN", "name": "Ann", "suit": "red", "wants": ["sweet"]},
                         {"id": "BOB", "name": "Bob", "suit": "red", "wants": ["sour"]}]}


def _deck(**changes) -> str:
    deck = json.loads(json.dumps(SMALL_DECK))
    deck.update(changes)
    return json.dumps(deck)


FILES: dict[str, bytes] = {
    "deck.json": _deck().encode(),
    "deep.json": b"[" * 200_000 + b"]" * 200_000,
    "copies.json": _deck(desserts=[{"id": "X", "name": "X", "tastes": ["sweet"], "copies": 10**12}]).encode(),
    "many.json": _deck(
        desserts=[{"id": f"D{i}", "name": f"D{i}", "tastes": ["sweet"]} for i in range(10_000)]
    ).encode(),
    "notjson.json": b"this is not JSON",
    "empty.json": b"",
    "digits.json": b'{"tastes": ' + b"1" * 5000 + b"}",
    "golden.itf.json": GOLDEN.read_bytes(),
    "jd.itf.json": GOLDEN_JD.read_bytes(),
    "truncated.itf.json": GOLDEN.read_bytes()[: len(GOLDEN.read_bytes()) // 2],
    "dupkey.itf.json": GOLDEN.read_text().replace('"turn":', '"turn":0,"turn":', 1).encode(),
    "latin1.itf.json": '{"é": 1}'.encode("latin-1"),
}
SPECIAL = ["/dev/full", "/dev/null", "/nonexistent/x", "/proc/self/status", ".", ""]

numbers = st.sampled_from(["0", "-1", "1", "2", "3", "4", "5", "7", "100", "2000", "nan", "inf", "-inf", "1e309",
                           "1e-9", "0x10", "", " ", "²", "1" * 5000, "9" * 25, "3.5", "two", "-0"])
rulesets = st.sampled_from(["dishes", "just-desserts", "just-desserts-2.3", "chess", "DISHES", "", "all"])
decks = st.sampled_from(["box", "3x4", "2x4", "1x1", "6x4", "7x4", "0x0", "²x4", "9" * 5000 + "x4", "x", "jd-rivals",
                         "jd-one-suit", "v23-tiny", "no-such-deck", "@deck.json", "@deep.json", "@copies.json",
                         "@many.json", "@notjson.json", "@empty.json", "@digits.json", "/dev/null", "/nonexistent"])
rulings = st.sampled_from(["deal-2-players=strict", "tie-for-most=no-loser", "stuck-player=strict", "nosuch=1",
                           "novalue", "=", "voluntary-pass=allowed", "jd.ruling.answer-order=clockwise",
                           "dishes.ruling.first-player=random", "serving-size=any"])
paths = st.sampled_from(SPECIAL + ["@out", "@out/sub", "@golden.itf.json/x", "@deck.json"])
vector_files = st.sampled_from(["@golden.itf.json", "@jd.itf.json", "@truncated.itf.json", "@dupkey.itf.json",
                                "@latin1.itf.json", "@deck.json", "@deep.json", "@random.bin", "-", "/dev/null",
                                "/nonexistent", "."])


def _flag(name: str, values: st.SearchStrategy) -> st.SearchStrategy:
    return st.tuples(st.just(name), values).map(list)


def _options(*choices: st.SearchStrategy) -> st.SearchStrategy:
    return st.lists(st.one_of(*choices), max_size=4).map(lambda parts: [x for p in parts for x in p])


explore = st.tuples(st.just(["explore"]), rulesets.map(lambda r: [r]), _options(
    _flag("--players", numbers), _flag("--deck", decks), _flag("--ruling", rulings),
    _flag("--option", st.sampled_from(["poaching", "buffet", "nosuch"])), st.just(["--strict"]),
    _flag("--symmetry", st.sampled_from(["colours", "colours+types", "twins", "mirror", ""])),
    _flag("--max-states", numbers), st.just(["--graph"]), st.just(["--json"]), _flag("--out-itf", paths),
    _flag("--max-seconds", numbers)), st.just(["--max-seconds", "2"]))
check = st.tuples(st.just(["check"]), st.lists(rulesets, max_size=2), _options(
    _flag("--ruleset", rulesets), st.just(["--quick"]), _flag("--scale", numbers),
    _flag("--retail-deck", decks), st.just(["--json"]), _flag("--out-itf", paths),
    _flag("--max-seconds", numbers)), st.just(["--max-seconds", "2"]))
prove = st.tuples(st.just(["prove"]), rulesets.map(lambda r: [r]), _options(st.just(["--json"])))
listing = st.tuples(st.just(["list"]), st.lists(rulesets, max_size=2))
rulings_cmd = st.tuples(st.just(["rulings"]), rulesets.map(lambda r: [r]), _options(
    st.just(["--quick"]),
    _flag("--config", st.sampled_from(["2:2x4", "x:3x4", "2:9x9", "²:3x4", "3", "2:@deck.json"])),
    _flag("--ruling", st.sampled_from(["stuck-player", "no-such"])), st.just(["--json"]), _flag("--out", paths),
    _flag("--out-itf", paths), _flag("--max-seconds", numbers)), st.just(["--max-seconds", "2"]))
verify = st.tuples(st.just(["vectors", "verify"]), st.lists(vector_files, min_size=0, max_size=3),
                   _options(_flag("--deck", decks), _flag("--max-bytes", numbers), st.just(["--json"])))
generate = st.tuples(st.just(["vectors", "generate"]), _options(
    _flag("--ruleset", rulesets), st.just(["--quiet"])),
    st.sampled_from([["--check", "--out", "@missing"], ["--out", "@golden.itf.json/x"], ["--out", "/dev/full/x"],
                     ["--ruleset", "chess"], ["--check", "--out", "/nonexistent"]]))
junk = st.tuples(st.lists(st.sampled_from(["--help", "--version", "-h", "frobnicate", "--json", "vectors", "-", "--",
                                           "--max-seconds", "--players", "explore"]) | st.text(max_size=8), max_size=4))

explain = st.tuples(st.just(["explain"]), st.sampled_from(["poach-back", "poach", "jd.ruling.answer-order", "dishes",
                                                           "", "..", "9" * 5000, "ruling", "."]).map(lambda i: [i]),
                    _options(st.just(["--json"])))
judge = st.tuples(st.just(["judge"]), rulesets.map(lambda r: [r]), vector_files.map(lambda f: [f]),
                  _options(_flag("--at", numbers), _flag("--players", numbers), _flag("--deck", decks),
                           _flag("--ruling", rulings), st.just(["--json"])),
                  st.sampled_from([["--move", "pass"], ["--move", "draw SPONGE"], ["--move", ""],
                                   ["--move", "poach GARDENER with FRUIT_TART"], []]))

invocations = st.one_of(explore, check, prove, listing, rulings_cmd, verify, generate, explain, judge, junk).map(
    lambda parts: [x for p in parts for x in p])
signals = st.one_of(st.none(), st.tuples(st.sampled_from([signal.SIGINT, signal.SIGTERM]),
                                         st.floats(min_value=0.3, max_value=3.0)))


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _materialise(argv: list[str], folder: Path, random_bytes: bytes) -> list[str]:
    """``@name`` becomes a path in ``folder`` (files from FILES, written fresh)."""
    for name, data in FILES.items():
        (folder / name).write_bytes(data)
    (folder / "random.bin").write_bytes(random_bytes)
    return [str(folder / a[1:]) if a.startswith("@") else a for a in argv]


def _run(argv: list[str], stdin: bytes, sig: tuple[int, float] | None) -> tuple[int, str, str]:
    proc = subprocess.Popen([sys.executable, "-P", "-m", "tablerules", *argv], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_limit_memory, cwd=REPO)
    if sig is not None:
        takes_signals(proc)  # the moment is counted from there: Python's own start-up is not the program's
        try:
            proc.communicate(stdin, timeout=sig[1])
        except subprocess.TimeoutExpired:
            proc.send_signal(sig[0])
        stdin = None
    try:
        out, err = proc.communicate(stdin, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"tablerules {' '.join(argv)[:300]} ran longer than {TIMEOUT} s") from None
    return proc.returncode, without_heartbeat(err.decode("utf-8", "replace")), out.decode("utf-8", "replace")


def _cases(test):
    test = settings(max_examples=CASES, deadline=None, derandomize=SEED is None, database=None,
                    suppress_health_check=list(HealthCheck))(test)
    return seed(int(SEED))(test) if SEED is not None else test


TRIED: list[str] = []


@pytest.mark.slow
@_cases
@given(invocations, st.binary(max_size=64), st.binary(max_size=200), signals)
def test_every_run_ends_with_a_documented_status(argv, stdin, random_bytes, sig):
    with tempfile.TemporaryDirectory(prefix="tablerules-fuzz-") as tmp:
        real = _materialise(argv, Path(tmp), random_bytes)
        status, err, out = _run(real, stdin, sig)
    TRIED.append(" ".join(argv)[:200])
    where = f"tablerules {' '.join(argv)[:300]} -> {status}: {err[-1500:]}"
    assert status in EXIT_STATUSES, where
    assert "Traceback" not in err, where
    if status == 130:
        assert sig is not None, where
    lines = [line for line in err.splitlines() if line.strip()]
    if status == 2 and argv[:2] == ["vectors", "verify"] and "--json" in argv and not lines:
        assert json.loads(out)["summary"]["unreadable"] > 0, where  # the verdicts are in the document
    elif status == 2 and not any(": cannot read: " in line or ": cannot check: " in line for line in lines):
        # a usage error or an output that cannot be written: the last line, and the only error
        assert lines and ": error: " in lines[-1], where
        assert sum(": error: " in line for line in lines) == 1, where
        if "argument" in lines[-1] or "unrecognized arguments" in lines[-1]:
            assert len(lines) == 1, where  # a bad argument: one line and nothing else
    for line in lines:  # `vectors verify`: one line per file it cannot read
        if ": cannot read: " in line or ": cannot check: " in line:
            assert "Traceback" not in line and "cannot read: cannot read" not in line, where
