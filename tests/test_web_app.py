"""The page in every pocket: the served page on a phone on the same network (serve --lan),
the static site as an app (a manifest Chromium accepts, a service worker that keeps the site
for use offline, a rebuilt site offered as an update), and the puzzle named on both pages."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import CHROMIUM, CHROMIUM_ARGS, SHOTS, free_port, listening

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")
httpx = pytest.importorskip("httpx2", reason="httpx2 is not installed")

from snakecube.web import answers, server, site  # noqa: E402

pytestmark = pytest.mark.browser


def _lan() -> str:
    try:
        return server.lan_address()
    except Exception as err:
        pytest.skip(f"this machine has no network address: {err}")


@pytest.mark.slow
def test_serve_lan_prints_its_url_and_answers_there():
    """serve --lan: the URL on stdout at once, with a QR code, on the machine's network
    address (not loopback), answered there; another Host gets a short page naming --lan and
    --host (a JSON line for the API)."""
    address = _lan()
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "snakecube", "serve", "--lan", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        began = time.monotonic()
        first = proc.stdout.readline()  # type: ignore[union-attr]
        assert time.monotonic() - began < 10
        url = f"http://{address}:{port}/"
        assert first.strip() == f"On your phone (on the same network), open {url}"
        assert not address.startswith("127.")
        qr = [proc.stdout.readline() for _ in range(3)]  # type: ignore[union-attr]
        assert all("█" in line or "▀" in line or "▄" in line for line in qr), qr
        for _ in range(100):
            try:
                r = httpx.get(url, timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        assert r.status_code == 200 and "snakecube" in r.text
        wrong = httpx.get(url, headers={"Host": f"10.255.0.1:{port}"}, timeout=5)
        assert wrong.status_code == 400 and wrong.headers["content-type"].startswith("text/html")
        assert "serve --lan" in wrong.text and "--host ADDRESS" in wrong.text
        api = httpx.get(url + "api/status", headers={"Host": "10.255.0.1"}, timeout=5)
        assert api.status_code == 400 and "--lan" in api.json()["error"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def _site(folder: Path) -> Path:
    if site.node_modules() is None:
        pytest.skip("npm packages missing: run 'npm ci' (needs npm; .ci/run does)")
    return site.build(folder)


def _open(browser: object, base: str) -> object:
    context = browser.new_context(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(base)
    page.wait_for_function("document.body.dataset.state !== 'loading'", timeout=180_000)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)
    return page


@pytest.mark.slow
def test_the_static_site_is_an_app_that_works_offline(browser, tmp_path):
    """The manifest as Chromium reads it (no errors; name, start_url, display, icons) and no
    installability errors; after one visit the service worker keeps the site: the server
    stopped and the network off, a reload solves the standard snake at phone width."""
    out = _site(tmp_path / "site")
    port = free_port()
    argv = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d", str(out)]
    base = f"http://127.0.0.1:{port}/"
    with listening(argv, port):
        page = _open(browser, base)
        cdp = page.context.new_cdp_session(page)  # type: ignore[attr-defined]
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [], manifest["errors"]
        assert "snakecube" in manifest["data"] and '"standalone"' in manifest["data"]
        assert manifest["url"].endswith("/manifest.json")
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        # a Playwright context is a private window: nothing installs there, whatever the site
        installable = [e for e in errors if e["errorId"] != "in-incognito"]
        assert installable == [], installable
    page.context.set_offline(True)  # type: ignore[attr-defined]
    page.reload()  # type: ignore[attr-defined]
    page.wait_for_function("document.body.dataset.state !== 'loading'", timeout=180_000)  # type: ignore[attr-defined]
    page.fill("#snake", "standard")  # type: ignore[attr-defined]
    page.click("#solve")  # type: ignore[attr-defined]
    page.wait_for_function("document.body.dataset.state === 'done'", timeout=120_000)  # type: ignore[attr-defined]
    assert page.inner_text("#counts").startswith("1 distinct solution")  # type: ignore[attr-defined]
    box = page.locator("#counts").bounding_box()  # type: ignore[attr-defined]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "static-offline-phone.png"))  # type: ignore[attr-defined]
    page.context.close()  # type: ignore[attr-defined]


@pytest.mark.slow
def test_a_rebuilt_site_is_offered_as_an_update(browser, tmp_path):
    """New files replace old ones: a rebuilt site (here its style sheet changed) installs a
    new worker, the page says an update is ready, and Reload brings the new files under a
    cache of the new build only.

    The files are dated a year back, as on a host that has served them for a while: a host
    that sends no Cache-Control (``http.server``) then lets the browser keep its own copy of a
    file for weeks, so a worker that fetched through the browser's cache kept the old style
    sheet under the new version (as it did, now and then, with files written seconds ago)."""
    out = _site(tmp_path / "site")
    year_ago = time.time() - 365 * 86400
    for f in out.rglob("*"):
        os.utime(f, (year_ago, year_ago))
    port = free_port()
    argv = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d", str(out)]
    base = f"http://127.0.0.1:{port}/"
    with listening(argv, port):
        page = _open(browser, base)
        old = page.evaluate("caches.keys()")  # type: ignore[attr-defined]
        css = out / "page.css"
        css.write_text(css.read_text() + "\n/* rebuilt */\n")
        site._as_an_app(out)  # as a rebuild writes it: a new version
        page.reload()  # type: ignore[attr-defined]
        page.wait_for_selector("#update:not([hidden])", timeout=120_000)  # type: ignore[attr-defined]
        page.click("#update-now")  # type: ignore[attr-defined]
        page.wait_for_function(  # type: ignore[attr-defined]
            "caches.keys().then((k) => k.length === 1)", timeout=60_000
        )
        page.wait_for_function("document.body.dataset.state !== 'loading'", timeout=180_000)  # type: ignore[attr-defined]
        new = page.evaluate("caches.keys()")  # type: ignore[attr-defined]
        assert new != old and len(new) == 1
        styles = page.evaluate("fetch('page.css').then((r) => r.text())")  # type: ignore[attr-defined]
        assert "/* rebuilt */" in styles
        page.context.close()  # type: ignore[attr-defined]


def test_the_answer_names_the_puzzle():
    """However it was typed, the answer names a catalog puzzle as the command line does, and
    says when a snake is not in the catalog (the page shows ``named`` as it comes)."""
    runs = answers.solve_answer("3 3 3 3 2 2 2 3 3 2 2 3 2 3 2 2 3")
    assert runs["named"] == "This is the catalog's standard, also called cubra-blue."
    # each corner counted once: the page says how it read the numbers, as solve does
    once = answers.solve_answer("3 2 2 2 1 1 1 2 2 1 1 2 1 2 1 1 2")
    assert once["named"] == (
        "Read as runs with each corner counted once (the first run whole, then the new cubes "
        "of each): 3, then 2, 2, 2, 1, ... This is the catalog's standard, also called "
        "cubra-blue."
    )
    green = answers.solve_answer("seed-green")
    assert green["named"] == "This is seed-green: the catalog's standard, read from its other end."
    other = answers.solve_answer("3-2-2-2-2-2-2-2-2-2-2-2-2-3-2-2-2-2-3-3-2-2")
    assert other.get("named", "").startswith("Not a puzzle of snakecube's catalog")


def test_the_publishing_recipe_builds_the_site_as_documented():
    """The GitHub Pages workflow builds the site with the command docs/web.md gives, from a
    checkout with the npm lock file, and uploads that folder."""
    root = Path(__file__).resolve().parents[1]
    workflow = (root / ".github" / "workflows" / "pages.yml").read_text()
    runs = [line.strip() for line in workflow.splitlines()]
    assert ".venv/bin/snakecube web --out site" in runs and "npm ci --no-audit --no-fund" in runs
    assert "path: site" in runs and "uses: actions/deploy-pages@v4" in runs
    assert "snakecube web --out site" in (root / "docs" / "web.md").read_text().replace("\n  ", " ")
    assert (root / "package-lock.json").is_file()
