"""Malformed input to `tablerules vectors verify`: never a traceback, one line, exit status 2
for a file it cannot read (not JSON, wrong types, unknown moves, truncated, huge)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablerules.vectors import VectorError, verify_document, verify_file
from tablerules.cli import main as cli_main

REPO = Path(__file__).resolve().parents[2]
SAMPLE = min((p for p in (REPO / "vectors").glob("*/*.itf.json") if len(json.loads(p.read_text())["states"]) >= 5),
             key=lambda p: (p.stat().st_size, p.name))
"""The smallest golden vector with a few moves: the seed of every mutation below."""
SAMPLE_TEXT = SAMPLE.read_text()
SAMPLE_DOC = json.loads(SAMPLE_TEXT)

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=10)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=15,
)
FILE_SETTINGS = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], deadline=None
)


def _check(tmp_path: Path, data: bytes) -> tuple[int, str]:
    path = tmp_path / "fuzz.itf.json"
    path.write_bytes(data)
    status, line = verify_file(str(path))
    assert status in (0, 1, 2)
    assert "\n" not in line and line.startswith(str(path))
    assert "Traceback" not in line
    return status, line


@FILE_SETTINGS
@given(st.binary(max_size=200))
def test_random_bytes_are_unreadable(tmp_path, data):
    status, _ = _check(tmp_path, data)
    assert status == 2


@FILE_SETTINGS
@given(json_values)
def test_random_json_never_crashes(tmp_path, value):
    status, _ = _check(tmp_path, json.dumps(value).encode())
    assert status == 2  # no random value is a trace of a known rule set with its moves


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


ALL_PATHS = [p for p in _paths(SAMPLE_DOC) if p]


@FILE_SETTINGS
@given(st.sampled_from(ALL_PATHS), json_values, st.booleans())
def test_a_valid_trace_with_one_part_replaced_or_removed(tmp_path, path, value, remove):
    doc = copy.deepcopy(SAMPLE_DOC)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if remove:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    _check(tmp_path, json.dumps(doc).encode())
    try:
        verify_document(doc)
    except VectorError as e:
        assert "\n" not in str(e)


@FILE_SETTINGS
@given(st.integers(min_value=0, max_value=len(SAMPLE_TEXT.rstrip()) - 1))
def test_truncated_files_are_unreadable(tmp_path, cut):
    status, line = _check(tmp_path, SAMPLE_TEXT[:cut].encode())
    assert status == 2 and "cannot read" in line


@FILE_SETTINGS
@given(st.sampled_from([i for i, s in enumerate(SAMPLE_DOC["states"]) if "move" in s["#meta"]]),
       st.text(min_size=1, max_size=30))
def test_unknown_moves_get_one_line(tmp_path, i, text):
    doc = copy.deepcopy(SAMPLE_DOC)
    doc["states"][i]["#meta"]["move"] = text
    status, line = _check(tmp_path, json.dumps(doc).encode())
    assert status in (1, 2)


def test_huge_files_are_refused_before_reading(tmp_path, capsys):
    path = tmp_path / "huge.itf.json"
    path.write_text(SAMPLE_TEXT + " " * 5000)
    status, line = verify_file(str(path), max_bytes=len(SAMPLE_TEXT) + 100)
    assert status == 2 and "more than the limit" in line
    assert cli_main(["vectors", "verify", "--max-bytes", "1000", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "limit" in err


def test_deep_nesting_is_refused(tmp_path):
    status, line = _check(tmp_path, ("[" * 100_000 + "]" * 100_000).encode())
    assert status == 2 and "nested" in line


def test_missing_file_and_directory(tmp_path, capsys):
    assert cli_main(["vectors", "verify", str(tmp_path / "nope.json")]) == 2
    assert cli_main(["vectors", "verify", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all("cannot read" in e for e in err)


def test_worst_status_wins_over_several_files(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert cli_main(["vectors", "verify", str(SAMPLE), str(bad)]) == 2
    out = capsys.readouterr()
    assert ": ok (" in out.out and "not valid JSON" in out.err


def test_unknown_rule_set_option_and_components(tmp_path):
    for change, words in (
        ({"ruleset": "chess"}, "unknown rule set"),
        ({"players": "two"}, "players"),
        ({"options": {"no.such.ruling": "x"}}, "unknown ruling"),
        ({"format_version": "tablerules-itf/9"}, "format_version"),
        ({"components": {"name": "no-such-deck", "digest": "x"}}, "components"),
    ):
        doc = copy.deepcopy(SAMPLE_DOC)
        doc["#meta"].update(change)
        status, line = _check(tmp_path, json.dumps(doc).encode())
        assert status == 2 and words in line, line


def test_usage_errors_are_one_line(capsys):
    assert cli_main(["vectors"]) == 2
    assert cli_main(["vectors", "verify"]) == 2
    assert cli_main(["vectors", "frobnicate"]) == 2
    assert cli_main(["vectors", "generate", "--ruleset", "chess", "--out", "/nonexistent"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 4 and all(re.match(r"tablerules( vectors( generate| verify)?)?: error: ", e) for e in err), err
    assert not any(e.count("error:") > 1 or e.count("tablerules") > 1 for e in err), err


def test_a_file_cannot_make_verify_read_other_files(tmp_path):
    doc = copy.deepcopy(SAMPLE_DOC)
    doc["#meta"]["components"] = {"name": "x", "argument": "/etc/passwd"}
    status, line = _check(tmp_path, json.dumps(doc).encode())
    assert status == 2 and "only when given with --deck" in line
