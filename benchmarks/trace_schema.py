"""The trace schema checked by fastjsonschema (the verifier's validator, tablerules/vectors/verifier.py)
against jsonschema, the reference validator, measured side by side in one run on every golden
vector; beside them, the schema with its values written as a chain of if/then/else (as it was
before: kept here only as the yardstick for the form it has now), and the whole check.

Every validator checks every file under vectors/ (JSON already parsed, so only validation is
timed) against spec/itf-trace.schema.json; each must accept every file and refuse each of a
few broken copies of the first one, or the run stops.  Prints one table: the one-off seconds
to compile (fastjsonschema) or build (jsonschema) the validator, the milliseconds for the
whole set (best of --repeats runs), per file, and the ratio to the verifier's validator; then
the milliseconds of ``check_trace`` on the same documents (schema, setup and replay), and the
schema's share of it.
Usage: python benchmarks/trace_schema.py [--repeats N]
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable

import fastjsonschema
import jsonschema

from tablerules.vectors import verifier
from tablerules.vectors.itf import VectorError
from tablerules.report import table
from timing import best

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
    parser.add_argument("--repeats", type=int, default=1, help="runs of each validator; the fastest counts (default 1)")
    args = parser.parse_args(argv)
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

    t_fast, fast = best(args.repeats, lambda: [fast_valid(d) for d in docs])
    t_chain, chain = best(args.repeats, lambda: [chained(d) for d in docs])
    t_ref, ref = best(args.repeats, lambda: [reference.is_valid(d) for d in docs])
    assert all(fast) and all(chain) and all(ref), "a golden file does not match the schema"
    for name, breakage in BREAKAGES.items():
        bad = copy.deepcopy(docs[0])
        breakage(bad)
        assert not fast_valid(bad) and not chained(bad) and not reference.is_valid(bad), f"{name}: not refused by all"
    t_check, _ = best(args.repeats, lambda: [verifier.check_trace(d) for d in docs])

    n = len(docs)

    def row(what: str, compile_s: float, seconds: float) -> tuple[str, ...]:
        return (what, f"{compile_s:.3f}", f"{seconds * 1000:,.0f}", f"{seconds * 1000 / n:.2f}",
                f"{seconds / t_fast:.2f}x")

    table([row("fastjsonschema (the verifier's)", t_compile, t_fast),
           row("fastjsonschema, values as if/then/else", t_chain_compile, t_chain),
           row("jsonschema (the reference)", t_build, t_ref)],
          header=("validator", "compile s", f"ms, {n} files", "ms a file", "time vs the verifier's"), out=sys.stdout)
    print(f"check_trace on the same {n} documents (schema, setup, replay): {t_check * 1000:,.0f} ms; "
          f"the schema is {t_fast / t_check:.0%} of it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
