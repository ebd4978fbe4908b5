"""Builds the compiled loops (``snakecube.compiled`` names them); the rest is in pyproject.toml.

The extension is optional: where it cannot be built (no C compiler, a broken one, missing
Python headers), the package still installs and snakecube uses the pure-Python reference
search, saying so when a search is big enough to be slow.
"""

import os
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


def _tuning_flags() -> list[str]:
    """A portable build unless asked: ``SNAKECUBE_BUILD_NATIVE=1`` compiles for this machine's
    processor (``-march=native``), which a wheel copied to an older machine may not run on.
    The portable build still counts bits with the processor's instruction where it has one
    (``target_clones`` in ``csrc/sc.h``: docs/design.md, "The compiled kernel")."""
    if os.environ.get("SNAKECUBE_BUILD_NATIVE", "") not in ("", "0"):
        return ["-march=native"]
    return []


FLAGS = ["-O3", *_tuning_flags()]

CSRC = "src/snakecube/csrc"  # the loops in C, shared with the WebAssembly module (web.site)
HEADERS = ("sc.h", "segment.h", "segment_mask.h", "first.h", "beam.h")


def _extension(name: str, pyx: str, c_files: tuple[str, ...] = ()) -> Extension:
    """One compiled loop: its Cython wrapper and the C sources it wraps."""
    return Extension(
        name,
        [pyx, *(f"{CSRC}/{c}" for c in c_files)],
        include_dirs=[CSRC],
        depends=[f"{CSRC}/{h}" for h in HEADERS],
        extra_compile_args=FLAGS,
    )


extensions = cythonize(
    [
        _extension(
            "snakecube.search._loops",
            "src/snakecube/search/_loops.pyx",
            ("segment.c", "first.c", "beam.c"),
        ),
        _extension("snakecube.census._paths", "src/snakecube/census/_paths.pyx"),
        _extension("snakecube.fold._turns", "src/snakecube/fold/_turns.pyx"),
    ],
    language_level=3,
)
for ext in extensions:
    ext.optional = True  # cythonize() builds new Extension objects without this flag

setup(ext_modules=extensions, cmdclass={"build_ext": OptionalBuildExt})
