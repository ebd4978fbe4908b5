"""The first-solution members' small protocol: what the scheduler (``first.schedule``) needs
of the restarts, depth first, the beams and SAT, and of each of their runs.

A member's runs are numbered 0, 1, 2, ...; run ``n`` ends at ``place(n)`` on the portfolio's
one scale of work (restart nodes), known before it runs, so the scheduler can accept every
member's runs in one fixed order whatever the number of workers. A *persistent* member's runs
are slices of one long search (SAT, depth first): it needs a worker to itself, and ``run``
is called with ``n`` = 0, 1, 2, ... in turn. The others' runs are independent: any worker
can do any of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from snakecube.search.problem import Problem
from snakecube.shape import CellIndex


class Run(Protocol):
    """What one run of a member did."""

    @property
    def index(self) -> int:
        """The run's number ``n``."""

    @property
    def nodes(self) -> int:
        """Its work on the portfolio's scale (restart nodes)."""

    @property
    def cells(self) -> tuple[CellIndex, ...] | None:
        """The solution it found (cells in the order of the snake as given), if any."""

    @property
    def engine(self) -> str:
        """What found it, as a result names it: restarts, sat, beam, kernel or reference."""


class Member(Protocol):
    """One way to look for a first solution (see the module's docstring)."""

    name: str  # as asked for: restarts, sat, depth-first or beam
    persistent: bool  # its runs are slices of one search, on one worker

    def place(self, n: int) -> int:
        """Where run ``n`` ends on the portfolio's scale of work."""

    def run(self, n: int, stop: Callable[[], bool] | None = None) -> Run | None:
        """Run ``n``; None if ``stop()`` said so before it ended (members that ask it)."""

    def settles(self, run: Run) -> bool:
        """Does this run, accepted in order, end the search (a solution or proof of none)?"""

    def close(self) -> None:
        """Release what the member holds (a SAT solver, an open search)."""


@dataclass(frozen=True, slots=True)
class Setting:
    """What members are made with, beside the problem: decided once for the whole lineup."""

    seed: int = 0  # the restarts' and beams' random orders
    sizes: tuple[float, float] | None = None  # the ends' tree estimates, if made
    sharing: int = 1  # numbered members (restarts, beams) sharing the other cores
    bias: int = 1  # beams weigh this many times less on the scale of work


class MemberType(Protocol):
    """A member's class: whether it can run on a problem here, and how to make it."""

    name: str
    persistent: bool

    def why_not(self, problem: Problem) -> str | None:
        """Why it cannot run on ``problem`` here, or None when it can."""

    def make(self, problem: Problem, setting: Setting) -> Member:
        """The member for ``problem``."""
