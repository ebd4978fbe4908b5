"""Pictures with matplotlib: printable sheets (PDF pages, or PNG/SVG), the GIF, flat layouts.

Imported only when a picture is asked for; the core never imports this module. What each
picture shows is decided in ``explain.scene`` and projected onto the page in
``explain.drawing``; this module only draws those flat shapes, in plain 2D axes whose limits
are the drawing's own rectangle, placed at a scale that fits it: nothing is cut off at any
matplotlib version (no 3D axes, whose margins and clipping change between releases).

Sheets are pages of real paper size (A4 by default, or Letter). Instructions: a cover, then
two panels across and three down, one step (one segment) per panel. Fold plans: the start on
the first page, then three steps a page, each before and after. Every number is at least 9
pt on the printed page, and text is wrapped by its measured width. PDF files get one page per
sheet page; PNG and SVG files hold the pages one under another.
"""

from __future__ import annotations

import functools
import io
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import matplotlib

matplotlib.use("Agg")  # files only; no screen needed

import matplotlib.pyplot as plt
from matplotlib.animation import FuncAnimation, PillowWriter
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Rectangle

from snakecube import stop
from snakecube.explain import drawing, scene
from snakecube.explain.drawing import Drawing
from snakecube.explain.scene import ARROW, GHOST, NEW, PIVOT, Panel, Tails, View, cube_colour
from snakecube.fold import FoldPlan, guide, order_words
from snakecube.fold import words as fold_words
from snakecube.fold.words import start_parts
from snakecube.fold.wrong import Ask, Verdict
from snakecube.snake import which_end
from snakecube.solution import Solution

if TYPE_CHECKING:
    from snakecube.flat import Flat

PAPERS = {"a4": (8.27, 11.69), "letter": (8.5, 11.0)}  # inches, portrait
COLUMNS, ROWS = 2, 3  # instruction panels on a page
PLAN_ROWS = 3  # fold plan steps on a page
MARGIN = 0.45  # inches
NUMBER_PT = 9.0  # cube numbers on paper
TEXT_PT = 9.0  # step words on paper
LINE = 1.3  # line height, in font sizes
EDGE_PT = 0.5  # a cube edge's line, in points (a shape's width multiplies it)
GAP = 0.12  # inches between things on a page
NO_FILL = (0.0, 0.0, 0.0, 0.0)  # a line's face in the drawing's one collection
DASHES: dict[str, Any] = {
    "": "solid",
    "dotted": (0, (1.0, 1.6)),
    "dashed": (0, (3.0, 2.0)),
    "dashdot": (0, (6.0, 2.0, 1.5, 2.0)),
}


# -- text, measured -------------------------------------------------------------------------
_MEASURE = RendererAgg(10, 10, 72)  # 72 dpi: widths in points


@functools.lru_cache(maxsize=4096)
def text_width(text: str, pt: float, mono: bool = False) -> float:
    """Inches ``text`` takes on paper at ``pt`` points (the font matplotlib draws with)."""
    font = FontProperties(size=pt, family="monospace" if mono else None)
    w, _, _ = _MEASURE.get_text_width_height_descent(text, font, ismath=False)
    return float(w) / 72


def _pieces(word: str, width: float, pt: float, mono: bool) -> list[str]:
    """A word wider than ``width`` (a snake typed as 2-2-4-4-... is one word) in pieces that
    fit, broken after a dash or comma where it can be, else anywhere."""
    if text_width(word, pt, mono) <= width:
        return [word]
    out, rest = [], word
    while rest and text_width(rest, pt, mono) > width:
        k = len(rest)
        while k > 1 and text_width(rest[:k], pt, mono) > width:
            k -= 1
        cut = max(rest.rfind("-", 0, k), rest.rfind(",", 0, k))
        k = cut + 1 if cut > 0 else k
        out.append(rest[:k])
        rest = rest[k:]
    return [*out, rest] if rest else out


def wrap(text: str, width: float, pt: float = TEXT_PT, mono: bool = False) -> list[str]:
    """``text`` in lines that each fit ``width`` inches: every line of it kept a line (a list
    stays a list), long ones broken between words and carried on indented as they began.
    Words are measured one by one (a line's width is its words' and spaces' widths)."""
    space = text_width("a a", pt, mono) - 2 * text_width("a", pt, mono)
    out: list[str] = []
    for para in text.split("\n"):
        indent = para[: len(para) - len(para.lstrip())]
        words = [part for word in para.split() for part in _pieces(word, width, pt, mono)]
        if not words:
            out.append("")
            continue
        line = indent + words[0]
        used = text_width(line, pt, mono)
        for word in words[1:]:
            more = space + text_width(word, pt, mono)
            if used + more <= width:
                line, used = f"{line} {word}", used + more
            else:
                out.append(line)
                line = f"{indent}  {word}" if indent else word
                used = text_width(line, pt, mono)
        out.append(line)
    return out


def lines_height(count: int, pt: float = TEXT_PT) -> float:
    return count * pt * LINE / 72


# -- a page ----------------------------------------------------------------------------------
@dataclass
class Sheet:
    """One page of paper in a figure (the figure may hold several one under another):
    places text and pictures in inches from the page's top left corner."""

    fig: Figure
    page: int  # 0-based: which page of the figure
    size: tuple[float, float]

    def _fx(self, x: float) -> float:
        return x / self.size[0]

    def _fy(self, y: float) -> float:
        total = float(self.fig.get_size_inches()[1])
        return 1 - (self.page * self.size[1] + y) / total

    def text(
        self,
        x: float,
        y: float,
        lines: Sequence[str],
        pt: float = TEXT_PT,
        mono: bool = False,
        **kw: Any,
    ) -> float:
        """Lines of text with their top left at (x, y); the height they take."""
        if lines:
            self.fig.text(
                self._fx(x),
                self._fy(y),
                "\n".join(lines),
                ha="left",
                va="top",
                fontsize=pt,
                family="monospace" if mono else None,
                linespacing=LINE,
                **kw,
            )
        return lines_height(len(lines), pt)

    def axes(self, x: float, y: float, w: float, h: float) -> Axes:
        total = float(self.fig.get_size_inches()[1])
        return self.fig.add_axes((self._fx(x), self._fy(y + h), w / self.size[0], h / total))


# -- drawings ---------------------------------------------------------------------------------
def draw_drawing(
    ax: Axes, d: Drawing, bounds: Sequence[float], number_pt: float = NUMBER_PT
) -> None:
    """The shapes of a drawing in paint order, then its numbers, in axes showing ``bounds``
    (left, bottom, right, top) with one unit the same length across and up. The shapes are
    one collection, drawn in their order: filled faces with their outlines, and lines with
    their own colour, width and dashes (each path open, a closed one ending where it began,
    with round caps that meet as a round join)."""
    paths, faces, edges, widths, dashes = [], [], [], [], []
    for shape in d.shapes:
        ring = bool(shape.fill) or shape.closed
        paths.append([*shape.points, shape.points[0]] if ring else list(shape.points))
        if shape.fill:  # a face, with its outline
            faces.append(to_rgba(shape.fill, shape.alpha))
            edges.append(to_rgba(shape.stroke))
            dashes.append("solid")
        else:  # a line
            faces.append(NO_FILL)
            edges.append(to_rgba(shape.stroke, shape.alpha))
            dashes.append(DASHES[shape.dash])
        widths.append(shape.width * EDGE_PT)
    if paths:
        ax.add_collection(
            PolyCollection(
                paths,
                closed=False,
                facecolors=faces,
                edgecolors=edges,
                linewidths=widths,
                linestyles=dashes,
                capstyle="round",
                joinstyle="round",
                zorder=1,
            ),
            autolim=False,
        )
    for label in d.labels:
        ax.text(
            *label.at,
            label.text,
            ha="center",
            va="center",
            fontsize=number_pt,
            color="black",
            zorder=2,
            fontweight="bold" if label.bold else "normal",
            bbox={"boxstyle": f"round,pad={BADGE_PAD}", "fc": "white", "ec": "none", "alpha": 0.85},
        )
    ax.set_xlim(bounds[0], bounds[2])
    ax.set_ylim(bounds[1], bounds[3])
    ax.set_axis_off()
    if d.notes:
        _draw_notes(ax, d, bounds, number_pt)


POINTER_PT = 6.0  # a pointer's words no smaller on paper (3 steps a page draw cubes small)


def _draw_notes(ax: Axes, d: Drawing, bounds: Sequence[float], number_pt: float) -> None:
    """A drawing's pointer words, each at its pointer's tail, POINTER_TEXT cube widths high
    (no smaller than POINTER_PT), put where they stay on the picture and cover no number nor
    other words: as placed, else running the other way, else a line higher or lower. Boxes
    are measured with the font in the picture's units, with no renderer (an Agg renderer a
    page cost megabytes, enough to pass the server's memory cap on a plan's sheet)."""
    fig = cast(Figure, ax.figure)
    width_in, height_in = fig.get_size_inches()
    place = ax.get_position()
    per_in = (
        (bounds[2] - bounds[0]) / (place.width * width_in),
        (bounds[3] - bounds[1]) / (place.height * height_in),
    )
    pt = max(scene.POINTER_TEXT / per_in[1] * 72, POINTER_PT)

    def box(x: float, y: float, text: str, size: float, ha: str) -> tuple[float, ...]:
        w = (1.15 * text_width(text, size) + 2 * BADGE_PAD * size / 72) * per_in[0]  # italic
        h = (size * 1.3 / 72 + 2 * BADGE_PAD * size / 72) * per_in[1]
        left = x if ha == "left" else x - w if ha == "right" else x - w / 2
        return (left, y - h / 2, left + w, y + h / 2)

    taken = [box(*label.at, label.text, number_pt, "center") for label in d.labels]
    for note in d.notes:
        text = f" {note.text} "
        size = pt
        while size > 4 and box(0, 0, text, size, "left")[2] > bounds[2] - bounds[0]:
            size *= 0.9
        step = (size * 1.4 / 72) * per_in[1]
        other = "right" if note.align == "left" else "left"
        first = None
        for ha, dy in itertools.product((note.align, other), (0, step, -step, 2 * step, -2 * step)):
            x, y = note.at[0], note.at[1] + dy
            b = box(x, y, text, size, ha)
            shift = max(0.0, bounds[0] - b[0]) - max(0.0, b[2] - bounds[2])
            x, b = x + shift, (b[0] + shift, b[1], b[2] + shift, b[3])
            inside = bounds[1] <= b[1] and b[3] <= bounds[3]
            if first is None:
                first = (ha, x, y, b)
            if inside and not any(_meet(b, t) for t in taken):
                first = (ha, x, y, b)
                break
        assert first is not None
        ha, x, y, b = first
        drop = max(0.0, bounds[1] - b[1]) - max(0.0, b[3] - bounds[3])  # in, top to bottom
        y, b = y + drop, (b[0], b[1] + drop, b[2], b[3] + drop)
        taken.append(b)
        ax.text(
            x,
            y,
            text,
            ha=ha,
            va="center",
            fontsize=size,
            color=drawing.POINTER,
            zorder=2,
            style="italic",
            bbox={"boxstyle": f"round,pad={BADGE_PAD}", "fc": "white", "ec": "none", "alpha": 0.85},
        )


def _meet(a: Sequence[float], b: Sequence[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def fit(bounds: Sequence[float], w: float, h: float) -> float:
    """Inches per cube width that fit ``bounds`` into w x h inches."""
    return min(w / (bounds[2] - bounds[0]), h / (bounds[3] - bounds[1]))


def place(
    sheet: Sheet,
    x: float,
    y: float,
    w: float,
    h: float,
    d: Drawing,
    bounds: Sequence[float],
    scale: float,
    number_pt: float = NUMBER_PT,
) -> Axes:
    """The drawing at ``scale`` inches a cube width, centred in the rectangle (x, y, w, h)."""
    pw, ph = (bounds[2] - bounds[0]) * scale, (bounds[3] - bounds[1]) * scale
    ax = sheet.axes(x + (w - pw) / 2, y + (h - ph) / 2, pw, ph)
    draw_drawing(ax, d, bounds, number_pt)
    return ax


BADGE_PAD = 0.12  # a number's white box: this share of its font size round the text
START_BADGE = 0.6  # the start's widest number box: at most this share of a cube's width
NUMBER_LEAST = 6.0  # points: the start's numbers no smaller (else the cubes get smaller)


def badge(text: str, pt: float) -> tuple[float, float]:
    """Inches a number's white box takes on paper, across and up, at ``pt`` points."""
    pad = 2 * BADGE_PAD * pt / 72
    return text_width(text, pt) + pad, pt * 1.2 / 72 + pad


@dataclass(frozen=True, slots=True)
class StartLayout:
    """Where a plan sheet's start picture goes: below its words, or (``own_page``) on a
    page of its own; its inches per cube width and its numbers' size."""

    own_page: bool
    scale: float
    number_pt: float


def start_layout(d: Drawing, width: float, under: float, page: float) -> StartLayout:
    """The start picture ``d`` under its words (``under`` inches high left for it) when a
    cube is wide enough there for its widest number (the box at most START_BADGE of it),
    else on a page of its own (``page`` inches high), its numbers made smaller only where
    even that page draws the cubes smaller than they need (down to NUMBER_LEAST)."""
    widest = max(
        (label.text for label in d.labels), key=lambda t: badge(t, NUMBER_PT)[0], default=""
    )
    need = badge(widest, NUMBER_PT)[0] / START_BADGE
    here = fit(d.bounds, width, under) if under > 0 else 0.0
    if here >= need:
        return StartLayout(False, here, NUMBER_PT)
    scale = fit(d.bounds, width, page)
    pt = NUMBER_PT if scale >= need else max(NUMBER_LEAST, NUMBER_PT * scale / need)
    return StartLayout(True, scale, pt)


def _union(boxes: Sequence[Sequence[float]]) -> tuple[float, float, float, float]:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


# -- flat targets -------------------------------------------------------------------------------
def _square(ax: Axes, x: float, y: float, colour: str, edge: str, width: float) -> None:
    """A cube seen from above: the unit square at (x, y)."""
    ax.add_patch(Rectangle((x, y), 1, 1, facecolor=colour, edgecolor=edge, linewidth=width))


def _number(
    ax: Axes, x: float, y: float, i: int, size: float, weight: str, pad: str, alpha: float
) -> None:
    """Cube ``i``'s number (1-based) on the unit square at (x, y), on a white box."""
    ax.text(
        x + 0.5,
        y + 0.5,
        str(i + 1),
        ha="center",
        va="center",
        fontsize=size,
        fontweight=weight,
        bbox={"boxstyle": f"round,pad={pad}", "fc": "white", "ec": "none", "alpha": alpha},
    )


def _draw_flat(ax: Axes, solution: Solution, panel: Panel) -> None:
    """A one-layer target from above, x to the right and 'away from you' up the page."""
    cells = solution.cells
    step = panel.step
    for cell in panel.tail:
        ax.add_patch(Rectangle(cell[:2], 1, 1, facecolor=GHOST, alpha=0.45, edgecolor="#aaaaaa"))
    for i in range(step.last + 1):
        x, y, _ = cells[i]
        new = i >= step.first
        colour = NEW if new else cube_colour(i)
        if panel.colours is not None:
            colour = panel.colours[i]
        pivot = i == step.pivot
        _square(ax, x, y, colour, PIVOT if pivot else "#333333", 2.2 if pivot else 0.6)
        if new or pivot:
            _number(ax, x, y, i, NUMBER_PT, "bold" if new else "normal", "0.1", 0.85)
    if panel.arrow is not None:
        (x0, y0, _), (x1, y1, _) = panel.arrow
        ax.annotate(
            "", (x1, y1), (x0, y0), arrowprops={"arrowstyle": "->", "color": ARROW, "lw": 2}
        )
    lo, hi = panel.bounds
    ax.set_xlim(lo[0] - 0.1, hi[0] + 0.1)
    ax.set_ylim(lo[1] - 0.1, hi[1] + 0.1)
    ax.set_aspect("equal")
    ax.set_axis_off()


def _flat_bounds(panel: Panel) -> tuple[float, float, float, float]:
    lo, hi = panel.bounds
    return (lo[0] - 0.1, lo[1] - 0.1, hi[0] + 0.1, hi[1] + 0.1)


# -- a panel: words above, its pictures side by side -----------------------------------------------
@dataclass
class Laid:
    """A panel ready to place: its words in lines and each picture's drawing and rectangle
    of the page (left, bottom, right, top in cube widths)."""

    panel: Panel
    lines: list[str]
    drawings: list[Drawing | None]  # None: a flat target's picture
    bounds: list[tuple[float, float, float, float]]
    small: int = 0  # the first ``small`` pictures are overviews: narrower, at their own scale


def _caption_lines(laid: Laid, width: float) -> int:
    """How many lines the longest caption of a panel's pictures takes."""
    return max((len(wrap(d.caption, width)) for d in laid.drawings if d and d.caption), default=0)


def lay(
    panel: Panel,
    solution: Solution,
    width: float,
    views: Sequence[View] | None = None,
    arrows: bool = True,
) -> Laid:
    """A panel's words wrapped to ``width`` inches and its views as drawings (a plan step's
    first overview, the whole snake small, before them)."""
    lines = wrap(panel.title, width) + [n for note in panel.notes for n in wrap(note, width)]
    drawings: list[Drawing | None] = []
    bounds = []
    small = 1 if views is None and panel.overviews else 0
    for view in [*panel.overviews[:small], *(views or panel.views)]:
        if scene.is_flat(solution) and panel.cells is None:
            drawings.append(None)
            bounds.append(_flat_bounds(panel))
            break
        d = scene.drawing_of(panel, view, solution.cells, arrows=arrows)
        drawings.append(d)
        bounds.append(d.bounds)
    return Laid(panel, lines, drawings, bounds, small)


SMALL = 0.6  # an overview's width, as a share of a close-up's


def _widths(laid: Laid, w: float) -> list[float]:
    """Each picture's width in a panel ``w`` inches wide: overviews SMALL of the others."""
    weights = [SMALL if j < laid.small else 1.0 for j in range(len(laid.drawings))]
    room = w - GAP * (len(weights) - 1)
    return [room * k / sum(weights) for k in weights]


def _areas(laid: Laid, w: float, h: float, text_h: float) -> list[tuple[float, float]]:
    """The room each picture of a panel gets (w x h inches, the words taking ``text_h``)."""
    widths = _widths(laid, w)
    cap = lines_height(_caption_lines(laid, min(widths)))
    return [(pw, h - text_h - GAP - cap) for pw in widths]


def draw_laid(
    sheet: Sheet,
    x: float,
    y: float,
    w: float,
    h: float,
    laid: Laid,
    solution: Solution,
    scale: float,
    text_h: float,
) -> None:
    """A panel in the rectangle (x, y, w, h): its words, then its pictures side by side at
    ``scale`` inches a cube width, each with its caption."""
    sheet.text(x, y, laid.lines)
    top = y + text_h + GAP
    areas = _areas(laid, w, h, text_h)
    cap = lines_height(_caption_lines(laid, min(pw for pw, _ in areas)))
    left = x - GAP
    for j, (d, bounds) in enumerate(zip(laid.drawings, laid.bounds, strict=True)):
        pw, ph = areas[j]
        left += (areas[j - 1][0] if j else 0) + GAP
        if j < laid.small and d is not None:  # an overview: the whole snake, at its own scale
            sheet.text(left, top, wrap(d.caption, pw), style="italic")
            place(sheet, left, top + cap, pw, ph, d, bounds, fit(bounds, pw, ph))
            continue
        if d is None:
            s = fit(bounds, pw, ph)
            bw, bh = (bounds[2] - bounds[0]) * s, (bounds[3] - bounds[1]) * s
            ax = sheet.axes(left + (pw - bw) / 2, top + cap + (ph - bh) / 2, bw, bh)
            _draw_flat(ax, solution, laid.panel)
            continue
        if d.caption:
            sheet.text(left, top, wrap(d.caption, pw), style="italic")
        place(sheet, left, top + cap, pw, ph, d, bounds, scale)


# -- pages ---------------------------------------------------------------------------------------
PageDraw = Callable[[Sheet], None]


def _header(sheet: Sheet, title: str, number: int, pages: int) -> float:
    """The page's title (the snake as typed, the target) and its number; the height the
    title takes."""
    w, h = sheet.size
    lines = wrap(title, w - 2 * MARGIN, TEXT_PT + 1, mono=True)
    used = sheet.text(MARGIN, MARGIN, lines, TEXT_PT + 1, mono=True)
    sheet.fig.text(
        0.5,
        sheet._fy(h - MARGIN * 0.6),
        f"page {number} of {pages}",
        ha="center",
        va="bottom",
        fontsize=TEXT_PT,
    )
    return used + GAP


def _title(typed: str, solution: Solution) -> str:
    """The header: the snake as typed and the target."""
    return f"{typed}  in the {solution.region.describe()}"


def render_pages(
    pages: list[Callable[[Sheet, int, int], None]], paper: str, stacked: bool
) -> list[Figure]:
    """The pages as Figures of the paper's size, or (``stacked``) one Figure of them all."""
    size = PAPERS[paper]
    figs: list[Figure] = []
    try:
        if stacked:
            figs.append(plt.figure(figsize=(size[0], size[1] * len(pages)), dpi=110))
            for k, draw in enumerate(pages):
                stop.on_time()  # a time limit (stop.within) ends the drawing between pages
                draw(Sheet(figs[0], k, size), k + 1, len(pages))
            return figs
        for k, draw in enumerate(pages):
            stop.on_time()
            figs.append(plt.figure(figsize=size, dpi=150))
            draw(Sheet(figs[-1], 0, size), k + 1, len(pages))
        return figs
    except BaseException:
        for fig in figs:
            plt.close(fig)
        raise


# -- the instructions ------------------------------------------------------------------------------
Slot = tuple[int, int, int, int]  # panel number, row, column, columns spanned


def _place(panels: list[Panel], columns: int, rows: int, first_rows: int) -> list[list[Slot]]:
    """Where each panel goes: pages of ``columns`` x ``rows`` (the first page has
    ``first_rows``); a panel with a second view takes a whole row, so both views are as
    large as a panel's."""
    pages: list[list[Slot]] = [[]]
    r, c = 0, 0
    for k, p in enumerate(panels):
        span = columns if len(p.views) > 1 and columns > 1 else 1
        if c + span > columns:
            r, c = r + 1, 0
        if r >= (first_rows if len(pages) == 1 else rows):
            pages.append([])
            r, c = 0, 0
        pages[-1].append((k, r, c, span))
        c += span
        if c >= columns:
            r, c = r + 1, 0
    return [p for p in pages if p]


INSTRUCTIONS_KEY = (
    " Each step places one segment: its new cubes are blue and numbered, the cube it turns "
    "at is outlined in red, the red arrow shows where the segment goes, and dashed blue "
    "outlines show where the rest of the snake hangs (as a fold plan has it); thin grey lines "
    "are the finished box. Earlier "
    "cubes alternate dark and light, like the wooden puzzle."
)
NEXT_KEY = (
    " Each step places one segment: its new cubes are blue and numbered, the cube it turns "
    "at is outlined in red, the red arrow shows where the segment goes, and dashed blue "
    "outlines show the next segment at its place; thin grey lines are the finished box. "
    "Earlier cubes alternate dark and light, like the wooden puzzle."
)


def _key(tails: Tails | None) -> str:
    return NEXT_KEY if tails is None else INSTRUCTIONS_KEY


def _grid(
    size: tuple[float, float], head: float, columns: int, rows: int
) -> tuple[float, float, float]:
    """A page's grid: the top of the grid, and a cell's width and height, in inches."""
    w, h = size
    top = MARGIN + head
    bottom = h - MARGIN - lines_height(1) - GAP
    return top, (w - 2 * MARGIN) / columns, (bottom - top) / rows


def _instruction_pages(
    shown: Solution, panels: list[Panel], paper: str, key: str, cover: scene.Cover
) -> list[Callable[[Sheet, int, int], None]]:
    """The cover, then the steps two across and three down at one scale for the sheet (the
    box stays put from panel to panel; a second view is drawn at the same scale)."""
    size = PAPERS[paper]
    title = _title(cover.typed, shown)
    head = lines_height(len(wrap(title, size[0] - 2 * MARGIN, TEXT_PT + 1, True)), TEXT_PT + 1)
    top, cell_w, cell_h = _grid(size, head + GAP, COLUMNS, ROWS)
    layout = _place(panels, COLUMNS, ROWS, ROWS)
    spans = {k: span for page in layout for k, _, _, span in page}
    laid = {k: lay(p, shown, spans[k] * cell_w - GAP) for k, p in enumerate(panels)}
    text_h = max(lines_height(len(x.lines)) for x in laid.values())
    # one rectangle for every main view (the box stays put), its own for a second view
    main = _union([x.bounds[0] for x in laid.values()])
    for x in laid.values():
        x.bounds[0] = main
    scale = min(
        fit(b, *area)
        for x in laid.values()
        for b, area in zip(
            x.bounds,
            _areas(x, spans[x.panel.step.number - 1] * cell_w - GAP, cell_h - GAP, text_h),
            strict=True,
        )
    )

    def step_page(slots: list[Slot]) -> Callable[[Sheet, int, int], None]:
        def draw(sheet: Sheet, number: int, pages: int) -> None:
            _header(sheet, title, number, pages)
            for k, r, c, span in slots:
                x = MARGIN + c * cell_w
                y = top + r * cell_h
                draw_laid(
                    sheet, x, y, span * cell_w - GAP, cell_h - GAP, laid[k], shown, scale, text_h
                )

        return draw

    def cover_page(sheet: Sheet, number: int, pages: int) -> None:
        _header(sheet, "", number, pages)
        _draw_cover(sheet, shown, cover, key)

    return [cover_page, *(step_page(slots) for slots in layout)]


def _draw_cover(sheet: Sheet, shown: Solution, cover: scene.Cover, key: str) -> None:
    """The cover: the snake as typed, the finished shape coloured by segment, the start, the
    layer map and the checks."""
    w, h = sheet.size
    width = w - 2 * MARGIN
    y = MARGIN
    head = wrap(_title(cover.typed, shown), width, TEXT_PT + 3, mono=True)
    y += sheet.text(MARGIN, y, head, TEXT_PT + 3, mono=True) + GAP
    intro = wrap(
        "The finished shape, each segment in its own colour, cube numbers where they show. "
        f"{cover.start}{key}",
        width,
    )
    y += sheet.text(MARGIN, y, intro) + GAP
    blocks = [b.replace(" (far side at the top)", "") for b in cover.layers]
    block_w = max(_block_width(b) for b in blocks)
    per_row = max(1, min(len(blocks), int(width // block_w)))
    block_h = lines_height(max(b.count("\n") for b in blocks) + 2)
    map_h = lines_height(1) + GAP + math.ceil(len(blocks) / per_row) * block_h
    checks = [f"after step {k}: {v.removeprefix('Check: ')}" for k, v in cover.checks.items()]
    check_lines = [line for c in checks for line in wrap(c, width - 0.3)]
    checks_h = lines_height(len(check_lines) + 1) if check_lines else 0.0
    room = h - MARGIN - lines_height(1) - GAP - y
    pic_h = max(0.2 * h, min(0.42 * h, room - map_h - checks_h - 2 * GAP))
    panel = scene.finished_panel(shown, cover.view, cover.colours)
    if scene.is_flat(shown):
        flat = replace(panel, step=replace(panel.step, first=0, direction=0))
        b = _flat_bounds(flat)
        s = fit(b, width, pic_h)
        bw, bh = (b[2] - b[0]) * s, (b[3] - b[1]) * s
        _draw_flat(sheet.axes(MARGIN + (width - bw) / 2, y, bw, bh), shown, flat)
    else:
        d = scene.drawing_of(panel, cover.view, shown.cells)
        place(sheet, MARGIN, y, width, pic_h, d, d.bounds, fit(d.bounds, width, pic_h))
    y += pic_h + GAP
    y += sheet.text(
        MARGIN, y, ["Layer map: each layer seen from above, the side away from you at the top."]
    )
    y += GAP
    for j, block in enumerate(blocks):
        r, c = divmod(j, per_row)
        sheet.text(MARGIN + c * width / per_row, y + r * block_h, block.split("\n"), mono=True)
    y += math.ceil(len(blocks) / per_row) * block_h
    if check_lines:
        sheet.text(MARGIN, y, ["Checks on the way (also in the steps):", *check_lines])


def _block_width(block: str) -> float:
    """Inches a layer-map block takes on paper, with a gap."""
    return max(text_width(line, TEXT_PT, mono=True) for line in block.splitlines()) + 0.35


def sheet_figures(
    solution: Solution, paper: str = "a4", tails: Tails | None = None, typed: str | None = None
) -> list[Figure]:
    """The instructions as one matplotlib Figure per page, of the paper's real size: a
    cover (``typed``: the snake as the person typed it), then the steps."""
    shown = scene.display(solution)
    pages = _instruction_pages(
        shown, scene.panels(shown, tails), paper, _key(tails), scene.cover(shown, typed)
    )
    return render_pages(pages, paper, stacked=False)


def sheet(solution: Solution, paper: str = "a4", tails: Tails | None = None) -> Figure:
    """The instructions as one Figure, the pages one under another (for PNG and SVG)."""
    shown = scene.display(solution)
    pages = _instruction_pages(
        shown, scene.panels(shown, tails), paper, _key(tails), scene.cover(shown)
    )
    return render_pages(pages, paper, stacked=True)[0]


# -- a fold plan's sheet -------------------------------------------------------------------------


Page = Callable[[Sheet, int, int], None]


def _start_pages(
    plan: FoldPlan, start: Panel, paper: str, title: str
) -> tuple[StartLayout, list[Page]]:
    """The start's page (its words as a list, the picture from above under them), or two
    pages when the picture would be too small there for its numbers (:func:`start_layout`);
    and where its picture goes."""
    w, h = PAPERS[paper]
    width = w - 2 * MARGIN
    head = lines_height(len(wrap(title, width, TEXT_PT + 1, True)), TEXT_PT + 1) + GAP

    def start_words(sheet: Sheet | None, y: float) -> float:
        """The start's words from ``y`` down (only measured without a sheet); where they
        end."""

        def put(x: float, y: float, lines: Sequence[str], **kw: Any) -> float:
            return sheet.text(x, y, lines, **kw) if sheet else lines_height(len(lines))

        made = f"A plan of {plan.quarter_turns} quarter turns in {len(plan.steps())} steps."
        intro = f"{made} {fold_words.PLAN_KEY}"
        y += put(MARGIN, y, wrap(intro, width)) + GAP
        said = start_parts(guide(plan), "this picture")
        y += put(MARGIN, y, wrap(said.intro, width))
        items = said.runs
        if items:  # a list stays a list: in columns, one item a line
            widest = max(text_width(f"• {i}", TEXT_PT) for i in items) + 0.3
            columns = max(1, min(4, int((width - 0.15) // widest)))
            per = math.ceil(len(items) / columns)
            for c in range(columns):
                chunk = [f"• {i}" for i in items[c * per : (c + 1) * per]]
                put(MARGIN + 0.15 + c * (width - 0.15) / columns, y, chunk)
            y += lines_height(per)
        rest = [*said.rest, order_words(guide(plan))]
        y += GAP + put(MARGIN, y + GAP, [x for line in rest for x in wrap(line, width)])
        return y + GAP

    picture = scene.drawing_of(start, start.views[0])
    bottom = h - MARGIN - lines_height(1) - GAP
    below = start_words(None, MARGIN + head) + lines_height(1)
    layout = start_layout(picture, width, bottom - below, bottom - MARGIN - head - lines_height(1))

    def start_picture(sheet: Sheet, y: float) -> None:
        sheet.text(MARGIN, y, [picture.caption], style="italic")
        y += lines_height(1)
        place(
            sheet,
            MARGIN,
            y,
            width,
            bottom - y,
            picture,
            picture.bounds,
            layout.scale,
            layout.number_pt,
        )

    def start_page(sheet: Sheet, number: int, pages: int) -> None:
        y = start_words(sheet, MARGIN + _header(sheet, title, number, pages))
        if not layout.own_page:
            start_picture(sheet, y)
        else:  # too small under the words for its numbers: a page of its own
            sheet.text(MARGIN, y, ["The start picture is on the next page."], style="italic")

    def start_picture_page(sheet: Sheet, number: int, pages: int) -> None:
        start_picture(sheet, MARGIN + _header(sheet, title, number, pages))

    return layout, [start_page, start_picture_page] if layout.own_page else [start_page]


def plan_start_layout(plan: FoldPlan, paper: str = "a4", typed: str | None = None) -> StartLayout:
    """Where the plan sheet's start picture goes, at what scale, with what size of numbers."""
    title = _title(typed or plan.solution.snake.turns(), plan.solution)
    return _start_pages(plan, scene.start_panel(plan), paper, title)[0]


def _plan_pages(plan: FoldPlan, paper: str, typed: str | None) -> list[Page]:
    """The start (words as a list, the picture from above), then three steps a page."""
    size = PAPERS[paper]
    width = size[0] - 2 * MARGIN
    panels = scene.fold_panels(plan)
    title = _title(typed or plan.solution.snake.turns(), plan.solution)
    head = lines_height(len(wrap(title, width, TEXT_PT + 1, True)), TEXT_PT + 1) + GAP
    top, _, cell_h = _grid(size, head, 1, PLAN_ROWS)
    laid = [lay(p, plan.solution, width) for p in panels[1:]]
    text_h = max((lines_height(len(x.lines)) for x in laid), default=0.0)
    # each step at its own scale: its window is framed on its joint, the same for both pictures
    scales = [
        min(
            fit(b, *a)
            for b, a in list(zip(x.bounds, _areas(x, width, cell_h - GAP, text_h), strict=True))[
                x.small :
            ]
        )
        for x in laid
    ]

    both = list(zip(laid, scales, strict=True))
    chunks = [both[k : k + PLAN_ROWS] for k in range(0, len(both), PLAN_ROWS)]
    _layout, start = _start_pages(plan, panels[0], paper, title)
    return [
        *start,
        *(_rows_page(title, c, top, width, cell_h, plan.solution, text_h) for c in chunks),
    ]


def plan_figures(
    plan: FoldPlan, paper: str = "a4", stacked: bool = False, typed: str | None = None
) -> list[Figure]:
    """A fold plan's sheet: the flat start, then each quarter turn before and after; the
    header shows the snake as ``typed`` (else its turn string)."""
    return render_pages(_plan_pages(plan, paper, typed), paper, stacked)


# -- the way back ----------------------------------------------------------------------------------
def dialog_figures(
    plan: FoldPlan,
    step: int,
    tree: Ask | Verdict,
    paper: str = "a4",
    stacked: bool = False,
    typed: str | None = None,
) -> list[Figure]:
    """A 'Something doesn't match?' dialog on paper: each question with its picture (the
    snake when the answer is yes) and where each answer leads, then the verdicts; headed by
    the snake as typed (``typed``), as the plan's sheet is."""
    size = PAPERS[paper]
    width = size[0] - 2 * MARGIN
    at = fold_words.title(step).lower()
    title = f"{typed or plan.solution.snake.turns()}: something doesn't match at {at}?"
    head = lines_height(len(wrap(title, width, TEXT_PT + 1, True)), TEXT_PT + 1) + GAP
    asks, verdicts = fold_words.numbered(tree)
    panels = [
        scene.question_panel(plan, a.check, a.example, fold_words.question_line(a, asks, verdicts))
        for a in asks
    ]
    top, _, cell_h = _grid(size, head, 1, PLAN_ROWS)
    laid = [lay(p, plan.solution, width) for p in panels]
    text_h = max((lines_height(len(x.lines)) for x in laid), default=0.0)
    scales = [
        min(
            fit(b, *a)
            for b, a in zip(x.bounds, _areas(x, width, cell_h - GAP, text_h), strict=True)
        )
        for x in laid
    ]

    lines = [
        x
        for v in verdicts
        for line in (fold_words.verdict_label(v, verdicts), *fold_words.undo_words(v), "")
        for x in wrap(line, width)
    ]
    per = max(1, int((size[1] - 2 * MARGIN - head - lines_height(1)) / lines_height(1)))

    def verdict_page(chunk: list[str]) -> Page:
        def draw(sheet: Sheet, number: int, pages: int) -> None:
            y = MARGIN + _header(sheet, title, number, pages)
            sheet.text(MARGIN, y, chunk)

        return draw

    both = list(zip(laid, scales, strict=True))
    pages = [
        _rows_page(title, both[k : k + PLAN_ROWS], top, width, cell_h, plan.solution, text_h)
        for k in range(0, len(both), PLAN_ROWS)
    ]
    pages += [verdict_page(lines[k : k + per]) for k in range(0, len(lines), per)]
    return render_pages(pages, paper, stacked)


# -- the GIF ----------------------------------------------------------------------------------
SECONDS_PER_STEP = 1.5
GIF_SIZE = (5.5, 6.0)  # inches
GIF_DPI = 90


INSET = 0.34  # an animation frame's overview: this share of the picture's width and height


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame of an animation: its words and one picture."""

    words: str
    panel: Panel
    view: View | None  # None: a flat target's picture
    arrows: bool = True
    seconds: float = SECONDS_PER_STEP
    overview: View | None = None  # the whole snake, small, in a corner of the picture


def draw_frame(fig: Figure, frame: Frame, solution: Solution) -> None:
    """One frame on a clean figure: the words at the top, the picture in the rest."""
    fig.clear()
    w, h = fig.get_size_inches()
    sheet = Sheet(fig, 0, (w, h))
    m = 0.2
    text = frame.words + "".join(f"\n{n}" for n in frame.panel.notes)
    lines = wrap(text, w - 2 * m)
    most = int(h * 0.4 / lines_height(1))  # the picture keeps the rest of the frame
    if len(lines) > most:
        lines = [*lines[: most - 1], lines[most - 1] + " …"]
    y = m + sheet.text(m, m, lines) + GAP
    if frame.view is None:
        b = _flat_bounds(frame.panel)
        s = fit(b, w - 2 * m, h - y - m)
        bw, bh = (b[2] - b[0]) * s, (b[3] - b[1]) * s
        _draw_flat(sheet.axes((w - bw) / 2, y, bw, bh), solution, frame.panel)
        return
    d = scene.drawing_of(frame.panel, frame.view, solution.cells, arrows=frame.arrows)
    if d.caption:
        y += sheet.text(m, y, wrap(d.caption, w - 2 * m), style="italic")
    if frame.overview is not None:  # the whole snake in the picture's top left corner
        small = scene.drawing_of(frame.panel, frame.overview, arrows=False)
        ow, oh = (w - 2 * m) * INSET, (h - y - m) * INSET
        place(sheet, m, y, ow, oh, small, small.bounds, fit(small.bounds, ow, oh))
        y += oh * 0.6  # the close-up below it, a little overlapped at its side
    place(sheet, m, y, w - 2 * m, h - y - m, d, d.bounds, fit(d.bounds, w - 2 * m, h - y - m))


def _animate(solution: Solution, frames: list[Frame]) -> FuncAnimation:
    """One frame a picture, ``SECONDS_PER_STEP`` each."""
    fig = plt.figure(figsize=GIF_SIZE, dpi=GIF_DPI)

    def show(k: int) -> None:
        stop.on_time()  # a time limit (stop.within) ends the GIF between frames
        draw_frame(fig, frames[k], solution)

    anim = FuncAnimation(fig, show, frames=len(frames), interval=1000 * SECONDS_PER_STEP)
    anim.frames_count = len(frames)  # type: ignore[attr-defined]
    anim.fps = 1 / SECONDS_PER_STEP  # type: ignore[attr-defined]
    anim.snakecube_frames = frames  # type: ignore[attr-defined]
    return anim


def instruction_frames(shown: Solution, tails: Tails | None = None) -> list[Frame]:
    """A frame per step (one picture: a cut-away rather than a second view), then two of the
    result (no arrow, nothing hanging)."""
    flat = scene.is_flat(shown)
    out = []
    for p in scene.panels(shown, tails):
        one = replace(p, notes=p.notes if p.single.cutaway else ())
        words = p.title if p.step.number > 1 else f"{p.title}. {which_end(shown.snake)}"
        out.append(Frame(words, one, None if flat else p.single))
    last = out[-1].panel
    done = replace(last, tail=(), arrow=None, notes=())
    words = f"Done: all {len(shown.cells)} cubes placed"
    out += [Frame(words, done, None if flat else last.single, arrows=False)] * 2
    return out


def plan_frames(plan: FoldPlan) -> list[Frame]:
    """The start from above, then each step before (with its arrow) and after, each with the
    whole snake small in a corner, then the result."""
    panels = scene.fold_panels(plan)
    said = start_parts(guide(plan), "this picture")
    out = [Frame("\n".join([said.intro, *said.rest]), panels[0], panels[0].views[0])]
    for p in panels[1:]:
        out.append(Frame(p.title, p, p.views[0], overview=p.overviews[0]))
        out.append(Frame(p.title, p, p.views[1], overview=p.overviews[1]))
    if len(panels) > 1:
        out.append(
            Frame(
                f"Done: {plan.quarter_turns} quarter turns",
                panels[-1],
                panels[-1].views[1],
                arrows=False,
                overview=panels[-1].overviews[1],
            )
        )
    return out


def animation(solution: Solution, tails: Tails | None = None) -> FuncAnimation:
    """The fold, one step a frame, the camera fixed, new cubes numbered."""
    shown = scene.display(solution)
    return _animate(shown, instruction_frames(shown, tails))


def plan_animation(plan: FoldPlan) -> FuncAnimation:
    """A fold plan: the start, then each quarter turn before and after, the held end still."""
    return _animate(plan.solution, plan_frames(plan))


# -- files ------------------------------------------------------------------------------------
def write_pages(figs_or_anim: Any, path: Path, kind: str) -> Path:
    """Write ``solution_pages``', ``plan_pages``' or ``dialog_figures``' answer to ``path`` as
    ``kind``: an animation (.gif), pages (.pdf) or the one stacked figure (.png, .svg)."""
    if kind == ".gif":
        try:
            figs_or_anim.save(path, writer=PillowWriter(fps=figs_or_anim.fps))
        except IndexError as err:
            # Stopped before its first frame (a time limit, Ctrl-C, the memory cap of a
            # server's worker): matplotlib's writer then fails on its empty list of frames as
            # it finishes, which hid why it stopped. The first failure is the answer.
            if err.__context__ is not None:
                raise err.__context__ from None
            raise
        finally:
            plt.close(figs_or_anim._fig)
    elif kind == ".pdf":
        try:
            with PdfPages(path) as pdf:
                for fig in figs_or_anim:
                    stop.on_time()
                    pdf.savefig(fig)
        finally:
            for fig in figs_or_anim:
                plt.close(fig)
    else:
        fig = figs_or_anim[0]
        fig.savefig(path, format=kind.lstrip("."))
        plt.close(fig)
    return path


def solution_pages(
    solution: Solution, kind: str, paper: str, tails: Tails | None, typed: str | None
) -> Any:
    """What ``write_pages`` writes for a solution as ``kind``: its sheet (.pdf pages, or
    one .png/.svg) or its animation (.gif); ``typed``, the snake as the person typed it, is
    on the cover."""
    if kind == ".gif":
        return animation(solution, tails)
    shown = scene.display(solution)
    pages = _instruction_pages(
        shown, scene.panels(shown, tails), paper, _key(tails), scene.cover(shown, typed)
    )
    return render_pages(pages, paper, kind != ".pdf")


def plan_pages(plan: FoldPlan, kind: str, paper: str, typed: str | None) -> Any:
    """What ``write_pages`` writes for a fold plan as ``kind`` (.pdf, .png, .svg, .gif)."""
    if kind == ".gif":
        return plan_animation(plan)
    return plan_figures(plan, paper, stacked=kind != ".pdf", typed=typed)


def single(solution: Solution, size: float = 4.0) -> Figure:
    """The finished solution from the table camera, cubes coloured by position in the snake."""
    shown = scene.display(solution)
    fig = plt.figure(figsize=(size, size), dpi=100)
    n = len(shown.cells)
    view = View(scene.CAMERA, tuple(range(n)), (), {})
    panel = scene.finished_panel(shown, view, {i: cube_colour(i) for i in range(n)}, box=False)
    d = scene.drawing_of(panel, view, shown.cells)
    sheet = Sheet(fig, 0, (size, size))
    place(sheet, 0, 0, size, size, d, d.bounds, fit(d.bounds, size, size))
    return fig


def png_bytes(solution: Solution) -> bytes:
    """One picture of the solution as PNG bytes (for notebooks)."""
    fig = single(solution)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def flat_sheet(result: Flat, path: str | Path) -> Path:
    """Draw the most compact flat layouts (one per class up to the square's symmetries),
    cubes numbered and alternately coloured, the first cube outlined."""
    path = Path(path)
    shown = result.examples[:12]
    cols = min(4, max(1, len(shown)))
    rows = max(1, math.ceil(len(shown) / cols))
    cols = max(cols, 2)
    fig, axes = plt.subplots(rows, cols, figsize=(3.4 * cols, 3.4 * rows + 0.6), squeeze=False)
    fig.suptitle(
        f"{result.snake.turns()}\n{result.layouts} flat layouts; the {result.most_compact} most "
        f"compact fit {result.bounding_box[0]}x{result.bounding_box[1]} "
        f"({result.most_compact_distinct} up to symmetry); cube 1 outlined",
        fontsize=9,
    )
    for ax in axes.flat:
        ax.set_axis_off()
    for ax, layout in zip(axes.flat, shown, strict=False):
        stop.on_time()  # a time limit (stop.within) ends the drawing between layouts
        for i, (x, y) in enumerate(layout):
            _square(ax, x, y, cube_colour(i), "black", 2.0 if i == 0 else 0.6)
            _number(ax, x, y, i, 7, "normal", "0.12", 1.0)
        xs = [p[0] for p in layout]
        ys = [p[1] for p in layout]
        ax.plot([x + 0.5 for x in xs], [y + 0.5 for y in ys], color="#1f9bde", linewidth=1.2)
        ax.set_xlim(min(xs) - 0.2, max(xs) + 1.2)
        ax.set_ylim(min(ys) - 0.2, max(ys) + 1.2)
        ax.set_aspect("equal")
    fig.savefig(path)
    plt.close(fig)
    return path


def _rows_page(
    title: str,
    chunk: list[tuple[Laid, float]],
    top: float,
    width: float,
    cell_h: float,
    solution: Solution,
    text_h: float,
) -> Page:
    """A page of laid-out panels one under another (a plan's steps, or the questions of
    "something does not match"), each at its scale."""

    def draw(sheet: Sheet, number: int, pages: int) -> None:
        _header(sheet, title, number, pages)
        for r, (x, scale) in enumerate(chunk):
            draw_laid(
                sheet, MARGIN, top + r * cell_h, width, cell_h - GAP, x, solution, scale, text_h
            )

    return draw
