"""The engine: plan the root, run an engine over the work units, verify and count what it finds.

``solutions()`` is the one generator; ``solve()`` and ``count()`` are ways of consuming it.
"""

from __future__ import annotations

import dataclasses
import os
import time
import warnings
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import NamedTuple

from snakecube import limits
from snakecube.errors import InputError, SlowWarning
from snakecube.pool import SMALL_JOB_CELLS
from snakecube.search import parallel
from snakecube.search.engine import Engine, Placement, Stats
from snakecube.search.plan import Plan, make_plan, prefix_from_path
from snakecube.search.problem import Problem
from snakecube.search.reference import Reference
from snakecube.shape import Box, Coord, Region
from snakecube.snake import Snake
from snakecube.solution import Result, Solution, StartClassCount
from snakecube.verify import InvalidSolution

ENGINE_ENV = "SNAKECUBE_ENGINE"  # set to "reference" to force the pure-Python search
ENGINES = ("auto", "reference", "kernel")
Target = Region | str | tuple[int, int, int] | None
Progress = Callable[[int, int, int], None]  # (units done, units in all, solutions found)


def as_target(target: Target, snake: Snake | None = None) -> Region:
    """A Region from a Region, an ``AxBxC`` string, a 3-tuple, or None (the snake's cube)."""
    if isinstance(target, Region):
        return target
    if target is None:
        if snake is None:
            raise InputError("no target given")
        return Box.cube(snake.cubes)
    if isinstance(target, str):
        return Box.parse(target, where="target")
    if isinstance(target, tuple | list):
        if len(target) != 3:
            raise InputError(f"a box has 3 sides, not {len(target)}")
        return Box(*target)
    raise TypeError(
        f"the target must be a Region, 'AxBxC' or (a, b, c), not {type(target).__name__}"
    )


def as_snake(snake: Snake | str, region: Region | None = None) -> Snake:
    """A Snake from a Snake or text (``region``'s volume counts elbows without ``/N``)."""
    if isinstance(snake, Snake):
        return snake
    if isinstance(snake, str):
        return Snake.parse(snake, cubes=None if region is None else region.volume)
    raise TypeError(f"the snake must be a Snake or text (str), not {type(snake).__name__}")


class Inputs(NamedTuple):
    """Parsed and compiled inputs: the problem, and the fixed start and prefix, if any."""

    problem: Problem
    start: int | None
    prefix: tuple[int, ...]


def compile_inputs(
    snake: Snake | str,
    target: Target = None,
    *,
    start: Coord | None = None,
    path: Sequence[Coord] | None = None,
    reverse: bool = False,
) -> Inputs:
    """Parse the snake and the target, compile them, and turn a fixed start/path into cells."""
    region = None if target is None else as_target(target)
    snake = as_snake(snake, region)
    if reverse:
        snake = snake.reversed()
    region = as_target(target, snake) if region is None else region
    limits.cell_count(region.volume, f"the {region.describe()}")
    fixed = None if start is None else [limits.coord(start, "the fixed start")]
    if path is not None:
        if isinstance(path, str | bytes) or not isinstance(path, Sequence):
            raise TypeError(
                f"the fixed path must be a sequence of cells, not {type(path).__name__}"
            )
        if len(path) > limits.MAX_CUBES:
            raise InputError(f"the fixed path has {len(path)} cells; at most {limits.MAX_CUBES}")
        cells = [limits.coord(c, f"fixed path: cell {i}") for i, c in enumerate(path, 1)]
        if fixed is not None and cells and cells[0] != fixed[0]:
            raise InputError("the fixed start and the first cell of the fixed path differ")
        fixed = cells
    problem = Problem.build(snake, region)
    if fixed is None:
        return Inputs(problem, None, ())
    cell, dirs = prefix_from_path(problem, fixed)
    return Inputs(problem, cell, dirs)


def prepare(
    snake: Snake | str,
    target: Target = None,
    *,
    start: Coord | None = None,
    path: Sequence[Coord] | None = None,
    reverse: bool = False,
    min_units: int = 1,
) -> tuple[Problem, Plan]:
    """Parse and compile the inputs and plan the search."""
    inputs = compile_inputs(snake, target, start=start, path=path, reverse=reverse)
    plan = make_plan(inputs.problem, inputs.start, inputs.prefix, min_units=min_units)
    return inputs.problem, plan


CLUSTER_UNITS = 256  # at least this many work units for a count on a Dask cluster
SMALL = SMALL_JOB_CELLS  # cells: up to this size one process is quicker than forking workers


def choose_engine(problem: Problem | None, requested: str | Engine | None = None) -> Engine:
    """The engine: ``requested`` (a name or an Engine), else $SNAKECUBE_ENGINE, else automatic.

    Automatic: the compiled kernel when it is built (it loads in about a millisecond and
    compiles nothing at run time), else the reference with the kernel's pruning; then a
    :class:`~snakecube.errors.SlowWarning` says why a big search is slow. ``reference`` by
    name is the pure definition, with no pruning.
    """
    if isinstance(requested, Engine):
        return requested
    if requested is not None and not isinstance(requested, str):
        raise TypeError(f"engine must be a name or an Engine, not {type(requested).__name__}")
    name = (requested or os.environ.get(ENGINE_ENV) or "auto").strip().lower()
    if name not in ENGINES:
        raise InputError(
            f"unknown engine {limits.shorten(name)}; expected one of {', '.join(ENGINES)}"
        )
    if name == "reference":
        return Reference()
    from snakecube.search import kernel

    if kernel.AVAILABLE:
        return kernel.Kernel()
    if name == "kernel":
        raise InputError("the compiled kernel is not built here; reinstall with a C compiler")
    if problem is not None and problem.ncells > SMALL:
        warnings.warn(
            "the compiled kernel is not built (no C compiler when snakecube was installed), "
            "so this search runs in pure Python and may be 30-100 times slower",
            SlowWarning,
            stacklevel=3,
        )
    return Reference(prune=kernel.DEFAULT_PRUNE)


def choose_workers(problem: Problem, limit: int | None, requested: int | None) -> int:
    """Processes to use: ``requested``, else all cores for exhaustive searches of more than
    27 cells, else one. Searches with a solution limit use one, so that the first solutions
    are the same as in a single process."""
    if requested is not None:
        return limits.workers(requested)
    if limit is not None or problem.ncells <= SMALL:
        return 1
    return limits.cores()


def _solution(problem: Problem, plan: Plan, unit: int, dirs: tuple[int, ...]) -> Solution:
    """Build and verify one solution; an invalid one is an engine bug, never bad input."""
    u = plan.units[unit]
    kind = plan.start_classes[u.start_class].kind
    return _verified(
        Solution(problem.snake, problem.region, tuple(problem.path(u.start, dirs)), kind)
    )


def _serial(
    problem: Problem, plan: Plan, engine: Engine
) -> Generator[tuple[int, list[Placement], int, bool] | None, None, None]:
    """The parallel runner's events, from this process: units in order, nodes as they go."""
    for i, unit in enumerate(plan.units):
        stats = Stats()
        seen = 0
        for dirs in engine.search(problem, unit, stats):
            if dirs is None:
                yield i, [], stats.nodes - seen, False
            else:
                yield i, [dirs], stats.nodes - seen, False
            seen = stats.nodes
        yield i, [], stats.nodes - seen, True


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
    for event in _serial(inputs.problem, plan, chosen):
        if event is not None:
            for dirs in event[1]:
                yield _solution(inputs.problem, plan, event[0], dirs)


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
    typed snake's last cube); ``False`` from its first. ``None`` (default) lets a complete
    count with no fixed start or path search from the last end when its tree is estimated
    at least ``AUTO_END_RATIO`` times smaller (``search.estimate``): the counts are the same
    and the solutions are still read from cube 1 (``Result.searched_from_last``).

    >>> r = solve("standard")
    >>> r.placements, r.distinct, r.complete
    (48, 1, True)
    """
    if limit is not None:
        limit = limits.whole(limit, "the solution limit", 1)
    if seconds is not None:
        seconds = limits.seconds(seconds)
    if max_nodes is not None:
        max_nodes = limits.whole(max_nodes, "the node limit", 1, 2**62)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable, not {type(progress).__name__}")
    if strategy not in STRATEGIES:
        raise InputError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
    seed = limits.whole(seed, "the seed", 0, 2**63)
    began = time.monotonic()
    inputs = compile_inputs(snake, target, start=start, path=path, reverse=bool(reverse))
    problem = inputs.problem
    if scheduler is not None and strategy in FIRST_STRATEGIES:
        raise InputError(f"--scheduler runs depth-first searches; --strategy {strategy} runs "
                         "on one machine")  # fmt: skip
    members = () if scheduler is not None else _members(strategy, inputs, limit, engine)
    if members:
        return _first_solution(inputs, members, seed, workers, seconds, max_nodes, progress,
                               began, bool(reverse))  # fmt: skip
    if reverse is None and limit is None and _last_end_pays(inputs):
        flipped = compile_inputs(snake, target, reverse=True)
        result = _depth_first(flipped, engine, workers, limit, seconds, max_nodes, progress,
                              began, scheduler)  # fmt: skip
        return _read_forwards(result, problem)
    result = _depth_first(inputs, engine, workers, limit, seconds, max_nodes, progress, began,
                          scheduler)  # fmt: skip
    return dataclasses.replace(result, reversed=True) if reverse else result


AUTO_END_NODES = 10_000_000  # estimated nodes from the first end above which the last is tried
AUTO_END_RATIO = 4  # the last end is taken when its tree is estimated this many times smaller


def _last_end_pays(inputs: Inputs) -> bool:
    """Is the tree from the snake's last end estimated much smaller (docs/design.md)?"""
    problem = inputs.problem
    if inputs.start is not None or inputs.prefix or problem.snake.is_palindrome:
        return False
    if problem.ncells <= SMALL:  # small trees: the estimate would cost more than it saves
        return False
    from snakecube.search.estimate import tree_size

    forwards = tree_size(problem)
    if forwards < AUTO_END_NODES:
        return False
    backwards = tree_size(Problem.build(problem.snake.reversed(), problem.region))
    return backwards * AUTO_END_RATIO < forwards


def _read_forwards(result: Result, problem: Problem) -> Result:
    """A result found from the snake's last end, told from its first: each solution's cells
    reversed, start classes counted by the new first cube."""
    region = problem.region
    orbits = region.orbits()
    found = []
    per_orbit = [0] * len(orbits)
    for s in result.solutions:
        cells = s.path[::-1]
        found.append(_verified(Solution(problem.snake, region, cells,
                                        region.cell_kind(cells[0]))))  # fmt: skip
        per_orbit[next(i for i, o in enumerate(orbits) if cells[0] in o)] += 1
    multiplier = result.placements // result.distinct if result.distinct else 0
    classes = tuple(
        dataclasses.replace(c, distinct=n, placements=n * multiplier)
        for c, n in zip(result.start_classes, per_orbit, strict=True)
    )
    return dataclasses.replace(result, snake=problem.snake, solutions=tuple(found),
                               start_classes=classes, searched_from_last=True)  # fmt: skip


def _depth_first(
    inputs: Inputs,
    engine: str | Engine | None,
    workers: int | None,
    limit: int | None,
    seconds: float | None,
    max_nodes: int | None,
    progress: Progress | None,
    began: float,
    scheduler: str | None,
) -> Result:
    """The engine over the plan's units, in order (locally, in processes, or on Dask)."""
    problem = inputs.problem
    chosen = choose_engine(problem, engine)
    n_workers = choose_workers(problem, limit, workers)
    units = CLUSTER_UNITS if scheduler is not None else 16 * n_workers
    plan = make_plan(problem, inputs.start, inputs.prefix, min_units=units)
    deadline = None if seconds is None else began + seconds
    if n_workers > 1 or scheduler is not None:
        chosen.warm(problem)  # build tables once, before the workers fork
    if scheduler is not None:
        events = parallel.run_on_cluster(problem, plan, chosen, scheduler)
    elif n_workers > 1 and len(plan.units) > 1:
        events = parallel.run(problem, plan, chosen, n_workers)
    else:
        events = _serial(problem, plan, chosen)
    by_unit: list[list[Solution]] = [[] for _ in plan.units]
    done = found = nodes = 0
    stop: str | None = None
    try:
        for event in events:
            if event is not None:
                unit, placements, visited, finished = event
                nodes += visited
                done += finished
                for dirs in placements:
                    by_unit[unit].append(_solution(problem, plan, unit, dirs))
                    found += 1
                    if limit is not None and found >= limit:
                        stop = "limit"
                        break
                if stop:
                    break
            if progress is not None:
                progress(done, len(plan.units), found)
            if deadline is not None and time.monotonic() > deadline:
                stop = "seconds"
                break
            if max_nodes is not None and nodes >= max_nodes:
                stop = "nodes"  # deterministic, unlike a time limit
                break
    except KeyboardInterrupt:
        stop = "interrupted"
    finally:
        events.close()
    sols = [s for unit in by_unit for s in unit]
    per_class = [0] * len(plan.start_classes)
    for u, unit_sols in zip(plan.units, by_unit, strict=True):
        per_class[u.start_class] += len(unit_sols)
    return _result(problem, plan, sols, per_class, stop, chosen.name, nodes, began, n_workers)


STRATEGIES = ("auto", "beam", "depth-first", "portfolio", "restarts", "sat")
# auto, for a first solution of a big target: the restarts, depth first from the end with the
# smaller tree (docs/design.md, "Depth first from the better end") and, where it fits (boxes of
# up to 128 cells), the beam searches (docs/design.md, "The beam member"), side by side
AUTO_MEMBERS = ("restarts", "depth-first", "beam")
FIRST_STRATEGIES = {
    "beam": ("beam",),
    "portfolio": ("restarts", "sat"),
    "restarts": ("restarts",),
    "sat": ("sat",),
}
RESTARTS_CELLS = 64  # auto: first solutions of bigger targets use the portfolio


def _members(
    strategy: str, inputs: Inputs, limit: int | None, engine: str | Engine | None
) -> tuple[str, ...]:
    """The first-solution members (``search.first``) this search runs, or () for depth first."""
    if strategy == "depth-first" or (strategy == "auto" and engine is not None):
        return ()
    asked = strategy in FIRST_STRATEGIES
    wanted = asked or inputs.problem.ncells > RESTARTS_CELLS
    if not wanted or limit != 1 or inputs.start is not None or inputs.prefix:
        if asked:
            raise InputError(f"--strategy {strategy} looks for one solution (--first) of a "
                             "snake with no fixed start or path")  # fmt: skip
        return ()
    from snakecube.search import first, sat  # only now: a count never loads them

    built = {
        "restarts": first.AVAILABLE,
        "sat": sat.available(),
        "beam": first.beam_fits(inputs.problem),
    }
    if not asked:  # auto: the restarts, depth first and the beam (measured), else SAT
        if built["restarts"]:
            return tuple(m for m in AUTO_MEMBERS if m != "beam" or built["beam"])
        return ("sat",) if built["sat"] else ()
    members = FIRST_STRATEGIES[strategy]
    have = tuple(m for m in members if built[m])
    if have != members:
        missing = next(m for m in members if not built[m])
        raise InputError(
            {
                "restarts": "the compiled restarts search is not built here; reinstall with a "
                "C compiler",
                "beam": "--strategy beam needs the compiled beam loop and a box of at most "
                f"{first.BEAM_CELLS} cells",
            }.get(missing, "the SAT member needs python-sat: pip install 'snakecube[sat]'")
        )
    return have


def _first_solution(
    inputs: Inputs,
    members: tuple[str, ...],
    seed: int,
    workers: int | None,
    seconds: float | None,
    max_nodes: int | None,
    progress: Progress | None,
    began: float,
    reverse: bool,
) -> Result:
    """A first solution by the portfolio's ``members`` (``search.first``)."""
    from snakecube.search import first

    problem = inputs.problem
    plan = make_plan(problem)
    n_workers = limits.workers(workers) if workers is not None else limits.cores()
    deadline = None if seconds is None else began + seconds
    stop: str | None = None

    def out_of_budget(nodes: int) -> bool:
        nonlocal stop
        if max_nodes is not None and nodes >= max_nodes:
            stop = "nodes"
        elif deadline is not None and time.monotonic() > deadline:
            stop = "seconds"
        return stop is not None

    found: list[Solution] = []
    per_class = [0] * len(plan.start_classes)
    nodes = runs_done = 0
    members = first.who_runs(problem, members)[0]  # as search will (estimates are cached)
    engine = "+".join(members) if len(members) > 1 else members[0]
    runs = first.search(problem, seed, n_workers, out_of_budget, members)
    try:
        for r in runs:
            if r is None:
                continue
            runs_done += 1
            nodes += r.nodes
            if progress is not None:
                progress(runs_done, 0, 0)
            if r.cells is not None:
                sol = Solution(problem.snake, problem.region, r.cells,
                               problem.region.cell_kind(r.cells[0]))  # fmt: skip
                found.append(_verified(sol))
                orbits = problem.region.orbits()  # the plan's start classes, in order
                per_class[next(i for i, o in enumerate(orbits) if r.cells[0] in o)] += 1
                stop = "limit"
                if isinstance(r, first.Depth):
                    engine = r.engine
                elif isinstance(r, first.Beamed):
                    engine = "beam"
                else:
                    engine = "sat" if isinstance(r, first.Slice) else "restarts"
    except KeyboardInterrupt:
        stop = "interrupted"
    finally:
        runs.close()
    n = max(1, n_workers)
    result = _result(problem, plan, found, per_class, stop, engine, nodes, began, n)
    return dataclasses.replace(result, reversed=reverse) if reverse else result


def _verified(sol: Solution) -> Solution:
    try:
        sol.verify()
    except InvalidSolution as err:
        raise RuntimeError(f"the search produced an invalid solution: {err}") from err
    return sol


def _result(
    problem: Problem,
    plan: Plan,
    found: list[Solution],
    per_class: list[int],
    stop: str | None,
    engine: str,
    nodes: int,
    began: float,
    workers: int = 1,
) -> Result:
    snake, region = problem.snake, problem.region
    if snake.is_palindrome:
        up_to_reversal = len({s.canonical(reversal=True) for s in found})
    else:
        up_to_reversal = len(found)
    classes = tuple(
        StartClassCount(c.kind, region.cells[c.cell], c.size, n, n * plan.multiplier)
        for c, n in zip(plan.start_classes, per_class, strict=True)
    )
    return Result(
        snake=snake,
        region=region,
        solutions=tuple(found),
        placements=len(found) * plan.multiplier,
        distinct=len(found),
        distinct_up_to_reversal=up_to_reversal,
        complete=stop is None,
        stop_reason=stop,
        symmetry_count=len(region.symmetries),
        start_classes=classes,
        fixed=plan.fixed,
        engine=engine,
        workers=workers,
        nodes=nodes,
        seconds=time.monotonic() - began,
    )


def count(snake: Snake | str, target: Target = None, **options: object) -> int:
    """The number of distinct solutions (up to the target's symmetries)."""
    return sum(1 for _ in solutions(snake, target, **options))  # type: ignore[arg-type,misc]
