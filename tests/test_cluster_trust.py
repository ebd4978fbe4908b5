"""Trust: what answers at a scheduler address is read as data, never run. A fake scheduler
that answers the probe with a pickled object (which would touch a file if unpickled) or with
a frame length of exabytes is refused in one line, and nothing of it runs."""

from __future__ import annotations

import pickle
import socket
import struct
import threading
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the cluster extra is not installed")
msgpack = pytest.importorskip("msgpack")

from snakecube.cli import main  # noqa: E402


class Touch:
    """Unpickled, it touches a file: the code a fake scheduler tries to run."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path.touch, (Path(self.path),))


def _framed(frames: list[bytes]) -> bytes:
    prelude = struct.pack(f"Q{len(frames)}Q", len(frames), *map(len, frames))
    return struct.pack("Q", len(prelude) + sum(map(len, frames))) + prelude + b"".join(frames)


def _fake(answer: bytes) -> tuple[int, threading.Thread]:
    """A server that reads a little of whatever comes, then sends ``answer`` to each
    connection."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def run() -> None:
        server.settimeout(10)
        try:
            while True:
                conn, _ = server.accept()
                with conn:
                    conn.settimeout(2)
                    try:
                        conn.recv(65536)
                        conn.sendall(answer)
                        conn.recv(65536)
                        conn.sendall(answer)
                    except OSError:
                        pass
        except OSError:
            return
        finally:
            server.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return server.getsockname()[1], thread


@pytest.mark.parametrize("kind", ["pickle", "huge"])
def test_a_fake_scheduler_runs_no_code(tmp_path, capsys, kind):
    marker = tmp_path / "ran"
    if kind == "pickle":
        payload = pickle.dumps(Touch(str(marker)))
        head = msgpack.dumps({"op": "x", "result": {"__Pickled__": 1}})
        sub = msgpack.dumps({"num-sub-frames": 1})
        answer = _framed([head, sub, payload])
    else:  # a frame length of about 3 EiB
        answer = struct.pack("Q", 3 << 60) + b"\0" * 64
    port, _thread = _fake(answer)
    code = main(["solve", "standard", "--scheduler", f"tcp://127.0.0.1:{port}"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "not a Dask scheduler" in err, err
    assert not marker.exists(), "the fake scheduler's pickle ran"
