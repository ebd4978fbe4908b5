"""Census: every snake design that folds into a box, with its number of solutions.

Hamiltonian paths are enumerated once per class under the box's symmetries, in the compiled
loop, and grouped by the design they fold (see ``census``).
"""

from __future__ import annotations

import json
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from snakecube.designs import design_of
from snakecube.errors import InputError
from snakecube.shape import Cell, Region
from snakecube.snake import Snake

Key = int  # a design as bits: bit i-1 set when cube i (1..n-2) is a corner


@dataclass(frozen=True, slots=True)
class DesignCount:
    """One design of a census: the snake, its distinct solutions (up to the box's
    symmetries and reversal), and whether it reads the same from both ends."""

    snake: Snake
    solutions: int
    palindrome: bool


@dataclass(frozen=True, slots=True)
class Census:
    """Every snake design that folds into a region, with its number of solutions."""

    region: Region
    paths: int  # directed Hamiltonian paths
    designs: tuple[DesignCount, ...]  # most solutions first, then by turn string
    complete: bool

    @property
    def solutions(self) -> int:
        """The sum of every design's distinct solutions."""
        return sum(d.solutions for d in self.designs)

    @property
    def unique(self) -> int:
        """Designs with exactly one solution."""
        return sum(1 for d in self.designs if d.solutions == 1)

    @property
    def histogram(self) -> dict[int, int]:
        """Number of designs for each number of solutions."""
        out: dict[int, int] = {}
        for d in self.designs:
            out[d.solutions] = out.get(d.solutions, 0) + 1
        return dict(sorted(out.items()))

    def to_dict(self, rows: int = 10) -> dict[str, object]:
        """A JSON-ready summary; ``rows`` designs with the most solutions are listed."""
        most = self.designs[0].solutions if self.designs else 0
        return {
            "target": self.region.describe(),
            "paths": self.paths,
            "designs": len(self.designs),
            "solutions": self.solutions,
            "unique": self.unique,
            "max_solutions": most,
            "most_solutions": [d.snake.turns() for d in self.designs if d.solutions == most][:rows],
            "palindromes": sum(1 for d in self.designs if d.palindrome),
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "complete": self.complete,
        }


def path_units(region: Region, min_units: int = 1) -> list[tuple[Cell, ...]]:
    """Path prefixes, one per orbit, whose stabilizer is trivial: every Hamiltonian path
    class under the region's symmetries extends exactly one of them. With ``min_units``,
    prefixes are extended further (every step, once no symmetry is left) until there are
    at least that many, for splitting the work."""
    from snakecube.search.plan import can_start

    nb = region.neighbours

    def expand(prefix: tuple[Cell, ...], stab: list[tuple[int, ...]], extra: int) -> None:
        if (len(stab) == 1 and extra == 0) or len(prefix) == region.volume:
            units.append(prefix)
            return
        seen: set[Cell] = set()
        for x in nb[prefix[-1]]:
            if x < 0 or x in prefix or x in seen:
                continue
            seen.update(g[x] for g in stab)
            expand((*prefix, x), [g for g in stab if g[x] == x], extra - (len(stab) == 1))

    extra = 0
    while True:
        units: list[tuple[Cell, ...]] = []
        for orbit in region.orbits():
            start = orbit[0]
            if can_start(region, start):
                expand((start,), [g for g in region.symmetries if g[start] == start], extra)
        if len(units) >= min_units or extra >= region.volume:
            return units
        extra += 1


def _paths_in_unit(region: Region, prefix: tuple[Cell, ...]) -> Iterator[tuple[list[Key], bytes]]:
    """Batches of (design keys, the paths' cells as n bytes each) of every Hamiltonian path
    extending ``prefix``."""
    from snakecube.search import _kernel

    n = region.volume
    nb = array("q", [x for row in region.neighbours for x in row])
    nbmask = array("Q", [sum(1 << x for x in row if x >= 0) for row in region.neighbours])
    path = array("q", [*prefix, *([0] * (n - len(prefix)))])
    dirs = array("q", [0] * (n + 1))
    for i in range(1, len(prefix)):
        dirs[i] = region.neighbours[prefix[i - 1]].index(prefix[i])
    nextd = array("q", [0] * (n + 1))
    meta = array("q", [len(prefix), 0])
    batch = 4096
    keys = array("q", [0] * batch)
    cells = array("b", [0] * (batch * n))
    occ = sum(1 << c for c in prefix)
    if len(prefix) == n:
        _, key = _key_of(region, prefix)
        yield [key], bytes(prefix)
        return
    while not meta[1]:
        got, _ = _kernel.hamiltonian_paths(
            nb, nbmask, path, len(prefix), occ, keys, cells, batch, nextd, dirs, 1 << 60, meta
        )
        occ = sum(1 << path[i] for i in range(meta[0]))
        yield keys[:got].tolist(), cells[: got * n].tobytes()


def _key_of(region: Region, path: Sequence[Cell]) -> tuple[Snake, Key]:
    snake = design_of([region.cells[c] for c in path])
    corners = snake.corner_cubes()
    return snake, sum(1 << (c - 1) for c in corners)


def _reverse_key(key: Key, n: int) -> Key:
    out = 0
    for i in range(n - 2):
        if key >> i & 1:
            out |= 1 << (n - 3 - i)
    return out


UnitResult = tuple[int, dict[Key, int], dict[Key, list[bytes]]]  # classes, counts, palindromic


def _census_unit(job: tuple[Region, tuple[Cell, ...]]) -> UnitResult:
    """The path classes under one prefix, grouped by design key."""
    region, prefix = job
    n = region.volume
    counts: Counter[Key] = Counter()
    palindromic: dict[Key, list[bytes]] = {}
    is_palindrome: dict[Key, bool] = {}
    classes = 0
    for keys, raw in _paths_in_unit(region, prefix):
        classes += len(keys)
        counts.update(keys)
        for i, key in enumerate(keys):
            pal = is_palindrome.get(key)
            if pal is None:
                pal = is_palindrome[key] = key == _reverse_key(key, n)
            if pal:
                palindromic.setdefault(key, []).append(raw[i * n : (i + 1) * n])
    return classes, dict(counts), palindromic


def _read_checkpoint(path: Path, header: dict[str, object]) -> dict[int, UnitResult]:
    """Finished units from a checkpoint file written by an earlier run of the same census."""
    done: dict[int, UnitResult] = {}
    if not path.exists():
        return done
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        first = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        first = None
    if first != header:
        raise InputError(
            f"checkpoint {str(path)!r} belongs to another census "
            f"(it is for {first.get('target') if isinstance(first, dict) else 'nothing'}); "
            "use another file"
        )
    for line in lines[1:]:
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            break  # a line cut short when the run stopped: that unit is done again
        counts = {int(k): v for k, v in row["counts"].items()}
        pal = {int(k): [bytes.fromhex(h) for h in v] for k, v in row["pal"].items()}
        done[row["unit"]] = (row["classes"], counts, pal)
    return done


def census(
    region: Region,
    progress: Callable[[int, int, int], None] | None = None,
    workers: int | None = None,
    checkpoint: str | Path | None = None,
) -> Census:
    """Every design that folds into ``region`` (at most 64 cells), with its solutions.

    Hamiltonian paths are enumerated once per class under the region's symmetries (each
    class stands for |G| directed paths), grouped by the design they fold, and a design and
    its reverse are merged. A palindromic design's classes pair up under reversal, except
    those a symmetry maps onto their own reverse.

    The work units run on ``workers`` processes (default: all cores for regions of 24 cells
    or more). With ``checkpoint``, each finished unit is appended to that file, and a later
    run with the same file skips them: Ctrl-C loses only the units in progress, and the
    census is then marked incomplete.
    """
    from snakecube.search.parallel import cores

    if region.volume > 64:
        raise InputError(f"a census needs at most 64 cells; the {region.describe()} has more")
    n = region.volume
    if n < 2:
        raise InputError("a census needs at least 2 cells")
    n_workers = (cores() if n >= 24 else 1) if workers is None else max(1, workers)
    # The split depends on the region only, so a checkpoint resumes on any number of cores.
    units = path_units(region, min_units=64 if n >= 24 else 1)
    header = {"census": 1, "target": region.describe(), "cells": [list(c) for c in region.cells],
              "units": len(units)}  # fmt: skip
    path = None if checkpoint is None else Path(checkpoint)
    done = {} if path is None else _read_checkpoint(path, header)
    log = None
    if path is not None:
        try:
            log = path.open("a", encoding="utf-8")
            if not done:
                log.seek(0)
                log.truncate()
                log.write(json.dumps(header) + "\n")
        except OSError as err:
            raise InputError(f"cannot write checkpoint {str(path)!r}: {err.strerror}") from None
    todo = [i for i in range(len(units)) if i not in done]
    pool = None
    _FORKED["region"] = region
    if n_workers > 1 and len(todo) > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(n_workers)
        results = pool.imap_unordered(_census_one, [(i, units[i]) for i in todo], chunksize=4)
    else:
        results = map(_census_one, [(i, units[i]) for i in todo])
    complete = True
    try:
        for i, result in results:
            done[i] = result
            if log is not None:
                classes, counts, pal = result
                row = {"unit": i, "classes": classes, "counts": counts,
                       "pal": {k: [b.hex() for b in v] for k, v in pal.items()}}  # fmt: skip
                log.write(json.dumps(row) + "\n")
                log.flush()
            if progress is not None:
                progress(len(done), len(units), sum(r[0] for r in done.values()))
    except KeyboardInterrupt:
        complete = False
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        if log is not None:
            log.close()
    complete = complete and len(done) == len(units)
    return _tally(region, done.values(), complete)


_FORKED: dict[str, Region] = {}  # the region, inherited by forked workers (not pickled)


def _census_one(job: tuple[int, tuple[Cell, ...]]) -> tuple[int, UnitResult]:
    i, prefix = job
    return i, _census_unit((_FORKED["region"], prefix))


def _tally(region: Region, results: Iterable[UnitResult], complete: bool) -> Census:
    """Merge unit results into designs with their solution counts."""
    n = region.volume
    counts: Counter[Key] = Counter()
    palindromic: dict[Key, list[bytes]] = {}
    classes = 0
    for c, unit_counts, pal in results:
        classes += c
        counts.update(unit_counts)
        for key, cells in pal.items():
            palindromic.setdefault(key, []).extend(cells)
    rows = []
    group = region.symmetries
    for key, c in counts.items():
        rev = _reverse_key(key, n)
        if rev < key:
            continue  # counted with its reverse
        bits = "0" + "".join("1" if key >> i & 1 else "0" for i in range(n - 2)) + "0"
        snake = Snake.from_bits(bits)
        if rev == key:
            fixed = 0
            for cells in palindromic[key]:
                forward = min(tuple(g[c] for c in cells) for g in group)
                backward = min(tuple(g[c] for c in reversed(cells)) for g in group)
                fixed += forward == backward
            rows.append(DesignCount(snake, (c + fixed) // 2, True))
        else:
            rows.append(DesignCount(snake, c, False))
    rows.sort(key=lambda d: (-d.solutions, d.snake.turns()))
    return Census(region, classes * len(group), tuple(rows), complete)
