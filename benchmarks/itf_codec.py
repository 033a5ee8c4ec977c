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

Prints one table: milliseconds for the whole set (best of --repeats runs), values per second,
and the ratio to ours.
Usage: python benchmarks/itf_codec.py [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import itf_py

from tablerules.vectors.itf import _UNITS, _freeze, decode, encode
from tablerules.report import table
from timing import best

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
    parser.add_argument("--repeats", type=int, default=3, help="runs of each codec; the fastest counts (default 3)")
    args = parser.parse_args(argv)
    values = golden_values()
    n = len(values)

    t_ours, ours = best(args.repeats, lambda: [decode(v) for v in values])
    t_raw, _ = best(args.repeats, lambda: [itf_py.value_from_json(v) for v in values])
    t_adapted, adapted = best(args.repeats, lambda: [ours_from_itf_py(itf_py.value_from_json(v)) for v in values])
    differ = [i for i, (a, b) in enumerate(zip(ours, adapted)) if a != b]
    assert not differ, f"itf_py + adapter differs from ours on {len(differ)} of {n} values, first {values[differ[0]]}"

    canon = json.dumps
    ours_exact = sum(canon(encode(v)) == canon(raw) for v, raw in zip(ours, values))
    assert ours_exact == n, f"our encode rewrites {n - ours_exact} golden values differently"
    theirs = [canon(itf_py.value_to_json(itf_py.value_from_json(raw))) for raw in values]
    theirs_exact = sum(t == canon(raw) for t, raw in zip(theirs, values))
    first = next(i for i, (t, raw) in enumerate(zip(theirs, values)) if t != canon(raw))

    def row(what: str, seconds: float, exact: str) -> tuple[str, ...]:
        return (what, f"{seconds * 1000:,.0f}", f"{n / seconds:,.0f}", f"{seconds / t_ours:.2f}x", exact)

    print(f"{n:,} state values from {len(list(VECTORS.glob('*/*.itf.json')))} golden files; best of {args.repeats}")
    table([row("tablerules.vectors.itf.decode", t_ours, f"{ours_exact:,} of {n:,} (encode)"),
           row("itf_py.value_from_json (its own values)", t_raw, f"{theirs_exact:,} of {n:,} (value_to_json)"),
           row("itf_py.value_from_json + adapter to ours", t_adapted, "")],
          header=("decoder", "ms, all values", "values/s", "time vs ours", "written back as the golden file"),
          out=sys.stdout)
    print(f"first value itf_py writes otherwise: golden {canon(values[first])[:70]}, itf_py {theirs[first][:70]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
