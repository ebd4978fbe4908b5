"""Making fold plans: the search for the quarter turns that fold a solution from the snake
lying flat (``fold.planner``), run from each end, and the choice of the plan and of the
solution easiest to fold.

The solution is first turned (by a symmetry of its target) so that its first two segments
lie on the table when it can: the flat start then lies on the table too, and the words and
pictures use the instructions' table frame (x right, y away from you, z up).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace

from snakecube.errors import InputError
from snakecube.fold.model import (
    Vec,
    apply_move,
    corners_of,
    is_valid,
    lies_flat,
    swing_is_clear,
)
from snakecube.fold.planner import (
    ORDERS,
    Folder,
    PlanBudgetExceeded,
    PlanOutOfTime,
    RawPlan,
    best_plan,
    hand_distance,
    span,
    states_of,
    walk_key,
)
from snakecube.frame import display, oriented
from snakecube.snake import End
from snakecube.solution import Solution
from snakecube.stop import StopReason

ENDS = ("best", *(e.value for e in End))  # "best": the end with the easier plan
# A plan not found within the budget is searched once more with this many times the nodes,
# instead of giving up (the guided search needs a few thousand nodes for a 4x4x4 solution).
RETRY = 8


@dataclass(frozen=True, slots=True)
class FoldPlan:
    """A plan in the model's terms: ``moves`` are (joint, quarter_turns), turning cubes
    joint+1..n about the line through cubes joint and joint+1 (1-based)."""

    solution: Solution  # the solution folded into (``end`` is its cells)
    start: tuple[Vec, ...]
    moves: tuple[tuple[int, int], ...]
    held: End  # the end the person holds while folding
    in_order: bool  # segments placed one by one from the held end
    lower_bound: int
    clear: tuple[bool, ...]  # per move: does its swing pass clear?
    frames: tuple[tuple[Vec, ...], ...] = ()  # the states with the held end kept still
    found: bool = True
    complete: bool = True  # False when a search gave up (``stop_reason``)
    stop_reason: StopReason | None = None  # NODES (its node budget) or SECONDS (time limit)
    reason: str = ""  # why there is no plan, or why it may not be the best (``complete`` False)
    # the fewest quarter turns found for a plan that keeps every cube on or above the table
    # (None: none was found, or the start cannot lie on the table under the held end)
    table_turns: int | None = None
    # ... and how far the hand moves in it, as a multiple of its span (None: as above)
    table_walk: float | None = None
    order: str = "walk"  # what the plan was chosen for: "walk" along the chain, or "fewest"
    fewest: int | None = None  # the fewest quarter turns of any plan found for it

    @property
    def joints(self) -> list[int]:
        return [j for j, _ in self.moves]

    @property
    def hand_distance(self) -> int:
        """How far along the chain the hand moves from each joint turned to the next."""
        return hand_distance(self.joints)

    @property
    def span(self) -> int:
        """The highest joint turned minus the lowest."""
        return span(self.joints)

    def steps(self) -> list[tuple[int, int, int]]:
        """The plan as a person makes it: (joint, quarter turns, first move), where two
        quarter turns of one joint in a row are one step, a half turn (quarter turns +-2)."""
        out: list[tuple[int, int, int]] = []
        for k, (j, q) in enumerate(self.moves):
            if out and out[-1][0] == j and abs(out[-1][1]) == 1 and out[-1][1] == q:
                out[-1] = (j, 2 * q, out[-1][2])
            else:
                out.append((j, q, k))
        return out

    @property
    def end(self) -> tuple[Vec, ...]:
        return tuple(self.solution.cells)

    @property
    def quarter_turns(self) -> int:
        return sum(abs(q) for _, q in self.moves)

    @property
    def sweep_clear(self) -> int:
        """How many moves swing clear of the cubes that stay."""
        return sum(self.clear)

    def states(self) -> list[list[Vec]]:
        """The start, then the configuration after each move."""
        return states_of(self.solution.snake.lengths, self.start, self.moves)

    def to_dict(self) -> dict[str, object]:
        """The plan as JSON: start, moves, end, quarter_turns, lower_bound, sweep_clear."""
        return {
            "snake": self.solution.snake.turns(),
            "target": self.solution.region.describe(),
            "found": self.found,
            "complete": self.complete,
            "stop_reason": self.stop_reason,
            "reason": self.reason or None,
            "held": self.held,
            "in_order": self.in_order,
            "start": [list(c) for c in self.start],
            "moves": [
                {"joint": j, "quarter_turns": q, "sweep_clear": c}
                for (j, q), c in zip(self.moves, self.clear, strict=True)
            ],
            "end": [list(c) for c in self.end],
            "quarter_turns": self.quarter_turns,
            "lower_bound": self.lower_bound,
            "sweep_clear": self.sweep_clear,
            "lift_before_step": below_table(self) if self.found else None,  # 0: on the table
            "table_turns": self.table_turns,
            "table_walk": self.table_walk,
            "order": self.order,
            "fewest_turns": self.fewest,
            "hand_distance": self.hand_distance,
            "span": self.span,
            "steps": [
                {"joint": j, "quarter_turns": q, "first_move": k + 1} for j, q, k in self.steps()
            ],
        }


# The instructions' orientation of a solution, kept for the process: it traces rays for every
# symmetry of the target (about 0.15 s for a 4x4x4), and a plan asks for it from each end,
# ``easiest`` again for the solution it picks.
_display = functools.lru_cache(maxsize=16)(display)


def orientation(solution: Solution, held: End = End.FIRST) -> Solution:
    """The solution turned (by a symmetry of its target) so that the two segments at the
    held end lie on the table (z constant, low) when possible: the flat start then lies on
    the table; otherwise as the instructions show it."""
    shown = _display(solution)
    if len(shown.snake.lengths) < 2:
        return shown
    best: tuple[tuple[int, ...], Solution] | None = None
    for perm in solution.region.symmetries:
        turned = oriented(solution, perm)
        cells = list(turned.cells)
        lengths = list(solution.snake.lengths)
        if held == End.LAST:
            cells, lengths = cells[::-1], lengths[::-1]
        corner = lengths[0] - 1
        plane = len({cells[0][2], cells[corner][2], cells[corner + 1][2]}) == 1
        key = (not plane, cells[0][2], turned.path != shown.path)
        if best is None or key < best[0]:
            best = (key, turned)
    assert best is not None
    return best[1]


FLOOR_SHARE = 4  # the search that keeps the snake on the table gets 1/4 of the nodes


def table_floor(lengths: Sequence[int], end: Sequence[Vec]) -> int | None:
    """The table top's height when the snake, held at ``end[0]``, starts flat on the table:
    the held cube's z, when the first two segments are horizontal there and no cube of the
    solution is lower; else None (the start cannot lie on the table)."""
    if len(lengths) < 2:
        return None
    corner = lengths[0] - 1
    z = end[0][2]
    if end[corner][2] != z or end[corner + 1][2] != z or min(c[2] for c in end) < z:
        return None
    return z


@functools.lru_cache(maxsize=16)
def _free(
    lengths: tuple[int, ...],
    end: tuple[Vec, ...],
    target: frozenset[Vec],
    nodes: int,
    order: str = "walk",
) -> tuple[RawPlan | None, bool, bool]:
    """The free search's plan (no floor), whether it finished, and whether the time limit
    cut it; kept for the process, so that :func:`easiest` does not search again for the
    solution it picks (:func:`plan` forgets it when the time limit cut it)."""
    try:
        raw = best_plan(lengths, end, set(target), nodes, order=order)
    except PlanBudgetExceeded as stopped:
        return None, False, isinstance(stopped, PlanOutOfTime)
    return raw, True, raw is not None and raw.late


def _raw(
    lengths: Sequence[int],
    end: Sequence[Vec],
    target: set[Vec],
    nodes: int,
    table: bool = True,
    order: str = "walk",
) -> tuple[RawPlan | None, bool, RawPlan | None, bool]:
    """The best plan for one end, whether the searches finished within their budgets, the
    best plan found that stays on the table (None if none), and whether the time limit cut
    a search.

    Step: the free search first; if its plan stays on the table, that is the plan. Else a
    search that keeps every cube on or above the table (a share of the nodes), and its plan
    wins a tie in quarter turns (with ``order`` "walk": in how it walks along the chain,
    counted only above its aim, and in quarter turns)."""
    floor = table_floor(lengths, end) if table else None
    free, done, late = _free(tuple(lengths), tuple(end), frozenset(target), nodes, order)
    if floor is None:
        return free, done, None, late
    if free is not None and _stays(lengths, end, free, floor):
        return free, True, free, late
    try:
        share = max(1, nodes // FLOOR_SHARE)
        low = best_plan(lengths, end, target, share, floor=floor, order=order)
    except PlanBudgetExceeded as stopped:
        low, late = None, late or isinstance(stopped, PlanOutOfTime)
    late = late or (low is not None and low.late)
    if low is not None and (
        free is None or _rank(lengths, low, order) <= _rank(lengths, free, order)
    ):
        return low, True, low, late
    return free, done, low, late


def _rank(lengths: Sequence[int], raw: RawPlan, order: str) -> tuple[float, ...]:
    """What the table's search must match to win: the quarter turns, and with ``order``
    "walk" first how the plan walks (``walk_key`` without the hand distance itself)."""
    if order != "walk":
        return (len(raw.moves),)
    corners = corners_of(lengths)
    return walk_key([corners[s] for s, _ in raw.moves])[:2]


def _walk_ratio(lengths: Sequence[int], raw: RawPlan) -> float:
    """A raw plan's hand distance as a multiple of its span."""
    corners = corners_of(lengths)
    joints = [corners[s] for s, _ in raw.moves]
    return round(hand_distance(joints) / max(1, span(joints)), 2)


def _stays(lengths: Sequence[int], end: Sequence[Vec], raw: RawPlan, floor: int) -> bool:
    """True when no state of ``raw`` (held at ``end[0]``) has a cube below ``floor``."""
    folder = Folder(lengths, end, set())
    moves = [(folder.corners[s], q) for s, q in raw.moves]
    return all(
        c[2] >= floor for state in states_of(lengths, folder.cells(raw.start), moves) for c in state
    )


def _typed(
    solution: Solution,
    raw: RawPlan,
    held: End,
    on_table: RawPlan | None = None,
    order: str = "walk",
) -> FoldPlan:
    """The raw plan written as model moves on the snake as typed, with its start."""
    lengths = solution.snake.lengths
    end = list(solution.cells)
    n = len(end)
    searched = lengths if held == End.FIRST else lengths[::-1]
    if held == End.FIRST:
        folder = Folder(lengths, end, set(end))
        moves = [(folder.corners[s], q) for s, q in raw.moves]
        start = folder.cells(raw.start)
        frames = states_of(lengths, start, moves)
    else:
        back = Folder(lengths[::-1], end[::-1], set(end))
        # joint j of the reversed snake is joint n - j as typed, with the same quarter turns
        moves = [(n - back.corners[s], q) for s, q in raw.moves]
        start = list(end)
        for joint, q in reversed(moves):  # undo the moves from the solution
            start = apply_move(start, joint, -q)
        back_moves = [(back.corners[s], q) for s, q in raw.moves]
        frames = [f[::-1] for f in states_of(lengths[::-1], back.cells(raw.start), back_moves)]
    states = states_of(lengths, start, moves)
    clear = tuple(swing_is_clear(states[k], j, q) for k, (j, q) in enumerate(moves))
    # the fewest quarter turns from the best flat start: one per corner out of the plane
    bound = sum(v % 2 for v in Folder(lengths, end, set()).goal[1:])
    return FoldPlan(
        solution=solution,
        start=tuple(start),
        moves=tuple(moves),
        held=held,
        in_order=raw.in_order,
        lower_bound=bound,
        clear=clear,
        frames=tuple(tuple(f) for f in frames),
        table_turns=None if on_table is None else len(on_table.moves),
        table_walk=None if on_table is None else _walk_ratio(searched, on_table),
        order=order,
        fewest=raw.fewest or len(moves),
    )


def plan(
    solution: Solution,
    end: str = "best",
    nodes: int = 200_000,
    orient: bool = True,
    table: bool = True,
    order: str = "walk",
) -> FoldPlan:
    """A fold plan for ``solution`` (turned by :func:`orientation`), holding the ``first``
    or ``last`` end, or the ``best`` of the two (:func:`rank`; the first end on a tie).

    ``order`` says what the plan is for. "walk" (the default): a plan that walks along the
    chain, each joint turned near the one before, from the held end outwards or from the
    free end inwards, as the snake allows: its hand distance at most ``WALK_LIMIT`` times
    its span where one is found with at most ``WALK_EXTRA`` quarter turns more than the
    fewest found; else the shortest hand distance found, then the fewest turns. "fewest":
    the fewest quarter turns. For each end, among plans equal in that, one that keeps every
    cube on or above the table is preferred.

    Each search has a budget of ``nodes`` per end; when nothing is found and some search was
    cut short, every end is searched once more with ``RETRY`` times as many. When still
    nothing is found, the answer is a plan with ``found`` False, no moves, and its
    ``reason`` ("no plan found within N nodes per search", with ``complete`` False; or
    "there is no plan", when every search finished). Within a time limit
    (``snakecube.stop.within``: the command line's ``--seconds``) the searches stop when it
    passes: the best plan found by then, with ``complete`` False and ``reason``
    ``plans.LATE``, or none ("no plan found before the time limit"). ``orient=False`` keeps
    the solution as it is (its cells are then the plan's end); ``table=False`` skips the
    search for a plan that stays on the table. Raises InputError only for an unknown
    ``end`` or ``order``."""
    if not isinstance(solution, Solution):
        raise TypeError(f"plan() needs a Solution, not {type(solution).__name__}")
    if end not in ENDS:
        raise InputError(f"unknown end {end!r}; use one of {', '.join(ENDS)}")
    if order not in ORDERS:
        raise InputError(f"unknown order {order!r}; use one of {', '.join(ORDERS)}")
    found: list[FoldPlan] = []
    finished = True
    late = False  # the time limit (stop.within) cut a search
    ends = [
        (held, orientation(solution, held) if orient else solution)
        for held in (tuple(End) if end == "best" else (End(end),))
    ]
    for budget in (nodes, nodes * RETRY):  # Step: a deeper search only where one was cut short
        finished = True
        for held, turned in ends:
            lengths = turned.snake.lengths
            cells = list(turned.cells)
            ls = lengths if held == End.FIRST else lengths[::-1]
            ce = cells if held == End.FIRST else cells[::-1]
            raw, done, on_table, cut = _raw(ls, ce, set(cells), budget, table, order)
            finished &= done
            late |= cut
            if raw is not None:
                found.append(_typed(turned, raw, held, on_table, order))
        if found or finished or late:
            break
    if late:  # a search cut by the time limit is not the search: keep none of it for later
        _free.cache_clear()
    if not found:
        return _no_plan(ends[0][1], ends[0][0], order, finished, late, budget)
    fewest = min(p.fewest or p.quarter_turns for p in found)
    best = replace(min(found, key=rank), fewest=fewest)
    if late:
        return replace(best, complete=False, stop_reason=StopReason.SECONDS, reason=LATE)
    return best


LATE = (
    "the time limit came before the planner's searches ended: this is the best plan found "
    "by then (with more time one may walk less along the chain, or turn fewer times)"
)
INTERRUPTED = "interrupted (Ctrl-C) before the planner found a plan"


def plan_interrupted(solution: Solution, end: str = "best", order: str = "walk") -> FoldPlan:
    """What a caller of :func:`plan` answers when Ctrl-C stops it: no plan, ``stop_reason``
    "interrupted", and the solution as the plan would have held it (``end``; the first end
    for "best"), so that the solution found before is not lost. :func:`plan` itself lets
    KeyboardInterrupt pass, as every search does that is not a count."""
    held = End.FIRST if end == "best" else End(end)
    none = _no_plan(orientation(solution, held), held, order, False, False, 0)
    return replace(none, stop_reason=StopReason.INTERRUPTED, reason=INTERRUPTED)


def _no_plan(
    turned: Solution, held: End, order: str, finished: bool, late: bool, budget: int
) -> FoldPlan:
    """The answer when no plan was found, and why: the time limit came first (``late``),
    every search finished (there is none), or each used its ``budget`` of nodes."""
    if late:
        why = "no plan found before the time limit"
    elif finished:
        why = "there is no plan for this solution (every search finished)"
    else:
        why = f"no plan found within {budget:,} nodes per search"
    return FoldPlan(
        solution=turned,
        start=(),
        moves=(),
        held=held,
        in_order=False,
        lower_bound=0,
        clear=(),
        found=False,
        complete=finished and not late,
        stop_reason=StopReason.SECONDS if late else None if finished else StopReason.NODES,
        reason=why,
        order=order,
    )


def rank(p: FoldPlan) -> tuple[object, ...]:
    """Which of two plans is better, smaller first: with ``order`` "walk", how it walks
    along the chain (``planner.walk_key``: the hand distance as a multiple of the span,
    counted above ``WALK_LIMIT``, then the quarter turns), then staying on the table, then
    the hand distance; with "fewest", the quarter turns, then staying on the table. Then:
    in order, the most clear swings, the first end held."""
    walk = walk_key(p.joints) if p.order == "walk" else (p.quarter_turns, 0, 0)
    return (
        *walk[:2],
        below_table(p) != 0,  # on a tie, a plan that never lifts the snake off the table
        walk[2],
        not p.in_order,
        -p.sweep_clear,
        p.held != End.FIRST,
    )


EASIEST_RULE = (
    "the easiest to fold: the fewest quarter turns any fold plan of it needs (the turns to "
    "lay it flat without crossing itself), then the earliest"
)


def easiest_index(
    solutions: Sequence[Solution], end: str = "best", nodes: int = 200_000
) -> tuple[int, list[int]]:
    """Which of ``solutions`` is easiest to fold by hand (``EASIEST_RULE``), 0-based, and
    each one's fewest quarter turns (``fewest_bound``): milliseconds a solution, so that the
    command line, the page (in the browser too) and the sheets pick the same one."""
    if not solutions:
        raise InputError("there is no solution to fold")
    bounds = [fewest_bound(sol, end, nodes) for sol in solutions]
    return min(range(len(solutions)), key=lambda i: (bounds[i], i)), bounds


def easiest(
    solutions: Sequence[Solution], end: str = "best", nodes: int = 200_000, order: str = "walk"
) -> tuple[int, FoldPlan]:
    """Which of ``solutions`` is easiest to fold by hand (``EASIEST_RULE``), 0-based, and
    its plan."""
    k, _ = easiest_index(solutions, end, nodes)
    return k, plan(solutions[k], end, nodes, order=order)


def lower_bound(solution: Solution) -> int:
    """The fewest quarter turns any fold plan of ``solution`` needs from the best flat start:
    one per corner whose dihedral in the solution is odd (out of the plane); the same from
    either end. ``fewest_bound`` is often higher."""
    return sum(v % 2 for v in Folder(solution.snake.lengths, list(solution.cells), set()).goal[1:])


def fewest_bound(solution: Solution, end: str = "best", nodes: int = 200_000) -> int:
    """A lower bound on the quarter turns of any fold plan of ``solution`` held at ``end``:
    the quarter turns from the solution to the nearest flat state that does not cross
    itself (``planner.Flats``); at least :func:`lower_bound`, which it falls back to when
    that search would take more than ``nodes``."""
    lengths, cells = solution.snake.lengths, list(solution.cells)
    out = []
    for held in tuple(End) if end == "best" else (End(end),):
        ls, ce = (lengths, cells) if held == End.FIRST else (lengths[::-1], cells[::-1])
        try:
            out.append(Folder(ls, ce, set()).fewest_bound(nodes))
        except PlanBudgetExceeded:
            out.append(lower_bound(solution))
    return min(out)


def problems(p: FoldPlan) -> list[str]:
    """What is wrong with a plan, by replaying it (an internal check; the tests replay plans
    with their own, independent simulator)."""
    if not p.found:
        return []
    problems = []
    states = p.states()
    if not lies_flat(states[0]):
        problems.append("the start is not flat")
    for k, state in enumerate(states):
        if not is_valid(state):
            problems.append(f"state {k} has two cubes in one cell")
    if [tuple(c) for c in states[-1]] != list(p.end):
        problems.append("the last state is not the solution")
    return problems


def below_table(p: FoldPlan) -> int:
    """The first step after which a cube is lower than the table top (the start's layer,
    the held end kept still), or 0 when none is."""
    frames = p.frames or tuple(tuple(s) for s in p.states())
    floor = min(c[2] for c in frames[0])
    for k, cells in enumerate(frames):
        if any(c[2] < floor for c in cells):
            return k
    return 0


def hanging_tails(p: FoldPlan) -> list[tuple[Vec, ...]]:
    """For each instruction step (segment k placed, from the first end), where the rest of
    the snake hangs: the first state of the plan (held at its first end) in which cubes
    1..(the step's last cube) are in place."""
    if p.held != End.FIRST:
        raise InputError("hanging tails need a plan held at the first end")
    frames = p.frames or tuple(tuple(s) for s in p.states())
    end = p.end
    out, last = [], 0
    for k, n in enumerate(p.solution.snake.lengths):
        last = n - 1 if k == 0 else last + n - 1
        frame = next(f for f in frames if list(f[: last + 1]) == list(end[: last + 1]))
        out.append(tuple(frame[last + 1 :]))
    return out
