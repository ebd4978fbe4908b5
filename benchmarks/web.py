"""The web page's speed, measured in Chromium (Playwright) and with a bounded load test on
127.0.0.1; writes benchmarks/results-web.md.

The static site is built as the README says (``snakecube web --out``: with the compiled
kernel as WebAssembly where clang and wasm-ld are installed) and served by ``http.server``.
Besides the catalog and the king, a static visit plans King B (the page's "Work out a fold
plan" button) and finds a first solution of ``run.py``'s fully mixed random 5x5x5 design.

    .venv/bin/python benchmarks/web.py [RUNS] [--before PYTHON]
        (needs chromium; `npm ci` for the static part; RUNS visits each way, default 3;
        --before: also the static site of the snakecube installed beside PYTHON, an older
        build, its visits interleaved with this one's: a change measured in one run)
"""

from __future__ import annotations

import concurrent.futures
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2 as httpx  # the dev extra's HTTP client (httpx, renamed)
from bench import Parser
from playwright.sync_api import sync_playwright
from run import design_5x5x5

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


def drawn(page, n: int, timeout: float) -> None:
    """Wait until the page has drawn the answer of its ``n``-th solve (its own timing mark)."""
    page.wait_for_function(
        f"(window.snakecubeTimes || []).some(e => e[0] === 'drawn' && e[1] === {n})",
        timeout=timeout * 1000,
        polling=10,
    )


FIVE = design_5x5x5(0, None).format("lengths").removeprefix("lengths:").replace(",", "-")


def done(page, timeout: float) -> None:
    page.wait_for_function("document.body.dataset.state === 'done'", timeout=timeout * 1000)


def measure(browser, base: str, static: bool, extras: bool = True) -> dict[str, float]:
    """One person's visit in a fresh browser context (nothing cached): open the page, solve
    every 3x3x3 catalog puzzle (the first click comes as soon as the page is ready), then
    the king; in the static site also King B and its fold plan, and a 5x5x5 design's first
    solution (``extras``). Times are Playwright's wall clock, from the click to the drawing."""
    # the served page forbids eval (its CSP); a wait with a polling interval needs it
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    t = time.monotonic()
    page.goto(base, wait_until="commit")
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=120_000, polling=10)
    out = {"ready": time.monotonic() - t}
    names = [e.name for e in catalog.ENTRIES if e.box == (3, 3, 3)]
    times = []
    for n, name in enumerate(names, 1):
        page.fill("#snake", name)
        t = time.monotonic()
        page.click("#solve")
        drawn(page, n, 60)
        times.append(time.monotonic() - t)
        page.wait_for_function("document.body.dataset.state === 'done'", timeout=60_000)
    out["catalog_first"] = times[0]
    out["catalog_worst"] = max(times)
    page.fill("#snake", "king")
    t = time.monotonic()
    page.click("#solve")
    drawn(page, len(names) + 1, 60)
    out["king_first"] = time.monotonic() - t
    done(page, 180)
    out["king"] = time.monotonic() - t
    if static and extras:
        # King B, then its fold plan, which the static page works out on request.
        page.fill("#snake", "king-b")
        page.click("#solve")
        drawn(page, len(names) + 2, 60)
        done(page, 180)
        page.wait_for_selector("#plan-ask", timeout=60_000)
        t = time.monotonic()
        page.click("#plan-ask")
        page.wait_for_function(
            f"window.snakecubeTimes.some(e => e[0] === 'plan' && e[1] === {len(names) + 2})",
            timeout=300_000,
            polling=10,
        )
        out["king_b_plan"] = time.monotonic() - t
        # A fully mixed 5x5x5 design: its first solution (then the count goes on: stopped).
        page.fill("#snake", FIVE)
        page.fill("#box", "5x5x5")
        t = time.monotonic()
        page.click("#solve")
        drawn(page, len(names) + 3, 300)
        out["five_first"] = time.monotonic() - t
        page.wait_for_timeout(3000)  # the count goes on: its progress too
        out["five_gap"] = page.evaluate(
            f"""(() => {{
              const marks = window.snakecubeTimes.filter(e => e[1] === {len(names) + 3}
                && ['click', 'progress', 'drawn'].includes(e[0])).map(e => e[2]);
              marks.push(performance.now());
              let gap = 0;
              for (let i = 1; i < marks.length; i++) gap = Math.max(gap, marks[i] - marks[i - 1]);
              return gap / 1000;
            }})()"""
        )
        page.click("#stop")
    context.close()
    return out


def cold_link(browser, base: str) -> dict[str, float]:
    """A link to the king opened in a fresh browser context (nothing cached: a first visit):
    from opening it to its first solution drawn and to its complete count."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    t = time.monotonic()
    page.goto(base + "#snake=king", wait_until="commit")
    drawn(page, 1, 180)
    out = {"open_king_first": time.monotonic() - t}
    done(page, 180)
    out["open_king"] = time.monotonic() - t
    context.close()
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
    return {
        "answered": codes.count(200),
        "busy": codes.count(503),
        "other": n - codes.count(200) - codes.count(503),
        "seconds": time.monotonic() - t,
    }


def rss_kb(pid: int) -> int:
    total = 0
    out = subprocess.run(["ps", "-o", "rss=", "--ppid", str(pid)], capture_output=True, text=True)
    for line in [
        *out.stdout.split(),
        Path(f"/proc/{pid}/status").read_text().split("VmRSS:")[1].split()[0],
    ]:
        total += int(line)
    return total


ROWS = {
    "served": [
        ("ready", "served: page load to ready", "< 1 s"),
        ("catalog_first", "served: first 3x3x3 click after load, click to drawn", "< 0.5 s"),
        ("catalog_worst", "served: worst 3x3x3 catalog puzzle, click to drawn", "< 0.5 s"),
        ("king", "served: king, click to drawn (complete count)", "< 1.5 s"),
    ],
    "static": [
        ("ready", "static: open to ready to solve", "< 10 s"),
        (
            "open_king_first",
            "static: open a link to the king, to its first solution drawn",
            "< 10 s",
        ),
        ("open_king", "static: open a link to the king, to its complete count", "< 10 s"),
        ("catalog_first", "static: first 3x3x3 click after ready, click to drawn", "< 2 s"),
        ("catalog_worst", "static: worst 3x3x3 catalog puzzle, click to drawn", "< 2 s"),
        ("king_first", "static: king, click to first solution drawn", "<= 0.5 s"),
        ("king", "static: king, click to complete count", "<= 1 s"),
        ("king_b_plan", "static: King B's fold plan, click to drawn", "<= 10 s"),
        ("five_first", "static: fully mixed 5x5x5 design (run.py's), first solution", "<= 10 s"),
        ("five_gap", "static: the same, longest wait between progress updates", "<= 1 s"),
    ],
}


def spread(values: list[float]) -> str:
    """median (min-max) of the runs."""
    v = sorted(values)
    return f"{statistics.median(v):.2f} ({v[0]:.2f}-{v[-1]:.2f})"


def serve_folder(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """An ``http.server`` for ``folder`` on a free port: the process and its address."""
    q = port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(q), "-b", "127.0.0.1", "-d", folder],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait(f"http://127.0.0.1:{q}/")
    return proc, f"http://127.0.0.1:{q}/"


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="?", type=int, default=3, help="visits each way")
    parser.add_argument("--before", metavar="PYTHON", help="an older build's interpreter")
    args = parser.parse_args()
    runs = args.runs
    rows = []
    p = port()
    served = f"http://127.0.0.1:{p}/"
    proc = subprocess.Popen([sys.executable, "-m", "snakecube", "serve", "--port", str(p)])
    wait(served + "api/status")
    sites: list[subprocess.Popen[bytes]] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path="/usr/bin/chromium", headless=True, args=ARGS
            )
            got = [measure(browser, served, False) for _ in range(runs)]
            rows += [(w, spread([g[k] for g in got]), "", goal) for k, w, goal in ROWS["served"]]
            if site.node_modules() is not None:
                temp = Path(tempfile.mkdtemp())
                server, base = serve_folder(site.build(temp / "site"))
                sites.append(server)
                old_base = None
                if args.before:  # the older build writes its own site (the README's command)
                    subprocess.run(
                        [args.before, "-m", "snakecube", "web", "--out", str(temp / "old")],
                        check=True,
                        stdout=subprocess.DEVNULL,
                    )
                    server, old_base = serve_folder(temp / "old")
                    sites.append(server)
                got, old = [], []
                for _ in range(runs):  # interleaved: both see the same load
                    got.append({**measure(browser, base, True), **cold_link(browser, base)})
                    if old_base is not None:
                        old.append(
                            {
                                **measure(browser, old_base, True, extras=False),
                                **cold_link(browser, old_base),
                            }
                        )
                for k, w, goal in ROWS["static"]:
                    was = spread([g[k] for g in old]) if old and k in old[0] else ""
                    rows.append((w, spread([g[k] for g in got]), was, goal))
            browser.close()
        before = rss_kb(proc.pid)
        lt = load_test(served)
        after = rss_kb(proc.pid)
        up = httpx.get(served + "api/status").status_code == 200
        rows.append(
            (
                f"load: 50 concurrent king solves: {lt['answered']:.0f} answered, "
                f"{lt['busy']:.0f} busy, {lt['other']:.0f} other; server up: {up}; "
                f"RSS {before // 1024} -> {after // 1024} MB",
                f"{lt['seconds']:.2f}",
                "",
                "all answered or busy",
            )
        )
    finally:
        proc.terminate()
        proc.wait(10)
        for server in sites:
            server.terminate()
    load = os.getloadavg()[0]
    lines = [
        "# Web page benchmark (benchmarks/web.py)",
        "",
        f"Chromium (headless, software GL) and the server on one machine with {os.cpu_count()} "
        f"cores (load average {load:.1f} at the end); each browser row is the median (min-max) "
        f"of {runs} visits, each in a fresh browser context (nothing cached), the first click "
        "as soon as the page says it is ready. Click to drawn is Playwright's wall clock from "
        "the click to the page's own 'drawn' mark."
        + (
            f" The before column is the static site of an older build ({args.before}), its "
            "visits interleaved with this build's."
            if args.before
            else ""
        ),
        "",
        "| what | seconds | before | goal |",
        "|---|---|---|---|",
    ]
    lines += [f"| {w} | {v} | {b} | {g} |" for w, v, b, g in rows]
    OUT.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
