"""An independent simulator of fold plans: it shares no code with snakecube's planner.

It reads the plan's JSON (start, moves, end) and replays it by the model's own words:
cube k sits at cells[k-1]; a move {joint i, quarter_turns q} turns cubes i+1..n by q x 90°
about the line through the centres of cubes i and i+1, right-handed about the direction
from cube i to cube i+1. Every state must be valid: consecutive cubes face neighbours, no two
cubes in one cell, every straight cube with its neighbours on opposite sides, every corner
turning 90°. The start must be flat, the end the solution. Rotations use 3x3 integer
matrices built from the axis, not snakecube's cross products.
"""

from __future__ import annotations

import itertools
import math


def _matrix(axis: tuple[int, int, int], q: int) -> list[list[int]]:
    """Rodrigues' rotation matrix for q quarter turns about a unit axis (integers)."""
    angle = q * math.pi / 2
    c, s = round(math.cos(angle)), round(math.sin(angle))
    x, y, z = axis
    return [
        [c + x * x * (1 - c), x * y * (1 - c) - z * s, x * z * (1 - c) + y * s],
        [y * x * (1 - c) + z * s, c + y * y * (1 - c), y * z * (1 - c) - x * s],
        [z * x * (1 - c) - y * s, z * y * (1 - c) + x * s, c + z * z * (1 - c)],
    ]


def move(cells: list[tuple[int, int, int]], joint: int, q: int) -> list[tuple[int, int, int]]:
    """The configuration after one move."""
    assert q in (1, -1), f"a move turns a quarter, not {q}"
    assert 1 <= joint < len(cells), f"joint {joint} is not between two cubes"
    a, b = cells[joint - 1], cells[joint]
    axis = tuple(b[k] - a[k] for k in range(3))
    assert sorted(map(abs, axis)) == [0, 0, 1], "cubes joint and joint+1 are not neighbours"
    m = _matrix(axis, q)  # type: ignore[arg-type]
    out = list(cells[:joint])
    for p in cells[joint:]:
        v = [p[k] - a[k] for k in range(3)]
        w = [sum(m[r][k] * v[k] for k in range(3)) for r in range(3)]
        out.append((a[0] + w[0], a[1] + w[1], a[2] + w[2]))
    return out


def problems(cells: list[tuple[int, int, int]], corners: set[int]) -> list[str]:
    """Broken rules of one configuration (corners: 1-based numbers of the corner cubes)."""
    found = []
    if len(set(cells)) != len(cells):
        found.append("two cubes share a cell")
    steps = [tuple(q[k] - p[k] for k in range(3)) for p, q in itertools.pairwise(cells)]
    for i, st in enumerate(steps, 1):
        if sum(map(abs, st)) != 1:
            found.append(f"cubes {i} and {i + 1} are not face neighbours")
    for k in range(2, len(cells)):  # cube k (1-based) sits between steps k-2 and k-1
        before, after = steps[k - 2], steps[k - 1]
        if k in corners:
            if sum(x * y for x, y in zip(before, after, strict=True)) != 0:
                found.append(f"corner cube {k} does not turn 90 degrees")
        elif before != after:
            found.append(f"straight cube {k} has its neighbours not on opposite sides")
    return found


def replay(plan: dict, lengths: list[int], target: set[tuple[int, int, int]]) -> list[list]:
    """Replay a plan (its JSON); raise AssertionError naming the first broken rule.
    Returns every state."""
    corners, at = set(), 1
    for n in lengths[:-1]:
        at += n - 1
        corners.add(at)
    state = [tuple(c) for c in plan["start"]]
    assert any(len({c[k] for c in state}) == 1 for k in range(3)), "the start is not flat"
    states = [state]
    assert not problems(state, corners), ("start", problems(state, corners))
    for number, mv in enumerate(plan["moves"], 1):
        state = move(state, mv["joint"], mv["quarter_turns"])
        assert not problems(state, corners), (f"after move {number}", problems(state, corners))
        states.append(state)
    assert state == [tuple(c) for c in plan["end"]], "the last state is not the plan's end"
    assert set(state) == target, "the end does not fill the target"
    assert plan["quarter_turns"] == sum(abs(m["quarter_turns"]) for m in plan["moves"])
    return states


def ball_sweep_clear(before: list, joint: int, q: int, samples: int = 90) -> bool:
    """The swing of a move, sampled: no moving ball (diameter 1) closer than 1 to a still one."""
    a, b = before[joint - 1], before[joint]
    axis = tuple(b[k] - a[k] for k in range(3))
    still = before[: joint + 1]
    for t in range(samples + 1):
        angle = q * (math.pi / 2) * t / samples
        c, s = math.cos(angle), math.sin(angle)
        x, y, z = axis
        m = [
            [c + x * x * (1 - c), x * y * (1 - c) - z * s, x * z * (1 - c) + y * s],
            [y * x * (1 - c) + z * s, c + y * y * (1 - c), y * z * (1 - c) - x * s],
            [z * x * (1 - c) - y * s, z * y * (1 - c) + x * s, c + z * z * (1 - c)],
        ]
        for p in before[joint + 1 :]:
            v = [p[k] - a[k] for k in range(3)]
            w = [a[r] + sum(m[r][k] * v[k] for k in range(3)) for r in range(3)]
            for o in still:
                if math.dist(w, o) < 1 - 1e-6:
                    return False
    return True
