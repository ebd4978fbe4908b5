"""Text forms of results: counts, layers with cube numbers, segment directions.

Instructions for people (words to fold by) are in ``explain.prose``.
"""

from __future__ import annotations

from snakecube.shape import Box
from snakecube.solution import Result, Solution, Style, complete_words

COORDS_NOTE = "coordinates are 0-based (x, y, z); cubes are numbered 1..n from the first end"


def coords_note(result: Result) -> str:
    """Says where coordinates start and which end cube 1 is."""
    if result.reversed:
        return (
            "coordinates are 0-based (x, y, z); cubes are numbered 1..n from the last end of "
            "the snake as typed (--reverse): cube 1 is the typed snake's last cube"
        )
    return COORDS_NOTE


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


def directions(solution: Solution, style: str = Style.SIGNS) -> str:
    """Each segment's direction, numbered: ``1:+x 2:+y 3:-x ...``."""
    names = solution.direction_names(style)
    return " ".join(f"{i}:{n}" for i, n in enumerate(names, 1))


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
            # a region's description already counts its cells
            f"{region.describe()}{f', {region.volume} cells' if isinstance(region, Box) else ''}"
            f", {_plural(result.symmetry_count, 'symmetry', 'symmetries')}",
        ),
    ]
    if snake.reading:
        rows.insert(1, ("read as", snake.reading.removeprefix("read as ")))
    if result.fixed:
        rows.append(("fixed start", "yes: counts are of placements that begin as given"))
    rows += [
        ("placements", f"{result.placements}{lower}"),
        ("up to rotations", f"{result.distinct_up_to_rotations}{lower}"),
        ("distinct", f"{result.distinct}{lower}  (up to rotations and reflections)"),
        ("distinct up to reversal", f"{result.distinct_up_to_reversal}{lower}"),
        ("complete", complete_words(result.complete, result.stop_reason)),
    ]
    if snake.is_palindrome:  # a person cannot tell its ends apart either
        both = f"{result.distinct_up_to_rotations_and_reversal}{lower}"
        rows.insert(len(rows) - 1, ("rotations and reversal", both))
    starts = ", ".join(
        f"{s.kind} {list(s.cell)} x{s.size}: {s.distinct}" for s in result.start_classes
    )
    rows.append(("solutions by start cell", starts))
    last = ", from the last end: its tree was smaller" if result.searched_from_last else ""
    if result.nodes == 0 and result.complete:  # the root plan's walk decided it alone
        searched = (
            f"none needed: placing the first segments every way (the root plan"
            f"{last}) decided it, in {result.seconds:.3f} s"
        )
    else:
        searched = (
            f"{result.nodes} nodes in {result.seconds:.3f} s ({result.engine} engine, "
            f"{result.workers} process{'es' if result.workers > 1 else ''}{last})"
        )
    rows.append(("search", searched))
    w = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(w)}  {v}" for k, v in rows)


def report(result: Result, style: str = Style.SIGNS) -> str:
    """The whole text answer: counts, then each distinct solution's directions and layers."""
    parts = [summary(result), "", coords_note(result)]
    total = len(result.solutions)
    for i, sol in enumerate(result.solutions, 1):
        parts += [
            "",
            f"solution {i} of {total}"
            + ("" if result.complete else "+")
            + f" (starts at {_a(sol.start_class)} cell {list(sol.cells[0])})",
            "directions  " + directions(sol, style),
            layers(sol),
        ]
    if not result.solutions:
        parts += ["", "no solutions" + ("" if result.complete else " found before stopping")]
    return "\n".join(parts)


def _a(word: str) -> str:
    """The word with its indefinite article: 'a corner', 'an edge', 'an inside'."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"
