"""Which kind of restart finds first solutions of the hard designs, at equal time.

    .venv/bin/python benchmarks/kinds.py                       # every design, every kind, 15 s each
    .venv/bin/python benchmarks/kinds.py --seconds 20 --only 5x5x5 --kinds M2,S2

For each design of benchmarks/data/hard-designs.json and each kind of restart, one process
(two at a time) runs restarts of that kind only (``search.first.Portfolio`` with a round of
that one kind), in order, for a fixed wall-clock time, and counts the restarts that found a
solution. Kinds: F free from an end, S1/S2/S3 sweeps of that width from an end, M middle out
(pivot on a long segment), M1/M2/M3 middle-out sweeps. Solutions are checked again here
(``hard.check``). This is how ``search.first.restarts.ROUND`` was chosen (docs/design-first.md,
"Middle out").

A run with the defaults (every design, every kind, 15 s) rewrites ``benchmarks/results-kinds.md``
in place (git keeps the earlier runs); other runs only print, unless ``--out FILE`` names a file.
"""

from __future__ import annotations

import json
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import Parser
from hard import DATA, check

import snakecube as sc
from snakecube.search import first
from snakecube.search.problem import Problem

RESULTS = Path(__file__).resolve().parent / "results-kinds.md"
KINDS = {
    "F": first.restarts.Kind(False, None),
    "S1": first.restarts.Kind(False, 1),
    "S2": first.restarts.Kind(False, 2),
    "S3": first.restarts.Kind(False, 3),
    "M": first.restarts.Kind(True, None),
    "M1": first.restarts.Kind(True, 1),
    "M2": first.restarts.Kind(True, 2),
    "M3": first.restarts.Kind(True, 3),
}


def run(job: tuple[dict, str, float]) -> tuple[str, str, int, float | None, int, float]:
    """(design, kind, restarts that found one, seconds to the first, restarts, M nodes/s)."""
    design, kind, seconds = job
    box = sc.Box(*design["box"])
    problem = Problem.build(sc.Snake.from_lengths(design["segment_lengths"]), box)
    portfolio = first.restarts.Portfolio(problem, kinds=(KINDS[kind],) * len(first.restarts.ROUND))
    t0, i, hits, nodes, at = time.perf_counter(), 0, 0, 0, None
    while time.perf_counter() - t0 < seconds:
        r = portfolio.restart(i)
        nodes += r.nodes
        if r.cells is not None:
            cells = [list(box.cells[c]) for c in r.cells]
            if not check(cells, design["segment_lengths"], design["box"]):
                raise AssertionError(f"{design['name']}: restart {i} is not a solution")
            hits += 1
            at = at if at is not None else time.perf_counter() - t0
        i += 1
    return design["name"], kind, hits, at, i, nodes / seconds / 1e6


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=15.0, help="per design and kind")
    ap.add_argument("--kinds", default=",".join(KINDS), help="comma-separated kinds")
    ap.add_argument("--only", default="", help="only designs whose name contains this")
    ap.add_argument(
        "--out",
        default="",
        help="results file (default: results-kinds.md for a default run; '-' never writes)",
    )
    args = ap.parse_args()
    kinds = args.kinds.split(",")
    default_run = args.seconds == 15.0 and args.kinds == ",".join(KINDS) and not args.only
    out_file = Path(args.out) if args.out not in ("", "-") else None
    if not args.out and default_run:
        out_file = RESULTS
    lines: list[str] = []

    def emit(line: str) -> None:
        lines.append(line)
        print(line, flush=True)

    if unknown := set(kinds) - set(KINDS):
        ap.error(f"unknown kinds {sorted(unknown)}; expected some of {list(KINDS)}")
    designs = [d for d in json.loads(DATA.read_text())["designs"] if args.only in d["name"]]
    jobs = [(d, k, args.seconds) for d in designs for k in kinds]
    emit(f"| design | kind | solutions in {args.seconds:g} s | first (s) | restarts | M nodes/s |")
    emit("|---|---|---:|---:|---:|---:|")
    with Pool(2) as pool:
        for name, kind, hits, at, n, rate in pool.imap(run, jobs):
            first_at = "" if at is None else f"{at:.1f}"
            emit(f"| {name} | {kind} | {hits} | {first_at} | {n} | {rate:.2f} |")
    if out_file is not None:
        command = " ".join([".venv/bin/python", "benchmarks/kinds.py", *sys.argv[1:]])
        head = [
            f"# {out_file.stem}",
            "",
            f"`{command}` on {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores"
            " (written by the script, rewritten in place at each run).",
            "",
        ]
        tmp = out_file.with_name(f".{out_file.name}.tmp")
        tmp.write_text("\n".join(head + lines) + "\n")
        os.replace(tmp, out_file)
        print(f"wrote {out_file}", file=sys.stderr)


if __name__ == "__main__":
    main()
