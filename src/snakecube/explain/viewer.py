"""The interactive 3D viewer: one self-contained HTML file (plotly, embedded), works offline.

Rotate and zoom with the mouse; step through the fold with the slider, the play button, the
back/next buttons or the arrow keys. Cubes are coloured by segment; the current step's cubes
are outlined in black. Imported only when a viewer is asked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import plotly.graph_objects as go

from snakecube.explain.scene import SEGMENT_COLOURS, steps
from snakecube.solution import Solution

DIV_ID = "snakecube-viewer"

# The 12 triangles of a unit cube over its 8 corners (corner i = bits x, y, z of i).
_TRIANGLES = (
    (0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1),
    (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3),
)  # fmt: skip
_EDGES = ((0, 1), (1, 3), (3, 2), (2, 0), (4, 5), (5, 7), (7, 6), (6, 4),
          (0, 4), (1, 5), (2, 6), (3, 7))  # fmt: skip

_CONTROLS_JS = """
(function () {
  var gd = document.getElementById('%(div)s');
  var names = %(names)s;
  var at = names.length - 1;
  function go(i) {
    at = Math.max(0, Math.min(names.length - 1, i));
    Plotly.animate(gd, [names[at]], {mode: 'immediate', frame: {duration: 0, redraw: true},
                                     transition: {duration: 0}});
    Plotly.relayout(gd, {'sliders[0].active': at});
  }
  gd.on('plotly_sliderchange', function (e) { at = e.step._index; });
  var bar = document.createElement('div');
  bar.style.cssText = 'font: 14px sans-serif; margin: 4px;';
  [['\\u25c0 back', -1], ['next \\u25b6', 1]].forEach(function (b) {
    var btn = document.createElement('button');
    btn.textContent = b[0];
    btn.id = 'snakecube-' + (b[1] < 0 ? 'back' : 'next');
    btn.style.marginRight = '6px';
    btn.onclick = function () { go(at + b[1]); };
    bar.appendChild(btn);
  });
  var hint = document.createElement('span');
  hint.textContent = ' (or the arrow keys; drag to rotate, scroll to zoom)';
  bar.appendChild(hint);
  gd.parentNode.insertBefore(bar, gd);
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight') go(at + 1);
    if (e.key === 'ArrowLeft') go(at - 1);
  });
  window.snakecubeStep = function () { return at; };
  window.snakecubeGo = go;
})();
"""


def _cube_mesh(cells: list[tuple[int, int, int]]) -> dict[str, list[int]]:
    xs: list[int] = []
    ys: list[int] = []
    zs: list[int] = []
    ii: list[int] = []
    jj: list[int] = []
    kk: list[int] = []
    for n, (x, y, z) in enumerate(cells):
        for corner in range(8):
            xs.append(x + (corner & 1))
            ys.append(y + (corner >> 1 & 1))
            zs.append(z + (corner >> 2 & 1))
        for a, b, c in _TRIANGLES:
            ii.append(8 * n + a)
            jj.append(8 * n + b)
            kk.append(8 * n + c)
    return {"x": xs, "y": ys, "z": zs, "i": ii, "j": jj, "k": kk}


def _outline(cells: list[tuple[int, int, int]]) -> dict[str, list[float | None]]:
    xs: list[float | None] = []
    ys: list[float | None] = []
    zs: list[float | None] = []
    for x, y, z in cells:
        for a, b in _EDGES:
            for corner in (a, b):
                xs.append(x + (corner & 1))
                ys.append(y + (corner >> 1 & 1))
                zs.append(z + (corner >> 2 & 1))
            xs.append(None)
            ys.append(None)
            zs.append(None)
    return {"x": xs, "y": ys, "z": zs}


def figure(solution: Solution, max_steps: int = 200) -> Any:
    """The viewer as a plotly Figure: a mesh per step, a frame per step, slider and play."""
    plan = steps(solution, max_steps)
    cells = list(solution.cells)
    traces: list[Any] = []
    for step in plan:
        own = cells[step.first : step.last + 1]
        colour = SEGMENT_COLOURS[(step.number - 1) % len(SEGMENT_COLOURS)]
        traces.append(
            go.Mesh3d(
                **_cube_mesh(own),
                color=colour,
                flatshading=True,
                name=f"step {step.number}",
                hovertext=[f"cube {step.first + 1 + n // 8}" for n in range(8 * len(own))],
                hoverinfo="text",
                lighting={"ambient": 0.55, "diffuse": 0.8},
            )
        )
    last = plan[-1]
    traces.append(
        go.Scatter3d(
            **_outline(cells[last.first : last.last + 1]),
            mode="lines",
            line={"color": "black", "width": 6},
            hoverinfo="skip",
            name="current step",
        )
    )
    frames = []
    for step in plan:
        shown = [go.Mesh3d(visible=s.number <= step.number) for s in plan]
        outline = go.Scatter3d(**_outline(cells[step.first : step.last + 1]))
        frames.append(
            go.Frame(
                name=f"step {step.number}",
                data=[*shown, outline],
                traces=list(range(len(plan) + 1)),
                layout={"title": {"text": f"step {step.number}/{len(plan)}: {step.words}"}},
            )
        )
    a, b, c = solution.region.dims
    animate = {"mode": "immediate", "frame": {"duration": 0, "redraw": True},
               "transition": {"duration": 0}}  # fmt: skip
    fig = go.Figure(data=traces, frames=frames)
    fig.update_layout(
        title={"text": f"{solution.snake.turns()} in the {solution.region.describe()}"},
        scene={
            "xaxis": {"range": [0, a], "title": "x"},
            "yaxis": {"range": [0, b], "title": "y"},
            "zaxis": {"range": [0, c], "title": "z"},
            "aspectmode": "manual",  # the box's shape, not the shape of what is shown
            "aspectratio": {"x": a / max(a, b, c), "y": b / max(a, b, c), "z": c / max(a, b, c)},
        },
        showlegend=False,
        margin={"l": 0, "r": 0, "t": 50, "b": 0},
        updatemenus=[{
            "type": "buttons", "direction": "left", "x": 0.0, "y": 0.0, "xanchor": "left",
            "buttons": [
                {"label": "play", "method": "animate",
                 "args": [None, {**animate, "frame": {"duration": 700, "redraw": True},
                                 "fromcurrent": True}]},
                {"label": "pause", "method": "animate", "args": [[None], animate]},
            ],
        }],
        sliders=[{
            "active": len(plan) - 1, "x": 0.15, "len": 0.85, "y": 0.0,
            "currentvalue": {"prefix": "step "},
            "steps": [{"label": str(s.number), "method": "animate",
                       "args": [[f"step {s.number}"], animate]} for s in plan],
        }],
    )  # fmt: skip
    return fig


def html(solution: Solution, full: bool = True) -> str:
    """The viewer as HTML with plotly.js embedded (no network needed)."""
    fig = figure(solution)
    names = [f.name for f in fig.frames]
    script = _CONTROLS_JS % {"div": DIV_ID, "names": repr(names).replace("'", '"')}
    return fig.to_html(
        include_plotlyjs=True,
        full_html=full,
        div_id=DIV_ID,
        post_script=script,
        auto_play=False,
        config={"displaylogo": False},
    )


def save(solution: Solution, path: str | Path) -> Path:
    """Write the viewer to an .html file."""
    path = Path(path)
    path.write_text(html(solution), encoding="utf-8")
    return path
