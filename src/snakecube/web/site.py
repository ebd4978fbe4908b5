"""``snakecube web --out DIR``: the page as a static site that solves in the browser.

The folder holds the page (``index.html``, ``page.js``, ``page.css``; it draws the cubes
as SVG itself, with ``scene.js``, the drawing it shares with the offline viewer),
``config.js`` (static mode), the Web Worker ``pyworker.js``, Pyodide's runtime and
standard library (``pyodide/``), copied from the pinned npm package in ``node_modules``
(``npm ci`` fetches it), ``snakecube.zip``: snakecube's pure-Python
modules, which Pyodide unpacks into its file system, and ``kernel.wasm``: the compiled loops
(``csrc/``, the C the native package's Cython extensions wrap), compiled here by Debian's
clang and wasm-ld into a WebAssembly module with no C library. ``kernel.json`` says whether
the module is there (and why not), and the hash of the C sources it was built from. Where
clang or wasm-ld is missing, the site is written without the module and solves in pure
Python, and says so. Nothing is loaded from a CDN or a package index at run time.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import tempfile
import warnings
import zipfile
from importlib import resources
from pathlib import Path

from snakecube.errors import InputError, SlowWarning
from snakecube.explain import viewer

PAGE_FILES = ("index.html", "page.js", "page.css", "pyworker.js", "icon-192.png", "icon-512.png")
# The site as an app: its manifest (name, icons, start, standalone) and its service worker.
MANIFEST = {
    "name": "snakecube: fold your snake cube",
    "short_name": "snakecube",
    "description": "Solve a snake cube puzzle, count its solutions and fold it step by step.",
    "start_url": "./",
    "scope": "./",
    "display": "standalone",
    "background_color": "#fbfaf7",
    "theme_color": "#7a4a22",
    "icons": [
        {"src": "icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
        {"src": "icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
        {"src": "icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
    ],
}
MANIFEST_LINK = "<!-- the static site's manifest (snakecube web writes it here) -->"
GZIP_LEAST = 8192  # bytes: smaller files are not worth a compressed copy
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
SKIP_DIRS = ("census", "csrc", "__pycache__")
SKIP_SUFFIXES = (".so", ".c", ".pyx", ".pyd")


CSRC = Path(__file__).resolve().parents[1] / "csrc"  # the loops in C
# What the module is compiled from: the loops the page needs and the module's own support
# (memory, the compiler's helpers); every header in csrc/ is part of its source too.
KERNEL_SOURCES = ("segment.c", "first.c", "beam.c", "wasm.c")
KERNEL = "kernel.wasm"
CLANG_FLAGS = (
    "--target=wasm32",
    "-O3",
    "-nostdlib",
    "-ffreestanding",
    "-Wall",
    "-Werror",
    "-Wl,--no-entry",
    "-Wl,--export-dynamic",
    "-Wl,-z,stack-size=1048576",
)
NO_KERNEL = "clang and wasm-ld (Debian: apt-get install clang lld)"
COMPILE_SECONDS = 120  # a hang, not a slow compile (about a second)


def source_hash() -> str:
    """The SHA-256 of the C sources (names and contents of csrc's .c and .h files)."""
    digest = hashlib.sha256()
    for path in sorted(CSRC.glob("*.[ch]")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def compile_kernel(out: Path) -> str | None:
    """Compile the loops into the WebAssembly module ``out``, which records the sources' hash
    (``sc_source_hash``); None when done, else why it could not be (one line)."""
    clang, linker = shutil.which("clang"), shutil.which("wasm-ld")
    if clang is None or linker is None:
        return f"{'clang' if clang is None else 'wasm-ld'} was not found; it needs {NO_KERNEL}"
    argv = [
        clang,
        *CLANG_FLAGS,
        f'-DSC_SOURCE_HASH="{source_hash()}"',
        f"-I{CSRC}",
        "-o",
        str(out),
        *(str(CSRC / name) for name in KERNEL_SOURCES),
    ]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=COMPILE_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"clang could not compile the loops: {err}"
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["no message"])[0]
        return f"clang could not compile the loops: {first}"
    return None


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
    (folder / "scene.js").write_text(viewer.scene_script(), "utf-8")  # shared with the viewer
    # the catalog's names in the page at once: the list is there while Pyodide loads
    from snakecube.web.answers import catalog  # the page's own list

    config = {"mode": "static", "catalog": catalog()}
    (folder / "config.js").write_text(f"window.SNAKECUBE_CONFIG = {json.dumps(config)};\n")
    runtime = folder / "pyodide"
    runtime.mkdir(exist_ok=True)
    for name in PYODIDE_FILES:
        source = nm / "pyodide" / name
        if source.is_file():
            shutil.copyfile(source, runtime / name)
    (folder / "snakecube.zip").write_bytes(package_zip())
    why_not = compile_kernel(folder / KERNEL)
    manifest = {
        "module": KERNEL if why_not is None else None,
        "source_hash": source_hash(),
        "why_not": why_not,
    }
    (folder / "kernel.json").write_text(json.dumps(manifest, indent=1) + "\n")
    _as_an_app(folder)
    if why_not is not None:
        warnings.warn(
            f"the static site solves in pure Python, 30-100 times slower: {why_not}",
            SlowWarning,
            stacklevel=3,
        )


def _as_an_app(folder: Path) -> None:
    """The site as an app: ``manifest.json`` linked from the page, and ``sw.js``, the service
    worker that caches every file of the site under a name made from their contents (so a
    rebuilt site replaces the old files once the page takes the new worker)."""
    (folder / "manifest.json").write_text(json.dumps(MANIFEST, indent=1) + "\n", "utf-8")
    page = (folder / "index.html").read_text("utf-8")
    link = (
        '<link rel="manifest" href="manifest.json">\n'
        '<meta name="theme-color" content="#7a4a22">\n'
        '<link rel="apple-touch-icon" href="icon-192.png">'
    )
    (folder / "index.html").write_text(page.replace(MANIFEST_LINK, link), "utf-8")
    files = sorted(
        str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and p.suffix != ".gz"
    )
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes() + b"\0")
    worker = resources.files("snakecube.web").joinpath("static", "sw.js").read_text("utf-8")
    worker = worker.replace("__VERSION__", digest.hexdigest()[:16])
    worker = worker.replace("__FILES__", json.dumps(["./", *files]))
    (folder / "sw.js").write_text(worker, "utf-8")


def _compressed(folder: Path) -> None:
    """A gzip copy (``NAME.gz``) of each file of the site of GZIP_LEAST bytes or more, for
    hosts that serve precompressed files (nginx's ``gzip_static``, for one)."""
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix != ".gz" and path.stat().st_size >= GZIP_LEAST:
            data = gzip.compress(path.read_bytes(), compresslevel=9, mtime=0)
            path.with_name(path.name + ".gz").write_bytes(data)


def _umask() -> int:
    """The process's umask (read by setting it, then setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def build(out: str | Path, modules: Path | None = None, compress: bool = False) -> Path:
    """Write the static site into ``out`` (made if missing; files there are replaced); with
    ``compress``, a gzip copy of each larger file beside it."""
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
        # no half-written site. (A tree, so not snakecube.output's writer, which writes one
        # file whole; the same idea one level up: a temporary folder, then renames.)
        temp = Path(tempfile.mkdtemp(prefix=".snakecube-site-", dir=folder.parent))
        temp.chmod(0o777 & ~_umask())  # mkdtemp's 0700 would become the site's mode
        _write_site(temp, nm)
        if compress:
            _compressed(temp)
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
