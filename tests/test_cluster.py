"""The census on a real Dask cluster: a scheduler and two worker processes on 127.0.0.1,
started with the ``dask`` command. Same totals as the local engine, a worker killed mid-run
survived, a store from another box refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import stop_groups

pytest.importorskip("distributed", reason="the cluster extra (dask.distributed) is not installed")

pytestmark = pytest.mark.slow

DASK = Path(sys.executable).parent / "dask"
SNAKECUBE = [sys.executable, "-m", "snakecube"]


def _start(args: list[str], log: Path) -> subprocess.Popen:
    with log.open("w") as f:
        return subprocess.Popen(
            [str(DASK), *args, "--no-dashboard", "--host", "127.0.0.1"],
            stdout=f,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    if not DASK.exists():
        pytest.skip("the dask command is not installed beside this Python")
    root = tmp_path_factory.mktemp("cluster")
    info = root / "scheduler.json"
    procs = [_start(["scheduler", "--port", "0", "--scheduler-file", str(info)], root / "s.log")]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        workers = [
            _start(
                ["worker", "--scheduler-file", str(info), "--nworkers", "1", "--nthreads", "1"],
                root / f"w{k}.log",
            )
            for k in (1, 2)
        ]
        procs += workers
        from distributed import Client

        with Client(scheduler_file=str(info), timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield {"address": json.loads(info.read_text())["address"], "workers": workers}
    finally:
        stop_groups(procs)


def _json(*argv: str) -> dict:
    """Run ``snakecube ARGV --json --quiet``; its JSON output (exit 0 required)."""
    out = subprocess.run(
        [*SNAKECUBE, *argv, "--json", "--quiet"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _designs(*args: str) -> dict:
    data = _json("designs", *args, "--top", "3")
    data.pop("store", None)
    return data


def test_a_census_on_the_cluster_equals_the_local_one(cluster, tmp_path):
    on_cluster = _designs(
        "--box", "2x3x4", "--scheduler", cluster["address"], "--store", str(tmp_path / "s")
    )
    assert on_cluster == _designs("--box", "2x3x4")
    assert on_cluster["complete"] and on_cluster["designs"] == 13901  # docs/census.md


def test_a_census_of_several_targets_on_the_cluster_equals_the_local_one(cluster, tmp_path):
    """The targets' censuses, their intersection and a search in one more target, as tasks."""
    two = ("--box", "2x3x4", "--box", "4x6x1")
    on_cluster = _designs(*two, "--scheduler", cluster["address"], "--store", str(tmp_path / "a"))
    local = _designs(*two)
    for data in (on_cluster, local):
        for one in data["alone"]:
            one.pop("store")
    assert on_cluster == local and on_cluster["designs"] == 116
    searched = ("--box", "4x6x1", "--fold-into", "2x3x4")
    far = _designs(*searched, "--scheduler", cluster["address"], "--store", str(tmp_path / "b"))
    near = _designs(*searched)
    for data in (far, near):
        data["alone"][0].pop("store")
        for key in ("core_seconds", "decided_per_core_second"):
            data["searched"].pop(key)
    assert far == near and far["designs"] == 116 and far["exact"]


def test_a_worker_killed_mid_run_is_survived(cluster, tmp_path):
    store = tmp_path / "s"
    run = subprocess.Popen(
        [
            *SNAKECUBE,
            "designs",
            "--box",
            "2x3x5",
            "--scheduler",
            cluster["address"],
            "--store",
            str(store),
            "--json",
            "--quiet",
            "--top",
            "3",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    units = store / "units"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(units.glob("u*.bin"))) < 3:
        time.sleep(0.05)
    assert run.poll() is None, "the census ended before a worker could be killed"
    victim = cluster["workers"][0]
    os.killpg(victim.pid, signal.SIGKILL)  # the nanny and its worker, mid-unit
    out, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    got = json.loads(out)
    got.pop("store", None)
    assert got == _designs("--box", "2x3x5")  # exact totals all the same
    assert got["paths"] == 18088808


def test_a_store_from_another_box_is_refused(cluster, tmp_path):
    store = str(tmp_path / "s")
    _designs("--box", "2x2x3", "--store", store)
    out = subprocess.run(
        [
            *SNAKECUBE,
            "designs",
            "--box",
            "2x3x4",
            "--scheduler",
            cluster["address"],
            "--store",
            store,
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "belongs to another census" in out.stderr


def test_the_cluster_needs_a_store_and_a_reachable_scheduler():
    for args, words in (
        (["--scheduler", "tcp://127.0.0.1:9"], "needs a store"),
        (["--scheduler", "tcp://127.0.0.1:9", "--store", "/tmp/snakecube-none"], "cannot reach"),
    ):
        out = subprocess.run(
            [*SNAKECUBE, "designs", "--box", "2x2x3", *args, "--quiet"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert out.returncode == 2 and words in out.stderr, out.stderr
        assert out.stderr.count("\n") == 1


def _solve(*args: str) -> dict:
    data = _json("solve", *args)
    for key in ("nodes", "seconds", "engine", "workers", "search"):
        data.pop(key, None)
    return data


def test_an_exhaustive_count_on_the_cluster_equals_the_local_one(cluster):
    # the king (46 segments): every solution, in the same order, as in one process
    on_cluster = _solve("king", "--scheduler", cluster["address"])
    local = _solve("king", "--workers", "1")
    assert on_cluster == local
    assert on_cluster["complete"] and on_cluster["placements"] == 192
    assert len(on_cluster["solutions"]) == 4


def test_the_restarts_do_not_run_on_a_cluster(cluster):
    out = subprocess.run(
        [
            *SNAKECUBE,
            "solve",
            "king",
            "--first",
            "--strategy",
            "restarts",
            "--scheduler",
            cluster["address"],
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 2 and "--scheduler runs depth-first" in out.stderr
    assert "Traceback" not in out.stderr
