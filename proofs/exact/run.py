"""Running the exact engine: the level loop, and where its tasks run.

:func:`solve` drives :mod:`tablerules.proofs.exact.levels`: forward, level by level (expand every
partition, then merge every partition), then the values: backward for optimal play (per level
and scoring, one task a range of its states, so the batch spreads over the workers), forward for
random play (one task a level and group of primes, every scoring at once).  The tasks are plain
functions of (kernel, store folder, level, partition), so any executor can run them:

* ``serial``: in this process;
* ``processes``: a pool of worker processes on this machine (the default: one per core);
* ``dask``: a dask.distributed cluster; the store folder must be one every worker can
  read and write (a shared file system on a multi-machine cluster; see docs/exact.rst).
"""

from __future__ import annotations

import copy
import ctypes
import dataclasses
import math
import os
import resource
import time
from concurrent.futures import ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from fractions import Fraction
from typing import Any, Callable, Sequence

import numpy as np

from tablerules.model.compact import Kernel

from . import levels as exact
from .levels import FirstMove, LevelCounts, Solution, Store, seat_values

# --------------------------------------------------------------------------- executors


def _task(kind: str, kernel: Kernel, root: str, level: int, *args: Any) -> tuple[Any, int]:
    """Run one task; return its result and the peak memory (kB) of the process that ran it."""
    store = Store(root)
    fn = {"expand": exact.expand_task, "merge": exact.merge_task, "level": exact.level_task,
          "optimal": exact.optimal_task, "reach": exact.reach_task}[kind]
    return fn(kernel, store, level, *args), _own_peak_kb()


def _own_peak_kb() -> int:
    """The peak resident memory (kB) of the process this runs in."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _peak_kb_of(pid: int) -> int:
    """The peak resident memory (kB, VmHWM) of a live process on this machine; 0 where the
    system does not say (not Linux, or the process is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


class TimeUp(Exception):
    """The run's time limit passed before a batch of tasks was done; the tasks were stopped."""


class WorkerLost(Exception):
    """A worker process died while running a task (the system killed it, most often for
    lack of memory); the batch is lost and the pool is started afresh."""


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.perf_counter())


class Executor:
    """Runs a batch of tasks and returns their results in order.

    With a ``deadline`` (a ``time.perf_counter()`` value) a batch not done by then is
    stopped and :class:`TimeUp` raised: a time limit only ever stops a run.  In this process
    (``serial``) a task runs to its end and the deadline is checked between tasks."""

    name = "serial"
    workers = 1
    worker_peak_kb = 0

    def run(self, calls: Sequence[tuple], deadline: float | None = None) -> list[Any]:
        done = []
        for c in calls:
            if _left(deadline) == 0.0:
                raise TimeUp
            done.append(_task(*c))
        return self._unwrap(done)

    def _unwrap(self, done: list[tuple[Any, int]]) -> list[Any]:
        for _, peak in done:
            self.worker_peak_kb = max(self.worker_peak_kb, peak)
        return [r for r, _ in done]

    def close(self) -> None:
        pass

    def peak_memory_mb(self) -> float:
        """Peak resident memory: this process, plus each worker at the largest worker's peak
        (an upper bound on the sum at any moment).  A worker's peak counts the tasks it
        finished and, for worker processes and Dask workers, also a task stopped half-way by
        the time limit."""
        own = _own_peak_kb() / 1024
        if self.name == "serial":
            return own
        return own + self.workers * self.worker_peak_kb / 1024


M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_MAX = -1, -2, -4
"""glibc's ``mallopt`` parameters (malloc.h)."""
KEEP_FREED_BYTES = 2048 << 20
"""Freed memory a worker keeps for its next arrays instead of handing it back to the system: more
than a flush of ``exact.FLUSH_BYTES`` of children uses, copies included."""


def reuse_freed_memory() -> bool:
    """Make this process's malloc (glibc's, where there is one) serve large arrays from its
    heap and keep up to :data:`KEEP_FREED_BYTES` of what is freed, so a task's next arrays
    reuse the last one's pages.  By default every large NumPy array is a fresh mapping whose
    pages the system zeroes and faults in one by one: a quarter of the CPU time of the box's
    ``--every-alternative`` went to that.  Changes no figure; False where there is no
    ``mallopt`` (another C library)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return all(mallopt(param, value) == 1 for param, value in
               ((M_MMAP_MAX, 0), (M_TRIM_THRESHOLD, KEEP_FREED_BYTES), (M_TOP_PAD, 64 << 20)))


class ProcessExecutor(Executor):
    name = "processes"

    def __init__(self, workers: int | None = None, *, keep_freed: bool = True) -> None:
        """``keep_freed``: each worker reuses the memory it frees (:func:`reuse_freed_memory`)."""
        self.workers = workers or os.cpu_count() or 1
        self.keep_freed = keep_freed
        self.pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        start = reuse_freed_memory if self.keep_freed else None
        return ProcessPoolExecutor(max_workers=self.workers, initializer=start)

    def run(self, calls: Sequence[tuple], deadline: float | None = None) -> list[Any]:
        futures = [self.pool.submit(_task, *c) for c in calls]
        _, pending = wait(futures, timeout=_left(deadline))
        self._sample()
        if pending:
            self._stop()
            raise TimeUp
        try:
            return self._unwrap([f.result() for f in futures])
        except BrokenProcessPool:
            self._stop()
            raise WorkerLost from None

    def _processes(self) -> list[Any]:
        return list((getattr(self.pool, "_processes", None) or {}).values())  # where CPython's pool keeps them

    def _sample(self) -> None:
        """Take each live worker's peak memory, so far, into account (a task still running too)."""
        for proc in self._processes():
            self.worker_peak_kb = max(self.worker_peak_kb, _peak_kb_of(proc.pid))

    def _stop(self) -> None:
        """Stop the workers at once, mid-task, and start a fresh pool for what comes next."""
        processes = self._processes()
        self.pool.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            proc.kill()  # SIGKILL: a worker may have inherited a handler for SIGTERM
        for proc in processes:
            proc.join()
        self.pool = self._new_pool()

    def close(self) -> None:
        self.pool.shutdown(wait=True)


class DaskExecutor(Executor):
    name = "dask"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        from dask.distributed import Client, LocalCluster

        if address:
            self.cluster = None
            self.client = Client(address)
        else:
            self.cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                                        processes=True, dashboard_address=None)
            self.client = Client(self.cluster)
        self.workers = len(self.client.scheduler_info()["workers"])

    def run(self, calls: Sequence[tuple], deadline: float | None = None) -> list[Any]:
        from dask.distributed import wait as dask_wait

        futures = [self.client.submit(_task, *c, pure=False) for c in calls]
        try:
            dask_wait(futures, timeout=_left(deadline))
        except TimeoutError:
            self._sample()
            self.client.cancel(futures)
            raise TimeUp from None
        return self._unwrap(self.client.gather(futures))

    def _sample(self) -> None:
        """Each worker's peak memory so far, asked of the workers themselves (a task still running too)."""
        try:
            peaks = self.client.run(_own_peak_kb)
        except Exception:  # plumbing: a cluster that cannot answer leaves the figure as it was
            return
        self.worker_peak_kb = max([self.worker_peak_kb, *peaks.values()])

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def executor(name: str, workers: int | None = None, address: str | None = None) -> Executor:
    if name == "serial":
        return Executor()
    if name == "processes":
        return ProcessExecutor(workers)
    if name == "dask":
        return DaskExecutor(address, workers)
    raise ValueError(f"unknown executor {name!r} (serial, processes, dask)")


# --------------------------------------------------------------------------- the level loop

Progress = Callable[[str], None]
FirstMoves = Callable[[], list[tuple[str, int, list[tuple[np.ndarray, Fraction]]]]]


def solve(kernel: Kernel, *, name: str = "", values: bool = True, run: Executor | None = None, parts: int | None = None,
          store_root: str | None = None, max_states: int | None = None, max_seconds: float | None = None,
          progress: Progress | None = None, first_moves: FirstMoves | None = None,
          segment: int | None = None) -> Solution:
    """Count (and, with ``values``, solve) the game of ``kernel`` from its start.

    ``max_states`` (engine states) bounds what the run covers: it is checked after each
    level, so the same inputs always cover the same levels.  ``max_seconds`` only stops the
    run, within a level if need be (the level in progress is dropped), and marks it
    incomplete.  ``segment`` (rows) bounds what one counting task holds at once
    (:mod:`tablerules.proofs.exact.sorted_runs`; None: a whole partition).  ``first_moves`` gives
    the first actions at the real start (text, mover,
    and each chance outcome as a canonical row of level 1)."""
    return solve_together([kernel], name=name, values=values, run=run, parts=parts, store_root=store_root,
                          max_states=max_states, max_seconds=max_seconds, progress=progress, first_moves=first_moves,
                          segment=segment)[0]


def play_key(kernel: Kernel) -> bytes | None:
    """What decides a kernel's state graph (start, moves, chance, weights, levels), if it says:
    kernels with equal keys differ at most in who loses at an end."""
    key = getattr(kernel, "play_key", None)
    return None if key is None else key()


def solve_together(kernels: Sequence[Kernel], *, name: str = "", values: bool = True, run: Executor | None = None,
                   parts: int | None = None, store_root: str | None = None, max_states: int | None = None,
                   max_seconds: float | None = None, progress: Progress | None = None,
                   first_moves: FirstMoves | None = None, segment: int | None = None) -> list[Solution]:
    """:func:`solve` for kernels that play one game and score its ends each their own way
    (equal :func:`play_key`): the levels are counted once, over the first kernel, and the
    values are computed for each.  Each solution's ``seconds``: the first's counts the
    counting, every one its own values."""
    kernel = kernels[0]
    if len(kernels) > 1 and (play_key(kernel) is None or any(play_key(k) != play_key(kernel) for k in kernels)):
        raise ValueError("kernels solved together must play the same game (equal play keys)")
    t0 = time.perf_counter()
    deadline = None if max_seconds is None else t0 + max_seconds
    own = run is None
    run = run or Executor()
    parts = parts or max(1, 2 * run.workers)
    store = Store(store_root)
    sol = Solution(kernel_name=name, players=kernel.players)
    sols = [sol]
    say = progress or (lambda text: None)
    sizes: list[list[int]] = []
    scorings = tuple(kernels) if len(kernels) > 1 else None
    try:
        starts = kernel.start()
        sizes.append(_write_start(kernel, store, parts, np.stack([r for r, _ in starts])))
        level0 = LevelCounts(nodes=sum(sizes[0]))
        level0.table_states, level0.up_to_colours, level0.up_to_colours_and_kinds = exact.table_counts(
            kernel, np.stack([r for r, _ in starts]))
        sol.levels.append(level0)
        level, seen = 0, level0.nodes
        while True:
            elapsed = time.perf_counter() - t0
            say(f"level {level}: {sol.levels[level].nodes:,} engine states to expand; {seen:,} distinct engine states "
                f"so far; {elapsed:.0f} s ({seen / max(elapsed, 1e-9):,.0f} engine states/s)")
            grown = run.run([("expand", kernel, str(store.root), level, p, parts, values, segment, scorings)
                            for p in range(parts)], deadline)
            for c in grown:
                for f in ("terminal_states", "terminal_up_to_colours_and_kinds", "children"):
                    setattr(sol.levels[level], f, getattr(sol.levels[level], f) + getattr(c, f))
                sol.levels[level].weight_lcm = math.lcm(sol.levels[level].weight_lcm, c.weight_lcm)
                sol.levels[level].held_rows = max(sol.levels[level].held_rows, c.held_rows)
                for name, count in c.violations.items():
                    sol.levels[level].violations[name] = sol.levels[level].violations.get(name, 0) + count
                    sol.levels[level].example.setdefault(name, c.example[name])
            if not sol.levels[level].children:
                sol.counted = True
                store.drop(level + 1, "[bq]*")
                break
            merged = run.run([("merge", kernel, str(store.root), level + 1, p, parts, values, segment)
                             for p in range(parts)], deadline)
            nxt = LevelCounts()
            for c in merged:
                nxt.add(c)
            sizes.append([c.nodes for c in merged])
            sol.levels.append(nxt)
            level += 1
            seen += nxt.nodes
            if not values:
                store.drop(level - 1, "*")
            if max_states is not None and seen > max_states:
                sol.stopped = f"the state budget of {max_states:,} engine states"
                break
        sols += [dataclasses.replace(sol, levels=copy.deepcopy(sol.levels)) for _ in kernels[1:]]
        sol.seconds = time.perf_counter() - t0
        if sol.counted and values:
            _values(kernels, store, run, parts, sizes, sols, starts, say, first_moves, deadline)
        for s in sols:
            s.complete = s.counted
    except TimeUp:
        for s in sols:
            s.stopped = (f"the time limit of {max_seconds:g} s"
                         + (" (every level counted; values not finished)" if s.counted else ""))
    except WorkerLost:
        for s in sols:
            s.stopped = ("a worker process that died at level " + str(len(s.levels) - 1)
                         + " (killed by the system, most "
                         "often for lack of memory: more --partitions or --segment-rows make each task smaller)")
    finally:
        if len(sols) == 1:
            sol.seconds = time.perf_counter() - t0
        if own:
            run.close()
        for s in sols:
            s.peak_memory_mb = run.peak_memory_mb()
        store.close()
    return sols


def _write_start(kernel: Kernel, store: Store, parts: int, rows: np.ndarray) -> list[int]:
    dest = exact.partition_of(rows, kernel.table_width, parts)
    sizes = []
    for p in range(parts):
        mine = rows[dest == p]
        distinct, _, hashes = exact.distinct(mine, exact.row_keys(mine, kernel.table_width))
        store.save(0, f"p{p}.rows", distinct)
        store.save(0, f"p{p}.hash", hashes)
        sizes.append(len(distinct))
    return sizes


def _values(kernels, store, run, parts, sizes, sols, starts, say, first_moves, deadline):
    """The values of every level for each scoring.  Optimal play goes backward, one batch of
    tasks a level: every scoring's values side by side and, beside them, the gathering of the
    level below (it needs only what the counting wrote), so no worker waits for it.  Random
    play then goes forward, once for every scoring: the chance of reaching each state, by
    groups of primes, summed over the ends of each level.  Each solution's ``seconds`` gains
    an equal share of each batch."""
    kernel, sol = kernels[0], sols[0]
    last = len(sol.levels) - 1
    denominator = math.prod(lv.weight_lcm for lv in sol.levels)
    start_denominator = math.lcm(*(Fraction(p).denominator for _, p in starts))
    bound = 2 * (last + 2) * denominator * start_denominator  # values are at most the number of levels
    primes = exact.primes_below(exact.PRIME_LIMIT, 1)
    while math.prod(primes) <= bound:
        primes = exact.primes_below(exact.PRIME_LIMIT, len(primes) + 1)
    root = str(store.root)

    def gather(level: int) -> tuple:
        return ("level", kernel, root, level, parts, sizes[level], sizes[level + 1] if level < last else None,
                len(kernels))

    def batch(calls: list[tuple]) -> list:
        t0 = time.perf_counter()
        out = run.run(calls, deadline)
        for s in sols:
            s.seconds += (time.perf_counter() - t0) / len(sols)
        return out

    run.run([gather(last)], deadline)
    # a level's optimal values in pieces, so the batch spreads evenly over the workers beside the gathering
    pieces = 1 if run.workers == 1 else max(2, 2 * run.workers // len(sols))
    for level in range(last, -1, -1):
        say(f"values: optimal play, level {level}, {sol.levels[level].nodes:,} engine states")
        calls = [gather(level - 1)] if level else []  # the next level down is gathered beside these values
        batch(calls + [("optimal", kernel, root, level, level == last, i, k, pieces)
                       for i in range(len(sols)) for k in range(pieces)])
        if level + 1 <= last and level + 1 != 1:  # level 1 stays for the first moves
            for pattern in ("p*", "c*", "optimal*"):  # what random play needs going forward stays
                store.drop(level + 1, pattern)
    groups = -(-len(primes) // exact.PRIMES_PER_TASK)
    groups = min(len(primes), max(groups, run.workers))
    chunks = [primes[i::groups] for i in range(groups)]
    n0 = sum(sizes[0])
    for c, chunk in enumerate(chunks):
        reach = np.zeros((n0, len(chunk)), dtype=np.uint64)
        for row, p in starts:
            at = exact.locate(store, kernel, 0, parts, sizes[0], row)
            p = Fraction(p)
            reach[at] += np.array([p.numerator % q * pow(p.denominator, -1, q) % q for q in chunk], dtype=np.uint64)
        store.save(0, f"reach{c}", (reach % np.array(chunk, dtype=np.uint64)).astype(np.uint32))
    n = kernel.players
    ends = [np.zeros((2 * n + 1, len(primes)), dtype=object) for _ in sols]
    order = [p for chunk in chunks for p in chunk]
    for level in range(last + 1):
        say(f"values: random play, level {level}, {sol.levels[level].nodes:,} engine states "
            f"({len(primes)} primes)")
        nxt = sum(sizes[level + 1]) if level < last else 0
        got = batch([("reach", kernel, root, level, level == last, c, chunk, len(sols), nxt)
                     for c, chunk in enumerate(chunks)])
        for i in range(len(sols)):
            ends[i] += np.concatenate([g[i] for g in got], axis=1).astype(object)
        store.drop(level, "reach*")
        if level > 1:
            store.drop(level, "*")
    for i, s in enumerate(sols):
        t0 = time.perf_counter()
        s.primes_used = len(primes)
        opt_total = [Fraction(0)] * (2 * n + 1)
        for row, p in starts:
            opt = exact.optimal_at(store, kernel, 0, parts, sizes[0], row, i)
            opt_total = [a + p * b for a, b in zip(opt_total, opt)]
        s.optimal_play = seat_values(opt_total, n)
        s.random_play = seat_values([exact.crt_fraction([int(r) % q for r, q in zip(ends[i][v], order)], order,
                                                        denominator * start_denominator)
                                     for v in range(2 * n + 1)], n)
        if first_moves is not None and last >= 1:
            for move, mover, outcomes in first_moves():
                opt = [Fraction(0)] * (2 * n + 1)
                for row, q in outcomes:
                    o = exact.optimal_at(store, kernel, 1, parts, sizes[1], row, i)
                    opt = [a + q * b for a, b in zip(opt, o)]
                opt[2 * n] += 1
                s.first_moves.append(FirstMove(move, mover, seat_values(opt, n)))
        s.seconds += time.perf_counter() - t0
