"""The designs of a census decided, one by one, in a target whose own census is out of reach.

A census lists every design of its target(s); ``--fold-into`` keeps those that also fold into
one more target, asking a search about each (the 8x8 board's designs against the 4x4x4 cube,
whose census would take millions of core-hours). The work:

1. **Candidates**, per partition: the census's designs whose segments all fit the searched
   target (no segment longer than its longest straight line of cells), a file per
   partition (``cands/pNNNN.bin``: keys, and the solutions in each counted target).
2. **Decisions**, per (partition, slice): a slice is a hash-random share of the partition's
   candidates (the bits of the key's hash below the partition's), so every task is a uniform
   random sample of the candidates; the tasks run slice by slice, and whatever has been
   decided when a run stops is a uniform sample from which the rest is estimated. Each
   candidate gets a first-solution search with a node limit (so the answer is the same on
   any machine), from the end whose tree Knuth's estimate says is smaller, then from the
   other: **folds**, **does not fold** (the whole tree searched), or **open** (both ends hit
   the limit). A file per task (``done/pNNNN-sNNNN.bin``) is its checkpoint.

Binary layouts, as the census's other files (``store``: magic, JSON header, its digest)::

    b"SNKCAND1" ... | keys u64[c] | solutions in counted target 1 u64[c] | ... target k
    b"SNKDCID1" ... | keys u64[m] (the slice's candidates) | outcomes u8[m]
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from snakecube import compiled
from snakecube.census.collect import collect
from snakecube.census.reduce import STATS_FIELDS, design_stats
from snakecube.census.result import snake_of_key
from snakecube.census.store import (
    GOLDEN,
    checksum,
    le64,
    pack,
    read_block,
    read_header,
)
from snakecube.census.units import path_units
from snakecube.errors import InputError
from snakecube.output import write_atomic
from snakecube.search import solve
from snakecube.search.estimate import end_sizes
from snakecube.search.problem import Problem
from snakecube.shape import Region
from snakecube.snake import Snake
from snakecube.stop import StopReason

CAND_MAGIC, DONE_MAGIC = b"SNKCAND1", b"SNKDCID1"
NO, FOLDS, OPEN = 0, 1, 2  # the outcomes of a decision
ROUND_NODES = 10_000_000  # without a limit: the first round's nodes per end (most decide)
GROWTH = 4  # and each round after it, this many times the one before
END_PROBES = 1024  # Knuth's walks from each end to choose the first (docs/census.md)
TASK_CANDIDATES = 512  # slices are chosen so that a task decides about this many
_CAND_HEADER = {"partition": int, "candidates": int, "targets": int, "digest": str}
_DONE_HEADER = {
    "partition": int,
    "slice": int,
    "candidates": int,
    "folds": int,
    "no": int,
    "open": int,
    "nodes": int,
    "seconds": float,
    **STATS_FIELDS,
    "digest": str,
}


def longest_line(region: Region) -> int:
    """The most cells of ``region`` in one straight line: no segment can be longer."""
    best = 1
    for d in (0, 2, 4):  # +x, +y, +z
        for c in range(region.volume):
            back = region.neighbours[c][d + 1]
            if back >= 0:
                continue  # not where a line starts
            run, at = 1, c
            while (at := region.neighbours[at][d]) >= 0:
                run += 1
            best = max(best, run)
    return best


def fitting(keys: Any, cells: int, longest: int) -> Any:
    """Which designs (canonical keys of ``cells`` cubes) have no segment longer than
    ``longest``: no run of ``longest - 1`` straight cubes (a segment of length L has L - 2
    straight cubes between its ends)."""
    inner = cells - 2
    mask = np.uint64((1 << inner) - 1) if inner < 64 else np.uint64(2**64 - 1)
    straight = ~keys & mask
    run = straight.copy()
    for i in range(1, longest - 1):
        run &= straight >> np.uint64(i)
    return run == 0 if longest - 1 >= 1 else np.zeros(len(keys), bool)


def slice_of(keys: Any, bits: int, slice_bits: int) -> Any:
    """The slice of each key within its partition: the next ``slice_bits`` bits of the hash
    below the ``bits`` that choose the partition."""
    if slice_bits == 0:
        return np.zeros(len(keys), np.uint64)
    shift = np.uint64(64 - bits - slice_bits)
    return ((keys * np.uint64(GOLDEN)) >> shift) & np.uint64((1 << slice_bits) - 1)


def decide(snake: Snake, region: Region, nodes: int | None = None) -> tuple[int, int]:
    """(FOLDS, NO or OPEN, nodes searched): first-solution searches from the end with the
    smaller estimated tree (``first_end``), then from the other. With ``nodes``, each
    search stops at that many nodes, and a design neither end decides is OPEN; without, the
    rounds go on with ``GROWTH`` times the nodes each time until one end decides (each
    round starts again: at most a few times the work of the better end, with the ends' rough
    estimates never trusted blindly), so the answer is FOLDS or NO."""
    ends: tuple[bool, ...] = (first_end(snake, region),)
    if not snake.is_palindrome:
        ends = (ends[0], not ends[0])
    spent = 0
    budget = nodes if nodes is not None else ROUND_NODES
    while True:
        for reverse in ends:
            r = solve(snake, region, limit=1, workers=1, max_nodes=budget, reverse=reverse)
            spent += r.nodes
            if r.stop_reason == StopReason.INTERRUPTED:
                raise KeyboardInterrupt
            if r.solutions:
                return FOLDS, spent
            if r.complete:
                return NO, spent
        if nodes is not None:
            return OPEN, spent
        budget *= GROWTH


_TABLES: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # per process: a region's tables


def first_end(snake: Snake, region: Region) -> bool:
    """Whether to search ``snake`` reversed first: True when the tree from its last cube is
    estimated smaller. Knuth's estimate of the tree of the design's Hamiltonian paths,
    cell by cell, with the dead-end cut and the last cube's colour (``census._paths``,
    ``END_PROBES`` walks from each end: 0.4 ms a design on 64 cells), else, without the
    compiled loop, the segment search's own (``search.estimate``, 8 ms)."""
    loop = compiled.extension("paths")
    n = region.volume
    if loop is None or n > 64 or n < 3:
        first, last = end_sizes(Problem.build(snake, region))
        return last < first
    if region.cells not in _TABLES:
        units = path_units(region)
        _TABLES[region.cells] = (
            np.array([x for row in region.neighbours for x in row], np.int64),
            np.array([sum(1 << x for x in row if x >= 0) for row in region.neighbours], np.uint64),
            np.array([sum(c) & 1 for c in region.cells], np.int64),
            np.array([c for u in units for c in u], np.int64),
            np.array([0, *itertools.accumulate(len(u) for u in units)], np.int64),
        )
    tables = _TABLES[region.cells]
    key = sum(1 << (i - 1) for i, t in enumerate(snake.turns()) if t == "C")
    back = sum(1 << (n - 2 - i) for i, t in enumerate(snake.turns()) if t == "C")
    first = loop.tree_estimate(*tables, key, END_PROBES, 1)
    last = loop.tree_estimate(*tables, back, END_PROBES, 2)
    return bool(last < first)


@dataclass(frozen=True, slots=True)
class TaskInfo:
    """A decided slice: its candidates and their outcomes, what deciding them cost, and the
    statistics of the designs that fold (their solutions in each counted target)."""

    partition: int
    slice: int
    candidates: int
    folds: int
    no: int
    open: int
    nodes: int
    seconds: float
    solutions: list[int]
    unique: list[int]
    unique_in_all: int
    palindromes: int
    histograms: list[dict[int, int]]
    top: list[tuple[int, list[int]]]


class Decisions:
    """The searched target's part of a joint store: ``DIR/searched/NAME/``."""

    def __init__(self, root: Path, owner: str, targets: int) -> None:
        self.root = root
        self.owner = owner  # the joint store's id
        self.targets = targets  # counted targets, whose solutions the candidates carry
        (root / "cands").mkdir(parents=True, exist_ok=True)
        (root / "done").mkdir(exist_ok=True)

    def cand_path(self, p: int) -> Path:
        return self.root / "cands" / f"p{p:04d}.bin"

    def done_path(self, p: int, s: int) -> Path:
        return self.root / "done" / f"p{p:04d}-s{s:04d}.bin"

    def write_candidates(self, p: int, keys: Any, table: Any) -> int:
        block = le64(keys).tobytes() + b"".join(le64(row).tobytes() for row in table)
        header = {
            "census": self.owner,
            "partition": p,
            "candidates": len(keys),
            "targets": self.targets,
            "digest": checksum(block),
        }
        write_atomic(self.cand_path(p), pack(CAND_MAGIC, header, [block]))
        return len(keys)

    def candidates(self, p: int) -> int | None:
        """How many candidates partition ``p`` has, or None before they are listed."""
        path = self.cand_path(p)
        if not path.exists():
            return None
        return int(self._header(path, CAND_MAGIC)[0]["candidates"])

    def read_candidates(self, p: int) -> tuple[Any, Any]:
        """(keys, solutions: a row per counted target) of partition ``p``'s candidates."""
        path = self.cand_path(p)
        header, start = self._header(path, CAND_MAGIC)
        c = header["candidates"]
        data = _checked(path, header, read_block(path, start, 8 * c * (1 + self.targets)))
        values = np.frombuffer(data, dtype="<u8").astype(np.uint64)
        return values[:c], values[c:].reshape(self.targets, c)

    def write_done(self, info: TaskInfo, keys: Any, outcomes: Any) -> None:
        block = le64(keys).tobytes() + np.ascontiguousarray(outcomes, dtype=np.uint8).tobytes()
        fields = _fields(info)
        fields["histograms"] = [{str(k): v for k, v in h.items()} for h in info.histograms]
        fields["top"] = [[k, t] for k, t in info.top]
        header = {"census": self.owner, **fields, "digest": checksum(block)}
        write_atomic(self.done_path(info.partition, info.slice), pack(DONE_MAGIC, header, [block]))

    def finished(self) -> dict[tuple[int, int], TaskInfo]:
        """The decided slices, from their headers (each checked)."""
        out = {}
        for path in sorted((self.root / "done").glob("p*-s*.bin")):
            h, _ = self._header(path, DONE_MAGIC)
            if path.name != f"p{h['partition']:04d}-s{h['slice']:04d}.bin":
                raise InputError(f"census store: {str(path)!r} holds another slice")
            fields = {k: h[k] for k in _DONE_HEADER if k != "digest"}
            fields["histograms"] = [{int(k): v for k, v in x.items()} for x in h["histograms"]]
            fields["top"] = [(t[0], list(t[1])) for t in h["top"]]
            info = TaskInfo(**fields)
            out[(info.partition, info.slice)] = info
        return out

    def read_done(self, p: int, s: int) -> tuple[Any, Any]:
        """(keys, outcomes) of a decided slice."""
        path = self.done_path(p, s)
        header, start = self._header(path, DONE_MAGIC)
        m = header["candidates"]
        data = _checked(path, header, read_block(path, start, 9 * m))
        return np.frombuffer(data[: 8 * m], dtype="<u8").astype(np.uint64), np.frombuffer(
            data[8 * m :], dtype=np.uint8
        )

    def _header(self, path: Path, magic: bytes) -> tuple[dict[str, Any], int]:
        spec = _CAND_HEADER if magic == CAND_MAGIC else _DONE_HEADER
        what = "candidates" if magic == CAND_MAGIC else "decisions"
        return read_header(path, magic, what, self.owner, spec)


def _checked(path: Path, header: dict[str, Any], data: bytes) -> bytes:
    if checksum(data) != header["digest"]:
        raise InputError(
            f"census store: {str(path)!r}: the data does not match its checksum (edited or "
            "damaged); delete the file to redo it"
        )
    return data


def _fields(info: TaskInfo) -> dict[str, Any]:
    return {k: getattr(info, k) for k in TaskInfo.__slots__}


def list_candidates(
    dec: Decisions,
    p: int,
    source: Callable[[int], tuple[Any, Any]],
    cells: int,
    longest: int,
) -> int:
    """Write partition ``p``'s candidates: the designs of ``source(p)`` (keys, solutions per
    counted target) with every segment at most ``longest`` long. Their number."""
    keys, table = source(p)
    keep = fitting(keys, cells, longest)
    return dec.write_candidates(p, keys[keep], table[:, keep])


def decide_slice(
    dec: Decisions,
    p: int,
    s: int,
    bits: int,
    slice_bits: int,
    region: Region,
    cells: int,
    nodes: int,
) -> TaskInfo:
    """Decide every candidate of slice ``s`` of partition ``p`` in ``region``; write and
    describe the outcomes."""
    began = time.process_time()
    keys, table = dec.read_candidates(p)
    mine = slice_of(keys, bits, slice_bits) == np.uint64(s)
    keys, table = keys[mine], table[:, mine]
    outcomes = np.zeros(len(keys), np.uint8)
    spent = 0
    for i, key in enumerate(keys.tolist()):
        outcomes[i], used = decide(snake_of_key(key, cells), region, nodes or None)
        spent += used
    found = outcomes == FOLDS
    stats = design_stats(keys[found], table[:, found], cells)
    del stats["designs"]
    info = TaskInfo(
        partition=p,
        slice=s,
        candidates=len(keys),
        folds=int(found.sum()),
        no=int((outcomes == NO).sum()),
        open=int((outcomes == OPEN).sum()),
        nodes=spent,
        seconds=float(time.process_time() - began),
        **stats,
    )
    dec.write_done(info, keys, outcomes)
    return info


def slice_bits_for(candidates: int, partitions: int) -> int:
    """Slices per partition (as bits) so that a task decides about TASK_CANDIDATES."""
    per = candidates / max(1, partitions) / TASK_CANDIDATES
    return max(0, min(12, round(math.log2(per)))) if per > 1 else 0


@dataclass(frozen=True, slots=True)
class Searched:
    """What the search in the extra target found: every candidate (a design of the counted
    targets whose segments fit it), those decided, and an estimate of the rest.

    ``folds`` is proven (each has a solution, checked), so it is a lower bound on the designs
    that fold into every target; it is exact when every candidate is decided (``open`` 0).
    ``estimate`` and ``error`` extrapolate the share of candidates that fold from the
    decided slices (uniform by hash) to all candidates: a ratio estimate with its standard
    error over slices."""

    target: Region
    longest: int  # the longest segment that fits it
    nodes: int  # the node limit per end (0: none, every candidate decided)
    candidates: int | None  # None until every partition's candidates are listed
    decided: int  # candidates in finished slices
    folds: int
    no: int
    open: int
    tasks: tuple[int, int]  # (finished, in all)
    core_seconds: float  # CPU time of the finished slices
    estimate: float | None
    error: float | None

    @property
    def rate(self) -> float | None:
        """Candidates decided per core-second."""
        return self.decided / self.core_seconds if self.core_seconds else None

    def to_dict(self) -> dict[str, object]:
        return {
            "target": self.target.describe(),
            "longest_segment": self.longest,
            "nodes_per_end": self.nodes,
            "candidates": self.candidates,
            "decided": self.decided,
            "folds": self.folds,
            "does_not_fold": self.no,
            "open": self.open,
            "tasks": list(self.tasks),
            "core_seconds": round(self.core_seconds, 1),
            "decided_per_core_second": None if self.rate is None else round(self.rate, 2),
            "estimate": None if self.estimate is None else round(self.estimate),
            "error": None if self.error is None else round(self.error),
        }


def share_estimate(done: list[TaskInfo], candidates: int, tasks: int) -> tuple[float, float] | None:
    """The ratio estimate of the candidates that fold, from the finished slices (a sample
    of ``tasks`` slices in all), and its standard error, with the finite population
    correction; None before two slices are done."""
    m = len(done)
    d = np.array([t.candidates for t in done], float)
    f = np.array([t.folds for t in done], float)
    if m < 2 or d.sum() == 0:
        return None
    ratio = f.sum() / d.sum()
    spread = ((f - ratio * d) ** 2).sum() / (m - 1)
    var = (1 - m / max(tasks, m)) * spread / (m * d.mean() ** 2)
    return candidates * ratio, candidates * math.sqrt(var)


def run_search(
    dec: Decisions,
    region: Region,
    filled: list[int],
    source: Callable[[int], tuple[Any, Any]],
    cells: int,
    bits: int,
    nodes: int,
    run: Callable[[Callable[[int], Iterator[Any]], list[int], str], Iterator[Any]],
    deadline: float | None,
    tick: Callable[[int, int, int], None],
) -> tuple[Searched, list[TaskInfo], StopReason | None]:
    """List every partition's candidates, then decide them slice by slice (``run`` maps a
    job over indices: here, in workers or on Dask), until done, Ctrl-C or ``deadline`` (a
    ``time.monotonic()``). The summary, the finished slices, and why it stopped (None)."""
    longest = longest_line(region)
    counts = {p: dec.candidates(p) for p in filled}
    todo = [p for p, c in counts.items() if c is None]

    def listing(p: int) -> Iterator[tuple[int, int]]:
        yield p, list_candidates(dec, p, source, cells, longest)

    def listed(pc: tuple[int, int]) -> None:
        counts[pc[0]] = pc[1]
        tick(sum(1 for v in counts.values() if v is not None), len(filled), 0)

    stop = collect(run(listing, todo, "candidates"), listed, deadline)
    finished = dec.finished()
    if stop is not None or any(v is None for v in counts.values()):
        return _searched(region, longest, nodes, None, finished, 0), list(finished.values()), stop
    total = sum(c for c in counts.values() if c is not None)
    sbits = slice_bits_for(total, 1 << bits)
    slices = 1 << sbits
    # Slice-major order: whatever is finished when a run stops is a sample of every partition.
    every = [s << 16 | p for s in range(slices) for p in filled if counts[p]]
    left = [i for i in every if (i & 0xFFFF, i >> 16) not in finished]

    def deciding(i: int) -> Iterator[TaskInfo]:
        yield decide_slice(dec, i & 0xFFFF, i >> 16, bits, sbits, region, cells, nodes)

    def decided(info: TaskInfo) -> None:
        finished[(info.partition, info.slice)] = info
        tick(len(finished), len(every), sum(t.folds for t in finished.values()))

    stop = collect(run(deciding, left, "decide"), decided, deadline)
    summary = _searched(region, longest, nodes, total, finished, len(every))
    return summary, list(finished.values()), stop


def _searched(
    region: Region,
    longest: int,
    nodes: int,
    candidates: int | None,
    finished: dict[tuple[int, int], TaskInfo],
    tasks: int,
) -> Searched:
    done = list(finished.values())
    guess = None if candidates is None else share_estimate(done, candidates, tasks)
    return Searched(
        target=region,
        longest=longest,
        nodes=nodes,
        candidates=candidates,
        decided=sum(t.candidates for t in done),
        folds=sum(t.folds for t in done),
        no=sum(t.no for t in done),
        open=sum(t.open for t in done),
        tasks=(len(done), tasks),
        core_seconds=sum(t.seconds for t in done),
        estimate=None if guess is None else guess[0],
        error=None if guess is None else guess[1],
    )
