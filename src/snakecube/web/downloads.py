"""The page's downloads: the printable PDF sheet, the GIF, the offline viewer and the fold
plan's PDF sheet, rendered by ``snakecube.explain.save`` (``save_plan``) in a private
temporary folder (no request names a file). A sheet of a solution that is not the default
says so in its header.

Each step of a sheet, a GIF or the viewer draws the cubes placed so far, so the drawing
grows with the steps times the cubes: a 1,000-cube snake whose every cube is a corner draws
half a million cubes, which took the PDF to 2.9 GB and many minutes. A download past
``MAX_DRAWN`` cubes drawn is refused at once, with one line that says so (measured on 2 busy
cores: a PDF of 12,900 cubes drawn took 27 s and 220 MB, its GIF 25 s and 310 MB; the
viewer's file, 80,000 in 24 s and 70 MB). A fold plan's sheet draws, per step, the whole
snake small and two close-ups: at most three times the cubes a corner.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from snakecube import explain, fold
from snakecube.errors import InputError
from snakecube.frame import steps
from snakecube.web import answers

FORMS = {
    "pdf": "application/pdf",
    "gif": "image/gif",
    "html": "text/html; charset=utf-8",
    "plan.pdf": "application/pdf",
}
NAMES = {"pdf": "PDF sheet", "gif": "GIF", "html": "offline viewer", "plan.pdf": "fold plan PDF"}
# cubes drawn in all its steps
MAX_DRAWN = {"pdf": 25_000, "gif": 25_000, "html": 100_000, "plan.pdf": 25_000}
# ... and the command that makes each on a person's machine, named in that refusal
COMMANDS = {
    "pdf": "snakecube show SNAKE --out sheet.pdf",
    "gif": "snakecube show SNAKE --out fold.gif",
    "html": "snakecube show SNAKE --out viewer.html",
    "plan.pdf": "snakecube fold SNAKE --out plan.pdf",
}


def drawn(solution: Any, form: str = "pdf") -> int:
    """How many cubes the pictures of every step draw: each step, those placed so far; a
    fold plan's sheet, at most three times the cubes a corner."""
    if form == "plan.pdf":
        return 3 * len(solution.cells) * (len(solution.snake.lengths) - 1)
    return sum(s.last + 1 for s in steps(solution))


def refusal(picked: Any, form: str) -> str:
    """'' or why the server will not draw this download of ``picked``: too many cubes."""
    work = drawn(picked, form)
    if work <= MAX_DRAWN[form]:
        return ""
    return (
        f"the {NAMES[form]} of this solution would draw {work:,} cubes in "
        f"{len(picked.snake.lengths)} steps; the server draws at most {MAX_DRAWN[form]:,} "
        f"for one download: use the step viewer here, or {COMMANDS[form]} on your machine"
    )


def refusals(snake: str, target: str, answer: dict[str, Any]) -> dict[str, str]:
    """The downloads the server would refuse for the solutions of a solve's ``answer``, each
    with its one line, for the page to say at once instead of offering them (every solution
    of a snake draws as many cubes: the first one stands for all)."""
    if not answer.get("solutions"):
        return {}
    picked = answers.solution(snake, target, answer["solutions"][0]["cells"])
    return {form: why for form in FORMS if (why := refusal(picked, form))}


def render(snake: str, target: str, cells: list[list[int]], form: str) -> bytes:
    """The bytes of one download for the picked solution."""

    if form not in FORMS:
        raise InputError(f"unknown download {form!r}; use one of {', '.join(FORMS)}")
    picked: Any = answers.solution(snake, target, cells)
    if why := refusal(picked, form):
        raise InputError(why)
    if form != "html":
        explain.need_pictures()
    note = answers.picked_note(snake, target, picked) if form != "html" else ""
    typed = snake.strip() + (f"  ({note})" if note else "")
    with tempfile.TemporaryDirectory(prefix="snakecube-web-") as folder:
        path = Path(folder) / f"snakecube.{form}"
        if form == "plan.pdf":
            plan = fold.plan(picked)  # the page's plan (answers.plan_answer)
            if not plan.found:
                raise InputError(f"no fold plan: {plan.reason}")
            explain.save_plan(plan, path, typed=typed)
        else:
            explain.save(picked, path, typed=typed)
        return path.read_bytes()


# -- the "Make it" panel: the pieces for a printer, the workshop sheet (docs/make.md) --------
MAKE_FORMS = {"3mf": "model/3mf", "sheet.pdf": "application/pdf"}
MAKE_MOST = 216  # cubes: the served page makes the pieces of at most a 6x6x6 (a 3MF of about
# 8 MB; a 1,000-cube snake's would be about 37 MB): `snakecube make` takes any size


def make(
    snake: str,
    target: str,
    cells: list[list[int]],
    form: str,
    size: float,
    cord: float,
    colours: str,
) -> tuple[bytes, str, str]:
    """The bytes of one "Make it" download for the picked solution, with its file name and
    media type: the 3MF file (a ZIP of the plates' files when they need more than one plate),
    or the workshop sheet."""
    import io
    import zipfile

    from snakecube.make import Settings, checker_phase, pieces

    if form not in MAKE_FORMS:
        raise InputError(f"unknown download {form!r}; use one of {', '.join(MAKE_FORMS)}")
    settings = Settings(size, cord, colours)
    picked: Any = answers.solution(snake, target, cells)
    if len(picked.cells) > MAKE_MOST:
        raise InputError(
            f"the page makes the pieces of at most {MAKE_MOST} cubes, and this snake has "
            f"{len(picked.cells)}: use snakecube make on your machine"
        )
    dark_first = checker_phase(picked.cells) if colours == "checker" else False
    plates = pieces(picked.snake, settings, dark_first)
    title = f"snakecube make {snake.strip()}"
    if form == "3mf":
        from snakecube.make.files import three_mf_bytes

        files = [three_mf_bytes(p, settings, title) for p in plates]
        if len(files) == 1:
            return files[0], "snakecube.3mf", MAKE_FORMS["3mf"]
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as z:
            for k, data in enumerate(files, 1):
                z.writestr("snakecube.3mf" if k == 1 else f"snakecube-{k}.3mf", data)
        return out.getvalue(), "snakecube-plates.zip", "application/zip"
    explain.need_pictures()
    from snakecube.make.sheet import Workshop, save_sheet

    plan = fold.plan(picked)
    shape = f"the {picked.region.describe()}"
    workshop = Workshop(
        snake.strip(), picked.snake, plates, settings, plan if plan.found else None, shape
    )
    with tempfile.TemporaryDirectory(prefix="snakecube-web-") as folder:
        path = Path(folder) / "sheet.pdf"
        save_sheet(workshop, path)
        return path.read_bytes(), "snakecube-workshop.pdf", MAKE_FORMS["sheet.pdf"]
