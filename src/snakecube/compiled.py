"""The one switch between compiled loops and pure Python, for the search, the census and the
fold census alike (as msgpack's ``__init__`` chooses its extension in one place).

Each compiled loop has a short name here; ``extension(name)`` gives its module, or None where
it was not built (no C compiler at install time) or is hidden: ``$SNAKECUBE_PUREPYTHON=1``
hides every one of them, as if none had been built, so the whole suite can run on the
pure-Python paths. The environment is read once, at the first import of this module.
Modules load on first use: a search loads the search loops (one module, ``search._loops``),
not the census's or the fold census's.

Where a Cython module is not there but a WebAssembly runtime is (``snakecube.wasm``: in the
static site, the worker's ``kernel.wasm``), the loops compiled from the same C source into
that module stand in for it: ``search.loops`` has the same classes as ``search._loops``.

>>> sorted(EXTENSIONS)
['loops', 'paths', 'turns']
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

from snakecube import wasm

PURE_ENV = "SNAKECUBE_PUREPYTHON"
PURE = os.environ.get(PURE_ENV, "").strip() not in ("", "0")  # every extension hidden

EXTENSIONS = {
    # the C loops: the counting kernel (search.kernel), the restarts (search.first.restarts)
    # and the beam member (search.first.beam)
    "loops": "snakecube.search._loops",
    "paths": "snakecube.census._paths",  # the census's Hamiltonian path loop (census.units)
    "turns": "snakecube.fold._turns",  # the fewest-turns search (fold.survey)
}
# The loops the WebAssembly module has, and the module with their classes.
IN_WASM = {"loops": "snakecube.search.loops"}
_LOADED: dict[str, ModuleType | None] = {}


def extension(name: str) -> ModuleType | None:
    """The compiled module called ``name`` in ``EXTENSIONS``, or None if hidden or not built."""
    if name not in _LOADED:
        module = None
        if not PURE:
            try:
                module = importlib.import_module(EXTENSIONS[name])
            except ImportError:  # not built here: WebAssembly, or the pure-Python path
                if name in IN_WASM and wasm.runtime() is not None:
                    module = importlib.import_module(IN_WASM[name])
        _LOADED[name] = module
    return _LOADED[name]


def available(name: str) -> bool:
    """Is the compiled module called ``name`` built and not hidden?"""
    return extension(name) is not None
