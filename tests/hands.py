"""What a person sees of the snake in their hands, after the turns they made: a picture of the
unnumbered chain, for someone trying a fold plan without a real snake.

It replays the turns (as ``tests/follow.py`` records them) from the plan's flat start with
``tests/follow.py`` and its independent simulator, and draws the shape as it is, from in
front of the table and above, twice (from the right and from the left): wooden cubes,
alternately dark and light, no numbers; the end held in the left hand drawn black. ``--look``
runs a finger along the chain, as a person counting corners does: the run beyond a corner
counted from an end (``held:7``, ``loose:3``) or beyond the corner turned last (``turned``)
is drawn blue. The table frame: right, away from you, up. The picture is all it says.

    python tests/hands.py king --box 4x4x4 --plan plan.json --turns turns.txt --out now.png
    python tests/hands.py king --box 4x4x4 --plan plan.json --turns turns.txt --look held:7 \\
        --out look.png
    python tests/hands.py 3-3-3-... --box 3x3x3 --held first \\
        --runs "to the left,away from you,..." --turns turns.txt --out now.png
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import follow

WOOD = ("#7a4a22", "#e8cfa0")
HELD = "#111111"
LOOK = "#1f78d1"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("snake")
    ap.add_argument("--box", required=True)
    ap.add_argument("--plan", help="fold --json: its start and held end")
    ap.add_argument("--held", choices=("first", "last"), help="the end held (without --plan)")
    ap.add_argument(
        "--runs",
        help="the start without --plan: each run's way from the held end, "
        "comma separated, as the plan's words say them",
    )
    ap.add_argument("--turns", help="a file of turns, one a line ('#' starts a comment)")
    ap.add_argument("--look", help="held:N, loose:N or turned: the run beyond that corner, blue")
    ap.add_argument("--out", required=True, help="the picture (.png)")
    ap.add_argument("turn", nargs="*")
    args = ap.parse_intermixed_args(argv)
    from snakecube import Snake  # only to read the run lengths

    if args.plan:
        data = json.loads(Path(args.plan).read_text())
        held = data["held"]
        lengths = list(Snake.parse(data["snake"]).lengths)
        start = [tuple(c) for c in data.get("table_start") or data["start"]]
    else:
        if not (args.held and args.runs):
            ap.error("give --plan, or --held and --runs")
        held = args.held
        lengths = list(Snake.parse(args.snake).lengths)
        start = follow.lay_out(lengths, held, args.runs.split(","))
    lines = list(args.turn)
    if args.turns:
        lines += [ln.split("#")[0] for ln in Path(args.turns).read_text().splitlines()]
    records = [follow.Record.parse(ln) for ln in lines if ln.strip()]
    try:
        states, moves = follow.replay(lengths, held, start, records)
    except (AssertionError, ValueError) as err:
        print(f"that turn cannot be made: {err}")
        return 1
    cells = states[-1]
    n = len(cells)
    corners = follow.corner_cubes(lengths if held == "first" else lengths[::-1])  # from held
    blue: set[int] = set()
    if args.look:
        if args.look == "turned":
            if not moves:
                print("no corner turned yet")
                return 1
            ranks = [r for r, _q in _ranks(lengths, held, records)]
            cube = corners[ranks[-1]]
        else:
            end, count = args.look.split(":")
            rank = int(count) - 1 if end == "held" else len(corners) - int(count)
            cube = corners[rank]
        k = corners.index(cube)
        stop = corners[k + 1] if k + 1 < len(corners) else n
        blue = set(range(cube, stop + 1))  # 1-based from the held end
        if held == "last":
            blue = {n + 1 - c for c in blue}
    _draw(cells, held, blue, args.out)
    print(f"wrote {args.out}")
    return 0


def _ranks(lengths: list[int], held: str, records: list) -> list[tuple[int, int]]:
    """Each record's corner, 0-based from the held end, as follow.py counts it."""
    corners = follow.corner_cubes(lengths if held == "first" else lengths[::-1])
    out, rank = [], -1
    for r in records:
        if r.where == "held":
            rank = r.count - 1
        elif r.where == "loose":
            rank = len(corners) - r.count
        elif r.where == "on":
            rank += r.count
        out.append((rank, r.sign))
    return out


def _draw(cells: list, held: str, blue: set[int], out: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from snakecube.explain import drawing
    from snakecube.explain.pictures import Sheet, fit, place
    from snakecube.frame import Camera

    n = len(cells)
    end = 0 if held == "first" else n - 1
    fig = plt.figure(figsize=(10, 5), dpi=100)
    sheet = Sheet(fig, 0, (10, 5))
    for k, camera in enumerate((Camera(30.0, -62.0), Camera(30.0, -118.0))):
        cubes = [
            drawing.Cube(
                i,
                tuple(cells[i]),
                "solid",
                HELD if i == end else LOOK if i + 1 in blue else WOOD[i % 2],
            )
            for i in range(n)
        ]
        d = drawing.draw(camera, cubes, {}, caption="")
        sheet.text(
            0.2 + 5 * k,
            0.1,
            [("from the front-right" if k == 0 else "from the front-left") + ", above the table"],
        )
        place(sheet, 0.1 + 5 * k, 0.4, 4.8, 4.5, d, d.bounds, fit(d.bounds, 4.8, 4.5))
    fig.savefig(out)
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
