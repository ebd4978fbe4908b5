// snakecube's page: one script for both ways of shipping it. CONFIG.mode is "served" (the
// server answers over HTTP, progress as server-sent events) or "static" (Pyodide answers in
// a Web Worker). Everything else - the form, the counts, the step viewer, the fold plan, the
// shareable #snake=...&box=... link - is the same code.
"use strict";
(function () {
  const CONFIG = window.SNAKECUBE_CONFIG || { mode: "served", engine: "" };
  const $ = (id) => document.getElementById(id);

  class UserError extends Error {}

  // Timings, for benchmarks/web.py and a person's devtools: [what, run, ms since navigation].
  const TIMES = (window.snakecubeTimes = []);
  function mark(what, r) { TIMES.push([what, r === undefined ? run : r, performance.now()]); }


  // ---- backends ------------------------------------------------------------------------
  function servedBackend() {
    let controller = null;
    // A refused request: its one line, and for a cube count that does not fit, the designs
    // one typo away that do.
    async function refusal(r) {
      let line = `the server answered ${r.status}`, nearby = [];
      try {
        const data = await r.json();
        line = data.error || line;
        nearby = data.nearby || [];
      } catch (e) { /* not JSON */ }
      const err = new UserError(line);
      err.nearby = nearby;
      return err;
    }
    async function post(path, body) {
      const r = await fetch(path, { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify(body) });
      if (!r.ok) throw await refusal(r);
      return r;
    }
    return {
      ready: Promise.resolve(CONFIG.engine),
      async solve(req, onProgress) {
        controller = new AbortController();
        const r = await fetch("api/solve", { method: "POST", signal: controller.signal,
          headers: { "content-type": "application/json" }, body: JSON.stringify(req) });
        if (!r.ok) throw await refusal(r);
        const reader = r.body.getReader();
        const decoder = new TextDecoder();
        let text = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
          let cut;
          while ((cut = text.indexOf("\n\n")) >= 0) {
            const block = text.slice(0, cut);
            text = text.slice(cut + 2);
            let event = "message", data = "";
            for (const line of block.split("\n")) {
              if (line.startsWith("event:")) event = line.slice(6).trim();
              else if (line.startsWith("data:")) data += line.slice(5).trim();
            }
            if (event === "progress") onProgress(JSON.parse(data));
            else if (event === "result") { controller = null; return JSON.parse(data); }
          }
        }
        throw new UserError("the connection to the server ended before the answer");
      },
      stop() { if (controller) controller.abort(); controller = null; },
      async call(kind, body) { return (await post(`api/${kind}`, body)).json(); },
      async download(body) { return (await post("api/download", body)).blob(); },
      downloads: ["pdf", "gif", "html"],
    };
  }

  function staticBackend() {
    let worker = null, ready = null, pending = new Map(), nextId = 1;
    function start() {
      worker = new Worker("pyworker.js", { type: "module" });
      ready = new Promise((resolve, reject) => {
        worker.onmessage = (e) => {
          const m = typeof e.data === "string" ? JSON.parse(e.data) : e.data;
          if (m.times) for (const [what, ms] of Object.entries(m.times)) TIMES.push([`worker ${what}`, 0, ms]);
          if (m.type === "ready") { resolve(m.engine); return; }
          if (m.type === "warm") { mark("warm", 0); return; }
          if (m.type === "boot-error") { reject(new UserError(m.error)); return; }
          const job = pending.get(m.id);
          if (!job) return;
          if (m.type === "progress" || m.type === "target") job.onProgress && job.onProgress(m);
          else {
            pending.delete(m.id);
            if (m.type === "error") job.reject(new UserError(m.error)); else job.resolve(m.answer);
          }
        };
        worker.onerror = (e) => reject(new UserError(`the solver could not start: ${e.message}`));
      });
      return ready;
    }
    function ask(kind, args, onProgress) {
      return ready.then(() => new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject, onProgress });
        worker.postMessage({ id, kind, args });
      }));
    }
    const backend = {
      ready: start(),
      solve(req, onProgress) { return ask("solve", req, onProgress); },
      stop() {
        // A static host cannot send the headers Pyodide's interrupt needs: end the worker
        // and start a fresh one.
        worker.terminate();
        for (const job of pending.values()) job.reject(new UserError("stopped"));
        pending.clear();
        backend.ready = start();
        setEngine("loading the solver again…");
        backend.ready.then(setEngine);
      },
      call(kind, body) { return ask(kind, body); },
      async download(body) {  // the offline viewer is pure Python; the sheet and GIF are not
        const out = await ask("viewer", body);
        return new Blob([out.html], { type: "text/html" });
      },
      downloads: ["html"],
    };
    return backend;
  }

  const backend = CONFIG.mode === "static" ? staticBackend() : servedBackend();

  // ---- state ---------------------------------------------------------------------------
  let asked = null;      // the request of the answer shown
  let answer = null;     // its answer
  let picked = null;     // the picked solution's cells
  let scene = null;      // the step viewer's scene
  let step = 0;
  let plan = null, planStep = 0, planTimer = null;
  let run = 0;           // a counter: answers of an older request are dropped
  let slowTarget = false; // the static solver said the target is slow in the browser

  function setEngine(text) { $("engine").textContent = text ? `engine: ${text}` : ""; }
  function setState(s) { document.body.dataset.state = s; }
  function showError(line) {
    const e = $("error");
    e.textContent = line || "";
    e.title = line || "";
    e.hidden = !line;
  }

  function request() {
    const region = $("region").value;
    return { snake: $("snake").value.trim(), box: region.trim() ? "" : $("box").value.trim(),
             region };
  }

  function setHash(req) {
    const parts = [`snake=${encodeURIComponent(req.snake)}`];
    if (req.box) parts.push(`box=${encodeURIComponent(req.box)}`);
    if (req.region && req.region.length < 1500) parts.push(`region=${encodeURIComponent(req.region)}`);
    const hash = "#" + parts.join("&");
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  function readHash() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (!params.get("snake")) return false;
    $("snake").value = params.get("snake");
    $("box").value = params.get("box") || "";
    $("region").value = params.get("region") || "";
    $("region-box").open = !!params.get("region");
    return true;
  }

  // ---- solving -------------------------------------------------------------------------
  function warnSlow(cells, mine) {
    // Said by the static solver before it searches: warn before a slow count starts.
    if (mine !== run) return;
    $("warning").textContent = `Counting every solution of a ${cells}-cell target runs in your ` +
      "browser and may take a while; the first solution is shown first, progress below, and " +
      "Stop ends it.";
    $("warning").hidden = false;
  }

  async function solve() {
    const req = request();
    const mine = ++run;
    slowTarget = false;
    mark("click");
    showError("");
    $("warning").hidden = true;
    if (!req.snake) { showError("type a snake: segment lengths like 3-3-3-3-2-..., or a catalog name"); return; }
    setHash(req);
    setState("solving");
    // The answer shown belongs to the last snake: hide it until this one's is drawn.
    for (const id of ["answer", "right", "words-box"]) $(id).hidden = true;
    $("solve").disabled = true;
    $("stop").hidden = false;
    $("progress").hidden = false;
    $("bar").removeAttribute("value");
    $("progress-text").textContent = "solving…";
    const began = performance.now();
    const onProgress = (p) => {
      if (mine !== run) return;
      if (p.type === "target") { slowTarget = p.slow; if (p.slow) warnSlow(p.cells, mine); return; }
      $("bar").max = Math.max(1, p.total);
      $("bar").value = p.done;
      // The seconds too: a part of a big search can run for minutes without finishing.
      const secs = Math.round((performance.now() - began) / 1000);
      $("progress-text").textContent = `${p.done} of ${p.total} parts searched, ${p.found} found, ${secs} s`;
      mark("progress", mine);
    };
    try {
      await backend.ready;
      let result;
      if (CONFIG.mode === "static") {
        // In the browser: a small target is counted at once; a big one shows its first
        // solution, then counts every solution.
        result = await backend.solve({ ...req, first_if_big: true }, onProgress);
        mark("answer", mine);
        if (mine !== run) return;
        if (!result.error && !result.complete && result.stop_reason === "limit") {
          await showAnswer(req, result, mine, false, false);
          $("progress").hidden = false;
          $("progress-text").textContent = "first solution shown; counting every solution…";
          result = await backend.solve(req, onProgress);
          mark("answer", mine);
          if (mine !== run) return;
          $("warning").hidden = true;
          await showAnswer(req, result, mine, true);
        } else {
          await showAnswer(req, result, mine);
        }
      } else {
        result = await backend.solve(req, onProgress);
        mark("answer", mine);
        if (mine !== run) return;
        await showAnswer(req, result, mine);
      }
    } catch (err) {
      if (mine !== run) return;
      if (err.name === "AbortError" || err.message === "stopped") {
        $("progress-text").textContent = "stopped";
      } else {
        showError(err instanceof UserError ? err.message : `error: ${err.message}`);
        if (err.nearby && err.nearby.length) {
          $("answer").hidden = false;
          showNearby(err.nearby, true);
        }
        setState("error");
      }
    } finally {
      if (mine === run) {
        $("solve").disabled = false;
        $("stop").hidden = true;
        $("progress").hidden = $("progress-text").textContent !== "stopped";
        setState(document.body.dataset.state === "solving" ? "stopped" : document.body.dataset.state);
        mark("done", mine);
      }
    }
  }

  function stop() {
    run++;
    backend.stop();
    $("progress-text").textContent = "stopped";
    $("solve").disabled = false;
    $("stop").hidden = true;
    setState("stopped");
  }

  function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

  async function showAnswer(req, result, mine, keepPick, final = true) {
    if (result.error) {
      showError(result.error);
      $("answer").hidden = false;
      $("counts").textContent = "";
      $("search").textContent = "";
      $("pick-row").hidden = true;
      showNearby(result.nearby || [], true);
      setState("error");
      return;
    }
    asked = req;
    answer = result;
    const more = result.complete ? "" : "+";
    const why = { limit: "stopped at the first solution", seconds: "stopped at the server's time limit",
      interrupted: "stopped", nodes: "stopped at the node limit" }[result.stop_reason] || "";
    $("counts").textContent = `${result.distinct}${more} distinct solution${result.distinct === 1 && !more ? "" : "s"}` +
      ` · ${result.placements}${more} placements` +
      (result.distinct_up_to_reversal !== result.distinct ? ` · ${result.distinct_up_to_reversal}${more} up to reversal` : "") +
      ` · ${result.complete ? "complete" : "incomplete: " + why}`;
    $("search").textContent = `${result.target.description}; ${result.nodes.toLocaleString()} nodes in ` +
      `${result.seconds.toFixed(3)} s on the ${result.engine} engine` +
      (result.solutions_shown < result.distinct ? `; the first ${result.solutions_shown} solutions are listed` : "");
    $("answer").hidden = false;
    showNearby(result.nearby || [], false);
    const select = $("solutions");
    const before = select.value;
    select.innerHTML = "";
    result.solutions.forEach((s, i) => {
      const o = document.createElement("option");
      o.value = String(i);
      o.textContent = `${i + 1} of ${result.distinct}${more}${s.start_class ? " (starts at a " + s.start_class + ")" : ""}`;
      select.appendChild(o);
    });
    $("pick-row").hidden = result.solutions.length === 0;
    for (const form of ["pdf", "gif", "html"]) $(`dl-${form}`).hidden = !backend.downloads.includes(form);
    $("no-downloads").hidden = backend.downloads.length === 3;
    if (!result.solutions.length) {
      $("right").hidden = true;
      $("words-box").hidden = true;
      if (final) setState("done");
      return;
    }
    // The fold plan is worked out once the answer is final: in the browser it shares the one
    // solver with the count, and on the server it is not needed to draw the answer.
    if (keepPick && before && Number(before) < result.solutions.length) {
      select.value = before;
      $("right").hidden = false;
      $("words-box").hidden = false;
      if (final && mine === run) loadPlan({ ...asked, cells: picked }, mine);
    } else {
      await pick(0, mine, final);
    }
    if (final && mine === run) setState("done");
  }

  function showNearby(list, typo) {
    const box = $("nearby");
    box.innerHTML = "";
    if (!list.length) {
      box.hidden = !typo;
      if (typo) box.textContent = "No design one typo away folds either.";
      return;
    }
    const head = document.createElement("p");
    head.textContent = typo ? "Did you mean one of these? They fold:" : "It does not fold. Designs one typo away that do:";
    box.appendChild(head);
    for (const n of list) {
      const a = document.createElement("a");
      a.href = `#snake=${encodeURIComponent(n.text)}` + ($("box").value.trim() ? `&box=${encodeURIComponent($("box").value.trim())}` : "");
      a.className = "suggestion";
      a.textContent = n.text;
      a.title = `${n.edit}; ${n.distinct}${n.complete ? "" : "+"} distinct`;
      a.addEventListener("click", (e) => { e.preventDefault(); $("snake").value = n.text; solve(); });
      box.appendChild(a);
      const note = document.createElement("span");
      note.className = "muted";
      note.textContent = ` ${n.edit} `;
      box.appendChild(note);
    }
    box.hidden = false;
  }

  async function pick(index, mine, withPlan = true) {
    const s = answer.solutions[index];
    picked = s.cells;
    $("solutions").value = String(index);
    const body = { ...asked, cells: picked };
    const d = await backend.call("details", body);
    mark("details", mine);
    if (mine !== run) return;
    scene = d.viewer;
    $("words").textContent = d.words;
    $("words-box").hidden = false;
    $("right").hidden = false;
    $("slider").max = String(scene.steps.length - 1);
    clearPlan();
    go(0);
    mark("drawn", mine);
    if (withPlan) loadPlan(body, mine);
  }

  // ---- drawing -------------------------------------------------------------------------
  // The scene is drawn as SVG by the few lines below, from the scene's own camera (its
  // cut-aways are worked out for that camera): no plotting library, so the first drawing
  // costs milliseconds, not the seconds plotly.js takes to load and start WebGL. Drag turns
  // the view; a double click turns it back.
  const SVG = "http://www.w3.org/2000/svg";
  const SHADE = [0.78, 0.64, 1.0]; // light on faces across x, y, z (the top is brightest)

  function basis(eye) {
    const n = Math.hypot(...eye) || 1;
    const f = eye.map((v) => v / n); // toward the viewer
    let r = [-f[1], f[0], 0]; // right: horizontal, across the view
    const rn = Math.hypot(...r) || 1;
    r = rn < 1e-9 ? [1, 0, 0] : r.map((v) => v / rn);
    const u = [f[1] * r[2] - f[2] * r[1], f[2] * r[0] - f[0] * r[2], f[0] * r[1] - f[1] * r[0]];
    return { f, r, u };
  }

  function shade(hex, k) {
    const n = parseInt(hex.slice(1), 16);
    const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(Math.min(255, v * k)));
    return `rgb(${c.join(",")})`;
  }

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  // cubes: [{cell, colour, cut}]; labels: [[cell, text]]; lo, hi: the corners to fit.
  function drawCubes(box, cubes, eye, labels, lo, hi) {
    const turn = box.turn || [0, 0];
    const az = Math.atan2(eye[1], eye[0]) + turn[0];
    const flat = Math.hypot(eye[0], eye[1]);
    const el0 = Math.max(-1.45, Math.min(1.45, Math.atan2(eye[2], flat) + turn[1]));
    const { f, r, u } = basis([Math.cos(el0) * Math.cos(az), Math.cos(el0) * Math.sin(az), Math.sin(el0)]);
    const P = (p) => [p[0] * r[0] + p[1] * r[1] + p[2] * r[2], -(p[0] * u[0] + p[1] * u[1] + p[2] * u[2])];
    const corners = [];
    for (const x of [lo[0], hi[0]]) for (const y of [lo[1], hi[1]]) for (const z of [lo[2], hi[2]]) corners.push(P([x, y, z]));
    const xs = corners.map((c) => c[0]), ys = corners.map((c) => c[1]);
    const pad = 0.6;
    const x0 = Math.min(...xs) - pad, y0 = Math.min(...ys) - pad;
    const w = Math.max(...xs) - x0 + pad, h = Math.max(...ys) - y0 + pad;
    const svg = el("svg", { viewBox: `${x0} ${y0} ${w} ${h}`, width: "100%", height: "100%",
      preserveAspectRatio: "xMidYMid meet", class: "cubes", role: "img" });
    const depth = (c) => (c[0] + 0.5) * f[0] + (c[1] + 0.5) * f[1] + (c[2] + 0.5) * f[2];
    const order = cubes.slice().sort((a, b) => depth(a.cell) - depth(b.cell));
    for (const c of order) {
      const g = el("g", {}, svg);
      for (let a = 0; a < 3; a++) {
        if (Math.abs(f[a]) < 1e-9) continue;
        const at = c.cell[a] + (f[a] > 0 ? 1 : 0);
        const b = (a + 1) % 3, d = (a + 2) % 3;
        const pts = [[0, 0], [1, 0], [1, 1], [0, 1]].map(([i, j]) => {
          const p = c.cell.slice();
          p[a] = at; p[b] += i; p[d] += j;
          return P(p).map((v) => v.toFixed(4)).join(",");
        });
        el("polygon", c.cut
          ? { points: pts.join(" "), fill: "none", stroke: "#888", "stroke-width": 0.02, "stroke-dasharray": "0.08 0.06" }
          : { points: pts.join(" "), fill: shade(c.colour, SHADE[a]), stroke: "#222", "stroke-width": 0.025,
              "stroke-linejoin": "round" }, g);
      }
    }
    for (const [cell, text] of labels) {
      const [x, y] = P([cell[0] + 0.5, cell[1] + 0.5, cell[2] + 0.5]);
      const t = el("text", { x: x.toFixed(4), y: (y + 0.13).toFixed(4), "text-anchor": "middle",
        "font-size": 0.38, class: "label" }, svg);
      t.textContent = text;
    }
    box.replaceChildren(svg);
  }

  function turnable(box, redraw) {
    let from = null;
    box.addEventListener("pointerdown", (e) => { from = [e.clientX, e.clientY]; box.setPointerCapture(e.pointerId); });
    box.addEventListener("pointerup", () => { from = null; });
    box.addEventListener("pointermove", (e) => {
      if (!from) return;
      const t = box.turn || [0, 0];
      box.turn = [t[0] - (e.clientX - from[0]) * 0.01, t[1] + (e.clientY - from[1]) * 0.01];
      from = [e.clientX, e.clientY];
      redraw();
    });
    box.addEventListener("dblclick", () => { box.turn = [0, 0]; redraw(); });
  }

  // Step k's cubes and numbers: the new cubes numbered, and cube 1.
  function stepDrawing(k) {
    const s = scene.steps[k];
    const cutSet = new Set(s.cut);
    const cubes = [];
    for (let i = 0; i <= s.last; i++) {
      const colour = i >= s.first ? scene.new : i === s.pivot ? scene.pivot : scene.colours[i];
      cubes.push({ cell: scene.cells[i], colour, cut: cutSet.has(i) });
    }
    const labels = [];
    for (let i = s.first; i <= s.last; i++) labels.push([scene.cells[i], String(i + 1)]);
    if (s.first > 0) labels.push([scene.cells[0], "1"]);
    return { cubes, labels };
  }

  function go(k) {
    if (!scene) return;
    step = Math.max(0, Math.min(scene.steps.length - 1, k));
    const s = scene.steps[step];
    const { cubes, labels } = stepDrawing(step);
    drawCubes($("viewer"), cubes, scene.eye, labels, [0, 0, 0], scene.dims);
    $("step-title").textContent = s.title;
    $("slider").value = String(step);
    $("prev").disabled = step === 0;
    $("next").disabled = step === scene.steps.length - 1;
  }

  function clearPlan() {
    clearInterval(planTimer);
    planTimer = null;
    plan = null;
    $("plan-play").textContent = "Play";
    $("plan").hidden = true;
    $("plan-controls").hidden = true;
    $("plan-words").textContent = "";
    $("plan-status").hidden = false;
    $("plan-status").textContent = "the fold plan comes when the count is complete…";
  }

  async function loadPlan(body, mine, asked = false) {
    clearPlan();
    if (slowTarget && !asked) {
      // In the browser a big target's plan takes a while and holds the one solver: on request.
      $("plan-status").textContent = "";
      const b = document.createElement("button");
      b.type = "button";
      b.id = "plan-ask";
      b.textContent = "Work out a fold plan (slow in the browser: it may take half a minute)";
      b.addEventListener("click", () => loadPlan(body, mine, true));
      $("plan-status").appendChild(b);
      return;
    }
    $("plan-status").textContent = "working out a fold plan…";
    try {
      const p = await backend.call("plan", body);
      if (mine !== run || picked !== body.cells) return;
      if (p.error) { $("plan-status").textContent = p.error; return; }
      plan = p;
      const all = p.states.flat();  // one frame for every state, so the snake does not jump
      plan.lo = [0, 1, 2].map((a) => Math.min(...all.map((c) => c[a])));
      plan.hi = [0, 1, 2].map((a) => Math.max(...all.map((c) => c[a])) + 1);
      $("plan-status").textContent = `${p.quarter_turns} quarter turns, holding the ${p.held} end.`;
      $("plan").hidden = false;
      $("plan-controls").hidden = false;
      planGo(0);
      mark("plan", mine);
    } catch (err) {
      if (mine === run) $("plan-status").textContent = err.message;
    }
  }

  // The plan's state k: every cube in its colour, the two ends numbered.
  function planDrawing(k) {
    const cells = plan.states[k];
    const cubes = cells.map((c, i) => ({ cell: c, colour: scene ? scene.colours[i] : "#7a4a22", cut: false }));
    const labels = [[cells[0], "1"], [cells[cells.length - 1], String(cells.length)]];
    return { cubes, labels };
  }

  function planGo(k) {
    if (!plan) return;
    planStep = Math.max(0, Math.min(plan.states.length - 1, k));
    const { cubes, labels } = planDrawing(planStep);
    drawCubes($("plan"), cubes, scene ? scene.eye : [1, -1, 1], labels, plan.lo, plan.hi);
    $("plan-words").textContent = plan.words[planStep] || "";
    $("plan-count").textContent = `${planStep} of ${plan.states.length - 1}`;
  }

  function planPlay() {
    if (planTimer) { clearInterval(planTimer); planTimer = null; $("plan-play").textContent = "Play"; return; }
    if (plan && planStep >= plan.states.length - 1) planGo(0);
    $("plan-play").textContent = "Pause";
    planTimer = setInterval(() => {
      if (!plan || planStep >= plan.states.length - 1) { clearInterval(planTimer); planTimer = null; $("plan-play").textContent = "Play"; return; }
      planGo(planStep + 1);
    }, 1200);
  }

  // A sheet to print (or to save as PDF from the print dialog): every step as a picture with
  // its words, then the fold plan if it is worked out. It works in the static site too, where
  // matplotlib's PDF sheet cannot be made.
  function printSteps() {
    if (!scene) return;
    const sheet = $("print-sheet");
    sheet.replaceChildren();
    const head = document.createElement("h1");
    head.textContent = `${$("snake").value.trim() || "snake"}: ${answer ? answer.target.description : ""}`;
    sheet.appendChild(head);
    const lines = document.createElement("pre");
    lines.textContent = $("words").textContent;
    sheet.appendChild(lines);
    const figure = (title, drawing, lo, hi) => {
      const fig = document.createElement("figure");
      const cap = document.createElement("figcaption");
      cap.textContent = title;
      const box = document.createElement("div");
      box.className = "print-cubes";
      fig.append(cap, box);
      sheet.appendChild(fig);
      drawCubes(box, drawing.cubes, scene.eye, drawing.labels, lo, hi);
    };
    scene.steps.forEach((s, k) => figure(s.title, stepDrawing(k), [0, 0, 0], scene.dims));
    if (plan) {
      const h = document.createElement("h2");
      h.textContent = `Fold it from a flat snake: ${plan.quarter_turns} quarter turns, holding the ${plan.held} end`;
      sheet.appendChild(h);
      plan.states.forEach((_, k) => figure(plan.words[k] || "", planDrawing(k), plan.lo, plan.hi));
    }
    window.print();
  }

  async function download(form) {
    if (!picked) return;
    const button = $(`dl-${form}`);
    button.disabled = true;
    try {
      const blob = await backend.download({ ...asked, cells: picked, form });
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = `snakecube.${form}`;
      document.body.appendChild(a);
      a.click();
      setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 10000);
    } catch (err) {
      showError(err.message);
    } finally {
      button.disabled = false;
    }
  }

  // ---- wiring --------------------------------------------------------------------------
  turnable($("viewer"), () => go(step));
  turnable($("plan"), () => planGo(planStep));
  $("ask").addEventListener("submit", (e) => { e.preventDefault(); solve(); });
  $("stop").addEventListener("click", stop);
  $("prev").addEventListener("click", () => go(step - 1));
  $("next").addEventListener("click", () => go(step + 1));
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  $("solutions").addEventListener("change", () => { const mine = ++run; pick(Number($("solutions").value), mine).catch((e) => showError(e.message)); });
  $("plan-prev").addEventListener("click", () => planGo(planStep - 1));
  $("plan-next").addEventListener("click", () => planGo(planStep + 1));
  $("plan-play").addEventListener("click", planPlay);
  for (const form of ["pdf", "gif", "html"]) $(`dl-${form}`).addEventListener("click", () => download(form));
  $("print").addEventListener("click", printSteps);
  $("region-file").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    if (f.size > 1000000) { showError(`region file ${JSON.stringify(f.name)} is larger than 1000000 bytes`); return; }
    $("region").value = await f.text();
    $("region-box").open = true;
    $("box").value = "";
  });
  document.addEventListener("keydown", (e) => {
    if (!scene || ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName)) return;
    if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
  });
  window.addEventListener("hashchange", () => { if (readHash()) solve(); });
  window.snakecubeStep = () => step;
  window.snakecubeGo = (k) => go(k);

  // The catalog's names, for the snake box's suggestions.
  (CONFIG.mode === "static" ? backend.ready.then(() => backend.call("catalog", {})) :
    fetch("api/catalog").then((r) => r.json())).then((list) => {
    for (const e of list) {
      const o = document.createElement("option");
      o.value = e.name;
      o.label = `${e.name} (${e.box})`;
      $("catalog").appendChild(o);
    }
  }).catch(() => {});

  setEngine(CONFIG.mode === "static" ? "loading the solver in your browser…" : CONFIG.engine);
  backend.ready.then((engine) => {
    setEngine(engine);
    mark("ready", 0);
    if (document.body.dataset.state === "loading") setState("ready");
    if (readHash()) solve();
  }).catch((err) => { showError(err.message); setState("error"); });
})();
