"""A real ``snakecube serve`` for the tests that attack it (test_web_soak.py,
test_web_bounds.py): its own temporary folder and log, raw sockets, and the processes of its
session. Import it after ``pytest.importorskip("httpx2")``."""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx2 as httpx

import snakecube as sc
from conftest import HANG, free_port

LEFTOVERS = ("snakecube-", "pymp-")  # what a server must not leave in its temporary folder


def cells_of(name: str) -> list[list[int]]:
    return [list(c) for c in next(sc.solutions(name)).cells]


class Server:
    """``snakecube serve`` on 127.0.0.1 with its own temporary folder and log file; ``files``:
    its limit on open files (``ulimit -n``)."""

    def __init__(self, where: Path, *options: str, files: int | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.tmp = where / "tmp"
        self.tmp.mkdir(exist_ok=True)
        # The server's forkserver listens on a socket in TMPDIR, and a socket's path has at
        # most 107 bytes: pytest's folders under xdist (popen-gwN, test names of 30
        # characters) came to 108-109 and no worker could start. So the server is given a
        # short link to its folder, the same for the same ``where`` (a test that starts a
        # second server there finds what the first left).
        digest = hashlib.sha1(str(where).encode()).hexdigest()[:12]
        self.tmp_link = Path(tempfile.gettempdir()) / f"sc-test-{digest}"
        if not self.tmp_link.is_symlink():
            self.tmp_link.symlink_to(self.tmp, target_is_directory=True)
            atexit.register(self.tmp_link.unlink, missing_ok=True)
        self.log_path = where / "serve.log"

        def limit() -> None:
            if files is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        with self.log_path.open("w") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "snakecube", "serve", "--port", str(self.port), *options],
                stdout=subprocess.DEVNULL,
                stderr=log,
                env={**os.environ, "TMPDIR": str(self.tmp_link)},
                start_new_session=True,
                preexec_fn=limit,
            )
        until(self._up, "the server answers")

    def _up(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"the server ended ({self.proc.returncode}): {self.log()}")
        try:
            return httpx.get(self.url + "/api/status", timeout=HANG).status_code == 200
        except httpx.TransportError:
            return False

    def status(self) -> dict:
        return httpx.get(self.url + "/api/status", timeout=HANG).json()

    def post(self, path: str, body: object, **headers: str) -> httpx.Response:
        return httpx.post(self.url + path, json=body, headers=headers, timeout=HANG)

    def log(self) -> str:
        return self.log_path.read_text()

    def rss(self) -> int:
        """The server process's resident memory, bytes."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0

    def session(self) -> list[int]:
        """The processes of the server's session still running (it, its forkserver, its
        resource tracker, its workers)."""
        found = []
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    stat = Path(f"/proc/{name}/stat").read_text().rpartition(")")[2].split()
                except OSError:
                    continue
                if int(stat[3]) == self.proc.pid and stat[0] != "Z":
                    found.append(int(name))
        return found

    def stop(self, sig: signal.Signals = signal.SIGTERM, group: bool = False) -> int:
        """A stop signal (SIGTERM, as a service manager stops it), to the server or to its
        whole process group (as a closed terminal's SIGHUP, or Ctrl-C); its exit code."""
        if group:
            os.killpg(self.proc.pid, sig)
        else:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(HANG)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            raise

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def running(where: Path, *options: str) -> Iterator[Server]:
    """A server for a module's tests (``yield from`` it in a fixture), killed after them."""
    s = Server(where, *options)
    try:
        yield s
    finally:
        s.kill()


def until(ready: Callable[[], object], what: str, seconds: float = HANG) -> None:
    """Wait until ``ready()`` is true; past ``seconds``, fail naming ``what``."""
    end = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > end:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.05)


def send(port: int, path: str, body: object, **headers: str) -> socket.socket:
    """A POST of ``body`` as JSON on a raw connection, left open (its answer unread)."""
    data = json.dumps(body).encode()
    head = {
        "Host": f"127.0.0.1:{port}",
        "Content-Type": "application/json",
        "Content-Length": str(len(data)),
        **headers,
    }
    s = socket.create_connection(("127.0.0.1", port))
    lines = [f"POST {path} HTTP/1.1", *(f"{k}: {v}" for k, v in head.items()), "", ""]
    s.sendall("\r\n".join(lines).encode() + data)
    return s


def read_all(s: socket.socket, seconds: float = HANG) -> bytes:
    """Everything the server sends until it closes the connection (``seconds`` at most)."""
    s.settimeout(seconds)
    out = b""
    while chunk := s.recv(65536):
        out += chunk
    s.close()
    return out


def one_line(r: httpx.Response, status: int) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    line = r.json()["error"]
    assert line and "\n" not in line and "Traceback" not in line
    return str(line)
