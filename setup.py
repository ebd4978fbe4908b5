"""Builds the compiled search loop; everything else is in pyproject.toml.

The extension is optional: without a C compiler the package still installs and the tool uses
the pure-Python reference search.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [
            Extension(
                "snakecube.search._kernel",
                ["src/snakecube/search/_kernel.pyx"],
                extra_compile_args=["-O3"],
                optional=True,
            )
        ],
        language_level=3,
    )
)
