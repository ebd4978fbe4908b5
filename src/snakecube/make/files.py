"""The pieces as files for a printer: 3MF with colours (lib3mf, the 3MF Consortium's own
library), STL for printers without 3MF (trimesh's writer), and the plates read back.

A 3MF file is one plate: a body for every piece on it, named ``cube K`` in chain order,
placed where :func:`snakecube.make.pieces.pieces` puts it, coloured from one colour group
(the core specification's ``colorgroup``) by each body's object-level property. A design
that needs more plates is written as ``F.3mf``, ``F-2.3mf``, ``F-3.3mf`` and so on.
Rejected: trimesh's 3MF export (geometry only, no colours); one mesh shared by all the
pieces of a kind through components (smaller files, but a slicer then shows a piece's name
on the shared mesh, not on the piece).
"""

from __future__ import annotations

import functools
import locale
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from snakecube import output, stop
from snakecube.make.pieces import COLOURS, Kind, Plate, Settings
from snakecube.make.solids import body

P = ParamSpec("P")
T = TypeVar("T")

__all__ = ["Read", "plate_paths", "read_3mf", "three_mf_bytes", "write_3mf", "write_stls"]


def _keeps_locale(work: Callable[P, T]) -> Callable[P, T]:
    """``work`` with the process's locale put back after it: lib3mf sets the C locale (for
    its numbers) and leaves it, and Python then opens every text file as ASCII (the served
    page's worker, after a 3MF download; the test suite's process, after a make)."""

    @functools.wraps(work)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        kept = locale.setlocale(locale.LC_ALL)
        try:
            return work(*args, **kwargs)
        finally:
            locale.setlocale(locale.LC_ALL, kept)

    return run


def _lib3mf() -> Any:
    import lib3mf

    return lib3mf


def plate_paths(path: str | Path, plates: int) -> list[Path]:
    """Where ``plates`` plates go when the first is ``path``: F.3mf, F-2.3mf, F-3.3mf..."""
    first = Path(path)
    return [first] + [
        first.with_name(f"{first.stem}-{k}{first.suffix}") for k in range(2, plates + 1)
    ]


def _model(plate: Plate, settings: Settings, title: str) -> Any:
    import numpy as np

    lib = _lib3mf()
    wrapper = lib.get_wrapper()
    model = wrapper.CreateModel()
    model.SetUnit(lib.ModelUnit.MilliMeter)
    meta = model.GetMetaDataGroup()
    meta.AddMetaData("", "Title", title, "string", False)
    meta.AddMetaData("", "Application", "snakecube make", "string", False)
    group = model.AddColorGroup()
    ids = {}
    for name, colour in COLOURS.items():
        ids[name] = group.AddColor(wrapper.RGBAToColor(*bytes.fromhex(colour[1:]), 255))
    for piece in plate.pieces:
        stop.on_time()  # a time limit (stop.within) ends the making between pieces
        shape = body(piece.kind, settings)
        at = np.array([piece.at[0], piece.at[1], 0.0])
        vertices = np.ascontiguousarray(shape.vertices + at, dtype=np.float32)
        faces = np.ascontiguousarray(shape.faces, dtype=np.uint32)
        mesh = model.AddMeshObject()
        mesh.SetName(f"cube {piece.number}")
        mesh.SetGeometry(
            (lib.Position * len(vertices)).from_buffer_copy(vertices.tobytes()),
            (lib.Triangle * len(faces)).from_buffer_copy(faces.tobytes()),
        )
        mesh.SetObjectLevelProperty(group.GetResourceID(), ids[piece.colour])
        model.AddBuildItem(mesh, wrapper.GetIdentityTransform())
    return model


@_keeps_locale
def write_3mf(
    path: str | Path, plates: Sequence[Plate], settings: Settings, title: str
) -> list[Path]:
    """Write each plate to its file (:func:`plate_paths`), each file whole or not at all
    (the paths are checked before the first is written); the paths."""
    paths = plate_paths(path, len(plates))
    for where in paths:
        output.check_writable(where)
    for where, plate in zip(paths, plates, strict=True):
        model = _model(plate, settings, title)
        output.write_file(where, _writer(model.QueryWriter("3mf")))
    return paths


def _writer(writer: Any) -> Callable[[Path], None]:
    """Write a lib3mf writer's file at a path (for ``output.write_file``)."""

    def write(tmp: Path) -> None:
        writer.WriteToFile(str(tmp))

    return write


@_keeps_locale
def three_mf_bytes(plate: Plate, settings: Settings, title: str) -> bytes:
    """One plate's 3MF file as bytes (for the page's download)."""
    writer = _model(plate, settings, title).QueryWriter("3mf")
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder) / "plate.3mf"
        writer.WriteToFile(str(tmp))
        return tmp.read_bytes()


STL_NAMES = {Kind.END: "end.stl", Kind.STRAIGHT: "straight.stl", Kind.CORNER: "corner.stl"}


def write_stls(folder: str | Path, kinds: Sequence[Kind], settings: Settings) -> dict[Kind, Path]:
    """One STL file for each of ``kinds`` in ``folder`` (made if missing, in a folder that
    is there), as it lies to print; the paths."""
    import trimesh

    where = Path(folder)
    where.mkdir(exist_ok=True)
    out = {}
    for kind in kinds:
        stop.on_time()  # a time limit (stop.within) ends the making between pieces
        shape = body(kind, settings)
        mesh = trimesh.Trimesh(shape.vertices, shape.faces, process=False)
        path = where / STL_NAMES[kind]
        output.write_file(path, _stl(mesh))
        out[kind] = path
    return out


def _stl(mesh: Any) -> Callable[[Path], None]:
    def write(tmp: Path) -> None:
        mesh.export(str(tmp), file_type="stl")

    return write


@dataclass(frozen=True, slots=True)
class Read:
    """A body read back from a 3MF file: its name, mesh and colour (``#rrggbb``)."""

    name: str
    vertices: Any
    faces: Any
    colour: str


@_keeps_locale
def read_3mf(path: str | Path) -> list[Read]:
    """The bodies of a 3MF file: their meshes as trimesh reads them (placed by the build's
    transforms), their names and colours as lib3mf reads them."""
    import trimesh

    lib = _lib3mf()
    model = lib.get_wrapper().CreateModel()
    model.QueryReader("3mf").ReadFromFile(str(path))
    colours = {}
    meshes = model.GetMeshObjects()
    while meshes.MoveNext():
        mesh = meshes.GetCurrentMeshObject()
        group_id, prop, has = mesh.GetObjectLevelProperty()
        if has:
            c = model.GetColorGroupByID(group_id).GetColor(prop)
            colours[mesh.GetName()] = "#" + "".join(f"{v:02x}" for v in (c.Red, c.Green, c.Blue))
    scene = trimesh.load_scene(str(path))
    out = []
    for node in scene.graph.nodes_geometry:
        transform, geometry = scene.graph[node]
        name = str(geometry)
        mesh = scene.geometry[name].copy()
        mesh.apply_transform(transform)
        out.append(Read(name, mesh.vertices, mesh.faces, colours.get(name, "#cccccc")))
    return out
