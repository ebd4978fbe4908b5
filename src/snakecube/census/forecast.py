"""How long a census will take, said before it starts.

A census has three phases, and each has its own measure of work and its own speed:

* **path search**: the nodes of the path loop's tree (``census/_paths.pyx``: every free
  neighbour of the head within the longest segment is a node), Knuth's estimate (1975):
  random walks down the same tree, from random units, each adding up the nodes it meets
  times the product of the choices above them; the mean is the tree's size without bias;
* **solution counting**: the path classes the loop finds (the nodes times the classes per
  node of the calibration's slices), each tallied by design (sorted and summed with numpy);
* **reduce**: the records the units write (a design counted by a unit: about
  ``RECORDS_PER_CLASS`` per class), each written, read back and merged, and the slices the
  reduce reads (every unit's slice of every partition, and its palindromes).

The speed of each is measured on this machine when the forecast runs (``calibrate``: the
path loop from the region's own units for a few hundredths of a second, then the tally,
the store's writes and reads and the reduce's merge on made-up keys), in CPU seconds, so a
loaded machine changes it little. A forecast is CPU seconds per phase; on ``workers``
processes the wall time is their sum divided by the workers, each slowed to its share of a
core when the machine's load (:func:`_load`, when forecast) and the workers together are
more than its cores.
Deterministic estimates: the walks use their own seeded generator.
"""

from __future__ import annotations

import itertools
import math
import os
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from snakecube.census.units import (
    Prefix,
    UnitTally,
    loop_speed,
    merge_keys,
    ring_masks,
    splits,
    stranded,
)
from snakecube.shape import Region

PROBES = 2000  # random walks per forecast
MIN_PROBES = 100  # ... at least, whatever its deadline
DAY = 86_400.0
LONGEST = DAY  # a census forecast to take longer is refused unless given a time limit
# Records a unit writes per path class it finds: designs met again in one unit are one
# record. Measured on whole censuses: 2x3x5 0.48, 2x4x4 0.50, 2x3x6 0.45, 3x3x4 0.40
# (docs/design-census.md, "What a census will take").
RECORDS_PER_CLASS = 0.5
CALIBRATION = 0.05  # CPU seconds of path loop per calibration, at most about


@dataclass(frozen=True, slots=True)
class Rates:
    """This machine's CPU seconds per unit of work of each phase (``calibrate``)."""

    node: float  # path search: a node of the path loop
    path: float  # solution counting: a path class tallied
    record: float  # a unit's record written, read back and merged by the reduce
    read: float  # a slice of a unit file opened and checked by the reduce
    paths_per_node: float = 0.0  # not a speed: path classes the loop found per node

    def to_dict(self) -> dict[str, float]:
        return {k: float(f"{getattr(self, k):.3g}") for k in self.__slots__}


@dataclass(frozen=True, slots=True)
class Forecast:
    """A census's work before it runs, on ``workers`` processes: ``nodes`` of path search
    (Knuth's estimate, with one standard ``error``) in ``units`` units, ``paths`` path
    classes to tally, ``records`` to write and reduce, ``reads`` of unit slices by the
    reduce, and this machine's ``rates``."""

    nodes: float
    error: float
    units: int
    workers: int
    paths: float = 0.0
    records: float = 0.0
    reads: float = 0.0
    rates: Rates = field(default_factory=lambda: Rates(0.0, 0.0, 0.0, 0.0))
    # Per unit forecast (in the order given), its CPU seconds of path search and counting:
    # the walks that started there (their sum is the whole's estimate).
    unit_seconds: tuple[float, ...] = field(default=(), repr=False, compare=False)
    # The machine's cores and its load average (other work) when forecast: each worker gets
    # ``share`` of a core, so the wall time allows for the load already there.
    cores: int = 0
    load: float = 0.0

    def unit_work(self, nodes: float, paths: float) -> float:
        """CPU seconds of a unit that walked ``nodes`` and found ``paths`` classes."""
        return nodes * self.rates.node + paths * self.rates.path

    def phases(self) -> dict[str, float]:
        """CPU seconds of each phase: path search, solution counting, reduce."""
        r = self.rates
        return {
            "path_search": self.nodes * r.node,
            "solution_counting": self.paths * r.path,
            "reduce": self.records * r.record + self.reads * r.read,
        }

    @property
    def cpu_seconds(self) -> float:
        """CPU seconds of the whole census, summed over its processes."""
        return sum(self.phases().values())

    @property
    def share(self) -> float:
        """The share of a core each worker gets: all of one, unless the load already on the
        machine and the workers together are more than its cores."""
        if not self.cores:
            return 1.0
        return min(1.0, self.cores / (self.load + max(1, self.workers)))

    @property
    def seconds(self) -> float:
        """Wall-clock seconds on ``workers`` processes, each with its ``share`` of a core."""
        return self.cpu_seconds / max(1, self.workers) / self.share

    def describe(self) -> str:
        """'about 45 minutes on 2 cores', for people; with the load the machine had, when
        it slows the workers: '(the load of 4.7 leaves each 30 % of a core)'."""
        cores = f"{self.workers} core{'s' if self.workers != 1 else ''}"
        said = f"about {duration(self.seconds)} on {cores}"
        if self.share < LOADED:
            said += (
                f" (the machine's load of {self.load:.1f} leaves each about {self.share:.0%} "
                "of a core)"
            )
        return said

    def parts(self) -> str:
        """'CPU time 12.3 minutes: path search 9.1, solution counting 2.2, reduce 1.0': the
        phases in the total's unit, the total their sum as shown."""
        phases = self.phases()
        unit, size = _unit_of(self.cpu_seconds)
        shown = {k: round(v / size, 1) for k, v in phases.items()}
        total = round(sum(shown.values()), 1)
        each = ", ".join(f"{k.replace('_', ' ')} {v:g}" for k, v in shown.items())
        return f"CPU time {total:g} {unit}: {each}"

    def __str__(self) -> str:
        """One line: the time and its parts."""
        return f"{self.describe()}; {self.parts()}"

    def too_long(self) -> bool:
        """Over ``LONGEST``: refused without a time limit (``census(seconds=...)``)."""
        return self.seconds > LONGEST

    def plus(self, other: Forecast) -> Forecast:
        """Both forecasts' work, on this one's workers: ``other``'s counted in this one's
        units of work, so that each phase's seconds add up whatever the rates."""

        def scaled(work: float, theirs: float, mine: float) -> float:
            return work * theirs / mine if mine else 0.0

        a, b = self.rates, other.rates
        return Forecast(
            self.nodes + scaled(other.nodes, b.node, a.node),
            math.hypot(self.error, scaled(other.error, b.node, a.node)),
            self.units + other.units,
            self.workers,
            self.paths + scaled(other.paths, b.path, a.path),
            self.records + scaled(other.records, b.record, a.record),
            self.reads + scaled(other.reads, b.read, a.read),
            self.rates,
            cores=self.cores,
            load=self.load,
        )

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready description."""
        return {
            "nodes": float(f"{self.nodes:.3g}"),
            "nodes_error": float(f"{self.error:.2g}"),
            "paths": float(f"{self.paths:.3g}"),
            "records": float(f"{self.records:.3g}"),
            "units": self.units,
            "workers": self.workers,
            "cpu_seconds": float(f"{self.cpu_seconds:.3g}"),
            "phases": {k: float(f"{v:.3g}") for k, v in self.phases().items()},
            "rates": self.rates.to_dict(),
            "seconds": float(f"{self.seconds:.3g}"),
            "cores": self.cores,
            "load": round(self.load, 2),
            "share_of_a_core": round(self.share, 2),
            "time": self.describe(),
        }


LOADED = 0.95  # a worker with less than this share of a core: the load is said


def _unit_of(seconds: float) -> tuple[str, float]:
    """The unit a person reads ``seconds`` in, and its size in seconds."""
    for unit, size in (("years", 365 * DAY), ("days", DAY), ("hours", 3600.0), ("minutes", 60.0)):
        if seconds >= 2 * size:
            return unit, size
    return "seconds", 1.0


def duration(seconds: float) -> str:
    """A duration in the unit a person would use: '8 seconds', '45 minutes', '1,600 years'.

    >>> duration(0.2), duration(2700), duration(5e10)
    ('1 second', '45 minutes', '1,600 years')
    """
    for size, unit in ((365.25 * DAY, "year"), (DAY, "day"), (3600.0, "hour"), (60.0, "minute")):
        if seconds >= 1.5 * size:
            return _amount(seconds / size, unit)
    return _amount(max(1.0, seconds), "second")


def _amount(value: float, unit: str) -> str:
    rounded = float(f"{value:.2g}") if value >= 10 else round(value)
    text = f"{rounded:,.0f}" if rounded < 1e15 else f"{rounded:.1e}"
    return f"{text} {unit}{'' if text == '1' else 's'}"


_RATES: dict[object, Rates] = {}  # per process: (region cells, longest segment) -> rates


def calibrate(
    region: Region, units: list[Prefix], max_segment: int | None = None, seed: int = 0
) -> Rates:
    """This machine's speed in each phase of a census of ``region`` (CPU seconds per unit
    of work), measured now: the path loop from random ``units`` for about ``CALIBRATION``
    CPU seconds, then the tally, the store and the reduce on made-up keys. Measured once per
    process and region."""
    key = (region.cells, max_segment)
    if key not in _RATES:
        rng = random.Random(seed)
        sample = [rng.choice(units) for _ in range(64)] if units else []
        node, per_node = loop_speed(region, sample, max_segment, CALIBRATION)
        _RATES[key] = Rates(node, *_store_speeds(region), per_node)
    return _RATES[key]


def _store_speeds(region: Region) -> tuple[float, float, float]:
    """CPU seconds per path class tallied, per record written, read and merged, and per
    slice read by the reduce: the census's own code on made-up keys in a temporary store
    (the records in a few big slices, the reads of small ones, as a census's are)."""
    from snakecube.census.reduce import reduce_partition  # the store imports the units
    from snakecube.census.store import Store

    rng = np.random.default_rng(0)
    classes = 1 << 17
    keys = rng.integers(0, classes // 2, classes, dtype=np.uint64)  # half repeat
    began = time.process_time()
    tally_keys, counts = merge_keys(np.empty(0, np.uint64), np.empty(0, np.uint64), [keys])
    path = (time.process_time() - began) / classes
    empty = np.empty(0, np.uint64)
    with tempfile.TemporaryDirectory(prefix="snakecube-forecast-") as tmp:
        st = Store.open(Path(tmp) / "big", region, [(0,), (1,)], 4)
        began = time.process_time()
        for unit in (0, 1):
            st.write_unit(UnitTally(unit, classes, 0, tally_keys, counts, empty, empty))
        for p in range(4):
            reduce_partition(st, p, [0, 1])
        record = (time.process_time() - began) / (2 * len(tally_keys))
        parts = 256
        few = np.unique(rng.integers(0, 2**63, 64 * parts, dtype=np.uint64))
        st = Store.open(Path(tmp) / "small", region, [(0,)], parts)
        st.write_unit(UnitTally(0, len(few), 0, few, np.ones(len(few), np.uint64), empty, empty))
        began = time.process_time()
        for p in range(parts):
            st.read_unit_partition(0, p)
            st.read_unit_fixed(0)
        read = (time.process_time() - began) / (2 * parts)
    return path, record, read


def forecast(
    region: Region,
    units: list[Prefix],
    workers: int,
    seed: int = 0,
    max_segment: int | None = None,
    partitions: int = 1,
    every: int | None = None,
    deadline: float | None = None,
) -> Forecast:
    """The census of ``region`` split into ``units`` (left to do, of ``every`` units in all:
    the reduce reads every unit), with ``partitions`` partitions, on ``workers`` processes:
    its path loop's tree and path classes estimated by ``PROBES`` random walks (the loop's
    moves, its dead-end and split cuts, and no segment longer than ``max_segment``), at
    this machine's rates. Past ``deadline`` (a ``time.monotonic()``) the walks stop once
    MIN_PROBES are done: a noisier forecast, said with its error (a census given half a
    second spent two on its forecast: issue 62)."""
    every = len(units) if every is None else every
    if not units:
        return Forecast(0.0, 0.0, 0, workers)
    tree = _Tree(region, max_segment)
    rng = random.Random(seed)
    walks, chosen = [], []
    for k in range(PROBES):
        if k >= MIN_PROBES and deadline is not None and time.monotonic() >= deadline:
            break
        chosen.append(rng.randrange(len(units)))
        walks.append(tree.walk(units[chosen[-1]], float(len(units)), rng))
    mean = statistics.fmean(walks)
    error = statistics.stdev(walks) / math.sqrt(len(walks)) if len(walks) > 1 else 0.0
    # The path classes: the nodes times the classes per node the calibration's slices
    # found (within a few % of whole censuses of 2x3x5, 2x3x6 and 3x3x4, where Knuth's walks,
    # which rarely reach a whole path, were 25 % low; 2.3 times low on the 8x8 board).
    rates = calibrate(region, units, max_segment, seed)
    paths = mean * rates.paths_per_node
    per_unit = [0.0] * len(units)
    for j, nodes in zip(chosen, walks, strict=True):
        per_unit[j] += nodes * (rates.node + rates.paths_per_node * rates.path) / len(walks)
    return Forecast(
        mean,
        error,
        len(units),
        workers,
        paths,
        RECORDS_PER_CLASS * paths,
        2.0 * every * partitions,
        rates,
        tuple(per_unit),
        cores=os.cpu_count() or 1,
        load=_load(),
    )


class _Tree:
    """The census's path loop on one region, for Knuth's random walks down its tree."""

    def __init__(self, region: Region, max_segment: int | None) -> None:
        self.n = region.volume
        self.nb = region.neighbours
        self.nbmask = [sum(1 << x for x in row if x >= 0) for row in self.nb]
        self.ring = ring_masks(region)
        self.full = (1 << self.n) - 1
        self.maxrun = self.n if max_segment is None else max_segment - 1

    def walk(self, prefix: Prefix, weight: float, rng: random.Random) -> float:
        """One walk from the unit ``prefix`` (of weight ``weight``: the units it stands for):
        the estimate of the nodes below it."""
        n, nb, nbmask, maxrun = self.n, self.nb, self.nbmask, self.maxrun
        occ = sum(1 << c for c in prefix)
        head, level = prefix[-1], len(prefix)
        last, run = -1, 0  # the last step's direction and how many in a row
        for a, b in itertools.pairwise(prefix):
            d = nb[a].index(b)
            last, run = d, run + 1 if d == last else 1
        total = 0.0
        if run > maxrun:
            return 0.0
        while level < n:
            # Step 1: the loop's nodes here (free neighbours of the head, within the longest
            # segment), and its children: those that strand at most one cell (a free cell
            # with no free neighbour left is stranded twice over, one with a single one must
            # be the path's last cell) and do not split the free cells.
            placed, children = 0, []
            for d, x in enumerate(nb[head]):
                if x < 0 or occ >> x & 1:
                    continue
                r = run + 1 if d == last else 1
                if r > maxrun:
                    continue
                placed += 1
                taken = occ | 1 << x
                if (stranded(nbmask, head, x, taken) > 1 and level + 1 < n) or (
                    level + 2 < n and splits(nbmask, self.ring, x, taken, self.full)
                ):
                    continue
                children.append((d, x, r))
            # Step 2: count this level's nodes, then go down one child at random.
            total += weight * placed
            if not children:
                break
            weight *= len(children)
            last, head, run = rng.choice(children)
            occ |= 1 << head
            level += 1
        return total


LOAD_SAMPLES = 5  # looks at the processes running now, LOAD_GAP seconds apart
LOAD_GAP = 0.02


def _load() -> float:
    """The work already running, which the census's workers will share the cores with: the
    smaller of the load average over the last minute and the processes running now (besides
    this one; Linux's /proc/loadavg, a few looks apart), 0 where neither is known.

    Decision: the smaller of the two. The load average lags a minute behind: right after
    another census it still says 2 on an idle machine, and the forecast said 25 minutes for
    a 2x4x5 census that took 11 (measured). The processes running now jump with every short
    job; a load that lasts shows in both. Rejected: the load average alone (that lag), the
    running processes alone (a compile or a browser tab at the wrong moment)."""
    try:
        average = os.getloadavg()[0]
    except (AttributeError, OSError):
        average = math.inf
    now = _running_now()
    load = min(average, now)
    return 0.0 if math.isinf(load) else load


def _running_now() -> float:
    """The processes running now besides this one, averaged over a few looks (inf where
    /proc/loadavg cannot be read)."""
    looks = []
    for k in range(LOAD_SAMPLES):
        if k:
            time.sleep(LOAD_GAP)
        try:
            field = Path("/proc/loadavg").read_text().split()[3]  # "running/all"
            looks.append(max(0, int(field.split("/")[0]) - 1))
        except (OSError, IndexError, ValueError):
            return math.inf
    return statistics.fmean(looks)
