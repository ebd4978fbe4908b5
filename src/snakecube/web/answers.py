"""The page's answers as JSON-ready dicts, computed with the standard library only.

This module is what both ways of shipping the page run: the server calls it in its worker
processes, and the static site calls it in Pyodide, so it (and what it imports on the solving
path) must not import numpy, plotly, matplotlib or multiprocessing. Every search runs in one
process (``workers=1``); the server's parallelism is its pool of searches.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from snakecube import limits
from snakecube.errors import CubeCountError, InputError

__all__ = [
    "InputError",
    "catalog",
    "cells",
    "details",
    "plan_answer",
    "read_input",
    "solve_answer",
    "wrong_answer",
]
from snakecube import catalog as cat
from snakecube import fold
from snakecube.explain import prose, scene, viewer
from snakecube.explain.drawing import FACE_SHADE
from snakecube.fold import choice
from snakecube.fold import words as fold_words
from snakecube.nearby import catalog_typos, nearby, written_as_typed
from snakecube.search import solve
from snakecube.search.inputs import as_target
from snakecube.shape import Region, is_drawing, parse_target, wrong_count
from snakecube.snake import Snake
from snakecube.solution import Solution
from snakecube.verify import InvalidSolution

Progress = Callable[[int, int, int], None]
MAX_SOLUTIONS = 200  # solutions sent to the page (the counts are always whole)
NEARBY = 4  # nearby designs shown as links
# How much to look for them: catalog designs one typo away first (known to fold), then a
# node budget on the reference engine, so that the server and the static site (Pyodide)
# suggest the same designs, in about a second in the browser.
NEARBY_NODES = 150_000
NEARBY_CELLS = 216  # the largest target in which nearby designs are looked for
SMALL_IN_BROWSER = 27  # cells up to which a complete count in Pyodide takes well under a second
# ... and on the server's native kernel (the king's 64: 0.2 s). Past these, a solve asked with
# ``first_if_big`` looks for one solution (the first-solution portfolio) and the page asks for
# the count after it has drawn that one: a floppy 5x5x5 design's count finds no solution in a
# minute where its first solution takes under a second.
SMALL_ON_SERVER = 64


# The library's parameters in a message, and what the page calls them instead.
PAGE_WORDS = (
    (
        "give a target (target='AxBxC' or a Region)",
        "type a box under Target (like 2x3x4) or give a region",
    ),
    ("the target (target=)", "a box under Target"),
    ("(target=)", "(under Target)"),
)
F = TypeVar("F", bound=Callable[..., Any])


def page_words(text: str) -> str:
    """A message in the page's words: its fields, not the library's parameters.

    >>> page_words("9 cubes; give a target (target='AxBxC' or a Region)")
    '9 cubes; type a box under Target (like 2x3x4) or give a region'
    """
    for cli, page in PAGE_WORDS:
        text = text.replace(cli, page)
    return text


def in_page_words(function: F) -> F:
    """``function`` with the InputError it raises said in the page's words."""

    @functools.wraps(function)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except InputError as err:
            raise type(err)(page_words(str(err))) from None

    return wrapped  # type: ignore[return-value]


def target(text: str = "") -> Region | None:
    """The target the page asks for, in its one field: an ``AxBxC`` box, a named kind
    (``cyl:2x3``), a drawn region's text, or nothing (None: the cube), read by
    ``shape.parse_target`` as every face reads a target."""
    if not isinstance(text, str):
        raise InputError("the target must be given as text")
    if not text.strip():
        return None
    return parse_target(text, where="region" if is_drawing(text) else "target")  # the page's words


@in_page_words
def read_input(snake: str, target_text: str = "") -> tuple[Snake, Region | None]:
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
    where = target(target_text)
    try:
        parsed = Snake.parse(snake, None if where is None else where.volume)
    except CubeCountError:
        parsed = Snake.parse(snake)
    limits.cell_count(parsed.cubes, "the snake")
    return parsed, where


@in_page_words
def mismatch(snake: str, target_text: str = "", *, nearby: bool = True) -> dict[str, Any] | None:
    """For a snake whose cube count does not fit the target: the one-line error and the
    nearby designs that fold (a look-up of at most ``NEARBY_NODES``; none with
    ``nearby=False``, which is only the quick check); None when it fits. Bad input raises
    InputError as :func:`read_input` does."""

    parsed, where = read_input(snake, target_text)
    if where is not None and parsed.cubes == where.volume:
        return None
    try:
        fitted = as_target(None, parsed) if where is None else where
    except CubeCountError:  # no target, and not a cube number of cubes
        return {
            "error": not_a_cube(parsed.cubes),
            "nearby": _nearby(parsed, None) if nearby else [],
        }
    if parsed.cubes == fitted.volume:
        return None
    return {
        "error": wrong_count(parsed.cubes, fitted),
        "nearby": _nearby(parsed, fitted) if nearby else [],
    }


def not_a_cube(cubes: int) -> str:
    """The page's words for a snake with no target whose cube count is not a cube number."""
    return (
        f"the snake has {cubes} cubes, which is not a cube number (8, 27, 64, 125, ...): "
        "a cube needs one of those; for another shape, type its size under Target (like "
        "3x3x7) or give a region"
    )


@in_page_words
def cells(snake: str, target_text: str = "") -> int:
    """How many cells the search fills: the target's, or the snake's cubes for the cube; 0
    when the snake's cube count does not fit (no search runs: :func:`solve_answer` says why,
    with the nearby designs)."""
    parsed, where = read_input(snake, target_text)
    size = parsed.cubes if where is None else where.volume
    if size != parsed.cubes or (where is None and round(size ** (1 / 3)) ** 3 != size):
        return 0
    return size


@in_page_words
def solve_answer(
    snake: str,
    target_text: str = "",
    *,
    seconds: float | None = None,
    limit: int | None = None,
    progress: Progress | None = None,
    strategy: str = "auto",
) -> dict[str, Any]:
    """What the page shows after a solve: the CLI's JSON (solutions cut to MAX_SOLUTIONS),
    plus ``nearby`` designs when the snake does not fold, or ``error`` and ``nearby`` when
    its cube count does not fit the target."""

    parsed, where = read_input(snake, target_text)
    try:
        result = solve(
            snake,
            where,
            seconds=seconds,
            limit=limit,
            progress=progress,
            workers=1,
            strategy=strategy,
        )
    except CubeCountError as err:
        wrong = mismatch(snake, target_text)
        return wrong or {"error": str(err), "nearby": _nearby(parsed, where)}
    data = result.to_dict(solutions=MAX_SOLUTIONS)
    data["catalog_typo"] = _catalog_typo(result.snake, result.region)
    said = (reading_said(parsed), named(result.snake, data["catalog_typo"] is not None))
    data["named"] = " ".join(x for x in said if x)
    data["solutions_shown"] = len(data["solutions"])
    data["fold"] = default_fold(result.solutions)
    if result.complete and not result.solutions:
        data["nearby"] = _nearby(result.snake, result.region)
    return data


def default_fold(solutions: Any) -> dict[str, Any] | None:
    """Which solution the page shows and plans when none is asked for: the one ``snakecube
    fold`` and the sheets take (``fold.choice.default_of``, the same rule on the same first
    solutions), and the fewest quarter turns each of those needs, for the solution menu."""
    if not solutions:
        return None
    k, bounds = choice.default_of(solutions)
    return {"default": k, "fewest_turns": bounds, "rule": fold.EASIEST_RULE}


def picked_note(snake: str, target_text: str, picked: Solution) -> str:
    """'' when ``picked`` is the default solution (or that is not known quickly); else the
    words a sheet made from the page says it with."""
    where = target(target_text)
    index, default = choice.default_for(snake, where, picked)
    if default is None or index == default:
        return ""
    which = "a solution past the first ones" if index is None else f"solution {index + 1}"
    return (
        f"{which}, picked on the page; the default, which snakecube fold plans, is solution "
        f"{default + 1}"
    )


REREAD = ("runs", "steps")  # readings whose numbers are not the segments' own lengths


def reading_said(snake: Snake) -> str:
    """How the numbers typed were read, where they are not segment lengths as such (runs
    with each corner counted once, or steps), as ``solve`` says it: "Read as runs with each
    corner counted once (...): 3, then 2, 2, 2, 1, ...."; else ''."""
    if snake.notation not in REREAD or not snake.reading:
        return ""
    text = snake.reading[0].upper() + snake.reading[1:]
    return text if text.endswith(".") else text + "."


def named(snake: Snake, typo: bool = False) -> str:
    """Which puzzle the snake is, as the command line says it, however it was typed: "This
    is the catalog's standard, also called cubra-blue." or "This is seed-green: the
    catalog's standard, read from its other end."; else that it is not in the catalog, and
    that nothing depends on it ('' when it is one typo from a catalog puzzle: that is said)."""
    found = cat.recognize(snake.turns())
    if found is not None:
        return f"This is {cat.called(*found)}."
    if typo:
        return ""
    return (
        "Not a puzzle of snakecube's catalog (docs/conventions.md lists them): the count and "
        "the fold plan do not depend on it."
    )


def _catalog_typo(snake: Snake, region: Region) -> dict[str, Any] | None:
    """For a snake one typo away from a catalog puzzle (and none itself): its name, the edit
    and the words, as ``solve`` prints them ("one typo from the catalog's king: ...")."""
    if cat.recognize(snake.turns()) is not None:
        return None
    typos = catalog_typos(snake, region)
    if not typos:
        return None
    t = typos[0]
    return {
        "name": t.name,
        "edit": t.edit,
        "text": "-".join(map(str, t.snake.lengths)),
        "words": t.said(),
    }


def _nearby(snake: Snake, where: Region | None) -> list[dict[str, Any]]:
    """The designs one typo away that fold, the same wherever the page runs: the catalog's
    first (most likely typo first; named), then those the reference engine finds within
    NEARBY_NODES (in targets of up to NEARBY_CELLS cells)."""

    out: list[dict[str, Any]] = [
        {
            "segment_lengths": list(t.snake.lengths),
            "edit": t.edit,
            "distinct": None,
            "complete": False,
            "text": written_as_typed(t.snake, snake) or "-".join(map(str, t.snake.lengths)),
            "name": t.name,
        }
        for t in catalog_typos(snake, where)[:NEARBY]
    ]
    if len(out) == NEARBY or (snake.cubes if where is None else where.volume) > NEARBY_CELLS:
        return out
    named = {tuple(n["segment_lengths"]) for n in out}
    found = nearby(
        snake, where, NEARBY + len(out), nodes=NEARBY_NODES, engine="reference", known=False
    )
    for n in found:
        if n.snake.lengths not in named and len(out) < NEARBY:
            text = written_as_typed(n.snake, snake) or "-".join(map(str, n.snake.lengths))
            out.append({**n.to_dict(), "text": text})
    return out


@in_page_words
def solution(snake: str, target_text: str, cells: list[list[int]]) -> Any:
    """The Solution the page picked, rebuilt from its cells and checked by the verifier."""

    parsed, where = read_input(snake, target_text)
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


@in_page_words
def details(snake: str, target_text: str, cells: list[list[int]]) -> dict[str, Any]:
    """What the page draws for one solution: the step viewer's scene (the same steps,
    orientation, colours and cut-aways as ``show --out x.html``) and the words."""

    shown = scene.display(solution(snake, target_text, cells))
    said = {
        "start": prose.start_words(shown),
        "steps": [{"words": w, "check": c} for w, c in prose.table_steps(shown)],
    }
    return {"viewer": viewer_scene(shown), "words": said}


@in_page_words
def viewer_file(snake: str, target_text: str, cells: list[list[int]]) -> dict[str, Any]:
    """The offline viewer of one solution (``show --out x.html``), as the file's text: it
    needs no plotting library, so the static site can offer it too."""

    return {"html": viewer.html(solution(snake, target_text, cells))}


@in_page_words
def plan_answer(snake: str, target_text: str, cells: list[list[int]]) -> dict[str, Any]:
    """The fold plan from a flat snake (asked for after :func:`details`, since a plan can take
    seconds), or ``error`` when none is found: the state before each step and after the last
    (``states``: a half turn is one step), and the pictures as the sheet draws them: the start
    from above (``start``, with its words part by part) and each step (``turns``) before and
    after, framed on its joint, each with the whole snake small (``overview``), its words
    part by part (``words``: title, find, hands, check, if_not, ...; ``fold.words``), and what
    the page needs to play the turn (the cubes held and turning, the turning line, the sign
    and how many quarter turns). The plan is ``fold.plan``'s for this solution: the one
    ``snakecube fold`` makes for it."""

    picked = solution(snake, target_text, cells)
    try:
        plan = fold.plan(picked)
    except InputError as err:
        return {"error": str(err)}
    if not plan.found:
        return {"error": f"no fold plan: {plan.reason}"}
    g = fold.guide(plan)
    states = [list(s.before) for s in g.steps]
    states.append(list(plan.frames[-1]))  # as drawn: the held end still
    panels = scene.fold_panels(plan)
    turns = []
    for p, step in zip(panels[1:], g.steps, strict=True):
        assert p.spin is not None and p.words is not None  # every step of a plan is a turn
        origin, direction, sign = p.spin
        counted = fold_words.step_words(g, step.number, of=len(g.steps))
        turns.append(
            {
                "words": {k: getattr(counted, k) for k in STEP_PARTS},
                "wrong_title": fold_words.wrong_title(step.number),
                "text": counted.text(),
                "notes": list(p.notes),
                "checks": [c.to_dict() for c in step.checks],
                "hold": p.hold,
                "turn": p.step.pivot,
                "moving": list(p.moving),
                "origin": list(origin),
                "direction": list(direction),
                "sign": sign,
                "quarters": p.quarters,
                "before": picture(p, p.views[0]),
                "after": picture(p, p.views[1]),
                "overview": [picture(p, v) for v in p.overviews],
            }
        )
    said = fold_words.start_parts(g, "this picture")
    return {
        "states": [[list(c) for c in state] for state in states],
        "start": {
            **picture(panels[0], panels[0].views[0]),
            "intro": said.intro,
            "lead": fold_words.start_lead(g),
            "runs": list(said.runs),
            "rest": list(said.rest),
        },
        "turns": turns,
        "key": fold_words.PLAN_KEY,
        "order": fold.order_words(g),
        "done": fold_words.done_words(g),
        "quarter_turns": plan.quarter_turns,
        "fewest_turns": plan.fewest,
        "hand_distance": plan.hand_distance,
        "span": plan.span,
        "held": plan.held,
    }


@in_page_words
def wrong_answer(snake: str, target_text: str, cells: list[list[int]], step: int) -> dict[str, Any]:
    """The fold plan's "Something doesn't match?" at ``step``: every question (its words and
    its picture: the snake when the answer is yes) and where each answer leads, then the
    verdicts' words (``fold.dialog``, as ``snakecube fold --went-wrong`` asks it)."""

    picked = solution(snake, target_text, cells)
    plan = fold.plan(picked)
    if not plan.found:
        return {"error": f"no fold plan: {plan.reason}"}
    g = fold.guide(plan)
    if not isinstance(step, int) or not 1 <= step <= len(g.steps):
        raise InputError(f"step {step}: the plan has steps 1 to {len(g.steps)}")
    tree = fold.dialog(g, step)

    def node(n: Any) -> dict[str, Any]:
        if isinstance(n, fold.Verdict):
            v = n.to_dict()["verdict"]
            go = fold_words.go_words(n, len(g.steps))
            return {"verdict": {**v, "words": fold_words.undo_words(n), "go": go}}
        words = fold_words.question_words(n.check)
        panel = scene.question_panel(plan, n.check, n.example, words)
        shown = picture(panel, panel.views[0])
        if panel.arrow is not None:  # the way the run asked about points
            shown["arc"] = [[round(v, 4) for v in q] for q in panel.arrow]
        return {
            "ask": n.check.to_dict(),
            "words": words,
            "picture": shown,
            "yes": node(n.yes),
            "no": node(n.no),
        }

    return {
        "step": step,
        "title": fold_words.wrong_title(step),
        "intro": fold_words.WRONG_INTRO,
        "dialog": node(tree),
        "key": fold_words.QUESTION_KEY,
    }


STEP_PARTS = (
    "title",
    "lift",
    "find",
    "hands",
    "check",
    "if_not",
    "careful",
    "jump",
    "close",
    "brackets",
)


def picture(panel: Any, view: Any, cells: Any = None) -> dict[str, Any]:
    """One view of a panel as the page draws it: the camera (eye and name), the page
    rectangle it frames (or None: fit the cubes), the cubes ``[cube, x, y, z, colour, cut,
    mark, seam, pattern]`` (cut: 1 edges only, 2 see-through; seam: a side of the joint;
    pattern: "hatch" or ""), the numbers ``[cube, x, y, z, bold]`` each on a face of its own
    cube that the camera sees, the arrow's path and the joint (axis, where), and ``inset``:
    the close-up's rectangle outlined on an overview (or None)."""
    where = view.cells or panel.cells or cells
    step = panel.step
    colours = panel.colours or {}
    patterns = panel.patterns or {}
    marks = panel.marks if panel.marks is not None else {step.pivot: scene.PIVOT}
    seamed = {panel.hold, step.pivot} if panel.hold >= 0 else set()
    bold = seamed or set(range(step.first, step.last + 1))
    cubes = [
        [
            i,
            *where[i],
            colours.get(i) or _colour(i, step),
            0,
            marks.get(i, ""),
            int(i in seamed),
            patterns.get(i, ""),
        ]
        for i in view.solid
    ]
    cubes += [[i, *where[i], "#999999", 1, "", 0, ""] for i in view.cutaway]
    cubes += [
        [i, *where[i], colours.get(i) or _colour(i, step), 2, "", 0, patterns.get(i, "")]
        for i in view.ghost
    ]
    return {
        "eye": [round(v, 6) for v in view.camera.eye],
        "camera": view.camera.name,
        "caption": view.caption,
        "window": None if view.window is None else [round(v, 4) for v in view.window],
        "cubes": cubes,
        "labels": [[i, *(round(v, 4) for v in q), int(i in bold)] for i, q in view.labels.items()],
        "arc": None if view.arc is None else [[round(v, 4) for v in q] for q in view.arc],
        "pointers": [
            [[round(v, 4) for v in tail], [round(v, 4) for v in tip], words, align]
            for tail, tip, words, align in view.pointers
        ],
        "seam": None if view.seam is None else list(view.seam),
        "inset": None if view.inset is None else [round(v, 4) for v in view.inset],
    }


def _colour(i: int, step: Any) -> str:
    return scene.NEW if i >= step.first else scene.cube_colour(i)


def viewer_scene(shown: Any) -> dict[str, Any]:
    """The step viewer's scene for a solution in its display orientation, as the page draws
    it: cells in snake order, each cube's colour, and per step its cubes, pivot, words, the
    placed cubes cut away (edges only) because they hide a key cube (a new one, or the cube
    it turns at) from the camera, and the numbers: the key cubes and cube 1, each on a face
    of its own cube the camera sees."""

    cells = list(shown.cells)
    all_steps = scene.steps(shown)
    titles = prose.step_words(shown, counted=True)
    titles[0] += f". {fold.which_end(shown.snake)}"  # on the first picture too
    out = []
    for s in all_steps:
        placed = range(s.last + 1)
        key = scene.key_cubes(s)
        plain = scene.make_view(scene.CAMERA, cells, placed, key)
        hidden = [i for i in key if i not in plain.labels]
        view = scene.make_view(scene.CAMERA, cells, placed, key, cut_for=hidden)
        one = scene.make_view(scene.CAMERA, cells, view.solid, [0])  # cube 1, where it shows
        labels = {**one.labels, **view.labels}
        out.append(
            {
                "number": s.number,
                "first": s.first,
                "last": s.last,
                "pivot": s.pivot,
                "title": titles[s.number - 1],
                "cut": list(view.cutaway),
                "labels": [[i, *(round(v, 4) for v in q)] for i, q in labels.items()],
            }
        )
    return {
        "cells": [list(c) for c in cells],
        "dims": list(shown.region.dims),
        "colours": [scene.cube_colour(i) for i in range(len(cells))],
        "new": scene.NEW,
        "pivot": scene.PIVOT,
        "eye": list(scene.CAMERA.eye),
        "shade": list(FACE_SHADE),
        "steps": out,
    }


def catalog() -> list[dict[str, str]]:
    """The named puzzles, for the page's list."""

    return [{"name": e.name, "box": "x".join(map(str, e.box))} for e in cat.ENTRIES]
