"""The search: options from the seeds, limits, regions, and symmetry reduction at the root."""

from __future__ import annotations

from collections import Counter

import pytest

import snakecube as sc
from bruteforce import census_of
from conftest import prepare
from snakecube.search import reference
from snakecube.search.plan import Unit

RED_START = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0)]  # seeds/003's starting path


def test_fixed_corner_start():
    # The standard snake starts in a corner: 48 placements / 8 corners = 6 from each corner.
    r = sc.solve("standard", start=(0, 0, 0))
    assert (r.placements, r.distinct, r.fixed) == (6, 1, True)
    assert all(s.cells[0] == (0, 0, 0) for s in r.solutions)
    assert sc.solve("standard", start=(1, 0, 0)).placements == 0
    assert sc.solve("standard", start=(2, 2, 2)).placements == 6


def test_fixed_path_as_seeds_003_does():
    r = sc.solve("seed-red", path=RED_START)
    assert (r.distinct, r.placements) == (1, 1)  # no symmetry keeps those four cells in place
    assert r.solutions[0].cells[:4] == tuple(RED_START)
    # From its start cell alone: 1 solution and 5 more symmetric ones, as seeds/003 says.
    assert sc.solve("seed-red", start=(0, 0, 0)).placements == 6


def test_fixed_path_is_checked_against_the_snake():
    with pytest.raises(sc.InputError, match="turns at cube 2, which is straight"):
        sc.solve("seed-red", path=[(0, 0, 0), (1, 0, 0), (1, 1, 0)])
    with pytest.raises(sc.InputError, match="goes straight through cube 2, a corner"):
        sc.solve("seed-blue", path=[(0, 0, 0), (1, 0, 0), (2, 0, 0)])
    with pytest.raises(sc.InputError, match="not neighbours"):
        sc.solve("standard", path=[(0, 0, 0), (2, 0, 0)])
    with pytest.raises(sc.InputError, match="cell 2 \\[0, 0, 5\\] is not in the 3x3x3 box"):
        sc.solve("standard", path=[(0, 0, 0), (0, 0, 5)])
    with pytest.raises(sc.InputError, match="visits a cell twice"):
        sc.solve("mean-green", path=[(0, 0, 0), (1, 0, 0), (0, 0, 0)])


def test_every_start_class_from_fixed_starts_adds_up():
    # Solving from one fixed cell per class, weighted by class size, gives the total.
    total = sc.solve("seed-blue")
    box = sc.Box(3, 3, 3)
    placements = 0
    for orbit in box.orbits():
        r = sc.solve("seed-blue", start=box.cells[orbit[0]])
        placements += r.placements * len(orbit)
    assert placements == total.placements == 576
    by_kind = {c.kind: c.distinct for c in total.start_classes}
    assert by_kind == {"corner": 6, "edge": 0, "face": 6, "inside": 0}
    # each class's placements, counted again from the solutions' images under the symmetries
    kind_of = {}
    for orbit in box.orbits():
        (cls,) = [c for c in total.start_classes if box.cells.index(c.cell) in orbit]
        kind_of.update(dict.fromkeys(orbit, cls.kind))
    starts = Counter(kind_of[g[s.path[0]]] for s in total.solutions for g in box.symmetries)
    assert {c.kind: c.placements for c in total.start_classes} == {
        kind: starts.get(kind, 0) for kind in by_kind
    }


def test_reverse_folds_from_the_other_end():
    for name in ("standard", "seed-orange", "seed-blue"):
        fwd, rev = sc.solve(name), sc.solve(name, reverse=True)
        assert (fwd.placements, fwd.distinct) == (rev.placements, rev.distinct)
        assert rev.snake == fwd.snake.reversed()
        # Each reversed solution is a forward one read backwards.
        forward = {s.canonical() for s in fwd.solutions}
        for s in rev.solutions:
            back = sc.Solution(fwd.snake, s.region, s.path[::-1])
            assert back.canonical() in forward


def test_solutions_are_distinct_and_in_a_fixed_order():
    a = [s.path for s in sc.solutions("seed-orange")]
    b = [s.path for s in sc.solutions("seed-orange")]
    assert a == b and len(a) == 10
    assert (
        len({sc.Solution(sc.Snake.parse("seed-orange"), sc.Box(3, 3, 3), p).canonical() for p in a})
        == 10
    )


def test_no_symmetric_copies_are_enumerated():
    # The plan searches one start cell per class and one first direction per orbit:
    # far fewer nodes than searching from every cell.
    problem, _ = prepare("seed-blue")
    reduced = sc.solve("seed-blue").nodes
    everything = placements = 0
    for cell in range(27):  # the unreduced search: every start cell, every direction
        stats = reference.Stats()
        placements += sum(1 for x in reference.search(problem, Unit(cell, (), 0), stats) if x)
        everything += stats.nodes
    assert placements == sc.solve("seed-blue").placements == 576
    assert reduced * 30 < everything


def test_limits():
    r = sc.solve("seed-blue", limit=3)
    assert (len(r.solutions), r.complete, r.stop_reason) == (3, False, "limit")
    first = sc.solve("seed-blue", limit=1)
    assert first.solutions[0].path == r.solutions[0].path
    slow = sc.solve("king", seconds=0.3, engine="reference")
    assert (slow.complete, slow.stop_reason) == (False, "seconds")
    with pytest.raises(sc.InputError, match="at least 1"):
        sc.solve("standard", limit=0)


def test_interrupt_keeps_what_was_found():
    def stop(done, total, found):
        if found >= 2:
            raise KeyboardInterrupt

    r = sc.solve("seed-blue", progress=stop)
    assert r.stop_reason == "interrupted" and not r.complete
    assert len(r.solutions) >= 2
    for s in r.solutions:
        s.verify()


def test_cube_count_must_match():
    with pytest.raises(sc.InputError, match="26 cubes but the 3x3x3 box has 27 cells"):
        sc.solve(sc.Snake((3,) * 12 + (2,)), sc.Box(3, 3, 3))
    with pytest.raises(sc.InputError, match="not a cube number"):
        sc.solve("lengths:3,3")


REGIONS = {
    "plus": ".#.\n###\n.#.",
    "ring-gap": "###\n#.#\n##.",
    "steps": "#..\n##.\n###\n\n#..\n##.\n...",
    "tee-tower": "###\n.#.\n\n.#.\n.#.",
    "hollow-2x3x3": "###\n###\n###\n\n###\n#.#\n###",
}


@pytest.mark.parametrize("name", REGIONS)
def test_regions_against_brute_force(name, engine):
    region = sc.Region.parse(REGIONS[name])
    by_design, maps = census_of(list(region.cells))
    assert len(maps) == len(region.symmetries)
    for lengths, (n_paths, classes) in by_design.items():
        r = sc.solve(sc.Snake(lengths), region, engine=engine)
        assert r.placements == n_paths, lengths
        assert {min(tuple(m[p] for p in s.cells) for m in maps) for s in r.solutions} == classes


def test_plan_units_cover_start_classes():
    _problem, plan = prepare("seed-blue")
    assert plan.multiplier == 48 and not plan.fixed
    assert sorted(c.size for c in plan.start_classes) == [1, 6, 8, 12]
    _, bigger = prepare("seed-blue", min_units=50)
    assert len(bigger.units) >= 50
    r_small = {u.start for u in plan.units}
    assert r_small == {u.start for u in bigger.units}


@pytest.mark.parametrize(
    "snake, box",
    [
        ("lengths:" + ",".join(["2"] * 17), (2, 3, 3)),
        ("king", None),
        ("lengths:2,3,2,2,2,2,2,3,2,2,2,3,2,2", (2, 3, 3)),
    ],
)
def test_a_plan_cut_short_by_its_budget_still_counts_exactly(snake, box, monkeypatch):
    """Past the plan's budget (units, steps or deadline), units keep their stabilizers and
    every class is still counted once: the same solutions, one per class."""
    from snakecube.search import plan as planning

    target = sc.Box(*box) if box else None
    full = sc.solve(snake, target, workers=1)
    want = sorted(s.canonical() for s in full.solutions)
    for units, steps in ((1, 10**9), (10**9, 1), (3, 10**9), (10**9, 5)):
        monkeypatch.setattr(planning, "PLAN_UNITS", units)
        monkeypatch.setattr(planning, "PLAN_STEPS", steps)
        planning._PLANS.clear()
        cut = sc.solve(snake, target, workers=1)
        assert (cut.placements, cut.distinct, cut.complete) == (
            full.placements,
            full.distinct,
            True,
        )
        assert sorted(s.canonical() for s in cut.solutions) == want
        problem, made = prepare(snake, target)
        assert not made.complete or units > 1  # the budget did cut the walk
        assert all(u.fixers or made.keeps(problem, i, ()) for i, u in enumerate(made.units))
    planning._PLANS.clear()


def test_a_deadline_cuts_the_plan_short_and_is_not_cached():
    from snakecube.search import plan as planning

    problem, _ = prepare("lengths:" + ",".join(["2"] * 342), sc.Box(7, 7, 7))
    planning._PLANS.clear()
    late = planning.make_plan(problem, deadline=0.0)  # long past
    full = planning.make_plan(problem)
    assert full is not late  # made again, within the budget
    assert not late.complete and len(late.units) < len(full.units)
    assert planning.make_plan(problem) is full  # and cached


def test_small_jobs_are_the_pools_small_jobs():
    from snakecube.pool import SMALL_JOB_CELLS
    from snakecube.search.strategy import SMALL

    assert SMALL == SMALL_JOB_CELLS


def test_a_budget_checks_its_limits_and_says_when_they_are_spent():
    from snakecube.search import Budget

    with pytest.raises(sc.InputError):
        Budget.checked(solutions=0)
    with pytest.raises(sc.InputError):
        Budget.checked(seconds=float("nan"))
    with pytest.raises(TypeError):
        Budget.checked(progress=3)  # type: ignore[arg-type]
    budget = Budget.checked(solutions=2, nodes=10, seconds=60)
    assert not budget.enough(1) and budget.enough(2)
    assert not budget.out_of_nodes(9) and budget.out_of_nodes(10)
    assert not budget.out_of_time() and Budget(seconds=0.0, began=0.0).out_of_time()
    free = Budget()
    assert not (free.enough(10**9) or free.out_of_nodes(10**18) or free.out_of_time())


def _in_a_fresh_process(code: str, **env: str) -> str:
    import os
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **env},
    )
    return done.stdout.strip()


HEAVY = (
    "numpy",
    "matplotlib",
    "plotly",
    "dask",
    "distributed",
    "multiprocessing",
    "starlette",
    "uvicorn",
)


@pytest.mark.parametrize(
    "words",
    [
        ["solve", "standard"],
        ["solve", "seed-blue", "--first"],
        ["convert", "standard"],
        ["catalog"],
        ["check", "standard", "+x +y -x +z +x -z +x -y -x +z +y -z +x +z -y +x +y"],
    ],
    ids=["solve", "solve-first", "convert", "catalog", "check"],
)
def test_everyday_commands_import_nothing_heavy(words):
    """The commands a person runs most start without the heavy libraries (issue 41)."""
    code = (
        "import contextlib, io, sys\n"
        "from snakecube.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main({words!r})\n"
        f"print(code, [m for m in {HEAVY!r} if m in sys.modules])"
    )
    assert _in_a_fresh_process(code) == "0 []"


def test_one_switch_hides_every_compiled_loop():
    code = (
        "from snakecube import compiled; from snakecube.search import first, kernel; "
        "print([compiled.available(n) for n in sorted(compiled.EXTENSIONS)], "
        "kernel.AVAILABLE, first.restarts.AVAILABLE, first.beam._loops is None)"
    )
    out = _in_a_fresh_process(code, SNAKECUBE_PUREPYTHON="1")
    assert out == "[False, False, False] False False True"


# -- the library for Python callers (issue 53) ------------------------------------------------


def test_library_errors_name_parameters_not_options():
    """A Python caller reads what to pass; the command line says its own options instead."""
    from snakecube.cli.base import cli_words

    cases = [
        (lambda: sc.solve("lengths:3,3,3"), "give a target (target='AxBxC' or a Region)"),
        (lambda: sc.solve("standard", strategy="beam"), "strategy='beam' looks for one"),
        (lambda: sc.Box.parse("4x4"), "box: '4x4' is not AxBxC"),
    ]
    for call, said in cases:
        with pytest.raises(sc.InputError) as err:
            call()
        assert said in str(err.value) and "--" not in str(err.value)
    assert "give --box AxBxC or --region FILE" in cli_words(cases[0][1])
    assert cli_words("strategy='beam' looks for one solution (limit=1)") == (
        "--strategy beam looks for one solution (--first)"
    )


def test_reprs_are_a_line_and_the_detail_is_in_str():
    r = sc.solve("seed-blue")
    assert repr(r) == (
        "<Result ECCCCSCSCCCCCCCCCCCSCSCCCCE in 3x3x3 box: 12 distinct, 576 placements, complete>"
    )
    assert "placements 576" in str(r) and str(r) == r.summary()
    assert "directions 1:+x" in str(r.solutions[0])
    king = sc.solve("king", limit=1)
    assert len(repr(king)) < 160 and "\n" not in repr(king)
    assert "incomplete: stopped at the solution limit" in repr(king)
    assert len(repr(king.solutions[0])) < 120 and "from [0, 0, 0]" in repr(king.solutions[0])
    long = sc.solve("lengths:" + ",".join(["2"] * 99), sc.Box(2, 50, 1), limit=1)
    assert len(repr(long)) < 160  # the turn string is cut in the middle


def test_verify_returns_true_or_raises():
    sol = sc.solve("standard").solutions[0]
    assert sol.verify() is True
    broken = sc.Solution(sol.snake, sol.region, sol.path[::-1][:1] + sol.path[1:])
    with pytest.raises(sc.InvalidSolution):
        broken.verify()
