"""The engine: plan the root, run an engine over the work units, verify and count what it finds.

``solutions()`` is the one generator; ``solve()`` and ``count()`` are ways of consuming it.
``solve`` makes each choice once and passes it down: the inputs (``inputs``), the budget
(``budget``), the end to search from (``ends``), and what runs (``strategy``): depth first
over the plan's units (``exhaustive``) or the first-solution members (``first``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from snakecube import limits
from snakecube.search.engine import Engine
from snakecube.search.exhaustive import CLUSTER_UNITS, depth_first, serial
from snakecube.search.inputs import Inputs, Target, as_snake, as_target, compile_inputs, prepare
from snakecube.search.options import Budget, Progress
from snakecube.search.plan import make_plan
from snakecube.search.results import build, of_unit, read_forwards
from snakecube.search.strategy import (
    AUTO_END_NODES,
    AUTO_END_RATIO,
    AUTO_MEMBERS,
    ENGINE_ENV,
    ENGINES,
    FIRST_STRATEGIES,
    RESTARTS_CELLS,
    SMALL,
    STRATEGIES,
    check_strategy,
    choose_engine,
    choose_members,
    choose_workers,
    last_end_pays,
    proof_first,
)
from snakecube.shape import Coord
from snakecube.snake import Snake
from snakecube.solution import Result, Solution

__all__ = [
    "AUTO_END_NODES", "AUTO_END_RATIO", "AUTO_MEMBERS", "CLUSTER_UNITS", "ENGINES", "ENGINE_ENV",
    "FIRST_STRATEGIES", "RESTARTS_CELLS", "SMALL", "STRATEGIES", "Budget", "Inputs", "Progress",
    "Target", "as_snake", "as_target", "choose_engine", "choose_workers", "compile_inputs",
    "count", "make_plan", "prepare", "solutions", "solve",
]  # fmt: skip


def solutions(
    snake: Snake | str,
    target: Target = None,
    *,
    start: Coord | None = None,
    path: Sequence[Coord] | None = None,
    reverse: bool = False,
    engine: str | Engine | None = None,
) -> Iterator[Solution]:
    """Lazily yield one verified solution per distinct class, in a deterministic order.

    >>> next(solutions("ESCSCSCSCCCCSCSCCCSCCSCCCSE")).direction_names()[:3]
    ['+x', '+y', '-x']
    """
    inputs = compile_inputs(snake, target, start=start, path=path, reverse=reverse)
    plan = make_plan(inputs.problem, inputs.start, inputs.prefix)
    chosen = choose_engine(inputs.problem, engine)
    for event in serial(inputs.problem, plan, chosen):
        if event is not None:
            for dirs in event[1]:
                sol = of_unit(inputs.problem, plan, event[0], dirs)
                if plan.keeps(inputs.problem, event[0], sol.path):
                    yield sol


def solve(
    snake: Snake | str,
    target: Target = None,
    *,
    start: Coord | None = None,
    path: Sequence[Coord] | None = None,
    reverse: bool | None = None,
    limit: int | None = None,
    seconds: float | None = None,
    engine: str | Engine | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    max_nodes: int | None = None,
    strategy: str = "auto",
    seed: int = 0,
    scheduler: str | None = None,
) -> Result:
    """Count and collect the solutions, honouring a solution limit and a time limit.

    ``max_nodes`` stops after about that many nodes (checked between slices, so the same
    input always stops at the same place with one worker). ``engine`` is ``auto`` (default),
    ``reference`` or ``kernel``; ``workers`` the number of
    processes (default: all cores for big exhaustive searches). ``strategy`` is
    ``depth-first`` (the engine over the plan's units, in order); for one solution
    (``limit=1``) only, ``restarts`` (randomised searches with node budgets), ``sat``
    (CaDiCaL, ``snakecube[sat]``) or ``portfolio`` (both, on their own cores; see
    ``search.first``); or ``auto``: for a first solution on targets of more than
    ``RESTARTS_CELLS`` cells, ``AUTO_MEMBERS`` side by side (the restarts, and depth first
    from the end whose tree is estimated smaller), or SAT when the restarts are not built;
    else depth-first. ``seed`` picks the
    restarts' random orders. With SAT, a conflict counts as ``NODES_PER_CONFLICT`` nodes in
    ``max_nodes`` and the result's ``nodes``.
    ``scheduler`` (a Dask scheduler's address, ``snakecube[cluster]``) runs the plan's units
    as tasks on that cluster instead of local processes (depth first only); the answer is the
    same. ``progress(done, units, found)`` is called as work units finish and now and then in
    between. Ctrl-C
    (KeyboardInterrupt) stops the search; the result keeps what was found and is marked
    incomplete with ``stop_reason == "interrupted"``.

    ``reverse=True`` folds the snake from its last cube (cube 1 of the solutions is then the
    typed snake's last cube); ``False`` from its first. ``None`` (default) lets a depth-first
    search with no fixed start or path, a complete count or one with a ``limit``, search
    from the last end when its tree is estimated at least ``AUTO_END_RATIO`` times smaller
    (``search.estimate``): the counts are the same, the solutions are still read from cube 1
    (``Result.searched_from_last``), and a snake that cannot fold is proved so from the end
    where that is quick. With a ``limit``, the first solutions are then those of that end;
    a search with both a ``limit`` and ``max_nodes`` (a probe, as ``nearby`` and
    ``generate`` make by the hundred) keeps the end it is given.

    >>> r = solve("standard")
    >>> r.placements, r.distinct, r.complete
    (48, 1, True)
    """
    budget = Budget.checked(limit, seconds, max_nodes, progress)
    check_strategy(strategy)
    seed = limits.whole(seed, "the seed", 0, 2**63)
    inputs = compile_inputs(snake, target, start=start, path=path, reverse=bool(reverse))
    check_strategy(strategy, scheduler)
    members = () if scheduler is not None else choose_members(strategy, inputs, limit, engine)
    if members:
        from snakecube.search.first import first_solution  # 15 ms to import; a count needs none

        result = first_solution(inputs, members, seed, workers, budget)
    elif (
        scheduler is None
        and proof_first(strategy, inputs, limit, engine)
        and (proof := _proof_of_none(inputs, budget))
    ):
        result = proof
    elif reverse is None and (limit is None or max_nodes is None) and last_end_pays(inputs):
        searched = inputs.reversed()
        result = _depth_first(searched, engine, workers, scheduler, budget, again=True)
        return read_forwards(result, inputs.problem, budget)
    else:
        result = _depth_first(inputs, engine, workers, scheduler, budget)
    return replace(result, reversed=True) if reverse else result


def _proof_of_none(inputs: Inputs, budget: Budget) -> Result | None:
    """The complete answer "no solutions", if the edge model proves it (``search.edges``)."""
    from snakecube.search import sat

    problem = inputs.problem
    conflicts = sat.refute(problem, budget.out_of_time)
    if conflicts is None:
        return None
    plan = make_plan(problem, deadline=budget.deadline())
    nodes = conflicts * sat.NODES_PER_CONFLICT
    return build(problem, plan, [], [0] * len(plan.start_classes), None, "sat", nodes, budget)


def _depth_first(
    inputs: Inputs,
    engine: str | Engine | None,
    workers: int | None,
    scheduler: str | None,
    budget: Budget,
    again: bool = False,
) -> Result:
    """Depth first over the plan's units, with the engine and processes chosen here;
    ``again``: its solutions will be verified again, read from the other end."""
    chosen = choose_engine(inputs.problem, engine)
    n_workers = choose_workers(inputs.problem, budget.solutions, workers)
    return depth_first(inputs, chosen, n_workers, scheduler, budget, again)


def count(snake: Snake | str, target: Target = None, **options: object) -> int:
    """The number of distinct solutions (up to the target's symmetries)."""
    return sum(1 for _ in solutions(snake, target, **options))  # type: ignore[arg-type,misc]
