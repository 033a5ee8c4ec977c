"""Compiled helpers shared by compact kernels (:mod:`tablerules.model.compact`), the exact
engine's loops (:mod:`tablerules.proofs.exact_loops`) and the compiled playouts (every
``*_playout`` module of :mod:`tablerules.model`): nothing here knows a rule.

Random numbers for the playouts come from SplitMix64: a stream is one 64-bit word in a
one-element array (``rng[0]``), seeded by :func:`batch_seed`, so a seed gives the same games
on every machine."""

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


GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def uniform(rng):
    """The next draw in [0, 1) from the SplitMix64 stream whose state is ``rng[0]``."""
    rng[0] += GOLDEN
    return float(mix64(rng[0]) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def below(rng, n):
    """A whole number in [0, n), each equally likely (up to 2**-53): one draw of the stream."""
    return min(int(uniform(rng) * n), n - 1)


_MASK = 2**64 - 1


def _mix(x: int) -> int:
    """SplitMix64's finaliser on a Python int (the compiled loops use the same, mix64)."""
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & _MASK
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def batch_seed(seed: int, batch: int) -> np.uint64:
    """The random stream of one batch of games: the seed (modulo 2**64) and the batch's number
    hashed together, so that no two seeds share a batch's games in any way one could arrange."""
    return np.uint64(_mix((_mix(seed & _MASK) + 0x9E3779B97F4A7C15 * (batch + 1)) & _MASK))
