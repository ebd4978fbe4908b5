"""The census store: a directory holding a census's finished work, safe to stop and resume.

Layout::

    DIR/manifest.json       the census: format, target cells, units, partitions, its id
    DIR/units/u000017.bin   one per finished unit: its tally, split into partitions
    DIR/parts/p0003.bin     one per reduced partition: every design in it, with solutions
                            (none for a partition no unit has a design in)

Every file is written to a temporary name in the same directory and renamed, so a file is
either whole or absent, whatever stops the run. A finished unit's file *is* its checkpoint:
a rerun skips it. Each binary file starts with a magic string and a JSON header whose own
digest follows it; each partition's slice of data has its own digest in the header, and is
checked whenever it is read. So a count damaged by accident (a bad disk, a half copy, an
edit that left the digests alone), a truncated or foreign file, a unit number out of range,
or a store made for another box, is refused with one line naming the file. The manifest is
checked field by field against the census being run (:func:`same_fields`), and every header
value for its type and range before use (whole numbers at least 0, histograms keyed by
numbers): junk is one line and exit 2.

What the digests do not do: they are unkeyed (blake2b of the data alone), so someone who
edits a count and writes the digest again is not caught. A store is trusted as the files of
your own disk are: one someone else could write to is not a proof of anything.

Binary layout of a unit file (integers little-endian)::

    magic b"SNKUNIT2" | u32 header length | header JSON | 16-byte blake2b of all before |
    per partition p: keys u64[r_p], counts u64[r_p] | fixed keys u64[f], fixed counts u64[f]

A partition file is the same with magic ``b"SNKPART2"`` and one slice: keys u64[d] (sorted),
solutions u64[d].

A design's key has bit i-1 set when cube i (1..n-2) is a corner; its **canonical** key is the
smaller of its key and its reverse's, so a design and its reverse are tallied together.
Partition of a key: the top bits of ``key * 0x9E3779B97F4A7C15`` (mod 2**64).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from snakecube.census.units import UnitTally
from snakecube.errors import InputError
from snakecube.output import write_atomic, write_new
from snakecube.shape import Region

if TYPE_CHECKING:
    from snakecube.census.joint import JointPart

FORMAT, VERSION = "snakecube-census", 2
UNIT_MAGIC, PART_MAGIC = b"SNKUNIT2", b"SNKPART2"
GOLDEN = 0x9E3779B97F4A7C15
_UNIT_NAME = re.compile(r"u(\d{6})\.bin", re.ASCII)
PART_NAME = re.compile(r"p(\d{4})\.bin", re.ASCII)
MAX_HEADER = 1 << 20
Column = npt.NDArray[np.uint64]  # keys, counts: what the files hold


def partition_of(keys: Column, bits: int) -> Column:
    """The partition (0 .. 2**bits - 1) of each canonical key (a numpy uint64 array)."""

    if bits == 0:
        return np.zeros(len(keys), np.uint64)
    return (keys * np.uint64(GOLDEN)) >> np.uint64(64 - bits)


def census_id(
    region: Region,
    units: list[tuple[int, ...]],
    partitions: int,
    max_segment: int | None = None,
) -> str:
    """A fingerprint of what a store holds: the format, target cells, units and partitions,
    and the longest segment counted if the census is limited to shorter ones."""
    cells = [list(c) for c in region.cells]
    fields: list[object] = [FORMAT, VERSION, cells, [list(u) for u in units], partitions]
    if max_segment is not None:
        fields.append({"max_segment": max_segment})
    text = json.dumps(fields)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def checksum(data: bytes | memoryview) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass(frozen=True, slots=True)
class UnitInfo:
    """A finished unit's header: enough to total paths without reading its data."""

    unit: int
    classes: int
    nodes: int
    records: int


@dataclass(frozen=True, slots=True)
class PartInfo:
    """A reduced partition's header: its designs' statistics."""

    partition: int
    designs: int
    solutions: int
    unique: int
    palindromes: int
    histogram: dict[int, int]
    top: list[tuple[int, int]]  # (key, solutions) of its designs with the most solutions


class StoreFolder:
    """What both kinds of census store keep (:class:`Store`, one target's, and
    ``joint.JointStore``, several targets'): the folder and its manifest, the census's id and
    partitions, the reduced partitions' files, and the headers read so far."""

    def __init__(self, root: Path, manifest: dict[str, Any]) -> None:
        self.root = root
        self.manifest = manifest
        self.id: str = manifest["id"]
        self.partitions: int = manifest["partitions"]
        self.bits = self.partitions.bit_length() - 1
        # Checked headers by path, with the (inode, size, mtime) they were read at: a reduce
        # reads every unit's header once per partition.
        self._headers: Headers = {}

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (for a Dask task) without the checked headers: each worker reads them
        once itself, instead of megabytes of them travelling with every task."""
        return {**self.__dict__, "_headers": {}}

    def part_path(self, p: int) -> Path:
        return self.root / "parts" / f"p{p:04d}.bin"

    def _write_part(self, magic: bytes, info: PartInfo | JointPart, block: bytes) -> None:
        """Write a reduced partition atomically: a header of the census's id, the fields of
        ``info`` (a dataclass; JSON writes its tuples as lists and its ints as keys as
        strings) and the digest of ``block``, then ``block``."""
        header = {"census": self.id, **asdict(info), "digest": checksum(block)}
        write_atomic(self.part_path(info.partition), pack(magic, header, [block]))


class Store(StoreFolder):
    """An open census store (see the module's docstring)."""

    def __init__(self, root: Path, manifest: dict[str, Any]) -> None:
        super().__init__(root, manifest)
        self.units: int = manifest["units"]
        self.cells: int = len(manifest["cells"])
        self.max_segment: int | None = manifest.get("max_segment")

    # -- opening -------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        root: str | Path,
        region: Region,
        units: list[tuple[int, ...]],
        partitions: int,
        max_segment: int | None = None,
    ) -> Store:
        """Open the store at ``root`` for this census, creating it if it does not exist or
        is an empty directory; refuse a store of another census, or anything else."""
        root = Path(root)
        manifest: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "target": region.describe(),
            "cells": [list(c) for c in region.cells],
            "units": len(units),
            "partitions": partitions,
            "id": census_id(region, units, partitions, max_segment),
        }
        if max_segment is not None:
            manifest["max_segment"] = max_segment
        if created(root, manifest, ("units", "parts")):
            return cls(root, manifest)
        found = read_manifest(root)
        if found.get("id") != manifest["id"]:
            name = repr(str(root))
            raise InputError(
                f"census store {name} belongs to another census ({found.get('target')!r}, "
                f"{found.get('units')} units, {found.get('partitions')} partitions); use "
                "another directory"
            )
        same_fields(root, found, manifest)
        return cls(root, found)

    # -- units -----------------------------------------------------------------------------
    def unit_path(self, unit: int) -> Path:
        return self.root / "units" / f"u{unit:06d}.bin"

    def finished_units(self) -> dict[int, UnitInfo]:
        """The finished units, from their headers (each checked)."""
        out: dict[int, UnitInfo] = {}
        for unit, _ in numbered_files(self.root / "units", _UNIT_NAME, self.units, "unit"):
            info = self.finished_unit(unit)
            if info is not None:  # else removed since the listing
                out[unit] = info
        return out

    def finished_unit(self, unit: int) -> UnitInfo | None:
        """Unit ``unit``'s header if its file is there (checked), else None."""
        path = self.unit_path(unit)
        if not path.exists():
            return None
        header, _ = self._header(path, UNIT_MAGIC)
        if header.get("unit") != unit:
            raise InputError(f"census store: {str(path)!r} holds unit {header.get('unit')!r}")
        return UnitInfo(unit, header["classes"], header["nodes"], header["offsets"][-1])

    def write_unit(self, tally: UnitTally) -> UnitInfo:
        """Write a unit's tally, split into partitions, atomically."""

        part = partition_of(tally.keys, self.bits)
        order = np.lexsort((tally.keys, part))
        keys, counts, part = tally.keys[order], tally.counts[order], part[order]
        bounds = np.searchsorted(part, np.arange(self.partitions + 1, dtype=np.uint64))
        blocks, digests = [], []
        for p in range(self.partitions):
            a, b = int(bounds[p]), int(bounds[p + 1])
            block = le64(keys[a:b]).tobytes() + le64(counts[a:b]).tobytes()
            blocks.append(block)
            digests.append(checksum(block))
        fixed = le64(tally.fixed_keys).tobytes() + le64(tally.fixed_counts).tobytes()
        header = {
            "census": self.id,
            "unit": tally.unit,
            "classes": tally.classes,
            "nodes": tally.nodes,
            "offsets": [int(x) for x in bounds],
            "digests": digests,
            "fixed": len(tally.fixed_keys),
            "fixed_digest": checksum(fixed),
        }
        write_atomic(self.unit_path(tally.unit), pack(UNIT_MAGIC, header, [*blocks, fixed]))
        return UnitInfo(tally.unit, tally.classes, tally.nodes, int(bounds[-1]))

    def read_unit_partition(self, unit: int, p: int) -> tuple[Column, Column]:
        """(keys, counts) of unit ``unit`` in partition ``p``, checked against its digest."""
        path = self.unit_path(unit)
        header, start = self._header(path, UNIT_MAGIC)
        offsets = header["offsets"]
        a, b = offsets[p], offsets[p + 1]
        block = read_block(path, start + 16 * a, 16 * (b - a))
        if checksum(block) != header["digests"][p]:
            raise InputError(
                f"census store: {str(path)!r}, partition {p}: the data does not "
                "match its checksum (edited or damaged); delete the file to redo "
                "that unit"
            )
        return _arrays(block, b - a)

    def read_unit_fixed(self, unit: int) -> tuple[Column, Column]:
        """(keys, self-reverse counts) of unit ``unit``'s palindromic designs."""
        path = self.unit_path(unit)
        header, start = self._header(path, UNIT_MAGIC)
        f = header["fixed"]
        block = read_block(path, start + 16 * header["offsets"][-1], 16 * f)
        if checksum(block) != header["fixed_digest"]:
            raise InputError(
                f"census store: {str(path)!r}: the palindrome data does not match "
                "its checksum (edited or damaged); delete the file to redo that "
                "unit"
            )
        return _arrays(block, f)

    # -- partitions ------------------------------------------------------------------------
    def filled_parts(self) -> list[int]:
        """The partitions that hold at least one design, from the units' headers (every unit
        finished). Only these are reduced and have a file: an empty one costs nothing."""
        filled: set[int] = set()
        for u in range(self.units):
            offsets = self._header(self.unit_path(u), UNIT_MAGIC)[0]["offsets"]
            filled.update(p for p, (a, b) in enumerate(itertools.pairwise(offsets)) if b > a)
        return sorted(filled)

    def finished_parts(self) -> dict[int, PartInfo]:
        """The reduced partitions, from their headers (each checked)."""
        out: dict[int, PartInfo] = {}
        parts = numbered_files(self.root / "parts", PART_NAME, self.partitions, "partition")
        for p, path in parts:
            h, _ = self._header(path, PART_MAGIC)
            if h.get("partition") != p:
                raise InputError(
                    f"census store: {str(path)!r} holds partition {h.get('partition')!r}"
                )
            out[p] = PartInfo(
                p,
                h["designs"],
                h["solutions"],
                h["unique"],
                h["palindromes"],
                {int(k): v for k, v in h["histogram"].items()},
                [(t[0], t[1]) for t in h["top"]],
            )
        return out

    def write_part(self, info: PartInfo, keys: Column, solutions: Column) -> None:
        self._write_part(PART_MAGIC, info, le64(keys).tobytes() + le64(solutions).tobytes())

    def read_part(self, p: int) -> tuple[Column, Column]:
        """(keys, solutions) of every design in partition ``p``, checked."""
        path = self.part_path(p)
        header, start = self._header(path, PART_MAGIC)
        d = header["designs"]
        block = read_block(path, start, 16 * d)
        if checksum(block) != header["digest"]:
            raise InputError(
                f"census store: {str(path)!r}: the data does not match its "
                "checksum (edited or damaged); delete the file to redo it"
            )
        return _arrays(block, d)

    # -- headers ---------------------------------------------------------------------------
    def _header(self, path: Path, magic: bytes) -> tuple[dict[str, Any], int]:
        """A file's JSON header (checked), and where its data starts."""
        unit = magic == UNIT_MAGIC
        spec = _UNIT_HEADER if unit else _PART_HEADER
        before = self._headers.get(path)
        header, start = read_header(
            path, magic, "unit" if unit else "part", self.id, spec, self._headers
        )
        if unit and self._headers.get(path) is not before:  # read afresh: check its offsets
            offsets = header["offsets"]
            if (
                len(offsets) != self.partitions + 1
                or len(header["digests"]) != self.partitions
                or any(not isinstance(x, int) for x in offsets)
                or offsets[0] != 0
                or any(b < a for a, b in itertools.pairwise(offsets))
            ):
                del self._headers[path]
                raise InputError(
                    f"census store: {str(path)!r}: header field 'offsets' is malformed"
                )
        return header, start


Headers = dict[Path, tuple[tuple[int, int, int], dict[str, Any], int]]


def read_header(
    path: Path,
    magic: bytes,
    what: str,
    owner: str,
    spec: dict[str, type],
    cache: Headers | None = None,
) -> tuple[dict[str, Any], int]:
    """The JSON header of one of a store's binary files, checked: its magic, its digest, that
    it belongs to the store ``owner`` (an id) and has the fields of ``spec``; and where the
    file's data starts. One-line errors name the file. ``cache`` keeps checked headers by
    path with the (inode, size, mtime) they were read at."""
    name = repr(str(path))
    try:
        _regular(path)
        with path.open("rb") as f:
            st = os.fstat(f.fileno())
            seen = (st.st_ino, st.st_size, st.st_mtime_ns)
            cached = None if cache is None else cache.get(path)
            if cached is not None and cached[0] == seen:
                return cached[1], cached[2]
            head = f.read(len(magic) + 4)
            if len(head) < len(magic) + 4 or head[: len(magic)] != magic:
                raise InputError(f"census store: {name} is not a snakecube {what} file")
            size = int.from_bytes(head[len(magic) :], "little")
            if size > MAX_HEADER:
                raise InputError(f"census store: {name}: header too large ({size} bytes)")
            text = f.read(size)
            digest = f.read(16)
    except OSError as err:
        raise InputError(f"census store: cannot read {name}: {err.strerror or err}") from None
    if len(text) < size or len(digest) < 16:
        raise InputError(f"census store: {name} is cut short")
    if hashlib.blake2b(head + text, digest_size=16).digest() != digest:
        raise InputError(
            f"census store: {name}: the header does not match its checksum (edited or damaged)"
        )
    try:
        header = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise InputError(f"census store: {name}: the header is not JSON") from None
    if not isinstance(header, dict) or header.get("census") != owner:
        raise InputError(f"census store: {name} belongs to another census")
    for key, kind in spec.items():
        value = header.get(key)
        if not isinstance(value, kind) or isinstance(value, bool) or not _well_formed(value, key):
            raise InputError(f"census store: {name}: header field {key!r} is malformed")
    start = len(head) + size + 16
    if cache is not None:
        cache[path] = (seen, header, start)
    return header, start


_UNIT_HEADER = {
    "unit": int,
    "classes": int,
    "nodes": int,
    "offsets": list,
    "digests": list,
    "fixed": int,
    "fixed_digest": str,
}
_PART_HEADER = {
    "partition": int,
    "designs": int,
    "solutions": int,
    "unique": int,
    "palindromes": int,
    "histogram": dict,
    "top": list,
    "digest": str,
}


def _regular(path: Path) -> None:
    """An InputError unless ``path`` is a regular file (a FIFO in a store would block its
    reader for ever): a store holds only the files snakecube wrote. FileNotFoundError and
    other OSErrors as ``stat`` raises them."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise InputError(f"census store: {str(path)!r} is not a regular file")


def load_manifest(root: Path) -> tuple[Any, str]:
    """The JSON in ``root``'s manifest.json, and the file's name for messages; one-line
    errors name the file and line."""
    path = root / "manifest.json"
    name = repr(str(path))
    try:
        _regular(path)
        with path.open("rb") as f:
            data = f.read(MAX_HEADER + 1)
    except FileNotFoundError:
        raise InputError(
            f"{str(root)!r} is not a census store (no manifest.json), and it is "
            "not empty; use an empty or new directory"
        ) from None
    except OSError as err:
        raise InputError(f"cannot read {name}: {err.strerror or err}") from None
    if len(data) > MAX_HEADER:
        raise InputError(f"{name} is too large to be a census manifest")
    try:
        return json.loads(data.decode("utf-8")), name
    except UnicodeDecodeError as err:
        raise InputError(f"{name} is not text (byte {err.start + 1})") from None
    except json.JSONDecodeError as err:
        raise InputError(f"{name}, line {err.lineno}: not JSON ({err.msg})") from None
    except RecursionError:  # json's own guard: lists in lists past its depth
        raise InputError(f"{name}: not a census manifest (lists nested too deep)") from None


def check_fields(
    manifest: dict[str, Any], name: str, shape: dict[str, type], version: int = VERSION
) -> None:
    """InputError unless each key of ``shape`` holds a value of its type and the manifest's
    version is ``version`` (the one this snakecube writes)."""
    for key, kind in shape.items():
        if not isinstance(manifest.get(key), kind):
            raise InputError(f"{name}: {key!r} is missing or not a {kind.__name__}")
    if manifest["version"] != version:
        raise InputError(
            f"{name}: format version {manifest['version']}; this snakecube reads {version}"
        )


def read_manifest(root: Path) -> dict[str, Any]:
    """The store's manifest, with its shape checked; one-line errors name the file and line."""
    manifest, name = load_manifest(root)
    shape = {
        "format": str,
        "version": int,
        "target": str,
        "cells": list,
        "units": int,
        "partitions": int,
        "id": str,
    }
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise InputError(f"{name} is not a snakecube census manifest")
    check_fields(manifest, name, shape)
    p = manifest["partitions"]
    if p < 1 or p & (p - 1):
        raise InputError(f"{name}: 'partitions' must be a power of two, not {p}")
    return manifest


def same_fields(root: Path, found: dict[str, Any], wanted: dict[str, Any]) -> None:
    """An InputError unless the manifest ``found`` in the store at ``root`` says, field for
    field, what this census's own manifest ``wanted`` says. Its id alone is not enough: a
    manifest edited beside an id left alone (a ``max_segment`` added, ``cells`` cut,
    ``partitions`` raised) gave wrong counts marked complete, or ran for minutes."""
    for key in sorted(set(found) | set(wanted)):
        if found.get(key) != wanted.get(key):
            raise InputError(
                f"census store {str(root)!r}: its manifest's {key!r} is not this census's "
                "(edited?); use another directory, or remove it to count again"
            )


def _number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _well_formed(value: Any, key: str = "") -> bool:
    """A header's value as snakecube writes them: whole numbers (and seconds) at least 0,
    text, lists of
    these, and tables of them keyed by whole numbers written as text (the histograms); a
    ``top`` entry is a pair."""
    if isinstance(value, int):
        return _number(value)
    if isinstance(value, float):  # seconds
        return math.isfinite(value) and value >= 0
    if isinstance(value, str):
        return True
    if isinstance(value, list):
        if key == "top":  # (a design's key, its solutions): a number first
            return all(
                isinstance(v, list) and len(v) == 2 and _number(v[0]) and _well_formed(v[1])
                for v in value
            )
        return all(_well_formed(v) for v in value)
    if isinstance(value, dict):
        return all(k.isdigit() and k.isascii() and _well_formed(v) for k, v in value.items())
    return False


def check_root(root: Path) -> None:
    """An InputError now if ``root`` cannot be a store's directory: a file is there, or its
    parent is no directory (the command checks before its forecast, so a bad path is its
    one line)."""
    name = repr(str(root))
    if root.exists() and not root.is_dir():
        raise InputError(f"census store {name} is not a directory")
    parent = root.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise InputError(f"census store {name}: {str(parent)!r} is not a directory")


def created(root: Path, manifest: dict[str, Any], folders: tuple[str, ...]) -> bool:
    """Make a store's directory ``root`` and, if it is new (:func:`_fresh`), its ``folders``
    and ``manifest``: True if this call wrote the manifest, False if one is there to read.
    InputError if ``root`` cannot be a store's directory.

    Two processes may create one store at once: the manifest is written last, and only if
    none is there yet (write_new), so one of them makes it and the other reads it, as a
    rerun would."""
    name = repr(str(root))
    try:
        check_root(root)
        root.mkdir(parents=True, exist_ok=True)
        if not (root / "manifest.json").exists() and _fresh(root, folders):
            for folder in folders:
                (root / folder).mkdir(exist_ok=True)
            return write_new(root / "manifest.json", json.dumps(manifest, indent=1).encode())
    except OSError as err:
        raise InputError(f"cannot use census store {name}: {err.strerror or err}") from None
    return False


def _fresh(root: Path, folders: tuple[str, ...]) -> bool:
    """True if ``root`` holds nothing but what creating a store leaves before its manifest:
    its ``folders``, empty, and temporary files."""
    for entry in root.iterdir():
        if entry.name.startswith(".") and entry.name.endswith(".tmp"):
            continue
        if entry.name not in folders or not entry.is_dir():
            return False
        if any(not (e.name.startswith(".") and e.name.endswith(".tmp")) for e in entry.iterdir()):
            return False
    return True


def pack(magic: bytes, header: dict[str, Any], blocks: list[bytes]) -> bytes:
    """A binary file of the store: magic, header length, JSON header, its digest, data."""
    text = json.dumps(header, separators=(",", ":")).encode()
    head = magic + len(text).to_bytes(4, "little") + text
    return b"".join([head, hashlib.blake2b(head, digest_size=16).digest(), *blocks])


def le64(array: npt.ArrayLike) -> Column:
    """``array`` as little-endian unsigned 64-bit integers, contiguous (for the files)."""
    return np.ascontiguousarray(array, dtype="<u8")


def _arrays(block: bytes, n: int) -> tuple[Column, Column]:

    data = np.frombuffer(block, dtype="<u8")
    return data[:n].astype(np.uint64), data[n : 2 * n].astype(np.uint64)


def read_block(path: Path, offset: int, size: int) -> bytes:
    try:
        with path.open("rb") as f:
            f.seek(offset)
            data = f.read(size)
    except OSError as err:
        raise InputError(
            f"census store: cannot read {str(path)!r}: {err.strerror or err}"
        ) from None
    if len(data) != size:
        raise InputError(f"census store: {str(path)!r} is cut short")
    return data


def numbered_files(
    folder: Path, name: re.Pattern[str], count: int, what: str
) -> Iterator[tuple[int, Path]]:
    """The files of ``folder`` that ``name`` (one group of digits) numbers below ``count``,
    with their numbers, in order. A temporary file left by a stopped run is skipped (it is
    overwritten later); any other file is an error that names it."""
    for path in listing(folder):
        if path.name.startswith(".") and path.name.endswith(".tmp"):
            continue
        m = name.fullmatch(path.name)
        if not m:
            raise InputError(f"census store: unexpected file {str(path)!r}")
        number = int(m.group(1))
        if number >= count:
            raise InputError(
                f"census store: {str(path)!r} is {what} {number}, but this census has "
                f"{what}s 0..{count - 1}"
            )
        yield number, path


def listing(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except FileNotFoundError:
        return []
    except OSError as err:
        raise InputError(
            f"census store: cannot list {str(folder)!r}: {err.strerror or err}"
        ) from None
