"""The answer of a census: every design of a region with its distinct solutions, read from
its store partition by partition (``Census.rows``), with the totals in every convention the
census prints."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Self

import numpy as np

from snakecube import limits, stop
from snakecube.census.store import Store
from snakecube.designs import rate
from snakecube.errors import InputError
from snakecube.output import write_file
from snakecube.shape import Region
from snakecube.snake import Snake
from snakecube.stop import StopReason

CHECK_EVERY = 4096  # rows written between looks at the clock (stop.on_time)

Progress = Callable[[int, int, int], None]  # (steps done, steps in all, path classes so far)


@dataclass(frozen=True, slots=True)
class DesignCount:
    """One design of a census: the snake, its distinct solutions (up to the region's
    symmetries and reversal), and whether it reads the same from both ends."""

    snake: Snake
    distinct: int
    palindrome: bool


def snake_of_key(key: int, cells: int) -> Snake:
    """The design whose inner cube i (1..cells-2) is a corner when bit i-1 of ``key`` is set."""
    bits = "".join("1" if key >> i & 1 else "0" for i in range(cells - 2))
    return Snake.from_bits("0" + bits + "0")


def turns_order(key: int, cells: int) -> int:
    """Sorting by this (descending) sorts designs by their turn strings (ascending)."""
    return int(f"{key:0{max(cells - 2, 1)}b}"[::-1], 2) if cells > 2 else 0


@dataclass(frozen=True, slots=True)
class Tally:
    """A census's totals, as its runner finds them (``Census`` adds the region and the
    store). Stopped (``complete`` False) in the unit phase, only ``paths`` (a lower bound) is
    known and the design statistics are None; stopped while reducing, they cover the
    partitions reduced so far and are lower bounds."""

    paths: int  # directed Hamiltonian paths
    design_count: int | None
    solution_count: int | None  # the sum of every design's distinct solutions
    unique: int | None  # designs with exactly one solution
    max_solutions: int | None
    palindromes: int | None
    histogram: dict[int, int]  # number of designs for each number of solutions
    top: tuple[DesignCount, ...]  # the designs with the most solutions, then by turn string
    complete: bool
    stop_reason: StopReason | None
    units: tuple[int, int]  # (finished, in all)
    partitions: tuple[int, int]


class Kept:
    """What a census's answer does with its store: ``with census(...) as c:`` (or
    ``c.close()``) removes a temporary one at once; it is removed with the object anyway."""

    __slots__ = ()
    _cleanup: Any  # a TemporaryDirectory, or None for a store the caller named

    def close(self) -> None:
        """Remove a temporary store now (it is removed with the object anyway)."""
        if self._cleanup is not None:
            self._cleanup.cleanup()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True, kw_only=True)
class Census(Tally, Kept):
    """Every snake design that folds into a region, with its number of solutions: the
    ``Tally`` of its run (see there for a stopped one), and where it is kept. ``store`` is
    where the work is kept (None for a temporary store, removed with this object).
    """

    region: Region
    store: Path | None
    _store: Store = field(repr=False, compare=False)
    max_segment: int | None = None  # only designs with no longer segment were counted
    _cleanup: Any = field(default=None, repr=False, compare=False)

    @classmethod
    def of(
        cls,
        tally: Tally,
        region: Region,
        store: Path | None,
        kept: Store,
        max_segment: int | None = None,
    ) -> Census:
        """The census whose run found ``tally``, kept in ``kept`` (at ``store``)."""
        found = {f.name: getattr(tally, f.name) for f in fields(Tally)}
        return cls(**found, region=region, store=store, _store=kept, max_segment=max_segment)

    def rows(self) -> Iterator[DesignCount]:
        """Every design, partition by partition, each partition in key order."""
        if not self.complete:
            raise InputError("the census is incomplete: rerun it with the same store to finish")
        n = self.region.volume
        for p in self._store.filled_parts():
            keys, sols = self._store.read_part(p)
            for key, sol in zip(keys.tolist(), sols.tolist(), strict=True):
                snake = snake_of_key(key, n)
                yield DesignCount(snake, sol, snake.is_palindrome)

    def sample(self, size: int, seed: int = 0) -> list[DesignCount]:
        """About ``size`` designs drawn uniformly at random (each kept with probability
        size / designs), partition by partition in key order; the same for the same seed."""

        if not self.complete:
            raise InputError("the census is incomplete: rerun it with the same store to finish")
        size = limits.whole(size, "the sample size", 0)
        rng = np.random.default_rng(seed)
        share = size / max(1, self.design_count or 0)
        picked = []
        for p in self._store.filled_parts():
            keys, sols = self._store.read_part(p)
            keep = rng.random(len(keys)) < share
            for key, sol in zip(keys[keep].tolist(), sols[keep].tolist(), strict=True):
                snake = snake_of_key(key, self.region.volume)
                picked.append(DesignCount(snake, sol, snake.is_palindrome))
        return picked

    @property
    def designs(self) -> tuple[DesignCount, ...]:
        """Every design, most solutions first, then by turn string (held in memory: for
        censuses of up to a few million designs; use :meth:`rows` beyond)."""
        if (self.design_count or 0) > 5_000_000:
            raise InputError(f"{self.design_count} designs are too many to hold; use rows()")
        return tuple(sorted(self.rows(), key=lambda d: (-d.distinct, d.snake.turns())))

    def write_csv(self, path: str | Path, difficulty: bool = False) -> None:
        """Write one row per design (turns, segment lengths, solutions, palindrome, and with
        ``difficulty`` each design's score) to ``path``, atomically."""

        def write(tmp: Path) -> None:
            with tmp.open("w", newline="", encoding="utf-8") as f:
                f.write(
                    "turns,segment_lengths,solutions,palindrome"
                    + (",difficulty" if difficulty else "")
                    + "\n"
                )
                for k, d in enumerate(self.rows()):
                    if difficulty or k % CHECK_EVERY == 0:  # a rating is a search
                        stop.on_time()  # a time limit (stop.within) ends the writing
                    extra = ""
                    if difficulty:
                        r = rate(d.snake, self.region)
                        if not r.complete:
                            raise KeyboardInterrupt
                        extra = "," + ("" if r.difficulty is None else f"{r.difficulty:.2f}")
                    lengths = " ".join(map(str, d.snake.lengths))
                    f.write(
                        f"{d.snake.turns()},{lengths},{d.distinct},{int(d.palindrome)}{extra}\n"
                    )

        write_file(path, write)

    def to_dict(self, rows: int = 10) -> dict[str, object]:
        """A JSON-ready summary; ``rows`` designs with the most solutions are listed."""
        limited = {} if self.max_segment is None else {"max_segment": self.max_segment}
        return {
            "target": self.region.describe(),
            **limited,
            "paths": self.paths,
            "designs": self.design_count,
            "solutions": self.solution_count,
            "unique": self.unique,
            "max_solutions": self.max_solutions,
            "palindromes": self.palindromes,
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "top": [
                {
                    "turns": d.snake.turns(),
                    "segment_lengths": list(d.snake.lengths),
                    "solutions": d.distinct,
                }
                for d in self.top[:rows]
            ],
            "complete": self.complete,
            "stop_reason": self.stop_reason,
            "units": list(self.units),
            "partitions": list(self.partitions),
            "store": None if self.store is None else str(self.store),
        }
