"""Bounded memory for the exact engine's tasks: NumPy files read in slices and written in
pieces, and sorted runs merged range by range.

A task of :mod:`tablerules.proofs.exact.levels` given a *segment* of ``S`` rows never holds more
than about ``S`` rows at once: parents are read from the store in slices, children are
flushed to it in *runs* (each run: distinct rows sorted by their key's bin, as ``.rows`` and
``.hash`` files), and the runs are merged one *key range* at a time, the ranges chosen from a
histogram of the keys' top bits so that each holds at most ``S`` rows.  A row's key puts
the hash of its table part in its top 32 bits (:func:`tablerules.proofs.exact.levels.row_keys`),
so a range holds every copy of a table state, and counts of table states add up over ranges.

The bound holds while no single one of the 65,536 histogram bins holds more than ``S``
rows, i.e. while a partition holds fewer than about 65,536 x ``S`` rows.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import numpy as np

HEADER = 128
"""Bytes of the .npy header this module writes (fixed, so the shape can be written last)."""

BIN_BITS = 16
"""Key ranges are unions of bins given by a key's top 16 bits."""


def _header(dtype: np.dtype, shape: tuple[int, ...]) -> bytes:
    """A .npy version 1.0 header of exactly HEADER bytes."""
    text = repr({"descr": np.lib.format.dtype_to_descr(np.dtype(dtype)), "fortran_order": False, "shape": shape})
    body = text.encode("latin1").ljust(HEADER - 10 - 1) + b"\n"
    return b"\x93NUMPY\x01\x00" + (len(body)).to_bytes(2, "little") + body


def read_header(path: Path) -> tuple[np.dtype, tuple[int, ...], int]:
    """(dtype, shape, offset of the data) of a .npy file, without reading its data."""
    with open(path, "rb") as f:
        version = np.lib.format.read_magic(f)
        read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, fortran, dtype = read(f)
        if fortran:
            raise ValueError(f"{path}: Fortran order is not used by the exact engine")
        return dtype, shape, f.tell()


def read_slice(path: Path, start: int, stop: int) -> np.ndarray:
    """Rows ``start:stop`` of a .npy file, read from disk (no memory map: what was read is all
    this process holds)."""
    dtype, shape, offset = read_header(path)
    stop = min(stop, shape[0]) if shape else stop
    rest = shape[1:]
    per_row = int(np.prod(rest, dtype=np.int64)) if rest else 1
    count = max(0, stop - start)
    with open(path, "rb") as f:
        f.seek(offset + start * per_row * dtype.itemsize)
        data = np.fromfile(f, dtype=dtype, count=count * per_row)
    return data.reshape((count, *rest))


class Appender:
    """A .npy file written in pieces along its first axis; it appears under its name only when
    closed complete (until then it is ``<name>.part``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tmp = path.with_name(path.name + ".part")
        self.f = open(self.tmp, "wb")
        self.f.write(b"\0" * HEADER)
        self.dtype: np.dtype | None = None
        self.rest: tuple[int, ...] | None = None
        self.rows = 0

    def add(self, array: np.ndarray) -> None:
        if self.dtype is None:
            self.dtype, self.rest = array.dtype, array.shape[1:]
        elif array.dtype != self.dtype or array.shape[1:] != self.rest:
            raise ValueError(f"{self.path}: pieces of different types")
        np.ascontiguousarray(array).tofile(self.f)
        self.rows += len(array)

    def close(self, empty: np.ndarray) -> None:
        """Finish the file; ``empty``, a zero-length array, gives the type if nothing was added."""
        if self.dtype is None:
            self.dtype, self.rest = empty.dtype, empty.shape[1:]
        self.f.seek(0)
        self.f.write(_header(self.dtype, (self.rows, *self.rest)))
        self.f.close()
        os.replace(self.tmp, self.path)


class Filler:
    """A .npy file of known shape whose pieces are written at their places, in any order."""

    def __init__(self, path: Path, dtype: type, shape: tuple[int, ...]) -> None:
        self.path = path
        self.tmp = path.with_name(path.name + ".part")
        self.dtype = np.dtype(dtype)
        self.per_row = int(np.prod(shape[1:], dtype=np.int64)) * self.dtype.itemsize
        self.f = open(self.tmp, "wb")
        self.f.write(_header(self.dtype, shape))
        self.f.truncate(HEADER + shape[0] * self.per_row)

    def put(self, start: int, array: np.ndarray) -> None:
        self.f.seek(HEADER + start * self.per_row)
        np.ascontiguousarray(array, dtype=self.dtype).tofile(self.f)

    def close(self) -> None:
        self.f.close()
        os.replace(self.tmp, self.path)


def run_names(folder: Path, prefix: str) -> list[str]:
    """The runs ``<prefix>.s0``, ``<prefix>.s1``... in a level folder, in order (names without ``.rows``)."""
    found = [p.name[:-len(".rows.npy")] for p in folder.glob(f"{prefix}.s*.rows.npy")]
    return sorted(found, key=lambda name: int(name.rsplit(".s", 1)[1]))


def key_ranges(folder: Path, runs: list[str], segment: int | None) -> tuple[list[int], np.ndarray]:
    """Cut the keys of ``runs`` into ranges of at most ``segment`` rows (whole bins, so a bin
    larger than the segment is a range of its own; None: one range).  Returns the ranges'
    first bins (and, last, the end) and, per run, where each range starts in it."""
    sizes = [read_header(folder / f"{r}.hash.npy")[1][0] for r in runs]
    if segment is None or sum(sizes) <= segment:
        bounds = [0, 1 << BIN_BITS]
    else:
        histogram = np.zeros(1 << BIN_BITS, dtype=np.int64)
        for r, n in zip(runs, sizes):
            for lo in range(0, n, segment):
                keys = read_slice(folder / f"{r}.hash.npy", lo, lo + segment)
                histogram += np.bincount((keys >> np.uint64(64 - BIN_BITS)).astype(np.int64),
                                         minlength=1 << BIN_BITS)
        bounds, held = [0], 0
        for b, count in enumerate(histogram):
            if held and held + count > segment:
                bounds.append(b)
                held = 0
            held += int(count)
        bounds.append(1 << BIN_BITS)
    edges = (np.array(bounds, dtype=np.uint64) << np.uint64(64 - BIN_BITS)) if len(bounds) > 2 else None
    starts = np.zeros((len(runs), len(bounds)), dtype=np.int64)
    for i, (r, n) in enumerate(zip(runs, sizes)):
        starts[i, -1] = n
        if edges is None or not n:
            continue
        found = np.zeros(len(bounds) - 2, dtype=np.int64)  # searched slice by slice: a run may exceed the segment
        for lo in range(0, n, segment):
            keys = read_slice(folder / f"{r}.hash.npy", lo, lo + segment)
            found += np.searchsorted(keys, edges[1:-1])
        starts[i, 1:-1] = found
    return bounds, starts


def ranges(folder: Path, runs: list[str], segment: int | None) -> Iterator[list[tuple[int, np.ndarray, np.ndarray]]]:
    """For each key range in increasing key order: per run, (where its slice starts, the
    slice's rows, their keys)."""
    bounds, starts = key_ranges(folder, runs, segment)
    for j in range(len(bounds) - 1):
        yield [(int(starts[i, j]), read_slice(folder / f"{r}.rows.npy", starts[i, j], starts[i, j + 1]),
                read_slice(folder / f"{r}.hash.npy", starts[i, j], starts[i, j + 1])) for i, r in enumerate(runs)]

