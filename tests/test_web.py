"""The web server without a browser: one-line errors, limits before work, busy past the
queue, a disconnected client's search ended within a second; the static site's contents;
the browser's solving path imports the standard library only."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import bruteforce
import snakecube as sc
from conftest import FLOPPY_125, HANG, free_port, pure_python, serving

pytest.importorskip("starlette", reason="the web extra is not installed")
httpx = pytest.importorskip("httpx2", reason="httpx2 is not installed")

from starlette.testclient import TestClient  # noqa: E402

from snakecube.web import answers, site  # noqa: E402
from snakecube.web.jobs import pid_alive  # noqa: E402
from snakecube.web.server import create_app  # noqa: E402

LONG_5 = "-".join(["2"] * 124)


@pytest.fixture(scope="module")
def client():
    app = create_app(workers=1, queue=1, max_seconds=20)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


def _one_line(r: httpx.Response, status: int) -> str:
    assert r.status_code == status, r.text
    line = r.json()["error"]
    assert "\n" not in line and "Traceback" not in line and line
    return str(line)


def test_page_and_assets(client):
    assert "snakecube" in client.get("/").text
    assert client.get("/page.js").status_code == 200
    assert "SNAKECUBE_CONFIG" in client.get("/").text  # inline: no config.js to load
    assert client.get("/config.js").status_code == 404
    assert client.get("/plotly.min.js").status_code == 404  # the page draws SVG itself
    assert client.get("/../../etc/passwd").status_code == 404
    assert _one_line(client.get("/pyproject.toml"), 404)
    assert any(e["name"] == "king" for e in client.get("/api/catalog").json())


def test_bad_input_is_one_line(client):
    line = _one_line(client.post("/api/solve", json={"snake": "3-3-x"}), 400)
    assert "'3-3-x'" in line
    line = _one_line(client.post("/api/solve", json={"snake": "standard", "target": "#x"}), 400)
    assert line == "region: line 1, column 2: 'x' is not '#' (cell) or '.' (empty)"
    sent_as_json = {"content-type": "application/json"}
    assert _one_line(client.post("/api/solve", content=b"{not json", headers=sent_as_json), 400)
    assert _one_line(client.post("/api/solve", json=["a"]), 400)
    assert _one_line(client.post("/api/solve", json={"snake": 5}), 400)
    cells = [[0, 0, 0]] * 27
    assert "not a solution" in _one_line(
        client.post("/api/details", json={"snake": "standard", "cells": cells}), 400
    )
    assert _one_line(
        client.post("/api/download", json={"snake": "standard", "cells": cells, "form": "exe"}), 400
    )
    assert client.post("/api/solve", json={"snake": "standard"}).status_code == 200  # still up


def test_a_cube_count_that_does_not_fit_is_bad_input_with_the_designs_that_do(client):
    line = _one_line(client.post("/api/solve", json={"snake": "standard", "target": "2x2x2"}), 400)
    assert line == (
        "the snake has 27 cubes but the 2x2x2 box has 8 cells; a snake needs one cube for each cell"
    )
    typo = client.post("/api/solve", json={"snake": "3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-2"})
    assert typo.status_code == 400 and "26 cubes" in typo.json()["error"]
    assert "3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-3" in [n["text"] for n in typo.json()["nearby"]]


def test_too_big_refused(client):
    line = _one_line(client.post("/api/solve", json={"snake": "2", "target": "100x100x100"}), 400)
    assert "1000000 cells" in line
    assert _one_line(client.post("/api/solve", json={"snake": "2-" * 20_000}), 400)
    big = "#" * 2_000_000
    assert _one_line(client.post("/api/solve", json={"snake": "standard", "target": big}), 413)


def test_solve_stream_details_plan(client):
    r = client.post("/api/solve", json={"snake": "standard"})
    events = [b.split("\n") for b in r.text.replace("\r\n", "\n").split("\n\n") if b.strip()]
    result = next(json.loads(b[1][5:]) for b in events if b[0] == "event: result")
    assert (result["placements"], result["distinct"], result["complete"]) == (48, 1, True)
    body = {"snake": "standard", "cells": result["solutions"][0]["cells"]}
    d = client.post("/api/details", json=body).json()
    assert len(d["viewer"]["steps"]) == 17 and len(d["words"]["steps"]) == 17
    assert d["words"]["steps"][0]["words"].startswith("Step 1:")
    p = client.post("/api/plan", json=body).json()
    assert len(p["states"]) == len(p["turns"]) + 1 and p["quarter_turns"] > 0
    typo = client.post("/api/solve", json={"snake": "3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-2"})
    assert "3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-3" in typo.text and "26 cubes" in typo.text


def _result(r: httpx.Response) -> dict:
    events = [b.split("\n") for b in r.text.replace("\r\n", "\n").split("\n\n") if b.strip()]
    return next(json.loads(b[1][5:]) for b in events if b[0] == "event: result")


@pytest.mark.heavy  # the first-solution search of 125 cells needs the kernel
def test_a_big_target_asked_first_if_big_is_answered_with_its_first_solution(client):
    """The page asks with first_if_big, draws the first solution, then asks for the count."""
    found = _result(client.post("/api/solve", json={"snake": FLOPPY_125, "first_if_big": True}))
    assert (found["complete"], found["stop_reason"], len(found["solutions"])) == (False, "limit", 1)
    cells = [tuple(c) for c in found["solutions"][0]["cells"]]
    assert sorted(cells) == bruteforce.box_cells(5, 5, 5)
    assert all(
        sum(abs(p - q) for p, q in zip(a, b, strict=True)) == 1
        for a, b in itertools.pairwise(cells)
    )
    want = sc.Snake.parse(FLOPPY_125).lengths
    assert bruteforce.lengths_of(tuple(cells)) in (want, want[::-1])
    # the fold plan's sheet would draw 3 x 125 cubes a corner: not offered, said at once
    corners = len(want) - 1
    assert 3 * 125 * corners > 25_000
    assert list(found["too_big"]) == ["plan.pdf"], found["too_big"]
    assert f"would draw {3 * 125 * corners:,} cubes" in found["too_big"]["plan.pdf"]
    line = _one_line(client.post("/api/solve", json={"snake": "king", "first_if_big": "yes"}), 400)
    assert line == "first_if_big must be true or false"
    # at most SMALL_ON_SERVER cells, the same request is counted whole: the king's 4
    king = _result(client.post("/api/solve", json={"snake": "king", "first_if_big": True}))
    assert (king["complete"], king["distinct"]) == (True, 4)
    assert king["too_big"] == {}  # every download of the king is drawn


@pytest.mark.heavy  # the first-solution search of 125 cells needs the kernel
def test_a_download_too_big_to_draw_names_the_command_that_makes_it():
    from snakecube.errors import InputError
    from snakecube.web import downloads

    found = sc.solve(FLOPPY_125, limit=1, seconds=60).solutions[0]
    cells = [list(c) for c in found.cells]
    with pytest.raises(InputError, match=r"snakecube fold SNAKE --out plan\.pdf on your machine"):
        downloads.render(FLOPPY_125, "", cells, "plan.pdf")


@pytest.fixture(scope="module")
def server():
    port = free_port()
    with serving(port, "--workers", "2", "--queue", "2", "--max-seconds", "20") as proc:
        yield f"http://127.0.0.1:{port}"
    assert proc.returncode == 0


def test_disconnect_frees_worker_busy_past_queue(server):
    with httpx.Client(base_url=server, timeout=10) as c:
        before = set(c.get("/api/status").json()["pids"])
        streams = []
        for _ in range(4):  # 2 running, 2 waiting
            s = c.stream("POST", "/api/solve", json={"snake": LONG_5})
            r = s.__enter__()
            assert r.status_code == 200
            streams.append((s, r))
        time.sleep(0.5)
        busy = c.post("/api/solve", json={"snake": "standard"})
        assert _one_line(busy, 503).startswith("busy")
        for s, _ in streams:
            s.__exit__(None, None, None)
        closed = time.monotonic()
        while c.get("/api/status").json()["busy"] and time.monotonic() - closed < HANG:
            time.sleep(0.05)
        assert c.get("/api/status").json()["busy"] == 0
        assert not any(pid_alive(p) for p in before - set(c.get("/api/status").json()["pids"]))
        r = c.post("/api/solve", json={"snake": "standard"})  # the server stays up
        assert r.status_code == 200 and '"distinct": 1' in r.text


def test_solve_does_not_import_starlette():
    code = "import sys; from snakecube.cli import main; main(['solve', 'standard', '--quiet'])\n"
    code += "print(sorted(m for m in sys.modules if m.split('.')[0] in "
    code += "('starlette', 'uvicorn', 'sse_starlette', 'snakecube.web')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().endswith("[]")


def test_browser_path_is_standard_library_only():
    """What Pyodide runs: the answers module on the pure engine, with numpy, plotly,
    matplotlib and multiprocessing made unimportable."""
    code = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('numpy', 'plotly', 'matplotlib', 'multiprocessing',
                                  'concurrent', 'tqdm', 'ctypes'):
            raise ImportError('blocked ' + name)
sys.meta_path.insert(0, Block())
from snakecube.web import answers
r = answers.solve_answer('standard', strategy='depth-first')
d = answers.details('standard', '', r['solutions'][0]['cells'])
p = answers.plan_answer('standard', '', r['solutions'][0]['cells'])
n = answers.solve_answer('3-3-3-3-2-2-2-3-3-2-2-3-2-3-2-2-2')
print(r['distinct'], r['engine'], len(d['viewer']['steps']), len(p['states']) > 1, len(n['nearby']))
"""
    assert pure_python(code).split() == ["1", "reference", "17", "True", "1"]


def test_site_build(tmp_path):
    zipped = site.package_zip()
    assert zipped == site.package_zip()  # deterministic
    import io
    import zipfile

    names = zipfile.ZipFile(io.BytesIO(zipped)).namelist()
    assert "snakecube/web/answers.py" in names and not any(n.endswith(".so") for n in names)
    if site.node_modules() is None:
        with pytest.raises(answers.InputError, match="npm ci"):
            site.build(tmp_path / "out", None)
        return
    out = site.build(tmp_path / "out")
    for name in (
        "index.html",
        "pyworker.js",
        "pyodide/pyodide.mjs",
        "pyodide/python_stdlib.zip",
        "snakecube.zip",
        "config.js",
    ):
        assert (Path(out) / name).is_file(), name
    text = "".join((Path(out) / n).read_text() for n in ("index.html", "page.js", "pyworker.js"))
    urls = set(re.findall(r"https?://[^\s\"'`]*", text))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls  # the SVG namespace is not fetched


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_the_site_is_readable_as_the_umask_says(tmp_path, umask):
    """The folder was made by mkdtemp (0700) and moved into place, whatever the umask."""
    modules = tmp_path / "node_modules"  # the smallest pyodide package the builder accepts
    (modules / "pyodide").mkdir(parents=True)
    (modules / "pyodide" / "pyodide.js").write_text("// pyodide")
    old = os.umask(umask)
    try:
        out = site.build(tmp_path / "site", modules)
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == 0o777 & ~umask
    assert (out / "index.html").stat().st_mode & 0o777 == 0o666 & ~umask


@pytest.mark.parametrize(
    ("said", "memory"),
    [
        (b"OpenBLAS : Memory allocation still failed after 10 retries, giving up.\n", True),
        (b"terminate called after throwing an instance of 'std::bad_alloc'\n", True),
        (b"Fatal Python error: Segmentation fault\n", False),
        (b"", False),
    ],
)
def test_a_worker_that_ends_at_the_memory_cap_is_told_from_a_crash(tmp_path, caplog, said, memory):
    """A library that meets a worker's memory cap may end the process instead of raising
    MemoryError (OpenBLAS: exit 1). The worker's stderr goes to its folder (its last words),
    and the job's answer is the memory message when they speak of memory (a memory restart),
    else "ended unexpectedly" (a crash, whose last line the server logs)."""
    from types import SimpleNamespace

    from snakecube.errors import InputError
    from snakecube.web import jobs

    code = (
        "import os, sys; from snakecube.web import jobs; "
        f"jobs._last_words(sys.argv[1]); os.write(2, {said!r}); os._exit(1)"
    )
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True)
    assert done.returncode == 1 and done.stderr == b""  # said into the file, not the log
    answer = jobs.died_of(str(tmp_path), 160 << 20)
    if memory:
        assert isinstance(answer, InputError) and "160 MB" in str(answer)
    else:
        assert not isinstance(answer, InputError) and "ended unexpectedly" in str(answer)
    replaced = jobs.Pool(1, 1, memory=160)._died(SimpleNamespace(folder=str(tmp_path)))  # type: ignore[arg-type]
    assert replaced.reason == ("memory" if memory else "crashed")
    logged = [r.getMessage() for r in caplog.records if r.name == "uvicorn.error"]
    last = said.decode().strip() or "no word"
    assert logged == ([] if memory else [f"a search process ended in its job: {last}"])
