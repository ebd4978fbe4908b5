"""`snakecube make`: how long the king's plate takes and how big its file is, and whether a
slicer asks for support under any piece; writes benchmarks/results-make.md.

    .venv/bin/python benchmarks/make.py [RUNS]
        (RUNS whole processes of each command, default 5, interleaved with `solve standard`
        as the machine's yardstick; the slicer part needs Debian's prusa-slicer)

The time is a whole process, as a person waits for it (the imports of manifold3d and lib3mf
included). The slicer: PrusaSlicer slices each kind of piece as `make DIR/` writes it (0.2 mm
layers, its default 0.4 mm nozzle) with supports on and detected automatically (its default
when supports are on), and with a fixed 45 degree threshold; the G-code's support lines are
counted, and where they are.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench import Parser

OUT = Path(__file__).with_name("results-make.md")
TOOL = [sys.executable, "-m", "snakecube"]


def timed(*args: str) -> float:
    began = time.perf_counter()
    subprocess.run([*TOOL, *args], check=True, capture_output=True)
    return time.perf_counter() - began


def support(gcode: Path) -> tuple[int, list[float]]:
    """The support lines of a G-code file, and the heights where they are."""
    z, kind, heights, lines = 0.0, "", Counter(), 0
    for line in gcode.read_text().splitlines():
        if line.startswith(";TYPE:"):
            kind = line[6:]
        elif line.startswith(";Z:"):
            z = float(line[3:])
        elif kind.startswith("Support") and line.startswith("G1") and " E" in line:
            lines += 1
            heights[round(z, 1)] += 1
    return lines, sorted(heights)


def slice_pieces(folder: Path) -> list[str]:
    slicer = shutil.which("prusa-slicer")
    if slicer is None:
        return ["prusa-slicer is not installed (Debian: apt-get install prusa-slicer): not sliced"]
    version = subprocess.run([slicer, "--help"], capture_output=True, text=True).stdout
    name = next((line for line in version.splitlines() if "PrusaSlicer" in line), "PrusaSlicer")
    rows = [
        f"Sliced with {name.split(' based')[0]}, 0.2 mm layers:",
        "",
        "| piece | automatic supports | supports at a 45 degree threshold |",
        "|---|---|---|",
    ]
    for kind in ("end", "straight", "corner"):
        found = []
        for extra in (["--support-material-auto"], ["--support-material-threshold", "45"]):
            gcode = folder / f"{kind}.gcode"
            subprocess.run(
                [
                    slicer,
                    "--export-gcode",
                    "--support-material",
                    *extra,
                    "--layer-height",
                    "0.2",
                    "--center",
                    "100,100",
                    "--dont-arrange",
                    "--output",
                    str(gcode),
                    str(folder / f"{kind}.stl"),
                ],
                check=True,
                capture_output=True,
            )
            lines, heights = support(gcode)
            where = f" (at heights {heights[0]:g} to {heights[-1]:g} mm)" if heights else ""
            found.append(f"{lines} lines{where}")
        rows.append(f"| {kind} | {found[0]} | {found[1]} |")
    return rows


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="?", type=int, default=5, help="processes of each command")
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        make, solve = [], []
        for k in range(runs):
            make.append(timed("make", "king", "--out", str(where / f"k{k}.3mf")))
            solve.append(timed("solve", "standard"))
        size = (where / "k0.3mf").stat().st_size
        subprocess.run(
            [*TOOL, "make", "king", "--out", f"{where}/stl/"], check=True, capture_output=True
        )
        sliced = slice_pieces(where / "stl")
    loadavg = Path("/proc/loadavg")
    load = loadavg.read_text().split()[0] if loadavg.exists() else "?"
    text = [
        "# `snakecube make`: time, size, and a slicer's view",
        "",
        f"Written by `benchmarks/make.py` ({runs} runs each, interleaved; load average "
        f"{load} at the end).",
        "",
        "| command | median s | min s | max s |",
        "|---|---|---|---|",
        f"| `make king --out k.3mf` | {statistics.median(make):.2f} | {min(make):.2f} | "
        f"{max(make):.2f} |",
        f"| `solve standard` (the yardstick) | {statistics.median(solve):.2f} | "
        f"{min(solve):.2f} | {max(solve):.2f} |",
        "",
        f"`make king` takes {statistics.median(make) / statistics.median(solve):.1f} times as "
        f"long as `solve standard`; the issue's bound is 10 s. The file is {size / 1e6:.2f} MB "
        "(bound: 10 MB).",
        "",
        *sliced,
        "",
    ]
    OUT.write_text("\n".join(text))
    print("\n".join(text))


if __name__ == "__main__":
    main()
