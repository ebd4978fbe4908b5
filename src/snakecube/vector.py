"""Vectors of three numbers: the products that the table frame (``frame``) and the fold's
model (``fold.model``) share, written once."""

from __future__ import annotations

from collections.abc import Sequence


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    """The dot product of two 3-vectors."""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
