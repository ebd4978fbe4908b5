"""Targets: Box and Region, their cells, neighbours and symmetry group (as cell permutations).

Vocabulary:

* **Coord**: a 0-based ``(x, y, z)`` position. Every output of snakecube uses these.
* **CellIndex**: an int, the index of a Coord in ``region.cells`` (sorted by z, then y, then x).
* **Direction**: an int 0..5 for ``+x, -x, +y, -y, +z, -z``; ``d >> 1`` is its axis.
* **Symmetry**: a permutation of cells induced by a rotation or reflection that maps the
  region onto itself. Symmetries that move no cell (the mirror through a flat box's
  plane) are the identity, so the group acts freely on Hamiltonian paths.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cached_property, lru_cache
from pathlib import Path

from snakecube import limits
from snakecube.errors import CubeCountError, InputError

Coord = tuple[int, int, int]
_BOX_SPACES = str.maketrans(dict.fromkeys("x×*,", " "))  # what separates a box's sides
CellIndex = int
Direction = int
Permutation = tuple[int, ...]

VECTORS: tuple[Coord, ...] = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))
DIRECTION_NAMES: tuple[str, ...] = ("+x", "-x", "+y", "-y", "+z", "-z")
DIRECTION_LETTERS: tuple[str, ...] = ("XP", "XN", "YP", "YN", "ZP", "ZN")  # seeds/000 spelling

_BOX_KINDS = {
    3: ("inside", "face", "edge", "corner"),
    2: ("inside", "edge", "corner"),
    1: ("inside", "end"),
    0: ("single",),
}


@lru_cache(maxsize=32)
def signed_axis_images(
    cells: tuple[Coord, ...],
) -> tuple[tuple[Permutation, tuple[int, ...], tuple[int, ...]], ...]:
    """Each of the 48 signed axis permutations (``axes``, ``signs``) that maps the cells onto
    themselves (the image shifted back to the origin), with the cell permutation it induces,
    identity first. Several may induce one permutation (a flat box's mirror in its plane).
    Cached: the group and the rotations' names both need it."""
    return tuple(_images(cells))


def _images(
    cells: tuple[Coord, ...],
) -> Iterator[tuple[Permutation, tuple[int, ...], tuple[int, ...]]]:
    index = {p: i for i, p in enumerate(cells)}
    cellset = set(cells)
    for axes in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            turned = [tuple(signs[a] * p[axes[a]] for a in range(3)) for p in cells]
            lo = [min(q[a] for q in turned) for a in range(3)]
            image = [(q[0] - lo[0], q[1] - lo[1], q[2] - lo[2]) for q in turned]
            if set(image) == cellset:
                yield tuple(index[q] for q in image), axes, signs


@lru_cache(maxsize=32)
def _symmetries(cells: tuple[Coord, ...]) -> tuple[Permutation, ...]:
    """The symmetry group of a sorted cell tuple (cached: regions are immutable)."""
    return tuple(dict.fromkeys(perm for perm, _, _ in signed_axis_images(cells)))


class Region:
    """A finite set of unit cells that a snake must fill exactly.

    >>> r = Region.parse("##\\n#.")
    >>> r.volume, r.cells
    (3, ((0, 0, 0), (1, 0, 0), (0, 1, 0)))
    >>> len(r.symmetries)
    2
    """

    def __init__(self, coords: Iterable[Sequence[int]]) -> None:
        if isinstance(coords, str | bytes):
            raise TypeError("Region() takes (x, y, z) cells; use Region.parse() for text")
        try:
            items = iter(coords)
        except TypeError:
            raise TypeError(
                f"Region() takes an iterable of (x, y, z) cells, not {type(coords).__name__}"
            ) from None
        pts: set[Coord] = set()
        for i, c in enumerate(items, 1):
            pts.add(limits.coord(c, f"region cell {i}"))
            if len(pts) > limits.MAX_CUBES:
                raise InputError(f"the region has more than {limits.MAX_CUBES} cells")
        if not pts:
            raise InputError("the region has no cells")
        lo = [min(p[a] for p in pts) for a in range(3)]
        moved = {(x - lo[0], y - lo[1], z - lo[2]) for x, y, z in pts}
        for a in range(3):
            extent = max(p[a] for p in moved) + 1
            if extent > limits.MAX_SIDE:
                raise InputError(
                    f"the region spans {extent} cells along {'xyz'[a]}; at most {limits.MAX_SIDE}"
                )
        self.cells: tuple[Coord, ...] = tuple(sorted(moved, key=lambda p: (p[2], p[1], p[0])))
        self.index: dict[Coord, CellIndex] = {p: i for i, p in enumerate(self.cells)}
        self.dims: Coord = tuple(max(p[a] for p in self.cells) + 1 for a in range(3))  # type: ignore[assignment]

    # -- basic facts ----------------------------------------------------------------------
    @property
    def volume(self) -> int:
        """The number of cells."""
        return len(self.cells)

    @cached_property
    def cellset(self) -> frozenset[Coord]:
        """The cells as a frozen set."""
        return frozenset(self.cells)

    @cached_property
    def odd_cells(self) -> int:
        """The cells whose coordinates add up to an odd number (one colour of the grid's
        chessboard colouring)."""
        return sum(sum(c) & 1 for c in self.cells)

    @cached_property
    def odd_mask(self) -> int:
        """The odd cells (see :attr:`odd_cells`) as a bitmask of cell indices."""
        return sum(1 << i for i, c in enumerate(self.cells) if sum(c) & 1)

    @cached_property
    def longest_line(self) -> int:
        """The most cells in one straight line of the region (a box's longest side): no
        straight segment longer than this can lie in it."""
        best = 0
        for a in range(3):
            for c in self.cells:
                before = (c[0] - (a == 0), c[1] - (a == 1), c[2] - (a == 2))
                if before in self.index:
                    continue  # not the first cell of its line
                k, p = 0, c
                while p in self.index:
                    k += 1
                    p = (p[0] + (a == 0), p[1] + (a == 1), p[2] + (a == 2))
                best = max(best, k)
        return best

    def __contains__(self, coord: object) -> bool:
        return coord in self.index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Region) and self.cells == other.cells

    def __hash__(self) -> int:
        return hash(self.cells)

    def __repr__(self) -> str:
        return f"Region({list(self.cells)!r})"

    def describe(self) -> str:
        """A short name for people: '3x3x3 box' or 'region of 10 cells (3x3x2)'."""
        a, b, c = self.dims
        return f"region of {self.volume} cells (within {a}x{b}x{c})"

    @cached_property
    def neighbours(self) -> tuple[tuple[CellIndex, ...], ...]:
        """``neighbours[cell][direction]``: the adjacent cell, or -1 outside the region."""
        table = []
        for x, y, z in self.cells:
            table.append(
                tuple(self.index.get((x + dx, y + dy, z + dz), -1) for dx, dy, dz in VECTORS)
            )
        return tuple(table)

    @cached_property
    def neighbour_masks(self) -> tuple[int, ...]:
        """``neighbour_masks[cell]``: the cell's neighbours as a bitmask of cell indices (the
        searches' and the census's form of :attr:`neighbours`; see :func:`flood`)."""
        return tuple(sum(1 << x for x in row if x >= 0) for row in self.neighbours)

    # -- symmetry -------------------------------------------------------------------------
    @cached_property
    def symmetries(self) -> tuple[Permutation, ...]:
        """Every distinct cell permutation induced by a rotation or reflection; identity first."""
        return _symmetries(self.cells)

    def orbits(self, group: Sequence[Permutation] | None = None) -> list[list[CellIndex]]:
        """Cells grouped into orbits under ``group`` (default: all symmetries), smallest first."""
        group = self.symmetries if group is None else group
        seen: set[CellIndex] = set()
        out = []
        for c in range(self.volume):
            if c in seen:
                continue
            orbit = sorted({g[c] for g in group})
            seen.update(orbit)
            out.append(orbit)
        return out

    def cell_kind(self, cell: CellIndex) -> str:
        """A name for where a cell sits: for boxes corner, edge, face or inside."""
        degree = sum(1 for n in self.neighbours[cell] if n >= 0)
        return f"{degree}-neighbour"

    # -- text form ------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str, where: str = "region") -> Region:
        """Read layers of ``#`` (cell) and ``.`` (empty), separated by blank lines.

        Within a layer, rows are y = 0, 1, ... top to bottom and columns are x; layers are
        z = 0, 1, ...  Lines starting with ``;`` are comments.
        """
        if not isinstance(text, str):
            raise TypeError(f"a region is given as text (str), not {type(text).__name__}")
        if len(text) > limits.MAX_REGION_BYTES:
            raise InputError(
                f"{where}: {len(text)} characters; a region is at most "
                f"{limits.MAX_REGION_BYTES} characters"
            )
        if text.count("#") > limits.MAX_CUBES:
            raise InputError(
                f"{where}: {text.count('#')} cells; snakecube handles at most {limits.MAX_CUBES}"
            )
        coords = []
        z = y = 0
        in_layer = False
        for lineno, line in enumerate(text.splitlines(), 1):
            if line.lstrip().startswith(";"):
                continue
            if not line.strip():
                if in_layer:
                    z, y, in_layer = z + 1, 0, False
                continue
            in_layer = True
            for x, ch in enumerate(line.rstrip()):
                if ch == "#":
                    coords.append((x, y, z))
                elif ch not in ". ":
                    raise InputError(
                        f"{where}: line {lineno}, column {x + 1}: {ch!r} is not '#' (cell) "
                        "or '.' (empty)"
                    )
            if y >= limits.MAX_SIDE or z >= limits.MAX_SIDE:
                raise InputError(f"{where}: line {lineno}: more than {limits.MAX_SIDE} rows")
            y += 1
        if not coords:
            raise InputError(f"{where}: no '#' cells found")
        return cls(coords)

    @classmethod
    def from_file(cls, path: str | Path, seconds: float | None = None) -> Region:
        """Read a region file (see :meth:`parse`), within ``seconds`` if given (a FIFO nobody
        writes to is refused then, not waited for)."""

        name = repr(str(path))
        try:
            data = limits.read_bounded(path, limits.MAX_REGION_BYTES, seconds)
        except TimeoutError as err:
            raise InputError(f"cannot read region file {name}: {err}") from None
        except OSError as err:
            raise InputError(f"cannot read region file {name}: {err.strerror or err}") from None
        except ValueError as err:  # an embedded NUL in the name
            raise InputError(f"cannot read region file {name}: {err}") from None
        if len(data) > limits.MAX_REGION_BYTES:
            raise InputError(f"region file {name} is larger than {limits.MAX_REGION_BYTES} bytes")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise InputError(
                f"region file {name} is not UTF-8 text (byte {err.start + 1})"
            ) from None
        return cls.parse(text, where=name)

    def to_text(self) -> str:
        """The region as layers of ``#`` and ``.`` (:meth:`parse` reads it back)."""
        a, b, c = self.dims
        layers = []
        for z in range(c):
            rows = [
                "".join("#" if (x, y, z) in self.index else "." for x in range(a)) for y in range(b)
            ]
            layers.append("\n".join(rows))
        return "\n\n".join(layers) + "\n"


class Box(Region):
    """An a x b x c box of cells.

    >>> Box(3, 3, 3).volume, len(Box(3, 3, 3).symmetries), len(Box(2, 3, 4).symmetries)
    (27, 48, 8)
    """

    def __init__(self, a: int, b: int, c: int) -> None:
        a, b, c = limits.box_sides((a, b, c))  # before any cell is built
        super().__init__(itertools.product(range(a), range(b), range(c)))

    @classmethod
    def parse(cls, text: str, where: str = "box") -> Box:
        """Read ``AxBxC`` (also ``A,B,C`` or ``A×B×C``), or ``N`` for an N x N x N cube."""
        if not isinstance(text, str):
            raise TypeError(f"a box is given as text like '2x3x4', not {type(text).__name__}")
        raw = text.strip().lower()
        parts = raw.translate(_BOX_SPACES).split()
        if len(parts) == 1:
            parts = parts * 3
        if len(parts) != 3:
            raise InputError(
                f"{where}: {limits.shorten(text)} is not AxBxC (three sides, like 2x3x4)"
            )
        sides = [
            limits.parse_whole(p, f"{where}: side {i}", 1, limits.MAX_SIDE)
            for i, p in enumerate(parts, 1)
        ]
        return cls(*limits.box_sides(sides, f"{where} box"))

    @classmethod
    def cube(cls, volume: int) -> Box:
        """The n x n x n cube with the given volume."""
        limits.cell_count(volume, f"a snake of {volume} cubes")
        n = round(volume ** (1 / 3))
        for side in (n - 1, n, n + 1):
            if side > 0 and side**3 == volume:
                return cls(side, side, side)
        raise CubeCountError(
            f"the snake has {volume} cubes, which is not a cube number (8, 27, 64, 125, ...); "
            "give a target (target='AxBxC' or a Region)"
        )

    def __repr__(self) -> str:
        return "Box({}, {}, {})".format(*self.dims)

    def describe(self) -> str:
        return "{}x{}x{} box".format(*self.dims)

    def cell_kind(self, cell: CellIndex) -> str:
        coord = self.cells[cell]
        live = [a for a in range(3) if self.dims[a] > 1]
        extreme = sum(1 for a in live if coord[a] in (0, self.dims[a] - 1))
        return _BOX_KINDS[len(live)][extreme]


class Cylinder(Region):
    """A cylinder of cells: the cells of a ``2R x 2R`` square whose centres lie within ``R``
    of the square's centre, in ``H`` layers. ``cyl:RxH`` names it.

    >>> c = Cylinder(2, 3)
    >>> c.volume, c.dims, c.describe()
    (36, (4, 4, 3), 'cylinder of radius 2 and height 3 (36 cells)')
    """

    def __init__(self, radius: int, height: int) -> None:
        r, _, h = limits.box_sides((2 * radius, 2 * radius, height))  # before any cell is built
        self.radius, self.height = radius, height
        disc = [
            (x, y)
            for x in range(r)
            for y in range(r)
            if (2 * x + 1 - r) ** 2 + (2 * y + 1 - r) ** 2 <= r * r
        ]
        super().__init__((x, y, z) for z in range(h) for x, y in disc)

    @classmethod
    def parse(cls, text: str, where: str = "cylinder") -> Cylinder:
        """Read ``RxH``: the radius and the height, in cells."""
        parts = text.strip().lower().translate(_BOX_SPACES).split()
        if len(parts) != 2:
            raise InputError(
                f"{where}: {limits.shorten('cyl:' + text.strip())} is not cyl:RxH (a radius and "
                "a height, like cyl:2x3)"
            )
        radius = limits.parse_whole(parts[0], f"{where}: cyl: the radius", 1, limits.MAX_SIDE // 2)
        height = limits.parse_whole(parts[1], f"{where}: cyl: the height", 1, limits.MAX_SIDE)
        return cls(radius, height)

    def __repr__(self) -> str:
        return f"Cylinder({self.radius}, {self.height})"

    def describe(self) -> str:
        return f"cylinder of radius {self.radius} and height {self.height} ({self.volume} cells)"


# -- a target named in text: one registry ----------------------------------------------------
TargetReader = Callable[[str, str], Region]

# Each kind of target a person can name in a line of text, by the word before its colon
# (``box:2x3x4``); text with no colon is a box (``2x3x4``, ``4``). A new kind (a cylinder of
# cells, say) is one entry here and its reader: the library (``target=``), every command's
# ``--box`` and the page's target field read targets through :func:`parse_target` alone.
# Rejected: a parser per caller (the CLI, the page and the library each read boxes their own
# way, and a new kind meant changing each). A drawn region (layers of '#' and '.', from a
# file or the page's drawing box) is read here too, by :meth:`Region.parse`: the page sends
# one target field, whichever of its two boxes a person filled.
TARGET_KINDS: dict[str, TargetReader] = {"box": Box.parse, "cyl": Cylinder.parse}


def parse_target(text: str, where: str = "target") -> Region:
    """The target named by ``text``: ``AxBxC`` (or ``N``, the N x N x N cube) for a box,
    ``KIND:ARGS`` for a kind of :data:`TARGET_KINDS`, or a drawn region (layers of ``#`` and
    ``.``, as :meth:`Region.parse` reads them); ``where`` names the input in messages.

    >>> parse_target("2x3x4"), parse_target("box:3")
    (Box(2, 3, 4), Box(3, 3, 3))
    """
    if not isinstance(text, str):
        raise TypeError(f"a target is given as text like '2x3x4', not {type(text).__name__}")
    if is_drawing(text):
        return Region.parse(text, where)
    head, colon, rest = text.strip().partition(":")
    if not colon:
        return Box.parse(text, where)
    read = TARGET_KINDS.get(head.strip().lower())
    if read is None:
        kinds = ", ".join(f"{k}:..." for k in TARGET_KINDS)
        raise InputError(
            f"{where}: {limits.shorten(head)} is not a kind of target (AxBxC, or {kinds})"
        )
    return read(rest, where)


def is_drawing(text: str) -> bool:
    """Whether target text is a drawn region (layers of '#' and '.'): no box or named kind
    has a '#' or a line break."""
    return "#" in text or "\n" in text.strip()


def parse_box(text: str, where: str = "box") -> Box:
    """:func:`parse_target` where only a box will do (``generate`` draws random paths of a
    box, ``fold-census`` counts a box's designs): another kind is one line naming it."""
    target = parse_target(text, where)
    if not isinstance(target, Box):
        raise InputError(f"{where}: {target.describe()}: this needs a box (AxBxC)")
    return target


def flood(masks: Sequence[int], reach: int, area: int) -> int:
    """The cells of ``area`` joined to ``reach`` through ``area``, and ``reach``: a flood
    fill over bitmasks of cell indices, ``masks[cell]`` the cell's neighbours
    (:attr:`Region.neighbour_masks`).

    >>> line = Box(4, 1, 1).neighbour_masks  # cells 0-1-2-3 in a row
    >>> bin(flood(line, 0b0001, 0b1011)), bin(flood(line, 0b0001, 0b1111))
    ('0b11', '0b1111')
    """
    todo = reach
    while todo:
        low = todo & -todo
        todo ^= low
        m = masks[low.bit_length() - 1] & area & ~reach
        reach |= m
        todo |= m
    return reach


def wrong_count(cubes: int, target: Region) -> str:
    """Why a snake of ``cubes`` cubes cannot fill ``target``, as a person would say it.

    >>> wrong_count(27, Box(2, 2, 2))
    'the snake has 27 cubes but the 2x2x2 box has 8 cells; a snake needs one cube for each cell'
    """
    if isinstance(target, Box):
        where = f"the {target.describe()} has {target.volume} cells"
    else:
        where = "the region has {} cells (within {}x{}x{})".format(target.volume, *target.dims)
    return f"the snake has {cubes} cubes but {where}; a snake needs one cube for each cell"
