"""Showing a solution: text forms, pictures (matplotlib) and the 3D viewer (its own script).

:func:`save` writes any of them, choosing by the file's extension; the plotting libraries are
imported only when a picture is asked for.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from snakecube import fold, stop
from snakecube.errors import InputError
from snakecube.explain import viewer
from snakecube.explain.prose import Words, show
from snakecube.explain.scene import Tails
from snakecube.fold import FoldPlan, guide, steps_in_words
from snakecube.fold.wrong import Ask, Verdict
from snakecube.frame import display
from snakecube.output import write_file
from snakecube.solution import Solution, Style

TEXT_FORMS = (".txt",)
PICTURE_FORMS = (".png", ".svg", ".pdf", ".gif")
VIEWER_FORMS = (".html",)
FORMS = TEXT_FORMS + PICTURE_FORMS + VIEWER_FORMS


def form_of(path: str | Path) -> str:
    """The extension of ``path`` if snakecube can write it, else an InputError."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in FORMS:
        raise InputError(
            f"{str(path)!r}: unknown extension {suffix or '(none)'!r}; use one of {' '.join(FORMS)}"
        )
    return suffix


def need_pictures() -> None:
    """An InputError naming what to install when matplotlib is missing."""
    if importlib.util.find_spec("matplotlib") is None:
        raise InputError("pictures need matplotlib: pip install 'snakecube[show]'")


def _pictures() -> ModuleType:
    """The drawing module (matplotlib: the show extra). Importing it takes a second or more
    on a busy machine, and no clock can stop an import: past the time limit of the enclosing
    ``stop.within`` (``--seconds``), it is not begun (``stop.OutOfTime``)."""
    need_pictures()
    stop.on_time()
    from snakecube.explain import pictures

    return pictures


def _drawn(path: str | Path, form: str, pages: Callable[[ModuleType], Any]) -> Path:
    """Write ``pages(pictures)`` (figures, or an animation) to ``path`` as ``form``, whole or
    not at all."""
    pictures = _pictures()
    return write_file(path, lambda p: pictures.write_pages(pages(pictures), p, form))


PAPERS = ("a4", "letter")


def _form(path: str | Path, paper: str) -> str:
    """The form to write (``path``'s extension), with ``paper`` checked."""
    form = form_of(path)
    if paper not in PAPERS:
        raise InputError(f"unknown paper {paper!r}; use one of {', '.join(PAPERS)}")
    return form


def _write_text(path: str | Path, text: str) -> Path:
    return write_file(path, lambda p: p.write_text(text, encoding="utf-8"))


def save(
    solution: Solution,
    path: str | Path,
    *,
    style: str = Style.SIGNS,
    words: str = Words.TABLE,
    paper: str = "a4",
    tails: Tails | None = None,
    typed: str | None = None,
) -> Path:
    """Write ``solution`` to ``path``: text (.txt), a printable sheet (.pdf pages, or
    .png/.svg), an animation (.gif) or the viewer (.html), chosen by the extension; written
    whole or not at all. ``paper`` is ``a4`` or ``letter``; ``words`` ``table`` or ``pilot``;
    ``tails`` where the rest of the snake hangs at each step (from a fold plan: see
    :func:`hanging`); without them each step draws the next segment at its place, and no
    fold plan is searched. ``typed`` is the snake as the person typed it: the sheet's cover
    and headers show it (the turn string if not given)."""
    if not isinstance(solution, Solution):
        raise TypeError(f"save() needs a Solution, not {type(solution).__name__}")
    form = _form(path, paper)
    if form in TEXT_FORMS:
        return _write_text(path, show(solution, style, words) + "\n")
    if form in VIEWER_FORMS:  # drawn by the page's own script: no plotting library
        return _write_text(path, viewer.html(solution, tails=tails))
    return _drawn(path, form, lambda pic: pic.solution_pages(solution, form, paper, tails, typed))


def hanging(solution: Solution) -> tuple[Solution, Tails | None]:
    """The solution as the pictures show it, and where the rest of the snake hangs at each
    step (from a fold plan held at the first end); None tails when no plan is found. This
    runs the fold planner."""

    shown = display(solution)
    try:
        plan = fold.plan(shown, "first", orient=False, order="fewest")
    except InputError:
        return shown, None
    if not plan.found:
        return shown, None
    return shown, fold.hanging_tails(plan)


def save_plan(
    plan: FoldPlan, path: str | Path, paper: str = "a4", typed: str | None = None
) -> Path:
    """Write a fold plan (``snakecube.fold.FoldPlan``): its steps in words (.txt), its sheet
    (.pdf, .png, .svg), its animation (.gif) or its viewer (.html), chosen by the extension."""

    if not isinstance(plan, FoldPlan):
        raise TypeError(f"save_plan() needs a FoldPlan, not {type(plan).__name__}")
    form = _form(path, paper)
    if form in TEXT_FORMS:
        return _write_text(path, "\n".join(steps_in_words(guide(plan))) + "\n")
    if form in VIEWER_FORMS:
        return _write_text(path, viewer.plan_html(plan))
    return _drawn(path, form, lambda pic: pic.plan_pages(plan, form, paper, typed))


def save_dialog(
    plan: FoldPlan,
    step: int,
    tree: Ask | Verdict,
    path: str | Path,
    paper: str = "a4",
    typed: str | None = None,
) -> Path:
    """Write a 'Something doesn't match?' dialog (``fold.dialog``) at ``step``: each
    question with its picture and where its answers lead, then the verdicts (.pdf, .png,
    .svg); ``typed``, the snake as the person typed it, heads it."""
    form = _form(path, paper)
    if form not in (".pdf", ".png", ".svg"):
        raise InputError(f"{str(path)!r}: the questions' pictures are a .pdf, .png or .svg")
    stacked = form != ".pdf"
    return _drawn(
        path, form, lambda pic: pic.dialog_figures(plan, step, tree, paper, stacked, typed)
    )
