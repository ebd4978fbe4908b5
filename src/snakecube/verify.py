"""An independent checker for solutions. It shares no code with the search.

It works on plain coordinates: the target's set of cells and the snake's segment lengths,
and checks the physical rules directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class InvalidSolution(Exception):
    """A proposed solution breaks a rule; the message says which and where."""


def problems(
    lengths: Sequence[int], target: Iterable[Sequence[int]], cells: Sequence[Sequence[int]]
) -> list[str]:
    """Every rule the proposed ``cells`` (in snake order) break; empty when it is a solution.

    >>> problems([2, 2], [(0, 0, 0), (1, 0, 0), (1, 1, 0)], [(0, 0, 0), (1, 0, 0), (1, 1, 0)])
    []
    >>> problems([3], [(0, 0, 0), (1, 0, 0), (1, 1, 0)], [(0, 0, 0), (1, 0, 0), (1, 1, 0)])
    ['cube 2 is straight but the path turns there']
    """
    found: list[str] = []
    room = {tuple(int(v) for v in c) for c in target}
    path = [tuple(int(v) for v in c) for c in cells]
    n_cubes = sum(lengths) - len(lengths) + 1
    if len(path) != n_cubes:
        found.append(f"the path has {len(path)} cells but the snake has {n_cubes} cubes")
    if len(room) != n_cubes:
        found.append(f"the target has {len(room)} cells but the snake has {n_cubes} cubes")
    seen: dict[tuple[int, ...], int] = {}
    for i, c in enumerate(path, 1):
        if len(c) != 3:
            found.append(f"cube {i} has {len(c)} coordinates, not 3")
            continue
        if c not in room:
            found.append(f"cube {i} at {list(c)} is outside the target")
        if c in seen:
            found.append(f"cube {i} at {list(c)} lands where cube {seen[c]} already is")
        seen.setdefault(c, i)
    if found:
        return found
    for i in range(1, len(path)):
        gap = sum(abs(a - b) for a, b in zip(path[i], path[i - 1], strict=True))
        if gap != 1:
            found.append(f"cubes {i} and {i + 1} are not neighbours (distance {gap})")
    if found:
        return found
    corner_at = set()
    position = 1  # 1-based cube number of the current segment's first cube
    for n in lengths[:-1]:
        position += n - 1
        corner_at.add(position)
    for i in range(2, len(path)):  # cube i (1-based) sits between path[i-2] and path[i]
        before = [a - b for a, b in zip(path[i - 1], path[i - 2], strict=True)]
        after = [a - b for a, b in zip(path[i], path[i - 1], strict=True)]
        turns = before != after
        if turns and sum(a * b for a, b in zip(before, after, strict=True)) != 0:
            found.append(f"cube {i} bends back on itself")
        elif turns and i not in corner_at:
            found.append(f"cube {i} is straight but the path turns there")
        elif not turns and i in corner_at:
            found.append(f"cube {i} is a corner but the path goes straight through it")
    return found


def verify(
    lengths: Sequence[int], target: Iterable[Sequence[int]], cells: Sequence[Sequence[int]]
) -> None:
    """Raise :class:`InvalidSolution` naming the first broken rule, if any."""
    broken = problems(lengths, target, cells)
    if broken:
        raise InvalidSolution("; ".join(broken))
