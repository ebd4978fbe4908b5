"""The HTML viewer in a real browser: headless Chromium (Debian's), driven by Playwright.

It steps through the fold with the buttons and the keyboard, checks that the page logs no
errors and that the canvas is not blank, and saves a screenshot. It skips, saying why, only
where Playwright or a Chromium binary is missing.
"""

from __future__ import annotations

import pytest

import snakecube as sc
from conftest import CHROMIUM, CHROMIUM_ARGS, SHOTS

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from snakecube.explain import viewer  # noqa: E402  (no plotting library needed)

Image = pytest.importorskip("PIL.Image", reason="pillow is not installed")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.pictures,
    pytest.mark.skipif(
        CHROMIUM is None, reason="no Chromium binary (apt-get install chromium; .ci/run does)"
    ),
]


SIZES = {"laptop": (1280, 800), "phone": (390, 844)}


@pytest.mark.parametrize("name", ["standard", "king"])
def test_viewer_in_chromium(name, tmp_path):
    for size in SIZES:
        _check_viewer(name, size, tmp_path)


def _check_viewer(name, size, tmp_path):
    from snakecube.explain import scene

    sol = next(sc.solutions(name))
    page_file = tmp_path / f"{name}.html"
    if not page_file.exists():
        viewer.save(sol, page_file)
    shown = scene.display(sol)
    steps = scene.steps(shown)
    n = len(steps)
    width, height = SIZES[size]
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_file.as_uri())
            page.wait_for_selector("#snakecube-canvas", timeout=60_000)
            page.wait_for_timeout(300)
            assert page.evaluate("window.snakecubeStep()") == 0  # it opens at step 1
            shown_cubes = "window.snakecubeDrawn().shown"  # every placed cube, cut away or not
            assert page.evaluate(shown_cubes) == steps[0].last + 1
            assert f"Step 1 of {n}:" in page.inner_text("#snakecube-words")
            page.click("#snakecube-next")
            page.click("#snakecube-next")
            page.wait_for_timeout(500)
            assert page.evaluate("window.snakecubeStep()") == 2
            assert page.evaluate(shown_cubes) == steps[2].last + 1
            page.keyboard.press("ArrowLeft")
            page.wait_for_timeout(500)
            assert page.evaluate("window.snakecubeStep()") == 1
            # A step whose new cubes are hidden from the camera fades what is in the way.
            hidden = scene.hidden_steps(shown)
            k = next((i for i, h in enumerate(hidden) if h), n - 1)
            page.evaluate(f"window.snakecubeGo({k})")
            page.wait_for_timeout(800)
            solid = page.evaluate("window.snakecubeDrawn().solid")
            assert (solid < steps[k].last + 1) == bool(hidden[k])  # cubes in the way cut away
            assert f"Step {k + 1} of {n}:" in page.inner_text("#snakecube-words")
            # Everything fits the window: the plot, the slider and the buttons.
            for selector in ("#snakecube-canvas", "#snakecube-slider", "#snakecube-next"):
                box = page.locator(selector).first.bounding_box()
                assert box is not None, selector
                assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
                assert box["x"] + box["width"] <= width + 1, (selector, box)
                assert box["y"] + box["height"] <= height + 1, (selector, box)
            _nothing_covers_the_words(page)
            for k in range(0, n, 3):  # numbers on faces of their own cubes that show
                page.evaluate(f"window.snakecubeGo({k})")
                assert _numbers_on_faces_that_show(page) > 0, k
            page.evaluate(f"window.snakecubeGo({k})")
            page.wait_for_timeout(300)
            SHOTS.mkdir(parents=True, exist_ok=True)
            shot = SHOTS / f"viewer-{name}-{size}.png"
            page.screenshot(path=str(shot))
        finally:
            browser.close()
    assert errors == []
    with Image.open(shot) as im:
        rgb = im.convert("RGB")
        colours = rgb.getcolors(maxcolors=1_000_000)
        # Nothing is cut off: no drawn (dark) pixel in the first or last columns.
        edges = [
            rgb.getpixel((x, y))
            for x in (0, 1, width - 2, width - 1)
            for y in range(60, height - 100)
        ]
    assert colours is not None and len(colours) > 200  # cubes were drawn, not a blank canvas
    assert all(min(p) > 200 for p in edges)
    if size == "phone":  # the cube fills most of the width
        assert _drawn_width(shot) > 0.6 * width
    assert page_file.stat().st_size < 300_000  # a fraction of plotly.js's 4.8 MB


def _inside(polygon, p) -> bool:
    signs = set()
    for k in range(len(polygon)):
        (x0, y0), (x1, y1) = polygon[k], polygon[(k + 1) % len(polygon)]
        c = (x1 - x0) * (p[1] - y0) - (y1 - y0) * (p[0] - x0)
        if abs(c) > 1e-6:
            signs.add(c > 0)
    return len(signs) <= 1


def _numbers_on_faces_that_show(page) -> int:
    """Every number the canvas drew lies on a face of its own cube painted before it, and
    under no face of another cube painted after it (the canvas's own order); how many."""
    drawn = page.evaluate("window.snakecubeDrawn()")
    faces = drawn["faces"]
    for n in drawn["numbers"]:
        own = [f["points"] for f in faces[: n["after"]] if f["cube"] == n["cube"]]
        assert any(_inside(f, n["at"]) for f in own), n
        later = [
            f["cube"]
            for f in faces[n["after"] :]
            if f["cube"] != n["cube"] and _inside(f["points"], n["at"])
        ]
        assert later == [], (n, later)
    return len(drawn["numbers"])


def _drawn_width(shot):
    """How wide the drawing is: from the leftmost to the rightmost non-white pixel of the
    plot's middle band."""
    with Image.open(shot) as im:
        rgb = im.convert("RGB")
        w, h = rgb.size
        xs = [
            x
            for x in range(w)
            for y in range(h // 3, 2 * h // 3, 6)
            if min(rgb.getpixel((x, y))) < 200
        ]
    return max(xs) - min(xs) if xs else 0


def _nothing_covers_the_words(page):
    """The instruction's box meets no other element's box: no toolbar, no button, no plot."""
    words = page.locator("#snakecube-words").bounding_box()
    assert words is not None and words["height"] > 0
    assert page.locator(".modebar").count() == 0 or not page.locator(".modebar").first.is_visible()
    for selector in ("#snakecube-controls", "#snakecube-canvas", ".modebar"):
        for k in range(page.locator(selector).count()):
            other = page.locator(selector).nth(k)
            box = other.bounding_box()
            if box is None or not other.is_visible():
                continue
            apart = (
                box["x"] >= words["x"] + words["width"]
                or words["x"] >= box["x"] + box["width"]
                or box["y"] >= words["y"] + words["height"]
                or words["y"] >= box["y"] + box["height"]
            )
            assert apart, (selector, box, words)


def test_plan_viewer_on_a_phone(tmp_path):
    from snakecube import explain, fold

    plan = fold.plan(next(sc.solutions("standard")))
    page_file = tmp_path / "plan.html"
    explain.save_plan(plan, page_file)
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_file.as_uri())
            page.wait_for_selector("#snakecube-canvas", timeout=60_000)
            page.wait_for_timeout(300)
            assert page.inner_text("#snakecube-words").startswith("Start:")
            page.click("#snakecube-next")
            page.wait_for_timeout(700)
            words = page.inner_text("#snakecube-words")
            assert words.startswith("Step 1 of ") and "Left hand: hold the cube" in words, words
            _nothing_covers_the_words(page)
            frames = int(page.get_attribute("#snakecube-slider", "max")) + 1
            assert frames == len(plan.steps()) + 2  # the start, each step, the end
            for k in range(frames):  # the joint's cubes numbered on faces that show
                page.evaluate(f"window.snakecubeGo({k})")
                assert _numbers_on_faces_that_show(page) >= (2 if 0 < k < frames - 1 else 0)
            page.evaluate("window.snakecubeGo(1)")
            page.wait_for_timeout(300)
            SHOTS.mkdir(parents=True, exist_ok=True)
            shot = SHOTS / "viewer-plan-phone.png"
            page.screenshot(path=str(shot))
        finally:
            browser.close()
    assert errors == []
    assert _drawn_width(shot) > 0.5 * 390
