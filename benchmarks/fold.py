"""How fast and how well ``snakecube fold`` plans: every catalog puzzle (King B is ``king-b``),
random 4x4x4 designs (the table's seeds and fresh ones), and King B's plans in the static
page's Pyodide; with ``--before``, an older build measured in the same run. How well: the
quarter turns, and how the plan walks along the chain: its hand distance (the sum over its
moves of the distance, in cubes, from each joint turned to the one before) as a multiple of
its span (the highest joint turned minus the lowest), from the plan's own moves, so that a
build that does not say it is measured the same way.

    .venv/bin/python benchmarks/fold.py                                   # the full run; rewrites
                                                                 # benchmarks/results-fold.md
    .venv/bin/python benchmarks/fold.py --before ../old/.venv/bin/python  # and an older build
    .venv/bin/python benchmarks/fold.py --random 3 --fresh 2 --no-pyodide  # a quick look; prints

Every job is a whole process, timed by the wall clock with byte code cached, as a person's
shell runs it: ``python -m snakecube fold NAME --json`` for a catalog puzzle, and
``python -m snakecube fold TURNS --box 4x4x4 --json`` for a random design (the design of a
random Hamiltonian path, ``designs.random_path`` seeded; the command solves it, takes the
easiest of its first 8 solutions and plans it: what a person waits for). The table's seeds
are 0, 1, ...; the fresh ones are drawn for the run (``--fresh-seeds`` repeats a run). For a
random design the planner alone is timed too: ``fold.plan`` of the path's own solution in a
process of its own (``--plan-seed``), timed inside it, as the old table did. With
``--before PYTHON``, the snakecube installed beside that interpreter runs every job too,
right before this build's (the two see the same load). Every plan, before and after, is
replayed by the tests' independent simulator (``tests/foldsim.py``).

The Pyodide part runs ``benchmarks/fold_pyodide.mjs`` under node (``npm ci`` installs
Pyodide): the static site's package zip, unpacked in Pyodide, solves King B and works out
the plan of each solution the page lists, as the page's worker does (``answers.plan_answer``):
the two builds in turn, twice, and each solution's faster run kept (a single run of each, one
after the other, once put the older build 2.7x ahead in a busy minute; run again in turn, the
two were within 1.15x).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from bench import Parser  # noqa: E402

import foldsim  # noqa: E402
import snakecube as sc  # noqa: E402
from snakecube import catalog  # noqa: E402
from snakecube.designs import design_of, random_path  # noqa: E402
from snakecube.fold.planner import Folder, PlanBudgetExceeded  # noqa: E402
from snakecube.web import site  # noqa: E402

RESULTS = HERE / "results-fold.md"
PYODIDE_SCRIPT = HERE / "fold_pyodide.mjs"
TIMEOUT = 1200  # seconds a job may take before it is recorded as cut off
# As a person's shell runs it: byte code cached.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_fold(python: str, words: list[str]) -> dict:
    """One ``fold`` process: wall seconds and its JSON answer (empty when cut off)."""
    t = time.perf_counter()
    try:
        out = subprocess.run(
            [python, "-m", "snakecube", "fold", *words, "--json"],
            capture_output=True,
            text=True,
            check=False,
            env=ENV,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return {"seconds": time.perf_counter() - t, "exit": None, "data": {}}
    seconds = time.perf_counter() - t
    data = json.loads(out.stdout) if out.returncode == 0 and out.stdout.strip() else {}
    return {"seconds": seconds, "exit": out.returncode, "data": data}


def judged(run: dict, text: str, box: sc.Box) -> dict:
    """The plan's figures, replayed by the simulator, with the fewest bound of its solution."""
    data = run["data"]
    row = dict(run)
    row["found"] = bool(data.get("found"))
    if not row["found"]:
        return row
    lengths = list(sc.Snake.parse(data["snake"]).lengths)  # the snake as it was planned
    foldsim.replay(data, lengths, set(box.cells))
    end = [tuple(c) for c in data["end"]]
    try:
        fewest: int | None = Folder(lengths, end, set()).fewest_bound()
    except PlanBudgetExceeded:
        fewest = None
    order = [m["joint"] for m in data["moves"]]
    walked = sum(abs(b - a) for a, b in itertools.pairwise(order))
    span = max(order) - min(order) if order else 0
    in_order = order == sorted(order) and len(set(order)) == len(order)
    if data["held"] == "last":
        in_order = order == sorted(order, reverse=True) and len(set(order)) == len(order)
    row |= {
        "turns": data["quarter_turns"],
        "lower": data["lower_bound"],
        "fewest": fewest,
        "clear": data["sweep_clear"],
        "moves": len(data["moves"]),
        "in_order": in_order,
        "lift": data.get("lift_before_step"),
        "walked": walked,
        "span": span,
        "ratio": walked / max(1, span),
        "steps": len(
            data.get("steps")
            or [m for k, m in enumerate(data["moves"]) if not k or data["moves"][k - 1] != m]
        ),
    }
    return row


def plan_words(r: dict | None) -> str:
    """'17 (15; 17) · hand 64/48 = 1.33 · 17 of 17 clear · in order · stays', or why there
    is none."""
    if r is None:
        return ""
    if not r["found"]:
        return "cut off" if r["exit"] is None else f"none (exit {r['exit']})"
    table = "stays" if r["lift"] == 0 else f"lifted before move {r['lift']}"
    order = " · in order" if r["in_order"] else ""
    turns = f"{r['turns']} ({r['lower']}; {r['fewest']})"
    hand = f"hand {r['walked']}/{r['span']} = {r['ratio']:.2f}"
    return f"{turns} · {hand} · {r['clear']} of {r['moves']} clear{order} · {table}"


def both(words: list[str], text: str, box: sc.Box, before: str | None, k: int) -> tuple:
    """This build's run and the older build's (None without one), in alternating order."""
    runs: dict[str, dict] = {}
    order = ["after", "before"] if k % 2 else ["before", "after"]
    for which in order:
        if which == "before" and before is None:
            continue
        runs[which] = judged(
            run_fold(before if which == "before" else sys.executable, words), text, box
        )
        print(
            f"  {text[:20]:20} {which:6} {runs[which]['seconds']:6.1f} s  "
            f"{plan_words(runs[which])}",
            file=sys.stderr,
            flush=True,
        )
    return runs["after"], runs.get("before")


def row(label: str, after: dict, prior: dict | None) -> str:
    then = "" if prior is None else f" {prior['seconds']:.1f} | {plan_words(prior)} |"
    return f"| {label} | {after['seconds']:.1f} | {plan_words(after)} |{then}"


def random_solution(seed: int) -> sc.Solution:
    """The solution a random Hamiltonian path of the 4x4x4 box is (its design's)."""
    box = sc.Box(4, 4, 4)
    path = random_path(box, random.Random(seed))
    return sc.Solution(design_of([box.cells[c] for c in path]), box, tuple(path))


def plan_seed(seed: int) -> None:
    """``--plan-seed``: time ``fold.plan`` of one random design's own solution (in whichever
    build runs this file) and print the seconds and the plan as one JSON line."""
    from snakecube import fold  # here: the parent never needs it

    sol = random_solution(seed)
    t = time.perf_counter()
    p = fold.plan(sol)
    print(json.dumps({"seconds": time.perf_counter() - t, "data": p.to_dict()}))


def run_plan(python: str, seed: int) -> dict:
    """One ``--plan-seed`` process: the planner's own seconds and its plan."""
    out = subprocess.run(
        [python, __file__, "--plan-seed", str(seed)],
        capture_output=True,
        text=True,
        check=True,
        env=ENV,
        timeout=TIMEOUT,
    )
    got = json.loads(out.stdout.splitlines()[-1])
    return {"seconds": got["seconds"], "exit": 0, "data": got["data"]}


def both_plans(seed: int, before: str | None, k: int) -> tuple:
    """``fold.plan`` of the design's own solution in this build and the older one."""
    runs: dict[str, dict] = {}
    box = sc.Box(4, 4, 4)
    for which in ["after", "before"] if k % 2 else ["before", "after"]:
        if which == "before" and before is None:
            continue
        runs[which] = judged(
            run_plan(before if which == "before" else sys.executable, seed), str(seed), box
        )
        print(
            f"  plan {seed:<15} {which:6} {runs[which]['seconds']:6.1f} s  "
            f"{plan_words(runs[which])}",
            file=sys.stderr,
            flush=True,
        )
    return runs["after"], runs.get("before")


def package_zip(python: str) -> bytes:
    """The static site's snakecube.zip as the build beside ``python`` makes it."""
    code = "import sys; from snakecube.web import site; sys.stdout.buffer.write(site.package_zip())"
    return subprocess.run([python, "-c", code], capture_output=True, check=True, env=ENV).stdout


def pyodide_runs(python: str, snake: str) -> list[dict]:
    """King B's plans in Pyodide under node, one per solution the page lists."""
    nm = site.node_modules(HERE.parent)
    assert nm is not None
    with tempfile.NamedTemporaryFile(suffix=".zip") as z:
        z.write(package_zip(python))
        z.flush()
        argv = ["node", str(PYODIDE_SCRIPT), str(nm), z.name, snake]
        out = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=TIMEOUT * 4)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


PYODIDE_ROUNDS = 2


def fastest(runs: list[dict], again: list[dict]) -> list[dict]:
    """Each solution's faster run of ``runs`` and ``again`` (the same solutions in order)."""
    if not runs:
        return again
    return [min(a, b, key=lambda r: r["seconds"]) for a, b in zip(runs, again, strict=True)]


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", metavar="PYTHON", help="also run the snakecube beside this")
    ap.add_argument("--random", type=int, default=20, help="the table's seeds 0..N-1 (20)")
    ap.add_argument("--fresh", type=int, default=20, help="fresh random designs (20)")
    ap.add_argument("--fresh-seeds", type=int, nargs="*", help="the fresh designs' seeds")
    ap.add_argument("--no-pyodide", action="store_true", help="skip the Pyodide part")
    ap.add_argument("--out", help="write the results here (default: only a full run writes)")
    ap.add_argument("--plan-seed", type=int, help=argparse.SUPPRESS)  # one child's job
    args = ap.parse_args()
    if args.plan_seed is not None:
        plan_seed(args.plan_seed)
        return
    before = args.before
    fresh = args.fresh_seeds or [random.SystemRandom().randrange(10**9) for _ in range(args.fresh)]
    for python in filter(None, (before, sys.executable)):  # byte code compiled and cached
        run_fold(python, ["standard"])
    cols = " before (s) | before's plan |" if before else ""
    bar = "---:|---|" if before else ""
    head = f"| {{}} | seconds | plan: quarter turns (lower bound; fewest bound) |{cols}"
    lines = [
        "# fold: plans for the catalog (King B is king-b), random 4x4x4 designs, Pyodide",
        "",
        f"`.venv/bin/python benchmarks/fold.py{' --before PYTHON' if before else ''}` on "
        f"{os.cpu_count()} cores (shared), {time.strftime('%Y-%m-%d')}. Every job a whole "
        "`python -m snakecube fold ... --json` process, wall clock, byte code cached"
        + (", the older build's run of each job right before or after this one's" if before else "")
        + "; every plan replayed by `tests/foldsim.py`. A plan reads: quarter "
        "turns (the lower bound: one per corner out of the plane; the fewest bound: the "
        "quarter turns to the nearest flat state that does not cross itself, so no plan has "
        "fewer), the hand distance (the sum over the moves of the cubes from each joint "
        "turned to the one before) over the span (the highest joint turned minus the lowest) "
        "and their ratio (a plan that walks along the chain is near 1), swings that pass clear, "
        "in order when the segments are placed one by one from the held end, and whether the "
        "snake stays on the table (else the move before which it is lifted).",
        "",
        head.format("puzzle"),
        "|---|---:|---|" + bar,
    ]
    results: dict[str, list] = {
        k: [] for k in ("catalog", "random", "fresh", "random plan", "fresh plan")
    }
    for k, e in enumerate(catalog.ENTRIES):
        box = sc.Box(*e.box)
        after, prior = both([e.name], e.name, box, before, k)
        results["catalog"].append((e.name, after, prior))
        lines.append(row(e.name, after, prior))
    for title, key, seeds in (
        ("Random 4x4x4 designs, the table's seeds", "random", list(range(args.random))),
        ("Fresh random 4x4x4 designs, seeds drawn for this run", "fresh", fresh),
    ):
        if not seeds:
            continue
        lines += [
            "",
            f"{title}: the whole `fold TURNS --box 4x4x4` (it solves the design, "
            "takes the easiest of its first 8 solutions and plans it), and `fold.plan` "
            "of the path's own solution alone:",
            "",
            "| seed | seconds | `fold.plan` (s) | plan: quarter turns (lower bound; "
            "fewest bound) | `fold.plan`'s plan |"
            + (
                " before (s) | before's `fold.plan` (s) | before's plan | before's "
                "`fold.plan` plan |"
                if before
                else ""
            ),
            "|---:|---:|---:|---|---|" + ("---:|---:|---|---|" * bool(before)),
        ]
        for k, seed in enumerate(seeds):
            text = random_solution(seed).snake.turns()
            after, prior = both([text, "--box", "4x4x4"], text, sc.Box(4, 4, 4), before, k)
            alone, alone_prior = both_plans(seed, before, k)
            results[key].append((seed, after, prior))
            results[key + " plan"].append((seed, alone, alone_prior))
            then = (
                ""
                if prior is None or alone_prior is None
                else f" {prior['seconds']:.1f} | {alone_prior['seconds']:.1f} | "
                f"{plan_words(prior)} | {plan_words(alone_prior)} |"
            )
            lines.append(
                f"| {seed} | {after['seconds']:.1f} | {alone['seconds']:.1f} | "
                f"{plan_words(after)} | {plan_words(alone)} |{then}"
            )
    if not args.no_pyodide:
        then_head = " before (s) | before's turns |" if before else ""
        lines += [
            "",
            "King B's plan in the static page's Pyodide (node), for each solution "
            "the page lists (`answers.plan_answer`, as the page's worker asks):",
            "",
            "| solution | seconds | quarter turns |" + then_head,
            "|---:|---:|---:|" + ("---:|---:|" if before else ""),
        ]
        # the two builds in turn, twice, each solution's faster run of the two: one run of
        # each after the other put whichever ran in a busy minute 2x behind
        prior_runs: list[dict] = []
        after_runs: list[dict] = []
        for _ in range(PYODIDE_ROUNDS):
            if before:
                prior_runs = fastest(prior_runs, pyodide_runs(before, "king-b"))
            after_runs = fastest(after_runs, pyodide_runs(sys.executable, "king-b"))
        for k, a in enumerate(after_runs):
            p = prior_runs[k] if k < len(prior_runs) else None
            then = f" {p['seconds']:.1f} | {p['quarter_turns']} |" if p else ""
            lines.append(f"| {a['solution']} | {a['seconds']:.1f} | {a['quarter_turns']} |{then}")
            print(lines[-1], file=sys.stderr, flush=True)
        results["pyodide"] = [(a["solution"], a, None) for a in after_runs]
    lines += ["", *summary(results, before is not None)]
    text = "\n".join(lines) + "\n"
    print(text)
    full = args.random == 20 and args.fresh == 20 and not args.no_pyodide
    out = args.out or (RESULTS if full else None)
    if out:
        Path(out).write_text(text, encoding="utf-8")
        print(f"wrote {out}", file=sys.stderr)


def summary(results: dict, before: bool) -> list[str]:
    """The lines the issue asks for, from this run."""
    out = []
    king_b = next((a for name, a, _ in results["catalog"] if name == "king-b"), None)
    if king_b is not None:
        out.append(f"King B, whole process: {king_b['seconds']:.1f} s.")
    for key, title in (
        ("random", "the table's seeds, whole `fold`"),
        ("random plan", "the table's seeds, `fold.plan` alone"),
        ("fresh", "fresh seeds, whole `fold`"),
        ("fresh plan", "fresh seeds, `fold.plan` alone"),
    ):
        rows = results[key]
        if not rows:
            continue
        worst = max(a["seconds"] for _, a, _ in rows)
        within = sum(1 for _, a, _ in rows if a["seconds"] <= 30 and a["found"])
        line = (
            f"Random 4x4x4 designs, {title}: {within} of {len(rows)} planned within 30 s, "
            f"slowest {worst:.1f} s"
        )
        if before:
            then = max(p["seconds"] for _, _, p in rows)
            line += f" (before: slowest {then:.1f} s)"
        out.append(line + ".")
    if results.get("pyodide"):
        worst = max(a["seconds"] for _, a, _ in results["pyodide"])
        out.append(f"King B in Pyodide: every solution's plan within {worst:.1f} s.")
    out += walking(results, before)
    return out


def walking(results: dict, before: bool) -> list[str]:
    """How the plans walk along the chain (hand distance over span), this build and the
    older one: King B and the king each, and the median and worst of the random designs."""
    out = []
    for name in ("king-b", "king"):
        row = next(((a, p) for label, a, p in results["catalog"] if label == name), None)
        if row is None or not row[0]["found"]:
            continue
        a, p = row
        then = (
            f" (before: {p['turns']} quarter turns, hand {p['ratio']:.2f} x its span)"
            if p is not None and p["found"]
            else ""
        )
        ok = a["ratio"] <= 1.5 and (p is None or a["turns"] <= p["turns"] + 2)
        out.append(
            f"{name}: {a['turns']} quarter turns in {a['steps']} steps, hand "
            f"{a['walked']}/{a['span']} = {a['ratio']:.2f} x its span{then}: "
            f"{'within' if ok else 'NOT within'} 1.5 x and 2 more turns."
        )
    for key, title in (("random", "the table's seeds"), ("fresh", "fresh seeds")):
        rows = [(a, p) for _, a, p in results[key] if a["found"]]
        if not rows:
            continue
        ratios = sorted(a["ratio"] for a, _ in rows)
        median = statistics.median(ratios)
        line = (
            f"Random 4x4x4 designs, {title}, whole `fold`: hand distance a median "
            f"{median:.2f} x the span, the worst {ratios[-1]:.2f}, "
            f"{sum(r > 2 for r in ratios)} above 2"
        )
        if before and all(p is not None and p["found"] for _, p in rows):
            old = sorted(p["ratio"] for _, p in rows)
            more = max(a["turns"] - p["turns"] for a, p in rows)
            line += (
                f" (before: a median {statistics.median(old):.2f}, the worst "
                f"{old[-1]:.2f}); at most {more} quarter turns more than before"
            )
        out.append(line + ".")
    return out


if __name__ == "__main__":
    main()
