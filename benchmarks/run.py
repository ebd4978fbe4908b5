"""Speed and memory of snakecube, against ../shared/bench/naive.c measured in the same run.

    .venv/bin/python benchmarks/run.py            # everything (about 5 minutes, most of it naive.c)
    .venv/bin/python benchmarks/run.py --quick    # skip naive.c on the slow harder snake
    .venv/bin/python benchmarks/run.py --quick --before ../old/.venv/bin/python  # an older build

Prints three tables (markdown):

1. whole processes: ``snakecube solve NAME --json`` as a person runs it (best of --repeat
   runs; the compiled kernel needs no warm-up), its peak memory, and naive.c on the same input;
   with ``--before PYTHON``, the snakecube installed beside that interpreter (an older build)
   runs each job too, interleaved with this one, so a change is measured in one run;
2. inside Python once imported: ``snakecube.solve(...)`` per 3x3x3 corpus puzzle;
3. pruning: nodes and seconds for each piece of pruning on the king and the harder snake,
   one process, each row adding one piece to the one before.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import Parser

import snakecube as sc
from snakecube.designs import design_of, random_path
from snakecube.search import kernel, options, reference
from snakecube.search.inputs import compile_inputs
from snakecube.search.plan import Unit, make_plan

ROOT = Path(__file__).resolve().parents[1]
NAIVE_C = ROOT.parent / "shared" / "bench" / "naive.c"
KNOWN = ROOT / "tests" / "data" / "known.json"
HARD_445_SEED = 6  # a 4x4x5 design with 341 distinct solutions, about 20 s (issue 11)


def harder_4x4x4() -> sc.Snake:
    """The design of a random Hamiltonian path of the 4x4x4 cube (seed 1): 51 segments,
    213 distinct solutions; naive.c needs minutes for it."""
    box = sc.Box(4, 4, 4)
    path = random_path(box, random.Random(1))
    return design_of([box.cells[c] for c in path])


def design_4x4x5(seed: int, straightness: float) -> sc.Snake:
    """The design of a random Hamiltonian path of the 4x4x5 box from ``generate``'s chain
    leaning to long straights (mixed 5 n^2 moves from a serpentine)."""
    from snakecube.designs import backbite, serpentine

    box = sc.Box(4, 4, 5)
    path = backbite(box, serpentine(box), random.Random(seed), 5 * box.volume**2, straightness)
    return design_of([box.cells[c] for c in path])


def design_5x5x5(seed: int, moves: int | None) -> sc.Snake:
    """The design of a random Hamiltonian path of the 5x5x5 cube: ``moves`` backbite moves
    from a serpentine (None: fully mixed, 20 n^2 moves)."""
    box = sc.Box(5, 5, 5)
    path = random_path(box, random.Random(seed), moves=moves)
    return design_of([box.cells[c] for c in path])


# As a person's shell runs it: byte code cached (a developer's PYTHONDONTWRITEBYTECODE would
# make every start compile every module again).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_process(argv: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak memory (MB, the largest of the process and its workers), stdout."""
    with tempfile.TemporaryFile() as out:
        began = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, env=ENV)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - began
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
    if proc.returncode not in (0, 130):
        raise RuntimeError(f"{argv} exited {proc.returncode}")
    return wall, usage.ru_maxrss / 1024, text


def best_of(argv: list[str], repeat: int) -> tuple[float, float, str]:
    runs = [run_process(argv) for _ in range(repeat)]
    wall = min(r[0] for r in runs)
    return wall, max(r[1] for r in runs), runs[-1][2]


def best_of_both(
    argv: list[str], before: list[str], repeat: int
) -> tuple[tuple[float, float, str], float]:
    """``best_of`` for this build, and the best wall time of the older build's same job, the
    two interleaved run by run so that both see the same load."""
    mine, theirs = [], []
    for _ in range(repeat):
        theirs.append(run_process(before)[0])
        mine.append(run_process(argv))
    return (min(r[0] for r in mine), max(r[1] for r in mine), mine[-1][2]), min(theirs)


def build_naive() -> Path | None:
    if not NAIVE_C.exists():
        return None
    exe = Path(tempfile.gettempdir()) / "snakecube-naive"
    subprocess.run(["gcc", "-O3", "-o", str(exe), str(NAIVE_C)], check=True)
    return exe


def whole_processes(args: argparse.Namespace, naive: Path | None) -> list[str]:
    known = json.loads(KNOWN.read_text())["puzzles"]
    cli = [sys.executable, "-m", "snakecube", "solve"]
    jobs: list[tuple[str, list[str], str | None, str]] = [
        ("king, all solutions", ["king"], known[-1]["turns"], "4x4x4"),
        (
            "harder 4x4x4 (random path, seed 1), all",
            [harder_4x4x4().format("lengths")],
            None if args.quick else harder_4x4x4().turns(),
            "4x4x4",
        ),
    ]
    for p in known:
        if p["box"] == [3, 3, 3]:
            jobs.append((f"{p['name']} (3x3x3), all", [p["name"]], p["turns"], "3x3x3"))
    easy5 = design_5x5x5(5, 30).format("lengths")
    mixed5 = design_5x5x5(0, None).format("lengths")
    box5 = ["--box", "5x5x5"]
    mid = design_4x4x5(HARD_445_SEED, 0.0).format("lengths")
    mid_back = sc.Snake.parse(mid).reversed().format("lengths")
    jobs += [
        (
            f"4x4x5 random path (seed {HARD_445_SEED}), all",
            [mid, "--box", "4x4x5"],
            None,
            "",
        ),
        (
            "the same 4x4x5 design typed from its other end, all (--end auto)",
            [mid_back, "--box", "4x4x5"],
            None,
            "",
        ),
        ("5x5x5 random path (30 moves, seed 5), first", [easy5, *box5, "--first"], None, ""),
        ("5x5x5 random path (30 moves, seed 5), all", [easy5, *box5], None, ""),
        (
            "5x5x5 random path (fully mixed, seed 0), first, 60 s limit",
            [mixed5, *box5, "--first", "--seconds", "60"],
            None,
            "",
        ),
    ]
    old = [args.before, "-m", "snakecube", "solve"] if args.before else None
    rows = [
        "| job | snakecube (s) | peak MB | answer | naive.c (s) | ratio |"
        + (" before (s) | this / before |" if old else ""),
        "|---|---:|---:|---|---:|---:|" + ("---:|---:|" if old else ""),
    ]
    for title, argv, naive_turns, _ in jobs:
        repeat = args.repeat if "5x5x5 random path (fully" not in title else 1
        words = [*argv, "--json", "--quiet"]
        if old:
            (wall, mb, text), then = best_of_both([*cli, *words], [*old, *words], repeat)
        else:
            wall, mb, text = best_of([*cli, *words], repeat)
        data = json.loads(text)
        answer = f"{data['placements']} / {data['distinct']}"
        answer += "" if data["complete"] else f" ({data['stop_reason']})"
        naive_s = ratio = "n/a"
        if naive is not None and naive_turns is not None:
            nwall, _, _ = run_process([str(naive), naive_turns])
            naive_s, ratio = f"{nwall:.3f}", f"{wall / nwall:.3f}"
        rows.append(
            f"| {title} | {wall:.3f} | {mb:.0f} | {answer} | {naive_s} | {ratio} |"
            + (f" {then:.3f} | {wall / then:.2f} |" if old else "")
        )
        print(rows[-1], file=sys.stderr, flush=True)
    return rows


def in_python(repeat: int) -> list[str]:
    known = json.loads(KNOWN.read_text())["puzzles"]
    rows = ["| puzzle | median ms | best ms |", "|---|---:|---:|"]
    for p in known:
        if p["box"] != [3, 3, 3]:
            continue
        sc.solve(p["name"])  # first call builds the tables' code paths
        times = []
        for _ in range(repeat):
            began = time.perf_counter()
            sc.solve(p["name"])
            times.append(1000 * (time.perf_counter() - began))
        rows.append(f"| {p['name']} | {statistics.median(times):.2f} | {min(times):.2f} |")
    return rows


def _count(problem, units, flags: int, min_free: int) -> tuple[int, int, float]:
    stats = reference.Stats()
    began = time.perf_counter()
    found = 0
    for unit in units:
        found += sum(1 for x in kernel.search(problem, unit, stats, flags, min_free) if x)
    return found, stats.nodes, time.perf_counter() - began


def pruning(snake: sc.Snake | str, name: str, full: bool = True) -> list[str]:
    inputs = compile_inputs(snake)
    problem, plan = inputs.problem, make_plan(inputs.problem, inputs.start, inputs.prefix)
    group = len(problem.region.symmetries)
    everything = [Unit(c, (), 0) for c in range(problem.ncells)]
    steps = [
        ("bounds and overlap only, symmetry at the root", plan.units, 0, 0),
        ("+ dead ends", plan.units, options.DEAD_END, 0),
        ("+ parity", plan.units, options.DEAD_END | options.PARITY, 0),
        ("+ tail (default)", plan.units, options.DEFAULT_PRUNE, 0),
        ("+ connectivity while >= 40 cells free", plan.units, options.ALL_PRUNE, 40),
        ("+ connectivity at every node", plan.units, options.ALL_PRUNE, 0),
        ("default pruning, no symmetry reduction", everything, options.DEFAULT_PRUNE, 0),
    ]
    if not full:  # the slow rows (minutes on a hard snake) only for the king
        steps = steps[1:6]
    rows = [f"| {name}: pruning | found | nodes | seconds |", "|---|---:|---:|---:|"]
    for title, units, flags, min_free in steps:
        found, nodes, secs = _count(problem, units, flags, min_free)
        note = f" (= {found // group} x {group})" if units is everything else ""
        rows.append(f"| {title} | {found}{note} | {nodes:,} | {secs:.2f} |")
        print(rows[-1], file=sys.stderr, flush=True)
    n2 = make_plan(problem, min_units=32)
    for workers in (1, 2):
        began = time.perf_counter()
        r = sc.solve(snake, workers=workers)
        rows.append(
            f"| default, {workers} process{'es' if workers > 1 else ''} "
            f"({len(n2.units)} units for 2) | {r.distinct} | {r.nodes:,} | "
            f"{time.perf_counter() - began:.2f} |"
        )
    return rows


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip naive.c on the harder snake")
    parser.add_argument("--repeat", type=int, default=3, help="runs per whole-process job")
    parser.add_argument(
        "--before", metavar="PYTHON", help="also time the snakecube beside this interpreter"
    )
    args = parser.parse_args()
    if not kernel.AVAILABLE:
        sys.exit("the compiled kernel is not built; pip install -e . first")
    naive = build_naive()
    print(f"snakecube benchmarks, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores\n")
    print(
        "Whole processes (`snakecube solve ... --json`, best of "
        f"{args.repeat}); answer = placements / distinct\n"
    )
    print("\n".join(whole_processes(args, naive)))
    print("\nInside Python once imported (`snakecube.solve(name)`, 3x3x3 corpus)\n")
    print("\n".join(in_python(50)))
    print("\nPruning, one process, in Python (each row adds one piece)\n")
    print("\n".join(pruning("king", "king")))
    print()
    print("\n".join(pruning(harder_4x4x4(), "harder 4x4x4", full=False)))


if __name__ == "__main__":
    main()
