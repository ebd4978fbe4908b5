"""snakecube's WebAssembly module run by Node, as a runtime for ``snakecube.wasm``: the same
module the static site ships, driven by the same Python classes (``search.loops``), with Node
in place of the browser (``wasmnode.mjs``: one request a line)."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

DRIVER = Path(__file__).with_name("wasmnode.mjs")


def node() -> str | None:
    """The node executable, or None."""
    return shutil.which("node") or shutil.which("nodejs")


class NodeRuntime:
    """A Node process holding one instance of the module."""

    def __init__(self, module: Path) -> None:
        exe = node()
        if exe is None:
            raise RuntimeError("node is not installed")
        self.proc = subprocess.Popen(
            [exe, str(DRIVER), str(module)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def _ask(self, request: dict[str, Any]) -> Any:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"node ended (exit {self.proc.poll()})")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"node: {answer['error']} (request {request})")
        return answer["ok"]

    def call(self, name: str, *args: int) -> Any:
        return self._ask({"call": name, "args": list(args)})

    def write(self, address: int, data: bytes) -> None:
        self._ask({"write": address, "data": base64.b64encode(data).decode()})

    def read(self, address: int, size: int) -> bytes:
        return base64.b64decode(self._ask({"read": address, "size": size}))

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(10)
