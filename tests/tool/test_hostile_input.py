"""Hostile input from a fuzz run, each refused cleanly: one line naming the file, line or JSON
path and what was wrong, a non-zero exit status, never a hang or a traceback.

Files the command must not wait on (named pipes, devices) run the installed command in a
fresh process with a timeout, so that a regression fails instead of hanging; the rest call
the readers in this process, which is faster.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tablerules.vectors import itf, mapping as itf_mapping
from tablerules.vectors.itf import VectorError
from tablerules.vectors.mapping import MappingError, load_mapping
from tablerules.model.decks import MAX_DECK_BYTES, DeckError, load_deck
from tablerules.vectors.verifier import verify_path
from tests.tool.runner import run_cli

REPO = Path(__file__).resolve().parents[2]
DISHES = REPO / "vectors" / "dishes" / "3p-3x4-default-s1.itf.json"
JD = REPO / "vectors" / "just-desserts" / "2p-jd-rivals-default-s1.itf.json"
QUINT_MAPPING = REPO / "tablerules" / "mappings" / "quint-dishes.toml"
QUINT_TRACE = REPO / "tests" / "interop" / "data" / "quint-dishes-2p.itf.json"
QUICK = 10
"""Seconds a refusal may take in a fresh process (it takes about one; a hang takes TIMEOUT)."""
TIMEOUT = 20

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")


def _lines(stderr: str) -> list[str]:
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    return lines


def _run(*args: str) -> tuple[int, str, float]:
    """(exit status, its one line of standard error, seconds taken)."""
    t0 = time.monotonic()
    r = run_cli(*args, timeout=TIMEOUT)
    seconds = time.monotonic() - t0
    return r.returncode, _lines(r.stderr)[0], seconds


def _small_deck() -> dict:
    return {"about": "a small deck", "tastes": ["sweet", "sour"], "suits": ["red"],
            "desserts": [{"id": "CAKE", "name": "Cake", "tastes": ["sweet"]},
                         {"id": "LIME", "name": "Lime", "tastes": ["sour"], "copies": 2}],
            "guests": [{"id": "ANN", "name": "Ann", "suit": "red", "wants": ["sweet"]},
                       {"id": "BOB", "name": "Bob", "suit": "red", "wants": ["sour"], "favorites": ["Lime"]}]}


# --------------------------------------------------------------------------- 1. only regular files are read


@needs_fifo
@pytest.mark.parametrize("args", [
    ["vectors", "verify", "PIPE"],
    ["vectors", "verify", "--deck", "PIPE", str(JD)],
    ["vectors", "verify", "--mapping", "PIPE", str(QUINT_TRACE)],
    ["explore", "just-desserts", "--deck", "PIPE"],
    ["check", "just-desserts", "--quick", "--retail-deck", "PIPE"],
], ids=["trace", "verify-deck", "mapping", "explore-deck", "retail-deck"])
def test_a_named_pipe_is_refused_at_once_not_waited_on(tmp_path, args):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    status, line, seconds = _run(*[str(pipe) if a == "PIPE" else a for a in args])
    assert status == 2 and seconds < QUICK
    assert str(pipe) in line and "not a regular file (a named pipe)" in line


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
@pytest.mark.parametrize("args", [
    ["vectors", "verify", "--mapping", "/dev/zero", str(QUINT_TRACE)],
    ["vectors", "verify", "/dev/zero"],
    ["explore", "just-desserts", "--deck", "/dev/zero"],
], ids=["mapping", "trace", "deck"])
def test_a_device_is_refused_not_read_without_end(args):
    status, line, seconds = _run(*args)
    assert status == 2 and seconds < QUICK
    assert "/dev/zero" in line and "not a regular file (a device)" in line


def test_a_folder_is_not_a_regular_file(tmp_path):
    with pytest.raises(MappingError, match="not a regular file \\(a folder\\)"):
        load_mapping(str(tmp_path))
    with pytest.raises(DeckError, match="not a regular file \\(a folder\\)"):
        load_deck(tmp_path)


GOLDEN_FOLDER_SCRIPT = """
import os, sys
from pathlib import Path
from tablerules.vectors.files import compare_sets, write_set
from tablerules.vectors.generation import Report, Vector
from tablerules.proofs.files import OutputError
fresh, golden = Path(sys.argv[1]), Path(sys.argv[2])
(fresh / "a.itf.json").write_text("{}")
os.mkfifo(golden / "a.itf.json")
print(compare_sets(fresh, golden)[0])
(golden / "dishes").mkdir()
os.mkfifo(golden / "dishes" / "a.itf.json")
try:
    write_set([Report("dishes", [Vector("a", {"#meta": {}}, [], [])])], golden)
except OutputError as e:
    print(e)
"""


@needs_fifo
def test_a_named_pipe_among_the_golden_vectors_is_refused(tmp_path):
    """`vectors generate` reads the vectors already in --out DIR (to compare, to keep unchanged ones)."""
    fresh, golden = tmp_path / "fresh", tmp_path / "golden"
    fresh.mkdir()
    golden.mkdir()
    r = subprocess.run([sys.executable, "-P", "-c", GOLDEN_FOLDER_SCRIPT, str(fresh), str(golden)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout.splitlines() == [
        "changed  a.itf.json: unreadable golden file (not a regular file (a named pipe))",
        f"cannot write {golden / 'dishes' / 'a.itf.json'}: not a regular file (a named pipe)"]


# --------------------------------------------------------------------------- 2. every file has a size limit


def _sparse(path: Path, size: int, head: bytes = b"") -> Path:
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(size)
    return path


def test_a_mapping_larger_than_its_limit_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * itf_mapping.MAX_MAPPING_BYTES + "\n" + QUINT_MAPPING.read_text())
    with pytest.raises(MappingError) as e:
        load_mapping(str(big))
    assert str(e.value) == (f"mapping {big}: cannot read: {big.stat().st_size:,} bytes, more than the limit of "
                            f"{itf_mapping.MAX_MAPPING_BYTES:,}")


def test_a_deck_larger_than_its_limit_is_refused_before_it_is_read(tmp_path):
    big = _sparse(tmp_path / "big.json", 10 * MAX_DECK_BYTES)
    with pytest.raises(DeckError, match=f"{big}: cannot read deck: {10 * MAX_DECK_BYTES:,} bytes, more than"):
        load_deck(big)


def test_the_verify_help_states_the_limit_of_every_file_it_reads():
    r = run_cli("vectors", "verify", "--help", timeout=TIMEOUT)
    text = " ".join(r.stdout.split())
    assert r.returncode == 0
    assert "at most --max-bytes" in text  # traces
    assert f"mapping file of at most {itf_mapping.MAX_MAPPING_BYTES // 1_000_000} MB" in text
    assert "deck file (at most 1 MB" in text
    assert "regular files" in text


# --------------------------------------------------------------------------- 3. nesting at any depth


@pytest.mark.parametrize("text", [
    "a = " + "[" * 100_000 + "]" * 100_000,
    "a = " + "{b = " * 100_000 + "1" + "}" * 100_000,
    "[mapping]\noptions = " + "[" * 100_000,
], ids=["arrays", "inline-tables", "unclosed"])
def test_a_mapping_nested_100000_deep_is_one_line(tmp_path, text):
    deep = tmp_path / "deep.toml"
    deep.write_text(text)
    with pytest.raises(MappingError) as e:
        load_mapping(str(deep))
    assert str(e.value).startswith(f"mapping {deep}: not valid TOML: ") and "\n" not in str(e.value)
    assert "nested too deeply" in str(e.value)


def test_a_mapping_nested_100000_deep_is_one_line_on_the_command_line(tmp_path):
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 100_000 + "]" * 100_000)
    status, line, _ = _run("vectors", "verify", "--mapping", str(deep), str(QUINT_TRACE))
    assert status == 2
    assert line == f"tablerules vectors verify: error: --mapping: mapping {deep}: not valid TOML: nested too deeply"


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000])
def test_a_trace_or_deck_nested_100000_deep_is_one_line(tmp_path, text):
    deep = tmp_path / "deep.json"
    deep.write_text(text)
    result = verify_path(str(deep))
    assert result.status == 2 and result.line == f"{deep}: cannot read: JSON nested too deeply (more than 64 levels)"
    with pytest.raises(DeckError, match="nested too deeply"):
        load_deck(deep)


# --------------------------------------------------------------------------- 4. mapping templates


@pytest.mark.parametrize("template,words", [
    ("reveal {key} {key} {value}", "{key} appears twice"),
    ("reveal {key[0]} {value}", "{key[0]} must be {key} or {value}"),
    ("reveal {key.real} {value}", "{key.real} must be {key} or {value}"),
    ("reveal {key!r} {value}", "{key!r} must be {key} or {value}"),
    ("reveal {key:>4} {value}", "{key:>4} must be {key} or {value}"),
    ("reveal {key} {value} {colour}", "{colour} must be {key} or {value}"),
    ("reveal {value}", "needs {key}"),
    ("reveal {key}", "needs {value}"),
    ("reveal {key}{value}", "{key} and {value} must be apart"),
    ("reveal {} {value}", "{} must be {key} or {value}"),
    ("reveal {0} {value}", "{0} must be {key} or {value}"),
])
def test_a_chance_move_template_is_checked_as_it_will_be_used(tmp_path, template, words):
    bad = tmp_path / "bad.toml"
    bad.write_text(QUINT_MAPPING.read_text().replace('chance_move = "reveal {key} {value}"',
                                                      f"chance_move = {json.dumps(template)}"))
    with pytest.raises(MappingError) as e:
        load_mapping(str(bad))
    assert f"mapping {bad}: [deal].chance_move: " in str(e.value) and words in str(e.value), str(e.value)


@pytest.mark.parametrize("template", ["place {from[99999999999999999999]}", "place {from[٣]}"],
                         ids=["long-index", "arabic-indic-index"])
def test_a_move_template_takes_only_names_and_short_ascii_indices(tmp_path, template):
    bad = tmp_path / "bad.toml"
    bad.write_text(QUINT_MAPPING.read_text().replace('passTurn = { move = "pass" }',
                                                      f"passTurn = {{ move = {json.dumps(template)} }}"))
    with pytest.raises(MappingError, match=r"\[moves\]\.passTurn\.move: template field"):
        load_mapping(str(bad))


def test_a_deal_without_its_chance_move_is_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(QUINT_MAPPING.read_text().replace('chance_move = "reveal {key} {value}"', ""))
    with pytest.raises(MappingError, match=r"\[deal\]\.chance_move: missing or not a string"):
        load_mapping(str(bad))


def test_a_bad_chance_move_template_never_reaches_the_replay(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(QUINT_MAPPING.read_text().replace('"reveal {key} {value}"', '"reveal {key} {key} {value}"'))
    status, line, _ = _run("vectors", "verify", "--mapping", str(bad), str(QUINT_TRACE))
    assert status == 2 and "bug to report" not in line
    assert line.startswith(f"tablerules vectors verify: error: --mapping: mapping {bad}: [deal].chance_move")


# --------------------------------------------------------------------------- 5. standard input closed


def test_standard_input_closed_is_one_line():
    r = subprocess.run(["sh", "-c", 'exec "$0" -P -m tablerules vectors verify - <&-', sys.executable],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
    assert r.returncode == 2
    assert _lines(r.stderr) == ["(standard input): cannot read: standard input is closed"]


# --------------------------------------------------------------------------- 6. a key listed twice


def _dishes() -> dict:
    return json.loads(DISHES.read_text())


def test_a_map_key_listed_twice_is_refused_naming_the_path(tmp_path):
    doc = _dishes()
    pairs = doc["states"][0]["places"]["#map"]
    pairs.insert(1, [pairs[0][0], "clean" if pairs[0][1] != "clean" else {"#tup": []}])
    path = tmp_path / "twice.itf.json"
    path.write_text(json.dumps(doc))
    result = verify_path(str(path))
    assert result.status == 2
    assert result.line == (f"{path}: cannot read: $.states[0].places.#map[1][0]: key {json.dumps(pairs[0][0])} "
                           "is listed twice (readers would keep only one of its values)")


def test_a_map_key_listed_twice_with_the_same_value_is_refused_too():
    with pytest.raises(VectorError, match=r"^\$\.x\.#map\[2\]\[0\]: key 1 is listed twice"):
        itf.decode({"#map": [[1, "a"], [2, "b"], [{"#bigint": "1"}, "a"]]}, "$.x")


def test_a_map_key_listed_twice_in_a_foreign_trace_is_refused(tmp_path):
    doc = json.loads(QUINT_TRACE.read_text())
    var = "dishes2::dishes::board"
    pairs = doc["states"][0][var]["#map"]
    pairs.append(copy.deepcopy([pairs[0][0], [{"#bigint": "7"}]]))
    path = tmp_path / "twice.itf.json"
    path.write_text(json.dumps(doc))
    status, line = itf_mapping.verify_file(str(path))
    assert status == 2 and f"$.states[0][{var!r}].#map[{len(pairs) - 1}][0]: key " in line
    assert "is listed twice" in line


def test_a_json_key_listed_twice_names_its_object(tmp_path):
    path = tmp_path / "twice.itf.json"
    path.write_text(DISHES.read_text().replace('"turn":', '"turn":0,"turn":', 1))
    result = verify_path(str(path))
    assert result.status == 2
    assert result.line == (f"{path}: cannot read: $.states[0]: duplicate key \"turn\" in one object "
                           "(readers would keep only one of them)")


# --------------------------------------------------------------------------- 7. the form of a probability


def _chance_state(doc: dict) -> int:
    return next(i for i, s in enumerate(doc["states"]) if "/" in str(s["#meta"].get("probability", "")))


FULL_WIDTH = str.maketrans("0123456789/", "０１２３４５６７８９／")
ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


@pytest.mark.parametrize("spell", [
    lambda p: "_0/".join(p.split("/")) + "_0",
    lambda p: repr(float(p.split("/")[0]) / float(p.split("/")[1])),
    lambda p: p.translate(ARABIC_INDIC),
    lambda p: p.translate(FULL_WIDTH),
    lambda p: " " + p,
    lambda p: p + "\n",
    lambda p: "+" + p,
    lambda p: p.replace("/", " / "),
    lambda p: p.split("/")[0] + "/0",
], ids=["underscores", "decimal-text", "arabic-indic", "full-width", "space", "newline", "plus", "spaced", "over-0"])
@pytest.mark.parametrize("where", ["probability", "chance_outcomes"])
def test_a_probability_is_exactly_the_documented_ascii_form(tmp_path, spell, where):
    doc = _dishes()
    i = _chance_state(doc)
    right = doc["states"][i]["#meta"]["probability"]
    if where == "probability":
        doc["states"][i]["#meta"]["probability"] = spell(right)
        at = f"$.states[{i}]['#meta'].probability"
    else:
        outcomes = doc["states"][i - 1]["#meta"]["chance_outcomes"]
        outcomes[0][1] = spell(outcomes[0][1] if "/" in outcomes[0][1] else right)
        at = f"$.states[{i - 1}]['#meta'].chance_outcomes[0][1]"  # the pair's probability itself
    path = tmp_path / "p.itf.json"
    path.write_text(json.dumps(doc, ensure_ascii=False))
    result = verify_path(str(path))
    assert result.status == 2, result.line
    assert result.line.startswith(f"{path}: cannot read: {at}: expected ")
    assert 'a fraction "p/q" in ASCII digits' in result.line


@pytest.mark.parametrize("value", ["1", 1, 0.25])
def test_the_documented_forms_of_a_probability_still_read(value):
    assert itf.parse_probability("1/4") == itf.parse_probability("01/04") == itf.Fraction(1, 4)
    assert itf.parse_probability(value) is not None


# --------------------------------------------------------------------------- 8. capped


def test_a_finished_game_cannot_be_capped(tmp_path):
    doc = _dishes()
    assert doc["states"][-1]["#meta"]["to_move"] == "TERMINAL" and doc["#meta"]["capped"] is False
    doc["#meta"]["capped"] = True
    path = tmp_path / "capped.itf.json"
    path.write_text(json.dumps(doc))
    result = verify_path(str(path))
    last = len(doc["states"]) - 1
    assert result.status == 1
    assert result.line.startswith(f"{path}: step {last} (move {doc['states'][-1]['#meta']['move']!r}): "
                                  f"capped, but the game is over at step {last}: $['#meta'].capped: expected false")
    assert "found true [clause dishes.end." in result.line


# --------------------------------------------------------------------------- 9. strict deck files


@pytest.mark.parametrize("text,words", [
    (lambda d: d.replace('"tastes"', '"tastes": ["x"], "tastes"', 1), '$: duplicate key "tastes"'),
    (lambda d: d.replace('"copies"', '"copies": 1, "copies"', 1), '$.desserts[1]: duplicate key "copies"'),
    (lambda d: d.replace('"suits"', '"guest": [], "suits"', 1), "$: unknown key 'guest' (known: "),
    (lambda d: d.replace('"copies"', '"copy": 1, "copies"', 1), "$.desserts[1] (LIME): unknown key 'copy' (known: "),
    (lambda d: d.replace('"favorites"', '"favourites": [], "favorites"', 1),
     "$.guests[1] (BOB): unknown key 'favourites' (known: "),
], ids=["duplicate-top", "duplicate-in-card", "unknown-top", "unknown-in-dessert", "unknown-in-guest"])
def test_a_deck_file_is_read_strictly(tmp_path, text, words):
    path = tmp_path / "deck.json"
    path.write_text(text(json.dumps(_small_deck())))
    with pytest.raises(DeckError) as e:
        load_deck(path)
    assert str(e.value).startswith(f"{path}: ") and words in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_a_deck_the_tool_writes_reads_back(tmp_path):
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(_small_deck()))
    deck = load_deck(path)
    again = tmp_path / "again.json"
    again.write_text(json.dumps(deck.to_json()))
    assert load_deck(again).digest() == deck.digest()
