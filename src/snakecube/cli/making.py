"""make: the puzzle's pieces as files for a printer, or its workshop sheet (docs/make.md)."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import re
import shutil
import tempfile
from argparse import ArgumentTypeError, Namespace
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from snakecube import limits, make, stop
from snakecube.cli.base import (
    EXIT_OK,
    Parser,
    add_json,
    add_seconds,
    command,
    print_json,
    say,
    snake_text,
    target_of,
)
from snakecube.cli.showing import _add_which, _chosen, _typed
from snakecube.errors import CubeCountError, InputError
from snakecube.fold import FoldPlan
from snakecube.make import Kind, Plate, Settings
from snakecube.output import check_writable, write_file
from snakecube.shape import Region, wrong_count
from snakecube.snake import Snake
from snakecube.stop import StopReason

FORMS = (".3mf", ".pdf", ".png", ".svg")  # and a folder (ending in /): STL files
NEEDS = {  # the libraries each form needs
    "folder": ("trimesh", "manifold3d"),
    ".3mf": ("manifold3d", "lib3mf"),
    ".pdf": ("matplotlib",),
    ".png": ("trimesh", "manifold3d", "lib3mf", "matplotlib"),
    ".svg": ("trimesh", "manifold3d", "lib3mf", "matplotlib"),
}


def mm_type(text: str) -> float:
    """Millimetres: a decimal number in ASCII (``20``, ``2.5``); its range is the
    setting's own (``make.Settings``), said with the option's name."""
    try:
        return limits.parse_fraction(text, "value", 1e9)
    except InputError:
        raise ArgumentTypeError(f"{limits.shorten(text.strip())} is not a number of mm") from None


mm_type.__name__ = "mm"

_PLATE = re.compile(r"\s*([0-9.]+)\s*[xX×]\s*([0-9.]+)\s*")


def plate_type(text: str) -> tuple[float, float]:
    """A plate's width and depth in mm: ``250x210``."""
    found = _PLATE.fullmatch(text)
    if found is None:
        raise ArgumentTypeError(f"{limits.shorten(text.strip())} is not WxD in mm, like 250x210")
    return (mm_type(found[1]), mm_type(found[2]))


plate_type.__name__ = "plate"


def _options(p: Parser) -> None:
    _add_which(p)
    p.add_argument(
        "--out",
        metavar="FILE",
        required=True,
        help="F.3mf: the pieces on the print plate, in colour (F-2.3mf... when they need more "
        "plates); DIR/: one STL file per kind of piece; F.pdf: the workshop sheet; F.png or "
        "F.svg: a picture of the plate",
    )
    p.add_argument(
        "--size", type=mm_type, default=20.0, metavar="MM", help="a cube's side in mm (default 20)"
    )
    p.add_argument(
        "--cord",
        type=mm_type,
        default=2.5,
        metavar="MM",
        help="the elastic cord's diameter in mm (default 2.5)",
    )
    p.add_argument(
        "--colours",
        choices=make.SCHEMES,
        default="alternate",
        help="two colours alternating along the chain (the default), the cells' parity in "
        "the fold (checker), or one colour",
    )
    p.add_argument(
        "--plate",
        type=plate_type,
        default=(250.0, 210.0),
        metavar="WxD",
        help="the print plate in mm (default 250x210)",
    )
    p.add_argument(
        "--paper", choices=("a4", "letter"), default="a4", help="the workshop sheet's paper"
    )
    add_seconds(
        p,
        help="time for the whole command: the search for a fold (the sheet's pictures, "
        "--colours checker) and the files; stopped, nothing is written (default: no limit)",
    )
    add_json(p, "print what was written as one JSON object")


def _form(out: str) -> str:
    """What --out asks for: a form of FORMS, or "folder" (a name ending in /)."""
    if out.endswith(("/", os.sep)):
        return "folder"
    suffix = os.path.splitext(out)[1].lower()
    if os.path.isdir(out):
        raise InputError(
            f"--out {out!r} is a folder: name a file, or write {out.rstrip('/')}/ (with its /) "
            "for one STL file per kind of piece"
        )
    if suffix not in FORMS:
        raise InputError(
            f"--out {out!r}: unknown extension {suffix or '(none)'!r}; use .3mf, .pdf, .png, "
            ".svg or a folder ending in /"
        )
    return suffix


def need_make(form: str) -> None:
    """An InputError naming what to install when a library ``form`` needs is missing."""
    missing = [m for m in NEEDS[form] if importlib.util.find_spec(m) is None]
    if missing:
        extra = "show" if missing == ["matplotlib"] else "make"
        raise InputError(
            f"make --out {form}: needs {', '.join(missing)}: pip install 'snakecube[{extra}]'"
        )


def _outputs(out: str, form: str, plates: int) -> list[Path]:
    """Every file --out will write, each checked now (before any search or drawing): the
    plates' files (F.3mf, F-2.3mf...), or the folder's STL files. A folder may be new,
    its parent must exist."""
    from snakecube.make.files import STL_NAMES, plate_paths

    if form == "folder":
        folder = Path(out)
        if not folder.is_dir() and not folder.parent.is_dir():
            raise InputError(f"--out {out!r}: no folder {str(folder.parent)!r} to make it in")
        paths = [folder / name for name in STL_NAMES.values()]
        for path in paths:
            if path.is_dir():
                raise InputError(f"cannot write {str(path)!r}: it is a folder")
        if folder.is_dir():
            for path in paths:
                check_writable(path)
        elif not os.access(folder.parent, os.W_OK):
            raise InputError(f"--out {out!r}: cannot make a folder in {str(folder.parent)!r}")
        return paths
    paths = plate_paths(out, plates) if form != ".pdf" else [Path(out)]
    for path in paths:
        check_writable(path)
    return paths


@dataclass(frozen=True)
class Fold:
    """What a fold gives the pieces: the shape in words, the plan (the sheet's pictures),
    cube 1's colour (``checker``) and the words for a sheet's header."""

    shape: str
    plan: FoldPlan | None = None
    dark_first: bool = False
    typed: str = ""
    fell_back: bool = False  # checker asked, no fold found in time: alternate from light
    cells: tuple[tuple[int, int, int], ...] | None = None  # the fold's cells, in chain order


@command("make", _options)
def make_command(args: Namespace) -> int:
    """make the puzzle: printable pieces (3MF in colour, STL) or the workshop sheet

    example: snakecube make king --out king.3mf; snakecube make king --out sheet.pdf
    """
    form = _form(args.out)
    need_make(form)
    try:
        settings = Settings(args.size, args.cord, args.colours, args.plate)
    except InputError as err:
        raise InputError(f"--{err}") from None
    target = target_of(args)
    snake = Snake.parse(snake_text(args), None if target is None else target.volume)
    if target is not None and snake.cubes != target.volume:
        raise CubeCountError(wrong_count(snake.cubes, target))
    plates = make.pieces(snake, settings)
    paths = _outputs(args.out, form, len(plates))
    fold = _fold(args, form, settings, snake, target)
    if fold.dark_first:
        plates = make.pieces(snake, settings, dark_first=True)
    stopped = False
    try:
        with stop.within(args.seconds, args.started):  # every phase, the files' too
            written = _write(args, form, snake, plates, settings, fold)
    except stop.OutOfTime:
        say(
            f"snakecube: stopped making the files at the time limit (--seconds "
            f"{args.seconds:g}): nothing written; give more time (--seconds S) to make them"
        )
        written, stopped = [], True
    else:
        _stale(paths, form)
    summary = _summary(snake, plates, settings, written, fold)
    summary["complete"] = not stopped
    summary["stop_reason"] = StopReason.SECONDS if stopped else None
    if args.json:
        print_json(args, summary)
        return EXIT_OK
    _print(summary, form, settings)
    return EXIT_OK


def _fold(
    args: Namespace, form: str, settings: Settings, snake: Snake, target: Region | None
) -> Fold:
    """The fold the pieces need: for the sheet's pictures, and for ``checker`` colours;
    none for the rest (the pieces do not depend on it)."""
    shape = _shape(snake, target)
    checker = settings.colours == "checker"
    if form != ".pdf" and not checker:
        if args.solution is not None:
            say(
                f"snakecube: --solution {args.solution} picks the fold of the sheet's pictures "
                "and of --colours checker; these pieces do not depend on it"
            )
        return Fold(shape)
    verb = "draw the sheet's pictures from" if form == ".pdf" else "colour by"
    choice = _chosen(args, verb, out=False)
    found = choice.solution
    if found is None:
        if checker:
            say(
                "snakecube: --colours checker: no fold in time, so the colours alternate from "
                "a light cube 1 (the same pattern, either way round)"
            )
        return Fold(shape, fell_back=checker)
    plan = None
    if form == ".pdf":
        from snakecube import fold as plans

        with stop.within(args.seconds, args.started):  # the planner's searches, too
            plan = choice.plan or plans.plan(found)
        plan = plan if plan.found else None
    dark = make.checker_phase(found.cells) if checker else False
    cells = tuple(tuple(c) for c in found.cells)
    return Fold(f"the {found.region.describe()}", plan, dark, _typed(args, choice), cells=cells)


def _shape(snake: Snake, target: Region | None) -> str:
    if target is not None:
        return f"the {target.describe()}"
    side = round(snake.cubes ** (1 / 3))
    return f"the {side}x{side}x{side} cube" if side**3 == snake.cubes else "its shape"


def _stale(paths: Sequence[Path], form: str) -> None:
    """Say so when files of an earlier run's plates follow this run's last (F-3.3mf when
    this design needs two plates): they are not this design's."""
    if form not in (".3mf", ".png", ".svg"):
        return
    first = paths[0]
    k = len(paths) + 1
    stale = []
    while (more := first.with_name(f"{first.stem}-{k}{first.suffix}")).exists():
        stale.append(str(more))
        k += 1
    if stale:
        say(f"snakecube: note: {', '.join(stale)} from an earlier run are not this design's")


def _write(
    args: Namespace,
    form: str,
    snake: Snake,
    plates: Sequence[Plate],
    settings: Settings,
    fold: Fold,
) -> list[tuple[str, str]]:
    """Write what --out asks for; each file written, with what it holds."""
    from snakecube.make.files import plate_paths

    typed = snake_text(args)
    title = f"snakecube make {typed}"
    if form == ".3mf":
        from snakecube.make.files import write_3mf

        with _staged(args.out, len(plates)) as (folder, place):
            place(write_3mf(folder / "plate.3mf", plates, settings, title))
        paths = plate_paths(args.out, len(plates))
        return [
            (str(p), f"plate {k}: {_n(len(pl.pieces), 'piece')}")
            for k, (p, pl) in enumerate(zip(paths, plates, strict=True), 1)
        ]
    if form == "folder":
        from snakecube.make.files import STL_NAMES, write_stls

        have = make.counts(plates)
        kinds = [k for k in Kind if have[k]]
        with tempfile.TemporaryDirectory() as folder:  # all three made, then put in place
            made = write_stls(folder, kinds, settings)
            stop.on_time()
            with stop.deferred():  # copying them: a Ctrl-C waits until all are in place
                Path(args.out).mkdir(exist_ok=True)
                for kind in kinds:
                    write_file(Path(args.out) / STL_NAMES[kind], _copy(made[kind]))
        return [(str(Path(args.out) / STL_NAMES[k]), f"print {have[k]}") for k in kinds]
    if form == ".pdf":
        from snakecube.make.sheet import Workshop, save_sheet

        say(f"snakecube: drawing the workshop sheet into {args.out!r}")
        workshop = Workshop(
            fold.typed or typed, snake, tuple(plates), settings, fold.plan, fold.shape
        )
        save_sheet(workshop, args.out, args.paper)
        return [(args.out, "the workshop sheet")]
    # a picture of each plate, drawn from its 3MF file as read back
    from snakecube.make.files import read_3mf, write_3mf
    from snakecube.make.plate import save_plate

    with _staged(args.out, len(plates)) as (folder, place):
        models = write_3mf(folder / "plate.3mf", plates, settings, title)
        pictures = [folder / f"plate-{k}{Path(args.out).suffix}" for k in range(len(plates))]
        for model, picture in zip(models, pictures, strict=True):
            stop.on_time()  # between plates: one plate's drawing is one call of matplotlib
            save_plate(read_3mf(model), settings.plate, picture)
        place(pictures)
    return [(str(p), "a picture of the plate") for p in plate_paths(args.out, len(plates))]


def _copy(made: Path) -> Callable[[Path], object]:
    """A writer for ``output.write_file`` that copies the file ``made``."""
    return functools.partial(shutil.copyfile, made)


@contextlib.contextmanager
def _staged(out: str, plates: int) -> Iterator[tuple[Path, Callable[[Sequence[Path]], None]]]:
    """A private folder in which every plate's file is made first, and ``place(made)``,
    which puts them at their paths (F.3mf, F-2.3mf...), each whole, once all are made: a
    time limit or Ctrl-C while they are made leaves none of them written, not the first few
    of a set. Rejected: writing each in turn (a stop after plate 3 of 14 left three files of
    this run beside eleven of an earlier one)."""
    from snakecube.make.files import plate_paths

    def place(made: Sequence[Path]) -> None:
        stop.on_time()  # the last look at the clock: placing them is copying files
        with stop.deferred():  # a Ctrl-C while they are copied waits until all are in place
            for path, file in zip(plate_paths(out, plates), made, strict=True):
                write_file(path, _copy(file))

    with tempfile.TemporaryDirectory() as folder:
        yield Path(folder), place


def _n(count: int, word: str) -> str:
    """'1 piece', '2 pieces'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def _summary(
    snake: Snake,
    plates: Sequence[Plate],
    settings: Settings,
    written: list[tuple[str, str]],
    fold: Fold,
) -> dict[str, Any]:
    c = make.cord(plates, settings)
    columns, rows = settings.per_plate()
    out: dict[str, Any] = {
        "snake": snake.turns(),
        "pieces": {kind.word: k for kind, k in make.counts(plates).items()},
        "plates": len(plates),
        "per_plate": columns * rows,
        "size_mm": settings.size,
        "cord_mm": settings.cord,
        "channel_mm": round(settings.channel, 3),
        "colours": "alternate" if fold.fell_back else settings.colours,
        "colour_of_cube_1": plates[0].pieces[0].colour,
        "plate_mm": list(settings.plate),
        "cord_length_m": {
            "channels": round(c.channels / 1000, 3),
            "between_knots": round(c.knotted / 1000, 3),
            "cut": round(c.cut / 1000, 3),
        },
        "written": [{"path": p, "holds": what} for p, what in written],
    }
    if fold.cells is not None:
        out["fold_cells"] = [list(c) for c in fold.cells]
    if fold.fell_back:
        out["colours_note"] = "checker asked: no fold in time, so they alternate from light"
    return out


def _print(summary: dict[str, Any], form: str, settings: Settings) -> None:
    pieces = summary["pieces"]
    said = ", ".join(_n(k, word) for word, k in pieces.items())
    print(f"{'snake':10} {summary['snake']}")
    print(f"{'pieces':10} {said}")
    if summary["plates"] > 1 and form in (".3mf", ".png", ".svg"):
        w, d = settings.plate
        print(
            f"{'plates':10} {summary['plates']}: a plate of {w:g}x{d:g} mm holds "
            f"{_n(summary['per_plate'], 'cube')} of {settings.size:g} mm"
        )
    cut = summary["cord_length_m"]
    print(
        f"{'cord':10} cut {cut['cut']:.2f} m of {settings.cord:g} mm round elastic "
        f"({cut['between_knots']:.2f} m between the knots)"
    )
    for k, item in enumerate(summary["written"]):
        print(f"{'wrote' if k == 0 else '':10} {item['path']} ({item['holds']})")
