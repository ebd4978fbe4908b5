"""Make the puzzle: printable pieces (3MF with colours, STL) and a workshop sheet for any
design (docs/make.md). The meshes need the ``make`` extra (trimesh, manifold3d, lib3mf);
the pieces as data need nothing."""

from snakecube.make.pieces import (
    COLOURS,
    SCHEMES,
    Cord,
    Kind,
    Piece,
    Plate,
    Settings,
    bit,
    checker_phase,
    cord,
    counts,
    pieces,
)

__all__ = [
    "COLOURS",
    "SCHEMES",
    "Cord",
    "Kind",
    "Piece",
    "Plate",
    "Settings",
    "bit",
    "checker_phase",
    "cord",
    "counts",
    "pieces",
]
