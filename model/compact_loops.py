"""Compiled helpers shared by compact kernels (:mod:`tablerules.model.compact`) and the exact
engine's loops (:mod:`tablerules.proofs.exact_loops`): nothing here knows a rule."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def mix64(x):
    """SplitMix64's finaliser: a well-spread 64-bit hash of the 64-bit word ``x``."""
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x
