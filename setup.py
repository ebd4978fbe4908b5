"""Builds the compiled loops (``snakecube.compiled`` names them); the rest is in pyproject.toml.

The extension is optional: where it cannot be built (no C compiler, a broken one, missing
Python headers), the package still installs and snakecube uses the pure-Python reference
search, saying so when a search is big enough to be slow.
"""

import platform
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """build_ext that reports a failed compile and carries on without the extension."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:  # any build failure means "no kernel"
            self._skip(err)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as err:  # likewise
            self._skip(err)

    @staticmethod
    def _skip(err: Exception) -> None:
        print(
            f"snakecube: the compiled kernel was not built ({err}); "
            "the pure-Python reference search will be used",
            file=sys.stderr,
        )


def _popcount_flags() -> list[str]:
    """``-mpopcnt`` where this machine's x86-64 processor has the instruction. The extension
    is compiled on the machine that installs it; without the flag GCC counts bits with a
    library call, which was 12 % of the beam's time (docs/design.md, "Tenth run")."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return []  # elsewhere (aarch64) GCC uses the processor's own instruction already
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            flags = f.read()
    except OSError:
        return []
    return ["-mpopcnt"] if " popcnt" in flags else []


FLAGS = ["-O3", *_popcount_flags()]

CSRC = "src/snakecube/csrc"  # the loops in C, shared with the WebAssembly module (web.site)


def _extension(name: str, pyx: str, c_files: tuple[str, ...] = ()) -> Extension:
    """One compiled loop: its Cython wrapper and the C sources it wraps."""
    return Extension(
        name,
        [pyx, *(f"{CSRC}/{c}" for c in c_files)],
        include_dirs=[CSRC],
        depends=[f"{CSRC}/{h}" for h in ("sc.h", "segment.h", "segment_mask.h", "first.h", "beam.h")],
        extra_compile_args=FLAGS,
    )


extensions = cythonize(
    [
        _extension("snakecube.search._kernel", "src/snakecube/search/_kernel.pyx", ("segment.c",)),
        _extension("snakecube.search._first", "src/snakecube/search/_first.pyx", ("first.c",)),
        _extension("snakecube.search._beam", "src/snakecube/search/_beam.pyx", ("beam.c",)),
        _extension("snakecube.census._paths", "src/snakecube/census/_paths.pyx"),
        _extension("snakecube.fold._turns", "src/snakecube/fold/_turns.pyx"),
    ],
    language_level=3,
)
for ext in extensions:
    ext.optional = True  # cythonize() builds new Extension objects without this flag

setup(ext_modules=extensions, cmdclass={"build_ext": OptionalBuildExt})
