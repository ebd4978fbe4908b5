"""Text forms of results and solutions: counts, layers with cube numbers, segment directions."""

from __future__ import annotations

from snakecube.shape import VECTORS
from snakecube.solution import Result, Solution

COORDS_NOTE = "coordinates are 0-based (x, y, z); cubes are numbered 1..n from the first end"


def _plural(n: int, one: str, many: str) -> str:
    """'1 segment', '17 segments'."""
    return f"{n} {one if n == 1 else many}"


def layers(solution: Solution, width: int = 100) -> str:
    """The folded cube as layers z = 0, 1, ...: rows y top to bottom, columns x, cube numbers.

    Cells outside the region show as ``.``. Layers stand side by side while they fit in
    ``width`` characters.
    """
    number = {c: i for i, c in enumerate(solution.cells, 1)}
    a, b, c = solution.region.dims
    cell_w = len(str(len(number)))
    blocks = []
    for z in range(c):
        rows = [
            " ".join(str(number.get((x, y, z), ".")).rjust(cell_w) for x in range(a))
            for y in range(b)
        ]
        title = f"z={z}".ljust(len(rows[0]))
        blocks.append([title, *rows])
    block_w = len(blocks[0][1])
    per_line = max(1, (width + 3) // (block_w + 3))
    out = []
    for i in range(0, len(blocks), per_line):
        group = blocks[i : i + per_line]
        for r in range(b + 1):
            out.append("   ".join(block[r].ljust(block_w) for block in group).rstrip())
        out.append("")
    return "\n".join(out).rstrip("\n")


def directions(solution: Solution, style: str = "signs") -> str:
    """Each segment's direction, numbered: ``1:+x 2:+y 3:-x ...``."""
    names = solution.direction_names(style)
    return " ".join(f"{i}:{n}" for i, n in enumerate(names, 1))


TURNS = ("up", "right", "down", "left")
CLOCK = {"up": 12, "right": 3, "down": 6, "left": 9}


def _cross(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _neg(a: tuple[int, int, int]) -> tuple[int, int, int]:
    return (-a[0], -a[1], -a[2])


def relative_turns(solution: Solution) -> list[str]:
    """Each segment's turn relative to the one before: up, down, left or right.

    The frame travels with the snake, like a pilot's: "forward" is the way the last segment
    points, and the first two segments fix "up" (segment 2 turns up by definition). After a
    turn the frame rotates with it, so a person holding the last segment can follow the
    words without looking at coordinates (seeds/002's clock turns: up = 12 o'clock,
    right = 3, down = 6, left = 9). Segment 1 is "start".

    >>> import snakecube as sc
    >>> relative_turns(next(sc.solutions("standard")))[:5]
    ['start', 'up', 'up', 'right', 'right']
    """
    dirs = [VECTORS[d] for d in solution.directions]
    if len(dirs) < 2:
        return ["start"][: len(dirs)]
    forward, up = dirs[0], dirs[1]
    out = ["start"]
    for d in dirs[1:]:
        right = _cross(forward, up)
        if d == up:
            out.append("up")
            forward, up = up, _neg(forward)
        elif d == _neg(up):
            out.append("down")
            forward, up = _neg(up), forward
        elif d == right:
            out.append("right")
            forward = right
        else:
            out.append("left")
            forward = _neg(right)
    return out


def instructions(solution: Solution) -> str:
    """Numbered folding steps a person can follow with the snake in hand."""
    turns = relative_turns(solution)
    lengths = solution.snake.lengths
    names = solution.direction_names()
    first = 1
    lines = [
        "Hold cube 1. Each step places one segment; 'up', 'down', 'left' and 'right' are",
        "relative to the segment just placed, seen from behind it looking along it, with",
        "'up' fixed by step 2. (Clock: up 12, right 3, down 6, left 9.)",
    ]
    for k, (turn, n) in enumerate(zip(turns, lengths, strict=True), 1):
        last = first + n - 1
        cubes = f"cubes {first}-{last}"
        if turn == "start":
            what = f"lay {cubes} in a straight line pointing away from you"
        elif k == 2:
            what = f"turn up at cube {first}: {cubes}"
        else:
            what = f"turn {turn} ({CLOCK[turn]} o'clock) at cube {first}: {cubes}"
        lines.append(f"{k:3}. {what}   [{names[k - 1]}]")
        first = last
    return "\n".join(lines)


def show(solution: Solution, style: str = "signs") -> str:
    """Every text form of one solution: layers, absolute directions, relative steps."""
    return "\n".join(
        [
            COORDS_NOTE,
            "",
            "layers (cube numbers; rows y top to bottom, columns x, one block per z):",
            layers(solution),
            "",
            "segment directions:  " + directions(solution, style),
            "",
            instructions(solution),
        ]
    )


def summary(result: Result) -> str:
    """The counts, as a few aligned lines."""
    snake, region = result.snake, result.region
    lower = "" if result.complete else " (at least; the search stopped early)"
    rows = [
        (
            "snake",
            f"{snake.turns()}  ({_plural(snake.cubes, 'cube', 'cubes')}, "
            f"{_plural(snake.segments, 'segment', 'segments')})",
        ),
        (
            "target",
            f"{region.describe()}, {region.volume} cells, "
            f"{_plural(result.symmetry_count, 'symmetry', 'symmetries')}",
        ),
    ]
    if result.fixed:
        rows.append(("fixed start", "yes: counts are of placements that begin as given"))
    rows += [
        ("placements", f"{result.placements}{lower}"),
        ("distinct", f"{result.distinct}{lower}"),
        ("distinct up to reversal", f"{result.distinct_up_to_reversal}{lower}"),
        ("complete", "yes" if result.complete else f"no ({_why(result.stop_reason)})"),
    ]
    starts = ", ".join(
        f"{s.kind} {list(s.cell)} x{s.size}: {s.distinct}" for s in result.start_classes
    )
    rows.append(("solutions by start cell", starts))
    rows.append(
        (
            "search",
            f"{result.nodes} nodes in {result.seconds:.3f} s ({result.engine} engine, "
            f"{result.workers} process{'es' if result.workers > 1 else ''})",
        )
    )
    w = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(w)}  {v}" for k, v in rows)


def _why(reason: str | None) -> str:
    return {
        "limit": "stopped at the solution limit",
        "seconds": "stopped at the time limit",
        "interrupted": "interrupted",
        "nodes": "stopped at the node limit",
    }.get(reason or "", reason or "")


def report(result: Result, style: str = "signs") -> str:
    """The whole text answer: counts, then each distinct solution's directions and layers."""
    parts = [summary(result), "", COORDS_NOTE]
    total = len(result.solutions)
    for i, sol in enumerate(result.solutions, 1):
        parts += [
            "",
            f"solution {i} of {total}"
            + ("" if result.complete else "+")
            + f" (starts at a {sol.start_class} cell {list(sol.cells[0])})",
            "directions  " + directions(sol, style),
            layers(sol),
        ]
    if not result.solutions:
        parts += ["", "no solutions" + ("" if result.complete else " found before stopping")]
    return "\n".join(parts)
