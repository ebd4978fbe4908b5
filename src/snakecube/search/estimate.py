"""How big is a search tree? Knuth's random probes, used to pick the end to fold from.

The same snake counted from its other end has the same solutions (each read backwards) but a
different tree, and the two can differ a thousandfold: a 4x4x5 design with 341 solutions
takes 468 million nodes from one end and an estimated 10^11 from the other
(docs/design.md, "Which end to count from").

Knuth's estimator (1975): walk from the root to a leaf choosing a child uniformly at random,
and add up, level by level, the nodes met times the product of the branching factors above
them; the mean over many walks is the number of nodes, without bias. Here the root's children
are the plan's work units; a node is a segment placed (it turns and fits: what the engines
count as ``nodes``), and its children are the next segments that also pass the kernel's
default pruning (dead ends and the last cube's colour, ``reference._Pruning``), so the
estimate is of the tree the engines walk. A walk costs about 0.2 ms on a 4x4x5 snake. Such
trees are heavy-tailed (the mean is dominated by rare deep walks, so a few dozen walks usually
underestimate), which is why callers compare the two ends with a wide margin.

Deterministic: the walks use their own seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from snakecube.search.options import DEFAULT_PRUNE
from snakecube.search.plan import make_plan, replay
from snakecube.search.problem import Problem
from snakecube.search.reference import _CUT, _Pruning

PROBES = 64  # walks per estimate


def tree_size(
    problem: Problem,
    probes: int = PROBES,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
    levels: list[float] | None = None,
) -> float:
    """An estimate of the nodes a complete depth-first count of ``problem`` visits; ``stop()``,
    asked between walks, ends it early (the estimate is then of the walks made). ``levels``,
    if given, is set to the estimate level by level (entry k: the nodes that place segment k,
    0-based), which sums to the total."""
    plan = make_plan(problem)
    units = [u for u in plan.units if replay(problem, u.start, u.prefix) is not None]
    n_seg = len(problem.lengths)
    if not units:
        if levels is not None:
            levels[:] = [0.0] * n_seg
        return 0.0
    rng = random.Random(seed)
    rays = [problem.rays[n] for n in problem.lengths]
    pruning: dict[int, _Pruning] = {}
    total = 0.0
    by_level = [0.0] * n_seg
    walks = 0
    while walks < probes and not (stop is not None and walks and stop()):
        walks += 1
        unit = rng.choice(units)
        if unit.start not in pruning:
            pruning[unit.start] = _Pruning(problem, unit.start, DEFAULT_PRUNE, 0)
        check = pruning[unit.start].check
        occ, head, _ = replay(problem, unit.start, unit.prefix)  # type: ignore[misc]
        axis = unit.prefix[-1] >> 1 if unit.prefix else -1
        last, weight = -1, float(len(units))
        for k in range(len(unit.prefix), n_seg):
            # Step 1: the segments that turn and fit (nodes, as the engines count them), and
            # those of them that pass the pruning (the children).
            placed, children = 0, []
            for d in range(6):
                ray = rays[k][head * 6 + d] if d >> 1 != axis else None
                if ray is None or occ & ray[0]:
                    continue
                placed += 1
                row = head * 6 + d
                cand = last if k + 1 == n_seg else check(k, row, occ | ray[0], ray[1], last)
                if cand != _CUT:
                    children.append((d, ray, cand))
            # Step 2: count this level's nodes, weighted, and step to a random child.
            total += weight * placed
            by_level[k] += weight * placed
            if not children or k + 1 == n_seg:
                break
            weight *= len(children)
            d, (mask, head), last = rng.choice(children)
            occ |= mask
            axis = d >> 1
    if levels is not None:
        levels[:] = [x / walks for x in by_level]
    return total / walks


def end_sizes(
    problem: Problem,
    probes: int = PROBES,
    between: Callable[[], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> tuple[float, float]:
    """Estimates of the nodes a complete count visits from the snake's first end and from
    its last (the same twice for a palindrome); ``between()`` is called between the two (a
    caller's progress); ``stop()`` as in ``tree_size``."""
    first_end = tree_size(problem, probes, stop=stop)
    if problem.snake.is_palindrome:
        return first_end, first_end
    if between is not None:
        between()
    return first_end, tree_size(problem.reversed(), probes, stop=stop)
