"""The compiled loops as a WebAssembly module: the runtime that runs it, and blocks of its
memory.

The C loops (``csrc/``) are compiled twice: into the native package's Cython extensions, and
by ``snakecube web`` into ``kernel.wasm`` (``web.site``), a module with no C library whose
functions take integers and addresses in its own linear memory. A search's state is one
block of that memory, which Python allocates (``sc_alloc``, a small allocator in
``csrc/wasm.c``) and frees with the object that owns it. ``search.loops`` builds the same
classes as the Cython modules on top of this.

A runtime is what runs the module: in the static site, Pyodide's bridge to the instance the
worker made (``web/static/pyworker.js`` registers it as the JavaScript module
``snakecube_wasm``); in the tests, Node (``tests/wasmnode.py``), installed with ``install``.
``compiled`` asks ``runtime()`` for it when no Cython extension is there.
"""

from __future__ import annotations

import sys
import weakref
from typing import Any, Protocol

MODULE = "snakecube_wasm"  # the JavaScript module the worker registers for Pyodide


class Runtime(Protocol):
    """An instance of the module: its exported functions and its memory."""

    def call(self, name: str, *args: int) -> Any:
        """Call the exported function ``name`` (int32 or float arguments); its result."""

    def write(self, address: int, data: bytes) -> None:
        """Copy ``data`` into the module's memory at ``address``."""

    def read(self, address: int, size: int) -> bytes:
        """``size`` bytes of the module's memory from ``address``."""


class PyodideRuntime:
    """The module in the browser, through Pyodide's bridge to JavaScript."""

    def __init__(self, module: Any) -> None:
        from js import Uint8Array  # type: ignore[import-not-found]  # only in Pyodide

        self._exports = module.exports
        self._memory = module.memory
        self._bytes = Uint8Array
        self._functions: dict[str, Any] = {}

    def call(self, name: str, *args: int) -> Any:
        function = self._functions.get(name)
        if function is None:
            function = self._functions[name] = getattr(self._exports, name)
        if function.length != len(args):  # the C function's own parameters (a JS Function)
            raise TypeError(f"{name} takes {function.length} arguments, not {len(args)}")
        return function(*args)

    def write(self, address: int, data: bytes) -> None:
        # A fresh view each time: the memory's buffer changes when it grows.
        self._bytes.new(self._memory.buffer, address, len(data)).assign(data)

    def read(self, address: int, size: int) -> bytes:
        return bytes(self._bytes.new(self._memory.buffer, address, size).to_bytes())


_installed: list[Runtime] = []


def install(runtime: Runtime | None) -> None:
    """Use ``runtime`` for the WebAssembly loops from now on (None: no runtime)."""
    _installed[:] = [] if runtime is None else [runtime]


def runtime() -> Runtime | None:
    """The installed runtime; in Pyodide, the worker's module if it registered one."""
    if not _installed and sys.platform == "emscripten":
        try:
            module = __import__(MODULE)
        except ImportError:  # the site was built without the module
            return None
        install(PyodideRuntime(module))
    return _installed[0] if _installed else None


class Block:
    """A block of the module's memory, freed when the object is."""

    def __init__(self, runtime: Runtime, size: int) -> None:
        self.runtime = runtime
        self.address = int(runtime.call("sc_alloc", max(1, size))) & 0xFFFFFFFF  # unsigned
        if not self.address:
            raise MemoryError(f"no room for {size} bytes in the WebAssembly module's memory")
        self._free = weakref.finalize(self, runtime.call, "sc_free", self.address)
        self._free.atexit = False  # type: ignore[misc]  # the memory ends with the process

    def free(self) -> None:
        """Free the block now."""
        self._free()


def put(runtime: Runtime, *parts: bytes) -> tuple[Block, list[int]]:
    """``parts`` copied into one new block (each at a multiple of 16 bytes): the block and
    each part's address."""
    padded = [p.ljust((len(p) + 15) & ~15, b"\0") for p in parts]
    block = Block(runtime, sum(map(len, padded)))
    addresses, at = [], block.address
    for part in padded:
        addresses.append(at)
        at += len(part)
    runtime.write(block.address, b"".join(padded))
    return block, addresses
