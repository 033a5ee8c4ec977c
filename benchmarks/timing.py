"""Timing shared by the benchmarks that set two libraries side by side (itf_codec.py, trace_schema.py)."""

from __future__ import annotations

import gc
import time
from typing import Any, Callable


def best(repeats: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """(fewest seconds of ``repeats`` runs, the last run's result); each run starts from a
    collected heap, so that no run pays for the garbage of the one before."""
    seconds, result = float("inf"), None
    for _ in range(repeats):
        result = None
        gc.collect()
        t0 = time.perf_counter()
        result = run()
        seconds = min(seconds, time.perf_counter() - t0)
    return seconds, result
