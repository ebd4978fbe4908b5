"""First solutions of floppy big snakes: a portfolio of members run side by side.

Exhaustive depth-first search (``search.exhaustive``) answers "how many?"; for "is there one?" on
a big target it can spend its whole budget under one bad early choice. The members here
each look for one solution in their own way, behind one small protocol (``member``):

=========== ===================== ===================================================
member      module                what it does
=========== ===================== ===================================================
restarts    ``first.restarts``    randomised searches with Luby node budgets
sat         ``search.sat``        CaDiCaL (python-sat) on a clause encoding
depth-first ``first.depth``       the exhaustive search from the end with the smaller tree
beam        ``first.beam``        beams of doubling widths, the most compact folds kept
=========== ===================== ===================================================

``lineup`` makes the members by name (``KINDS``, from the registry ``search.members``),
``schedule.search`` runs them and accepts their runs in one fixed order, and
``first_solution`` turns the first accepted solution into a ``Result``. This is a pure
heuristic layer over exact pruning; every solution is verified by ``Solution.verify`` like
any other.
"""

from __future__ import annotations

from collections.abc import Callable

from snakecube import limits
from snakecube.search import members, sat  # noqa: F401 (sat: the SAT member's module)
from snakecube.search.first import beam, depth, restarts  # noqa: F401 (first.restarts: its module)
from snakecube.search.first.depth import end_sizes
from snakecube.search.first.member import Member, MemberType, Run, Setting
from snakecube.search.first.schedule import MEMBERS, search
from snakecube.search.inputs import Inputs
from snakecube.search.options import Budget
from snakecube.search.plan import make_plan
from snakecube.search.problem import Problem
from snakecube.search.results import build, of_cells, orbit_of
from snakecube.solution import Result, Solution
from snakecube.stop import StopReason

# The face: the members by name and what runs them. Each member's tuning constants and
# classes are in its module (first.restarts, first.beam, first.depth, first.schedule), and
# tests and benchmarks take them from there.
__all__ = ["KINDS", "Member", "Run", "Setting", "first_solution", "lineup", "who_runs", "why_not"]

# The members by name, their classes from the registry (``search.members``).
KINDS: dict[str, MemberType] = {m.name: m.load() for m in members.MEMBERS}


def why_not(name: str, problem: Problem) -> str | None:
    """Why the member called ``name`` cannot run on ``problem`` here, or None when it can."""
    return KINDS[name].why_not(problem)


def who_runs(
    problem: Problem,
    names: tuple[str, ...],
    between: Callable[[], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> tuple[tuple[str, ...], tuple[float, float] | None]:
    """The members that run, and the ends' estimates if depth first was asked beside others:
    it sits out when even its better end's tree is past ``depth.DEPTH_HOPELESS`` nodes.
    ``between()`` is called between the two ends' estimates (a caller's progress); ``stop()``
    between their walks ends them early (a time limit)."""
    if "depth-first" not in names or len(names) == 1:
        return names, None
    sizes = end_sizes(problem, between, stop)
    if min(sizes) > depth.DEPTH_HOPELESS:
        return tuple(m for m in names if m != "depth-first"), sizes
    return names, sizes


def lineup(
    problem: Problem,
    names: tuple[str, ...],
    seed: int = 0,
    between: Callable[[], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[Member]:
    """The members called ``names`` (less depth first where it is hopeless: ``who_runs``),
    made for ``problem``, in the order asked; the ends' estimates are made once, here
    (``between()`` is called between them, ``stop()`` between their walks)."""
    unknown = set(names) - set(MEMBERS)
    if unknown or not names:
        raise ValueError(f"unknown portfolio members {sorted(unknown)}; expected {MEMBERS}")
    running, sizes = who_runs(problem, names, between, stop)
    # Restarts and beams without depth first (it sat out as hopeless): beams weigh less.
    hopeless = {"restarts", "beam"} <= set(running) and "depth-first" not in running
    setting = Setting(
        seed=seed,
        sizes=sizes,
        sharing=sum(not KINDS[m].persistent for m in running),
        bias=beam.BEAM_BIAS_HOPELESS if hopeless else 1,
    )
    return [KINDS[name].make(problem, setting) for name in running]


def first_solution(
    inputs: Inputs, names: tuple[str, ...], seed: int, workers: int | None, budget: Budget
) -> Result:
    """A first solution by the members called ``names``, within ``budget``."""
    problem = inputs.problem
    plan = make_plan(problem, deadline=budget.deadline())
    n_workers = limits.workers(workers) if workers is not None else limits.cores()
    stop: StopReason | None = None

    def out_of_budget(nodes: int) -> bool:
        nonlocal stop
        # Asked between runs and between a long run's chunks (a wide beam's): progress then,
        # so that it never stops for long (the static page's worker reports nothing else).
        budget.report(runs_done, 0, 0)
        if budget.out_of_nodes(nodes):
            stop = StopReason.NODES
        elif budget.out_of_time():
            stop = StopReason.SECONDS
        return stop is not None

    found: list[Solution] = []
    per_class = [0] * len(plan.start_classes)
    nodes = runs_done = 0
    engine = "+".join(names)
    runs = None
    try:  # a Ctrl-C while the ends are estimated is a stop too: nothing found yet
        budget.report(0, 0, 0)  # the ends' estimates take a while in Pyodide: progress round them
        members = lineup(problem, names, seed, lambda: budget.report(0, 0, 0), budget.out_of_time)
        engine = "+".join(m.name for m in members)
        runs = search(members, n_workers, out_of_budget)
        for r in runs:
            if r is None:
                continue
            runs_done += 1
            nodes += r.nodes
            budget.report(runs_done, 0, 0)
            if r.cells is not None:
                found.append(of_cells(problem, r.cells))
                per_class[orbit_of(problem, r.cells[0])] += 1
                stop, engine = StopReason.LIMIT, r.engine
    except KeyboardInterrupt:
        stop = StopReason.INTERRUPTED
    finally:
        if runs is not None:
            runs.close()
    return build(problem, plan, found, per_class, stop, engine, nodes, budget, max(1, n_workers))
