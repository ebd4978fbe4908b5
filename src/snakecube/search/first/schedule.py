"""Run first-solution members side by side and accept their runs in one fixed order.

Every run has a place on one scale of work (``Member.place``); runs are accepted in that
order, on a tie in the order of ``MEMBERS`` (restarts, SAT, depth first, beams), whatever the
number of workers and however fast each one runs, so the answer depends only on the inputs
and the seed. With several workers each persistent member (SAT, depth first) has one to
itself, and the numbered runs (restarts, beams) share the rest in the order they are
accepted; with too few workers for that, everything runs in this process, in turn.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from functools import partial
from itertools import chain, count

from snakecube import pool
from snakecube.search import members
from snakecube.search.first.member import Member, Run

MEMBERS = members.NAMES  # the order of acceptance on a tie (the registry's)
Key = tuple[int, int | None]  # (member, run number; None: the persistent member's stream)


def order(members: Sequence[Member]) -> Iterator[tuple[int, int]]:
    """The runs in the order they are accepted: (member's index, its run number)."""
    runs = [0] * len(members)
    while True:
        i = min(range(len(members)), key=lambda j: members[j].place(runs[j]))  # first on a tie
        yield i, runs[i]
        runs[i] += 1


def search(
    members: Sequence[Member], workers: int = 1, stop: Callable[[int], bool] | None = None
) -> Generator[Run | None, None, None]:
    """The members' runs, each one as it is accepted, and ``None`` now and then while
    workers run, until a member settles the search (a solution, or proof that none exists).
    ``stop(work)`` is asked between runs (``work``: the accepted runs' nodes); True ends it."""
    if not members:
        raise ValueError(f"no portfolio members; expected some of {MEMBERS}")
    members = sorted(members, key=lambda m: MEMBERS.index(m.name))
    work = 0

    def accept(i: int, run: Run) -> bool:
        nonlocal work
        work += run.nodes
        return members[i].settles(run)

    def stopped() -> bool:
        return bool(stop and stop(work))

    persistent = [i for i, m in enumerate(members) if m.persistent]
    numbered = len(members) - len(persistent)
    try:
        if workers <= 1 or (numbered and workers <= len(persistent)):
            yield from _in_process(members, accept, stopped)
        else:
            yield from _in_workers(members, workers, accept, stopped)
    finally:
        for m in members:
            m.close()


def _in_process(
    members: Sequence[Member], accept: Callable[[int, Run], bool], stopped: Callable[[], bool]
) -> Generator[Run | None, None, None]:
    """``search`` with one worker: the members' runs in turn, in this process."""
    for i, n in order(members):
        if stopped():
            return
        run = members[i].run(n, stopped)
        if run is None:  # stopped during a long run
            return
        yield run
        if accept(i, run):
            return
        yield None


def _in_workers(
    members: Sequence[Member],
    workers: int,
    accept: Callable[[int, Run], bool],
    stopped: Callable[[], bool],
) -> Generator[Run | None, None, None]:
    """``search`` with worker processes (``snakecube.pool``), accepting in the same order."""

    job = partial(_job, members)
    persistent: list[Key] = [(i, None) for i, m in enumerate(members) if m.persistent]
    # The numbered runs go to the workers in the order they are accepted.
    numbered = ((i, n) for i, n in order(members) if not members[i].persistent)
    items: Iterator[Key] = chain(persistent, numbered if len(persistent) < len(members) else ())
    done: dict[tuple[int, int], Run] = {}
    streams: dict[int, deque[Run]] = {i: deque() for i, _ in persistent}
    runs = order(members)
    at, n = next(runs)
    # The persistent jobs run until decided: hand out no job ahead of a free worker.
    events = pool.run(job, items, workers, lookahead=workers if persistent else None)

    def ready() -> bool:
        return bool(streams[at]) if members[at].persistent else (at, n) in done

    try:
        for event in events:
            if event is not None and not event.done:
                (i, k), value = event.value
                if k is None:
                    streams[i].append(value)
                else:
                    done[i, k] = value
            while ready():  # accept in the fixed order: deterministic
                got = streams[at].popleft() if members[at].persistent else done.pop((at, n))
                yield got
                if accept(at, got):
                    return
                at, n = next(runs)
            yield None
            if stopped():
                return
    finally:
        events.close()


def _job(members: Sequence[Member], key: Key) -> Iterator[tuple[Key, Run]]:
    """A worker's job: one numbered run, or a persistent member's slices until decided."""
    i, n = key
    member = members[i]
    if n is not None:
        run = member.run(n)
        assert run is not None  # no stop asked: it runs to its end
        yield key, run
        return
    try:
        for k in count():
            got = member.run(k)
            assert got is not None
            yield key, got
            if member.settles(got):
                return
    finally:
        member.close()
