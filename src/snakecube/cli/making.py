"""make: the puzzle's pieces as files for a printer, or its workshop sheet (docs/make.md)."""

from __future__ import annotations

import os
import re
import tempfile
from argparse import ArgumentTypeError, Namespace
from pathlib import Path
from typing import Any

from snakecube import limits, make
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
from snakecube.cli.showing import _add_which, _chosen
from snakecube.errors import InputError
from snakecube.make import Kind, Settings
from snakecube.output import check_writable
from snakecube.snake import Snake

FORMS = (".3mf", ".pdf", ".png", ".svg")  # and a folder (ending in /): STL files


def mm_type(text: str) -> float:
    """Millimetres: a decimal number in ASCII (``20``, ``2.5``); its range is the
    setting's own (``make.Settings``)."""
    try:
        return limits.parse_fraction(text, "value", 10_000.0)
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
        help="time for the search for a fold (the sheet's pictures, --colours "
        "checker); default: no limit",
    )
    add_json(p, "print what was written as one JSON object")


def _form(out: str) -> str:
    """What --out asks for: a form of FORMS, or "folder"."""
    if out.endswith(("/", os.sep)) or os.path.isdir(out):
        return "folder"
    suffix = os.path.splitext(out)[1].lower()
    if suffix not in FORMS:
        raise InputError(
            f"--out {out!r}: unknown extension {suffix or '(none)'!r}; use .3mf, .pdf, .png, "
            ".svg or a folder ending in /"
        )
    return suffix


def need_make(form: str) -> None:
    """An InputError naming what to install when a library ``form`` needs is missing."""
    import importlib.util

    wanted = {
        "folder": ("trimesh", "manifold3d"),
        ".3mf": ("manifold3d", "lib3mf"),
        ".pdf": ("matplotlib",),
        ".png": ("trimesh", "manifold3d", "lib3mf", "matplotlib"),
        ".svg": ("trimesh", "manifold3d", "lib3mf", "matplotlib"),
    }[form]
    missing = [m for m in wanted if importlib.util.find_spec(m) is None]
    if missing:
        extra = "show" if missing == ["matplotlib"] else "make"
        raise InputError(
            f"make --out {form}: needs {', '.join(missing)}: pip install 'snakecube[{extra}]'"
        )


@command(
    "make",
    _options,
    help="make the puzzle: printable pieces (3MF in colour, STL) or the workshop sheet",
    epilog="example: snakecube make king --out king.3mf; snakecube make king --out sheet.pdf",
)
def make_command(args: Namespace) -> int:
    form = _form(args.out)
    need_make(form)
    try:
        settings = Settings(args.size, args.cord, args.colours, args.plate)
    except InputError as err:
        raise InputError(f"--{err}") from None
    if form != "folder":
        check_writable(args.out)
    target = target_of(args)
    snake = Snake.parse(snake_text(args), None if target is None else target.volume)
    plan, shape = None, _shape(snake, target)
    dark_first = False
    if form == ".pdf" or settings.colours == "checker":
        choice = _chosen(args, "make", out=False)
        found = choice.solution
        if found is None:
            if settings.colours == "checker":
                say(
                    "snakecube: no fold found in time: --colours checker alternates from a "
                    "light cube 1"
                )
        else:
            shape = f"the {found.region.describe()}"
            dark_first = make.checker_phase(found.cells) if settings.colours == "checker" else False
            if form == ".pdf":
                from snakecube import fold

                plan = choice.plan or fold.plan(found)
                plan = plan if plan.found else None
    plates = make.pieces(snake, settings, dark_first)
    written = _write(args, form, snake, plates, settings, plan, shape)
    summary = _summary(snake, plates, settings, written, form)
    if args.json:
        print_json(args, summary)
        return EXIT_OK
    _print(summary, form, settings)
    return EXIT_OK


def _shape(snake: Snake, target: Any) -> str:
    if target is not None:
        return f"the {target.describe()}"
    side = round(snake.cubes ** (1 / 3))
    return f"the {side}x{side}x{side} cube" if side**3 == snake.cubes else "its shape"


def _write(
    args: Namespace, form: str, snake: Snake, plates: Any, settings: Settings, plan: Any, shape: str
) -> list[tuple[str, str]]:
    """Write what --out asks for; each file written, with what it holds."""
    typed = snake_text(args)
    title = f"snakecube make {typed}"
    if form == ".3mf":
        from snakecube.make.files import write_3mf

        paths = write_3mf(args.out, plates, settings, title)
        return [
            (str(p), f"plate {k}: {len(pl.pieces)} pieces")
            for k, (p, pl) in enumerate(zip(paths, plates, strict=True), 1)
        ]
    if form == "folder":
        from snakecube.make.files import write_stls

        have = make.counts(plates)
        stls = write_stls(args.out, [k for k in Kind if have[k]], settings)
        return [(str(p), f"print {have[k]}") for k, p in stls.items()]
    if form == ".pdf":
        from snakecube.make.sheet import Workshop, save_sheet

        say(f"snakecube: drawing the workshop sheet into {args.out!r}")
        workshop = Workshop(typed, snake, tuple(plates), settings, plan, shape)
        save_sheet(workshop, args.out, args.paper)
        return [(args.out, "the workshop sheet")]
    # a picture of each plate, drawn from its 3MF file as read back
    from snakecube.make.files import plate_paths, read_3mf, write_3mf
    from snakecube.make.plate import save_plate

    out = []
    with tempfile.TemporaryDirectory() as folder:
        models = write_3mf(Path(folder) / "plate.3mf", plates, settings, title)
        for path, model in zip(plate_paths(args.out, len(plates)), models, strict=True):
            save_plate(read_3mf(model), settings.plate, path)
            out.append((str(path), "a picture of the plate"))
    return out


def _summary(
    snake: Snake, plates: Any, settings: Settings, written: list[tuple[str, str]], form: str
) -> dict[str, Any]:
    c = make.cord(plates, settings)
    return {
        "snake": snake.turns(),
        "pieces": {kind.word: k for kind, k in make.counts(plates).items()},
        "plates": len(plates),
        "per_plate": settings.per_plate()[0] * settings.per_plate()[1],
        "size_mm": settings.size,
        "cord_mm": settings.cord,
        "channel_mm": round(settings.channel, 3),
        "colours": settings.colours,
        "plate_mm": list(settings.plate),
        "cord_length_m": {
            "channels": round(c.channels / 1000, 3),
            "between_knots": round(c.knotted / 1000, 3),
            "cut": round(c.cut / 1000, 3),
        },
        "written": [{"path": p, "holds": what} for p, what in written],
    }


def _print(summary: dict[str, Any], form: str, settings: Settings) -> None:
    pieces = summary["pieces"]
    said = ", ".join(f"{k} {word}{'s' if k != 1 else ''}" for word, k in pieces.items())
    print(f"{'snake':10} {summary['snake']}")
    print(f"{'pieces':10} {said}")
    if summary["plates"] > 1 and form in (".3mf", ".png", ".svg"):
        w, d = settings.plate
        print(
            f"{'plates':10} {summary['plates']}: a plate of {w:g}x{d:g} mm holds "
            f"{summary['per_plate']} cubes of {settings.size:g} mm"
        )
    cut = summary["cord_length_m"]
    print(
        f"{'cord':10} cut {cut['cut']:.2f} m of {settings.cord:g} mm round elastic "
        f"({cut['between_knots']:.2f} m between the knots)"
    )
    for k, item in enumerate(summary["written"]):
        print(f"{'wrote' if k == 0 else '':10} {item['path']} ({item['holds']})")
