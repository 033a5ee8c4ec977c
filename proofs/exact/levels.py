"""The exact engine: a whole game counted and solved, level by level, over compact rows.

For a rule set whose :class:`~tablerules.model.compact.Kernel` numbers the states by a
progress measure (actions played so far: every action adds one), the search goes level by
level, each level complete before the next.  A level is split into partitions by a hash
of its rows' table part, so every copy of a table state meets in one partition, and the
partitions are expanded and merged as independent tasks (run here, in a pool of
processes, or on a Dask cluster: :mod:`tablerules.proofs.exact.run`).  What the tasks
write lives in a store folder on disk; nothing keeps a parent pointer in memory, and a
trace is found again when asked for.

**Units.**  A *table state* is whose turn it is and, for every place, what lies there as
any player sees it (for Dishes: empty, clean, or a pile given by its top tile and its
number of tiles).  The starting state counts; a state where the player to move must pass
counts; a step where a turned tile waits for its colour is not a state.  An *action* is a
move a player chooses (a pass forced by the rules is not one).  Counts *up to colours* and
*up to colours and kinds* count orbits of table states under relabelling; unreduced counts
are sums of orbit sizes.  *Engine states* are the canonical rows the engine stores: a
table state plus what chance still needs to remember.

**Values** (exact):

* *uniform random play*: the player to move picks each of its legal actions with equal
  probability; chance follows the rules.  Computed forward, once for every scoring: the
  probability of reaching each state, summed over the ends.  Probabilities are computed
  modulo primes and rebuilt exactly by the Chinese remainder theorem: the denominator is
  known to divide the product over levels of the least common multiple of the branch
  weights' denominators.
* *optimal play* (backward induction): each player picks the action that makes its own
  chance of being among the losers smallest.  Ties are broken, in order, by: its own chance of being the only
  loser (smaller first); the other players' total chance of losing (larger first); the
  expected number of actions left (smaller first); then the value vector in seat order
  (smaller first), a fixed convention that never decides a two-player figure.  Values are
  exact integers, ``history weight x probability``: the kernel's history weight makes every
  chance node a plain sum.

Store layout, per level ``L{a}``: ``p{p}.rows`` (distinct rows, sorted by hash),
``p{p}.hash``; with values also ``p{p}.edges`` (parent, action, p_num, p_den, destination
partition, place in the bucket; 32-bit, in expansion order), ``p{p}.actions``, ``p{p}.terminal`` / ``p{p}.losers{s}``,
``c{src}-{d}.child`` (each bucket's rows as indices into partition d of the next level), ``n.*`` and
``e.all`` (the whole level's nodes and edges, gathered once for the value tasks),
``optimal{s}.{k}`` (values of the level's k-th range of states, partitions in order) and
``reach{chunk}`` (the probability of reaching each state, modulo a group of primes).
``{s}`` numbers the *scorings*: kernels that play the same game and differ only in who loses
at an end (``play_key``), solved over one state graph.
"""

from __future__ import annotations

import math
import shutil
import tempfile
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

from tablerules.model.compact import Kernel

from . import loops
from . import sorted_runs as runs_mod

# --------------------------------------------------------------------------- the store


class Store:
    """A folder of NumPy files, one sub-folder per level."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.owned = root is None
        self.root = Path(tempfile.mkdtemp(prefix="tablerules-exact-")) if root is None else Path(root)
        self.root.mkdir(parents=True, exist_ok=True)

    def folder(self, level: int) -> Path:
        d = self.root / f"L{level}"
        d.mkdir(exist_ok=True)
        return d

    def path(self, level: int, name: str) -> Path:
        return self.folder(level) / f"{name}.npy"

    def save(self, level: int, name: str, array: np.ndarray) -> None:
        np.save(self.path(level, name), array, allow_pickle=False)

    def load(self, level: int, name: str) -> np.ndarray:
        return np.load(self.path(level, name), allow_pickle=False)

    def exists(self, level: int, name: str) -> bool:
        return (self.root / f"L{level}" / f"{name}.npy").exists()

    def drop(self, level: int, pattern: str) -> None:
        """Delete the level's files matching a glob pattern (``b*-3.*``, ``p*``)."""
        d = self.root / f"L{level}"
        if d.exists():
            for f in d.glob(pattern):
                f.unlink()

    def close(self) -> None:
        if self.owned:
            shutil.rmtree(self.root, ignore_errors=True)


# --------------------------------------------------------------------------- per-level figures


@dataclass
class LevelCounts:
    """Figures for the states of one level (actions played); units in the module docstring."""

    nodes: int = 0
    """Engine states (canonical rows)."""
    table_states: int = 0
    up_to_colours: int = 0
    up_to_colours_and_kinds: int = 0
    passes: int = 0
    """Table states where the player to move must pass."""
    terminal_states: int = 0
    terminal_up_to_colours_and_kinds: int = 0
    children: int = 0
    """Children generated from this level before merging (the work done)."""
    weight_lcm: int = 1
    """Least common multiple of (actions x chance denominator) over this level's branches."""
    held_rows: int = 0
    """The most rows one task of this level held at once (its largest batch; see sorted_runs)."""
    violations: dict[str, int] = field(default_factory=dict)
    """Invariant name -> how many engine states of this level break it."""
    example: dict[str, bytes] = field(default_factory=dict)
    """Invariant name -> one row that breaks it."""

    def add(self, other: "LevelCounts") -> None:
        for f in ("nodes", "table_states", "up_to_colours", "up_to_colours_and_kinds", "passes", "terminal_states",
                  "terminal_up_to_colours_and_kinds", "children"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.weight_lcm = math.lcm(self.weight_lcm, other.weight_lcm)
        self.held_rows = max(self.held_rows, other.held_rows)
        for name, count in other.violations.items():
            self.violations[name] = self.violations.get(name, 0) + count
            self.example.setdefault(name, other.example[name])


# --------------------------------------------------------------------------- tasks (run anywhere)

CHUNK = 200_000
"""Parents expanded at once, at most."""
FLUSH_BYTES = 256 << 20
"""Bytes of children a counting task holds at most before it writes them to the store, where no
segment bounds it (rows: this over the row's width).  Memory a task touches for the first time is
slow (the system zeroes it, page by page): a task that held a whole partition of the box's
two-layouts level 9 (24 million children of 88 bytes) spent more time so than the runs it saved."""
MERGE_BYTES = 512 << 20
"""Bytes of rows a merge task reads at once, at most (whole key bins), where no segment bounds it."""


def held_rows_bound(kernel: Kernel, budget: int, segment: int | None) -> int:
    """Rows a task holds at once: the segment if given, else ``budget`` bytes of rows."""
    return segment if segment is not None else max(1, budget // kernel.width)


def narrow(array: np.ndarray, what: str) -> np.ndarray:
    """``array`` as 32-bit integers (edges are stored so: half the bytes of 64-bit ones), or
    OverflowError naming ``what`` where a value does not fit (a partition past 2^31 rows)."""
    if array.size and (array.max() > np.iinfo(np.int32).max or array.min() < 0):
        raise OverflowError(f"{what} does not fit in 32 bits: use more --partitions")
    return array.astype(np.int32)


def words_of(rows: np.ndarray) -> np.ndarray:
    """Rows (whose width is a multiple of 8 bytes) seen as 8-byte words."""
    return np.ascontiguousarray(rows).view(np.uint64)


def partition_of(rows: np.ndarray, table_width: int, parts: int) -> np.ndarray:
    """Each row's partition: the hash of its table part modulo ``parts``."""
    return loops.keys_and_parts(words_of(rows), table_width // 8, parts)[1]


def row_keys(rows: np.ndarray, table_width: int) -> np.ndarray:
    """Each row's 64-bit key: the top half of its table part's hash, then the bottom half of its
    whole row's hash (all of one hash when the row is all table).  Rows are stored sorted by
    key; every copy of a table state has keys in one bin of
    :mod:`tablerules.proofs.exact.sorted_runs`, so tables can be counted range by range."""
    return loops.keys_and_parts(words_of(rows), table_width // 8, 1)[0]


def distinct(rows: np.ndarray, hashes: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(distinct rows sorted by hash, each row's index among them, their hashes).  Exact:
    rows whose hashes agree are compared in full."""
    if not len(rows):
        return rows, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint64)
    words = words_of(rows)
    if hashes is None:
        hashes = loops.hash_words(words, words.shape[1])
    firsts, inverse = loops.dedupe(words, hashes)
    chosen, where = loops.sort_distinct(hashes, firsts, inverse)
    return loops.take_rows(words, chosen).view(np.uint8), where, hashes[chosen]


def table_counts(kernel: Kernel, rows: np.ndarray) -> tuple[int, int, int]:
    """(unreduced, up to colours, up to colours and kinds) for the distinct table parts of ``rows``."""
    if not len(rows):
        return 0, 0, 0
    words = words_of(rows)
    table_words = kernel.table_width // 8
    if table_words < words.shape[1]:  # the table parts, each once (found by the hash of the table part alone)
        tables = words[:, :table_words]
        firsts, _ = loops.dedupe(tables, loops.keys_and_parts(tables, table_words, 1)[0])
        rows = loops.take_rows(tables, firsts).view(np.uint8)
    stab, colour_stab = kernel.table_stabilisers(rows)
    orbit = kernel.group_order // stab
    colour_orbit = kernel.colour_group_order // colour_stab
    return int(orbit.sum()), int((orbit // colour_orbit).sum()), len(rows)


def table_parts(kernel: Kernel, rows: np.ndarray) -> np.ndarray:
    """The rows with everything past the table part set to zero."""
    if kernel.table_width == kernel.width:
        return rows
    tables = np.zeros_like(rows)
    tables[:, :kernel.table_width] = rows[:, :kernel.table_width]
    return tables


class ProgressMeasureBroken(RuntimeError):
    """A child is not one level below its parent: the kernel's progress measure is wrong."""


class _Spill:
    """Rows flushed to the store as runs (distinct, sorted by the key's bin: see
    :mod:`tablerules.proofs.exact.sorted_runs`), ``<prefix><d>.s<k>`` per destination partition
    ``d``; each row's place in its destination's bucket (the runs of one destination one after
    another)."""

    def __init__(self, store: "Store", level: int, prefix: str, parts: int, table_width: int) -> None:
        self.folder, self.prefix, self.parts, self.table_width = store.folder(level), prefix, parts, table_width
        self.filled = np.zeros(parts, dtype=np.int64)
        self.runs = 0

    def flush(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Write ``rows`` (any order, repeats allowed); per row (destination, place in bucket)."""
        words = words_of(rows)
        parts = self.parts
        keys, part = loops.keys_and_parts(words, self.table_width // 8, parts)
        firsts, inverse = loops.dedupe(words, keys)
        order, bounds, dest, place = loops.spill_plan(keys, part, firsts, inverse, parts, self.filled)
        unique, unique_keys = loops.take_rows(words, order).view(np.uint8), keys[order]
        for d in range(parts):
            if bounds[d] == bounds[d + 1]:
                continue
            name = f"{self.prefix}{d}.s{self.runs}"
            np.save(self.folder / f"{name}.rows.npy", unique[bounds[d]:bounds[d + 1]], allow_pickle=False)
            np.save(self.folder / f"{name}.hash.npy", unique_keys[bounds[d]:bounds[d + 1]], allow_pickle=False)
        self.runs += 1
        return dest, place


def _distinct_tables(kernel: Kernel, store: "Store", level: int, name: str, segment: int | None) -> tuple[int, int]:
    """(table states, up to colours and kinds) of the table rows in the runs ``<name>.s*``,
    counted key range by key range; the runs are deleted."""
    folder = store.folder(level)
    runs = runs_mod.run_names(folder, name)
    t_all = t_reduced = 0
    for pieces in runs_mod.ranges(folder, runs, segment):
        rows = np.concatenate([r for _, r, _ in pieces]) if pieces else np.zeros((0, kernel.width), dtype=np.uint8)
        a, _, c = table_counts(kernel, rows)
        t_all, t_reduced = t_all + a, t_reduced + c
    store.drop(level, f"{name}.s*")
    return t_all, t_reduced


def expand_task(kernel: Kernel, store: Store, level: int, part: int, parts: int, keep_edges: bool,
                segment: int | None = None, scorings: tuple[Kernel, ...] | None = None) -> LevelCounts:
    """Expand one partition of a level; write each distinct child to the bucket of its partition.

    Also records the partition's terminal states and, for values, the edges (parent, action,
    chance weight, and the child as a destination partition and a place in its bucket) and
    each node's number of actions.  Checks that every child lies one level further.  Parents
    are read and children flushed to the buckets (as runs) so that the task holds about
    ``segment`` rows at once (:mod:`tablerules.proofs.exact.sorted_runs`; default ``FLUSH_BYTES`` of rows).
    The losers at the ends are written for each of ``scorings`` (default: the kernel alone)."""
    scorings = scorings or (kernel,)
    source = store.path(level, f"p{part}.rows")
    n = runs_mod.read_header(source)[1][0]
    counts = LevelCounts()
    width = kernel.width
    children_out = _Spill(store, level + 1, f"b{part}-", parts, kernel.table_width)
    passes_out = _Spill(store, level + 1, f"q{part}-", parts, kernel.table_width)
    tables_out = _Spill(store, level, f"t{part}", 1, kernel.table_width)
    names = ["edges", "actions", "terminal"] + [f"losers{i}" for i in range(len(scorings))]
    out = {name: runs_mod.Appender(store.path(level, f"p{part}.{name}")) for name in names} if keep_edges else {}
    held: list[tuple] = []
    held_rows = 0
    held_passes: list[np.ndarray] = []
    held_tables: list[np.ndarray] = []
    bound = held_rows_bound(kernel, FLUSH_BYTES, segment)
    chunk = max(1, min(CHUNK, bound // 64))

    def flush() -> None:
        nonlocal held, held_rows, held_passes, held_tables
        passes, tables = [r for r in held_passes if len(r)], [r for r in held_tables if len(r)]
        if passes:
            passes_out.flush(np.concatenate(passes))
        if tables:
            tables_out.flush(np.concatenate(tables))  # one partition
        held_passes, held_tables, held_rows = [], [], 0
        if not held:
            return

        def joined(i: int) -> np.ndarray:  # column i of what is held (no copy of a single chunk's)
            return held[0][i] if len(held) == 1 else np.concatenate([g[i] for g in held])

        dest, place = children_out.flush(joined(0))
        if keep_edges:
            edges = loops.edge_rows(*[joined(i) for i in range(1, 5)], dest, place)
            if edges is None:
                raise OverflowError("an edge does not fit in 32 bits: use more --partitions")
            out["edges"].add(edges)
        held, held_rows = [], 0

    lo = 0
    while lo < n:
        rows = runs_mod.read_slice(source, lo, lo + chunk)
        ex = kernel.expand(rows)
        terminal = np.nonzero(ex.actions == 0)[0]
        more = len(ex.children) + len(ex.passes) + len(terminal)  # rows this chunk adds to what the task holds
        if more > bound and len(rows) > 1:
            chunk = max(1, len(rows) // 2)  # too many children to hold: again, with fewer parents
            continue
        for name, clause, bad in kernel.invariants(rows):
            if bad.any():
                counts.violations[name] = counts.violations.get(name, 0) + int(bad.sum())
                counts.example.setdefault(name, rows[bad][0].tobytes())
        counts.children += len(ex.children)
        counts.held_rows = max(counts.held_rows, len(rows), len(ex.children))
        if keep_edges:
            out["actions"].add(ex.actions.astype(np.int64))
            out["terminal"].add((terminal + lo).astype(np.int64))
            for i, scoring in enumerate(scorings):
                out[f"losers{i}"].add(scoring.outcome(rows[terminal]).losers.astype(np.uint8))
        if len(ex.children):
            if np.any(kernel.level(ex.children) != level + 1):
                raise ProgressMeasureBroken(f"level {level}: a child is not at level {level + 1}")
            denom = ex.actions[ex.parent] * ex.p_den
            small = denom.max() < 1 << 20  # the values are small: a count of each finds them faster than a sort
            for value in np.flatnonzero(np.bincount(denom)) if small else np.unique(denom):
                counts.weight_lcm = math.lcm(counts.weight_lcm, int(value))
        if held_rows and held_rows + more > bound:
            flush()
        if len(ex.children):
            held.append((ex.children, ex.parent + lo, ex.action, ex.p_num, ex.p_den))
        held_passes.append(ex.passes)  # held like the children: one run per destination and flush
        held_tables.append(table_parts(kernel, rows[terminal]))
        held_rows += more
        counts.held_rows = max(counts.held_rows, held_rows)
        if held_rows >= bound:
            flush()
        lo += len(rows)
        if len(rows):  # as many parents as keep their children within the bound
            per_parent = max(1, -(-more // len(rows)))
            chunk = max(1, min(CHUNK, bound // per_parent))
    flush()
    counts.terminal_states, counts.terminal_up_to_colours_and_kinds = _distinct_tables(
        kernel, store, level, f"t{part}0", segment)
    empty = {"edges": np.zeros((0, 6), dtype=np.int32), "actions": np.zeros(0, dtype=np.int64),
             "terminal": np.zeros(0, dtype=np.int64)}
    for name, appender in out.items():
        appender.close(empty.get(name, np.zeros((0, kernel.players), dtype=np.uint8)))
    return counts


def merge_task(kernel: Kernel, store: Store, level: int, part: int, parts: int, keep_edges: bool,
               segment: int | None = None) -> LevelCounts:
    """Gather the buckets of one partition of the next level; keep each row once.

    The distinct rows are written sorted by key (so a row is found again by binary search);
    for values, each bucket's rows are written as indices into them.  The buckets' runs are
    merged one key range of at most ``segment`` rows at a time (default: ``MERGE_BYTES``
    of rows; :mod:`tablerules.proofs.exact.sorted_runs`)."""
    folder = store.folder(level)
    segment = held_rows_bound(kernel, MERGE_BYTES, segment)
    child_runs = [(src, name) for src in range(parts) for name in runs_mod.run_names(folder, f"b{src}-{part}")]
    pass_runs = [name for src in range(parts) for name in runs_mod.run_names(folder, f"q{src}-{part}")]
    bucket_start, filled = [], [0] * parts
    for src, name in child_runs:
        bucket_start.append(filled[src])
        filled[src] += runs_mod.read_header(folder / f"{name}.hash.npy")[1][0]
    child = {src: runs_mod.Filler(store.path(level - 1, f"c{src}-{part}.child"), np.int32, (filled[src],))
             for src in range(parts)} if keep_edges else {}
    rows_out = runs_mod.Appender(store.path(level, f"p{part}.rows"))
    keys_out = runs_mod.Appender(store.path(level, f"p{part}.hash"))
    counts = LevelCounts()
    names = [name for _, name in child_runs] + pass_runs
    for pieces in runs_mod.ranges(folder, names, segment):
        got = pieces[:len(child_runs)]
        empty = np.zeros((0, kernel.width), dtype=np.uint8)
        rows_in = [r for _, r, _ in got]
        rows, inverse, keys = distinct(np.concatenate(rows_in) if got else empty,
                                       np.concatenate([k for _, _, k in got]) if got else np.zeros(0, np.uint64))
        passes = distinct(np.concatenate([r for _, r, _ in pieces[len(child_runs):]] or [empty]))[0]
        counts.held_rows = max(counts.held_rows, sum(len(r) for _, r, _ in pieces))
        offset = 0
        for (src, _), (start, r, _), base in zip(child_runs, got, bucket_start):
            if keep_edges and len(r):
                child[src].put(base + start, narrow(inverse[offset:offset + len(r)] + rows_out.rows, "a row's index"))
            offset += len(r)
        rows_out.add(rows)
        keys_out.add(keys)
        counts.nodes += len(rows)
        t_all, t_colours, t_reduced = table_counts(kernel, np.concatenate([rows, passes]))
        counts.table_states += t_all
        counts.up_to_colours += t_colours
        counts.up_to_colours_and_kinds += t_reduced
        if len(passes):
            counts.passes += table_counts(kernel, passes)[0]
    rows_out.close(np.zeros((0, kernel.width), dtype=np.uint8))
    keys_out.close(np.zeros(0, dtype=np.uint64))
    for filler in child.values():
        filler.close()
    store.drop(level, f"b*-{part}.*")
    store.drop(level, f"q*-{part}.*")
    return counts


# --------------------------------------------------------------------------- values

PRIME_LIMIT = 1 << 29
"""Primes for the random-play values lie below this (see exact_loops.TOP)."""
PRIMES_PER_TASK = 16
"""At most this many primes in one random-play task (its memory: 12 bytes a prime for each
state of the level and the next)."""


def primes_below(limit: int, count: int) -> list[int]:
    out, n = [], limit
    while len(out) < count:
        n -= 1
        if n % 2 and all(n % d for d in range(3, int(n ** 0.5) + 1, 2)):
            out.append(n)
    return out


def level_task(kernel: Kernel, store: Store, level: int, parts: int, sizes: list[int],
               next_sizes: list[int] | None, scorings: int = 1) -> None:
    """Gather a whole level for the value tasks, once: its nodes (who moves, history weight,
    actions, terminals and their losers) and its edges in (parent, action) order with
    global parent and child indices (partitions in order)."""
    rows, actions, term = [], [], []
    losers: list[list[np.ndarray]] = [[] for _ in range(scorings)]
    offset = 0
    for p in range(parts):
        r = store.load(level, f"p{p}.rows")
        rows.append(r)
        actions.append(store.load(level, f"p{p}.actions"))
        term.append(store.load(level, f"p{p}.terminal") + offset)
        for i in range(scorings):
            losers[i].append(store.load(level, f"p{p}.losers{i}"))
        offset += len(r)
    rows_all = np.concatenate(rows)
    actions_all = np.concatenate(actions)
    store.save(level, "n.weight", kernel.history_weight(rows_all).astype(np.int64))
    store.save(level, "n.mover", rows_all[:, 0].astype(np.int64))
    store.save(level, "n.actions", actions_all)
    store.save(level, "n.term", np.concatenate(term).astype(np.int64))
    for i in range(scorings):
        store.save(level, f"n.losers{i}", np.concatenate(losers[i]))
    if next_sizes is None:
        store.save(level, "e.all", np.zeros((0, 5), dtype=np.int32))
        return
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    next_offsets = np.concatenate([[0], np.cumsum(next_sizes)]).astype(np.int64)
    counts = [runs_mod.read_header(store.path(level, f"p{p}.edges"))[1][0] for p in range(parts)]
    out = np.empty((sum(counts), 5), dtype=np.int32)
    at = 0
    for p in range(parts):
        maps = [store.load(level, f"c{p}-{d}.child") for d in range(parts)]  # each bucket's rows in partition d
        start = np.concatenate([[0], np.cumsum([len(m) for m in maps])]).astype(np.int64)
        if not loops.gather_edges(store.load(level, f"p{p}.edges"), np.concatenate(maps), start, next_offsets,
                                  int(offsets[p]), actions_all, out, at):
            raise OverflowError("an edge of the level does not fit in 32 bits: use more --partitions")
        at += counts[p]
    store.save(level, "e.all", out)


def optimal_task(kernel: Kernel, store: Store, level: int, last: bool, scoring: int = 0, piece: int = 0,
                 pieces: int = 1) -> None:
    """Optimal-play values of one of ``pieces`` equal ranges of a level's states, from the
    next level's (``optimal{scoring}.{piece}``: a level's values are its pieces in order)."""
    weight = store.load(level, "n.weight")
    lo, hi = len(weight) * piece // pieces, len(weight) * (piece + 1) // pieces
    e = np.load(store.path(level, "e.all"), mmap_mode="r")  # edges in parent order: this piece's are read
    e = np.asarray(e[_first_at_least(e, lo):_first_at_least(e, hi)])
    child_vals = (load_optimal(store, level + 1, scoring) if not last
                  else np.zeros((0, 2 * kernel.players + 1), dtype=np.int64))
    term = store.load(level, "n.term")
    ends = slice(int(np.searchsorted(term, lo)), int(np.searchsorted(term, hi)))
    out = loops.optimal_values(hi - lo, kernel.players, weight[lo:hi], store.load(level, "n.mover")[lo:hi],
                               term[ends] - lo, store.load(level, f"n.losers{scoring}")[ends],
                               e[:, 0] - lo, e[:, 1], e[:, 4], child_vals)
    store.save(level, f"optimal{scoring}.{piece}", out)


def _first_at_least(edges: np.ndarray, node: int) -> int:
    """The first edge whose parent is at least ``node`` (binary search: reads a few rows of a memory map)."""
    lo, hi = 0, len(edges)
    while lo < hi:
        mid = (lo + hi) // 2
        if edges[mid, 0] < node:
            lo = mid + 1
        else:
            hi = mid
    return lo


def load_optimal(store: Store, level: int, scoring: int) -> np.ndarray:
    """A level's optimal-play values for a scoring: its pieces (``optimal_task``) in order."""
    found = sorted(store.folder(level).glob(f"optimal{scoring}.*.npy"), key=lambda p: int(p.name.split(".")[1]))
    return np.concatenate([np.load(p, allow_pickle=False) for p in found])


def chance_coefficients(p_num: np.ndarray, denom: np.ndarray, primes: list[int]) -> np.ndarray:
    """``coef[a, d, j]`` = a / d modulo primes[j], for each (chance numerator, denominator) pair
    the edges use (``exact_loops.chance_pairs``); zero elsewhere."""
    shape = (int(p_num.max()) + 1, int(denom.max()) + 1) if len(p_num) else (1, 1)
    a, d = np.nonzero(loops.chance_pairs(p_num, denom, shape))
    coef = np.zeros(shape + (len(primes),), dtype=np.uint64)
    for j, q in enumerate(primes):
        inverse = {x: pow(x, -1, q) for x in np.unique(d).tolist()}
        coef[a, d, j] = [x % q * inverse[y] % q for x, y in zip(a.tolist(), d.tolist())]
    return coef


def reach_task(kernel: Kernel, store: Store, level: int, last: bool, chunk: int, primes: list[int],
               scorings: int, next_nodes: int) -> list[np.ndarray]:
    """Random play, forward, for one level and some primes: from the chance of reaching each
    of its states (``reach{chunk}``), the sums over its ends for each scoring
    (``exact_loops.end_sums``, returned) and, below the last level, the
    chance of reaching each state of the next (written there as ``reach{chunk}``)."""
    reach = store.load(level, f"reach{chunk}")
    term = store.load(level, "n.term")
    q = np.array(primes, dtype=np.int64)
    sums = [loops.end_sums(reach, term, store.load(level, f"n.losers{i}"), kernel.players, level, q)
            for i in range(scorings)]
    if not last:
        e = store.load(level, "e.all")
        coef = chance_coefficients(e[:, 2], e[:, 3], primes)
        store.save(level + 1, f"reach{chunk}", loops.reach_forward(reach, e[:, 0], e[:, 2], e[:, 3], e[:, 4],
                                                                    next_nodes, q, coef))
    return sums


# --------------------------------------------------------------------------- rebuilding exact fractions


def crt_fraction(residues: list[int], primes: list[int], denominator: int) -> Fraction:
    """The fraction x / denominator with 0 <= x < prod(primes) whose residues times
    ``denominator`` are ``residues``."""
    M = math.prod(primes)
    x = 0
    for r, p in zip(residues, primes):
        m = M // p
        x += (r * denominator % p) * m * pow(m, -1, p)
    return Fraction(x % M, denominator)


@dataclass
class SeatValues:
    """One way of playing: per seat P(among the losers), P(sole loser), and E(actions)."""

    among_losers: list[Fraction]
    sole_loser: list[Fraction]
    expected_actions: Fraction


@dataclass
class FirstMove:
    move: str
    mover: int
    values: SeatValues


@dataclass
class Solution:
    """What the exact engine found (units: see the module docstring)."""

    kernel_name: str
    players: int
    levels: list[LevelCounts] = field(default_factory=list)
    complete: bool = False
    """Everything asked for was found: every level counted and, if asked, every value."""
    counted: bool = False
    """Every level was counted (the figures by level are final)."""
    stopped: str = ""
    random_play: SeatValues | None = None
    optimal_play: SeatValues | None = None
    first_moves: list[FirstMove] = field(default_factory=list)
    seconds: float = 0.0
    peak_memory_mb: float = 0.0
    primes_used: int = 0

    def total(self, name: str) -> int:
        return sum(getattr(lv, name) for lv in self.levels)

    def violations(self) -> dict[str, int]:
        """Invariant name -> engine states that break it, over every level expanded."""
        out: dict[str, int] = {}
        for lv in self.levels:
            for name, count in lv.violations.items():
                out[name] = out.get(name, 0) + count
        return out

    @property
    def longest_game_actions(self) -> int | None:
        ends = [a for a, lv in enumerate(self.levels) if lv.terminal_states]
        return max(ends) if ends and self.counted else None


def seat_values(vec: list[Fraction], n: int) -> SeatValues:
    return SeatValues(vec[:n], vec[n:2 * n], vec[2 * n])


def locate(store: Store, kernel: Kernel, level: int, parts: int, sizes: list[int], row: np.ndarray) -> int:
    """The index in its level (partitions in order) of a canonical row; KeyError if absent."""
    part = int(partition_of(row[None, :], kernel.table_width, parts)[0])
    h = row_keys(row[None, :], kernel.table_width)[0]
    hashes = store.load(level, f"p{part}.hash")
    i = int(np.searchsorted(hashes, h))
    rows = store.load(level, f"p{part}.rows")
    while i < len(hashes) and hashes[i] == h:
        if np.array_equal(rows[i], row):
            return sum(sizes[:part]) + i
        i += 1
    raise KeyError("row not found in level")


def optimal_at(store: Store, kernel: Kernel, level: int, parts: int, sizes: list[int], row: np.ndarray,
               scoring: int = 0) -> list[Fraction]:
    """The optimal-play values of one canonical row of a level, as exact fractions."""
    idx = locate(store, kernel, level, parts, sizes, row)
    w = int(kernel.history_weight(row[None, :])[0])
    return [Fraction(int(x), w) for x in load_optimal(store, level, scoring)[idx]]
