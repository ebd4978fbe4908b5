"""The interactive 3D viewer: one small self-contained HTML file that works offline.

What each step shows is decided here in Python, from ``explain.scene`` (the sheets' panels,
their camera, arrow and numbers), and written into the page as JSON; a short script in the
page only draws it on a canvas, with ``scene.js`` (the drawing it shares with the web page)
inlined before it: an orthographic projection of each cube's three faces that
look towards the eye, far cubes first (painter's order, exact for unit cubes on a grid seen
orthographically), then the arrow. No plotting library is embedded, so the file is tens of
kilobytes, not megabytes.

It opens at step 1 with the camera of the sheets (``frame.CAMERA``). Drag to turn, wheel or
pinch to zoom; step with the slider, the back/next buttons or the arrow keys. The current
step's cubes are blue and numbered, the cube it turns at is outlined in red, placed cubes
that would hide them from the starting camera are drawn as dotted edges only, and the rest
of the snake as dashed outlines. Each number is drawn right after its own cube, on a face
the camera sees, so a nearer cube covers it when the view is turned.

A fold plan's viewer shows what its sheet shows: the start from above, each quarter turn
before it is made (framed on its joint, the step's own camera, the arrow of the turn), then
the end; each frame brings its camera back.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from snakecube import frame
from snakecube.explain import drawing, scene
from snakecube.explain.drawing import FACE_SHADE
from snakecube.explain.scene import NEW, PIVOT, Tails, cube_colour
from snakecube.fold import FoldPlan
from snakecube.snake import which_end
from snakecube.solution import Solution

DIV_ID = "snakecube-viewer"
SOLID, CUT, TAIL, GHOST = 0, 1, 2, 3  # how a cube is drawn: faces, dotted or dashed edges,
# see-through faces


def _point(p: Any) -> list[float]:
    return [round(float(v), 3) for v in p]


def _state(
    cells: Any,
    solid: Any,
    cutaway: Any,
    tail: Any,
    colours: dict[int, str],
    labels: dict[int, Any],
    marks: dict[int, str],
    bold: set[int],
    arrow: Any,
    words: str,
    camera: frame.Camera = frame.CAMERA,
    seam: Any = None,
    seamed: tuple[int, ...] = (),
    patterns: dict[int, str] | None = None,
    ghost: Any = (),
) -> dict[str, Any]:
    """One frame as the page draws it: cubes [x, y, z, colour, kind, mark, cube, seam,
    pattern],
    numbers [cube, x, y, z, text, bold] (each on a face of its cube the camera sees), the
    arrow (a path of points) or None, the words, the camera [elevation, azimuth, name], the
    joint [axis, where] or None, and the box round the cubes to fit."""
    patterns = patterns or {}
    cubes = [
        [*cells[i], colours[i], SOLID, marks.get(i, ""), i, int(i in seamed), patterns.get(i, "")]
        for i in solid
    ]
    cubes += [[*cells[i], "#999999", CUT, "", i, 0, ""] for i in cutaway]
    cubes += [[*cells[i], colours[i], GHOST, "", i, 0, patterns.get(i, "")] for i in ghost]
    cubes += [[*c, "#4f7cac", TAIL, "", -1, 0, ""] for c in tail]
    numbers = [[i, *_point(p), str(i + 1), int(i in bold)] for i, p in labels.items()]
    everything = [cells[i] for i in (*solid, *cutaway)] or list(cells)
    return {
        "cubes": cubes,
        "numbers": numbers,
        "arrow": None if arrow is None else [_point(q) for q in arrow],
        "words": words,
        "camera": [camera.elev, camera.azim, camera.name],
        "seam": None if seam is None else [seam[0], seam[1]],
        "bounds": _bounds(everything),
        "plan": bool(seamed),  # a plan's step: its arrow black in a white halo
    }


def frames(solution: Solution, tails: Tails | None = None) -> dict[str, Any]:
    """The viewer's data for a solution, a frame per step (the sheets' panels): every placed
    cube numbered where the starting camera sees its number, the key cubes (new, and the
    cube the step turns at) shown by cutting away what hides them."""
    shown = scene.display(solution)
    cells = list(shown.cells)
    panels = scene.panels(shown, tails)
    len(panels)
    out = []
    for p in panels:
        s = p.step
        placed = range(s.last + 1)
        key = scene.key_cubes(s)
        plain = scene.make_view(scene.CAMERA, cells, placed, key)
        hidden = [i for i in key if i not in plain.labels]
        cut = scene.make_view(scene.CAMERA, cells, placed, key, cut_for=hidden)
        # every cube left solid numbered where the starting camera sees its number
        view = scene.make_view(scene.CAMERA, cells, cut.solid, cut.solid)
        colours = {i: NEW if i >= s.first else cube_colour(i) for i in placed}
        words = p.heading
        if s.number == 1:  # the first picture says which end is cube 1
            words += f". {which_end(shown.snake)}"
        state = _state(
            cells,
            cut.solid,
            cut.cutaway,
            p.tail,
            colours,
            view.labels,
            {s.pivot: PIVOT},
            set(range(s.first, s.last + 1)),
            p.arrow,
            words,
        )
        state["bounds"] = _bounds([*cells, *(c for q in panels for c in q.tail)])
        out.append(state)
    return {"frames": out, "bounds": _bounds([*cells, *(c for p in panels for c in p.tail)])}


def plan_frames(plan: FoldPlan) -> dict[str, Any]:
    """The viewer's data for a fold plan, as its sheet draws it: the start from above, every
    cube numbered; then each quarter turn before it is made (framed on its joint, the arrow
    showing the turn, seen from the step's view); then the finished shape."""
    panels = scene.fold_panels(plan)
    out = []
    len(panels) - 1
    for _k, p in enumerate(panels):
        view = p.views[0]
        cells = list(view.cells or p.cells or ())
        out.append(_plan_state(p, view, cells, p.heading))
    if len(panels) > 1:
        last = panels[-1]
        after = last.views[1]
        done = _plan_state(
            last, after, list(after.cells or ()), f"Done: {plan.quarter_turns} quarter turns."
        )
        done["arrow"] = None
        out.append(done)
    everything = [c for p in panels for c in (p.cells or ())]
    return {"frames": out, "bounds": _bounds(everything)}


def _plan_state(p: scene.Panel, view: scene.View, cells: list[Any], words: str) -> dict[str, Any]:
    return _state(
        cells,
        view.solid,
        view.cutaway,
        (),
        p.colours or {},
        view.labels,
        p.marks or {},
        {p.hold, p.step.pivot} - {-1},
        view.arc,
        words + "".join(f"\n{n}" for n in p.notes),
        view.camera,
        view.seam,
        tuple(i for i in (p.hold, p.step.pivot) if i >= 0),
        p.patterns,
        view.ghost,
    )


def _bounds(cells: Any) -> list[list[int]]:
    return [
        [min(c[a] for c in cells) for a in range(3)],
        [max(c[a] for c in cells) + 1 for a in range(3)],
    ]


_SCRIPT = r"""
(function () {
  var D = %(data)s;
  var F = D.frames, cam = {elev: %(elev)s, azim: %(azim)s, zoom: 1};
  var SHADE = %(shade)s, CUT = %(cut)s, TAIL = %(tail)s, GHOST = %(ghost)s;
  var root = document.getElementById('%(div)s');
  var words = document.getElementById('snakecube-words');
  var canvas = document.getElementById('snakecube-canvas');
  var slider = document.getElementById('snakecube-slider');
  var ctx = canvas.getContext('2d');
  var at = 0, shown = 0, solid = 0, painted = [], labelled = [];
  slider.max = F.length - 1;
  var S = snakecubeScene, dot = S.dot;
  var EDGES = [[0,1],[1,3],[3,2],[2,0],[4,5],[5,7],[7,6],[6,4],[0,4],[1,5],[2,6],[3,7]];
  function draw() {
    var w = canvas.clientWidth, h = canvas.clientHeight, dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    var f = F[at], lo = f.bounds[0], hi = f.bounds[1];
    var mid = [0, 1, 2].map(function (a) { return (lo[a] + hi[a]) / 2; });
    var radius = 0.5 * Math.sqrt([0, 1, 2].reduce(function (s, a) {
      return s + (hi[a] - lo[a]) * (hi[a] - lo[a]); }, 0));
    var A = S.basis(S.eyeAt(cam.elev * Math.PI / 180, cam.azim * Math.PI / 180));
    var s = cam.zoom * 0.96 * Math.min(w, h) / (2 * radius);
    function P(p) {
      var d = [p[0] - mid[0], p[1] - mid[1], p[2] - mid[2]];
      return [w / 2 + s * dot(d, A.r), h / 2 - s * dot(d, A.u)];
    }
    // tails under everything, then the cut-away cubes (so that no dotted line crosses a
    // solid cube or its number), then the solid cubes, each far to near
    var cubes = S.paintOrder(f.cubes, A.f, function (c) {
      return [c[0] + 0.5, c[1] + 0.5, c[2] + 0.5];
    }, function (c) { return c[4] === TAIL ? 0 : c[4] === CUT ? 1 : 2; });
    shown = 0; solid = 0; painted = []; labelled = [];
    function edges(c, colour, dash, width) {
      var k = S.corners(c);
      ctx.beginPath();
      EDGES.forEach(function (e) {
        var a = P(k[e[0]]), b = P(k[e[1]]);
        ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]);
      });
      ctx.setLineDash(dash); ctx.strokeStyle = colour; ctx.lineWidth = width; ctx.stroke();
      ctx.setLineDash([]);
    }
    function poly(pts) {
      ctx.beginPath();
      ctx.moveTo(pts[0][0], pts[0][1]);
      for (var q = 1; q < pts.length; q++) ctx.lineTo(pts[q][0], pts[q][1]);
      ctx.closePath();
    }
    cubes.forEach(function (c) {
      if (c[4] === TAIL) { edges(c, c[3], [4, 3], 1); return; }
      shown += 1;
      if (c[4] === CUT) { edges(c, c[3], [2, 3], 1); return; }
      if (c[4] !== GHOST) solid += 1;
      var quads = [];
      for (var a = 0; a < 3; a++) {
        if (Math.abs(A.f[a]) < 1e-9) continue;
        var sign = A.f[a] > 0 ? 1 : 0, u = (a + 1) %% 3, v = (a + 2) %% 3, quad = [], raw = [];
        [[0, 0], [1, 0], [1, 1], [0, 1]].forEach(function (d) {
          var p = [c[0], c[1], c[2]];
          p[a] += sign; p[u] += d[0]; p[v] += d[1];
          raw.push(p); quad.push(P(p));
        });
        quads.push({axis: a, quad: quad, raw: raw});
        poly(quad);
        ctx.fillStyle = S.shade(c[3], SHADE[a]);
        ctx.globalAlpha = c[4] === GHOST ? 0.3 : 1;  // see-through: a cube that turns, in the way
        ctx.fill();
        ctx.globalAlpha = 1;
        ctx.strokeStyle = '#333333'; ctx.lineWidth = 0.8; ctx.stroke();
        if (c[4] !== GHOST) painted.push({cube: c[6], points: quad});  // see-through: hides none
        if (c[8] === 'hatch' && c[4] !== GHOST) {  // lines across the face: it reads in grey too
          ctx.beginPath();
          for (var k = 1; k < 8; k++) {
            var t = k / 4, e = [t <= 1 ? [t, 0] : [1, t - 1], t <= 1 ? [0, t] : [t - 1, 1]];
            e.forEach(function (uv, j) {
              var o = quad[0], du = quad[1], dv = quad[3];
              var x = o[0] + (du[0] - o[0]) * uv[0] + (dv[0] - o[0]) * uv[1];
              var y = o[1] + (du[1] - o[1]) * uv[0] + (dv[1] - o[1]) * uv[1];
              if (j) ctx.lineTo(x, y); else ctx.moveTo(x, y);
            });
          }
          ctx.strokeStyle = '%(hatch)s'; ctx.lineWidth = 0.8; ctx.stroke();
        }
      }
      quads.forEach(function (q) {
        if (c[5]) {  // a mark: inside the face's edges
          var mx = 0, my = 0;
          q.quad.forEach(function (p) { mx += p[0] / 4; my += p[1] / 4; });
          (c[8] === 'ring' ? [0.88, 0.66] : [0.88]).forEach(function (k) {  // 'ring': two
            poly(q.quad.map(function (p) {
              return [mx + (p[0] - mx) * k, my + (p[1] - my) * k];
            }));
            ctx.strokeStyle = c[5]; ctx.lineWidth = 3; ctx.stroke();
          });
        }
        if (c[7] && f.seam && q.axis !== f.seam[0]) {  // the joint: the edge on its plane
          var on = S.onPlane(q.raw, f.seam);
          if (on.length === 2) {
            var p0 = P(on[0]), p1 = P(on[1]);
            ctx.beginPath(); ctx.moveTo(p0[0], p0[1]); ctx.lineTo(p1[0], p1[1]);
            ctx.strokeStyle = '#111111'; ctx.lineWidth = 4; ctx.stroke();
          }
        }
      });
      f.numbers.forEach(function (n) {
        if (n[0] !== c[6]) return;
        var p = P([n[1], n[2], n[3]]);
        ctx.font = (n[5] ? 'bold ' : '') + Math.max(11, Math.min(16, s * 0.38)) + 'px sans-serif';
        var tw = ctx.measureText(n[4]).width;
        ctx.fillStyle = 'rgba(255,255,255,0.88)';
        ctx.fillRect(p[0] - tw / 2 - 2, p[1] - 8, tw + 4, 16);
        ctx.fillStyle = '#000'; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
        ctx.fillText(n[4], p[0], p[1]);
        labelled.push({cube: n[0], at: p, after: painted.length});
      });
    });
    if (f.arrow) {
      var arrow = S.arrow(f.arrow.map(P), Math.max(10, 0.35 * s));
      // a plan's arrow: black in a white halo (it reads over any cube, in grey too)
      var styles = f.plan ? [['#ffffff', 9, 3], ['%(plan_arrow)s', 4, 0]] : [['%(arrow)s', 4, 0]];
      styles.forEach(function (st) {
        ctx.strokeStyle = st[0]; ctx.fillStyle = st[0]; ctx.lineWidth = st[1];
        ctx.lineJoin = 'round'; ctx.lineCap = 'round';
        ctx.beginPath();
        arrow.line.forEach(function (p, q) {
          if (q) ctx.lineTo(p[0], p[1]); else ctx.moveTo(p[0], p[1]);
        });
        ctx.stroke();
        poly(arrow.head); ctx.fill();
        if (st[2]) { ctx.lineWidth = st[2]; ctx.stroke(); }
      });
    }
  }
  function layout() {  // the drawing takes the height the words and the controls leave
    var bar = document.getElementById('snakecube-controls');
    var hgt = Math.max(200, window.innerHeight - words.offsetHeight - bar.offsetHeight - 16);
    canvas.style.height = hgt + 'px';
    draw();
  }
  function go(i) {
    at = Math.max(0, Math.min(F.length - 1, i));
    slider.value = at;
    var f = F[at];
    cam.elev = f.camera[0]; cam.azim = f.camera[1]; cam.zoom = 1;  // each frame's own view
    words.textContent = f.words + (f.camera[2] ? '\n(' + f.camera[2] + ')' : '');
    layout();
  }
  document.getElementById('snakecube-back').onclick = function () { go(at - 1); };
  document.getElementById('snakecube-next').onclick = function () { go(at + 1); };
  slider.oninput = function () { go(parseInt(slider.value, 10)); };
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight') go(at + 1);
    if (e.key === 'ArrowLeft') go(at - 1);
  });
  var pointers = {}, pinch = 0;
  canvas.addEventListener('pointerdown', function (e) {
    pointers[e.pointerId] = [e.clientX, e.clientY]; canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', function (e) {
    var last = pointers[e.pointerId];
    if (!last) return;
    var ids = Object.keys(pointers);
    if (ids.length === 2) {
      pointers[e.pointerId] = [e.clientX, e.clientY];
      var p = pointers[ids[0]], q = pointers[ids[1]], d = Math.hypot(p[0] - q[0], p[1] - q[1]);
      if (pinch) cam.zoom = Math.max(0.3, Math.min(4, cam.zoom * d / pinch));
      pinch = d;
    } else {
      cam.azim -= (e.clientX - last[0]) * 0.5;
      cam.elev = Math.max(-89, Math.min(89, cam.elev + (e.clientY - last[1]) * 0.5));
      pointers[e.pointerId] = [e.clientX, e.clientY];
    }
    draw();
  });
  function up(e) { delete pointers[e.pointerId]; pinch = 0; }
  canvas.addEventListener('pointerup', up);
  canvas.addEventListener('pointercancel', up);
  canvas.addEventListener('wheel', function (e) {
    e.preventDefault();
    cam.zoom = Math.max(0.3, Math.min(4, cam.zoom * (e.deltaY < 0 ? 1.1 : 1 / 1.1)));
    draw();
  }, {passive: false});
  window.addEventListener('resize', layout);
  window.snakecubeStep = function () { return at; };
  window.snakecubeGo = go;
  window.snakecubeDrawn = function () {
    return {shown: shown, solid: solid, faces: painted, numbers: labelled};
  };
  go(0);
})();
"""

_BODY = """<div id="%(div)s">
<div id="snakecube-words"></div>
<canvas id="snakecube-canvas"></canvas>
<div id="snakecube-controls">
<button id="snakecube-back">&#9664; back</button>
<input id="snakecube-slider" type="range" min="0" max="0" value="0" aria-label="step">
<button id="snakecube-next">next &#9654;</button>
<span id="snakecube-hint">arrow keys step; drag to turn, scroll or pinch to zoom</span>
</div>
</div>"""

_CSS = """<style>
#%(div)s { font: 15px/1.35 sans-serif; }
#snakecube-words { margin: 6px 8px 2px 8px; min-height: 2.7em; white-space: pre-line; }
#snakecube-canvas { display: block; width: 100%%; height: 70vh; touch-action: none; }
#snakecube-controls { display: flex; align-items: center; gap: 6px; margin: 4px 8px; }
#snakecube-controls button { font-size: 15px; padding: 3px 10px; }
#snakecube-slider { flex: 1; min-width: 60px; }
#snakecube-hint { font-size: 12px; color: #555; }
@media (max-width: 560px) { #snakecube-hint { display: none; } }
</style>"""


def scene_script() -> str:
    """scene.js: the drawing the viewer shares with the page (``snakecube serve`` and the
    static site serve it beside page.js)."""
    return resources.files("snakecube.explain").joinpath("scene.js").read_text("utf-8")


def page(data: dict[str, Any], full: bool = True, title: str = "snakecube") -> str:
    """The viewer's data (:func:`frames` or :func:`plan_frames`) as one HTML page with its
    drawing script inline (no network needed)."""
    script = _SCRIPT % {
        "data": json.dumps(data, separators=(",", ":")),
        "div": DIV_ID,
        "elev": frame.CAMERA.elev,
        "azim": frame.CAMERA.azim,
        "arrow": scene.ARROW,
        "plan_arrow": scene.PLAN_ARROW,
        "hatch": drawing.HATCH,
        "shade": json.dumps(list(FACE_SHADE)),
        "cut": CUT,
        "tail": TAIL,
        "ghost": GHOST,
    }
    script = f"{scene_script()}\n{script}"
    body = _CSS % {"div": DIV_ID} + "\n" + _BODY % {"div": DIV_ID} + f"\n<script>{script}</script>"
    if not full:
        return body
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n"
        "<style>html, body { margin: 0; padding: 0; height: 100%; overflow: hidden; }</style>\n"
        f"</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def html(solution: Solution, full: bool = True, tails: Tails | None = None) -> str:
    """The viewer as one offline HTML page."""
    return page(frames(solution, tails), full, f"snakecube: {solution.snake.turns()}")


def save(solution: Solution, path: str | Path, tails: Tails | None = None) -> Path:
    """Write the viewer to an .html file."""
    path = Path(path)
    path.write_text(html(solution, tails=tails), encoding="utf-8")
    return path


def plan_html(plan: FoldPlan, full: bool = True) -> str:
    """A fold plan's viewer as one offline HTML page."""
    return page(plan_frames(plan), full, f"snakecube fold plan: {plan.solution.snake.turns()}")
