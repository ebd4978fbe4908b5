"""The page's downloads: the printable PDF sheet, the GIF, the offline viewer and the fold
plan's PDF sheet, rendered by ``snakecube.explain.save`` (``save_plan``) in a private
temporary folder (no request names a file). A sheet of a solution that is not the default
says so in its header."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from snakecube import explain, fold
from snakecube.errors import InputError
from snakecube.web import answers

FORMS = {
    "pdf": "application/pdf",
    "gif": "image/gif",
    "html": "text/html; charset=utf-8",
    "plan.pdf": "application/pdf",
}


def render(snake: str, box: str, region: str, cells: list[list[int]], form: str) -> bytes:
    """The bytes of one download for the picked solution."""

    if form not in FORMS:
        raise InputError(f"unknown download {form!r}; use one of {', '.join(FORMS)}")
    explain.need_pictures()
    picked: Any = answers.solution(snake, box, region, cells)
    note = answers.picked_note(snake, box, region, picked) if form != "html" else ""
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
