"""Instructions in words, to fold with the snake in hand.

**Table words** (the default) use the frame of the table the person works on, the same as the
pictures (see ``explain.scene``): *right*, *left*, *away from you*, *towards you*, *up* and
*down*. The starting hold is said once: where cube 1 goes in the finished cube, which stands
on the table in front of you. Then each step says which cubes go which way, and every few
steps a checkpoint says what should be complete by now, so one slip is caught early.

**Pilot words** (``words="pilot"``) are relative to the segment just placed, as a pilot flying
along it sees them (seeds/002's clock turns: up 12, right 3, down 6, left 9); the text then
explains how "up" carries over from one turn to the next.

Every function here takes the solution in the orientation it is to be read in: use
``frame.display(solution)`` for the one the pictures show.
"""

from __future__ import annotations

import enum

from snakecube.errors import InputError
from snakecube.explain.text import directions
from snakecube.fold.words import title
from snakecube.frame import TABLE, display
from snakecube.shape import VECTORS, Coord
from snakecube.snake import which_end
from snakecube.solution import Solution, Style


class Words(enum.StrEnum):
    """The words of the folding steps: ``table`` (the table's frame) or ``pilot`` (relative
    to the segment just placed)."""

    TABLE = "table"
    PILOT = "pilot"


WORDS = tuple(w.value for w in Words)  # the names, as people type them
CLOCK = {"up": 12, "right": 3, "down": 6, "left": 9}


def _cubes(first: int, last: int) -> str:
    """'cubes 4-6' or 'cube 4' (1-based numbers)."""
    return f"cube {first}" if first == last else f"cubes {first}-{last}"


def _axis_word(value: int, size: int, low: str, high: str, middle: str = "middle") -> str:
    if size == 1:
        return ""
    if value == 0:
        return low
    if value == size - 1:
        return high
    if size == 3:
        return middle
    return f"{_ordinal(value + 1)} from the {low}"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def place_words(cell: Coord, dims: Coord) -> str:
    """Where a cell is, for people: 'the bottom front left corner', 'bottom, front, middle'.

    >>> place_words((0, 0, 0), (3, 3, 3))
    'the bottom front left corner'
    >>> place_words((1, 2, 0), (3, 3, 3))
    'bottom layer, back row, middle'
    """
    x, y, z = cell
    a, b, c = dims
    zw = _axis_word(z, c, "bottom", "top")
    yw = _axis_word(y, b, "front", "back")
    xw = _axis_word(x, a, "left", "right")
    live = [w for w, n in ((zw, c), (yw, b), (xw, a)) if n > 1]
    extremes = sum(1 for w in live if w in ("bottom", "top", "front", "back", "left", "right"))
    if live and extremes == len(live):
        return f"the {' '.join(live)} corner" if len(live) > 1 else f"the {live[0]} end"
    parts = []
    if c > 1:
        parts.append(f"{zw} layer")
    if b > 1:
        parts.append(f"{yw} row")
    if a > 1:
        parts.append(xw)
    return ", ".join(parts)


def step_words(solution: Solution, counted: bool = False) -> list[str]:
    """What each step does, in table words: 'Step 4: at cube 7, cubes 8-9 go up' ('Step 4
    of 17: ...' when ``counted``)."""
    out, at = [], 0
    count = len(solution.snake.lengths)
    for k, (n, d) in enumerate(zip(solution.snake.lengths, solution.directions, strict=True)):
        way = TABLE[VECTORS[d]]
        head = title(k + 1, count if counted else None)
        if k == 0:
            out.append(f"{head}: {_cubes(1, n)} go {way} from cube 1")
        else:
            verb = "goes" if n == 2 else "go"
            out.append(f"{head}: at cube {at + 1}, {_cubes(at + 2, at + n)} {verb} {way}")
        at += n - 1
    return out


def start_words(solution: Solution) -> str:
    """The starting hold, said once."""
    a, b, c = solution.region.dims
    where = place_words(solution.cells[0], solution.region.dims)
    shape = "cube" if a == b == c else "box"
    return (
        f"The finished {shape} ({a} wide, {b} deep, {c} high) stands on the table in front of "
        f"you. {which_end(solution.snake)} Cube 1 goes at {where}. 'Right', 'left', 'away from "
        "you', 'towards you', 'up' and 'down' stay fixed to the table: keep the growing shape "
        "the same way round, as the pictures show it."
    )


def checkpoints(solution: Solution) -> dict[int, str]:
    """Checks to make after some steps (step number -> words): a layer complete, or complete
    but for the cubes still to come, about every four steps."""
    cells = solution.cells
    c = solution.region.dims[2]
    number = {cell: i + 1 for i, cell in enumerate(cells)}
    layer_of = {z: [cell for cell in cells if cell[2] == z] for z in range(c)}
    names = _layer_names(c)
    out: dict[int, str] = {}
    placed: set[Coord] = set()
    done: set[int] = set()
    last_check = 0
    at = 0
    for k, n in enumerate(solution.snake.lengths, 1):
        new = cells[0 : at + n] if k == 1 else cells[at + 1 : at + n]
        placed.update(new)
        at += n - 1
        if k == len(solution.snake.lengths):
            break
        for z in range(c):
            if z not in done and all(cell in placed for cell in layer_of[z]):
                done.add(z)
                out[k] = f"Check: the {names[z]} is complete ({len(layer_of[z])} cubes)."
                last_check = k
        if k - last_check >= 4:
            text = ""
            for z in range(c):
                missing = sorted(number[cell] for cell in layer_of[z] if cell not in placed)
                have = len(layer_of[z]) - len(missing)
                if z not in done and have and 0 < len(missing) <= max(3, len(layer_of[z]) // 2):
                    one = len(missing) == 1
                    nearly = (
                        f"Check: the {names[z]} is complete except for the place"
                        f"{'' if one else 's'} of {_numbers(missing)}, which "
                        f"come{'s' if one else ''} later."
                    )
                    if nearly not in out.values():
                        text = nearly
                    break
            if not text:  # how far each layer has come
                counts = [
                    f"the {names[z]} {sum(cell in placed for cell in layer_of[z])} of "
                    f"{len(layer_of[z])}"
                    for z in range(c)
                    if any(cell in placed for cell in layer_of[z])
                ]
                text = f"Check: {len(placed)} cubes are in place: " + ", ".join(counts) + "."
            out[k] = text
            last_check = k
    return out


def _layer_names(c: int) -> list[str]:
    if c == 1:
        return ["layer"]
    names = [f"{_ordinal(z + 1)} layer from the bottom" for z in range(c)]
    names[0], names[-1] = "bottom layer", "top layer"
    if c == 3:
        names[1] = "middle layer"
    return names


def _numbers(ns: list[int]) -> str:
    """'cubes 20-21 and 25'."""
    runs: list[list[int]] = []
    for n in ns:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = [str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs]
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return ("cube " if len(ns) == 1 else "cubes ") + text


def table_steps(solution: Solution) -> list[tuple[str, str]]:
    """Each step in table words with its checkpoint ('' for none): what the text, the page
    and the sheets list."""
    checks = checkpoints(solution)
    return [(f"{w}.", checks.get(k, "")) for k, w in enumerate(step_words(solution), 1)]


def table_instructions(solution: Solution) -> str:
    """Numbered steps in table words, with the starting hold and checkpoints."""
    lines = [start_words(solution)]
    for words, check in table_steps(solution):
        lines.append(words)
        if check:
            lines.append(f"   {check}")
    return "\n".join(lines)


# -- pilot words ----------------------------------------------------------------------------
def _cross(a: Coord, b: Coord) -> Coord:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _neg(a: Coord) -> Coord:
    return (-a[0], -a[1], -a[2])


def relative_turns(solution: Solution) -> list[str]:
    """Each segment's turn relative to the one before: up, down, left or right.

    The frame travels with the snake, like a pilot's: "forward" is the way the last segment
    points, and the first two segments fix "up" (segment 2 turns up by definition). After a
    turn up, "up" is the way you came from; after a turn down, the way you were going; a turn
    left or right keeps "up". Segment 1 is "start".

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


PILOT_RULES = (
    "Pilot words: fly along the segment just placed. 'Up', 'down', 'left' and 'right' are as "
    "you see them, with your head towards 'up' (clock: up 12, right 3, down 6, left 9). "
    "Step 2 turns 'up' by definition, which fixes 'up'. How 'up' carries over: after a turn "
    "up, 'up' is the way you came from; after a turn down, 'up' is the way you were going; "
    "after a turn left or right, 'up' stays as it was."
)


def pilot_instructions(solution: Solution) -> str:
    """Numbered steps in pilot words, after the rule for how 'up' carries over."""
    turns = relative_turns(solution)
    lines = [PILOT_RULES]
    at = 0
    for k, (turn, n) in enumerate(zip(turns, solution.snake.lengths, strict=True), 1):
        if turn == "start":
            lines.append(f"Step 1: hold {_cubes(1, n)} in a straight line, pointing away from you.")
        else:
            clock = f" ({CLOCK[turn]} o'clock)" if k > 2 else ""
            lines.append(
                f"Step {k}: at cube {at + 1}, turn {turn}{clock}: {_cubes(at + 2, at + n)}."
            )
        at += n - 1
    return "\n".join(lines)


def instructions(solution: Solution, words: str = Words.TABLE) -> str:
    """Numbered folding steps a person can follow: table words (default) or pilot words."""
    if words == Words.PILOT:
        return pilot_instructions(solution)
    if words == Words.TABLE:
        return table_instructions(solution)
    raise InputError(f"unknown words {words!r}; use one of {', '.join(WORDS)}")


# -- layers seen from above ---------------------------------------------------------------------
def layer_blocks(solution: Solution) -> list[str]:
    """Each layer seen from above, bottom layer first, the far side (away from you) at the
    top of each block: cube numbers, '.' outside the target."""
    number = {c: i for i, c in enumerate(solution.cells, 1)}
    a, b, c = solution.region.dims
    width = len(str(len(number)))
    names = _layer_names(c)
    blocks = []
    for z in range(c):
        rows = [
            " ".join(str(number.get((x, y, z), ".")).rjust(width) for x in range(a))
            for y in reversed(range(b))
        ]
        blocks.append("\n".join([f"{names[z]} (far side at the top):", *rows]))
    return blocks


def layers_from_above(solution: Solution) -> str:
    """The layer map: :func:`layer_blocks`, one after another."""
    return "\n\n".join(layer_blocks(solution))


def show(solution: Solution, style: str = Style.SIGNS, words: str = Words.TABLE) -> str:
    """Every text form of one solution, in the orientation the pictures show (turned by a
    symmetry of the target if that shows more): steps in words, layers from above, and
    each segment's direction."""

    shown = display(solution)
    return "\n".join(
        [
            instructions(shown, words),
            "",
            layers_from_above(shown),
            "",
            "segment directions (x right, y away from you, z up): " + directions(shown, style),
        ]
    )
