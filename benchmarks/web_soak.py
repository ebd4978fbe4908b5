"""A few minutes of mixed traffic against ``snakecube serve`` on 127.0.0.1 (issue 43).

    .venv/bin/python benchmarks/web_soak.py                 # 4 min; rewrites results-web-soak.md
    .venv/bin/python benchmarks/web_soak.py --seconds 30 --out -

One server (``--workers 2 --queue 8``, its own temporary folder), then, measured in this run:

1. 60 good and 60 bad ``/api/details`` requests (the standard snake's cells, and the same
   with cube 2 on cube 1), in interleaved rounds of 10: seconds for each kind, and the
   workers replaced meanwhile (bad input must replace none);
2. ten downloads (the king's GIF) whose clients leave after 1 s: seconds until every place
   is free;
3. ``--seconds`` of mixed traffic from threads: good solves read to their end, bad requests
   (bad cells, a bad snake, nested JSON, a cube count that fits nothing, another Host,
   another site's text/plain POST), clients that leave (a solve and a download dropped after
   1 s), a slow client (headers one byte a second), and ``/api/status`` every 0.1 s (its
   slowest answer);
4. two floods (issue 52), each ``--flood`` seconds, while a client asks for the standard
   snake's details again and again: six threads sending ``POST /api/details`` with a body
   of 1,400,041 bytes, refused (413) on its Content-Length before it is read; then 300
   half-open connections (half a request line, then nothing; reopened when closed) from
   127.0.0.2, another address of this machine; the server's memory before, at its peak and
   after, and the client's requests answered;
5. the server stopped with SIGTERM while jobs run: its exit code, the lines it logged,
   processes and files left behind.

It reports requests served, answers by kind, worker restarts by reason, and the server's
memory (resident set of the server process, and of its workers) at the start and the end.
"""

from __future__ import annotations

import collections
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx2 as httpx
from bench import Parser

import snakecube as sc

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results-web-soak.md"
LONG_5 = "-".join(["2"] * 124)  # a 5x5x5 search that runs for minutes
NO_CUBE = "-".join(["2"] * 40 + ["3"] * 11)  # 63 cubes: the nearby look-up takes its budget
TYPO = "3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-2"  # 26 cubes: nearby designs found at once


def cells(name: str) -> list[list[int]]:
    return [list(c) for c in next(sc.solutions(name)).cells]


STANDARD = cells("standard")
BAD = [list(c) for c in STANDARD]
BAD[1] = BAD[0]
KING_GIF = {"snake": "king", "cells": cells("king"), "form": "gif"}


def rss_kb(pid: int) -> int:
    """Resident memory of a process, in kB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def session_members(sid: int) -> list[int]:
    """Processes still in the server's session (the server, its forkserver and workers)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                fields = Path(f"/proc/{name}/stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[3]) == sid and fields[0] != "Z":
                found.append(int(name))
    return found


class Soak:
    def __init__(self, workers: int, queue: int) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="web-soak-"))
        self.tmp = self.folder / "tmp"
        self.tmp.mkdir()
        self.log_path = self.folder / "serve.log"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        with self.log_path.open("w") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "snakecube",
                    "serve",
                    "--port",
                    str(self.port),
                    "--workers",
                    str(workers),
                    "--queue",
                    str(queue),
                ],
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,
                env={**os.environ, "TMPDIR": str(self.tmp)},
            )
        self.client = httpx.Client(base_url=self.url, timeout=120)
        while True:
            try:
                if self.client.get("/api/status").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
        self.counts: collections.Counter[str] = collections.Counter()
        self.lock = threading.Lock()
        self.status_ms: list[float] = []

    def status(self) -> dict:
        return self.client.get("/api/status").json()

    def memory(self) -> tuple[int, int]:
        """(server, workers) resident memory in kB."""
        return rss_kb(self.proc.pid), sum(rss_kb(p) for p in self.status()["pids"])

    def count(self, what: str) -> None:
        with self.lock:
            self.counts[what] += 1

    # -- 1. bad input against good ------------------------------------------------------------
    def bad_and_good(self) -> dict[str, float]:
        took = {"good": 0.0, "bad": 0.0}
        with httpx.Client(base_url=self.url, timeout=120) as c:
            for _ in range(6):
                for kind, cs in (("good", STANDARD), ("bad", BAD)):
                    began = time.perf_counter()
                    for _ in range(10):
                        r = c.post("/api/details", json={"snake": "standard", "cells": cs})
                        assert r.status_code == (200 if kind == "good" else 400), r.text
                    took[kind] += time.perf_counter() - began
        return took

    # -- 2. abandoned downloads --------------------------------------------------------------
    def abandoned_downloads(self) -> float:
        socks = [self.raw("/api/download", KING_GIF) for _ in range(10)]
        time.sleep(1.0)
        for s in socks:
            s.close()
        left = time.perf_counter()
        while self.status()["busy"]:
            time.sleep(0.01)
        return time.perf_counter() - left

    def raw(self, path: str, body: object) -> socket.socket:
        data = json.dumps(body).encode()
        s = socket.create_connection(("127.0.0.1", self.port))
        s.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nContent-Type: "
            f"application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode()
            + data
        )
        return s

    # -- 3. mixed traffic --------------------------------------------------------------------
    def mixed(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        kinds = [
            self.good_solves,
            self.bad_requests,
            self.leavers,
            self.slow_client,
            self.status_sampler,
        ]
        threads = [threading.Thread(target=k, args=(end,)) for k in kinds]
        threads.append(threading.Thread(target=self.good_solves, args=(end,)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def answer(self, r: httpx.Response) -> None:
        self.count(f"{r.status_code} {r.request.url.path}")

    def good_solves(self, end: float) -> None:
        with httpx.Client(base_url=self.url, timeout=120) as c:
            snakes = ["standard", "seed-red", "seed-blue", "king"]
            i = 0
            while time.monotonic() < end:
                r = c.post("/api/solve", json={"snake": snakes[i % len(snakes)]})
                i += 1
                if r.status_code == 200 and "event: result" in r.text and '"error"' not in r.text:
                    self.count("solve answered")
                else:
                    self.answer(r)
                r = c.post("/api/plan", json={"snake": "standard", "cells": STANDARD})
                self.answer(r)

    def bad_requests(self, end: float) -> None:
        with httpx.Client(base_url=self.url, timeout=120) as c:
            while time.monotonic() < end:
                self.answer(c.post("/api/details", json={"snake": "standard", "cells": BAD}))
                self.answer(c.post("/api/solve", json={"snake": "3-3-x"}))
                self.answer(
                    c.post(
                        "/api/solve",
                        content="[" * 100_000,
                        headers={"Content-Type": "application/json"},
                    )
                )
                self.answer(c.post("/api/solve", json={"snake": TYPO}))
                self.answer(c.post("/api/solve", json={"snake": NO_CUBE}))
                self.answer(c.get("/api/status", headers={"Host": "evil.example"}))
                self.answer(
                    c.post(
                        "/api/solve",
                        content='{"snake": "standard"}',
                        headers={"Content-Type": "text/plain", "Origin": "http://evil.example"},
                    )
                )

    def leavers(self, end: float) -> None:
        while time.monotonic() < end:
            for path, body in (("/api/solve", {"snake": LONG_5}), ("/api/download", KING_GIF)):
                s = self.raw(path, body)
                time.sleep(1.0)
                s.close()
                self.count(f"left after 1 s {path}")

    def slow_client(self, end: float) -> None:
        while time.monotonic() < end:
            s = socket.create_connection(("127.0.0.1", self.port))
            s.settimeout(1.0)
            text = f"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nX-Slow: "
            closed = False
            for ch in text.encode():
                try:
                    s.sendall(bytes([ch]))
                    if s.recv(1) == b"":
                        closed = True
                        break
                except TimeoutError:
                    continue  # nothing from the server yet: one more byte
                except OSError:
                    closed = True
                    break
                if time.monotonic() > end:
                    break
            s.close()
            self.count("slow client closed by the server" if closed else "slow client gave up")

    def status_sampler(self, end: float) -> None:
        """/api/status every 0.1 s, from a process of its own: the other client threads here
        share one interpreter lock, which would be measured too."""
        code = (
            "import json, sys, time, httpx2 as httpx\n"
            "end = time.monotonic() + float(sys.argv[2]); out = []\n"
            "with httpx.Client(base_url=sys.argv[1], timeout=120) as c:\n"
            "    while time.monotonic() < end:\n"
            "        began = time.perf_counter(); c.get('/api/status')\n"
            "        out.append(1000 * (time.perf_counter() - began)); time.sleep(0.1)\n"
            "print(json.dumps(out))\n"
        )
        left = str(max(0.0, end - time.monotonic()))
        done = subprocess.run(
            [sys.executable, "-c", code, self.url, left], capture_output=True, text=True, check=True
        )
        self.status_ms.extend(json.loads(done.stdout))

    # -- 4. floods ---------------------------------------------------------------------------
    def flood(self, seconds: float, attack: Callable[[float], None], threads: int) -> dict:
        """``attack(end)`` from ``threads`` threads for ``seconds`` while a client asks for
        the standard snake's details: the server's memory (kB) before, at its peak (sampled
        every 0.1 s) and after, and the client's requests answered."""
        end = time.monotonic() + seconds
        before = rss_kb(self.proc.pid)
        peak = [before]
        asked = answered = 0
        attackers = [threading.Thread(target=attack, args=(end,)) for _ in range(threads)]
        for t in attackers:
            t.start()
        with httpx.Client(base_url=self.url, timeout=30) as c:
            while time.monotonic() < end:
                asked += 1
                try:
                    r = c.post("/api/details", json={"snake": "standard", "cells": STANDARD})
                    answered += r.status_code == 200
                except httpx.TransportError:
                    pass
                peak.append(rss_kb(self.proc.pid))
                time.sleep(0.1)
        for t in attackers:
            t.join()
        return {
            "before": before,
            "peak": max(peak),
            "after": rss_kb(self.proc.pid),
            "asked": asked,
            "answered": answered,
        }

    def big_bodies(self, end: float) -> None:
        size = 1_400_041
        head = (
            f"POST /api/details HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nContent-Type: "
            f"application/json\r\nContent-Length: {size}\r\n\r\n"
        ).encode()
        body = b"x" * size
        while time.monotonic() < end:
            try:
                with socket.create_connection(("127.0.0.1", self.port)) as s:
                    s.sendall(head + body)
                    s.recv(100)
            except OSError:
                continue

    def half_open(self, end: float) -> None:
        held: list[socket.socket] = []
        while time.monotonic() < end:
            for s in list(held):  # closed by the server: open another
                s.setblocking(False)
                try:
                    closed = s.recv(100) == b""
                except BlockingIOError:
                    closed = False
                except OSError:
                    closed = True
                if closed:
                    s.close()
                    held.remove(s)
            while len(held) < 300:
                s = socket.socket()
                s.bind(("127.0.0.2", 0))
                try:
                    s.connect(("127.0.0.1", self.port))
                    s.sendall(b"GET /api/status HTTP/1.1\r\n")
                except OSError:
                    s.close()
                    break
                held.append(s)
            time.sleep(0.2)
        for s in held:
            s.close()

    # -- 5. stop -----------------------------------------------------------------------------
    def stop_while_busy(self) -> tuple[int, list[str], list[int], list[str], str]:
        """SIGTERM while two downloads and a solve run: (exit code, each client's first
        line, processes left, files left, the log)."""
        pids = self.status()["pids"]
        socks = [self.raw("/api/download", KING_GIF) for _ in range(2)]
        socks.append(self.raw("/api/solve", {"snake": LONG_5}))
        while self.status()["busy"] < 3:
            time.sleep(0.01)
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(60)
        answers = []
        for s in socks:
            s.settimeout(30)
            data = b""
            while chunk := s.recv(65536):
                data += chunk
            said = "'the server is stopping'" if b"stopping" in data else "no word"
            answers.append(f"{data.split(b' ')[1].decode() if data else 'nothing'} {said}")
            s.close()
        time.sleep(0.5)
        left = [p for p in [*pids, *session_members(self.proc.pid)] if alive(p)]
        files = [str(p.relative_to(self.tmp)) for p in self.tmp.rglob("*")]
        return code, answers, sorted(set(left)), files, self.log_path.read_text()


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=180.0, help="mixed traffic (180)")
    parser.add_argument("--flood", type=float, default=20.0, help="each flood (20)")
    parser.add_argument("--out", default=str(RESULTS), help="results file, or - to print only")
    args = parser.parse_args()
    soak = Soak(workers=2, queue=8)
    began = time.perf_counter()
    try:
        start_mem = soak.memory()
        r0 = dict(soak.status()["restarts"])
        took = soak.bad_and_good()
        r1 = dict(soak.status()["restarts"])
        free_after = soak.abandoned_downloads()
        soak.mixed(args.seconds)
        end_mem = soak.memory()
        restarts = dict(soak.status()["restarts"])
        bodies = soak.flood(args.flood, soak.big_bodies, 6)
        half = soak.flood(args.flood, soak.half_open, 1)
        flood_end = soak.memory()
        code, answers, left, files, log = soak.stop_while_busy()
    finally:
        if soak.proc.poll() is None:
            os.killpg(soak.proc.pid, signal.SIGKILL)
    served = sum(v for k, v in soak.counts.items() if not k.startswith(("left", "slow")))
    slow_status = sum(1 for ms in soak.status_ms if ms > 100)
    if os.environ.get("PYTHONASYNCIODEBUG"):  # diagnosis: what held the server's event loop
        print("\n".join(line for line in log.splitlines() if "Executing" in line))
    tracebacks = log.count("Traceback")
    growth = (end_mem[0] - start_mem[0]) / start_mem[0]
    rows = [
        ("60 good `/api/details` (standard snake), seconds", f"{took['good']:.2f}"),
        ("60 bad `/api/details` (cube 2 on cube 1), seconds", f"{took['bad']:.2f}"),
        ("workers replaced during the 60 bad requests", str(sum(r1.values()) - sum(r0.values()))),
        ("10 downloads left after 1 s: seconds until every place is free", f"{free_after:.2f}"),
        ("mixed traffic: seconds, requests answered", f"{args.seconds:g}, {served}"),
        (
            "slowest `/api/status` during the traffic, ms (median), from a process of its own",
            f"{max(soak.status_ms):.0f} ({statistics.median(soak.status_ms):.0f}); "
            f"{slow_status} of {len(soak.status_ms)} over 100 ms",
        ),
        (
            "worker restarts by reason (all of them: clients that left)",
            ", ".join(f"{k} {v}" for k, v in sorted(restarts.items())) or "none",
        ),
        (
            "server memory (resident), start -> end",
            f"{start_mem[0] / 1024:.0f} -> {end_mem[0] / 1024:.0f} MB ({growth:+.0%})",
        ),
        (
            "workers' memory (resident, together), start -> end",
            f"{start_mem[1] / 1024:.0f} -> {end_mem[1] / 1024:.0f} MB",
        ),
        *(
            (
                f"{what}, {args.flood:g} s: server memory before -> peak -> after; the client's "
                "details answered",
                f"{f['before'] / 1024:.0f} -> {f['peak'] / 1024:.0f} -> "
                f"{f['after'] / 1024:.0f} MB ({(f['after'] - start_mem[0]) / start_mem[0]:+.0%} of "
                f"the start); {f['answered']} of {f['asked']}",
            )
            for what, f in (
                ("flood of 1.4 MB bodies refused unread (6 threads)", bodies),
                ("300 half-open connections from 127.0.0.2", half),
            )
        ),
        (
            "server memory (resident), start -> after the floods",
            f"{start_mem[0] / 1024:.0f} -> {flood_end[0] / 1024:.0f} MB "
            f"({(flood_end[0] - start_mem[0]) / start_mem[0]:+.0%})",
        ),
        (
            "stopped with SIGTERM while 3 jobs ran: exit code; each client's answer",
            f"{code}; {', '.join(answers)}",
        ),
    ]
    rows += [
        ("lines the server logged (tracebacks)", f"{len(log.splitlines())} ({tracebacks})"),
        ("processes left", str(len(left))),
        ("files left in its temporary folder", str(len(files))),
    ]
    table = "\n".join(f"| {k} | {v} |" for k, v in sorted(soak.counts.items()))
    lines = [
        "# Web soak: mixed traffic against `snakecube serve`",
        "",
        f"`.venv/bin/python benchmarks/web_soak.py --seconds {args.seconds:g}`, "
        f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f}, {time.perf_counter() - began:.0f} s in all; the server "
        "with `--workers 2 --queue 8` on 127.0.0.1.",
        "",
        "| what | measured |",
        "|---|---|",
        *(f"| {k} | {v} |" for k, v in rows),
        "",
        "Answers during the mixed traffic, by kind (status and path; `solve answered` is a",
        "stream read to its result):",
        "",
        "| answer | count |",
        "|---|---:|",
        table,
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.out != "-":
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
