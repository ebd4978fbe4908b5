"""The depth-first member: the exhaustive search, from the end of the snake whose tree is
estimated smaller, in slices, beside the other first-solution members."""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from itertools import chain

from snakecube.search import kernel
from snakecube.search.engine import Engine, Stats
from snakecube.search.estimate import end_sizes as estimate
from snakecube.search.first.member import Run, Setting
from snakecube.search.options import DEFAULT_PRUNE
from snakecube.search.plan import Unit, make_plan
from snakecube.search.problem import Problem
from snakecube.search.reference import Reference
from snakecube.shape import CellIndex


@dataclass(frozen=True, slots=True)
class Depth:
    """What one slice of the depth-first member did: ``cells`` (snake order) if it found a
    solution; ``decided`` if its search is over (a solution, or the whole tree searched: then
    the snake does not fold)."""

    index: int
    nodes: int  # in this slice
    decided: bool
    cells: tuple[CellIndex, ...] | None
    engine: str  # the engine that searched: kernel, or reference where it is not built


DEPTH_SLICE = 2_000_000  # nodes of the depth-first member per slice (at least)
# On the portfolio's scale of work, a slice of the depth-first member weighs this many restart
# nodes: its nodes cost about a fifth and a half of a restart's (measured on 66-125 cells,
# whole processes, one core, with the shifted dead-end step: 25.8-33.3 million a second
# against 4.6-5.6, ratios 5.1-6.5, median 5.55), so with two
# workers the two members advance side by side and neither's solution waits long for the
# other's turn.
DEPTH_SLICE_WORK = DEPTH_SLICE * 2 // 11
# Knuth walks per end to choose the end: with 64 the choice flipped between seeds on 4x4x5-s6
# (1e8 against 1e10 nodes), with 1024 it held (0.1-0.2 s per end on 5x5x5, in the member's
# own worker). A walk costs a step a segment: past DEPTH_SEGMENTS segments the walks are fewer,
# DEPTH_PROBES * DEPTH_SEGMENTS // segments (a 1000-cube design of 755 segments took 5 s an end
# with 1024 walks, 0.9 s with 173), and never fewer than 64.
DEPTH_PROBES = 1024
DEPTH_SEGMENTS = 128


# Depth first sits out beside other members when even its better end's tree is estimated past
# this many nodes (about ten hours at 26 million a second): its core goes to the others.
# Measured: 4x5x5 designs 7e9-2e10 from the better end (found at 0.5-3.2e9 nodes), fully mixed
# 5x5x5 designs 4e12-3e15, none found (docs/design-first.md, "The beam member").
DEPTH_HOPELESS = 1e12


def end_sizes(
    problem: Problem,
    between: Callable[[], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> tuple[float, float]:
    """Knuth estimates of the depth-first tree from the first end and from the last
    (``between()`` is called between the two; ``stop()`` between walks ends them early)."""
    segments = len(problem.lengths)
    probes = DEPTH_PROBES
    if segments > DEPTH_SEGMENTS:
        probes = max(64, DEPTH_PROBES * DEPTH_SEGMENTS // segments)
    return estimate(problem, probes, between, stop)


class DepthFirst:
    """The exhaustive depth-first search (the kernel, default pruning, the plan's units in
    order) from the end of the snake whose tree is estimated smaller (``search.estimate``),
    in slices of at least ``DEPTH_SLICE`` nodes. On floppy designs of up to about 100 cubes
    the two ends' trees differ a hundredfold and more, and from the small end a whole count
    takes seconds (docs/design-first.md, "Depth first from the better end")."""

    # The member's side (``first.member.Member``): slice n is run n.
    name = "depth-first"
    persistent = True

    def __init__(
        self, problem: Problem, sizes: tuple[float, float] | None = None, sharing: int = 1
    ) -> None:
        """``sizes``: the ends' estimates (made here if None); ``sharing``: how many numbered
        members (restarts, beams) share the other cores, which its slices' weight divides."""

        self.end = 0
        self.problem = problem
        first_end, last_end = end_sizes(problem) if sizes is None else sizes
        if last_end < first_end:
            self.end = 1
            self.problem = problem.reversed()
        self.engine: Engine = kernel.Kernel() if kernel.AVAILABLE else Reference(DEFAULT_PRUNE)
        # Depth first has a core to itself while the numbered members share one: its slices
        # weigh their share, so that all advance side by side and no solution waits long.
        self.work = DEPTH_SLICE_WORK // max(1, sharing)
        self._slices: Generator[Depth, None, None] | None = None

    @staticmethod
    def why_not(problem: Problem) -> str | None:
        """Depth first runs everywhere (on the reference where the kernel is not built)."""
        return None

    @classmethod
    def make(cls, problem: Problem, setting: Setting) -> DepthFirst:
        """Depth first on ``problem`` from the end the lineup's estimates favour."""
        return cls(problem, setting.sizes, setting.sharing)

    def place(self, n: int) -> int:
        """Where slice ``n`` ends on the portfolio's scale of work."""
        return (n + 1) * self.work

    def run(self, n: int, stop: Callable[[], bool] | None = None) -> Depth:
        """The next slice (``n`` counts them; the search starts at the first)."""
        if self._slices is None:
            self._slices = self.slices_of()
        return next(self._slices)

    def settles(self, run: Run) -> bool:
        """A solution, or the whole tree searched, ends the search."""
        assert isinstance(run, Depth)
        return run.decided

    def close(self) -> None:
        """Close the open search, if any."""
        if self._slices is not None:
            self._slices.close()

    def slices_of(self) -> Generator[Depth, None, None]:
        """Slices until the search is decided."""
        problem = self.problem
        plan = make_plan(problem)
        stats = Stats()
        name = self.engine.name
        index, sent = 0, 0
        for unit in plan.units:
            for dirs in chain(self.engine.search(problem, unit, stats), [None]):
                if dirs is not None:
                    yield Depth(index, stats.nodes - sent, True, self._cells(unit, dirs), name)
                    return
                # Step: a tick (or the unit's end) past the slice's end closes the slice.
                if stats.nodes >= (index + 1) * DEPTH_SLICE:
                    yield Depth(index, stats.nodes - sent, False, None, name)
                    index, sent = index + 1, stats.nodes
        yield Depth(index, stats.nodes - sent, True, None, name)

    def _cells(self, unit: Unit, dirs: tuple[int, ...]) -> tuple[CellIndex, ...]:
        """The cells of a placement, in the order of the snake as given."""
        region, lengths = self.problem.region, self.problem.lengths
        path = [unit.start]
        for k, d in enumerate(dirs):
            for _ in range(lengths[k] - 1):
                path.append(region.neighbours[path[-1]][d])
        return tuple(path[::-1] if self.end else path)
