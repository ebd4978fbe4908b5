"""An independent checker for solutions. It shares no code with the search.

It works on plain coordinates: the target's set of cells and the snake's segment lengths,
and checks the physical rules directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise


class InvalidSolution(Exception):
    """A proposed solution breaks a rule; the message says which and where."""


def violations(
    lengths: Sequence[int], target: Iterable[Sequence[int]], cells: Sequence[Sequence[int]]
) -> list[str]:
    """Every rule the proposed ``cells`` (in snake order) break; empty when it is a solution.

    >>> violations([2, 2], [(0, 0, 0), (1, 0, 0), (1, 1, 0)], [(0, 0, 0), (1, 0, 0), (1, 1, 0)])
    []
    >>> violations([3], [(0, 0, 0), (1, 0, 0), (1, 1, 0)], [(0, 0, 0), (1, 0, 0), (1, 1, 0)])
    ['cube 2 is straight but the path turns there']
    """
    found: list[str] = []
    room = target if isinstance(target, frozenset) else frozenset(map(tuple, target))
    path = [tuple(c) for c in cells]
    n_cubes = sum(lengths) - len(lengths) + 1
    if len(path) != n_cubes:
        found.append(f"the path has {len(path)} cells but the snake has {n_cubes} cubes")
    if len(room) != n_cubes:
        found.append(f"the target has {len(room)} cells but the snake has {n_cubes} cubes")
    if any(len(c) != 3 for c in path):
        return [*found, "every cube needs 3 coordinates"]
    if len(set(path)) != len(path) or not room.issuperset(path):
        seen: dict[tuple[int, ...], int] = {}
        for i, c in enumerate(path, 1):
            if c not in room:
                found.append(f"cube {i} at {list(c)} is outside the target")
            if c in seen:
                found.append(f"cube {i} at {list(c)} lands where cube {seen[c]} already is")
            seen.setdefault(c, i)
    if found:
        return found
    steps = [(b[0] - a[0], b[1] - a[1], b[2] - a[2]) for a, b in pairwise(path)]
    for i, (dx, dy, dz) in enumerate(steps, 1):
        gap = abs(dx) + abs(dy) + abs(dz)
        if gap != 1:
            found.append(f"cubes {i} and {i + 1} are not neighbours (distance {gap})")
    if found:
        return found
    corner_at = set()
    position = 1  # 1-based cube number of the current segment's first cube
    for n in lengths[:-1]:
        position += n - 1
        corner_at.add(position)
    for i in range(2, len(path)):  # cube i (1-based) sits between steps i-2 and i-1
        before, after = steps[i - 2], steps[i - 1]
        if before == after:
            if i in corner_at:
                found.append(f"cube {i} is a corner but the path goes straight through it")
        elif before[0] * after[0] + before[1] * after[1] + before[2] * after[2]:
            found.append(f"cube {i} bends back on itself")
        elif i not in corner_at:
            found.append(f"cube {i} is straight but the path turns there")
    return found


def verify(
    lengths: Sequence[int], target: Iterable[Sequence[int]], cells: Sequence[Sequence[int]]
) -> None:
    """Raise :class:`InvalidSolution` naming the first broken rule, if any."""
    broken = violations(lengths, target, cells)
    if broken:
        raise InvalidSolution("; ".join(broken))
