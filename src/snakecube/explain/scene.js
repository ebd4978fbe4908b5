// The drawing of a scene that both renderers share: the offline viewer (explain/viewer.py
// embeds this file before its own script and draws on a canvas) and the page
// (web/static/page.js, which the page loads after this file and draws as SVG). What a
// picture shows is decided in Python (explain/scene.py); this only turns it into 2-D:
// the camera's basis, the light on a face, the painter's order of the cubes, the joint's
// edge on a face and the arrow's line and head. A plain script: one global,
// snakecubeScene, and nothing else.
var snakecubeScene = (function () {
  "use strict";

  function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

  // The unit vector towards the eye at elevation `elev` and azimuth `azim` (radians).
  function eyeAt(elev, azim) {
    return [Math.cos(elev) * Math.cos(azim), Math.cos(elev) * Math.sin(azim), Math.sin(elev)];
  }

  // The camera's basis for an eye direction: f towards the viewer, r to the right
  // (horizontal, across the view), u up; a point p is drawn at (p.r, -p.u) or so.
  function basis(eye) {
    var n = Math.hypot(eye[0], eye[1], eye[2]) || 1;
    var f = [eye[0] / n, eye[1] / n, eye[2] / n];
    var rn = Math.hypot(f[0], f[1]);
    var r = rn < 1e-9 ? [1, 0, 0] : [-f[1] / rn, f[0] / rn, 0];
    var u = [f[1] * r[2] - f[2] * r[1], f[2] * r[0] - f[0] * r[2], f[0] * r[1] - f[1] * r[0]];
    return {f: f, r: r, u: u};
  }

  // The colour '#rrggbb' with each channel times k (at most 255), as 'rgb(r,g,b)'.
  function shade(hex, k) {
    var v = parseInt(hex.slice(1), 16);
    var rgb = [(v >> 16) & 255, (v >> 8) & 255, v & 255].map(function (c) {
      return Math.round(Math.min(255, c * k));
    });
    return "rgb(" + rgb.join(",") + ")";
  }

  // The light on a face whose unit normal is n: each axis's shade (FACE_SHADE: x, y, z),
  // weighted by the normal (a face across an axis gets that axis's shade).
  function light(shades, n) {
    return shades[0] * Math.abs(n[0]) + shades[1] * Math.abs(n[1]) + shades[2] * Math.abs(n[2]);
  }

  // The eight corners of the unit cube at cell c; corner i has the bits x, y, z.
  function corners(c) {
    var out = [];
    for (var i = 0; i < 8; i++) out.push([c[0] + (i & 1), c[1] + (i >> 1 & 1), c[2] + (i >> 2 & 1)]);
    return out;
  }

  // The items in painter's order: by layer (every item of a lower layer is drawn under those
  // of a higher one), then far to near along the eye by their centres (exact for unit cubes
  // on a grid seen orthographically). `centre` and `layer` read an item.
  function paintOrder(items, eye, centre, layer) {
    var keyed = items.map(function (it) {
      return {it: it, layer: layer(it), depth: dot(centre(it), eye)};
    });
    keyed.sort(function (a, b) { return a.layer - b.layer || a.depth - b.depth; });
    return keyed.map(function (k) { return k.it; });
  }

  // The points among `points` on the joint's plane, seam = [axis, where]: on a face that
  // crosses it, the two ends of the edge to draw bold.
  function onPlane(points, seam) {
    return points.filter(function (p) { return Math.abs(p[seam[0]] - seam[1]) < 1e-6; });
  }

  // An arrow along a path of 2-D points with a head `head` long: the line to stroke (it
  // stops inside the head, so that its width does not blunt the tip) and the head's three
  // corners (the tip first).
  function arrow(pts, head) {
    var tip = pts[pts.length - 1], k = pts.length - 2;
    while (k > 0 && Math.hypot(pts[k][0] - tip[0], pts[k][1] - tip[1]) < head) k--;
    var back = pts[Math.max(0, k)];
    var len = Math.hypot(tip[0] - back[0], tip[1] - back[1]) || 1;
    var ux = (tip[0] - back[0]) / len, uy = (tip[1] - back[1]) / len;
    var line = pts.slice(0, Math.max(1, k + 1));
    line.push([tip[0] - ux * head * 0.8, tip[1] - uy * head * 0.8]);
    var base = [tip[0] - ux * head, tip[1] - uy * head], w = head * 0.45;
    return {line: line, head: [tip, [base[0] - uy * w, base[1] + ux * w], [base[0] + uy * w, base[1] - ux * w]]};
  }

  return {dot: dot, eyeAt: eyeAt, basis: basis, shade: shade, light: light, corners: corners,
          paintOrder: paintOrder, onPlane: onPlane, arrow: arrow};
})();
