"""One binding per C loop? What calling the loops through ``search.loops`` (the classes the
WebAssembly module already runs) costs natively, against today's Cython wrappers.

    .venv/bin/python benchmarks/binding.py              # three counts, two first solutions
    .venv/bin/python benchmarks/binding.py --repeat 5

The same C (``csrc/segment.c``, ``first.c``, ``beam.c``) is compiled here into a shared library
with the compiler and flags setuptools gives the extensions, beside a small allocator of blocks
below 2 GiB (so that the 32-bit addresses ``search.loops`` takes from the WebAssembly module
are the real ones), and called with ctypes. The argument types come from one table: the
``SC_API`` prototypes of the headers, read here, so no function is declared twice.
``search.loops`` then runs on that library exactly as it runs on ``kernel.wasm`` in the static
site: one set of Python classes for both kernels, and no Cython.

Each row runs the same search both ways in one process, alternately, once untimed (the tables
are built then) and ``--repeat`` times timed; the best time of each and their ratio (ctypes /
Cython). The three counts (the standard snake, the king, 24 cubes of all corners in 2x3x4) run
the segment loop (``kernel.search``) unit by unit, as ``solve`` does: a search is made for each
unit (through ``search.loops``, the tables copied into its block), then run in slices. The two
first-solution rows run the restarts (``FirstSearch`` and ``ArmsSearch``), a search made for
each restart. The nodes are the same both ways, which the script checks. The WebAssembly kernel
is not measured here: it has one binding already, this one (``tests/test_wasm.py`` holds it to
the reference).

The results and the decision they led to are in benchmarks/results-binding.md.
"""

from __future__ import annotations

import ctypes
import re
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import Parser

import snakecube as sc
from snakecube import compiled, wasm
from snakecube.search import kernel, loops, reference
from snakecube.search.first import restarts
from snakecube.search.inputs import compile_inputs
from snakecube.search.plan import make_plan

ROOT = Path(__file__).resolve().parents[1]
CSRC = ROOT / "src" / "snakecube" / "csrc"
HEADERS = ("segment.h", "first.h", "beam.h")
SOURCES = ("segment.c", "first.c", "beam.c")

# Blocks for the loops natively: bump allocation in a region mapped below 2 GiB, so that every
# address fits the int32 the module's calls take; freeing is a no-op (a benchmark's lifetime).
ARENA_C = r"""
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#define ARENA ((size_t)1 << 28)
static unsigned char *base = 0; /* 256 MiB: MAP_32BIT finds no 1 GiB */
static size_t used = 0;
__attribute__((visibility("default"))) void *sc_alloc(uint32_t bytes) {
    size_t size = ((size_t)bytes + 15) & ~(size_t)15;
    if (!base) {
        void *p = mmap(0, ARENA, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) return 0;
        base = p;
    }
    if (used + size > ARENA) return 0;
    used += size;
    return base + used - size;
}
__attribute__((visibility("default"))) void sc_free(void *p) { (void)p; }
"""

C_TYPES: dict[str, Any] = {
    "int32_t": ctypes.c_int32,
    "uint32_t": ctypes.c_uint32,
    "int64_t": ctypes.c_int64,
    "size_t": ctypes.c_size_t,
    "double": ctypes.c_double,
    "void": None,
}
PROTOTYPE = re.compile(r"SC_API\s+([^;(]*?)\b(sc_\w+)\s*\(([^)]*)\)\s*;", re.S)


def _c_type(declaration: str) -> Any:
    """The ctypes type of a C parameter or result: any pointer an address, else its word."""
    if "*" in declaration:
        return ctypes.c_void_p
    words = declaration.replace("const", "").split()
    return C_TYPES[words[0]]


def table() -> dict[str, tuple[Any, list[Any]]]:
    """Every exported function of the loops: its result type and its arguments' types, read
    from the headers' ``SC_API`` prototypes."""
    out: dict[str, tuple[Any, list[Any]]] = {}
    for header in HEADERS:
        for result, name, params in PROTOTYPE.findall((CSRC / header).read_text()):
            args = [p for p in (s.strip() for s in params.split(",")) if p and p != "void"]
            out[name] = (_c_type(result), [_c_type(a) for a in args])
    out["sc_alloc"] = (ctypes.c_void_p, [ctypes.c_uint32])
    out["sc_free"] = (None, [ctypes.c_void_p])
    return out


def build(folder: Path) -> Path:
    """The loops and the allocator as one shared library, with setup.py's flags."""
    arena = folder / "arena.c"
    arena.write_text(ARENA_C)
    library = folder / "libsnakecube_loops.so"
    # As setuptools compiles the extensions: Python's compiler and flags, then setup.py's -O3.
    compiler = (sysconfig.get_config_var("CC") or "cc").split()
    flags = [*(sysconfig.get_config_var(v) or "" for v in ("CFLAGS", "CCSHARED"))]
    flags = [*" ".join(flags).split(), "-O3", "-shared", f"-I{CSRC}"]
    sources = [str(CSRC / s) for s in SOURCES]
    subprocess.run([*compiler, *flags, "-o", str(library), *sources, str(arena)], check=True)
    return library


class CtypesRuntime:
    """``wasm.Runtime`` over the native library: the calls through ctypes, the memory the
    process's own."""

    def __init__(self, library: Path) -> None:
        lib = ctypes.CDLL(str(library))
        self._functions: dict[str, Callable[..., Any]] = {}
        for name, (result, args) in table().items():
            function = getattr(lib, name)
            function.restype, function.argtypes = result, args
            self._functions[name] = function

    def call(self, name: str, *args: int) -> Any:
        answer = self._functions[name](*args)
        return 0 if answer is None else answer  # a NULL address

    def write(self, address: int, data: bytes) -> None:
        ctypes.memmove(address, data, len(data))

    def read(self, address: int, size: int) -> bytes:
        return ctypes.string_at(address, size)


def _count(text: str, box: str | None) -> Callable[[], tuple[int, int]]:
    inputs = compile_inputs(text, box)
    problem = inputs.problem
    plan = make_plan(problem, inputs.start, inputs.prefix)

    def run() -> tuple[int, int]:
        stats = reference.Stats()
        found = 0
        for unit in plan.units:
            found += sum(1 for x in kernel.search(problem, unit, stats) if x)
        return found, stats.nodes

    return run


def _first(text: str, box: str | None) -> Callable[[], tuple[int, int]]:
    def run() -> tuple[int, int]:
        r = sc.solve(text, box, strategy="restarts", workers=1, limit=1, seed=1)
        return r.distinct, r.nodes

    return run


ROWS: list[tuple[str, Callable[[], tuple[int, int]]]] = [
    ("standard: count (segment loop)", _count("standard", None)),
    ("king: count (segment loop)", _count("king", None)),
    ("24 cubes, all corners, in 2x3x4: count", _count("lengths:" + ",".join(["2"] * 23), "2x3x4")),
    ("king: first solution (restarts)", _first("king", None)),
    ("seed-blue: first solution (restarts)", _first("seed-blue", None)),
]


def _use(module: Any) -> None:
    """Run the search loops through this module (the Cython one or ``search.loops``)."""
    kernel._loops = module
    restarts._loops = module


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of each row each way")
    args = parser.parse_args()
    cython = compiled.extension("loops")
    if cython is None:
        raise SystemExit("the Cython loops are not built: nothing to compare against")
    with tempfile.TemporaryDirectory() as folder:
        wasm.install(CtypesRuntime(build(Path(folder))))
        print("| search | nodes | Cython s | ctypes s | ns/node Cython | ns/node ctypes | ratio |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for label, run in ROWS:
            best: dict[str, float] = {}
            seen: dict[str, tuple[int, int]] = {}
            for k in range(args.repeat + 1):  # the first round warms both up, untimed
                for way, module in (("cython", cython), ("ctypes", loops)):
                    _use(module)
                    began = time.perf_counter()
                    seen[way] = run()
                    if k:
                        best[way] = min(best.get(way, 1e9), time.perf_counter() - began)
            assert seen["cython"] == seen["ctypes"], (label, seen)
            nodes = seen["cython"][1]
            a, b = best["cython"], best["ctypes"]
            print(
                f"| {label} | {nodes:,} | {a:.3f} | {b:.3f} | {1e9 * a / nodes:.1f} | "
                f"{1e9 * b / nodes:.1f} | {b / a:.2f} |",
                flush=True,
            )
        _use(cython)
        wasm.install(None)


if __name__ == "__main__":
    main()
