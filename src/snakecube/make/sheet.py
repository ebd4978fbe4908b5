"""The workshop sheet: everything a maker needs on paper, for a printer or a wood shop.

Pages (A4 or Letter, PDF): the pieces in chain order with the count of each, how each kind
is printed and drilled, the colours, the cord's length and the stringing order; the plates
seen from above with every piece's number; the finished shape and the flat start with the
pieces' numbers and colours. Its words are made here from :mod:`snakecube.make.pieces`'
numbers; its pictures are the fold plan's scenes (:mod:`snakecube.explain.scene`) coloured
as the pieces are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from matplotlib.figure import Figure

from snakecube.explain import pictures, scene
from snakecube.explain.drawing import Drawing
from snakecube.explain.pictures import GAP, MARGIN, PAPERS, TEXT_PT, Sheet, lines_height, wrap
from snakecube.fold import FoldPlan
from snakecube.make.pieces import (
    COLOURS,
    KNOT_ROOM,
    STRETCH,
    Kind,
    Plate,
    Settings,
    bit,
    cord,
)
from snakecube.snake import Snake

__all__ = ["Workshop", "kind_words", "save_sheet", "sheet_figures", "stringing_words"]

PER_LINE = 10  # pieces on a line of the chain's order
COLOUR_WORDS = {"light": "light (maple)", "dark": "dark (walnut)"}


@dataclass(frozen=True, slots=True)
class Workshop:
    """What the sheet is about: the design as typed, its pieces, how they are made, and a
    fold plan for its pictures (None when no fold was found in time: the sheet says so)."""

    typed: str
    snake: Snake
    plates: tuple[Plate, ...]
    settings: Settings
    plan: FoldPlan | None
    target: str  # the shape, in words ("the 4x4x4 cube")


def _n(count: int, word: str) -> str:
    """'1 piece', '2 pieces'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def _mm(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def kind_words(kind: Kind) -> str:
    """What a piece of ``kind`` is, in words."""
    return {
        Kind.END: "the cord leaves by one face (a small hole); a pocket for its knot opens "
        "on the opposite face (a wide hole).",
        Kind.STRAIGHT: "the cord goes straight through two opposite faces.",
        Kind.CORNER: "the cord leaves by two faces that meet at an edge, bending through "
        "the middle.",
    }[kind]


def drill_words(kind: Kind, s: Settings) -> str:
    """How a piece of ``kind`` is drilled in wood."""
    hole = f"{_mm(s.channel)} mm at least (drill {_mm(bit(s.channel))} mm)"
    if kind is Kind.END:
        return (
            f"a hole of {hole} through the middle of a face, then from the opposite face a "
            f"pocket {_mm(s.pocket)} mm across at least (Forstner bit {_mm(bit(s.pocket))} "
            f"mm), {_mm(s.pocket_depth)} mm deep."
        )
    if kind is Kind.STRAIGHT:
        return f"a hole of {hole} straight through, face middle to face middle."
    depth = s.size / 2 + bit(s.channel) / 2
    return (
        f"a hole of {hole} into the middle of each of the two faces, {_mm(depth)} mm deep, so "
        "that they meet; take the sharp edge off where they meet, so the cord turns smoothly."
    )


def stringing_words(w: Workshop) -> list[str]:
    """The stringing order, step by step."""
    n = w.snake.cubes
    c = cord(w.plates, w.settings)
    middle = "cube 2" if n == 3 else f"cubes 2 to {n - 1}"
    return [
        f"Cut {c.cut / 1000:.2f} m of cord. Tie an overhand knot {_mm(KNOT_ROOM / 10)} cm from "
        f"one end, and mark the cord {c.knotted / 1000:.2f} m from the knot.",
        "Thread the other end into cube 1's pocket (its wide hole) and out through its small "
        "hole, so that the knot sits in the pocket.",
        *(
            [
                f"Thread {middle} in the order of the list above: each the kind the list says "
                "(the colours alternate, if you made them so), into either of its holes and out "
                "of the other (a corner's two holes are alike; a long needle or a bent wire "
                "takes the cord round its bend)."
            ]
            if n > 2
            else []
        ),
        f"Thread cube {n} in through its small hole and out of its pocket. Pull the mark into "
        "the pocket (the cord stretches by a tenth), tie the second knot at the mark, trim the "
        "end and press the knot into the pocket.",
    ]


def _pieces_lines(w: Workshop) -> list[str]:
    """The chain's order, PER_LINE pieces a line, with their numbers."""
    letters = w.snake.turns()
    out = []
    for first in range(0, len(letters), PER_LINE):
        chunk = letters[first : first + PER_LINE]
        span = f"{first + 1}-{first + len(chunk)}"
        out.append(f"{span:>9}  {' '.join(chunk)}")
    return out


def _told(plates: tuple[Plate, ...], colour: str | None = None) -> str:
    """'2 ends (E), 16 straights (S), 46 corners (C)', of one colour or of all."""
    seen = Counter(
        p.kind for plate in plates for p in plate.pieces if colour is None or p.colour == colour
    )
    return ", ".join(
        f"{seen[kind]} {kind.word}{'s' if seen[kind] != 1 else ''} ({kind.value})" for kind in Kind
    )


def _colour_words(w: Workshop) -> str:
    scheme = w.settings.colours
    if scheme == "one":
        return "Colour: every piece light."
    first = w.plates[0].pieces[0].colour
    other = "dark" if first == "light" else "light"
    how = (
        "alternating along the chain, as wooden snakes are made"
        if scheme == "alternate"
        else "by the cells' parity in the fold (the box's cells in a 3D checkerboard)"
    )
    return (
        f"Colours, {how}: odd cubes {COLOUR_WORDS[first]}, even cubes "
        f"{COLOUR_WORDS[other]}. Light: {_told(w.plates, 'light')}; dark: "
        f"{_told(w.plates, 'dark')}."
    )


def _print_words(w: Workshop) -> str:
    s = w.settings
    plates = len(w.plates)
    where = (
        f"one plate of {_mm(s.plate[0])} x {_mm(s.plate[1])} mm"
        if plates == 1
        else f"{plates} plates of {_mm(s.plate[0])} x {_mm(s.plate[1])} mm (F.3mf, F-2.3mf ...)"
    )
    return (
        f"Printing: the 3MF file (snakecube make ... --out F.3mf; --plate WxD for another "
        f"printer) lays the pieces on {where}, each on a face the cord leaves by, in colour. "
        "They print without supports: where a channel lies across the layers its roof is "
        "pointed (a teardrop). A printer with one colour: print the light pieces, then the dark "
        "ones. A channel that comes out tight: turn a drill of its size through it by hand. "
        f"Channels are {_mm(s.channel)} mm across ({_mm(s.channel - s.cord)} mm wider than the "
        f"cord), edges chamfered {_mm(s.chamfer)} mm, a corner's channel bends with a radius of "
        f"{_mm(s.bend)} mm."
    )


def _words_page(w: Workshop) -> Callable[[Sheet, int, int], None]:
    s = w.settings

    def para(sheet: Sheet, y: float, text: str, width: float) -> float:
        return sheet.text(MARGIN, y, wrap(text, width)) + GAP

    def draw(sheet: Sheet, number: int, pages: int) -> None:
        width = sheet.size[0] - 2 * MARGIN
        y = MARGIN + _header(sheet, w, number, pages)
        c = cord(w.plates, s)
        y += para(
            sheet,
            y,
            f"{w.snake.cubes} cubes of {_mm(s.size)} mm on a {_mm(s.cord)} mm round elastic "
            f"cord, folding into {w.target}: {_told(w.plates)}. Pieces of a kind (and colour) "
            "are alike, so they need no marks: the numbers are the order to string them in.",
            width,
        )
        y += sheet.text(
            MARGIN, y, ["The pieces in chain order (cube 1 is the design's first end):"]
        )
        y += sheet.text(MARGIN, y, _pieces_lines(w), mono=True) + GAP
        for kind in Kind:
            y += sheet.text(
                MARGIN, y, wrap(f"{kind.value}, {kind.word}: {kind_words(kind)}", width)
            )
        y += GAP
        y += para(sheet, y, _colour_words(w), width)
        y += para(sheet, y, _print_words(w), width)
        wood = "In wood: " + " ".join(
            f"{kind.word.capitalize()}: {drill_words(kind, s)}" for kind in Kind
        )
        y += para(sheet, y, wood, width)
        y += para(
            sheet,
            y,
            f"Cord: the channels are {c.channels / 1000:.2f} m end to end (to the pockets' "
            f"floors). Cut {c.cut / 1000:.2f} m: {c.knotted / 1000:.2f} m between the knots "
            f"({round(STRETCH * 100)} % shorter than the channels, so the chain pulls itself "
            f"together) and {_mm(KNOT_ROOM / 10)} cm at each end to hold while tying.",
            width,
        )
        y += sheet.text(MARGIN, y, ["Stringing:"], fontweight="bold")
        for k, step in enumerate(stringing_words(w), 1):
            lines = wrap(step, width - 0.25)
            sheet.text(MARGIN, y, [f"{k}."])
            y += sheet.text(MARGIN + 0.25, y, lines)
        y += GAP
        if w.plan is not None:
            hint = (
                f"To fold it: the fold plan (snakecube fold {w.typed} --out plan.pdf, or the "
                "page's fold plan PDF) starts from the flat start on the last page."
            )
            sheet.text(MARGIN, y, wrap(hint, width), style="italic")

    return draw


def _header(sheet: Sheet, w: Workshop, number: int, pages: int) -> float:
    width = sheet.size[0] - 2 * MARGIN
    title = f"Workshop sheet for the design {w.typed}"
    used = sheet.text(
        MARGIN, MARGIN, wrap(title, width, TEXT_PT + 3, mono=True), TEXT_PT + 3, mono=True
    )
    sheet.fig.text(
        0.5,
        sheet._fy(sheet.size[1] - MARGIN * 0.6),
        f"page {number} of {pages}",
        ha="center",
        va="bottom",
        fontsize=TEXT_PT,
    )
    return used + GAP


PLATES_A_PAGE = 3  # plate maps on a page, at most (more plates: more pages)


def _plates_pages(w: Workshop) -> list[Callable[[Sheet, int, int], None]]:
    """The plate maps, PLATES_A_PAGE a page."""
    chunks = [w.plates[k : k + PLATES_A_PAGE] for k in range(0, len(w.plates), PLATES_A_PAGE)]
    return [_plates_page(w, chunk) for chunk in chunks]


def _plates_page(w: Workshop, plates: tuple[Plate, ...]) -> Callable[[Sheet, int, int], None]:
    from matplotlib.patches import Rectangle

    s = w.settings

    def draw(sheet: Sheet, number: int, pages: int) -> None:
        width = sheet.size[0] - 2 * MARGIN
        y = MARGIN + _header(sheet, w, number, pages)
        intro = (
            f"The plate{'s' if len(w.plates) > 1 else ''} seen from above, the front edge at "
            "the bottom: each piece's number and kind. The pieces lie in chain order, from "
            "the front left, row by row, left to right."
        )
        y += sheet.text(MARGIN, y, wrap(intro, width)) + GAP
        room = sheet.size[1] - MARGIN - lines_height(1) - y
        each = room / PLATES_A_PAGE - lines_height(1) - GAP if len(w.plates) > 1 else room
        for plate in plates:
            pw, pd = s.plate
            scale = min(width / pw, (each - lines_height(1)) / pd)
            held = _n(len(plate.pieces), "piece")
            label = f"Plate {plate.number}: {_mm(pw)} x {_mm(pd)} mm, {held}"
            y += sheet.text(MARGIN, y, [label])
            ax = sheet.axes(MARGIN + (width - pw * scale) / 2, y, pw * scale, pd * scale)
            ax.add_patch(Rectangle((0, 0), pw, pd, fc="#f4f4f4", ec="#888888", lw=0.8))
            pt = max(5.0, min(9.0, s.size * scale * 72 / 3.2))
            for p in plate.pieces:
                x0, y0 = p.at[0] - s.size / 2, p.at[1] - s.size / 2
                ax.add_patch(
                    Rectangle((x0, y0), s.size, s.size, fc=COLOURS[p.colour], ec="#333333", lw=0.6)
                )
                ink = "white" if p.colour == "dark" else "black"
                ax.text(
                    p.at[0],
                    p.at[1] + s.size * 0.14,
                    str(p.number),
                    ha="center",
                    va="center",
                    fontsize=pt,
                    color=ink,
                    fontweight="bold",
                )
                ax.text(
                    p.at[0],
                    p.at[1] - s.size * 0.24,
                    p.kind.value,
                    ha="center",
                    va="center",
                    fontsize=pt * 0.8,
                    color=ink,
                )
            ax.set_xlim(-0.01 * pw, 1.01 * pw)  # room for the plate's outline
            ax.set_ylim(-0.01 * pd * pw / pd, pd + 0.01 * pw)
            ax.set_aspect("equal")
            ax.set_axis_off()
            y += pd * scale + GAP

    return draw


def _colours(w: Workshop) -> dict[int, str]:
    return {p.number - 1: COLOURS[p.colour] for plate in w.plates for p in plate.pieces}


def _pictures_pages(w: Workshop, paper: str) -> list[Callable[[Sheet, int, int], None]]:
    """The finished shape, then the flat start, numbered and coloured as the pieces are."""
    plan = w.plan
    if plan is None:

        def none(sheet: Sheet, number: int, pages: int) -> None:
            y = MARGIN + _header(sheet, w, number, pages)
            sheet.text(MARGIN, y, ["No fold was found in the time given: no pictures."])

        return [none]
    colours = _colours(w)
    shown = plan.solution
    cover = scene.cover(shown)
    finished = scene.finished_panel(shown, cover.view, colours)
    done = scene.drawing_of(finished, cover.view, shown.cells)
    start = replace(scene.start_panel(plan), colours=colours, marks={}, patterns={})
    flat = scene.drawing_of(start, start.views[0])
    size = PAPERS[paper]
    width = size[0] - 2 * MARGIN

    def page(d: Drawing, words: str) -> Callable[[Sheet, int, int], None]:
        def draw(sheet: Sheet, number: int, pages: int) -> None:
            y = MARGIN + _header(sheet, w, number, pages)
            y += sheet.text(MARGIN, y, wrap(words, width)) + GAP
            h = size[1] - MARGIN - lines_height(1) - GAP - y
            layout = pictures.start_layout(d, width, h, h)
            pictures.place(sheet, MARGIN, y, width, h, d, d.bounds, layout.scale, layout.number_pt)

        return draw

    return [
        page(
            done,
            f"The finished shape, {w.target}, seen from the front and above: each "
            "cube with its piece's number where it shows, in its colour.",
        ),
        page(
            flat,
            "The fold plan's flat start, seen from above: the strung chain laid out on "
            "the table before folding, every piece numbered.",
        ),
    ]


def sheet_figures(w: Workshop, paper: str = "a4") -> list[Figure]:
    """The workshop sheet, a matplotlib Figure a page."""
    pages = [_words_page(w), *_plates_pages(w), *_pictures_pages(w, paper)]
    return pictures.render_pages(pages, paper, stacked=False)


def save_sheet(w: Workshop, path: str | Path, paper: str = "a4") -> Path:
    """Write the workshop sheet to ``path`` (.pdf)."""
    return pictures.write_pages(sheet_figures(w, paper), Path(path), ".pdf")
