"""snakecube check: every form of a solution, the first failing cube, and the match."""

from __future__ import annotations

import itertools
import random

import pytest

import plancheck
from snakecube import InputError
from snakecube.check import check
from snakecube.search import solve
from snakecube.symmetry import elements

WORDS = {"+x": "RIGHT", "-x": "LEFT", "+y": "BACK", "-y": "FRONT", "+z": "UP", "-z": "DOWN"}


def moved(sol, g):
    """The solution's cells under the symmetry g (a cell permutation)."""
    return [sol.region.cells[g[c]] for c in sol.path]


@pytest.mark.parametrize("name", ["standard", "seed-blue", "seed-orange"])
def test_every_image_of_every_solution_is_found(name):
    r = solve(name)
    rng = random.Random(name)
    for k, sol in enumerate(r.solutions, 1):
        g, t = rng.choice(elements(sol.region))
        cells = moved(sol, g)
        text = " ".join(",".join(map(str, c)) for c in cells)
        v = check(name, text)
        assert v.valid and v.match is not None
        if not v.match["reversed"]:
            assert v.match["solution"] == k
            assert v.match["rotation"] == t.is_rotation
            assert v.match["symmetry"] == t.describe()


def test_directions_and_moves_forms():
    r = solve("seed-orange")
    sol = r.solutions[3]
    steps = []
    for d, n in zip(sol.direction_names(), sol.snake.lengths, strict=True):
        steps += [d] * (n - 1)
    start = ",".join(map(str, sol.cells[0]))
    for text in (
        " ".join(sol.direction_names()),
        " ".join(steps),
        " ".join(sol.direction_names("letters")),
        f"START {start} " + " ".join(steps),
    ):
        v = check("seed-orange", text)
        assert v.valid and v.match["solution"] == 4 and v.match["rotation"], text
    moves = ", ".join(
        f"{WORDS[d]} {n - 1}" for d, n in zip(sol.direction_names(), sol.snake.lengths, strict=True)
    )
    v = check("seed-orange", f"START {start} MOVES: {moves}")
    assert v.valid and "the default" in v.reading
    # other words for the axes: inferred, and said so
    # (back and north are both +y by default, so the default does not apply)
    other = {
        "RIGHT": "BACK",
        "LEFT": "FRONT",
        "BACK": "NORTH",
        "FRONT": "SOUTH",
        "UP": "UP",
        "DOWN": "DOWN",
    }
    swapped = ", ".join(f"{other[w]} {n}" for w, n in (m.split() for m in moves.split(", ")))
    v = check("seed-orange", f"start {start} moves: {swapped}")
    assert v.valid and "inferred" in v.reading
    v = check("seed-orange", f"start {start} moves: {swapped}", axes="BACK=+x,NORTH=+y,UP=+z")
    assert v.valid and v.match["solution"] == 4 and v.match["symmetry"] == "the identity"
    # 1-based coordinates
    one = " ".join(",".join(str(c + 1) for c in cell) for cell in sol.cells)
    v = check("seed-orange", one)
    assert v.valid and "1-based" in v.reading


def test_the_first_failing_cube():
    sol = solve("standard").solutions[0]
    names = sol.direction_names()
    for i in range(1, len(names)):
        broken = list(names)
        broken[i] = broken[i - 1]  # goes straight through a corner
        v = check("standard", " ".join(broken))
        assert not v.valid
        corner = sum(sol.snake.lengths[:i]) - i + 1
        assert v.failure[0] <= corner  # it cannot fail later than the broken corner
        assert f"cube {v.failure[0]}" in v.failure[1]
    cells = [list(c) for c in sol.cells]
    cells[10], cells[11] = cells[11], cells[10]
    v = check("standard", " ".join(",".join(map(str, c)) for c in cells))
    assert not v.valid and v.failure[0] in (10, 11, 12)
    v = check("standard", " ".join(",".join(map(str, c)) for c in sol.cells[:20]))
    assert not v.valid and "stops after cube 20" in v.failure[1]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty solution"),
        ("1,2", "multiple of 3"),
        ("+x +y", "directions; the snake needs 26"),
        ("START 0,0 MOVES: UP 2", "START is not followed by x,y,z"),
        ("START 0,0,0 MOVES: UPP 2", "'UPP' is not a direction"),
        ("START 0,0,0 MOVES: UP", "has no count"),
    ],
)
def test_unreadable_solutions(text, message):
    with pytest.raises(InputError, match=message):
        check("standard", text)


def test_a_box_typed_in_another_orientation_is_turned_not_mirrored():
    # A 2x3x4 solution written as a 4x3x2 solid: turned by a rotation it is the same solid,
    # by an axis swap (a mirror) it is the mirror image; check must tell which.
    snake = "ECCCCSCCCSCCCCCSCCCCCSCE"  # a 2x3x4 design with 4 distinct solutions
    r = solve(snake, "2x3x4")
    assert r.distinct > 0
    sol = r.solutions[0]
    cells = sol.cells
    rng = random.Random(7)
    forms = {
        "turned": ([(z, y, 1 - x) for x, y, z in cells], True),  # a quarter turn about y
        "mirrored": ([(z, y, x) for x, y, z in cells], False),  # x and z swapped
    }
    for name, (solid, rotation) in forms.items():
        shift = rng.randint(0, 5)
        text = " ".join(f"{x + shift},{y},{z}" for x, y, z in solid)
        v = check(snake, text, "2x3x4")
        assert v.valid, (name, v.reading)
        assert "only turned" in v.reading and v.match is not None
        assert v.match["solution"] == 1 and v.match["rotation"] == rotation, (name, v.match)
        steps = list(v.cells)  # the same solid from its directions, no start given
        dirs = " ".join(
            WORDS_SIGNS[(b[0] - a[0], b[1] - a[1], b[2] - a[2])]
            for a, b in itertools.pairwise(solid)
        )
        w = check(snake, dirs, "2x3x4")
        assert w.valid and w.match["rotation"] == rotation and list(w.cells) == list(steps)
    # Cells that fill no turn of the target are still refused, cube by cube.
    bad = check(snake, " ".join(f"{x},{y},{z}" for x, y, z in cells), "2x2x6")
    assert not bad.valid and "only turned" not in bad.reading


WORDS_SIGNS = plancheck.SIGNS


def test_without_a_start_the_wrong_segment_is_blamed():
    """Only the last direction is wrong (-y for +y): placed with its lowest corner at the
    origin, the whole path shifted and cube 4 was blamed; cube 1 goes where the most cubes
    come right, and segment 17 is named."""
    wrong = "+x +y -x +z +x -z +x -y -x +z +y -z +x +z -y +x -y"
    for start in (None, (0, 0, 0)):
        v = check("standard", wrong, start=start)
        assert not v.valid and v.failure is not None and v.failure[0] == 26 and v.segment == 17
        assert "it fails at cube 26, in segment 17: cube 26 at [2, -1, 2]" in v.report()
    v = check("standard", "+x +y -x +z +x -z +x -y -x -z +y -z +x +z -y +x +y")  # segment 10
    assert v.segment == 10 and v.to_dict()["failure"]["segment"] == 10
    v = check("standard", "+y +y -x +z +x -z +x -y -x +z +y -z +x +z -y +x +y")  # segment 2
    assert (v.failure or (0,))[0] == 3 and v.segment == 2
