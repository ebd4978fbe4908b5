"""The pieces of a snake cube to make, as data: what each cube is, its colour, where it lies
on the print plate, and the numbers a maker needs (the channel, the knot's pocket, the
cord's length, the drills). Decided without any mesh library: :mod:`snakecube.make.solids`
builds the bodies from these numbers, :mod:`snakecube.make.sheet` draws the workshop sheet.

Every cube is one of three pieces, whatever the design: an **end** (the cord leaves by one
face; a pocket holds its knot), a **straight** (through two opposite faces) and a
**corner** (out of two adjacent faces, bent through the middle). A corner's two faces are
the same to its neighbours whichever way round it is strung, so a design is only its
string of E, S and C (``Snake.turns()``): the pieces differ from design to design in their
order and count, never in their shape.

The numbers, and why (docs/make.md says the same for makers):

=====================  ============  ===================================================
number                 at 20 mm,     why
                       2.5 mm cord
=====================  ============  ===================================================
``CLEARANCE``          0.6 mm        the channel is this much wider than the cord, across
                                     the flats of its 32-sided polygon. The issue asks for
                                     0.4 at least; a printed hole comes out about 0.2 mm
                                     small, so 0.6 drawn leaves 0.4 printed. Rejected:
                                     0.4 drawn (a printed hole then grips the cord).
``chamfer``            1.0 mm        every edge, so that neighbours turn past each other;
                                     a twentieth of the side on smaller cubes
``TEARDROP``           40 degrees    the sides of a channel lying across the layers
                                     (a teardrop's point up): 45 is the most a printer
                                     takes unsupported; PrusaSlicer 2.5 (automatic
                                     supports) asked for support in the corner's bend at
                                     45 and for none at 40 (docs/make.md)
``LEG``                3.0 mm        a corner's channel runs straight this far in from
                                     each face, then bends: the cord leaves square to
                                     the face, and a check 1 and 2 mm in finds a
                                     straight hole
``bend``               7.0 mm        the corner's bend radius (half the side less LEG):
                                     the widest the cube allows, so the cord runs
                                     smoothly. Rejected: a quarter circle from face to
                                     face (radius 10: the channel then leans 0.2 mm off
                                     square 2 mm in)
``pocket``             8.1 mm        an end's pocket for the knot: three cords across (an
                                     overhand knot in round elastic) plus CLEARANCE, half
                                     the cube deep, open on the face opposite the cord's
                                     so the knot is tied outside and pulled in
``WALL``               1.6 mm        the least wall beside the pocket (four lines of a
                                     0.4 mm nozzle): sets the smallest cube for a cord
``GAP``                5 mm          between pieces on the plate, and at its edges
``STRETCH``            10 %          the cord, knotted, is a tenth shorter than the
                                     channels, so the chain pulls itself together
``KNOT_ROOM``          100 mm        cord to hold at each end while tying, cut off after
=====================  ============  ===================================================

Colours: ``alternate`` (the default) colours cube 1 light, cube 2 dark, and so on, as
wooden snakes are made; ``checker`` colours each cube by its cell's parity in a fold (dark
where x+y+z is even, as a1 on a chess board); ``one`` makes every cube light. On a grid
each cube's cell is a neighbour of the last one's, so the parity alternates along the
chain: ``alternate`` and ``checker`` are the same two colours, and a design with two
shapes shows a chess board flat and a 3D checkerboard as a cube either way. ``checker``
only sets which colour cube 1 is: the one that puts the dark colour on the box's even
cells in the fold given.
"""

from __future__ import annotations

import enum
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from snakecube import limits
from snakecube.errors import InputError
from snakecube.snake import Snake


class Kind(enum.StrEnum):
    """A piece: its letter in ``Snake.turns()``."""

    END = "E"
    STRAIGHT = "S"
    CORNER = "C"

    @property
    def word(self) -> str:
        return {"E": "end", "S": "straight", "C": "corner"}[self.value]


CLEARANCE = 0.6  # mm on the diameter, across the channel's flats
CHANNEL_SIDES = 32  # the channel's polygon
POCKET_SIDES = 48  # the knot pocket's polygon
LEG = 3.0  # mm: a corner's channel straight in from each face before it bends
TEARDROP = 40.0  # degrees from the vertical: the sides of the channel's teardrop
KNOT = 3.0  # cords across a knot's pocket (before CLEARANCE)
WALL = 1.6  # mm: the least wall beside the pocket
GAP = 5.0  # mm between pieces on the plate, and at its edges
STRETCH = 0.10  # the knotted cord this much shorter than the channels
KNOT_ROOM = 100.0  # mm of cord held at each end while tying
PLATE = (250.0, 210.0)  # mm: the default print plate, which holds 64 cubes of 20 mm
SIZES = (5.0, 200.0)  # mm: a cube's side, from and to
CORDS = (0.5, 20.0)  # mm: the cord's diameter, from and to
PLATES = (20.0, 2000.0)  # mm: a plate's width or depth, from and to
SCHEMES = ("alternate", "checker", "one")
COLOURS = {"light": "#e8c48a", "dark": "#7b4a26"}  # maple and walnut


@dataclass(frozen=True, slots=True)
class Settings:
    """How to make the pieces: the cube's side and the cord's diameter in mm, the colours
    (one of SCHEMES) and the print plate's width and depth in mm. Every derived number is a
    property; the values are checked when made (an :class:`InputError` names the one that
    is wrong)."""

    size: float = 20.0
    cord: float = 2.5
    colours: str = "alternate"
    plate: tuple[float, float] = PLATE

    def __post_init__(self) -> None:
        limits.number(self.size, "size", *SIZES)
        limits.number(self.cord, "cord", *CORDS)
        if self.colours not in SCHEMES:
            raise InputError(f"colours: {self.colours!r} is not one of {', '.join(SCHEMES)}")
        if len(self.plate) != 2:
            raise InputError(f"plate: {self.plate!r} is not a width and a depth")
        for side in self.plate:
            limits.number(side, "plate", *PLATES)
        least = self.least_size
        if self.size < least:
            raise InputError(
                f"size: {self.size:g} mm is too small for a {self.cord:g} mm cord: its knot "
                f"pocket ({self.pocket:.1f} mm across) needs cubes of at least {least:.1f} mm"
            )
        if min(self.per_plate()) < 1:
            raise InputError(
                f"plate: {self.plate[0]:g}x{self.plate[1]:g} mm does not hold one cube of "
                f"{self.size:g} mm with {GAP:g} mm around it"
            )

    @property
    def channel(self) -> float:
        """The channel's width across its flats: the cord and CLEARANCE."""
        return self.cord + CLEARANCE

    @property
    def channel_radius(self) -> float:
        """The radius of the channel polygon's corners (its flats are ``channel`` apart)."""
        return self.channel / 2 / math.cos(math.pi / CHANNEL_SIDES)

    @property
    def chamfer(self) -> float:
        return min(1.0, self.size / 20)

    @property
    def bend(self) -> float:
        """A corner's bend radius, to the channel's centre line."""
        return self.size / 2 - LEG

    @property
    def pocket(self) -> float:
        """The knot pocket's width across its flats."""
        return KNOT * self.cord + CLEARANCE

    @property
    def pocket_depth(self) -> float:
        return self.size / 2

    @property
    def least_size(self) -> float:
        """The smallest cube for this cord: the pocket with WALL either side; the bend
        wider than the channel (its teardrop clear of the bend's axis)."""
        r = self.channel_radius
        tip = r / math.sin(math.radians(TEARDROP))
        return max(self.pocket + 2 * WALL, 2 * (LEG + r + 0.5), 2 * (tip + WALL))

    @property
    def pitch(self) -> float:
        """From one piece's centre to the next on the plate."""
        return self.size + GAP

    def per_plate(self) -> tuple[int, int]:
        """Columns and rows of pieces one plate holds (a piece that fits to within a
        micrometre fits: 33.3 - 5 is a hair under 28.3 in floating point)."""
        w, d = self.plate
        return (int((w - GAP + 1e-6) // self.pitch), int((d - GAP + 1e-6) // self.pitch))

    def channel_length(self, kind: Kind) -> float:
        """The cord's length through a piece (to an end's pocket floor)."""
        if kind is Kind.STRAIGHT:
            return self.size
        if kind is Kind.CORNER:
            return 2 * LEG + math.pi * self.bend / 2
        return self.size - self.pocket_depth


@dataclass(frozen=True, slots=True)
class Piece:
    """Cube ``number`` of the chain (1 is the snake's first end as typed): its kind, its
    colour (a key of COLOURS), and where it lies: ``plate`` (1, 2, ...), ``row`` and
    ``column`` from the plate's front left (1-based), and its centre ``at`` in mm from
    that corner."""

    number: int
    kind: Kind
    colour: str
    plate: int
    row: int
    column: int
    at: tuple[float, float]


@dataclass(frozen=True, slots=True)
class Plate:
    """One print plate's pieces, in chain order."""

    number: int
    pieces: tuple[Piece, ...]


def pieces(snake: Snake, settings: Settings, dark_first: bool = False) -> tuple[Plate, ...]:
    """The pieces of ``snake``, plate by plate: in chain order, row by row from the plate's
    front left, left to right, the grid centred on the plate. ``dark_first`` makes cube 1
    dark (with ``checker``: :func:`checker_phase`)."""
    if not isinstance(snake, Snake):
        raise TypeError(f"snake must be a Snake, not {type(snake).__name__}")
    kinds = [Kind(ch) for ch in snake.turns()]
    columns, rows = settings.per_plate()
    per = columns * rows
    out = []
    for p, first in enumerate(range(0, len(kinds), per), 1):
        these = kinds[first : first + per]
        used_rows = math.ceil(len(these) / columns)
        used_columns = min(columns, len(these))
        left = (settings.plate[0] - (used_columns * settings.pitch - GAP)) / 2
        front = (settings.plate[1] - (used_rows * settings.pitch - GAP)) / 2
        placed = []
        for k, kind in enumerate(these):
            number = first + k + 1
            row, column = divmod(k, columns)
            at = (
                left + column * settings.pitch + settings.size / 2,
                front + row * settings.pitch + settings.size / 2,
            )
            colour = _colour(number, settings.colours, dark_first)
            placed.append(Piece(number, kind, colour, p, row + 1, column + 1, at))
        out.append(Plate(p, tuple(placed)))
    return tuple(out)


def _colour(number: int, scheme: str, dark_first: bool) -> str:
    if scheme == "one":
        return "light"
    dark = (number % 2 == 1) == dark_first
    return "dark" if dark else "light"


def checker_phase(cells: Sequence[Sequence[int]]) -> bool:
    """For ``checker``: whether cube 1 is dark in the fold whose cells (in chain order) are
    ``cells``: dark where x + y + z is even."""
    return sum(cells[0]) % 2 == 0


def counts(plates: Sequence[Plate]) -> dict[Kind, int]:
    """How many pieces of each kind, in the order end, straight, corner."""
    seen = Counter(p.kind for plate in plates for p in plate.pieces)
    return {kind: seen[kind] for kind in Kind}


@dataclass(frozen=True, slots=True)
class Cord:
    """The cord: its path through the channels, from the first pocket's floor to the last
    one's (``channels``), the length between the knots once tied (``knotted``: STRETCH
    shorter) and the length to cut (``cut``: KNOT_ROOM more at each end), in mm."""

    channels: float
    knotted: float
    cut: float


def cord(plates: Sequence[Plate], settings: Settings) -> Cord:
    path = sum(settings.channel_length(p.kind) for plate in plates for p in plate.pieces)
    knotted = path * (1 - STRETCH)
    return Cord(path, knotted, knotted + 2 * KNOT_ROOM)


def bit(mm: float) -> float:
    """The drill to use for a hole at least ``mm`` wide: the next half millimetre."""
    return math.ceil(mm * 2 - 1e-9) / 2
