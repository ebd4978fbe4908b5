"""The page's downloads: the printable PDF sheet, the GIF and the offline viewer, rendered
by ``snakecube.explain.save`` in a private temporary folder (no request names a file)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from snakecube import explain
from snakecube.errors import InputError
from snakecube.web import answers

FORMS = {"pdf": "application/pdf", "gif": "image/gif", "html": "text/html; charset=utf-8"}


def render(snake: str, box: str, region: str, cells: list[list[int]], form: str) -> bytes:
    """The bytes of one download for the picked solution."""

    if form not in FORMS:
        raise InputError(f"unknown download {form!r}; use one of {', '.join(FORMS)}")
    explain.need_pictures()
    picked: Any = answers.solution(snake, box, region, cells)
    with tempfile.TemporaryDirectory(prefix="snakecube-web-") as folder:
        path = Path(folder) / f"snakecube.{form}"
        explain.save(picked, path)
        return path.read_bytes()
