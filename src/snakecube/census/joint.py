"""The census of several targets: every design that folds into each of them, with its
solutions in each.

Method: each target's own census (``runner``), in its own store under ``DIR/targets/NAME``,
all with the same number of partitions. A design's partition depends on its canonical key
only (``store.partition_of``), and targets of equal size share one key space, so partition p
of every target holds the only candidates for partition p of the answer: the designs common
to all are the intersection of the p-th partitions, taken partition by partition. Each
intersection is a task (here, in worker processes or on Dask, like the census's reduces)
that writes ``DIR/parts/pNNNN.bin``; a finished file is its checkpoint.

Layout of the store::

    DIR/manifest.json         the joint census: format, targets, their census ids, partitions,
                              and the target searched (``decide``), if any
    DIR/targets/NAME/         each target's own census store (NAME: 2x3x4, or region-HASH)
    DIR/parts/p0003.bin       one per partition that has a design in every target
    DIR/searched/NAME/        the search in one more target (``decide``)

Binary layout of a joint partition file (integers little-endian), as the census's own::

    magic b"SNKJOIN1" | u32 header length | header JSON | 16-byte blake2b of all before |
    keys u64[d] (sorted) | solutions in target 1 u64[d] | ... | in target k u64[d]
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from snakecube.census.reduce import STATS_FIELDS, design_stats
from snakecube.census.store import (
    PART_NAME,
    Column,
    Store,
    StoreFolder,
    check_fields,
    checksum,
    created,
    le64,
    load_manifest,
    numbered_files,
    read_block,
    read_header,
    same_fields,
)
from snakecube.errors import InputError
from snakecube.shape import Box, Region

FORMAT, VERSION = "snakecube-joint-census", 1
MAGIC = b"SNKJOIN1"
_PART_HEADER = {
    "partition": int,
    "designs": int,
    **STATS_FIELDS,
    "digest": str,
}


@dataclass(frozen=True, slots=True)
class JointPart:
    """One intersected partition's header: its common designs' statistics."""

    partition: int
    designs: int
    solutions: list[int]  # per target
    unique: list[int]  # per target: designs with one solution there
    unique_in_all: int  # designs with one solution in every target
    palindromes: int
    histograms: list[dict[int, int]]  # per target
    top: list[tuple[int, list[int]]]  # (key, solutions per target), most solutions first


def target_name(region: Region) -> str:
    """The folder of a target's own store in a joint store: ``2x3x4`` for a box (as
    typed: 4x6x1 and 1x4x6 are different cells), ``region-`` and a hash of the cells else."""
    if isinstance(region, Box):
        return "x".join(map(str, region.dims))
    text = json.dumps([list(c) for c in region.cells])
    return "region-" + hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


def joint_id(ids: Sequence[str], partitions: int, searched: dict[str, Any] | None) -> str:
    """A fingerprint of a joint census: the format, its targets' census ids, in order, and
    the target searched (its cells and node limit), if any."""
    text = json.dumps([FORMAT, VERSION, list(ids), partitions, searched])
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def searched_spec(region: Region | None, nodes: int) -> dict[str, Any] | None:
    if region is None:
        return None
    return {
        "target": region.describe(),
        "folder": target_name(region),
        "cells": [list(c) for c in region.cells],
        "nodes": nodes,
    }


class JointStore(StoreFolder):
    """An open joint store (see the module's docstring)."""

    def __init__(self, root: Path, manifest: dict[str, Any]) -> None:
        super().__init__(root, manifest)
        self.targets: int = len(manifest["targets"])

    @classmethod
    def open(
        cls,
        root: str | Path,
        regions: Sequence[Region],
        ids: Sequence[str],
        partitions: int,
        searched: dict[str, Any] | None = None,
    ) -> JointStore:
        """Open the joint store at ``root``, creating it if it does not exist or is empty;
        refuse one of other targets (or in another order), or anything else."""
        root = Path(root)
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "targets": [r.describe() for r in regions],
            "folders": [target_name(r) for r in regions],
            "censuses": list(ids),
            "partitions": partitions,
            "searched": searched,
            "id": joint_id(ids, partitions, searched),
        }
        if created(root, manifest, ("targets", "parts", "searched")):
            return cls(root, manifest)
        name = repr(str(root))
        found = _read_manifest(root)
        if found.get("id") != manifest["id"]:
            other = found.get("searched")
            also = (
                f", folding into the {other.get('target')} by search with "
                f"{other.get('nodes')} nodes per end"
                if isinstance(other, dict)
                else ""
            )
            raise InputError(
                f"census store {name} belongs to another census of several targets "
                f"({', '.join(map(str, found.get('targets', [])))}, in that order{also}, "
                f"{found.get('partitions')} partitions); use another directory"
            )
        same_fields(root, found, manifest)
        return cls(root, found)

    def searched_root(self) -> Path:
        """Where the search in the extra target keeps its work (``decide.Decisions``)."""
        return self.root / "searched" / str(self.manifest["searched"]["folder"])

    def target_root(self, i: int) -> Path:
        return self.root / "targets" / str(self.manifest["folders"][i])

    def finished_parts(self) -> dict[int, JointPart]:
        """The intersected partitions, from their headers (each checked)."""
        out: dict[int, JointPart] = {}
        parts = numbered_files(self.root / "parts", PART_NAME, self.partitions, "partition")
        for p, path in parts:
            h, _ = self._header(path)
            if h["partition"] != p:
                raise InputError(f"census store: {str(path)!r} holds partition {h['partition']!r}")
            out[p] = JointPart(
                p,
                h["designs"],
                h["solutions"],
                h["unique"],
                h["unique_in_all"],
                h["palindromes"],
                [{int(k): v for k, v in hist.items()} for hist in h["histograms"]],
                [(t[0], list(t[1])) for t in h["top"]],
            )
        return out

    def write_part(self, info: JointPart, keys: Column, columns: Column) -> None:
        block = le64(keys).tobytes() + b"".join(le64(c).tobytes() for c in columns)
        self._write_part(MAGIC, info, block)

    def read_part(self, p: int) -> tuple[Column, Column]:
        """(keys, solutions: one row per target) of partition ``p``'s common designs."""
        path = self.part_path(p)
        header, start = self._header(path)
        d = header["designs"]
        block = read_block(path, start, 8 * d * (1 + self.targets))
        if checksum(block) != header["digest"]:
            raise InputError(
                f"census store: {str(path)!r}: the data does not match its "
                "checksum (edited or damaged); delete the file to redo it"
            )
        data = np.frombuffer(block, dtype="<u8").astype(np.uint64)
        return data[:d], data[d:].reshape(self.targets, d)

    def _header(self, path: Path) -> tuple[dict[str, Any], int]:
        header, start = read_header(
            path, MAGIC, "joint partition", self.id, _PART_HEADER, self._headers
        )
        k = self.targets
        if any(len(header[f]) != k for f in ("solutions", "unique", "histograms")):
            raise InputError(f"census store: {str(path)!r}: the header has not {k} targets")
        return header, start


def _read_manifest(root: Path) -> dict[str, Any]:
    """The joint store's manifest, with its shape checked; one-line errors name the file."""
    manifest, name = load_manifest(root)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        if isinstance(manifest, dict) and manifest.get("format") == "snakecube-census":
            raise InputError(
                f"{str(root)!r} is the census store of one target; a census of several "
                "targets keeps each target's store inside its own: use another directory"
            )
        raise InputError(f"{name} is not a snakecube census manifest")
    if manifest.get("searched") is not None and not isinstance(manifest["searched"], dict):
        raise InputError(f"{name}: 'searched' is not an object")
    shape = {
        "version": int,
        "targets": list,
        "folders": list,
        "censuses": list,
        "partitions": int,
        "id": str,
    }
    check_fields(manifest, name, shape, VERSION)
    return manifest


# -- the intersection ---------------------------------------------------------------------


def intersect_partition(jst: JointStore, singles: Sequence[Store], p: int, cells: int) -> JointPart:
    """The designs of partition ``p`` found in every target's store, with their solutions
    in each; written to the joint store and described."""
    keys, first = singles[0].read_part(p)
    columns = [first]
    for st in singles[1:]:
        other, sols = st.read_part(p)
        keys, mine, theirs = np.intersect1d(keys, other, assume_unique=True, return_indices=True)
        columns = [c[mine] for c in columns] + [sols[theirs]]
    table = np.array(columns, dtype=np.uint64).reshape(len(singles), len(keys))
    info = JointPart(partition=p, **design_stats(keys, table, cells))
    jst.write_part(info, keys, table)
    return info
