"""A MiniZinc model, with its data, for any snake and target (the language of seeds/000).

The model numbers the target's cells 1..N (in snakecube's cell order: by z, then y, then x)
and gives each cube a cell (``pos``) and each segment a direction (``dir``, the enum
``DIR = {XP, XN, YP, YN, ZP, ZN}`` of seeds/000). A table ``step[cell, dir]`` names the
neighbouring cell, or 0 outside the target, so "cube c+1 is one step from cube c along its
segment's direction" is one ``element`` constraint; ``all_different(pos)`` fills the
target; consecutive segments lie along different axes (so every corner turns 90 degrees).

Without symmetry breaking, ``minizinc --all-solutions`` lists every placement (snakecube's
``placements``). Symmetry breaking (``symmetry=``):

* ``"directions"``: seeds/000's constraints, ``value_precede`` and ``value_precede_chain``
  on the directions: the first segment goes XP, the first turn goes YP, the first move along
  the third axis goes ZP. Valid only where every one of the 48 relabelings of the directions
  is a symmetry of the target, that is an n x n x n cube (n >= 2).
* ``"lex"``: for every symmetry g of the target (as a permutation of its cells), the
  sequence of cells is lexicographically at most its image under g. It holds for any target:
  exactly one placement of each class is kept, since only the identity fixes a placement.
* ``"auto"``: ``directions`` for a cube, ``lex`` otherwise.

With it, ``--all-solutions`` lists one placement per distinct solution (snakecube's
``distinct``).
"""

from __future__ import annotations

from snakecube.errors import InputError
from snakecube.shape import VECTORS, Box, Region, wrong_count
from snakecube.snake import Snake

SYMMETRY = ("none", "auto", "directions", "lex")


def is_cube(region: Region) -> bool:
    """True for a full n x n x n box (n >= 2): every relabeling of directions is a symmetry."""
    a, b, c = region.dims
    return a == b == c >= 2 and region.volume == a * b * c


# The MiniZinc model is text written in order: data, variables, constraints, symmetry breaking,
# output, as the model reads.
def model(snake: Snake, region: Region, symmetry: str = "none") -> str:
    """A complete MiniZinc model (data included) whose solutions are the snake's placements
    in the region; ``symmetry`` picks the symmetry breaking (see the module's text)."""
    symmetry = _checked_symmetry(snake, region, symmetry)
    n = region.volume
    cells = region.cells
    table = []
    for x, y, z in cells:
        row = [region.index.get((x + dx, y + dy, z + dz), -1) + 1 for dx, dy, dz in VECTORS]
        table.append(", ".join(map(str, row)))
    first = [1]
    for length in snake.lengths[:-1]:
        first.append(first[-1] + length - 1)
    segment_of = []
    for s, length in enumerate(snake.lengths, 1):
        segment_of.extend([s] * (length - 1))
    name = region.describe() if not isinstance(region, Box) else "{}x{}x{} box".format(*region.dims)
    lines = [
        "% snakecube: a snake and its target as a MiniZinc model (seeds/000's language).",
        f"% snake: {snake.turns()} ({snake.cubes} cubes, {snake.segments} segments)",
        f"% segment lengths: {','.join(map(str, snake.lengths))}",
        f"% target: {name}, {n} cells, {len(region.symmetries)} symmetries",
        f"% symmetry breaking: {symmetry}",
        "% cells are numbered 1..N by z, then y, then x; coordinates are 0-based (x, y, z).",
        "% the globals one by one: Debian's Gecode library breaks 'include \"globals.mzn\"'",
        'include "all_different.mzn";',
        'include "lex_lesseq.mzn";',
        'include "value_precede.mzn";',
        'include "value_precede_chain.mzn";',
        "",
        f"int: N = {n};  % cubes = cells",
        f"int: S = {snake.segments};  % segments",
        "set of int: CUBE = 1..N;",
        "set of int: CELL = 1..N;",
        "set of int: SEGMENT = 1..S;",
        "% directions, named as seeds/000's enum (plain ints: MiniZinc 2.6's enums are fragile)",
        "set of int: DIR = 1..6;",
        "int: XP = 1; int: XN = 2; int: YP = 3; int: YN = 4; int: ZP = 5; int: ZN = 6;",
        'array[DIR] of string: DIR_NAME = ["XP", "XN", "YP", "YN", "ZP", "ZN"];',
        "% the segment each step (cube c to cube c+1) belongs to",
        f"array[1..N-1] of SEGMENT: seg = [{', '.join(map(str, segment_of))}];",
        "% the first cube of each segment",
        f"array[SEGMENT] of CUBE: first = [{', '.join(map(str, first))}];",
        "% coordinates of each cell",
        f"array[CELL] of int: cx = [{', '.join(str(c[0]) for c in cells)}];",
        f"array[CELL] of int: cy = [{', '.join(str(c[1]) for c in cells)}];",
        f"array[CELL] of int: cz = [{', '.join(str(c[2]) for c in cells)}];",
        "% step[cell, d]: the neighbouring cell in direction d, 0 outside the target",
        "array[CELL, DIR] of 0..N: step = [|",
        "  " + ",\n  |".join(table) + " |];",
        "",
        "array[CUBE] of var CELL: pos;",
        "array[SEGMENT] of var DIR: dir;",
        "",
        "% every cube one step from the last, along its segment's direction",
        "constraint forall(c in 1..N-1)(pos[c + 1] = step[pos[c], dir[seg[c]]]);",
        "% every cell filled once",
        "constraint all_different(pos);",
        "% consecutive segments lie along different axes: each corner turns 90 degrees",
        "array[DIR] of 0..2: AXIS = [0, 0, 1, 1, 2, 2];",
        "constraint forall(s in 1..S-1)(AXIS[dir[s]] != AXIS[dir[s + 1]]);",
    ]
    lines += _symmetry_lines(symmetry, region)
    lines += _SEARCH_AND_OUTPUT
    return "\n".join(lines) + "\n"


def _checked_symmetry(snake: Snake, region: Region, symmetry: str) -> str:
    """The symmetry breaking asked for, with ``auto`` chosen for the target; InputError when
    it does not apply (or the snake does not fit the target)."""
    if symmetry not in SYMMETRY:
        raise InputError(
            f"unknown symmetry breaking {symmetry!r}; expected one of {', '.join(SYMMETRY)}"
        )
    if snake.cubes != region.volume:
        raise InputError(wrong_count(snake.cubes, region))
    if symmetry == "auto":
        symmetry = "directions" if is_cube(region) else "lex"
    if symmetry == "directions" and not is_cube(region):
        raise InputError(
            "symmetry breaking 'directions' (seeds/000's) is valid only for an n x n x n cube; "
            f"the target is a {region.describe()}: use 'lex'"
        )
    return symmetry


def _symmetry_lines(symmetry: str, region: Region) -> list[str]:
    """The constraints that break the symmetry: seeds/000's on the directions, or the
    sequence of cells lexicographically least under each symmetry of the target."""
    lines: list[str] = []
    if symmetry == "directions":
        lines += [
            "",
            "% symmetry breaking as seeds/000: XP before XN, YP before YN, ZP before ZN, and the",
            "% first moves along the three axes in the order X, Y, Z (one placement of 48)",
            "constraint value_precede(XP, XN, dir);",
            "constraint value_precede(YP, YN, dir);",
            "constraint value_precede(ZP, ZN, dir);",
            "constraint value_precede_chain([XP, YP, ZP], dir);",
        ]
    elif symmetry == "lex":
        lines += [
            "",
            "% symmetry breaking: the sequence of cells is lexicographically at most its image",
            "% under each symmetry of the target (one placement per class)",
        ]
        for k, g in enumerate(region.symmetries[1:], 1):
            perm = ", ".join(str(g[i] + 1) for i in range(region.volume))
            lines.append(f"array[CELL] of CELL: g{k} = [{perm}];")
            lines.append(f"constraint lex_lesseq(pos, [g{k}[pos[c]] | c in CUBE]);")
    return lines


# The search and the output, the same for every model.
_SEARCH_AND_OUTPUT = [
    "",
    "solve :: seq_search([",
    "    int_search([pos[1]], input_order, indomain_min),",
    "    int_search(dir, input_order, indomain_min)",
    "]) satisfy;",
    "",
    "output [",
    '  "cells = [" ++ join(", ", ["[\\(cx[fix(pos[c])]), \\(cy[fix(pos[c])]), '
    '\\(cz[fix(pos[c])])]" | c in CUBE]) ++ "]\\n",',
    '  "directions = [" ++ join(", ", [DIR_NAME[fix(dir[s])] | s in SEGMENT]) ++ "]\\n"',
    "];",
]
