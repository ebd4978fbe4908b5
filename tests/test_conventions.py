"""Counting conventions: placements, up to rotations, up to rotations and reflections, and
with reversal, checked against brute force from plain coordinates on small boxes."""

from __future__ import annotations

import itertools
from collections import defaultdict

import pytest

from bruteforce import box_cells, hamiltonian_paths, lengths_of
from corpus import load_known
from snakecube import Snake, catalog
from snakecube.search import solve
from snakecube.shape import Box

KING_B = "3,4,4,4,2,4,2,4,2,2,2,2,2,2,2,2,2,3,2,4,3,3,2,4,2,3,2,2,2,2,2,3,2,2,2,2,4,2,4"


def _det(perm: tuple[int, ...], sign: tuple[int, ...]) -> int:
    inversions = sum(1 for i, j in itertools.combinations(range(3), 2) if perm[i] > perm[j])
    return (-1) ** inversions * sign[0] * sign[1] * sign[2]


def _maps(cells, rotations_only: bool):
    """Coordinate maps sending the cells onto themselves (each distinct map once)."""
    cellset, maps = set(cells), []
    for perm in itertools.permutations(range(3)):
        for sign in itertools.product((1, -1), repeat=3):
            if rotations_only and _det(perm, sign) != 1:
                continue
            image = {p: tuple(sign[i] * p[perm[i]] for i in range(3)) for p in cells}
            lo = [min(q[i] for q in image.values()) for i in range(3)]
            m = {p: tuple(q[i] - lo[i] for i in range(3)) for p, q in image.items()}
            if set(m.values()) == cellset and m not in maps:
                maps.append(m)
    return maps


def _brute(dims):
    """design -> (placements, up to rotations, up to rotations and reflections, up to
    rotations and reversal, up to everything), by orbits of every path."""
    cells = box_cells(*dims)
    rot, full = _maps(cells, True), _maps(cells, False)
    paths = defaultdict(list)
    for p in hamiltonian_paths(cells):
        paths[lengths_of(p)].append(p)

    def classes(ps, maps, reversal):
        forms = set()
        for p in ps:
            both = [p, p[::-1]] if reversal else [p]
            forms.add(min(tuple(m[c] for c in q) for m in maps for q in both))
        return len(forms)

    out = {}
    for lengths, ps in paths.items():
        pal = lengths == lengths[::-1]
        out[lengths] = (
            len(ps),
            classes(ps, rot, False),
            classes(ps, full, False),
            classes(ps, rot, pal),
            classes(ps, full, pal),
        )
    return out


@pytest.mark.parametrize("dims", [(2, 2, 2), (1, 3, 3), (2, 2, 3), (1, 4, 4), (1, 2, 6)])
def test_every_convention_matches_brute_force(dims):
    brute = _brute(dims)
    assert brute  # these boxes have paths
    saw_split = False
    for lengths, expected in brute.items():
        r = solve(Snake(lengths), Box(*dims))
        got = (
            r.placements,
            r.distinct_up_to_rotations,
            r.distinct,
            r.distinct_up_to_rotations_and_reversal,
            r.distinct_up_to_reversal,
        )
        assert got == expected, (dims, lengths)
        saw_split |= expected[1] != expected[2]
    flat = 1 in dims
    assert saw_split != flat  # a flat box can be turned over: mirror images are rotations


def test_symmetric_palindromes_are_counted_exactly():
    # 2x2x3 has palindromic designs whose folds are their own reverse under a rotation:
    # dividing by 2 would give a fraction or a wrong count.
    brute = _brute((2, 2, 3))
    odd = [k for k, v in brute.items() if k == k[::-1] and v[1] != 2 * v[3]]
    assert odd
    for lengths in odd:
        r = solve(Snake(lengths), Box(2, 2, 3))
        assert r.distinct_up_to_rotations_and_reversal == brute[lengths][3]


def test_king_b_and_the_catalog():
    r = solve(KING_B)
    assert (r.placements, r.distinct_up_to_rotations, r.distinct) == (192, 8, 4)
    # the catalog's king-b is the 39-segment King Snake of tests/data/known.json's facts
    king_b = solve("king-b")
    assert king_b.snake == Snake.parse(KING_B) and king_b.snake.segments == 39
    assert (king_b.placements, king_b.distinct_up_to_rotations, king_b.distinct) == (192, 8, 4)
    fact = next(f["value"] for f in load_known()["facts"] if "'King Snake'" in f["fact"])
    assert "39-segment one (lengths 3,4,4,4,2,4," in fact and KING_B.startswith("3,4,4,4,2,4,")
    assert catalog.find("king-b").box == (4, 4, 4) and catalog.same_design() == {}
    for p in load_known()["puzzles"]:
        if p["box"] != [3, 3, 3]:
            continue
        r = solve(p["turns"])
        assert r.placements == p["placements"] and r.distinct == p["distinct"]
        assert r.distinct_up_to_rotations == 2 * p["distinct"]  # no 3x3x3 fold is achiral


def test_fixed_start_counts_use_the_stabilizer():
    # From a fixed corner, the stabilizer has 6 elements (3 rotations): each class splits in 2.
    r = solve("standard", start=(0, 0, 0))
    assert r.placements == 6 * r.distinct
    assert r.distinct_up_to_rotations == 2 * r.distinct
    # A start on the middle of a 3x3x1 face's edge: stabilizer {id, a flip}, a rotation.
    r = solve("lengths:3,3,3,2,2", "3x3x1", start=(1, 0, 0))
    assert r.distinct_up_to_rotations == r.distinct


def test_json_keeps_old_fields_and_adds_new():
    d = solve("seed-blue").to_dict()
    for key in ("placements", "distinct", "distinct_up_to_reversal", "symmetries"):
        assert key in d
    assert (d["distinct_up_to_rotations"], d["distinct_up_to_rotations_and_reversal"]) == (24, 12)
    assert d["rotations"] == 24
