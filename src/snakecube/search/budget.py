"""Budget: what a search may spend, and who hears how it goes, as one value.

Like python-chess's ``chess.engine.Limit(time=..., nodes=...)``: the solution limit, the
seconds, the nodes, the progress callback and the moment the search began travel together
from ``solve`` down to every runner, instead of as five parameters of every function.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from snakecube import limits

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
        """Have the seconds run out, keeping ``reserve`` seconds for the work after the
        search (counting the found solutions' classes)?"""
        return self.seconds is not None and time.monotonic() + reserve > self.began + self.seconds

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
