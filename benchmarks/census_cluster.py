"""The census on a Dask cluster against local processes, on the same cores, in one run.

    .venv/bin/python benchmarks/census_cluster.py --before ../main/.venv/bin/python
    .venv/bin/python benchmarks/census_cluster.py --box 2x3x6 --rounds 3

For each build (this one, and with ``--before PYTHON`` the one installed beside that
interpreter) a Dask cluster is started with that build's ``dask`` command: ``dask scheduler``
and ``dask worker --nworkers 2 --nthreads 1`` (two single-thread worker processes, as
``--workers 2`` has), all on 127.0.0.1. Then, round after round, each box's census runs as a
whole process (``snakecube designs --box X --json --quiet --top 0 --store DIR``, a new store
each time) with ``--workers 2`` and with ``--scheduler ADDRESS``, build after build, so every
variant sees the same load. Wall time (the work is shared out, so wall time is what a person
waits), the median per variant, the ratio of the local pool's time to Dask's ("Dask's speed",
1.0 = as fast), the load average before each run, and a check that every variant found the same
paths, designs and solutions. Rewrites ``benchmarks/results-census-cluster.md``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from bench import Parser

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results-census-cluster.md"
BOXES = ["2x3x6", "3x3x4"]


class Cluster:
    """A scheduler and two single-thread workers, started with ``python``'s dask command."""

    def __init__(self, python: str, folder: Path) -> None:
        dask = Path(python).parent / "dask"
        info = folder / "scheduler.json"
        common = ["--no-dashboard", "--host", "127.0.0.1"]
        scheduler = [str(dask), "scheduler", "--port", "0", "--scheduler-file", str(info)]
        self.procs = [self._start([*scheduler, *common], folder / "s.log")]
        deadline = time.monotonic() + 60
        while not info.exists():
            if time.monotonic() > deadline:
                raise SystemExit(f"no scheduler started by {dask}: see {folder / 's.log'}")
            time.sleep(0.1)
        self.procs.append(
            self._start(
                [
                    str(dask),
                    "worker",
                    "--scheduler-file",
                    str(info),
                    "--nworkers",
                    "2",
                    "--nthreads",
                    "1",
                    *common,
                ],
                folder / "w.log",
            )
        )
        self.address = json.loads(info.read_text())["address"]
        check = (
            "import sys; from distributed import Client; "
            "c = Client(sys.argv[1], timeout=60); c.wait_for_workers(2, timeout=120); c.close()"
        )
        subprocess.run([python, "-c", check, self.address], check=True, capture_output=True)

    @staticmethod
    def _start(argv: list[str], log: Path) -> subprocess.Popen[bytes]:
        with log.open("w") as f:
            return subprocess.Popen(
                argv, stdout=f, stderr=subprocess.STDOUT, start_new_session=True
            )

    def close(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)


def census(python: str, box: str, where: list[str], store: Path) -> tuple[float, tuple[int, ...]]:
    """(wall seconds, (paths, designs, solutions)) of one census as a whole process."""
    began = time.perf_counter()
    out = subprocess.run(
        [
            python,
            "-m",
            "snakecube",
            "designs",
            "--box",
            box,
            "--json",
            "--quiet",
            "--top",
            "0",
            "--store",
            str(store),
            *where,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - began
    shutil.rmtree(store, ignore_errors=True)
    if out.returncode != 0:
        raise SystemExit(f"{box} {' '.join(where)}: exit {out.returncode}: {out.stderr.strip()}")
    data = json.loads(out.stdout)
    return wall, (data["paths"], data["designs"], data["solutions"])


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="the Python of an older build, measured in the same run")
    ap.add_argument("--box", action="append", help=f"a box (default: {', '.join(BOXES)})")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    builds = [("after", sys.executable)]
    if args.before:
        builds.insert(0, ("before", args.before))
    boxes = args.box or BOXES
    times: dict[tuple[str, str, str], list[float]] = {}
    loads: list[float] = []
    answers: dict[str, set[tuple[int, ...]]] = {box: set() for box in boxes}
    with tempfile.TemporaryDirectory(prefix="census-cluster-") as tmp, ExitStack() as stack:
        clusters = {}
        for name, python in builds:
            folder = Path(tmp) / name
            folder.mkdir()
            cluster = Cluster(python, folder)
            stack.callback(cluster.close)
            clusters[name] = cluster.address
        for r in range(args.rounds):
            for box in boxes:
                for name, python in builds:
                    for variant, where in (
                        ("pool", ["--workers", "2"]),
                        ("dask", ["--scheduler", clusters[name]]),
                    ):
                        loads.append(os.getloadavg()[0])
                        wall, answer = census(python, box, where, Path(tmp) / "store")
                        times.setdefault((box, name, variant), []).append(wall)
                        answers[box].add(answer)
                        print(
                            f"round {r + 1} {box} {name} {variant}: {wall:.1f} s "
                            f"(load {loads[-1]:.2f})",
                            flush=True,
                        )
    for box, found in answers.items():
        if len(found) != 1:
            raise SystemExit(f"{box}: the runs disagree: {found}")
    rows = [
        "| box | build | `--workers 2`, s | Dask, s | Dask's speed (pool time / Dask time) |",
        "|---|---|---:|---:|---:|",
    ]
    for box in boxes:
        for name, _ in builds:
            pool = statistics.median(times[(box, name, "pool")])
            dask = statistics.median(times[(box, name, "dask")])
            rows.append(f"| {box} | {name} | {pool:.1f} | {dask:.1f} | {pool / dask:.2f} |")
    head = (
        "# The census on a Dask cluster against local processes\n\n"
        f"`.venv/bin/python benchmarks/census_cluster.py{' --before OLD' if args.before else ''}` "
        f"({args.rounds} rounds): median wall seconds of whole `snakecube designs --box X "
        "--store DIR` processes on the shared 2-core machine, with `--workers 2` and on a Dask "
        "cluster of two single-thread workers on the same cores (`dask scheduler`, `dask "
        "worker --nworkers 2 --nthreads 1`), every variant alternating in one run; all found "
        "the same paths, designs and solutions. "
        + ('"before" is main\'s build before the change, in its own venv. ' if args.before else "")
        + f"Load average (1 min) before the runs: {min(loads):.2f} to {max(loads):.2f}, median "
        f"{statistics.median(loads):.2f}.\n\n"
    )
    RESULTS.write_text(head + "\n".join(rows) + "\n")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
