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
from snakecube.search.exhaustive import depth_first, serial
from snakecube.search.inputs import Inputs, Target, compile_inputs
from snakecube.search.options import Budget, Progress
from snakecube.search.plan import make_plan
from snakecube.search.results import build, of_unit, read_forwards
from snakecube.search.strategy import (
    Strategy,
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
from snakecube.stop import StopReason

# The face: what a user calls. Tuning constants, engines and the members' lists live in their
# modules (search.strategy, search.inputs, search.plan, ...), and tests import them from there.
__all__ = ["Budget", "Progress", "Strategy", "Target", "count", "solutions", "solve"]


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
    """Fold ``snake`` into ``target``: count its solutions and collect them, proven complete
    unless a limit stops the search first.

    Parameters
    ----------
    snake
        A :class:`Snake`, or text in any notation (a catalog name, lengths, a turn string...).
    target
        A :class:`Box`, a :class:`Region`, ``"AxBxC"``, or None for the cube of the snake's
        length (27 or 64 cubes).
    start, path
        Fix the cell of cube 1, or the first cells of the path; counts are then of the
        placements that begin so.
    reverse
        True folds from the snake's last cube (cube 1 of the solutions is then the typed
        snake's last cube), False from its first. None (default): a depth-first search with no
        fixed start may search from the last end where its tree is estimated at least 4 times
        smaller; the counts are the same and solutions are still read from cube 1
        (``Result.searched_from_last`` says which end was searched).
    limit, seconds, max_nodes
        Stop after ``limit`` solutions, ``seconds`` seconds (every phase: planning, search,
        checking) or about ``max_nodes`` nodes (the same place each run with one worker). The
        result is then marked incomplete, its counts lower bounds, with a ``stop_reason``.
    engine
        ``"auto"`` (default), ``"reference"`` (pure Python) or ``"kernel"`` (compiled).
    workers
        Processes to use (default: every core, for big searches).
    progress
        ``progress(done, units, found)`` is called as the search goes.
    strategy
        ``"auto"`` (default) chooses. ``"depth-first"`` walks the whole tree. For one
        solution (``limit=1``) only: ``"restarts"`` (randomised searches with node budgets),
        ``"beam"``, ``"sat"`` (CaDiCaL, the ``snakecube[sat]`` extra) or ``"portfolio"``.
        ``auto`` runs, for a first solution in targets of more than 64 cells, several of
        these side by side and takes the first answer, and for snakes whose corners follow
        the grid's colouring also a SAT model that can prove there is none.
    seed
        The restarts' random order.
    scheduler
        A Dask scheduler's address (the ``snakecube[cluster]`` extra): the search's work units
        run as tasks on that cluster (depth first only); the answer is the same.

    Ctrl-C (``KeyboardInterrupt``) stops the search: the result keeps what was found and is
    marked incomplete with ``stop_reason == "interrupted"``. Bad input raises
    :class:`InputError` with a message that names what is wrong.

    >>> r = solve("standard")
    >>> r.placements, r.distinct, r.complete
    (48, 1, True)
    """
    budget = Budget.checked(limit, seconds, max_nodes, progress)
    strategy = check_strategy(strategy)
    seed = limits.whole(seed, "the seed", 0, 2**63)
    inputs = compile_inputs(snake, target, start=start, path=path, reverse=bool(reverse))
    strategy = check_strategy(strategy, scheduler)
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
    stop: StopReason | None = None
    try:
        conflicts = sat.refute(problem, budget.out_of_time)
    except KeyboardInterrupt:  # a stop before anything was found: an answer, incomplete
        conflicts, stop = 0, StopReason.INTERRUPTED
    if conflicts is None:
        return None
    plan = make_plan(problem, deadline=budget.deadline())
    nodes = conflicts * sat.NODES_PER_CONFLICT
    return build(problem, plan, [], [0] * len(plan.start_classes), stop, "sat", nodes, budget)


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
