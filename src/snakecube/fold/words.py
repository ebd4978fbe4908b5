"""Fold plans in words: the start, one line per quarter turn (the cubes held, the joint, the
cube that turns, which way), and where the snake is while folding, in the instructions'
table words (``frame.TABLE``)."""

from __future__ import annotations

from collections.abc import Sequence

from snakecube.fold.model import Vec, near_swing
from snakecube.fold.plans import FoldPlan, below_table
from snakecube.frame import TABLE
from snakecube.snake import End, which_end


def _way(v: Sequence[int]) -> str:
    return TABLE[(v[0], v[1], v[2])]


def _runs(cells: Sequence[Vec], lengths: Sequence[int]) -> list[str]:
    """'cubes 1-3 to the right' for each segment of a configuration."""
    out, at = [], 0
    for n in lengths:
        a, b = cells[at], cells[at + 1]
        out.append(f"cubes {at + 1}-{at + n} {_way([b[k] - a[k] for k in range(3)])}")
        at += n - 1
    return out


def grip(p: FoldPlan, joint: int) -> tuple[range, int, range]:
    """For a move at ``joint`` (cubes joint and joint+1, 1-based): the cubes held still, the
    cube that turns on the joint (it spins in place on the turning line), and every cube that
    turns with it."""
    n = len(p.end)
    if p.held == End.FIRST:
        return range(1, joint + 1), joint + 1, range(joint + 1, n + 1)
    return range(joint + 1, n + 1), joint, range(1, joint + 1)


def start_words(p: FoldPlan) -> list[str]:
    """The start: how the snake lies flat (a short list, one line per segment) and where the
    table is."""
    lengths = p.solution.snake.lengths
    frames = p.frames or tuple(tuple(s) for s in p.states())
    n = len(p.end)
    held = "cube 1" if p.held == End.FIRST else f"cube {n}"
    lines = ["Start: lay the snake flat on the table, seen from above, as the start picture shows:"]
    out, at = [], 0
    for m in lengths:
        a, b = frames[0][at], frames[0][at + 1]
        out.append(f"  cubes {at + 1}-{at + m}: {_way([b[k] - a[k] for k in range(3)])}")
        at += m - 1
    lines += out
    lines.append(f"Hold {held} in your left hand; it stays where it is until the end.")
    lines.append(which_end(p.solution.snake))
    lines.append(table_words(p))
    return lines


def table_words(p: FoldPlan) -> str:
    """Where the snake is while folding, and why (the planner prefers, among plans of the
    fewest quarter turns it found, one that keeps every cube on or above the table)."""
    k = below_table(p)
    if k == 0:
        return (
            "The snake stays on the table: no step moves a cube below the table top (of the "
            "plans with the fewest quarter turns, one that stays on the table was chosen)."
        )
    why = (
        "no plan found that stays on the table"
        if p.table_turns is None
        else f"staying on the table takes {p.table_turns} quarter turns instead of "
        f"{p.quarter_turns}"
    )
    return (
        f"Before step {k}, lift the snake off the table and go on in the air: in step {k} "
        f"cubes swing below the level of the table top, so they would hit the table ({why})."
    )


def order_words(p: FoldPlan) -> str:
    """Whether the steps follow the sheet's order (segments placed one by one from the held
    end), and if not, why, in one plain sentence."""
    if p.in_order:
        return "The steps place the segments one after another, in the order of the sheet."
    return (
        "Some steps turn a joint further along the snake before an earlier one: done in the "
        "sheet's order, the loose end of the snake would run into cubes already in place."
    )


def steps_in_words(p: FoldPlan) -> list[str]:
    """The plan as a person does it, in the instructions' table words: the start (a flat
    layout, where the table is), then one line per quarter turn naming the cubes held, the
    joint (the two cubes it lies between) and the cube that turns, which way, and where the
    turned cubes then point."""
    if not p.found:
        return [f"No fold plan: {p.reason}."]
    lengths = p.solution.snake.lengths
    n = len(p.end)
    frames = p.frames or tuple(tuple(s) for s in p.states())
    lines = start_words(p)
    corners = set()
    at = 1
    for m in lengths[:-1]:
        at += m - 1
        corners.add(at)
    for k, ((joint, q), clear) in enumerate(zip(p.moves, p.clear, strict=True), 1):
        before, after = frames[k - 1], frames[k]
        held, turned, _ = grip(p, joint)
        way = "clockwise" if q > 0 else "anticlockwise"
        if p.held == End.FIRST:
            a, b = joint, joint + 1  # seen from the held cube next to the joint
            nxt = min((c for c in corners if c > b), default=n)
            swung = f"cubes {b + 1}-{nxt}" if nxt > b + 1 else f"cube {b + 1}"
            direction = [after[b][i] - after[b - 1][i] for i in range(3)]
            rest = "everything after it"
        else:
            a, b = joint + 1, joint
            prev = max((c for c in corners if c < b), default=1)
            swung = f"cubes {prev}-{b - 1}" if prev < b - 1 else f"cube {b - 1}"
            direction = [after[b - 2][i] - after[b - 1][i] for i in range(3)]
            rest = "everything before it"
        axis = [before[b - 1][i] - before[a - 1][i] for i in range(3)]
        careful = (
            ""
            if clear
            else f" Go slowly: the turning cubes pass close to cube"
            f"{_close(before, joint, q, p.held)}."
        )
        verb = "go" if swung.startswith("cubes") else "goes"
        lines.append(
            f"Step {k}: hold cubes {held[0]}-{held[-1]} in your left hand; turn cube {turned} "
            f"and {rest} a quarter turn {way} about the joint between cubes {min(a, b)} and "
            f"{max(a, b)}, "
            f"as seen looking from cube {a} to cube {b} "
            f"({_way(axis).replace('to the ', '')}); {swung} then {verb} {_way(direction)}."
            f"{careful}"
        )
    lines.append(order_words(p))
    return lines


def _close(cells: Sequence[Vec], joint: int, q: int, held: str) -> str:
    """' 4' or 's 4 and 7': the cubes that stay still which the swing passes within a cube's
    width of (the model's still side when the first end is held, its moving side when the
    last end is: the same relative motion)."""
    pairs = near_swing(cells, joint, q)
    names = sorted({(s if held == End.FIRST else m) + 1 for s, m in pairs})
    if not names:
        return "s already in place"
    if len(names) == 1:
        return f" {names[0]}"
    return "s " + ", ".join(map(str, names[:-1])) + f" and {names[-1]}"
