"""The compiled classes cannot be crashed from Python: each bad call of tests/boundary.py
(numbers out of range, arrays too short, values out of range inside them, a class made
without its arguments) raises ValueError, in a child process that no signal ends. The same
for the WebAssembly module's classes (``search.loops``), run by Node."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from snakecube import compiled
from snakecube.web import site
from wasmnode import node

HERE = Path(__file__).parent
NATIVE = ["FirstSearch", "SegmentSearch", "Beam", "PathKeys", "TurnSearch"]
IN_WASM = ["FirstSearch", "SegmentSearch", "Beam"]


def _bad_calls(name: str, *module: Path) -> dict[str, str]:
    proc = subprocess.run(
        [sys.executable, str(HERE / "boundary.py"), name, *map(str, module)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=HERE,
    )
    assert proc.returncode == 0, f"{name}: exit {proc.returncode}\n{proc.stderr[-3000:]}"
    return json.loads(proc.stdout)


def _all_refused(results: dict[str, str], skip: tuple[str, ...] = ()) -> None:
    wrong = {
        case: got
        for case, got in results.items()
        if not got.startswith("ValueError: ") and case not in skip
    }
    assert not wrong, wrong
    assert len(results) >= 8


@pytest.mark.parametrize("name", NATIVE)
def test_every_bad_call_of_a_native_class_is_a_value_error(name: str) -> None:
    extension = {
        "FirstSearch": "loops",
        "SegmentSearch": "loops",
        "Beam": "loops",
        "PathKeys": "paths",
        "TurnSearch": "turns",
    }[name]
    if compiled.extension(extension) is None:
        pytest.skip(f"the {extension} extension is not built")
    _all_refused(_bad_calls(name))


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if node() is None:
        pytest.skip("node is not installed (Debian: apt-get install nodejs; .ci/run has it)")
    out = tmp_path_factory.mktemp("wasm") / site.KERNEL
    why = site.compile_kernel(out)
    if why is not None:
        pytest.skip(why)
    return out


@pytest.mark.parametrize("name", IN_WASM)
def test_every_bad_call_of_a_webassembly_class_is_a_value_error(name: str, module: Path) -> None:
    # a Python object made without its arguments has no pointer to misuse: "not made" is moot
    _all_refused(_bad_calls(name, module), skip=("not made",))


# -- one description of each C function ---------------------------------------------------------
# The C headers declare the loops' functions; the Cython wrapper declares them again in its
# ``cdef extern`` blocks, and the WebAssembly bridge (``search.loops``) calls them by name. The
# declarations must be the headers', and every name the bridge calls an exported function (the
# number of its arguments is checked on every call, by the runtime: tests/wasmnode.mjs).
SRC = HERE.parent / "src" / "snakecube"
PROTOTYPE = re.compile(r"SC_API\s+([\w\s\*]+?)\s*\b(sc_\w+)\s*\(([^)]*)\)\s*;", re.S)
EXTERN = re.compile(r"^([\w\s\*]+?)\s*\b(sc_\w+)\s*\(([^)]*)\)$")


def _normal(text: str) -> str:
    return re.sub(r"\s*\*\s*", " *", re.sub(r"\s+", " ", text)).strip()


def _signature(kind: str, params: str) -> tuple[str, tuple[str, ...]]:
    types = tuple(_normal(re.sub(r"\b\w+$", "", p.strip())) for p in params.split(","))
    return _normal(kind), tuple(t for t in types if t not in ("", "void"))


def _headers() -> dict[str, tuple[str, tuple[str, ...]]]:
    found = {}
    for h in (SRC / "csrc").glob("*.h"):
        for kind, name, params in PROTOTYPE.findall(h.read_text()):
            found[name] = _signature(kind, params)
    return found


@pytest.mark.parametrize("header", ["segment.h", "first.h", "beam.h"])
def test_the_cython_declarations_are_the_headers(header: str) -> None:
    text = (SRC / "search" / "_loops.pyx").read_text()
    block = re.search(rf'cdef extern from "{re.escape(header)}" nogil:\n(.*?)\n\S', text, re.S)
    assert block is not None, header
    headers = _headers()
    header_names = set(PROTOTYPE.findall((SRC / "csrc" / header).read_text()))
    lines: list[str] = []  # one declaration a line: continuations (deeper indents) joined
    for line in block[1].splitlines():
        if line.startswith("        ") and lines:
            lines[-1] += " " + line.strip()
        else:
            lines.append(line.strip())
    declared = {m[2]: _signature(m[1], m[3]) for m in map(EXTERN.match, lines) if m}
    assert set(declared) == {name for _, name, _ in header_names}, header
    for name, signature in declared.items():
        assert signature == headers[name], name


def test_the_bridge_calls_only_exported_functions() -> None:
    called = set(re.findall(r'call\(\s*"(sc_\w+)"', (SRC / "search" / "loops.py").read_text()))
    called |= set(re.findall(r'call\(\s*"(sc_\w+)"', (SRC / "wasm.py").read_text()))
    assert called - {"sc_alloc", "sc_free"} <= set(_headers())
    assert {"sc_segment_check", "sc_first_check", "sc_beam_check", "sc_first_push"} <= called
