"""Screenshots of a fold plan on the page, one for every step before and after its turn, as a
person sees them on a phone (390x844) or a laptop (1280x800), in Chromium.

    .venv/bin/python tests/plan_shots.py king-b --out shots/
    .venv/bin/python tests/plan_shots.py 2-3-2-2-... --box 4x4x4 --out shots/ --size laptop

Without ``--base`` it starts ``snakecube serve`` on a free port of 127.0.0.1 and stops it at
the end; the page shows the default solution (``--solution K`` for another), works out its
plan and the script steps through it with the page's own ▶ (each turn played, then the
state after it), scrolling the plan's words to the top of the screen as a person would read
them. Files: ``step00-start.png``, ``step01-before.png``, ``step01-after.png``, ... and
``done.png``; it prints the link of each. Needs Playwright and Chromium (the dev extra and
``apt-get install chromium``), as the browser tests do.

With ``--went-wrong K`` it instead opens the plan at step K, taps "Something doesn't match?",
taps the ``--answers`` given (``y,n,y``: yes, no, yes) and takes ``went-wrong.png`` of what
the page then shows (the next question with its picture, or the verdict), printing its words:
run it again with one more answer each time, as a person taps them.

    .venv/bin/python tests/plan_shots.py 2-3-2-2-... --box 4x4x4 --out shots/ --went-wrong 7 \
        --answers y,n
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

SIZES = {"phone": (390, 844), "laptop": (1280, 800)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("snake", help="the snake, as typed on the page (a catalog name too)")
    ap.add_argument("--box", default="", help="the target, like 4x4x4 (default: the cube)")
    ap.add_argument("--solution", type=int, help="another solution than the default")
    ap.add_argument("--out", required=True, help="the folder for the screenshots")
    ap.add_argument("--size", choices=tuple(SIZES), default="phone")
    ap.add_argument("--base", help="a page already served (default: start snakecube serve)")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument("--went-wrong", type=int, metavar="K", help="open the dialog at step K")
    ap.add_argument("--answers", default="", help="the answers to tap, like y,n,y")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    server = None
    base = args.base
    if base is None:
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "snakecube", "serve", "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}/"
        for _ in range(200):
            try:
                urllib.request.urlopen(base, timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
    link = "#snake=" + urllib.parse.quote(args.snake)
    if args.box:
        link += "&box=" + urllib.parse.quote(args.box)
    if args.solution:
        link += f"&solution={args.solution}&step=1"
    width, height = SIZES[args.size]
    phone = args.size == "phone"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=args.chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
            )
            # bypass_csp: Playwright's waits evaluate their text, which the page's policy forbids
            size = {"width": width, "height": height}
            context = browser.new_context(
                viewport=size, is_mobile=phone, has_touch=phone, bypass_csp=True
            )
            page = context.new_page()
            page.goto(base + link)
            page.wait_for_selector("#plan svg", timeout=300_000)

            def shot(name: str) -> None:
                page.locator("#plan-words").evaluate("(e) => e.scrollIntoView({block: 'start'})")
                page.wait_for_timeout(200)
                page.screenshot(path=str(out / name))
                print(f"{name}: {page.url}")

            if args.went_wrong:
                page.evaluate(f"window.snakecubePlanGo({args.went_wrong})")
                page.click("#plan-wrong")
                page.wait_for_selector("#wrong-close", timeout=60_000)
                page.wait_for_function(
                    "!document.getElementById('wrong-yes').hidden || "
                    "!document.getElementById('wrong-again').hidden",
                    timeout=60_000,
                )
                for said in filter(None, (a.strip().lower() for a in args.answers.split(","))):
                    if page.is_hidden("#wrong-yes"):
                        print("(no more questions: the verdict is shown)")
                        break
                    page.click("#wrong-yes" if said.startswith("y") else "#wrong-no")
                    page.wait_for_timeout(150)
                page.locator("#wrong").evaluate("(e) => e.scrollIntoView({block: 'start'})")
                page.wait_for_timeout(200)
                page.screenshot(path=str(out / "went-wrong.png"))
                print(page.inner_text("#wrong"))
                print(f"went-wrong.png: {page.url}")
                browser.close()
                return 0
            page.evaluate("window.snakecubePlanGo(0)")
            shot("step00-start.png")
            page.click("#plan-next")
            count = page.inner_text("#plan-count")
            steps = int(count.split(" of ")[1].split(":")[0])
            for k in range(1, steps + 1):
                shot(f"step{k:02d}-before.png")
                page.click("#plan-next")  # the turn plays, then the state after it stays
                page.wait_for_function(
                    f"document.getElementById('plan-count').textContent === "
                    f"'step {k} of {steps}: done'",
                    timeout=20_000,
                )
                shot(f"step{k:02d}-after.png")
                page.click("#plan-next")
            shot("done.png")
            browser.close()
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
