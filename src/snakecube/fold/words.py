"""Fold plans in words, for a person with the real chain in hand: it has no numbers.

A step names its joint the way a person finds it on an unnumbered chain: every joint a plan
turns sits right before a **corner** (a cube where the chain bends, in every state), so the
words count corners, from the last corner turned or from an end, whichever is fewer, and say
the two runs (straight stretches) that meet there as a check. The hands are said in the
hand's terms (the cube before the corner and everything back to the end you hold stay still;
the corner cube and everything beyond it turn), which way in the instructions' table words
(``frame.TABLE``), and the cube numbers of the pictures only in brackets, to check by. Two
quarter turns of one joint in a row are one step, a half turn. A step that jumps back along
the chain says so, and why (``jump_words``).
"""

from __future__ import annotations

from collections.abc import Sequence

from snakecube.fold.model import Vec, apply_move, is_valid, near_swing
from snakecube.fold.plans import FoldPlan, below_table
from snakecube.frame import TABLE
from snakecube.snake import End, end_words

JUMP = 2  # corners: a step further back than this, against the way the plan walks, is a jump
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def _way(v: Sequence[int]) -> str:
    return TABLE[(v[0], v[1], v[2])]


def ordinal(k: int) -> str:
    """'1st', '2nd', '3rd', '4th', ... '11th', '21st'.

    >>> [ordinal(k) for k in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    if 10 <= k % 100 <= 20:
        return f"{k}th"
    return ORDINALS.get(k % 10, f"{k}th").replace(str(k % 10), str(k), 1)


def grip(p: FoldPlan, joint: int) -> tuple[range, int, range]:
    """For a move at ``joint`` (cubes joint and joint+1, 1-based): the cubes held still, the
    cube that turns on the joint (a corner: it spins in place on the turning line), and every
    cube that turns with it."""
    n = len(p.end)
    if p.held == End.FIRST:
        return range(1, joint + 1), joint + 1, range(joint + 1, n + 1)
    return range(joint + 1, n + 1), joint, range(1, joint + 1)


def corners_from_held(p: FoldPlan) -> list[int]:
    """The corner cubes (1-based), counted from the end the person holds."""
    out, at = [], 1
    for m in p.solution.snake.lengths[:-1]:
        at += m - 1
        out.append(at)
    return out if p.held == End.FIRST else out[::-1]


def _runs_at(p: FoldPlan, corner: int) -> tuple[int, int]:
    """The lengths of the two runs that meet at a corner cube (1-based): the one on the held
    side first."""
    at, lengths = 1, p.solution.snake.lengths
    for k, m in enumerate(lengths[:-1]):
        at += m - 1
        if at == corner:
            pair = (m, lengths[k + 1])
            return pair if p.held == End.FIRST else (pair[1], pair[0])
    raise ValueError(f"cube {corner} is not a corner")


def find_words(p: FoldPlan, step: int) -> str:
    """Where step ``step``'s corner is (0-based among ``p.steps()``), counted on the chain:
    in corners from the corner turned last, or from the end held or the loose end when that
    is fewer; then the runs that meet there, to check."""
    steps = p.steps()
    corners = corners_from_held(p)
    rank = corners.index(grip(p, steps[step][0])[1])  # 0-based, from the held end
    near, far = _runs_at(p, corners[rank])
    runs = f"a run of {near} cubes meets one of {far} there"
    counts = [(rank + 1, "held"), (len(corners) - rank, "loose")]
    if step > 0:
        last = corners.index(grip(p, steps[step - 1][0])[1])
        if last == rank:
            return f"the same corner as in the step before ({runs})"
        counts.insert(0, (abs(rank - last), "last"))
    count, where = min(counts, key=lambda c: c[0])
    if where == "held":
        return f"the {ordinal(count)} corner from the end you hold ({runs})"
    if where == "loose":
        return f"the {ordinal(count)} corner from the loose end ({runs})"
    way = "on towards the loose end" if rank > last else "back towards the end you hold"
    said = "the next corner" if count == 1 else f"the {ordinal(count)} corner"
    return f"{said} {way}, from the corner you turned last ({runs})"


def start_words(p: FoldPlan) -> list[str]:
    """The start: how the snake lies flat (a short list, one line per run), which end to
    hold, how to count corners, and where the table is."""
    lengths = p.solution.snake.lengths
    frames = p.frames or tuple(tuple(s) for s in p.states())
    lines = ["Start: lay the snake flat on the table, seen from above, as the start picture shows:"]
    at = 0
    order = range(len(lengths)) if p.held == End.FIRST else range(len(lengths) - 1, -1, -1)
    ends = []
    for m in lengths:
        ends.append((at, at + m - 1))
        at += m - 1
    for k, s in enumerate(order, 1):
        a, b = ends[s] if p.held == End.FIRST else ends[s][::-1]
        way = [frames[0][a + (1 if b > a else -1)][i] - frames[0][a][i] for i in range(3)]
        lines.append(f"  run {k}, {lengths[s]} cubes: {_way(way)} (cubes {a + 1}-{b + 1})")
    lines.append(held_words(p))
    lines.append(
        "A corner is a cube where the chain bends; the steps find each joint by counting "
        "corners, and the cube numbers in brackets and on the pictures are only there to check."
    )
    lines.append(table_words(p))
    return lines


def held_words(p: FoldPlan) -> str:
    """Which end to hold, told by the runs a person counts from it (the fewest that tell
    the two ends apart)."""
    lengths = p.solution.snake.lengths
    cube = "cube 1" if p.held == End.FIRST else f"cube {len(p.end)}"
    told = end_words(lengths if p.held == End.FIRST else lengths[::-1], "run")
    if told is None:
        return (
            f"Hold either end in your left hand (the snake reads the same from both ends); it "
            f"stays where it is until the end [{cube}]."
        )
    return f"Hold in your left hand the end {told}; it stays where it is until the end [{cube}]."


def table_words(p: FoldPlan) -> str:
    """Where the snake is while folding, and why (the planner prefers, among plans that walk
    as well, one that keeps every cube on or above the table)."""
    k = below_table(p)
    if k == 0:
        return (
            "The snake stays on the table: no step moves a cube below the table top (of the "
            "plans found, one that stays on the table was chosen)."
        )
    if p.table_turns is None:
        why = "no plan found that stays on the table"
    elif p.order == "walk" and p.table_turns <= p.quarter_turns:
        why = (
            f"the plan found that stays on the table moves your hand "
            f"{p.table_walk:g} times as far along the chain"
        )
    else:
        why = (
            f"staying on the table takes {p.table_turns} quarter turns instead of {p.quarter_turns}"
        )
    return (
        f"Before step {lifted_at(p)}, lift the snake off the table and go on in the "
        f"air: then cubes swing below the level of the table top, so they would hit the table "
        f"({why})."
    )


def lifted_at(p: FoldPlan) -> int:
    """The step (1-based) before which the snake is lifted off the table, or 0 when it stays
    on the table."""
    k = below_table(p)
    return _step_of(p, k - 1) + 1 if k else 0


def lift_words(p: FoldPlan, step: int) -> str:
    """'' or, at the step (0-based) that first swings a cube below the table top, the words
    that say to lift the snake first, said where it is needed (the start says it too)."""
    if lifted_at(p) != step + 1:
        return ""
    return (
        "first lift the snake off the table and go on in the air from here: this turn swings "
        "cubes below the table top. Then find "
    )


def _step_of(p: FoldPlan, move: int) -> int:
    """The step (0-based) that makes move ``move`` (0-based)."""
    return max(k for k, (_j, _q, first) in enumerate(p.steps()) if first <= move)


def order_words(p: FoldPlan) -> str:
    """How the steps go along the chain, in one plain sentence."""
    steps = p.steps()
    corners = corners_from_held(p)
    ranks = [corners.index(grip(p, j)[1]) for j, _q, _k in steps]
    if len(ranks) < 2:
        return "There is one step."
    out = ranks[-1] >= ranks[0]
    way = (
        "from the end you hold outwards"
        if out
        else "from the loose end back towards the end you hold"
    )
    jumps = sum(1 for k in range(1, len(steps)) if jump_words(p, k))
    said = (
        "each joint a few corners from the one before"
        if not jumps
        else f"with {jumps} jump{'s' if jumps > 1 else ''} back, each said at its step"
    )
    return f"The steps walk along the chain {way}, {said}."


def _walks_out(p: FoldPlan) -> bool:
    corners = corners_from_held(p)
    steps = p.steps()
    return corners.index(grip(p, steps[-1][0])[1]) >= corners.index(grip(p, steps[0][0])[1])


def jump_words(p: FoldPlan, step: int) -> str:
    """'' or, for a step that goes back along the chain more than ``JUMP`` corners against
    the way the plan walks, a sentence that says so and why: its joint was turned before to
    make way, or turning it when the hand passed it would have made the snake run into
    itself (then, or at a later step, named), or no shorter walk was found."""
    steps = p.steps()
    if step == 0:
        return ""
    corners = corners_from_held(p)
    rank = [corners.index(grip(p, j)[1]) for j, _q, _k in steps]
    out = _walks_out(p)
    back = rank[step - 1] - rank[step] if out else rank[step] - rank[step - 1]
    if back <= JUMP:
        return ""
    joint, q, first = steps[step]
    towards = "the end you hold" if out else "the loose end"
    head = f"A jump: this corner is {back} corners back towards {towards}"
    before = [k for k in range(step) if steps[k][0] == joint]
    if before:
        return (
            f"{head}. It was turned at step {before[-1] + 1} so that the snake could pass, "
            "and now it turns on towards its place."
        )
    # the step where the hand first went past this corner
    passed = next(k for k in range(step) if (rank[k] > rank[step] if out else rank[k] < rank[step]))
    frames = p.frames or tuple(tuple(s) for s in p.states())
    moves = p.moves
    start = steps[passed][2]
    state = apply_move(frames[start], joint, 1 if q > 0 else -1)
    if not is_valid(state):
        return (
            f"{head}. Turned when your hand passed it, before step {passed + 1}, the snake "
            "would have run into itself."
        )
    for k in range(start, first):
        state = apply_move(state, *moves[k])
        if not is_valid(state):
            return (
                f"{head}. Turned when your hand passed it, before step {passed + 1}, it would "
                f"have made the snake run into itself at step {_step_of(p, k) + 1}."
            )
    return (
        f"{head}: the planner found no walk of as few quarter turns that turns it when your "
        f"hand passes it, before step {passed + 1}."
    )


def step_words(p: FoldPlan, step: int) -> str:
    """One step (0-based among ``p.steps()``) as a person makes it: where the joint is,
    which hand holds what, which way to turn and how far, and where the next run then
    points; a jump and a close swing said; the cube numbers in brackets, to check."""
    frames = p.frames or tuple(tuple(s) for s in p.states())
    joint, q, first = p.steps()[step]
    quarters = abs(q)
    before, after = frames[first], frames[first + quarters]
    _held, turned, _moving = grip(p, joint)
    n = len(p.end)
    a = joint if p.held == End.FIRST else joint + 1  # the cube held at the joint
    b = turned
    nxt = b + 1 if p.held == End.FIRST else b - 1  # the first cube of the next run
    axis = [before[b - 1][i] - before[a - 1][i] for i in range(3)]
    points = [after[nxt - 1][i] - after[b - 1][i] for i in range(3)] if 1 <= nxt <= n else None
    corners = corners_from_held(p)
    rank = corners.index(b)
    beyond = corners[rank + 1] if rank + 1 < len(corners) else (n if p.held == End.FIRST else 1)
    run = abs(beyond - b) + 1
    way = "clockwise" if q > 0 else "anticlockwise"
    turn = "a quarter turn" if quarters == 1 else "a half turn (two quarter turns)"
    then = f"; the next run ({run} cubes) then points {_way(points)}" if points else ""
    close = close_cubes(p, step)
    careful = (
        f"Go slowly: the turning cubes pass close to cubes already in place [{_cubes(close)}]."
        if close
        else ""
    )
    text = (
        f"Step {step + 1}: {lift_words(p, step)}{find_words(p, step)}. Left hand: hold the "
        f"cube before that corner still (your side of it). Right hand: turn the corner cube, "
        f"and all beyond it, {turn} {way} as you see it looking along the chain into the "
        f"corner (you look "
        f"{_way(axis).replace('to the ', '')}){then}. [cubes {a} | {b}]"
    )
    return " ".join(filter(None, [text, jump_words(p, step), careful]))


def steps_in_words(p: FoldPlan) -> list[str]:
    """The plan as a person does it: the start (a flat layout, which end to hold, where the
    table is), then one line per step, then how the steps go along the chain."""
    if not p.found:
        return [f"No fold plan: {p.reason}."]
    lines = start_words(p)
    lines += [step_words(p, k) for k in range(len(p.steps()))]
    lines.append(order_words(p))
    return lines


def close_cubes(p: FoldPlan, step: int) -> list[int]:
    """The cubes (1-based) already in place that step ``step``'s (0-based) turning cubes
    pass within a cube's width of: the words say to go slowly, the pictures number them."""
    frames = p.frames or tuple(tuple(s) for s in p.states())
    joint, q, first = p.steps()[step]
    return sorted({c for k in range(abs(q)) for c in _close(frames[first + k], joint, q, p.held)})


def _close(cells: Sequence[Vec], joint: int, q: int, held: End) -> list[int]:
    """The cubes (1-based) that stay still which the swing of the quarter turn passes within
    a cube's width of (the model's still side when the first end is held, its moving side
    when the last end is: the same relative motion)."""
    pairs = near_swing(cells, joint, 1 if q > 0 else -1)
    return sorted({(s if held == End.FIRST else m) + 1 for s, m in pairs})


def _cubes(names: Sequence[int]) -> str:
    """'cube 4' or 'cubes 4, 5 and 7'."""
    if len(names) == 1:
        return f"cube {names[0]}"
    return "cubes " + ", ".join(map(str, names[:-1])) + f" and {names[-1]}"
