"""The HTML viewer in a real browser: headless Chromium (Debian's), driven by Playwright.

It steps through the fold with the buttons and the keyboard, checks that the page logs no
errors and that the canvas is not blank, and saves a screenshot. It skips, saying why, only
where Playwright or a Chromium binary is missing.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import snakecube as sc

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
viewer = pytest.importorskip("snakecube.explain.viewer", reason="plotly is not installed")
Image = pytest.importorskip("PIL.Image", reason="pillow is not installed")

CHROMIUM = (
    os.environ.get("SNAKECUBE_CHROMIUM")
    or shutil.which("chromium")
    or shutil.which("chromium-browser")
)
pytestmark = [
    pytest.mark.browser,
    pytest.mark.pictures,
    pytest.mark.skipif(
        CHROMIUM is None, reason="no Chromium binary (apt-get install chromium; .ci/run does)"
    ),
]
ARGS = [
    "--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader", "--use-angle=swiftshader",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run",
]  # fmt: skip
SHOTS = Path(os.environ.get("SNAKECUBE_SHOTS", "/tmp/snakecube-shots"))


@pytest.mark.parametrize("name", ["standard", "king"])
def test_viewer_in_chromium(name, tmp_path):
    sol = next(sc.solutions(name))
    page_file = viewer.save(sol, tmp_path / f"{name}.html")
    n = sol.snake.segments
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 900, "height": 750})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_file.as_uri())
            page.wait_for_selector("#snakecube-viewer .main-svg", timeout=60_000)
            page.wait_for_timeout(1000)
            assert page.evaluate("window.snakecubeStep()") == n - 1  # opens on the whole fold
            visible = (
                "document.getElementById('snakecube-viewer')._fullData"
                ".filter(t => t.type === 'mesh3d' && t.visible === true).length"
            )
            assert page.evaluate(visible) == n
            page.click("#snakecube-back")
            page.click("#snakecube-back")
            page.wait_for_timeout(500)
            assert page.evaluate("window.snakecubeStep()") == n - 3
            assert page.evaluate(visible) == n - 2
            page.keyboard.press("ArrowRight")
            page.wait_for_timeout(500)
            assert page.evaluate("window.snakecubeStep()") == n - 2
            page.evaluate("window.snakecubeGo(2)")
            page.wait_for_timeout(800)
            assert page.evaluate(visible) == 3
            assert f"step 3/{n}" in page.inner_text("#snakecube-viewer")
            SHOTS.mkdir(parents=True, exist_ok=True)
            shot = SHOTS / f"viewer-{name}.png"
            page.locator("#snakecube-viewer").screenshot(path=str(shot))
        finally:
            browser.close()
    assert errors == []
    with Image.open(shot) as im:
        colours = im.convert("RGB").getcolors(maxcolors=1_000_000)
    assert colours is not None and len(colours) > 200  # cubes were drawn, not a blank canvas
