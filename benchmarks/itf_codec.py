"""Our ITF codec (tablerules/vectors/itf.py) against itf-py, the ITF package for Python, measured side
by side in one run on every golden vector.

Decoding: every state value of every file under vectors/ (JSON already parsed, so only the
codec is timed) with ``tablerules.vectors.itf.decode``; with ``itf_py.value_from_json`` alone, which
gives records as namedtuples (a class made for each record), lists as its ImmutableList, maps
as frozendicts and ``{"tag": "Null", ...}`` as a variant; and with ``itf_py.value_from_json``
followed by the thin adapter our code would need to get our values (records and maps as
dicts, set members and map keys hashable as ours, the Null variant as None).  The adapter's
values must equal ours, value for value, or the run stops.

Encoding: how many state values each codec writes back exactly as the golden file holds them
(our vectors are compared byte for byte, so the codec must write our canonical form).

Each of itf_py's two ways is timed side by side with ours: the two take turns, ours first,
for --rounds rounds (``timing.alternate``).  Prints one table: milliseconds for the whole set
(median of the rounds; ours over every round of both pairings), values per second, and the
time against ours: the median of the per-round ratios and their least and greatest; and the
machine's load average at the start and the end.
Usage: python benchmarks/itf_codec.py [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

import itf_py

from tablerules.vectors.itf import _UNITS, _freeze, decode, encode
from tablerules.report import table
from timing import alternate, load_average

VECTORS = Path(__file__).resolve().parents[1] / "vectors"


def ours_from_itf_py(value: Any) -> Any:
    """itf_py's value as ours: what tablerules would have to add to use itf_py as its decoder."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        fields = {k: ours_from_itf_py(getattr(value, k)) for k in value._fields}
        if not getattr(type(value), "_itf_variant", False):
            return fields
        tag = type(value).__name__
        if tag in ("Null", "None") and value._fields == ("value",) and fields["value"] in (*_UNITS, ()):
            return None
        return {"tag": tag, "value": fields["value"] if value._fields == ("value",) else fields}
    if isinstance(value, tuple):
        return tuple(ours_from_itf_py(v) for v in value)
    if isinstance(value, frozenset):
        return frozenset(_freeze(ours_from_itf_py(v)) for v in value)
    if isinstance(value, dict):
        return {_freeze(ours_from_itf_py(k)): ours_from_itf_py(v) for k, v in value.items()}
    if isinstance(value, list):
        return [ours_from_itf_py(v) for v in value]
    if isinstance(value, itf_py.itf.ITFUnserializable):
        raise ValueError("an #unserializable value")
    return value


def golden_values() -> list[Any]:
    values = []
    for path in sorted(VECTORS.glob("*/*.itf.json")):
        for state in json.loads(path.read_text())["states"]:
            values += [v for k, v in state.items() if k != "#meta"]
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds of each pairing, ours and theirs in turn (default 5)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be 1 or more")
    load_start = load_average()
    values = golden_values()
    n = len(values)

    def decode_ours() -> list[Any]:
        return [decode(v) for v in values]

    own_values = alternate(args.rounds, decode_ours, lambda: [itf_py.value_from_json(v) for v in values])
    with_adapter = alternate(args.rounds, decode_ours,
                             lambda: [ours_from_itf_py(itf_py.value_from_json(v)) for v in values])
    ours = own_values.a_result
    differ = [i for i, (a, b) in enumerate(zip(ours, with_adapter.b_result)) if a != b]
    assert not differ, f"itf_py + adapter differs from ours on {len(differ)} of {n} values, first {values[differ[0]]}"

    canon = json.dumps
    ours_exact = sum(canon(encode(v)) == canon(raw) for v, raw in zip(ours, values))
    assert ours_exact == n, f"our encode rewrites {n - ours_exact} golden values differently"
    theirs = [canon(itf_py.value_to_json(itf_py.value_from_json(raw))) for raw in values]
    theirs_exact = sum(t == canon(raw) for t, raw in zip(theirs, values))
    first = next(i for i, (t, raw) in enumerate(zip(theirs, values)) if t != canon(raw))

    def row(what: str, seconds: float, against_ours: str, exact: str) -> tuple[str, ...]:
        return (what, f"{seconds * 1000:,.0f}", f"{n / seconds:,.0f}", against_ours, exact)

    t_ours = statistics.median(own_values.a_seconds + with_adapter.a_seconds)
    print(f"{n:,} state values from {len(list(VECTORS.glob('*/*.itf.json')))} golden files; {args.rounds} rounds "
          f"a pairing, ours then theirs; load average at the start {load_start}")
    table([row("tablerules.vectors.itf.decode", t_ours, "1.00x", f"{ours_exact:,} of {n:,} (encode)"),
           row("itf_py.value_from_json (its own values)", own_values.b_median_seconds, own_values.ratio_text(),
               f"{theirs_exact:,} of {n:,} (value_to_json)"),
           row("itf_py.value_from_json + adapter to ours", with_adapter.b_median_seconds,
               with_adapter.ratio_text(), "")],
          header=("decoder", "ms, all values", "values/s", "time vs ours: median (least-greatest)",
                  "written back as the golden file"),
          out=sys.stdout)
    print(f"first value itf_py writes otherwise: golden {canon(values[first])[:70]}, itf_py {theirs[first][:70]}")
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
