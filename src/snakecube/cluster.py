"""Work units on an existing Dask cluster (``dask.distributed``): the census and exhaustive
``solve`` counts.

The census's units and reduce tasks are plain functions of an index that write their result
to the store (atomically: write, then rename) and return a small summary. Here each one is a
Dask task; the store must be a directory every worker can reach. Dask reruns the tasks of a
worker that dies (its half-written files are temporary names, never read), and a client that
dies loses nothing finished: the same command with the same store resumes from it.

A ``solve`` unit (one part of the plan's search tree) returns its placements and nodes; the
caller sorts them by unit, so the answer is the same as in one process.

``distributed`` is imported only here, and only when a scheduler address is given, so one
machine needs no Dask (install ``snakecube[cluster]`` to use it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from snakecube.errors import InputError

CONNECT_SECONDS = 10
RETRIES = 3  # reruns of a task whose worker died, on top of Dask's own


def connect(address: str) -> Any:
    """A ``distributed.Client`` for the scheduler at ``address``; InputError if it cannot be
    reached or Dask is not installed."""
    try:
        from distributed import Client
    except ImportError:
        raise InputError(
            "--scheduler needs dask.distributed: pip install 'snakecube[cluster]'"
        ) from None
    if not isinstance(address, str) or not address.strip():
        raise InputError("scheduler: give an address such as tcp://10.0.0.1:8786")
    try:
        return Client(address.strip(), timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        raise InputError(f"cannot reach the Dask scheduler {address!r}: {err}") from None


def _run_job(job: Callable[[int], Iterator[Any]], i: int) -> list[Any]:
    return list(job(i))


def map_tasks(
    client: Any, job: Callable[[int], Iterator[Any]], todo: list[int], name: str
) -> Iterator[Any]:
    """Run ``job(i)`` for each ``i`` of ``todo`` as Dask tasks; yield their values as the
    tasks finish. Ctrl-C cancels the tasks still waiting (finished ones stay in the store)."""
    from distributed import as_completed

    if not todo:
        return
    futures = [
        client.submit(_run_job, job, i, key=f"{name}-{i}", pure=False, retries=RETRIES)
        for i in todo
    ]
    try:
        for future in as_completed(futures, loop=client.loop):
            yield from future.result()
    finally:
        client.cancel([f for f in futures if not f.done()])
