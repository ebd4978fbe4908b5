"""The interactive 3D viewer: one self-contained HTML file (plotly, embedded), works offline.

It opens at step 1. Rotate and zoom with the mouse or fingers; step with the slider, the
back/next buttons or the arrow keys. Every cube has its edges drawn and its number written,
so cubes can be counted; the current step's cubes are blue, the cube it turns at red, and
placed cubes that would hide the current step from the starting camera are cut away (only
their edges are drawn, dotted). The steps
and the starting camera are those of the sheets (``explain.scene``). Imported only when a
viewer is asked for.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import plotly.graph_objects as go

from snakecube import frame
from snakecube.explain import scene
from snakecube.explain.scene import NEW, PIVOT, Tails, cube_colour
from snakecube.fold import FoldPlan
from snakecube.solution import Solution

DIV_ID = "snakecube-viewer"
_AXIS = {"showticklabels": False, "showgrid": False, "showbackground": False, "zeroline": False}

# The 12 triangles of a unit cube over its 8 corners (corner i = bits x, y, z of i).
_TRIANGLES = (
    (0, 1, 3),
    (0, 3, 2),
    (4, 6, 7),
    (4, 7, 5),
    (0, 4, 5),
    (0, 5, 1),
    (2, 3, 7),
    (2, 7, 6),
    (0, 2, 6),
    (0, 6, 4),
    (1, 5, 7),
    (1, 7, 3),
)
_CONTROLS_JS = """
(function () {
  var gd = document.getElementById('%(div)s');
  var names = %(names)s;
  var titles = %(titles)s;
  var at = 0;
  function go(i) {
    at = Math.max(0, Math.min(names.length - 1, i));
    Plotly.animate(gd, [names[at]], {mode: 'immediate', frame: {duration: 0, redraw: true},
                                     transition: {duration: 0}});
    Plotly.relayout(gd, {'sliders[0].active': at});
    say();
  }
  gd.on('plotly_sliderchange', function (e) { at = e.step._index; say(); });
  var words = document.createElement('div');  // the instruction, above the cube: nothing covers it
  words.id = 'snakecube-words';
  words.style.cssText = 'font: 15px/1.35 sans-serif; margin: 6px 8px 2px 8px;';
  function say() { words.textContent = titles[at]; layout(); }
  var bar = document.createElement('div');
  bar.id = 'snakecube-controls';
  bar.style.cssText = 'font: 14px sans-serif; margin: 4px; height: 30px; white-space: nowrap;';
  [['\\u25c0 back', -1], ['next \\u25b6', 1]].forEach(function (b) {
    var btn = document.createElement('button');
    btn.textContent = b[0];
    btn.id = 'snakecube-' + (b[1] < 0 ? 'back' : 'next');
    btn.style.cssText = 'margin-right: 6px; font-size: 15px; padding: 3px 10px;';
    btn.onclick = function () { go(at + b[1]); };
    bar.appendChild(btn);
  });
  var hint = document.createElement('span');
  hint.id = 'snakecube-hint';
  hint.textContent = ' arrow keys step; drag to turn, scroll or pinch to zoom';
  hint.style.cssText = 'font-size: 12px; color: #555;';
  bar.appendChild(hint);
  gd.parentNode.insertBefore(words, gd);
  gd.parentNode.insertBefore(bar, gd);
  var lastHeight = 0;
  function layout() {  // the plot takes the height the words and the buttons leave
    var h = Math.max(200, window.innerHeight - words.offsetHeight - bar.offsetHeight - 14);
    if (h !== lastHeight) {
      lastHeight = h;
      gd.style.height = h + 'px';
      Plotly.Plots.resize(gd);
    }
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight') go(at + 1);
    if (e.key === 'ArrowLeft') go(at - 1);
  });
  function fit() {  // orthographic: the box fills most of the width, any turn of it fits
    var s = window.innerWidth < window.innerHeight ? 0.85 : 0.9;
    Plotly.relayout(gd, {'scene.aspectratio': {x: s * %(ratio)s[0], y: s * %(ratio)s[1],
                                               z: s * %(ratio)s[2]}});
  }
  say();
  fit();
  window.addEventListener('resize', function () { layout(); fit(); });
  window.snakecubeStep = function () { return at; };
  window.snakecubeGo = go;
})();
"""

_PAGE_CSS = """<style>
html, body { margin: 0; padding: 0; height: 100%%; overflow: hidden; }
#%(div)s { width: 100vw !important; height: calc(100vh - 90px); }
@media (max-width: 560px) { #snakecube-hint { display: none; } }
</style>"""


def _cube_mesh(cell: tuple[int, int, int]) -> dict[str, list[int]]:
    corners = frame.corners(cell)
    return {
        "x": [p[0] for p in corners],
        "y": [p[1] for p in corners],
        "z": [p[2] for p in corners],
        "i": [t[0] for t in _TRIANGLES],
        "j": [t[1] for t in _TRIANGLES],
        "k": [t[2] for t in _TRIANGLES],
    }


def _cube_edges(cell: tuple[int, int, int]) -> dict[str, list[float | None]]:
    c = frame.corners(cell)
    xs: list[float | None] = []
    ys: list[float | None] = []
    zs: list[float | None] = []
    for a, b in frame.CUBE_EDGES:
        for corner in (a, b):
            xs.append(c[corner][0])
            ys.append(c[corner][1])
            zs.append(c[corner][2])
        xs.append(None)
        ys.append(None)
        zs.append(None)
    return {"x": xs, "y": ys, "z": zs}


def _number_spot(cell: tuple[int, int, int], solid: set[tuple[int, int, int]]) -> list[float]:
    """Where a cube's number goes: in front of its face that the starting camera sees (its
    most frontal face if none)."""
    eye = scene.CAMERA.eye
    axis, sign = scene.label_face(cell, eye, solid) or scene.facing(eye)[0]
    p = [cell[0] + 0.5, cell[1] + 0.5, cell[2] + 0.5]
    p[axis] += 0.5 * sign
    # Towards the starting camera, so the upright label never cuts into the face.
    return [p[a] + 0.45 * eye[a] for a in range(3)]


def _arrow(arrow: Any) -> list[dict[str, Any]]:
    """The sheet's red arrow: a thick line and a cone at its head (hidden when None)."""
    if arrow is None:
        return [
            {"x": [0, 0], "y": [0, 0], "z": [0, 0], "visible": False},
            {"x": [0], "y": [0], "z": [0], "u": [0], "v": [0], "w": [1], "visible": False},
        ]
    (x0, y0, z0), (x1, y1, z1) = arrow
    length = max(1e-9, ((x1 - x0) ** 2 + (y1 - y0) ** 2 + (z1 - z0) ** 2) ** 0.5)
    u, v, w = ((x1 - x0) / length, (y1 - y0) / length, (z1 - z0) / length)
    return [
        {
            "x": [x0, x1 - 0.3 * u],
            "y": [y0, y1 - 0.3 * v],
            "z": [z0, z1 - 0.3 * w],
            "visible": True,
        },
        {"x": [x1], "y": [y1], "z": [z1], "u": [u], "v": [v], "w": [w], "visible": True},
    ]


def _arrow_traces(arrow: Any) -> list[Any]:
    line, head = _arrow(arrow)
    return [
        go.Scatter3d(
            **line,
            mode="lines",
            line={"color": scene.ARROW, "width": 9},
            hoverinfo="skip",
            name="arrow",
        ),
        go.Cone(
            **head,
            anchor="tip",
            sizemode="absolute",
            sizeref=0.45,
            showscale=False,
            colorscale=[[0, scene.ARROW], [1, scene.ARROW]],
            hoverinfo="skip",
        ),
    ]


def _frame_state(solution: Solution, step: scene.Step) -> list[dict[str, Any]]:
    """Each cube's mesh and edges at ``step`` (shown, colour, cut away when in the way), then
    each step's numbers (shown, where, blank on cut-away cubes)."""
    cells = solution.cells
    eye = scene.CAMERA.eye
    placed = {cells[i] for i in range(step.last + 1)}
    where = {c: i for i, c in enumerate(cells)}
    in_way: set[int] = set()
    for i in range(step.first, step.last + 1):  # a new cube with no face to number
        if scene.label_face(cells[i], eye, placed) is None:
            in_way |= {where[c] for c in scene.in_the_way(cells[i], eye, placed)}
    meshes, edges = [], []
    for i in range(len(cells)):
        shown = i <= step.last
        colour = NEW if i >= step.first else PIVOT if i == step.pivot else cube_colour(i)
        cut = i in in_way and i < step.first  # in the way: only its edges are drawn
        meshes.append({"visible": shown and not cut, "color": colour})
        edges.append(
            {
                "visible": shown,
                "line": {
                    "color": "#888888" if cut else "#222222",
                    "width": 2,
                    "dash": "dot" if cut else "solid",
                },
            }
        )
    solid = {cells[i] for i in range(step.last + 1) if i not in in_way or i >= step.first}
    numbers = []
    for s in scene.steps(solution):
        ids = range(s.first, s.last + 1)
        spots = [_number_spot(cells[i], solid) for i in ids]
        numbers.append(
            {
                "visible": s.number <= step.number,
                "x": [p[0] for p in spots],
                "y": [p[1] for p in spots],
                "z": [p[2] for p in spots],
                "text": ["" if cells[i] not in solid else str(i + 1) for i in ids],
            }
        )
    return [*meshes, *edges, *numbers]


def figure(solution: Solution, tails: Tails | None = None) -> Any:
    """The viewer as a plotly Figure: a mesh and an edge outline per cube, the numbers per
    step, a frame per step; it starts at step 1."""
    shown = scene.display(solution)
    cells = list(shown.cells)
    all_steps = scene.steps(shown)
    n = len(all_steps)
    panels = scene.panels(shown, tails)
    words = [
        p.title.replace(f"Step {p.step.number}:", f"Step {p.step.number} of {n}:", 1)
        for p in panels
    ]
    arrows = [p.arrow for p in panels]
    first = _frame_state(shown, all_steps[0])
    traces: list[Any] = []
    for i, cell in enumerate(cells):
        traces.append(
            go.Mesh3d(
                **_cube_mesh(cell),
                flatshading=True,
                name=f"cube {i + 1}",
                hovertext=f"cube {i + 1}",
                hoverinfo="text",
                lighting={
                    "ambient": 0.6,
                    "diffuse": 0.7,
                    "specular": 0.0,
                    "fresnel": 0.0,
                    "roughness": 1.0,
                },
                **first[i],
            )
        )
    for i, cell in enumerate(cells):
        traces.append(
            go.Scatter3d(
                **_cube_edges(cell), mode="lines", hoverinfo="skip", **first[len(cells) + i]
            )
        )
    for k in range(len(all_steps)):  # each step's cube numbers, on the faces the camera sees
        traces.append(
            go.Scatter3d(
                mode="text",
                textfont={"size": 14, "color": "black"},
                hoverinfo="skip",
                **first[2 * len(cells) + k],
            )
        )
    traces += _arrow_traces(arrows[0])
    n_traces = len(traces)
    frames = []
    for s in all_steps:
        state = _frame_state(shown, s)
        line, head = _arrow(arrows[s.number - 1])
        frames.append(
            go.Frame(
                name=f"step {s.number}",
                data=[
                    *(go.Mesh3d(**st) for st in state[: len(cells)]),
                    *(go.Scatter3d(**st) for st in state[len(cells) :]),
                    go.Scatter3d(**line),
                    go.Cone(**head),
                ],
                traces=list(range(n_traces)),
            )
        )
    a, b, c = shown.region.dims
    big = max(a, b, c)
    eye = scene.CAMERA.eye
    animate = {
        "mode": "immediate",
        "frame": {"duration": 0, "redraw": True},
        "transition": {"duration": 0},
    }
    fig = go.Figure(data=traces, frames=frames)
    fig.update_layout(
        meta={"words": words},  # the page writes them above the plot (``page``)
        autosize=True,
        scene={
            "xaxis": {"range": [-0.5, a + 0.5], "title": "right", **_AXIS},
            "yaxis": {"range": [-0.5, b + 0.5], "title": "away", **_AXIS},
            "zaxis": {"range": [-0.5, c + 0.5], "title": "up", **_AXIS},
            "aspectmode": "manual",  # the box's shape, not the shape of what is shown
            # Orthographic: the drawing's size comes from this ratio; the page's script
            # shrinks it on narrow (phone) screens so that any turn of the box fits.
            "aspectratio": {"x": a / big, "y": b / big, "z": c / big},
            "camera": {
                "eye": {"x": 2.6 * eye[0], "y": 2.6 * eye[1], "z": 2.6 * eye[2]},
                "up": {"x": 0, "y": 0, "z": 1},
                "projection": {"type": "orthographic"},
            },
        },
        showlegend=False,
        margin={"l": 0, "r": 0, "t": 0, "b": 80},
        sliders=[
            {
                "active": 0,
                "x": 0.02,
                "len": 0.96,
                "y": 0.0,
                "yanchor": "top",
                "pad": {"t": 0},
                "currentvalue": {"prefix": "step "},
                "steps": [
                    {
                        "label": str(s.number),
                        "method": "animate",
                        "args": [[f"step {s.number}"], animate],
                    }
                    for s in all_steps
                ],
            }
        ],
    )
    return fig


def page(fig: Any, full: bool = True) -> str:
    """A viewer Figure (:func:`figure` or :func:`plan_figure`) as HTML with plotly.js
    embedded (no network needed), with the step buttons and the phone layout."""
    names = [f.name for f in fig.frames]
    ratio = fig.layout.scene.aspectratio
    script = _CONTROLS_JS % {
        "div": DIV_ID,
        "names": json.dumps(names),
        "titles": json.dumps(list(fig.layout.meta["words"])),
        "ratio": f"[{ratio.x}, {ratio.y}, {ratio.z}]",
    }
    out = fig.to_html(
        include_plotlyjs=True,
        full_html=full,
        div_id=DIV_ID,
        post_script=script,
        auto_play=False,
        default_width="100%",
        default_height="100%",
        # no toolbar: on a phone it covered the instruction; dragging turns, pinching zooms
        config={"displaylogo": False, "responsive": True, "displayModeBar": False},
    )
    css = _PAGE_CSS % {"div": DIV_ID}
    if full:
        return out.replace(
            "<head>",
            "<head>\n" + css + '\n<meta name="viewport" '
            'content="width=device-width, initial-scale=1">',
            1,
        )
    return css + out


def html(solution: Solution, full: bool = True, tails: Tails | None = None) -> str:
    """The viewer as HTML with plotly.js embedded (no network needed)."""
    return page(figure(solution, tails), full)


def save(solution: Solution, path: str | Path, tails: Tails | None = None) -> Path:
    """Write the viewer to an .html file."""
    path = Path(path)
    path.write_text(html(solution, tails=tails), encoding="utf-8")
    return path


def plan_figure(plan: FoldPlan) -> Any:
    """A fold plan in the viewer: a frame per state (the flat start, then each quarter turn),
    every cube moving to where it is in that state, coloured as on the plan's sheet."""
    panels = scene.fold_panels(plan)
    n = len(plan.end)
    all_cells = [c for p in panels for c in (p.cells or ())]
    lo = [min(c[a] for c in all_cells) for a in range(3)]
    hi = [max(c[a] for c in all_cells) + 1 for a in range(3)]
    big = max(hi[a] - lo[a] for a in range(3))

    def state(p: scene.Panel) -> list[Any]:
        cells = p.cells or ()
        faint = set(p.tail)
        meshes = [
            go.Mesh3d(
                **_cube_mesh(cells[i]),
                color=scene.GHOST if cells[i] in faint else (p.colours or {})[i],
                opacity=0.35 if cells[i] in faint else 1.0,
            )
            for i in range(n)
        ]
        edges = [
            go.Scatter3d(**_cube_edges(cells[i]), line={"color": "#222222", "width": 2})
            for i in range(n)
        ]
        line, head = _arrow(p.arrow)
        return [*meshes, *edges, go.Scatter3d(**line), go.Cone(**head)]

    first = state(panels[0])
    traces = [
        *(
            go.Mesh3d(
                **t.to_plotly_json(),
                flatshading=True,
                hoverinfo="skip",
                lighting={"ambient": 0.6, "diffuse": 0.7, "specular": 0.0},
            )
            for t in first[:n]
        ),
        *(
            go.Scatter3d(**t.to_plotly_json(), mode="lines", hoverinfo="skip")
            for t in first[n : 2 * n]
        ),
        *_arrow_traces(panels[0].arrow),
    ]
    frames = [
        go.Frame(
            name=f"step {k}",
            data=state(p),
            traces=list(range(2 * n + 2)),
        )
        for k, p in enumerate(panels)
    ]
    eye = scene.CAMERA.eye
    animate = {
        "mode": "immediate",
        "frame": {"duration": 0, "redraw": True},
        "transition": {"duration": 0},
    }
    fig = go.Figure(data=traces, frames=frames)
    fig.update_layout(
        meta={"words": [p.title for p in panels]},
        autosize=True,
        scene={
            "xaxis": {"range": [lo[0] - 0.5, hi[0] + 0.5], "title": "right", **_AXIS},
            "yaxis": {"range": [lo[1] - 0.5, hi[1] + 0.5], "title": "away", **_AXIS},
            "zaxis": {"range": [lo[2] - 0.5, hi[2] + 0.5], "title": "up", **_AXIS},
            "aspectmode": "manual",
            "aspectratio": {
                "x": (hi[0] - lo[0]) / big,
                "y": (hi[1] - lo[1]) / big,
                "z": (hi[2] - lo[2]) / big,
            },
            "camera": {
                "eye": {"x": 2.6 * eye[0], "y": 2.6 * eye[1], "z": 2.6 * eye[2]},
                "up": {"x": 0, "y": 0, "z": 1},
                "projection": {"type": "orthographic"},
            },
        },
        showlegend=False,
        margin={"l": 0, "r": 0, "t": 0, "b": 80},
        sliders=[
            {
                "active": 0,
                "x": 0.02,
                "len": 0.96,
                "y": 0.0,
                "yanchor": "top",
                "pad": {"t": 0},
                "currentvalue": {"prefix": "step "},
                "steps": [
                    {"label": str(k), "method": "animate", "args": [[f"step {k}"], animate]}
                    for k in range(len(panels))
                ],
            }
        ],
    )
    return fig


def plan_html(plan: FoldPlan, full: bool = True) -> str:
    """A fold plan's viewer as HTML with plotly.js embedded."""
    return page(plan_figure(plan), full)
