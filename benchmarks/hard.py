"""First solutions of floppy big snakes: the set in benchmarks/data/hard-designs.json.

    .venv/bin/python benchmarks/hard.py                        # auto, 60 s cap, every design
    .venv/bin/python benchmarks/hard.py --cap 20 --strategy depth-first --only 5x5x5
    .venv/bin/python benchmarks/hard.py --set benchmarks/data/wider-designs.json   # seeds 7-26
    .venv/bin/python benchmarks/hard.py --set benchmarks/data/fresh-5x5x5-designs.json \
        --before /tmp/main-venv/bin/snakecube --out benchmarks/results-hard.md

A run of a whole set with the defaults (auto, cap 60) rewrites that set's one results file in
place: ``benchmarks/results-hard.md`` for hard-designs.json, ``benchmarks/results-hard-NAME.md``
for NAME-designs.json (git keeps the earlier runs). Other runs only print, unless ``--out FILE``
names a file (``--out -``: never write).

Each design is solved as a person runs it, one whole process per design:
``snakecube solve lengths:... --box AxBxC --first --strategy S --seconds CAP --json``
(all cores). A design counts as solved when the process reports a solution; the solution
is checked again here against the design's box (every cell once, turns where the snake
turns), by code that shares nothing with the search. Prints one row per design and the
distribution: median, worst, and how many were solved within 1, 10 and 60 s.

``--before EXE`` runs each design with another build's ``snakecube`` too (say main's, installed
in a separate venv), in the same run: the two processes of a design one after the other, the
order alternating from design to design, so that both meet the same load. The table then has
a column for each, and the run writes its own section (``## NAME: before and after``) of the
results file named by ``--out``, keeping the rest of that file; a default run of a set
rewrites the part before the first section.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench import Parser

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data" / "hard-designs.json"


def check(cells: list[list[int]], lengths: list[int], box: list[int]) -> bool:
    """Does this cell list fill the box and turn exactly at the ends of the segments?"""
    inside = all(0 <= c[i] < box[i] for c in cells for i in range(3))
    if not inside or len({tuple(c) for c in cells}) != box[0] * box[1] * box[2]:
        return False
    steps = [tuple(b[i] - a[i] for i in range(3)) for a, b in itertools.pairwise(cells)]
    if any(sorted(map(abs, s)) != [0, 0, 1] for s in steps):
        return False
    turns = [k for k in range(1, len(steps)) if steps[k] != steps[k - 1]]
    ends, at = [], 0
    for n in lengths[:-1]:
        at += n - 1
        ends.append(at)
    return turns == ends


def results_file(designs: Path) -> Path:
    """The one results file of a committed set: results-hard.md, or results-hard-NAME.md."""
    name = designs.name.removesuffix(".json").removesuffix("-designs")
    stem = "results-hard" if name == "hard" else f"results-hard-{name}"
    return ROOT / "benchmarks" / f"{stem}.md"


def write_results(path: Path, argv: list[str], lines: list[str], section: str = "") -> None:
    """Rewrite a results file in place (a temporary file, then renamed): header, then lines;
    with ``section``, only that ``## section`` of the file (the rest is kept), else only the
    part before the first section."""
    command = " ".join([".venv/bin/python", "benchmarks/hard.py", *argv])
    said = (
        f"`{command}` on {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f} at the end (whole processes; written by the script, "
        "rewritten in place at each run)."
    )
    old = path.read_text() if path.exists() else ""
    top, *rest = old.split("\n## ")
    sections = {s.split("\n", 1)[0]: "## " + s.rstrip("\n") for s in rest}
    if section:
        sections[section] = "\n".join([f"## {section}", "", said, "", *lines])
        top = top.rstrip("\n") or f"# {path.stem}"
    else:
        top = "\n".join([f"# {path.stem}", "", said, "", *lines])
    text = "\n\n".join([top, *sections.values()]) + "\n"
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def run_one(exe: str, d: dict, args: argparse.Namespace) -> float | None:
    """One design, one whole process of ``exe``: its seconds if it reported a checked
    solution, else None."""
    lengths = ",".join(map(str, d["segment_lengths"]))
    box = "x".join(map(str, d["box"]))
    argv = [
        exe,
        "solve",
        f"lengths:{lengths}",
        "--box",
        box,
        "--first",
        "--strategy",
        args.strategy,
        "--seconds",
        str(args.cap),
        "--json",
    ]
    began = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - began
    sols = json.loads(out.stdout)["solutions"] if out.returncode == 0 else []
    ok = bool(sols) and check(sols[0]["cells"], d["segment_lengths"], d["box"])
    if sols and not ok:
        raise SystemExit(f"{d['name']}: the reported solution does not check")
    return wall if ok else None


def summary(times: list[float | None]) -> str:
    """How many were solved, the median, the worst, and how many within 1, 10 and 60 s."""
    solved = sorted(t for t in times if t is not None)
    inf = float("inf")
    every = sorted(t if t is not None else inf for t in times)
    median = statistics.median(every)
    return (
        f"solved {len(solved)} of {len(times)}; median "
        f"{'over the cap' if median == inf else f'{median:.2f} s'}; worst "
        f"{'over the cap' if every[-1] == inf else f'{every[-1]:.2f} s'}; within 1 s: "
        f"{sum(t <= 1 for t in solved)}, 10 s: {sum(t <= 10 for t in solved)}, "
        f"60 s: {sum(t <= 60 for t in solved)}"
    )


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--cap", type=float, default=60.0, help="seconds per design (default 60)")
    ap.add_argument(
        "--strategy",
        default="auto",
        choices=("auto", "beam", "portfolio", "restarts", "sat", "depth-first"),
    )
    ap.add_argument("--only", default="", help="only designs whose name contains this")
    ap.add_argument("--before", default="", help="another build's snakecube, run beside")
    ap.add_argument("--set", type=Path, default=DATA, help="designs (make_hard_set.py's JSON)")
    ap.add_argument(
        "--out",
        default="",
        help="results file to rewrite (default: the set's own file, for a whole set run with "
        "the defaults; '-' never writes)",
    )
    args = ap.parse_args()
    default_run = args.strategy == "auto" and args.cap == 60.0 and not args.only
    out_file = Path(args.out) if args.out not in ("", "-") else None
    if not args.out and default_run:
        out_file = results_file(args.set)
    lines: list[str] = []

    def emit(line: str = "") -> None:
        lines.append(line)
        print(line, flush=True)

    designs = [d for d in json.loads(args.set.read_text())["designs"] if args.only in d["name"]]
    exe = str(Path(sys.executable).with_name("snakecube"))
    builds = {"before": args.before, "after": exe} if args.before else {"": exe}
    times: dict[str, list[float | None]] = {b: [] for b in builds}
    heads = " | ".join(
        f"{b + ' ' if b else ''}seconds ({args.strategy}, cap {args.cap:g})" for b in builds
    )
    emit(f"| design | segments | straights | {heads} |")
    emit("|---|---:|---:|" + "---:|" * len(builds))
    for i, d in enumerate(designs):
        shown = {}
        order = list(builds) if i % 2 == 0 else list(builds)[::-1]  # alternate: same load
        for b in order:
            wall = run_one(builds[b], d, args)
            times[b].append(wall)
            shown[b] = f"{wall:.2f}" if wall is not None else f"not within {args.cap:g}"
        cells = " | ".join(shown[b] for b in builds)
        emit(f"| {d['name']} | {len(d['segment_lengths'])} | {d['straights']} | {cells} |")
    emit()
    for b in builds:
        emit(f"{b + ': ' if b else ''}{summary(times[b])}")
    if out_file is not None:
        name = args.set.name.removesuffix(".json").removesuffix("-designs")
        write_results(
            out_file, sys.argv[1:], lines, f"{name}: before and after" if args.before else ""
        )
        print(f"wrote {out_file}", file=sys.stderr)


if __name__ == "__main__":
    main()
