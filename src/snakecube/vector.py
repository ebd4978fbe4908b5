"""Vectors of three numbers: what the table frame (``frame``) and the fold's model and
guide (``fold``) share, written once: the dot product, and the six ways a run can point on
the table with their names."""

from __future__ import annotations

from collections.abc import Sequence


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    """The dot product of two 3-vectors."""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


# The six ways a run can point, in the table frame (x to the right, y away from the person,
# z up), by the short names ``fold --json`` writes; ``frame.TABLE`` says them in words.
WAYS: dict[tuple[int, int, int], str] = {
    (1, 0, 0): "right",
    (-1, 0, 0): "left",
    (0, 1, 0): "away",
    (0, -1, 0): "towards",
    (0, 0, 1): "up",
    (0, 0, -1): "down",
}
