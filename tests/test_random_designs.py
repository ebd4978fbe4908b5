"""Random designs: a snake made from a random Hamiltonian path always folds back into that
path's class, and every solution found passes the verifier."""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import snakecube as sc
from conftest import ENGINES
from snakecube.designs import design_of, random_path, serpentine

boxes = st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4)).filter(
    lambda d: 4 <= d[0] * d[1] * d[2] <= 27
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dims=boxes, seed=st.integers(0, 2**32 - 1), engine=st.sampled_from(ENGINES))
def test_own_path_is_among_the_answers(dims, seed, engine):
    box = sc.Box(*dims)
    path = random_path(box, random.Random(seed))
    coords = [box.cells[c] for c in path]
    snake = design_of(coords)
    result = sc.solve(snake, box, engine=engine)
    assert result.complete and result.distinct >= 1
    own = sc.Solution(snake, box, tuple(path))
    own.verify()
    assert own.canonical() in {s.canonical() for s in result.solutions}
    # every placement is one symmetry's image of one representative, each image once
    images = {tuple(g[c] for c in s.path) for s in result.solutions for g in box.symmetries}
    assert len(images) == result.placements
    for s in result.solutions:
        s.verify()


@settings(max_examples=30, deadline=None)
@given(dims=boxes, seed=st.integers(0, 2**32 - 1))
def test_random_paths_are_hamiltonian(dims, seed):
    box = sc.Box(*dims)
    path = random_path(box, random.Random(seed), moves=200)
    assert sorted(path) == list(range(box.volume))
    for a, b in itertools.pairwise(path):
        assert b in box.neighbours[a]


def test_serpentine_is_a_path():
    box = sc.Box(3, 4, 5)
    path = serpentine(box)
    assert sorted(path) == list(range(60))
    assert all(b in box.neighbours[a] for a, b in itertools.pairwise(path))
