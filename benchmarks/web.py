"""The web page's speed, measured in Chromium (Playwright) and with a bounded load test on
127.0.0.1; writes benchmarks/results-web.md.

    .venv/bin/python benchmarks/web.py          (needs chromium; `npm ci` for the static part)
"""

from __future__ import annotations

import concurrent.futures
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

from snakecube import catalog
from snakecube.web import site

ARGS = ["--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader", "--use-angle=swiftshader"]
OUT = Path(__file__).with_name("results-web.md")


def port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait(url: str) -> None:
    for _ in range(400):
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.05)


def measure(browser, base: str, first: bool) -> dict[str, float]:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    t = time.monotonic()
    page.goto(base)
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=120_000)
    out = {"ready": time.monotonic() - t}
    names = [e.name for e in catalog.ENTRIES if e.box == (3, 3, 3)]
    worst = 0.0
    for name in names:
        page.fill("#snake", name)
        t = time.monotonic()
        page.click("#solve")
        page.wait_for_function("document.body.dataset.state === 'done'", timeout=60_000)
        worst = max(worst, time.monotonic() - t)
    out["catalog_worst"] = worst
    page.fill("#snake", "king")
    t = time.monotonic()
    page.click("#solve")
    if first:
        page.wait_for_function("document.querySelector('#viewer .main-svg') && "
                               "document.getElementById('right').hidden === false", timeout=60_000)  # fmt: skip
        out["king_first"] = time.monotonic() - t
    page.wait_for_function("document.body.dataset.state === 'done'", timeout=180_000)
    out["king"] = time.monotonic() - t
    page.close()
    return out


def load_test(base: str, n: int = 50) -> dict[str, float]:
    def one(_: int) -> int:
        try:
            return httpx.post(base + "api/solve", json={"snake": "king"}, timeout=60).status_code
        except httpx.HTTPError:
            return -1

    t = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(n) as ex:
        codes = list(ex.map(one, range(n)))
    return {"answered": codes.count(200), "busy": codes.count(503), "other": n - codes.count(200)
            - codes.count(503), "seconds": time.monotonic() - t}  # fmt: skip


def rss_kb(pid: int) -> int:
    total = 0
    out = subprocess.run(["ps", "-o", "rss=", "--ppid", str(pid)], capture_output=True, text=True)
    for line in [
        *out.stdout.split(),
        Path(f"/proc/{pid}/status").read_text().split("VmRSS:")[1].split()[0],
    ]:
        total += int(line)
    return total


def main() -> None:
    rows = []
    p = port()
    served = f"http://127.0.0.1:{p}/"
    proc = subprocess.Popen([sys.executable, "-m", "snakecube", "serve", "--port", str(p)])
    wait(served + "api/status")
    static_proc = None
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path="/usr/bin/chromium", headless=True, args=ARGS
            )
            s = measure(browser, served, False)
            rows += [("served: page load to ready", s["ready"], "< 1 s"),
                     ("served: worst 3x3x3 catalog puzzle, click to drawn", s["catalog_worst"], "< 0.5 s"),
                     ("served: king, click to drawn", s["king"], "< 1.5 s")]  # fmt: skip
            if site.node_modules() is not None:
                folder = site.build(Path(tempfile.mkdtemp()) / "site")
                q = port()
                static_proc = subprocess.Popen([sys.executable, "-m", "http.server", str(q), "--bind",
                                                "127.0.0.1", "-d", str(folder)],
                                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
                wait(f"http://127.0.0.1:{q}/")
                st = measure(browser, f"http://127.0.0.1:{q}/", True)
                rows += [("static: open to ready to solve", st["ready"], "< 10 s"),
                         ("static: worst 3x3x3 catalog puzzle", st["catalog_worst"], "< 2 s"),
                         ("static: king, first solution drawn", st["king_first"], "< 5 s"),
                         ("static: king, complete count", st["king"], "< 60 s")]  # fmt: skip
            browser.close()
        before = rss_kb(proc.pid)
        lt = load_test(served)
        after = rss_kb(proc.pid)
        up = httpx.get(served + "api/status").status_code == 200
        rows.append((f"load: 50 concurrent king solves: {lt['answered']:.0f} answered, "
                     f"{lt['busy']:.0f} busy, {lt['other']:.0f} other; server up: {up}; "
                     f"RSS {before // 1024} -> {after // 1024} MB", lt["seconds"], "all answered or busy"))  # fmt: skip
    finally:
        proc.terminate()
        proc.wait(10)
        if static_proc is not None:
            static_proc.terminate()
    lines = [
        "# Web page benchmark (benchmarks/web.py)",
        "",
        "| what | seconds | goal |",
        "|---|---|---|",
    ]
    lines += [f"| {w} | {v:.2f} | {g} |" for w, v, g in rows]
    OUT.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
