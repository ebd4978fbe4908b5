"""How long a census will take, said before it starts.

The census's cost is the tree its path loop walks (``census/_paths.pyx``: every prefix that
passes the dead-end cut is a node), and a core walks and tallies a steady number of nodes a
second whatever the box (``NODES_PER_SECOND``, measured by ``benchmarks/census_forecast.py``;
path classes a second vary fourfold from box to box, so they predict worse). The tree's size
is Knuth's estimate (1975): random walks down the same tree, from a random unit, each adding
up the nodes it meets times the product of the choices above them; the mean is the tree's
size without bias. ``PROBES`` walks take about 0.2 s on 64 cells and land within about 10 %
of the counted trees of 2x3x5, 2x4x4 and 3x3x3 (the benchmark compares them).
Deterministic: the walks use their own seeded generator.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from dataclasses import dataclass

from snakecube.census.units import Prefix, ring_masks, splits, stranded
from snakecube.shape import Region

PROBES = 2000  # random walks per forecast
NODES_PER_SECOND = 4.0e7  # path-loop nodes one core walks and tallies in a second (measured)
DAY = 86_400.0
LONGEST = DAY  # a census forecast to take longer is refused unless given a time limit


@dataclass(frozen=True, slots=True)
class Forecast:
    """A census's work before it runs: ``nodes`` of path search (Knuth's estimate, with one
    standard ``error``) for ``units`` units, on ``workers`` processes."""

    nodes: float
    error: float
    units: int
    workers: int

    @property
    def seconds(self) -> float:
        """Wall-clock seconds on ``workers`` processes, at the measured rate."""
        return self.nodes / (NODES_PER_SECOND * max(1, self.workers))

    def describe(self) -> str:
        """'about 45 minutes on 2 cores', for people."""
        cores = f"{self.workers} core{'s' if self.workers != 1 else ''}"
        return f"about {duration(self.seconds)} on {cores}"

    def too_long(self) -> bool:
        """Over ``LONGEST``: refused without a time limit (``census(seconds=...)``)."""
        return self.seconds > LONGEST

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready description."""
        return {
            "nodes": float(f"{self.nodes:.3g}"),
            "nodes_error": float(f"{self.error:.2g}"),
            "units": self.units,
            "workers": self.workers,
            "seconds": float(f"{self.seconds:.3g}"),
            "time": self.describe(),
        }


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


def forecast(
    region: Region,
    units: list[Prefix],
    workers: int,
    seed: int = 0,
    max_segment: int | None = None,
) -> Forecast:
    """The census of ``region`` split into ``units``, on ``workers`` processes: its path
    loop's tree estimated by ``PROBES`` random walks (the loop's moves, its dead-end and
    split cuts, and no segment longer than ``max_segment``)."""
    if not units:
        return Forecast(0.0, 0.0, 0, workers)
    n = region.volume
    nb = region.neighbours
    nbmask = [sum(1 << x for x in row if x >= 0) for row in nb]
    ring = ring_masks(region)
    full = (1 << n) - 1
    maxrun = n if max_segment is None else max_segment - 1
    rng = random.Random(seed)
    walks = []
    for _ in range(PROBES):
        prefix = rng.choice(units)
        occ = sum(1 << c for c in prefix)
        head, level = prefix[-1], len(prefix)
        last, run = -1, 0  # the last step's direction and how many in a row
        for a, b in itertools.pairwise(prefix):
            d = nb[a].index(b)
            last, run = d, run + 1 if d == last else 1
        weight, total = float(len(units)), 0.0
        if run > maxrun:
            walks.append(0.0)
            continue
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
                    level + 2 < n and splits(nbmask, ring, x, taken, full)
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
        walks.append(total)
    mean = statistics.fmean(walks)
    error = statistics.stdev(walks) / math.sqrt(len(walks)) if len(walks) > 1 else 0.0
    return Forecast(mean, error, len(units), workers)
