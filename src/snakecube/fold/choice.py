"""Which solution to show or fold: the K-th distinct one, or the easiest to fold by hand.

``choose`` is what ``snakecube show`` and ``snakecube fold`` ask: with ``solution=K`` the K-th
distinct solution in the order of ``solve(limit=K)`` (no plan is made); without it, the
easiest of the first ``EASIEST_OF`` to fold (``fold.EASIEST_RULE``) with its plan. The page
picks its default solution with :func:`default_of`, the same rule on the same solutions (the
first ``EASIEST_OF`` of a solve are the same whatever its limit). The search
is ``solve``'s, end choice and all: a snake that cannot fold is proved so from the end where
that is quick, and ``progress`` is ``solve``'s (the CLI passes its bar). A time limit that runs
out first is an answer (``Choice.solution`` None, ``stop_reason`` set); Ctrl-C is passed on
as KeyboardInterrupt.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from snakecube import stop
from snakecube.errors import InputError, NoSolutionError
from snakecube.fold.plans import (
    EASIEST_RULE,
    FoldPlan,
    easiest_index,
    fewest_bound,
    plan,
    plan_interrupted,
)
from snakecube.search import solve
from snakecube.search.inputs import Target, as_snake, as_target, compile_inputs, too_long
from snakecube.search.options import Progress
from snakecube.search.strategy import last_end_pays
from snakecube.snake import Snake
from snakecube.solution import Result, Solution
from snakecube.stop import StopReason

EASIEST_OF = 8  # the solutions compared when no solution number is given
EASIEST_HELP = (
    f"of the first {EASIEST_OF}, the easiest to fold: the fewest quarter turns a fold plan of "
    "it needs, then the first"
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
    default: int | None = None  # the default's 0-based number (None: not known)
    fewest: int | None = None  # the fewest quarter turns the solution needs, when compared
    searched: bool = False  # found by the first-solution search (``PROBE_NODES``)

    def why(self) -> str:
        """One line: which solution was picked and by what rule (empty when asked for)."""
        p = self.plan
        if self.solution is not None and self.searched:
            return (
                f"the first solution the first-solution search found (solve --first): the "
                f"depth-first search, whose first {EASIEST_OF} the default is picked from, "
                f"found none in {PROBE_NODES:,} nodes (or in half the time limit)"
            )
        if self.solution is None or self.fewest is None or self.found < 2:
            return ""
        more = "" if self.complete else " or more"
        takes = f"; its plan takes {p.quarter_turns}" if p is not None and p.found else ""
        return (
            f"solution {self.index + 1} of {self.found}{more}, {EASIEST_RULE} "
            f"(at least {self.fewest} quarter turns{takes})"
        )

    def picked(self, how: str = "asked for") -> str:
        """'' for the default; else one line that says this solution is not the default."""
        if self.solution is None or self.default is None or self.default == self.index:
            return ""
        return (
            f"solution {self.index + 1}, {how}; the default, {EASIEST_RULE}, is solution "
            f"{self.default + 1}"
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
    order: str = "walk",
    planned: bool = True,
    keep: bool = False,
) -> Choice:
    """The solution to show or fold (see the module's docstring). ``verb`` names the job in
    the InputError raised when there is nothing to pick; ``reverse`` folds from the last
    cube, else ``solve`` picks the end to search from; ``order`` is the plan's
    (``fold.plan``); ``planned=False`` makes no plan (``show`` needs none). With ``keep``,
    Ctrl-C after a solution was found (while the default is picked or planned) answers that
    solution with ``plans.plan_interrupted`` as its plan, instead of raising
    KeyboardInterrupt (``fold``, whose answer is the plan)."""

    parsed = as_snake(snake, None if target is None else as_target(target))
    why = too_long(parsed, as_target(target, parsed))  # the first thing a person would check
    if why:
        raise NoSolutionError(
            f"the snake has no solutions in this target ({why}), so there is nothing to {verb}"
        )
    began = time.monotonic()
    if solution is None:
        # from the end the search below takes (solve takes the other end for a search with a
        # solution limit, not for one with a node limit too)
        last = reverse or last_end_pays(compile_inputs(snake, target))
        share = None if seconds is None else seconds / 2  # under a limit: half, at most
        probe = _first(snake, target, 1, last, share, progress, PROBE_NODES)
        if probe.stop_reason == StopReason.INTERRUPTED:
            raise KeyboardInterrupt
        if probe.complete and not probe.solutions:  # the whole tree: there is none
            raise NoSolutionError(
                f"the snake has no solutions in this target, so there is nothing to {verb}"
            )
        left = None if seconds is None else max(0.001, seconds - (time.monotonic() - began))
        if not probe.solutions:  # none in its nodes, or in half the time
            return _searched(
                snake, target, end, nodes, reverse, left, progress, order, planned, verb, keep
            )
        seconds = left
    result = _first(
        snake, target, EASIEST_OF if solution is None else solution, reverse, seconds, progress
    )
    if result.stop_reason == StopReason.INTERRUPTED:
        raise KeyboardInterrupt
    found, sols = len(result.solutions), result.solutions
    if solution is not None and found >= solution:
        picked = sols[solution - 1]
        default = default_for(snake, target, picked, end, reverse=reverse, seconds=seconds)[1]
        return Choice(picked, solution - 1, found, None, True, None, default)
    if not result.complete and (solution is not None or not sols):
        return Choice(None, 0, found, None, False, result.stop_reason)
    if found == 0:
        raise NoSolutionError(
            f"the snake has no solutions in this target, so there is nothing to {verb}"
        )
    if solution is not None:
        plural = "s" if found != 1 else ""
        raise InputError(
            f"solution={solution}: the snake has only {found} distinct "
            f"solution{plural} in this target"
        )
    try:
        k, bounds = default_of(sols, end, nodes)
    except KeyboardInterrupt:
        if not (keep and planned):
            raise
        stopped = plan_interrupted(sols[0], end, order)  # the first: no default is known
        return Choice(sols[0], 0, found, stopped, result.complete, result.stop_reason)
    p = _planned(sols[k], end, nodes, order, keep) if planned else None
    return Choice(sols[k], k, found, p, result.complete, result.stop_reason, k, bounds[k])


def _planned(solution: Solution, end: str, nodes: int, order: str, keep: bool) -> FoldPlan:
    """``solution``'s plan; with ``keep``, on Ctrl-C, the answer that keeps the solution."""
    try:
        return plan(solution, end, nodes, order=order)
    except KeyboardInterrupt:
        if not keep:
            raise
        return plan_interrupted(solution, end, order)


# The depth-first search orders the solutions the default is picked from, and finds a first
# one quickly in the puzzles people hold (the king in 273,000 nodes; 40 random 4x4x4 designs
# in at most 11.7 million, 0.27 s), not in bigger ones: a random 5x5x5 design found none in
# 20 s, where the first-solution search (solve --first) took 0.15 s. Past this many nodes
# with none found, that search is asked instead, and its first solution is the one shown.
# Under a time limit the depth-first search gets half of it at most, and the other search the
# rest (the answer then depends on the machine's speed, as any answer under a limit does).
# Rejected: a time share without a limit (the default would depend on the machine's speed);
# the first-solution search always (it gives no order to pick from).
PROBE_NODES = 50_000_000


def _first(
    snake: Snake | str,
    target: Target,
    limit: int,
    reverse: bool,
    seconds: float | None,
    progress: Progress | None = None,
    max_nodes: int | None = None,
) -> Result:
    """The first ``limit`` distinct solutions in ``solve``'s order (depth-first: the same
    first ones whatever the limit), from the last cube with ``reverse``, else from the end
    ``solve`` picks."""
    return solve(
        snake,
        target,
        reverse=True if reverse else None,
        seconds=seconds,
        strategy="depth-first",
        limit=limit,
        progress=progress,
        max_nodes=max_nodes,
    )


def _searched(
    snake: Snake | str,
    target: Target,
    end: str,
    nodes: int,
    reverse: bool,
    seconds: float | None,
    progress: Progress | None,
    order: str,
    planned: bool,
    verb: str,
    keep: bool,
) -> Choice:
    """The first solution of the first-solution search (``PROBE_NODES``), with its plan."""
    result = solve(
        snake,
        target,
        reverse=True if reverse else None,
        seconds=seconds,
        limit=1,
        progress=progress,
    )
    if result.stop_reason == StopReason.INTERRUPTED:
        raise KeyboardInterrupt
    if not result.solutions:
        if result.complete:  # the search proved there is none
            raise NoSolutionError(
                f"the snake has no solutions in this target, so there is nothing to {verb}"
            )
        return Choice(None, 0, 0, None, False, result.stop_reason)
    sol = result.solutions[0]  # the only one: no bound to compare (on big snakes, seconds)
    p = _planned(sol, end, nodes, order, keep) if planned else None
    return Choice(sol, 0, 1, p, False, result.stop_reason, 0, None, searched=True)


LOOK_SECONDS = 5.0  # at most this long to find the default, when another solution was asked for


def default_for(
    snake: Snake | str,
    target: Target,
    picked: Solution,
    end: str = "best",
    *,
    reverse: bool = False,
    seconds: float | None = None,
) -> tuple[int | None, int | None]:
    """For a solution asked for by number (or picked on the page): its 0-based number among
    the first ``EASIEST_OF`` (None past them), and the default's (None when those are not
    found within ``LOOK_SECONDS``, or ``seconds`` if less)."""
    look = LOOK_SECONDS if seconds is None else min(seconds, LOOK_SECONDS)
    result = _first(snake, target, EASIEST_OF, reverse, look)
    sols = result.solutions
    if not sols or (not result.complete and len(sols) < EASIEST_OF):
        return None, None
    index = next((i for i, s in enumerate(sols) if s.path == picked.path), None)
    return index, default_of(sols, end)[0]


def default_of(
    solutions: Sequence[Solution], end: str = "best", nodes: int = 200_000
) -> tuple[int, list[int]]:
    """The solution planned when none is asked for: of the first ``EASIEST_OF`` of
    ``solutions`` (in ``solve``'s order), the easiest to fold (``fold.EASIEST_RULE``),
    0-based; and the fewest quarter turns each of those needs. The same whatever the time
    limit: the bounds are searched outside the enclosing ``stop.within`` (a bound cut short
    would be a weaker one, and another default)."""
    with stop.within(None):
        if len(solutions) == 1:
            return 0, [fewest_bound(solutions[0], end, nodes)]
        return easiest_index(solutions[:EASIEST_OF], end, nodes)
