"""``snakecube web --out DIR``: the page as a static site that solves in the browser.

The folder holds the page (``index.html``, ``page.js``, ``page.css``; it draws the cubes
as SVG itself), ``config.js`` (static mode), the Web Worker ``pyworker.js``, Pyodide's
runtime and standard library (``pyodide/``), copied from the pinned npm package in
``node_modules`` (``npm ci`` fetches it), and ``snakecube.zip``: snakecube's pure-Python
modules, which Pyodide unpacks into its file system. Nothing is loaded from a CDN or a
package index at run time.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
import zipfile
from importlib import resources
from pathlib import Path

from snakecube.errors import InputError

PAGE_FILES = ("index.html", "page.js", "page.css", "pyworker.js")
PYODIDE_FILES = (
    "pyodide.js",
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# What the browser needs of snakecube: the solver, the words, the scene, the fold planner.
# Compiled modules, the census, the cluster and the pictures stay out.
SKIP_DIRS = ("census", "__pycache__")
SKIP_SUFFIXES = (".so", ".c", ".pyx", ".pyd")


def node_modules(start: Path | None = None) -> Path | None:
    """The ``node_modules`` folder with pyodide in it: in ``start`` (default:
    the current folder) or a parent, else next to the source tree; None when not installed."""
    here = Path.cwd() if start is None else start
    package_root = Path(__file__).resolve().parents[3]
    for folder in [here, *here.parents, package_root]:
        nm = folder / "node_modules"
        if (nm / "pyodide" / "pyodide.js").is_file():
            return nm
    return None


def package_zip() -> bytes:
    """snakecube's pure-Python package as a zip (``snakecube/...``), deterministic."""

    root = Path(__file__).resolve().parents[1]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root)
            if not path.is_file() or any(part in SKIP_DIRS for part in rel.parts):
                continue
            if path.suffix in SKIP_SUFFIXES or "static" in rel.parts:
                continue
            info = zipfile.ZipInfo(str(Path("snakecube") / rel), (2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())
    return buffer.getvalue()


def _write_site(folder: Path, nm: Path) -> None:
    """The site's files in ``folder``: the page, its configuration, Pyodide, the package."""
    static = resources.files("snakecube.web").joinpath("static")
    for name in PAGE_FILES:
        (folder / name).write_bytes(static.joinpath(name).read_bytes())
    config = {"mode": "static"}
    (folder / "config.js").write_text(f"window.SNAKECUBE_CONFIG = {json.dumps(config)};\n")
    runtime = folder / "pyodide"
    runtime.mkdir(exist_ok=True)
    for name in PYODIDE_FILES:
        source = nm / "pyodide" / name
        if source.is_file():
            shutil.copyfile(source, runtime / name)
    (folder / "snakecube.zip").write_bytes(package_zip())


def _umask() -> int:
    """The process's umask (read by setting it, then setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def build(out: str | Path, modules: Path | None = None) -> Path:
    """Write the static site into ``out`` (made if missing; files there are replaced)."""
    nm = modules or node_modules()
    if nm is None:
        raise InputError(
            "the npm package pyodide is not installed; run "
            "'npm ci' in snakecube's source folder (it has package.json), then try again"
        )
    folder = Path(out)
    temp: Path | None = None
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        # Made whole beside the target, then moved into place: a full disk or Ctrl-C leaves
        # no half-written site.
        temp = Path(tempfile.mkdtemp(prefix=".snakecube-site-", dir=folder.parent))
        temp.chmod(0o777 & ~_umask())  # mkdtemp's 0700 would become the site's mode
        _write_site(temp, nm)
        if not folder.exists():
            os.replace(temp, folder)
        else:
            for path in sorted(temp.rglob("*")):
                target = folder / path.relative_to(temp)
                if path.is_dir():
                    target.mkdir(exist_ok=True)
                else:
                    os.replace(path, target)
    except OSError as err:
        raise InputError(f"cannot write the site {str(folder)!r}: {err.strerror or err}") from None
    finally:
        if temp is not None and temp.exists():
            shutil.rmtree(temp, ignore_errors=True)
    return folder
