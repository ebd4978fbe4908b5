// snakecube's page: one script for both ways of shipping it. CONFIG.mode is "served" (the
// server answers over HTTP, progress as server-sent events) or "static" (Pyodide answers in
// a Web Worker). Everything else - the form, the counts, the step viewer, the fold plan, the
// shareable #snake=...&box=... link - is the same code.
"use strict";
(function () {
  const CONFIG = window.SNAKECUBE_CONFIG || { mode: "served", engine: "" };
  const $ = (id) => document.getElementById(id);
  const BIG_IN_BROWSER = 27; // cells past which a complete count is slow in the browser

  class UserError extends Error {}

  // ---- backends ------------------------------------------------------------------------
  function servedBackend() {
    let controller = null;
    async function post(path, body) {
      const r = await fetch(path, { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify(body) });
      if (!r.ok) {
        let line = `the server answered ${r.status}`;
        try { line = (await r.json()).error || line; } catch (e) { /* not JSON */ }
        throw new UserError(line);
      }
      return r;
    }
    return {
      ready: Promise.resolve(CONFIG.engine),
      async solve(req, onProgress) {
        controller = new AbortController();
        const r = await fetch("api/solve", { method: "POST", signal: controller.signal,
          headers: { "content-type": "application/json" }, body: JSON.stringify(req) });
        if (!r.ok) {
          let line = `the server answered ${r.status}`;
          try { line = (await r.json()).error || line; } catch (e) { /* not JSON */ }
          throw new UserError(line);
        }
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
      downloads: true,
    };
  }

  function staticBackend() {
    let worker = null, ready = null, pending = new Map(), nextId = 1;
    function start() {
      worker = new Worker("pyworker.js", { type: "module" });
      ready = new Promise((resolve, reject) => {
        worker.onmessage = (e) => {
          const m = typeof e.data === "string" ? JSON.parse(e.data) : e.data;
          if (m.type === "ready") { resolve(m.engine); return; }
          if (m.type === "boot-error") { reject(new UserError(m.error)); return; }
          const job = pending.get(m.id);
          if (!job) return;
          if (m.type === "progress") job.onProgress && job.onProgress(m);
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
      downloads: false,
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
  async function solve() {
    const req = request();
    const mine = ++run;
    showError("");
    $("warning").hidden = true;
    if (!req.snake) { showError("type a snake: segment lengths like 3-3-3-3-2-..., or a catalog name"); return; }
    setHash(req);
    setState("solving");
    $("solve").disabled = true;
    $("stop").hidden = false;
    $("progress").hidden = false;
    $("bar").removeAttribute("value");
    $("progress-text").textContent = "solving…";
    const onProgress = (p) => {
      if (mine !== run) return;
      $("bar").max = Math.max(1, p.total);
      $("bar").value = p.done;
      $("progress-text").textContent = `${p.done} of ${p.total} parts searched, ${p.found} found`;
    };
    try {
      await backend.ready;
      let result;
      if (CONFIG.mode === "static") {
        // In the browser: a first solution at once, then the complete count.
        result = await backend.solve({ ...req, limit: 1 }, onProgress);
        if (mine !== run) return;
        if (!result.error && !result.complete) {
          await showAnswer(req, result, mine, false, false);
          if (result.target.cells > BIG_IN_BROWSER) {
            $("warning").textContent = `Counting every solution of a ${result.target.cells}-cell target runs in pure Python in your browser and may take a minute; Stop ends it.`;
            $("warning").hidden = false;
          }
          $("progress-text").textContent = "first solution shown; counting every solution…";
          result = await backend.solve(req, onProgress);
          if (mine !== run) return;
          $("warning").hidden = true;
          await showAnswer(req, result, mine, true);
        } else {
          await showAnswer(req, result, mine);
        }
      } else {
        result = await backend.solve(req, onProgress);
        if (mine !== run) return;
        await showAnswer(req, result, mine);
      }
    } catch (err) {
      if (mine !== run) return;
      if (err.name === "AbortError" || err.message === "stopped") {
        $("progress-text").textContent = "stopped";
      } else {
        showError(err instanceof UserError ? err.message : `error: ${err.message}`);
        setState("error");
      }
    } finally {
      if (mine === run) {
        $("solve").disabled = false;
        $("stop").hidden = true;
        $("progress").hidden = $("progress-text").textContent !== "stopped";
        setState(document.body.dataset.state === "solving" ? "stopped" : document.body.dataset.state);
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
    $("downloads").hidden = !backend.downloads;
    if (!result.solutions.length) {
      $("right").hidden = true;
      $("words-box").hidden = true;
      if (final) setState("done");
      return;
    }
    if (keepPick && before && Number(before) < result.solutions.length) {
      select.value = before;
    } else {
      await pick(0, mine);
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

  async function pick(index, mine) {
    const s = answer.solutions[index];
    picked = s.cells;
    $("solutions").value = String(index);
    const body = { ...asked, cells: picked };
    const d = await backend.call("details", body);
    if (mine !== run) return;
    scene = d.viewer;
    $("words").textContent = d.words;
    $("words-box").hidden = false;
    $("right").hidden = false;
    $("slider").max = String(scene.steps.length - 1);
    go(0);
    loadPlan(body, mine);
  }

  // ---- drawing -------------------------------------------------------------------------
  const CORNERS = [...Array(8).keys()].map((c) => [c & 1, (c >> 1) & 1, (c >> 2) & 1]);
  const TRIANGLES = [[0, 1, 3], [0, 3, 2], [4, 7, 5], [4, 6, 7], [0, 5, 1], [0, 4, 5],
    [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]];
  const EDGES = [[0, 1], [1, 3], [3, 2], [2, 0], [4, 5], [5, 7], [7, 6], [6, 4], [0, 4], [1, 5], [2, 6], [3, 7]];

  function cubeTraces(cubes, eye, labels) {
    // cubes: [{cell, colour, cut}]; one mesh for the solid ones, lines for every edge
    const mesh = { type: "mesh3d", x: [], y: [], z: [], i: [], j: [], k: [], facecolor: [],
      flatshading: true, hoverinfo: "skip", showscale: false,
      lighting: { ambient: 0.6, diffuse: 0.7, specular: 0, fresnel: 0, roughness: 1 } };
    const solid = { type: "scatter3d", mode: "lines", x: [], y: [], z: [], hoverinfo: "skip",
      line: { color: "#222222", width: 2 }, showlegend: false };
    const cut = { type: "scatter3d", mode: "lines", x: [], y: [], z: [], hoverinfo: "skip",
      line: { color: "#888888", width: 2, dash: "dot" }, showlegend: false };
    for (const c of cubes) {
      const [x, y, z] = c.cell;
      const pts = CORNERS.map(([a, b, d]) => [x + a, y + b, z + d]);
      if (!c.cut) {
        const base = mesh.x.length;
        for (const p of pts) { mesh.x.push(p[0]); mesh.y.push(p[1]); mesh.z.push(p[2]); }
        for (const t of TRIANGLES) { mesh.i.push(base + t[0]); mesh.j.push(base + t[1]); mesh.k.push(base + t[2]); mesh.facecolor.push(c.colour); }
      }
      const lines = c.cut ? cut : solid;
      for (const [a, b] of EDGES) {
        lines.x.push(pts[a][0], pts[b][0], null);
        lines.y.push(pts[a][1], pts[b][1], null);
        lines.z.push(pts[a][2], pts[b][2], null);
      }
    }
    const norm = Math.hypot(...eye) || 1;
    const text = { type: "scatter3d", mode: "text", x: [], y: [], z: [], text: [], hoverinfo: "skip",
      textfont: { size: 13, color: "black" }, showlegend: false };
    for (const [cell, label] of labels) {
      for (let a = 0; a < 3; a++) (a === 0 ? text.x : a === 1 ? text.y : text.z).push(cell[a] + 0.5 + 0.75 * eye[a] / norm);
      text.text.push(label);
    }
    return [mesh, solid, cut, text];
  }

  function layout(lo, hi, eye) {
    const span = [0, 1, 2].map((a) => hi[a] - lo[a]);
    const big = Math.max(...span);
    const narrow = window.innerWidth < 600 ? 0.8 : 1;
    return {
      margin: { l: 0, r: 0, t: 0, b: 0 }, showlegend: false, paper_bgcolor: "#ffffff",
      scene: {
        xaxis: { range: [lo[0] - 0.5, hi[0] + 0.5], title: { text: "right" }, showticklabels: false, showspikes: false },
        yaxis: { range: [lo[1] - 0.5, hi[1] + 0.5], title: { text: "away" }, showticklabels: false, showspikes: false },
        zaxis: { range: [lo[2] - 0.5, hi[2] + 0.5], title: { text: "up" }, showticklabels: false, showspikes: false },
        aspectmode: "manual",
        aspectratio: { x: narrow * span[0] / big, y: narrow * span[1] / big, z: narrow * span[2] / big },
        camera: { eye: { x: 2.6 * eye[0], y: 2.6 * eye[1], z: 2.6 * eye[2] },
                  projection: { type: "orthographic" } },
      },
    };
  }

  const PLOT_CONFIG = { displaylogo: false, responsive: true, displayModeBar: false };

  function go(k) {
    if (!scene) return;
    step = Math.max(0, Math.min(scene.steps.length - 1, k));
    const s = scene.steps[step];
    const cutSet = new Set(s.cut);
    const cubes = [];
    for (let i = 0; i <= s.last; i++) {
      const colour = i >= s.first ? scene.new : i === s.pivot ? scene.pivot : scene.colours[i];
      cubes.push({ cell: scene.cells[i], colour, cut: cutSet.has(i) });
    }
    const labels = [];
    for (let i = s.first; i <= s.last; i++) labels.push([scene.cells[i], String(i + 1)]);
    if (s.first > 0) labels.push([scene.cells[0], "1"]);
    Plotly.react($("viewer"), cubeTraces(cubes, scene.eye, labels),
      layout([0, 0, 0], scene.dims, scene.eye), PLOT_CONFIG);
    $("step-title").textContent = s.title;
    $("slider").value = String(step);
    $("prev").disabled = step === 0;
    $("next").disabled = step === scene.steps.length - 1;
  }

  async function loadPlan(body, mine) {
    clearInterval(planTimer);
    planTimer = null;
    plan = null;
    $("plan").hidden = true;
    $("plan-controls").hidden = true;
    $("plan-words").textContent = "";
    $("plan-status").hidden = false;
    $("plan-status").textContent = "working out a fold plan…";
    try {
      const p = await backend.call("plan", body);
      if (mine !== run || picked !== body.cells) return;
      if (p.error) { $("plan-status").textContent = p.error; return; }
      plan = p;
      $("plan-status").textContent = `${p.quarter_turns} quarter turns, holding the ${p.held} end.`;
      $("plan").hidden = false;
      $("plan-controls").hidden = false;
      planGo(0);
    } catch (err) {
      if (mine === run) $("plan-status").textContent = err.message;
    }
  }

  function planGo(k) {
    if (!plan) return;
    planStep = Math.max(0, Math.min(plan.states.length - 1, k));
    const cells = plan.states[planStep];
    const lo = [0, 1, 2].map((a) => Math.min(...plan.states.flat().map((c) => c[a])));
    const hi = [0, 1, 2].map((a) => Math.max(...plan.states.flat().map((c) => c[a])) + 1);
    const cubes = cells.map((c, i) => ({ cell: c, colour: scene ? scene.colours[i] : "#7a4a22", cut: false }));
    const labels = [[cells[0], "1"], [cells[cells.length - 1], String(cells.length)]];
    Plotly.react($("plan"), cubeTraces(cubes, scene ? scene.eye : [1, -1, 1], labels),
      layout(lo, hi, scene ? scene.eye : [1, -1, 1]), PLOT_CONFIG);
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
    if (document.body.dataset.state === "loading") setState("ready");
    if (readHash()) solve();
  }).catch((err) => { showError(err.message); setState("error"); });
})();
