"""Compiled helpers shared by compact kernels (:mod:`tablerules.model.compact`), the exact
engine's loops (:mod:`tablerules.proofs.exact.loops`) and the compiled playouts (every
``*_playout`` module of :mod:`tablerules.model`): nothing here knows a rule.

Random numbers for the playouts come from SplitMix64: a stream is one 64-bit word in a
one-element array (``rng[0]``), seeded by :func:`batch_seed`, so a seed gives the same games
on every machine."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload


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



def prefetch(array, index) -> None:
    """Ask the processor to bring ``array[index]`` (its first element, for a row of a matrix) into
    its caches, for a loop that will read or write it a few steps later.  A hint: it changes no
    result and never faults.  Loops over edges in random order wait on memory; asking for the
    rows a few steps ahead overlaps the waits.  In Python (NUMBA_DISABLE_JIT=1) it does nothing."""


@intrinsic
def _prefetch(typingctx, array, index):
    """LLVM's ``prefetch`` of the address of ``array[index, 0, ...]`` (read, kept in every cache)."""
    sig = types.void(array, index)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        at = context.cast(builder, args[1], signature.args[1], types.intp)
        inds = [at] + [context.get_constant(types.intp, 0)] * (aryty.ndim - 1)
        ptr = cgutils.get_item_pointer2(context, builder, data=ary.data, shape=cgutils.unpack_tuple(builder, ary.shape),
                                        strides=cgutils.unpack_tuple(builder, ary.strides), layout=aryty.layout,
                                        inds=inds, wraparound=False, boundscheck=False)
        byte_ptr, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32]),
                                            "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, byte_ptr), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


@overload(prefetch, inline="always")
def _prefetch_compiled(array, index):
    def impl(array, index):
        _prefetch(array, index)
    return impl


AHEAD = 16
"""How many steps ahead a loop asks for the rows it will touch (:func:`prefetch`)."""

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
