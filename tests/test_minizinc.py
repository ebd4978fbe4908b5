"""The MiniZinc model: Debian's minizinc (Gecode) lists snakecube's placements without
symmetry breaking and its distinct solutions with it."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from snakecube import InputError, Snake
from snakecube.catalog import ENTRIES
from snakecube.minizinc import model
from snakecube.search import solve
from snakecube.shape import Box, Region
from snakecube.verify import violations

MINIZINC = shutil.which("minizinc")
needs_minizinc = pytest.mark.skipif(
    MINIZINC is None, reason="minizinc is not installed (Debian: apt-get install minizinc)"
)


def run_model(text: str, tmp_path) -> list[list[tuple[int, int, int]]]:
    """Every solution minizinc's Gecode prints, as cell lists; checks it finished."""
    path = tmp_path / "model.mzn"
    path.write_text(text)
    done = subprocess.run(
        [MINIZINC, "--solver", "gecode", "--all-solutions", str(path)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    end = done.stdout.rstrip().splitlines()[-1]
    assert end in ("==========", "=====UNSATISFIABLE====="), "the search was not complete"
    out = []
    for line in done.stdout.splitlines():
        if line.startswith("cells = "):
            nums = list(map(int, re.findall(r"-?\d+", line)))
            out.append([tuple(nums[i : i + 3]) for i in range(0, len(nums), 3)])
    return out


def agree(snake: Snake, region: Region, tmp_path, symmetry: str = "none") -> tuple[int, int]:
    found = run_model(model(snake, region, symmetry), tmp_path)
    for cells in found:
        assert not violations(snake.lengths, region.cellset, cells)
    assert len({tuple(c) for c in found}) == len(found)
    r = solve(snake, region)
    return len(found), r.placements if symmetry == "none" else r.distinct


def test_model_text_and_refusals():
    text = model(Snake.parse("standard"), Box(3, 3, 3), "auto")
    assert "value_precede_chain([XP, YP, ZP], dir)" in text
    assert "lex_lesseq" in model(Snake.parse("lengths:2,3,2,2"), Box(2, 3, 1), "auto")
    with pytest.raises(InputError, match="only for an n x n x n cube"):
        model(Snake.parse("lengths:2,3,2,2"), Box(2, 3, 1), "directions")
    with pytest.raises(InputError, match="8 cells"):
        model(Snake.parse("standard"), Box(2, 2, 2))
    with pytest.raises(InputError, match="unknown symmetry"):
        model(Snake.parse("standard"), Box(3, 3, 3), "mirror")


@needs_minizinc
@pytest.mark.parametrize("symmetry", ["none", "auto"])
def test_small_designs(tmp_path, symmetry):
    # every 2x2x2 design, a flat box and a region, quickly
    from bruteforce import box_cells, hamiltonian_paths, lengths_of

    designs = sorted({lengths_of(p) for p in hamiltonian_paths(box_cells(2, 2, 3))})[:3]
    assert len(designs) == 3
    for lengths in designs:
        got, want = agree(Snake(lengths), Box(2, 2, 3), tmp_path, symmetry)
        assert got == want, lengths
    got, want = agree(Snake.parse("lengths:3,3,3,2,2"), Box(3, 3, 1), tmp_path, symmetry)
    assert got == want > 0
    plus = Region.parse(".#.\n###\n.#.\n\n...\n.#.\n...")
    got, want = agree(Snake.parse("lengths:2,3,2,2"), plus, tmp_path, symmetry)
    assert got == want
    got, want = agree(Snake.parse("lengths:3,3,2"), plus, tmp_path, symmetry)
    assert got == want


@needs_minizinc
@pytest.mark.slow
@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.box == (3, 3, 3)], ids=lambda e: e.name)
def test_catalog_cubes(tmp_path, entry):
    snake = Snake.parse(entry.turns)
    if entry.name in ("standard", "seed-red"):  # every placement: 48 times the work, so two
        got, want = agree(snake, Box(3, 3, 3), tmp_path)
        assert got == want
    got, want = agree(snake, Box(3, 3, 3), tmp_path, "directions")
    assert got == want
    if entry.name == "standard":
        assert want == 1  # seeds/000: 48 -> 1


@needs_minizinc
@pytest.mark.slow
def test_a_box_design(tmp_path):
    import random

    from snakecube.designs import design_of, random_path

    region = Box(2, 3, 4)
    path = random_path(region, random.Random(7))
    snake = design_of([region.cells[c] for c in path])
    for symmetry in ("none", "lex"):
        got, want = agree(snake, region, tmp_path, symmetry)
        assert got == want > 0
