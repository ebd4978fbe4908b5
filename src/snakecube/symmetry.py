"""Rotations and reflections of a target, as cell permutations with their geometry, and the
exact counting of solutions under each convention.

Vocabulary:

* **Transform**: a signed permutation of the axes, ``(axes, signs)``: the image of a point
  ``p`` has coordinate ``a`` equal to ``signs[a] * p[axes[a]]`` (then moved back into the
  target's corner). Its determinant is +1 for a **rotation** (a person can turn the cube so),
  -1 for a **reflection** (a mirror image: no one can turn a folded cube into it).
* A target's symmetry group G (``Region.symmetries``) is the set of cell permutations its
  transforms induce. Its **rotation subgroup** R is the set induced by rotations. For a flat
  target a reflection and a rotation (turning it over) induce the same permutation, so
  there R = G.

Counting. A directed placement fills every cell, so only the identity fixes it, and every
orbit of G (or of a subgroup) has as many placements as the group has elements. Each class
up to G therefore splits into exactly [G : R] classes up to rotations. Reading the snake from
its other end (reversal) can fix a class (a palindrome folded symmetrically), so classes up
to reversal are counted one by one from their canonical forms, never by dividing.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter

from snakecube.shape import CellIndex, Coord, Permutation, Region, signed_axis_images


@dataclass(frozen=True, slots=True)
class Transform:
    """A rotation or reflection: coordinate a of the image is ``signs[a] * p[axes[a]]``."""

    axes: tuple[int, int, int]
    signs: tuple[int, int, int]

    @property
    def determinant(self) -> int:
        """+1 for a rotation, -1 for a reflection."""
        inversions = sum(
            1 for i, j in itertools.combinations(range(3), 2) if self.axes[i] > self.axes[j]
        )
        return (-1 if inversions % 2 else 1) * self.signs[0] * self.signs[1] * self.signs[2]

    @property
    def is_rotation(self) -> bool:
        """True when a person can turn the cube so (determinant +1)."""
        return self.determinant == 1

    def describe(self) -> str:
        """In words: 'the identity', 'a rotation by 90 degrees about the z axis', 'a
        reflection in the plane x = constant', with the map of the axes."""
        names = "xyz"
        mapping = ", ".join(
            f"{names[self.axes[a]]} -> {'-' if self.signs[a] < 0 else '+'}{names[a]}"
            for a in range(3)
        )
        matrix = [[0] * 3 for _ in range(3)]
        for a in range(3):
            matrix[a][self.axes[a]] = self.signs[a]
        trace = sum(matrix[a][a] for a in range(3))
        if self.axes == (0, 1, 2) and self.signs == (1, 1, 1):
            return "the identity"
        if self.is_rotation:
            angle = {-1: 180, 0: 120, 1: 90}[trace]
            axis = _fixed_axis(matrix)
            return f"a rotation by {angle} degrees about {axis} ({mapping})"
        fixed = _fixed_axis([[-v for v in row] for row in matrix])  # -M is a rotation
        if trace == 1:  # a mirror: -M is a half turn about the mirror's normal
            return f"a reflection in the plane through the centre normal to {fixed} ({mapping})"
        if trace == -3:
            return f"the point reflection through the centre ({mapping})"
        return f"a rotary reflection about {fixed} ({mapping})"


def _fixed_axis(m: list[list[int]]) -> str:
    """The axis a rotation matrix (entries 0, +-1) keeps, in words."""
    for v in itertools.product((-1, 0, 1), repeat=3):
        if any(v) and all(sum(m[a][b] * v[b] for b in range(3)) == v[a] for a in range(3)):
            if sum(map(abs, v)) == 1:
                return f"the {'xyz'[[abs(c) for c in v].index(1)]} axis"
            text = ", ".join(str(c) for c in v)
            return f"the diagonal ({text})"
    return "an axis"  # pragma: no cover - every rotation has one


@lru_cache(maxsize=32)
def _elements(cells: tuple[Coord, ...]) -> tuple[tuple[Permutation, Transform], ...]:
    out: dict[Permutation, Transform] = {}
    for perm, axes, signs in signed_axis_images(cells):
        t = Transform(axes, signs)  # type: ignore[arg-type]
        if perm not in out or (t.is_rotation and not out[perm].is_rotation):
            out[perm] = t  # a permutation a rotation induces is named by the rotation
    return tuple(out.items())


def elements(region: Region) -> tuple[tuple[Permutation, Transform], ...]:
    """Each symmetry of the region (a cell permutation) with a transform inducing it; a
    rotation is given wherever one induces it. Identity first."""
    return _elements(region.cells)


def rotations(region: Region) -> frozenset[Permutation]:
    """The rotation subgroup: cell permutations induced by rotations (det +1)."""
    return frozenset(p for p, t in elements(region) if t.is_rotation)


def transform_of(region: Region, perm: Permutation) -> Transform:
    """The transform (a rotation where one exists) inducing a symmetry of the region."""
    return dict(elements(region))[perm]


def group_used(region: Region, first: Sequence[CellIndex], multiplier: int) -> list[Permutation]:
    """The group the search reduced by: all symmetries, or with a fixed start or path, those
    fixing it. It is the stabilizer of some prefix of any found placement ``first`` with
    ``multiplier`` elements (stabilizers of longer prefixes are subgroups, so the one of the
    right size is the one)."""
    group = list(region.symmetries)
    if multiplier == len(group):
        return group
    for k in range(1, len(first) + 1):
        stab = [g for g in group if all(g[c] == c for c in first[:k])]
        if len(stab) == multiplier:
            return stab
    return [group[0]]


@dataclass(frozen=True, slots=True)
class Counts:
    """Classes of placements under the two conventions that only rotate."""

    up_to_rotations: int
    up_to_rotations_and_reversal: int


class RotationClasses:
    """The classes up to rotations, and up to rotations and reversal, of the placements whose
    classes up to the search's group (``multiplier`` elements) are represented by the paths
    given to :meth:`add`, one at a time (a search counts them as it finds them, within its
    time limit)."""

    def __init__(self, region: Region, multiplier: int, palindrome: bool) -> None:
        self.region, self.multiplier, self.palindrome = region, multiplier, palindrome
        self.paths = 0
        self._kept: list[Permutation] = []
        self._split = 1
        self._mirror: Permutation | None = None
        self._seen: set[tuple[CellIndex, ...]] = set()

    def add(self, path: Sequence[CellIndex]) -> None:
        """Count one more class, represented by ``path``."""
        if not self.paths:
            used = group_used(self.region, path, self.multiplier)
            turns = rotations(self.region)
            self._kept = [g for g in used if g in turns]
            self._split = len(used) // len(self._kept)  # rotation classes in each class
            self._mirror = next((g for g in used if g not in turns), None)
        self.paths += 1
        if not self.palindrome:
            return
        forms = [tuple(path)]
        if self._mirror is not None:
            forms.append(tuple(self._mirror[c] for c in path))
        for y in forms:
            pickers = [itemgetter(*y), itemgetter(*y[::-1])]
            self._seen.add(min(pick(g) for g in self._kept for pick in pickers))

    def counts(self) -> Counts:
        up_to_rotations = self.paths * self._split
        if not self.palindrome:
            return Counts(up_to_rotations, up_to_rotations)
        return Counts(up_to_rotations, len(self._seen))


def rotation_counts(
    region: Region, paths: Sequence[Sequence[CellIndex]], multiplier: int, palindrome: bool
) -> Counts:
    """Classes up to rotations, and up to rotations and reversal, of the placements whose
    classes up to the search's group (``multiplier`` elements) are represented by ``paths``.
    """
    classes = RotationClasses(region, multiplier, palindrome)
    for path in paths:
        classes.add(path)
    return classes.counts()
