"""The page's downloads: the printable PDF sheet, the GIF and the offline viewer, rendered
by ``snakecube.explain.save`` in a private temporary folder (no request names a file).

Each step of a sheet, a GIF or the viewer draws the cubes placed so far, so the drawing
grows with the steps times the cubes: a 1,000-cube snake whose every cube is a corner draws
half a million cubes, which took the PDF to 2.9 GB and many minutes. A download past
``MAX_DRAWN`` cubes drawn is refused at once, with one line that says so (measured on 2 busy
cores: a PDF of 12,900 cubes drawn took 27 s and 220 MB, its GIF 25 s and 310 MB; the
viewer's file, 80,000 in 24 s and 70 MB).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from snakecube import explain
from snakecube.errors import InputError
from snakecube.frame import steps
from snakecube.web import answers

FORMS = {"pdf": "application/pdf", "gif": "image/gif", "html": "text/html; charset=utf-8"}
NAMES = {"pdf": "PDF sheet", "gif": "GIF", "html": "offline viewer"}
MAX_DRAWN = {"pdf": 25_000, "gif": 25_000, "html": 100_000}  # cubes drawn in all its steps


def drawn(solution: Any) -> int:
    """How many cubes the pictures of every step draw: each step, those placed so far."""
    return sum(s.last + 1 for s in steps(solution))


def render(snake: str, box: str, region: str, cells: list[list[int]], form: str) -> bytes:
    """The bytes of one download for the picked solution."""

    if form not in FORMS:
        raise InputError(f"unknown download {form!r}; use one of {', '.join(FORMS)}")
    picked: Any = answers.solution(snake, box, region, cells)
    work = drawn(picked)
    if work > MAX_DRAWN[form]:
        raise InputError(
            f"the {NAMES[form]} of this solution would draw {work:,} cubes in "
            f"{len(picked.snake.lengths)} steps; the server draws at most {MAX_DRAWN[form]:,} "
            "for one download: use the step viewer here, or snakecube show on your machine"
        )
    if form != "html":
        explain.need_pictures()
    with tempfile.TemporaryDirectory(prefix="snakecube-web-") as folder:
        path = Path(folder) / f"snakecube.{form}"
        explain.save(picked, path)
        return path.read_bytes()
