"""What runs a search: the engine, the number of processes, the end to search from, and the
first-solution members.

Each choice is made once, in ``solve``, from the inputs and the caller's requests, and passed
down; nothing below asks again.
"""

from __future__ import annotations

import enum
import os
import warnings

from snakecube import limits
from snakecube.errors import InputError, SlowWarning
from snakecube.search import edges, kernel, members
from snakecube.search.engine import Engine
from snakecube.search.estimate import tree_size
from snakecube.search.inputs import Inputs
from snakecube.search.options import DEFAULT_PRUNE
from snakecube.search.problem import Problem
from snakecube.search.reference import Reference

ENGINE_ENV = "SNAKECUBE_ENGINE"  # set to "reference" to force the pure-Python search
ENGINES = ("auto", "reference", "kernel")
# cells: up to this size one process is quicker than forking workers; pool.SMALL_JOB_CELLS, the
# same number, written here so that a one-process search never imports the pool (test_search)
SMALL = 27


class Strategy(enum.StrEnum):
    """What runs: depth first (a count, or a first solution of a small target), a
    first-solution member or the portfolio, or the automatic choice among them."""

    AUTO = "auto"
    BEAM = "beam"
    DEPTH_FIRST = "depth-first"
    PORTFOLIO = "portfolio"
    RESTARTS = "restarts"
    SAT = "sat"


STRATEGIES = tuple(s.value for s in Strategy)  # the names, as people type them
# The first-solution members (``search.members``, the registry): what auto runs for a first
# solution of a big target (the restarts, depth first from the end with the smaller tree, and
# where it fits the beam searches: docs/design-first.md), and for a snake whose corners follow
# the grid's colouring in a target of more than ``SMALL`` cells (SAT on the edge model beside
# the restarts); what each strategy of first solutions runs.
AUTO_MEMBERS = members.AUTO
PATTERN_MEMBERS = members.PATTERNED
FIRST_STRATEGIES = {
    Strategy.PORTFOLIO: members.PORTFOLIO,
    **{Strategy(name): (name,) for name in members.ALONE},
}
RESTARTS_CELLS = 64  # auto: first solutions of bigger targets use the portfolio


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
    return Reference(prune=DEFAULT_PRUNE)


def choose_workers(problem: Problem, limit: int | None, requested: int | None) -> int:
    """Processes to use: ``requested``, else all cores for exhaustive searches of more than
    27 cells, else one. Searches with a solution limit use one, so that the first solutions
    are the same as in a single process."""
    if requested is not None:
        return limits.workers(requested)
    if limit is not None or problem.ncells <= SMALL:
        return 1
    return limits.cores()


def check_strategy(strategy: str, scheduler: str | None = None) -> Strategy:
    """The strategy named ``strategy``; refuse an unknown one, or (with ``scheduler``) one a
    Dask cluster does not run."""
    if strategy not in STRATEGIES:
        raise InputError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
    strategy = Strategy(strategy)
    if scheduler is not None and strategy in FIRST_STRATEGIES:
        raise InputError(
            f"scheduler= runs depth-first searches; strategy={str(strategy)!r} runs on one machine"
        )
    return strategy


def choose_members(
    strategy: Strategy, inputs: Inputs, limit: int | None, engine: str | Engine | None
) -> tuple[str, ...]:
    """The first-solution members (``search.first``) this search runs, or () for depth first."""
    if strategy == Strategy.DEPTH_FIRST or (strategy == Strategy.AUTO and engine is not None):
        return ()
    asked = strategy in FIRST_STRATEGIES
    problem = inputs.problem
    patterned = problem.ncells > SMALL and edges.pattern(problem.snake) is not None
    wanted = asked or problem.ncells > RESTARTS_CELLS or patterned
    if not wanted or limit != 1 or not inputs.free:
        if asked:
            raise InputError(
                f"strategy={str(strategy)!r} looks for one solution (limit=1) of a "
                "snake with no fixed start or path"
            )
        return ()
    # The first-solution members cost every start about 15 ms to import; a count never runs them.
    from snakecube.search import first

    missing = {name: first.why_not(name, problem) for name in members.NAMES}
    if not asked:  # auto: the restarts, depth first and the beam (measured), else SAT
        if patterned and missing["sat"] is None:
            return tuple(m for m in PATTERN_MEMBERS if missing[m] is None)
        if patterned:
            warnings.warn(
                f"this snake has {edges.pattern(problem.snake).describe()}: SAT on the edge "  # type: ignore[union-attr]
                "model decides such snakes in seconds, but it needs python-sat "
                "(pip install 'snakecube[sat]'); searching without it",
                SlowWarning,
                stacklevel=3,
            )
            if problem.ncells <= RESTARTS_CELLS:
                return ()
        if missing["restarts"] is None:
            return tuple(m for m in AUTO_MEMBERS if missing[m] is None)
        return ("sat",) if missing["sat"] is None else ()
    for member in FIRST_STRATEGIES[strategy]:
        if missing[member] is not None:
            raise InputError(missing[member])
    return FIRST_STRATEGIES[strategy]


def proof_first(
    strategy: Strategy, inputs: Inputs, limit: int | None, engine: str | Engine | None
) -> bool:
    """Should a count (not a first solution) ask the edge model for a proof that the snake
    does not fold before it walks the tree? Yes for snakes whose corners follow the grid's
    colouring in targets of more than ``SMALL`` cells, with python-sat, no fixed start or
    path, and no engine or strategy asked for (a proof takes 0.01-0.3 s; the tree of a bent
    snake in 3x5x5, which has no fold, is past reach)."""
    if strategy != Strategy.AUTO or engine is not None or limit == 1 or not inputs.free:
        return False
    problem = inputs.problem
    if problem.ncells <= SMALL or edges.pattern(problem.snake) is None:
        return False
    from snakecube.search import sat

    return sat.available()


# Which end to search from. The same snake searched from its other end has the same solutions
# (each read backwards) but a different tree, and the two can differ a thousandfold
# (``search.estimate``). A count with no fixed start or path, and no end asked for, runs from
# the last end when Knuth's estimate of that tree is ``AUTO_END_RATIO`` times smaller; the
# first-solution members choose their own end (``first.depth``) from the same estimates.
AUTO_END_NODES = 10_000_000  # estimated nodes from the first end above which the last is tried
AUTO_END_RATIO = 4  # the last end is taken when its tree is estimated this many times smaller


def last_end_pays(inputs: Inputs) -> bool:
    """Is the tree from the snake's last end estimated much smaller (docs/design.md)?"""
    problem = inputs.problem
    if not inputs.free or problem.snake.is_palindrome:
        return False
    if problem.ncells <= SMALL:  # small trees: the estimate would cost more than it saves
        return False

    forwards = tree_size(problem)
    if forwards < AUTO_END_NODES:
        return False
    return tree_size(problem.reversed()) * AUTO_END_RATIO < forwards
