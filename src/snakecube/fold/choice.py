"""Which solution to show or fold: the K-th distinct one, or the easiest to fold by hand.

``choose`` is what ``snakecube show`` and ``snakecube fold`` ask: with ``solution=K`` the K-th
distinct solution in the order of ``solve(limit=K)`` (no plan is made); without it, the
easiest of the first ``EASIEST_OF`` to fold (``fold.EASIEST_RULE``) with its plan. The search
is ``solve``'s, end choice and all: a snake that cannot fold is proved so from the end where
that is quick, and ``progress`` is ``solve``'s (the CLI passes its bar). A time limit that runs
out first is an answer (``Choice.solution`` None, ``stop_reason`` set); Ctrl-C is passed on
as KeyboardInterrupt.
"""

from __future__ import annotations

from dataclasses import dataclass

from snakecube.errors import InputError, NoSolutionError
from snakecube.fold.plans import EASIEST_RULE, FoldPlan, easiest, plan
from snakecube.search import Progress, solve
from snakecube.search.inputs import Target
from snakecube.snake import Snake
from snakecube.solution import Solution
from snakecube.stop import StopReason

EASIEST_OF = 8  # the solutions compared when no solution number is given
EASIEST_HELP = (
    f"of the first {EASIEST_OF}, the easiest to fold: fewest quarter turns in its fold plan, "
    "then most swings clear of the cubes in place, then the first"
)


@dataclass(frozen=True, slots=True)
class Choice:
    """The solution picked (None when the time limit ran out first), its 0-based number among
    ``found`` solutions, its plan (None when a number was asked for), and how the search
    ended."""

    solution: Solution | None
    index: int
    found: int
    plan: FoldPlan | None
    complete: bool
    stop_reason: StopReason | None

    def why(self) -> str:
        """One line: which solution was picked and by what rule (empty when asked for)."""
        p = self.plan
        if self.solution is None or p is None or not p.found or self.found < 2:
            return ""
        more = "" if self.complete else " or more"
        return (
            f"solution {self.index + 1} of {self.found}{more}, {EASIEST_RULE} "
            f"({p.quarter_turns} quarter turns, {p.sweep_clear} clear)"
        )


def choose(
    snake: Snake | str,
    target: Target = None,
    *,
    solution: int | None = None,
    end: str = "best",
    nodes: int = 200_000,
    reverse: bool = False,
    seconds: float | None = None,
    verb: str = "fold",
    progress: Progress | None = None,
) -> Choice:
    """The solution to show or fold (see the module's docstring). ``verb`` names the job in
    the InputError raised when there is nothing to pick; ``reverse`` folds from the last
    cube, else ``solve`` picks the end to search from."""

    result = solve(snake, target, reverse=True if reverse else None, seconds=seconds,
                   strategy="depth-first", limit=EASIEST_OF if solution is None else solution,
                   progress=progress)  # fmt: skip
    if result.stop_reason == StopReason.INTERRUPTED:
        raise KeyboardInterrupt
    found, sols = len(result.solutions), result.solutions
    if solution is not None and found >= solution:
        return Choice(sols[solution - 1], solution - 1, found, None, True, None)
    if not result.complete and (solution is not None or not sols):
        return Choice(None, 0, found, None, False, result.stop_reason)
    if found == 0:
        raise NoSolutionError(
            f"the snake has no solutions in this target, so there is nothing to {verb}"
        )
    if solution is not None:
        plural = "s" if found != 1 else ""
        raise InputError(f"solution={solution}: the snake has only {found} distinct "
                         f"solution{plural} in this target")  # fmt: skip
    if found == 1:
        return Choice(sols[0], 0, 1, plan(sols[0], end, nodes), result.complete, None)
    k, p = easiest(sols, end, nodes)
    return Choice(sols[k], k, found, p, result.complete, result.stop_reason)
