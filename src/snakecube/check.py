"""Check a solution someone else printed: is it one, where does it fail, which of ours is it.

A solution is read from any of these forms (:func:`read_solution`):

* **cells**: ``x,y,z x,y,z ...`` or ``[[0,0,0],[1,0,0],...]``, one cell per cube in order;
* **directions**: one per step between cubes or one per segment (``+x +y -x ...``, also
  ``x+``, ``XP``/``YN`` as seeds/000), optionally after ``START x,y,z``;
* **moves**: ``START x,y,z MOVES: BACK 2, UP 3, ...``, a direction and a count of steps each
  (``+x 2`` works too). Direction words (right/left, back/front, up/down, forward/backward,
  north/south, east/west, in/out) go to axes by ``axes`` when given, else by the default
  (right +x, back +y, up +z, east +x, north +y), else by the first assignment of axes that
  makes a solution from the start; which one was used is stated.

Coordinates are 0-based; cells or a start that only fit the target 1-based are read so,
and said so. Without a start, the path is placed so that its lowest corner is (0, 0, 0); when
that placement is not a solution, cube 1 goes to the cell of the target from which the most
cubes come before one breaks a rule, so that a slip late in the path is blamed where it is
(a last direction that leaves the box would otherwise shift the whole path).

Whether it is a solution is decided by the independent verifier (:mod:`snakecube.verify`);
where it is not, :func:`first_failure` names the first cube that breaks a rule, and the
report the segment whose direction goes wrong there.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from snakecube import limits
from snakecube.errors import CubeCountError, InputError
from snakecube.search import solve
from snakecube.search.inputs import as_snake, as_target
from snakecube.shape import VECTORS, Coord, Region, wrong_count
from snakecube.snake import Snake, reading_words
from snakecube.symmetry import Transform, transform_of
from snakecube.verify import violations

_SIGNED = {"+x": 0, "-x": 1, "+y": 2, "-y": 3, "+z": 4, "-z": 5}
_LETTERS = {"xp": 0, "xn": 1, "yp": 2, "yn": 3, "zp": 4, "zn": 5}
# Direction words, each with its opposite; synonyms folded onto one word.
_SYNONYMS = {
    "backward": "back",
    "backwards": "back",
    "forward": "front",
    "forwards": "front",
    "above": "up",
    "below": "down",
    "top": "up",
    "bottom": "down",
}
_PAIRS = (
    ("right", "left"),
    ("back", "front"),
    ("up", "down"),
    ("east", "west"),
    ("north", "south"),
    ("in", "out"),
)
_DEFAULT_AXES = {"right": 0, "back": 2, "up": 4, "east": 0, "north": 2, "in": 2}
_OPPOSITE = {**{a: b for a, b in _PAIRS}, **{b: a for a, b in _PAIRS}}
_NUMBER = r"[+-]?[0-9]+"
_COORD = re.compile(rf"[\[(]?\s*({_NUMBER})\s*[,\s]\s*({_NUMBER})\s*[,\s]\s*({_NUMBER})\s*[\])]?")


@dataclass(frozen=True, slots=True)
class Reading:
    """A solution as cells, and how the text was read (one line for people)."""

    cells: tuple[Coord, ...]
    how: str
    free: bool = False  # no start was given: the cells may be moved to where most fit
    read: str = ""  # ``how`` without what was said of the placement


def _direction(token: str) -> int | None:
    t = token.lower()
    if t in _SIGNED:
        return _SIGNED[t]
    if len(t) == 2 and t[0] in "xyz" and t[1] in "+-":
        return _SIGNED[t[1] + t[0]]
    return _LETTERS.get(t)


def _walk(start: Coord, dirs: Sequence[int]) -> list[Coord]:
    cells = [start]
    for d in dirs:
        v = VECTORS[d]
        x, y, z = cells[-1]
        cells.append((x + v[0], y + v[1], z + v[2]))
    return cells


def _place(cells: list[Coord], region: Region, start_given: bool) -> tuple[list[Coord], str]:
    """The cells as given, or shifted from 1-based, or (no start given) moved to the origin;
    and where they fit the target only when turned (a 2x3x4 box typed as 4x3x2), turned."""
    inside = region.cellset
    if not start_given:
        lo = [min(c[a] for c in cells) for a in range(3)]
        moved = [(x - lo[0], y - lo[1], z - lo[2]) for x, y, z in cells]
        if all(c in inside for c in moved) or (turned := _turned(moved, region)) is None:
            return (
                moved,
                "no start given: placed with its lowest corner at (0, 0, 0), so cube 1 is at "
                f"{list(moved[0])}",
            )
        return turned
    if all(c in inside for c in cells):
        return cells, ""
    shifted = [(x - 1, y - 1, z - 1) for x, y, z in cells]
    if all(min(c) >= 1 for c in cells) and all(c in inside for c in shifted):
        return shifted, "coordinates read as 1-based (they fit the target only so)"
    return _turned(cells, region) or (cells, "")


def _turned(cells: list[Coord], region: Region) -> tuple[list[Coord], str] | None:
    """The cells turned by a rotation (so the same solid in the hands, not its mirror image)
    and moved to fill the target, when they fill it no other way; None if no turn does."""

    inside = region.cellset
    target_lo = [min(c[a] for c in region.cells) for a in range(3)]
    for axes in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            turn = Transform(axes, signs)  # type: ignore[arg-type]
            if not turn.is_rotation or (axes == (0, 1, 2) and signs == (1, 1, 1)):
                continue
            image = [tuple(signs[a] * c[axes[a]] for a in range(3)) for c in cells]
            lo = [min(c[a] for c in image) for a in range(3)]
            moved = [
                (
                    c[0] - lo[0] + target_lo[0],
                    c[1] - lo[1] + target_lo[1],
                    c[2] - lo[2] + target_lo[2],
                )
                for c in image
            ]
            if all(c in inside for c in moved):
                return moved, (
                    f"they fill the {region.describe()} only turned: read after "
                    f"{turn.describe()}, so cube 1 is at {list(moved[0])}"
                )
    return None


def _sizes(text: str, what: str) -> None:
    if not isinstance(text, str):
        raise TypeError(f"a solution is given as text (str), not {type(text).__name__}")
    if len(text) > limits.MAX_TEXT * 4:
        raise InputError(
            f"the {what} is {len(text)} characters long; at most {limits.MAX_TEXT * 4} are read"
        )


def parse_axes(text: str) -> dict[str, int]:
    """``RIGHT=+x,BACK=+y,UP=+z``: direction words to directions (their opposites follow)."""
    out: dict[str, int] = {}
    for i, item in enumerate(t for t in re.split(r"[,;\s]+", text.strip()) if t):
        word, sep, name = item.partition("=")
        word = _SYNONYMS.get(word.lower(), word.lower())
        d = _direction(name)
        if not sep or word not in _OPPOSITE or d is None:
            raise InputError(
                f"the axes (axes=): item {i + 1} {limits.shorten(item)} is not WORD=+x (a "
                "direction word "
                f"such as {', '.join(w for w, _ in _PAIRS)} and one of +x -x +y -y +z -z)"
            )
        out[word], out[_OPPOSITE[word]] = d, d ^ 1
    return out


def read_solution(
    text: str,
    snake: Snake,
    region: Region,
    axes: dict[str, int] | None = None,
    start: Coord | None = None,
) -> Reading:
    """Read a solution in any of the module's forms into cells (0-based, snake order)."""
    _sizes(text, "solution")
    raw = text.strip()
    if not raw:
        raise InputError(
            "empty solution: give cells (x,y,z ...), directions (+x +y ...) or "
            "START x,y,z MOVES: ..."
        )
    m = re.match(r"^start\s*[:=]?\s*", raw, re.IGNORECASE)
    if m:
        c = _COORD.match(raw, m.end())
        if not c:
            raise InputError(
                "solution: START is not followed by x,y,z "
                f"(at {limits.shorten(raw[m.end() :], 30)})"
            )
        start = (int(c.group(1)), int(c.group(2)), int(c.group(3)))
        raw = raw[c.end() :].strip()
        raw = re.sub(r"^moves?\s*[:=]?\s*", "", raw, flags=re.IGNORECASE)
    elif start is not None:
        start = limits.coord(start, "the start")
    tokens = [
        t
        for t in re.split(
            r"[\s,;]+", raw.replace("[", " ").replace("]", " ").replace("(", " ").replace(")", " ")
        )
        if t
    ]
    if not tokens:
        raise InputError("solution: no cells, directions or moves after the start")
    if all(re.fullmatch(_NUMBER, t, re.ASCII) for t in tokens):
        if m:
            raise InputError(
                "solution: after START x,y,z give directions or moves, not more numbers"
            )
        if len(tokens) % 3:
            raise InputError(
                f"solution: {len(tokens)} numbers, not whole x,y,z cells (a multiple of 3)"
            )
        if len(tokens) // 3 > limits.MAX_CUBES:
            raise InputError(f"solution: {len(tokens) // 3} cells; at most {limits.MAX_CUBES}")
        numbers = [
            limits.parse_whole(t, f"solution: number {i}", -limits.MAX_SIDE, limits.MAX_SIDE)
            for i, t in enumerate(tokens, 1)
        ]
        cells = [tuple(numbers[i : i + 3]) for i in range(0, len(numbers), 3)]
        placed, note = _place(cells, region, True)  # type: ignore[arg-type]
        how = f"cells, one per cube ({len(cells)})"
        return Reading(tuple(placed), f"{how}; {note}" if note else how)
    dirs = [_direction(t) for t in tokens]
    if all(d is not None for d in dirs):
        steps = [d for d in dirs if d is not None]
        n, s = snake.cubes, snake.segments
        if len(steps) == n - 1:
            how = f"directions, one per step between cubes ({len(steps)})"
        elif len(steps) == s:
            how = f"directions, one per segment ({s})"
            steps = [
                d for d, length in zip(steps, snake.lengths, strict=True) for _ in range(length - 1)
            ]
        else:
            raise InputError(
                f"solution: {len(steps)} directions; the snake needs {n - 1} (one per step "
                f"between its {n} cubes) or {s} (one per segment)"
            )
        return _from_steps(steps, start, region, how)
    return _moves(tokens, snake, region, axes, start)


def _from_steps(steps: list[int], start: Coord | None, region: Region, how: str) -> Reading:
    cells, note = _place(_walk(start or (0, 0, 0), steps), region, start is not None)
    return Reading(tuple(cells), f"{how}; {note}" if note else how, start is None, how)


def _moves(
    tokens: list[str],
    snake: Snake,
    region: Region,
    axes: dict[str, int] | None,
    start: Coord | None,
) -> Reading:
    """``WORD N`` (or ``N WORD``) pairs, with direction words or +x-style names."""
    moves = _read_moves(tokens)
    counts, note = _step_counts(moves, snake)
    words = sorted({w for w, _ in moves if _direction(w) is None})
    how = f"moves with counts of steps ({len(moves)}){note}"

    def walk(assign: dict[str, int]) -> list[Coord]:
        steps = []
        for (w, _), k in zip(moves, counts, strict=True):
            d = _direction(w)
            steps += [assign[w] if d is None else d] * k
        return _walk(start or (0, 0, 0), steps)

    if not words:
        return _from_steps(_steps_of(walk({})), start, region, how)
    if axes is not None:
        missing = [w for w in words if w not in axes]
        if missing:
            raise InputError(f"axes= does not say which way {missing[0].upper()} is")
        cells, place = _place(walk(axes), region, start is not None)
        read = f"{how}; axes as given ({_axes_text(axes, words)})"
        return Reading(tuple(cells), f"{read}{'; ' + place if place else ''}", start is None, read)
    return _infer_axes(words, walk, snake, region, start is not None, how)


def _read_moves(tokens: list[str]) -> list[tuple[str, int]]:
    """The (direction word, count) pairs of ``tokens``, each checked."""
    moves: list[tuple[str, int]] = []
    for i in range(0, len(tokens), 2):
        a = tokens[i]
        b = tokens[i + 1] if i + 1 < len(tokens) else ""
        if re.fullmatch("[0-9]+", a) and b and not re.fullmatch("[0-9]+", b):
            a, b = b, a
        k = len(moves) + 1
        if not re.fullmatch("[0-9]+", b, re.ASCII):
            raise InputError(
                f"solution: move {k} {limits.shorten(a, 20)} has no count of steps "
                "(expected like BACK 2, or +x 2)"
            )
        word = _SYNONYMS.get(a.lower(), a.lower())
        if _direction(word) is None and word not in _OPPOSITE:
            raise InputError(
                f"solution: move {k}: {limits.shorten(a, 20)} is not a direction "
                f"(+x, XP, or a word: {', '.join(w for p in _PAIRS for w in p)})"
            )
        count = limits.parse_whole(b, f"solution: move {k}'s count", 1, limits.MAX_CUBES)
        moves.append((word, count))
        if len(moves) > limits.MAX_CUBES:
            raise InputError(f"solution: more than {limits.MAX_CUBES} moves")
    return moves


def _step_counts(moves: list[tuple[str, int]], snake: Snake) -> tuple[list[int], str]:
    """The steps of each move, and a note when the counts were read as cubes per segment
    (corners counted twice) because that is what they add up to."""
    counts = [c for _, c in moves]
    if sum(counts) != snake.cubes - 1 and counts == list(snake.lengths):
        return [c - 1 for c in counts], (
            "; counts read as cubes per segment (corners counted twice), not steps"
        )
    return counts, ""


def _axis_choices(pairs: list[str]) -> tuple[list[dict[str, int]], bool]:
    """Every assignment of axes to the direction words' ``pairs`` (one word of each pair of
    opposites), the default first when there is one; and whether there is."""
    default: dict[str, int] = {}
    for p in pairs:
        d = _DEFAULT_AXES.get(p)
        if d is None or d in default.values():
            default = {}
            break
        default[p] = d
    has_default = len(default) == len(pairs)
    choices = [default] if has_default else []
    for axes_of in itertools.permutations(range(3), len(pairs)):
        for signs in itertools.product((0, 1), repeat=len(pairs)):
            choices.append({p: 2 * a + s for p, a, s in zip(pairs, axes_of, signs, strict=True)})
    return choices, has_default


def _infer_axes(
    words: list[str],
    walk: Callable[[dict[str, int]], list[Coord]],
    snake: Snake,
    region: Region,
    fixed_start: bool,
    how: str,
) -> Reading:
    """The first assignment of axes to direction words that makes a solution (the default
    when it does), or the first tried, said to make none."""
    pairs = sorted({min(w, _OPPOSITE[w], key=lambda x: (x not in _DEFAULT_AXES, x)) for w in words})
    if len(pairs) > 3:
        raise InputError(
            f"solution: direction words along {len(pairs)} axes ({', '.join(pairs)}); a cube has 3"
        )
    choices, has_default = _axis_choices(pairs)
    tried = []
    for k, choice in enumerate(choices):
        assign = {**choice, **{_OPPOSITE[p]: d ^ 1 for p, d in choice.items()}}
        cells, place = _place(walk(assign), region, fixed_start)
        tried.append((assign, cells, place))
        if not violations(snake.lengths, region.cellset, cells):
            why = (
                "the default"
                if k == 0 and has_default
                else "inferred: the first assignment of axes that makes a solution"
            )
            return Reading(
                tuple(cells),
                f"{how}; axes {why} ({_axes_text(assign, words)}; axes= sets them)"
                f"{'; ' + place if place else ''}",
            )
    assign, cells, place = tried[0]
    kind = "the default" if has_default else "the first assignment tried"
    read = (
        f"{how}; axes {kind} ({_axes_text(assign, words)}): no assignment of axes makes a solution"
    )
    return Reading(tuple(cells), f"{read}{'; ' + place if place else ''}", not fixed_start, read)


def _steps_of(cells: list[Coord]) -> list[int]:
    return [
        VECTORS.index((b[0] - a[0], b[1] - a[1], b[2] - a[2])) for a, b in itertools.pairwise(cells)
    ]


def _axes_text(assign: dict[str, int], words: Sequence[str]) -> str:
    names = ("+x", "-x", "+y", "-y", "+z", "-z")
    return ", ".join(
        f"{w.upper()} = {names[assign[w]]}" for w in sorted(words, key=lambda w: assign[w])
    )


def first_failure(
    lengths: Sequence[int], region: Region, cells: Sequence[Coord]
) -> tuple[int, str] | None:
    """The first cube (1-based) where the cells break a rule, and why; None if none does."""
    found = _failure(lengths, region, cells)
    return None if found is None else found[:2]


def _failure(
    lengths: Sequence[int], region: Region, cells: Sequence[Coord]
) -> tuple[int, str, int | None] | None:
    """:func:`first_failure`, with the step that goes wrong (1-based: step k goes from cube
    k to cube k + 1), or None when no one step does (too many cells, or too few)."""
    n = sum(lengths) - len(lengths) + 1
    corners = set(itertools.accumulate([length - 1 for length in lengths[:-1]]))  # 0-based
    seen: dict[Coord, int] = {}
    for k, cell in enumerate(cells):
        if k >= n:
            return (
                k + 1,
                f"the solution has {len(cells)} cells but the snake has only {n} cubes",
                None,
            )
        if k:
            prev = cells[k - 1]
            step = (cell[0] - prev[0], cell[1] - prev[1], cell[2] - prev[2])
            if sum(map(abs, step)) != 1:
                return (
                    k + 1,
                    f"cube {k + 1} at {list(cell)} is not next to cube {k} at {list(prev)}",
                    k,
                )
            if k >= 2:
                before = cells[k - 1]
                back = (
                    before[0] - cells[k - 2][0],
                    before[1] - cells[k - 2][1],
                    before[2] - cells[k - 2][2],
                )
                if back == step and k - 1 in corners:
                    return k, f"cube {k} is a corner but the path goes straight through it", k
                if back != step and sum(a * b for a, b in zip(back, step, strict=True)) != 0:
                    return k, f"cube {k} bends back on itself", k
                if back != step and k - 1 not in corners:
                    return (
                        k,
                        f"cube {k} is straight but the path turns there (towards cube {k + 1})",
                        k,
                    )
        if cell not in region.cellset:
            return k + 1, f"cube {k + 1} at {list(cell)} is outside the {region.describe()}", k
        if cell in seen:
            return (
                k + 1,
                f"cube {k + 1} at {list(cell)} lands where cube {seen[cell]} already is",
                k,
            )
        seen[cell] = k + 1
    if len(cells) < n:
        stops = f"the solution stops after cube {len(cells)}; the snake has {n} cubes"
        return len(cells) + 1, stops, None
    return None


def segment_of(lengths: Sequence[int], step: int) -> int:
    """The segment (1-based) that step ``step`` (from cube ``step`` to ``step`` + 1) is in.

    >>> segment_of([3, 3, 2], 2), segment_of([3, 3, 2], 3), segment_of([3, 3, 2], 5)
    (1, 2, 3)
    """
    return bisect.bisect_left(list(itertools.accumulate(n - 1 for n in lengths)), step) + 1


def _most_in_place(
    lengths: Sequence[int], region: Region, read: Reading
) -> tuple[list[Coord], str]:
    """The cells of a solution given with no start, moved so that the most cubes come before
    one breaks a rule (cube 1 at each cell of the target in turn; the first placement tried,
    lowest corner at the origin, kept on a tie), and what to say of the placement."""
    cells = list(read.cells)
    n = len(region.cells)

    def reach(placed: list[Coord]) -> int:
        found = _failure(lengths, region, placed)
        return n + 1 if found is None else found[0]

    best, most = cells, reach(cells)
    x0, y0, z0 = cells[0]
    for x, y, z in region.cells:
        if most > n:
            break
        moved = [(a - x0 + x, b - y0 + y, c - z0 + z) for a, b, c in cells]
        if (got := reach(moved)) > most:
            best, most = moved, got
    if best is cells:
        return cells, read.how
    return best, (
        f"{read.read}; no start given: placed where the most cubes come before one breaks a "
        f"rule, so cube 1 is at {list(best[0])}"
    )


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer of :func:`check`."""

    snake: Snake
    region: Region
    reading: str
    cells: tuple[Coord, ...]
    valid: bool
    failure: tuple[int, str] | None  # (cube, why) where it is not a solution
    match: dict[str, Any] | None  # which of snakecube's distinct solutions it is
    segment: int | None = None  # the segment whose direction goes wrong at the failure

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description (what ``snakecube check --json`` prints)."""
        return {
            "snake": {
                "turns": self.snake.turns(),
                "segment_lengths": list(self.snake.lengths),
                "reading": reading_words(self.snake),
                "notation": self.snake.notation,
            },
            "target": {"description": self.region.describe(), "dims": list(self.region.dims)},
            "read_as": self.reading,
            "cells": [list(c) for c in self.cells],
            "valid": self.valid,
            "failure": None
            if self.failure is None
            else {"cube": self.failure[0], "segment": self.segment, "reason": self.failure[1]},
            "match": self.match,
        }

    def report(self) -> str:
        """The verdict in a few lines of text."""
        lines = [f"read as    {self.reading}"]
        if not self.valid:
            cube, why = self.failure or (0, "")
            where = "" if self.segment is None else f", in segment {self.segment}"
            lines.append(f"verdict    not a solution: it fails at cube {cube}{where}: {why}")
            return "\n".join(lines)
        lines.append(
            f"verdict    a solution of {self.snake.turns()} in the {self.region.describe()}"
        )
        m = self.match
        if m is None:
            return "\n".join(lines)
        if m.get("solution") is None:
            lines.append(f"match      {m['note']}")
            return "\n".join(lines)
        rev = " read from the other end," if m["reversed"] else ""
        lines.append(
            f"match      snakecube's distinct solution {m['solution']} of {m['of']},{rev} "
            f"under {m['symmetry']}"
        )
        lines.append(f"           {m['note']}")
        return "\n".join(lines)


def check(
    snake: Snake | str,
    solution: str,
    target: Region | None = None,
    *,
    axes: dict[str, int] | str | None = None,
    start: Coord | None = None,
    identify: bool = True,
    seconds: float | None = None,
) -> Verdict:
    """Is ``solution`` (text, see :func:`read_solution`) a solution of ``snake`` in ``target``
    (default: the snake's cube)? If so, which of snakecube's distinct solutions is it?"""

    region = None if target is None else as_target(target)
    parsed = as_snake(snake, region)
    region = as_target(target, parsed) if region is None else region
    limits.cell_count(region.volume, f"the {region.describe()}")
    if parsed.cubes != region.volume:
        raise CubeCountError(wrong_count(parsed.cubes, region))
    if isinstance(axes, str):
        axes = parse_axes(axes)
    read = read_solution(solution, parsed, region, axes, start)
    cells, how = list(read.cells), read.how
    broken = violations(parsed.lengths, region.cellset, cells)  # the independent verdict
    if broken and read.free:
        cells, how = _most_in_place(parsed.lengths, region, read)
        broken = violations(parsed.lengths, region.cellset, cells)
    if broken:
        found = _failure(parsed.lengths, region, cells) or (0, broken[0], None)
        segment = None if found[2] is None else segment_of(parsed.lengths, found[2])
        return Verdict(parsed, region, how, tuple(cells), False, found[:2], None, segment)
    match = _identify(parsed, region, cells, seconds) if identify else None
    return Verdict(parsed, region, how, tuple(cells), True, None, match)


def _identify(
    snake: Snake, region: Region, cells: list[Coord], seconds: float | None
) -> dict[str, Any]:
    """Which of snakecube's distinct solutions (solve's numbering) the valid ``cells`` are,
    and the symmetry that carries that one onto them."""

    result = solve(snake, region, seconds=seconds, reverse=False)
    path = tuple(region.index[c] for c in cells)
    forms = [(path, False)] + ([(path[::-1], True)] if snake.is_palindrome else [])
    for k, sol in enumerate(result.solutions, 1):
        for p, rev in forms:
            for g in region.symmetries:
                if tuple(g[c] for c in sol.path) == p:
                    t = transform_of(region, g)
                    if t.is_rotation:
                        note = "a rotation: the same finished cube, turned in the hands"
                    else:
                        note = (
                            "a reflection: its mirror image, a different finished cube in the hands"
                        )
                    return {
                        "solution": k,
                        "of": result.distinct,
                        "complete": result.complete,
                        "reversed": rev,
                        "symmetry": t.describe(),
                        "rotation": t.is_rotation,
                        "note": note,
                    }
    note = (
        f"not among the {result.distinct} distinct solutions found before the search "
        f"stopped ({result.stop_reason})"
        if not result.complete
        else "not found among snakecube's solutions (this is a bug: please report it)"
    )
    return {"solution": None, "of": result.distinct, "complete": result.complete, "note": note}
