"""The page's answers as JSON-ready dicts, computed with the standard library only.

This module is what both ways of shipping the page run: the server calls it in its worker
processes, and the static site calls it in Pyodide, so it (and what it imports on the solving
path) must not import numpy, plotly, matplotlib or multiprocessing. Every search runs in one
process (``workers=1``); the server's parallelism is its pool of searches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from snakecube import limits
from snakecube.errors import CubeCountError, InputError

__all__ = ["InputError", "catalog", "cells", "check", "details", "plan_answer", "solve_answer"]
from snakecube import catalog as cat
from snakecube import fold
from snakecube.explain import scene, viewer, words
from snakecube.nearby import nearby
from snakecube.search import as_target, solve
from snakecube.shape import Box, Region, wrong_count
from snakecube.snake import Snake
from snakecube.solution import Solution
from snakecube.verify import InvalidSolution

Progress = Callable[[int, int, int], None]
MAX_SOLUTIONS = 200  # solutions sent to the page (the counts are always whole)
NEARBY = 4  # nearby designs shown as links
NEARBY_SECONDS = 1.0  # how long to look for them
NEARBY_CELLS = 216  # the largest target in which nearby designs are looked for
SMALL_IN_BROWSER = 27  # cells up to which a complete count in Pyodide takes well under a second


def target(box: str = "", region: str = "") -> Region | None:
    """The target the page asks for: a region's text, an ``AxBxC`` box, or None (the cube)."""
    if not isinstance(box, str) or not isinstance(region, str):
        raise InputError("the target must be given as text")
    if region.strip():
        return Region.parse(region, where="region")
    if box.strip():
        return Box.parse(box.strip(), where="target")
    return None


def check(snake: str, box: str = "", region: str = "") -> tuple[Snake, Region | None]:
    """The snake and target, parsed and size-checked before any work; InputError if bad.

    A cube count that does not fit the target is left for :func:`solve_answer`, which names
    the nearby designs that fold.
    """
    if not isinstance(snake, str):
        raise InputError("the snake must be given as text")
    if not snake.strip():
        raise InputError("type a snake: segment lengths like 3-3-3-3-2-..., or a catalog name")
    if len(snake) > limits.MAX_TEXT:
        raise InputError(f"the snake is {len(snake)} characters; at most {limits.MAX_TEXT}")
    where = target(box, region)
    try:
        parsed = Snake.parse(snake, None if where is None else where.volume)
    except CubeCountError:
        parsed = Snake.parse(snake)
    limits.cell_count(parsed.cubes, "the snake")
    return parsed, where


def mismatch(
    snake: str, box: str = "", region: str = "", *, nearby: bool = True
) -> dict[str, Any] | None:
    """For a snake whose cube count does not fit the target: the one-line error and the
    nearby designs that fold (a look-up of at most ``NEARBY_SECONDS``; none with
    ``nearby=False``, which is only the quick check); None when it fits. Bad input raises
    InputError as :func:`check` does."""

    parsed, where = check(snake, box, region)
    if where is not None and parsed.cubes == where.volume:
        return None
    try:
        fitted = as_target(None, parsed) if where is None else where
    except CubeCountError as err:  # no target, and not a cube number of cubes
        return {"error": str(err), "nearby": _nearby(parsed, None) if nearby else []}
    if parsed.cubes == fitted.volume:
        return None
    return {"error": wrong_count(parsed.cubes, fitted),
            "nearby": _nearby(parsed, fitted) if nearby else []}  # fmt: skip


def cells(snake: str, box: str = "", region: str = "") -> int:
    """How many cells the search fills: the target's, or the snake's cubes for the cube."""
    parsed, where = check(snake, box, region)
    return parsed.cubes if where is None else where.volume


def solve_answer(
    snake: str,
    box: str = "",
    region: str = "",
    *,
    seconds: float | None = None,
    limit: int | None = None,
    progress: Progress | None = None,
    strategy: str = "auto",
) -> dict[str, Any]:
    """What the page shows after a solve: the CLI's JSON (solutions cut to MAX_SOLUTIONS),
    plus ``nearby`` designs when the snake does not fold, or ``error`` and ``nearby`` when
    its cube count does not fit the target."""

    parsed, where = check(snake, box, region)
    try:
        result = solve(
            snake, where, seconds=seconds, limit=limit, progress=progress, workers=1,
            strategy=strategy,
        )  # fmt: skip
    except CubeCountError as err:
        return {"error": str(err), "nearby": _nearby(parsed, where)}
    data = result.to_dict(solutions=MAX_SOLUTIONS)
    data["solutions_shown"] = len(data["solutions"])
    data["region_text"] = result.region.to_text() if where is not None else ""
    data["box"] = "x".join(map(str, result.region.dims)) if where is None else box
    if result.complete and not result.solutions:
        data["nearby"] = _nearby(result.snake, result.region)
    return data


def _nearby(snake: Snake, where: Region | None) -> list[dict[str, Any]]:

    cells = snake.cubes if where is None else where.volume
    if cells > NEARBY_CELLS:
        return []
    found = nearby(snake, where, NEARBY, seconds=NEARBY_SECONDS)
    return [{**n.to_dict(), "text": "-".join(map(str, n.snake.lengths))} for n in found]


def solution(snake: str, box: str, region: str, cells: list[list[int]]) -> Any:
    """The Solution the page picked, rebuilt from its cells and checked by the verifier."""

    parsed, where = check(snake, box, region)
    full = as_target(where, parsed)
    parsed = Snake.parse(snake, full.volume)
    if not isinstance(cells, list) or len(cells) != full.volume or len(cells) > limits.MAX_CUBES:
        raise InputError(f"a solution has {full.volume} cells, one per cube")
    index = {c: i for i, c in enumerate(full.cells)}
    try:
        path = tuple(index[(int(c[0]), int(c[1]), int(c[2]))] for c in cells)
    except (KeyError, TypeError, ValueError, IndexError):
        raise InputError("the solution's cells are not cells of the target") from None
    found = Solution(parsed, full, path)
    try:
        found.verify()
    except InvalidSolution as err:
        raise InputError(f"not a solution: {err}") from None
    return found


def details(snake: str, box: str, region: str, cells: list[list[int]]) -> dict[str, Any]:
    """What the page draws for one solution: the step viewer's scene (the same steps,
    orientation, colours and cut-aways as ``show --out x.html``) and the words."""

    shown = scene.display(solution(snake, box, region, cells))
    return {"viewer": viewer_scene(shown), "words": words.instructions(shown)}


def viewer_file(snake: str, box: str, region: str, cells: list[list[int]]) -> dict[str, Any]:
    """The offline viewer of one solution (``show --out x.html``), as the file's text: it
    needs no plotting library, so the static site can offer it too."""

    return {"html": viewer.html(solution(snake, box, region, cells))}


def plan_answer(snake: str, box: str, region: str, cells: list[list[int]]) -> dict[str, Any]:
    """The fold plan from a flat snake: each state's cells and the steps in words (asked for
    after :func:`details`, since a plan can take seconds), or ``error`` when none is found."""

    picked = solution(snake, box, region, cells)
    try:
        plan = fold.plan(picked)
    except InputError as err:
        return {"error": str(err)}
    states = plan.states()
    return {
        "states": [[list(c) for c in state] for state in states],
        "words": _per_state(fold.steps_in_words(plan), len(states)),
        "quarter_turns": plan.quarter_turns,
        "held": plan.held,
    }


def _per_state(lines: list[str], count: int) -> list[str]:
    """The plan's words grouped by state: what comes before "Step 1" describes the start,
    each "Step k" line (with the lines under it) the state after move k."""
    out = [""] * count
    k = 0
    for line in lines:
        head = line.split(":", 1)[0]
        if head.startswith("Step ") and head[5:].isdigit() and int(head[5:]) < count:
            k = int(head[5:])
        out[k] = f"{out[k]}\n{line}" if out[k] else line
    return out


def viewer_scene(shown: Any) -> dict[str, Any]:
    """The step viewer's scene for a solution in its display orientation, as the page draws
    it: cells in snake order, each cube's colour, and per step its cubes, pivot,
    words and the placed cubes cut away (edges only) because they hide a new cube from the
    camera."""

    cells = list(shown.cells)
    eye = scene.CAMERA.eye
    where = {c: i for i, c in enumerate(cells)}
    all_steps = scene.steps(shown)
    titles = words.step_words(shown)
    out = []
    for s in all_steps:
        placed = {cells[i] for i in range(s.last + 1)}
        in_way: set[int] = set()
        for i in range(s.first, s.last + 1):  # a new cube with no face to number
            if scene.label_face(cells[i], eye, placed) is None:
                in_way |= {where[c] for c in scene.in_the_way(cells[i], eye, placed)}
        title = titles[s.number - 1] if s.number - 1 < len(titles) else f"Step {s.number}"
        out.append(
            {
                "number": s.number,
                "first": s.first,
                "last": s.last,
                "pivot": s.pivot,
                "title": title.replace(
                    f"Step {s.number}:", f"Step {s.number} of {len(all_steps)}:", 1
                ),
                "cut": sorted(i for i in in_way if i < s.first),
            }
        )
    return {
        "cells": [list(c) for c in cells],
        "dims": list(shown.region.dims),
        "colours": [scene.cube_colour(i) for i in range(len(cells))],
        "new": scene.NEW,
        "pivot": scene.PIVOT,
        "eye": list(eye),
        "steps": out,
    }


def catalog() -> list[dict[str, str]]:
    """The named puzzles, for the page's list."""

    return [{"name": e.name, "box": "x".join(map(str, e.box))} for e in cat.ENTRIES]
