"""What a search may do and spend: the pruning flags its engines apply, and its budget.

The flags are ``enum.IntFlag`` values (as python-chess's ``chess.engine`` flags are), shared
by the Python engines and the compiled loops, whose C header (``csrc/sc.h``) repeats the
numbers; the wrappers export the header's values (``FLAGS``), and tests/test_options.py checks
the header's ``#define``s against these. Being ints, they pass into the compiled loops as they
are; the module-level names (``DEAD_END``, ``FIRST_TAIL``...) are the members.

The budget is like python-chess's ``chess.engine.Limit(time=..., nodes=...)``: the solution
limit, the seconds, the nodes, the progress callback and the moment the search began travel
together from ``solve`` down to every runner, instead of as five parameters of every function.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from snakecube import limits, stop


# -- pruning flags of the counting engines (``search.engine``) --------------------------------
class Prune(enum.IntFlag):
    """The counting engines' pruning (``search.engine`` says what each cuts); ``SC_*`` in C."""

    DEAD_END = 1
    CONNECTED = 2
    PARITY = 4
    TAIL = 8  # the last segments fit backwards from the last cube, once a cell must hold it


DEAD_END = Prune.DEAD_END
CONNECTED = Prune.CONNECTED
PARITY = Prune.PARITY
TAIL = Prune.TAIL
TAIL_SEGMENTS = 4  # how many of them (``TAIL``; the first-solution search's ``FIRST_TAIL`` too)
ALL_PRUNE = DEAD_END | CONNECTED | PARITY | TAIL
DEFAULT_PRUNE = DEAD_END | PARITY | TAIL
MIN_FREE = 40  # connectivity is checked only while at least this many cells are free (measured)


# -- the first-solution search's checks (``csrc/first.c``, ``search.first``): a flag space of its
# own. Dead ends and the end's colour are always checked there.
class Check(enum.IntFlag):
    """The first-solution search's checks and its sweep; ``SC_FIRST_*`` in C."""

    BLOCKS = 1  # Tarjan blocks of the free cells, with the colour balance before a cut cell
    FORCED = 2  # forced passages through cells with two ways on
    FEWEST_WAYS = 4  # value order: fewest ways on first (Warnsdorff), random ties
    RUNS = 8  # the long segments to come fit the straight free runs
    TAIL = 16  # the last segments fit backwards from a known end
    SWEEP = 32  # a restriction, not a check: the sweep window (``FirstSearch.set_window``)


FIRST_BLOCKS = Check.BLOCKS
FIRST_FORCED = Check.FORCED
FIRST_FEWEST_WAYS = Check.FEWEST_WAYS
FIRST_RUNS = Check.RUNS
FIRST_TAIL = Check.TAIL
FIRST_SWEEP = Check.SWEEP


# -- the budget --------------------------------------------------------------------------------
Progress = Callable[[int, int, int], None]  # (units done, units in all, solutions found)


@dataclass(frozen=True, slots=True)
class Budget:
    """Limits of one search; None means no limit. ``began`` is when its clock started."""

    solutions: int | None = None
    seconds: float | None = None
    nodes: int | None = None
    progress: Progress | None = None
    began: float = field(default_factory=time.monotonic)

    @classmethod
    def checked(
        cls,
        solutions: int | None = None,
        seconds: float | None = None,
        nodes: int | None = None,
        progress: Progress | None = None,
    ) -> Budget:
        """A budget from a caller's values, each checked (``InputError`` names a bad one);
        its clock starts now."""
        if solutions is not None:
            solutions = limits.whole(solutions, "the solution limit", 1)
        if seconds is not None:
            seconds = limits.seconds(seconds)
        if nodes is not None:
            nodes = limits.whole(nodes, "the node limit", 1, 2**62)
        if progress is not None and not callable(progress):
            raise TypeError(f"progress must be callable, not {type(progress).__name__}")
        return cls(solutions, seconds, nodes, progress)

    def out_of_time(self, reserve: float = 0.0) -> bool:
        """Have the seconds run out (:meth:`past`)? Every search polls this, so a stop signal
        that Python dropped (in a finalizer) raises KeyboardInterrupt here
        (``snakecube.stop.poll``)."""
        stop.poll()
        return self.past(reserve)

    def past(self, reserve: float = 0.0) -> bool:
        """Have the seconds run out, keeping ``reserve`` seconds for the work after the
        search (counting the found solutions' classes)? Time only: the work after a stopped
        search asks this, and keeps what was found."""
        return self.seconds is not None and time.monotonic() + reserve > self.began + self.seconds

    def deadline(self) -> float | None:
        """When the seconds run out (``time.monotonic()``), or None without a time limit."""
        return None if self.seconds is None else self.began + self.seconds

    def out_of_nodes(self, nodes: int) -> bool:
        """Has a search that visited ``nodes`` nodes used up the node limit?"""
        return self.nodes is not None and nodes >= self.nodes

    def enough(self, found: int) -> bool:
        """Are ``found`` solutions as many as were asked for?"""
        return self.solutions is not None and found >= self.solutions

    def report(self, done: int, units: int, found: int) -> None:
        """Tell the progress callback, if any."""
        if self.progress is not None:
            self.progress(done, units, found)

    def elapsed(self) -> float:
        """Seconds since the search began."""
        return time.monotonic() - self.began
