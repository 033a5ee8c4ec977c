"""The trace schema checked by fastjsonschema (the verifier's validator, tablerules/vectors/verifier.py)
against jsonschema, the reference validator, measured side by side in one run on every golden
vector; beside them, the schema with its values written as a chain of if/then/else (as it was
before: kept here only as the yardstick for the form it has now), and the whole check.

Every validator checks every file under vectors/ (JSON already parsed, so only validation is
timed) against spec/itf-trace.schema.json; each must accept every file and refuse each of a
few broken copies of the first one, or the run stops.  Each other validator, and ``check_trace``
on the same documents (schema, setup and replay), is timed side by side with the verifier's
validator: the two take turns for --rounds rounds (``timing.alternate``).  Prints one table: the
one-off seconds to compile (fastjsonschema) or build (jsonschema) the validator, the
milliseconds for the whole set (median of the rounds), per file, and the time against the
verifier's validator (the median of the per-round ratios, least-greatest); then the
milliseconds of ``check_trace`` and the schema's share of it (median of the per-round shares,
least-greatest); and the machine's load average at the start and the end.
Usage: python benchmarks/trace_schema.py [--rounds N]
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import fastjsonschema
import jsonschema

from tablerules.vectors import verifier
from tablerules.vectors.itf import VectorError
from tablerules.report import table
from timing import alternate, load_average

VECTORS = Path(__file__).resolve().parents[1] / "vectors"
BREAKAGES: dict[str, Callable[[dict[str, Any]], Any]] = {
    "unknown key": lambda d: d["#meta"].update(capd=True),
    "index below 0": lambda d: d["states"][1]["#meta"].update(index=-1),
    "set of a number": lambda d: d["states"][0].update({d["vars"][0]: {"#set": 3}}),
    "encoding beside a field": lambda d: d["states"][0].update({d["vars"][0]: {"#set": [], "x": 1}}),
    "outcome pair of a number": lambda d: next(s for s in d["states"] if "chance_outcomes" in s["#meta"])[
        "#meta"]["chance_outcomes"][0].__setitem__(0, 7),
}


def if_then_else_values(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with ITF values told apart by a chain of if/then/else, each encoding in its branch."""
    out = copy.deepcopy(schema)
    value, props = {"$ref": "#/$defs/value"}, out["$defs"]["value"]["properties"]
    chain: dict[str, Any] = {"type": "object", "propertyNames": out["$defs"]["value"]["propertyNames"],
                             "additionalProperties": value}
    chain = {"if": {"required": ["tag"]}, "else": chain,
             "then": {"required": ["tag", "value"], "properties": {"tag": props["tag"], "value": value},
                      "additionalProperties": False}}
    for key in ("#map", "#set", "#tup", "#bigint"):
        chain = {"if": {"required": [key]}, "then": {"properties": {key: props[key]}, "additionalProperties": False},
                 "else": chain}
    out["$defs"]["value"] = {"if": {"type": "object"}, "then": chain,
                             "else": {"if": {"type": "array"}, "then": {"items": value},
                                      "else": {"type": ["boolean", "string", "integer", "null"]}}}
    return out


def fast_valid(doc: Any) -> bool:
    try:
        verifier.check_form(doc)
    except VectorError:
        return False
    return True


def valid_by(validate: Callable[[Any], Any]) -> Callable[[Any], bool]:
    def valid(doc: Any) -> bool:
        try:
            validate(doc)
        except fastjsonschema.JsonSchemaValueException:
            return False
        return True

    return valid


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of each pairing, the verifier's validator and the other in turn (default 3)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be 1 or more")
    load_start = load_average()
    docs = [json.loads(p.read_text()) for p in sorted(VECTORS.glob("*/*.itf.json"))]

    t0 = time.perf_counter()
    verifier._validator()
    t_compile = time.perf_counter() - t0
    t0 = time.perf_counter()
    chained = valid_by(fastjsonschema.compile(verifier._draft7(if_then_else_values(verifier.trace_schema())),
                                              use_default=False))
    t_chain_compile = time.perf_counter() - t0
    t0 = time.perf_counter()
    reference = jsonschema.Draft202012Validator(verifier.trace_schema())
    t_build = time.perf_counter() - t0

    def fast_all() -> list[bool]:
        return [fast_valid(d) for d in docs]

    chain = alternate(args.rounds, fast_all, lambda: [chained(d) for d in docs])
    ref = alternate(args.rounds, fast_all, lambda: [reference.is_valid(d) for d in docs])
    assert all(chain.a_result) and all(chain.b_result) and all(ref.b_result), "a golden file does not match the schema"
    for name, breakage in BREAKAGES.items():
        bad = copy.deepcopy(docs[0])
        breakage(bad)
        assert not fast_valid(bad) and not chained(bad) and not reference.is_valid(bad), f"{name}: not refused by all"
    check = alternate(args.rounds, lambda: [verifier.check_trace(d) for d in docs], fast_all)

    n = len(docs)
    t_fast = statistics.median(chain.a_seconds + ref.a_seconds)

    def row(what: str, compile_s: float, seconds: float, against: str) -> tuple[str, ...]:
        return (what, f"{compile_s:.3f}", f"{seconds * 1000:,.0f}", f"{seconds * 1000 / n:.2f}", against)

    print(f"{n} golden files; {args.rounds} rounds a pairing, the verifier's validator then the other; "
          f"load average at the start {load_start}")
    table([row("fastjsonschema (the verifier's)", t_compile, t_fast, "1.00x"),
           row("fastjsonschema, values as if/then/else", t_chain_compile, chain.b_median_seconds, chain.ratio_text()),
           row("jsonschema (the reference)", t_build, ref.b_median_seconds, ref.ratio_text())],
          header=("validator", "compile s", f"ms, {n} files", "ms a file",
                  "time vs the verifier's: median (least-greatest)"), out=sys.stdout)
    low, high = check.spread
    print(f"check_trace on the same {n} documents (schema, setup, replay): {check.a_median_seconds * 1000:,.0f} ms; "
          f"the schema is {check.ratio:.0%} of it ({low:.0%}-{high:.0%})")
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
