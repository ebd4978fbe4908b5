"""The reduce step: merge every unit's slice of one partition into that partition's designs.

No process ever holds every design: partition p holds only the designs whose canonical key
hashes to p, so a reduce task needs memory for one partition's records (16 bytes each, plus
numpy's sort). A design's solutions (up to the region's symmetries and reversal) are
``(classes + self-reverse classes) / 2`` summed over units: a design and its reverse are
tallied under one key, so each class is counted once from each end, except the classes a
symmetry maps onto their own reverse, which are one solution counted once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from snakecube.census.store import Column, PartInfo, Store, partition_of
from snakecube.census.units import sum_by_key

TOP = 20  # designs with the most solutions kept per partition (and in the summary)


def reverse_keys(keys: Column, bits: int) -> Column:
    """Each key with its lowest ``bits`` bits in reverse order (numpy, vectorised)."""

    table = np.array([int(f"{b:08b}"[::-1], 2) for b in range(256)], dtype=np.uint64)
    out = np.zeros(len(keys), np.uint64)
    rest = keys.astype(np.uint64)
    for _ in range(8):
        out = (out << np.uint64(8)) | table[rest & np.uint64(0xFF)]
        rest = rest >> np.uint64(8)
    return out >> np.uint64(64 - bits) if bits else np.zeros(len(keys), np.uint64)


def empty_partition(p: int) -> PartInfo:
    """What a partition no unit has a design in holds: nothing (it has no file)."""
    return PartInfo(p, 0, 0, 0, 0, {}, [])


def reduce_partition(store: Store, p: int, units: list[int]) -> PartInfo:
    """Merge partition ``p`` of ``units`` into its designs; write and describe it."""

    parts = [store.read_unit_partition(u, p) for u in units]
    keys, counts = sum_by_key(
        np.concatenate([k for k, _ in parts] or [np.empty(0, np.uint64)]),
        np.concatenate([c for _, c in parts] or [np.empty(0, np.uint64)]),
    )
    fixed = [store.read_unit_fixed(u) for u in units]
    fkeys = np.concatenate([k for k, _ in fixed] or [np.empty(0, np.uint64)])
    fcounts = np.concatenate([c for _, c in fixed] or [np.empty(0, np.uint64)])
    mine = partition_of(fkeys, store.bits) == p
    fkeys, fcounts = sum_by_key(fkeys[mine], fcounts[mine])
    total = counts.copy()
    if len(fkeys):
        at = np.searchsorted(keys, fkeys)
        if (at >= len(keys)).any() or (keys[np.minimum(at, len(keys) - 1)] != fkeys).any():
            raise RuntimeError(f"census partition {p}: a self-reverse class of an unseen design")
        total[at] += fcounts
    if (total & np.uint64(1)).any():
        raise RuntimeError(f"census partition {p}: a design's classes do not pair up")
    solutions = total >> np.uint64(1)
    bits = store.cells - 2
    rev = reverse_keys(keys, bits)
    values, freq = np.unique(solutions, return_counts=True)
    order = np.lexsort((~rev, ~solutions))[:TOP]  # most solutions, then by turn string
    info = PartInfo(
        partition=p,
        designs=len(keys),
        solutions=int(solutions.sum(dtype=np.uint64)),
        unique=int((solutions == 1).sum()),
        palindromes=int((rev == keys).sum()),
        histogram={int(v): int(f) for v, f in zip(values, freq, strict=True)},
        top=[(int(keys[i]), int(solutions[i])) for i in order],
    )
    store.write_part(info, keys, solutions)
    return info


# The fields of :func:`design_stats` with their JSON types, as the stores' headers keep them.
STATS_FIELDS: dict[str, type] = {
    "solutions": list,
    "unique": list,
    "unique_in_all": int,
    "palindromes": int,
    "histograms": list,
    "top": list,
}


def design_stats(keys: Any, table: Any, cells: int) -> dict[str, Any]:
    """The statistics of designs (sorted canonical ``keys``) with their solutions in each of
    several targets (``table``: a row per target): per target the solutions, the unique
    designs and the histogram; the designs unique in all; the palindromes; and the TOP
    designs with the most solutions in all, then by turn string, as (key, [solutions])."""
    rev = reverse_keys(keys, cells - 2)
    total = table.sum(axis=0, dtype=np.uint64)
    order = np.lexsort((~rev, ~total))[:TOP]
    histograms = []
    for row in table:
        values, freq = np.unique(row, return_counts=True)
        histograms.append({int(v): int(f) for v, f in zip(values, freq, strict=True)})
    return {
        "designs": len(keys),
        "solutions": [int(row.sum(dtype=np.uint64)) for row in table],
        "unique": [int((row == 1).sum()) for row in table],
        "unique_in_all": int((table == 1).all(axis=0).sum()) if len(keys) else 0,
        "palindromes": int((rev == keys).sum()),
        "histograms": histograms,
        "top": [(int(keys[i]), [int(x) for x in table[:, i]]) for i in order],
    }
