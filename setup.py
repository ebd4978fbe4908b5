"""Builds the compiled search loop; everything else is in pyproject.toml.

The extension is optional: where it cannot be built (no C compiler, a broken one, missing
Python headers), the package still installs and snakecube uses the pure-Python reference
search, saying so when a search is big enough to be slow.
"""

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


extensions = cythonize(
    [
        Extension(
            "snakecube.search._kernel",
            ["src/snakecube/search/_kernel.pyx"],
            extra_compile_args=["-O3"],
        ),
        Extension(
            "snakecube.search._first",
            ["src/snakecube/search/_first.pyx"],
            extra_compile_args=["-O3"],
        ),
        Extension(
            "snakecube.search._beam",
            ["src/snakecube/search/_beam.pyx"],
            extra_compile_args=["-O3"],
        ),
        Extension(
            "snakecube.fold._turns",
            ["src/snakecube/fold/_turns.pyx"],
            extra_compile_args=["-O3"],
        ),
    ],
    language_level=3,
)
for ext in extensions:
    ext.optional = True  # cythonize() builds new Extension objects without this flag

setup(ext_modules=extensions, cmdclass={"build_ext": OptionalBuildExt})
