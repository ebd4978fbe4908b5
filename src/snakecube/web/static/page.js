// snakecube's page: one script for both ways of shipping it. CONFIG.mode is "served" (the
// server answers over HTTP, progress as server-sent events) or "static" (Pyodide answers in
// a Web Worker). Everything else - the form, the counts, the step viewer, the fold plan, the
// shareable #snake=...&solution=K&step=N link - is the same code.
"use strict";
(function () {
  const CONFIG = window.SNAKECUBE_CONFIG || { mode: "served", engine: "" };
  // In a frame (another site's page; the served page refuses to be framed, a static copy
  // may not), a link fills the form but never starts a search by itself.
  const FRAMED = (() => { try { return window.top !== window.self; } catch (e) { return true; } })();
  const $ = (id) => document.getElementById(id);

  class UserError extends Error {}

  // Timings, for benchmarks/web.py and a person's devtools: [what, run, ms since navigation].
  const TIMES = (window.snakecubeTimes = []);
  function mark(what, r) { TIMES.push([what, r === undefined ? run : r, performance.now()]); }


  // ---- backends ------------------------------------------------------------------------
  function servedBackend() {
    let controller = null, planController = null;
    // A refused request: its one line, and for a cube count that does not fit, the designs
    // one typo away that do.
    async function refusal(r) {
      // nearby: only where the server sent it (a cube count that does not fit); a refusal
      // for being busy says nothing of the snake.
      let line = `the server answered ${r.status}`, nearby;
      try {
        const data = await r.json();
        line = data.error || line;
        nearby = data.nearby;
      } catch (e) { /* not JSON */ }
      const err = new UserError(line);
      err.nearby = nearby;
      return err;
    }
    async function post(path, body, signal) {
      const r = await fetch(path, { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify(body), signal });
      if (!r.ok) throw await refusal(r);
      return r;
    }
    return {
      ready: Promise.resolve(CONFIG.engine),
      async solve(req, onProgress) {
        if (controller) controller.abort();  // a search the page no longer waits for ends
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
      stop() { if (controller) controller.abort(); controller = null; this.cancelPlan(); },
      async call(kind, body) {
        if (kind !== "plan") return (await post(`api/${kind}`, body)).json();
        planController = new AbortController();  // picking another solution aborts it
        try {
          return await (await post("api/plan", body, planController.signal)).json();
        } finally { planController = null; }
      },
      // The plan being worked out is not wanted any more: drop its request (the server
      // ends the job when the connection closes).
      cancelPlan() {
        if (planController) { planController.abort(); mark("plan cancelled"); }
        planController = null;
      },
      async download(body) { return (await post("api/download", body)).blob(); },
      downloads: ["pdf", "gif", "html", "plan.pdf"],
      async make(body) {  // the file, named as the server names it
        const r = await post("api/make", body);
        const named = /filename="([^"]+)"/.exec(r.headers.get("content-disposition") || "");
        return { blob: await r.blob(), name: named ? named[1] : `snakecube.${body.form}` };
      },
    };
  }

  const PLAN_PATIENCE = 1500;  // ms, see cancelPlan
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
        pending.set(id, { resolve, reject, onProgress, kind, args, started: performance.now() });
        worker.postMessage({ id, kind, args });
      }));
    }
    // A static host cannot send the headers Pyodide's interrupt needs: to stop a job, end
    // the worker and start a fresh one. With ``requeue``, only the plan is ended: the other
    // jobs asked meanwhile are sent again to the fresh worker.
    function restart(requeue = false) {
      worker.terminate();
      const again = [];
      for (const [id, job] of pending) {
        if (requeue && job.kind !== "plan") again.push([id, job]);
        else job.reject(new UserError("stopped"));
      }
      pending.clear();
      backend.ready = start();
      setEngine("loading the solver again…");
      backend.ready.then(setEngine);
      for (const [id, job] of again) {
        pending.set(id, job);
        ready.then(() => worker.postMessage({ id, kind: job.kind, args: job.args }));
      }
    }
    const backend = {
      ready: start(),
      solve(req, onProgress) { return ask("solve", req, onProgress); },
      stop() { restart(); },
      call(kind, body) { return ask(kind, body); },
      // The plan being worked out holds the one solver. A fresh solver takes 2-3 s to load,
      // longer than most plans take: a plan not wanted any more may go on for PLAN_PATIENCE
      // from when it was asked (its answer is not shown); past that, the worker is ended and
      // the jobs asked meanwhile go to a fresh one.
      cancelPlan() {
        const plan = [...pending.values()].find((job) => job.kind === "plan");
        if (!plan || plan.dropped) return;
        plan.dropped = true;
        mark("plan cancelled");
        const end = () => { if ([...pending.values()].includes(plan)) restart(true); };
        const left = PLAN_PATIENCE - (performance.now() - plan.started);
        if (left <= 0) end(); else setTimeout(end, left);
      },
      async download(body) {  // the offline viewer is pure Python; the sheet and GIF are not
        const out = await ask("viewer", body);
        return new Blob([out.html], { type: "text/html" });
      },
      downloads: ["html"],
      make: null,  // manifold3d and lib3mf have no Pyodide builds: the panel says so
    };
    return backend;
  }

  const backend = CONFIG.mode === "static" ? staticBackend() : servedBackend();
  const FORMS = ["pdf", "gif", "html", "plan.pdf"];  // the download buttons: dl-<form>

  // ---- state ---------------------------------------------------------------------------
  let asked = null;      // the request of the answer shown
  let answer = null;     // its answer
  let picked = null;     // the picked solution's cells
  let pickedIndex = 0;   // and its place in the list
  let scene = null;      // the step viewer's scene
  let step = 0;
  let plan = null, planStep = 0, planTimer = null, planAnimation = null;
  let planAfter = false;  // the state after the turn of planStep is shown (until ▶)
  let planLinked = null;  // the plan step the link names, applied when the plan comes
  let planWanted = null; // the request of the plan being worked out or shown
  let run = 0;           // a counter: answers of an older request are dropped
  let drawnFirst = -1;   // the run whose first solution is drawn while its count goes on
  let slowTarget = false; // the static solver said the target is slow in the browser
  let linked = null;     // {solution, step} from the link, applied to the next answer
  let viewWanted = false; // a new answer is drawn: bring its picture into view when done
  let pickedByHand = false; // the person chose the solution shown from the menu

  function setEngine(text) { $("engine").textContent = text ? `engine: ${text}` : ""; }
  // The page at rest: resolved the first time a solve is done (or fails), so that work the
  // first answer does not need (the service worker caching the site) waits for it.
  let restNow;
  const atRest = new Promise((resolve) => { restNow = resolve; });
  function setState(s) {
    document.body.dataset.state = s;
    if (s === "done" || s === "error") restNow();
  }
  function showError(line) {
    const e = $("error");
    e.textContent = line || "";
    e.title = line || "";
    e.hidden = !line;
  }

  // Only what acts: after an error or an empty answer, its message and nothing else.
  function showOnlyMessage() {
    for (const id of ["pick-row", "right", "words-box", "warning", "progress", "typo", "named", "make-box"]) $(id).hidden = true;
    $("counts").textContent = "";
    $("search").textContent = "";
  }

  // What is asked: the snake and one target, the drawn region if there is one, else the box
  // (or a named kind, cyl:2x3); the server and the library read both kinds from one field.
  function request() {
    const region = $("region").value;
    return { snake: $("snake").value.trim(), target: region.trim() ? region : $("box").value.trim() };
  }
  const drawn = (req) => /[#\n]/.test(req.target);  // a drawn region, not a box's text

  // The link holds the snake and target, and once an answer is shown the solution picked
  // and the step shown (both counted from 1, as the page shows them), and the fold plan's
  // state once one past its start is shown: plan=K-before (step K of the plan, before its
  // turn; plan=K reads the same) or plan=K-after (its turn made), plan=N+1 the end.
  function planMarker(k, after) { return k > 0 && k <= (plan ? plan.turns.length : k) ? `${k}-${after ? "after" : "before"}` : `${k}`; }
  function setHash(req) {
    const parts = [`snake=${encodeURIComponent(req.snake)}`];
    if (req.target && !drawn(req)) parts.push(`box=${encodeURIComponent(req.target)}`);
    if (drawn(req) && req.target.length < 1500) parts.push(`region=${encodeURIComponent(req.target)}`);
    if (scene && asked === req) parts.push(`solution=${pickedIndex + 1}`, `step=${step + 1}`);
    if (scene && asked === req && plan && planStep > 0) parts.push(`plan=${planMarker(planStep, planAfter)}`);
    else if (scene && asked === req && !plan && planLinked) parts.push(`plan=${planMarker(planLinked.step, planLinked.after)}`);
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
    const whole = (v) => (/^[1-9][0-9]*$/.test(v || "") ? Number(v) : null);
    linked = { solution: whole(params.get("solution")), step: whole(params.get("step")) };
    const m = /^([0-9]+)(?:-(before|after))?$/.exec(params.get("plan") || "");
    planLinked = m && Number(m[1]) > 0 ? { step: Number(m[1]), after: m[2] === "after" } : null;
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
    pickedByHand = false;
    mark("click");
    showError("");
    $("warning").hidden = true;
    if (!req.snake) { showError("type a snake: segment lengths like 3-3-3-3-2-..., or a catalog name"); return; }
    scene = null;
    setHash(req);
    setState("solving");
    backend.cancelPlan();
    clearPlan();
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
      // The seconds too: a part of a big search can run for minutes without finishing.
      const secs = Math.round((performance.now() - began) / 1000);
      if (!p.total) {  // a first-solution search has no parts to count
        $("bar").removeAttribute("value");
        $("progress-text").textContent = `looking for a first solution, ${secs} s`;
        mark("progress", mine);
        return;
      }
      $("bar").max = Math.max(1, p.total);
      $("bar").value = p.done;
      $("progress-text").textContent = `${p.done} of ${p.total} parts searched, ${p.found} found, ${secs} s`;
      mark("progress", mine);
    };
    try {
      await backend.ready;
      // A small target is counted at once; a big one (in the browser, or on the server)
      // shows its first solution, then counts every solution.
      let result = await backend.solve({ ...req, first_if_big: true }, onProgress);
      mark("answer", mine);
      if (mine !== run) return;
      if (!result.error && !result.complete && result.stop_reason === "limit") {
        const first = result;
        await showAnswer(req, first, mine, false, false);
        if (mine !== run) return;  // stopped, or another snake asked for, meanwhile
        drawnFirst = mine;
        $("progress").hidden = false;
        $("progress-text").textContent = "first solution shown; counting every solution…";
        let refused = null;
        try {
          result = await backend.solve(req, onProgress);
        } catch (err) {
          if (mine !== run || !(err instanceof UserError)) throw err;
          refused = err.message;  // busy, or the server stopping: the drawn solution stays
        }
        mark("answer", mine);
        if (mine !== run) return;
        $("warning").hidden = true;
        if (refused !== null || (!result.error && !result.solutions.length)) {
          // The count did not meet a solution: the first one stays, its counts marked by
          // why the count stopped, and the line under them says so.
          const stopped = refused === null ? result.stop_reason : first.stop_reason;
          await showAnswer(req, { ...first, stop_reason: stopped }, mine, true);
          $("search").textContent += refused !== null
            ? `; counting every solution was refused: ${refused}`
            : `; counting every solution ${WHY[result.stop_reason] || "stopped"} ` +
              `after ${result.seconds.toFixed(1)} s, before it met one`;
        } else {
          await showAnswer(req, result, mine, true);
        }
      } else {
        await showAnswer(req, result, mine);
        if (!result.error && !result.complete && !result.solutions.length && result.stop_reason !== "interrupted") {
          // The search stopped at a limit before it met a solution: how to look for one alone,
          // for longer (an hour, or ten times the server's limit), on the person's computer.
          const seconds = Math.max(3600, 10 * Math.ceil(CONFIG.maxSeconds || 0));
          $("search").textContent += `; to search for longer on your own computer: ` +
            cliCommand("solve", req, ` --first --seconds ${seconds}`) +
            (drawn(req) ? " (with the Region box's layers saved as region.txt)" : "");
        }
      }
    } catch (err) {
      if (mine !== run) return;
      if (err.name === "AbortError" || err.message === "stopped") {
        $("progress-text").textContent = "stopped";
      } else {
        showError(err instanceof UserError ? err.message : `error: ${err.message}`);
        showOnlyMessage();
        if (err.nearby) {
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
        // once the page above has its final size; a link to a plan step: to the plan, when it comes
        if (viewWanted && scene && !planLinked) bringIntoView();
        viewWanted = false;
        mark("done", mine);
      }
    }
  }

  function stop() {
    const stopped = run++;
    backend.stop();
    $("progress-text").textContent = "stopped";
    $("solve").disabled = false;
    $("stop").hidden = true;
    setState("stopped");
    // A big target's first solution, drawn while the count went on: the count will not
    // complete now, so its fold plan is offered (a button: Stop starts no new work).
    if (drawnFirst === stopped && picked && !planWanted) {
      $("counts").textContent = countWords({ ...answer, stop_reason: "interrupted" });
      $("bar").value = 0;  // not the first phase's moving bar
      loadPlan({ ...asked, cells: picked }, run, false, true);
    }
  }

  const WHY = {
    limit: "stopped at the first solution",
    seconds: "stopped at the server's time limit",
    interrupted: "stopped",
    nodes: "stopped at the search's size limit",
  };

  // "4 distinct solutions" when the count is complete; "at least 4 distinct solutions (the
  // search was stopped ...)" when it is not: no bare "4+".
  function countWords(result) {
    const n = result.distinct, whole = result.complete;
    const what = `distinct solution${n === 1 ? "" : "s"}`;  // "at least 1 distinct solution", as rate says
    if (whole) {
      const parts = [`${n} ${what}`, `${result.placements} placements`];
      if (result.distinct_up_to_reversal !== n) parts.push(`${result.distinct_up_to_reversal} up to reversal`);
      return parts.join(" · ") + " · complete";
    }
    const why = WHY[result.stop_reason] || "the search was stopped";
    // none met before the search stopped: not "at least 0", and not a proof that none exists
    if (n === 0) return `no solution found yet (incomplete: ${why}): this does not show that none exists`;
    return `at least ${n} ${what} (incomplete: ${why}) · at least ${result.placements} placements`;
  }

  async function showAnswer(req, result, mine, keepPick, final = true) {
    if (result.error) {
      showError(result.error);
      showOnlyMessage();
      $("answer").hidden = false;
      showNearby(result.nearby || [], true);
      setState("error");
      return;
    }
    asked = req;
    answer = result;
    $("named").textContent = result.named || "";
    $("named").hidden = !result.named;
    $("counts").textContent = countWords(result);
    // "placements" and the search's size are explained where they are said (the title).
    const tried = result.nodes === 0 && result.complete
      ? `placing the first segments every way decided it, in ${result.seconds.toFixed(3)} s, with no search`
      : `the search tried ${result.nodes.toLocaleString()} segment positions in ` +
        `${result.seconds.toFixed(3)} s on the ${result.engine} engine`;
    $("search").textContent = `${result.target.description}; ${tried}` +
      (result.solutions_shown < result.distinct ? `; the first ${result.solutions_shown} solutions are listed` : "");
    $("search").title = "A placement is one way the snake fills the target; distinct solutions count " +
      "placements that are turns or mirror images of each other once. A segment position is " +
      "one segment placed by the search inside the target without overlap.";
    $("answer").hidden = false;
    showTypo(result.catalog_typo);
    showNearby(result.nearby || [], false);
    if (!result.solutions.length) {
      for (const id of ["pick-row", "right", "words-box", "make-box"]) $(id).hidden = true;
      if (final) setState("done");
      return;
    }
    const select = $("solutions");
    const before = select.value;
    select.innerHTML = "";
    result.solutions.forEach((s, i) => {
      const o = document.createElement("option");
      o.value = String(i);
      o.textContent = optionText(i);
      select.appendChild(o);
    });
    $("pick-row").hidden = false;
    // a download the server would refuse (too many cubes to draw) is not offered: why is said
    const tooBig = result.too_big || {};
    for (const form of FORMS) $(`dl-${form}`).hidden = !backend.downloads.includes(form) || form in tooBig;
    $("no-downloads").hidden = backend.downloads.length > 1;
    const refused = FORMS.filter((form) => backend.downloads.includes(form) && tooBig[form]);
    $("too-big").textContent = refused.length ? `Not offered here: ${refused.map((f) => tooBig[f]).join("; ")}.` : "";
    $("too-big").hidden = !refused.length;
    $("make-box").hidden = false;
    $("make-buttons").hidden = !backend.make;
    $("make-none").hidden = Boolean(backend.make);
    $("make-command").textContent = makeCommand(req);
    // The fold plan is worked out once the answer is final: in the browser it shares the one
    // solver with the count, and on the server it is not needed to draw the answer.
    const wanted = linked && linked.solution ? linked.solution - 1 : null;
    // the first solution shown while the count went on is kept only if it is the default
    // or the person picked it; else the default, as snakecube fold and the sheets have it
    const keep = keepPick && before && Number(before) < result.solutions.length && wanted === null &&
      (pickedByHand || Number(before) === defaultIndex());
    if (keep) {
      select.value = before;
      $("right").hidden = false;
      $("words-box").hidden = false;
      if (final && mine === run) loadPlan({ ...asked, cells: picked }, mine);
    } else {
      const index = wanted !== null && wanted < result.solutions.length ? wanted : defaultIndex();
      const at = linked && linked.step ? linked.step - 1 : 0;
      layersWanted = !!(linked && linked.step);
      if (final) linked = null;
      await pick(index, mine, final, at);
      if (mine === run) viewWanted = true;
      if (mine === run && !final) bringIntoView();  // the first solution, while the count goes on
    }
    if (final && mine === run) setState("done");
  }

  // On a narrow screen the pictures come under the answer: bring the fold plan's start into
  // view (a snake in hand folds from it), or the numbered steps when a link names one.
  let layersWanted = false;
  function bringIntoView() {
    if (layersWanted) {
      const box = $("step-title").getBoundingClientRect();
      const bottom = $("viewer").getBoundingClientRect().bottom;
      if (box.top < 0 || bottom > window.innerHeight) $("step-title").scrollIntoView({ block: "start" });
      return;
    }
    const box = $("plan-box").getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight / 3) $("plan-box").scrollIntoView({ block: "start" });
  }

  // A snake one typo from a catalog puzzle (and none itself), as solve says it on the
  // command line: "One typo from the catalog's king: segments 1 and 2 swapped (...)", with
  // a link that solves the catalog's puzzle instead.
  function showTypo(typo) {
    const box = $("typo");
    box.replaceChildren();
    box.hidden = !typo;
    if (!typo) return;
    box.append(typo.words.charAt(0).toUpperCase() + typo.words.slice(1) + ". ");
    const a = document.createElement("a");
    a.href = `#snake=${encodeURIComponent(typo.name)}` + ($("box").value.trim() ? `&box=${encodeURIComponent($("box").value.trim())}` : "");
    a.className = "suggestion";
    a.textContent = `Solve ${typo.name} instead`;
    a.addEventListener("click", (e) => { e.preventDefault(); $("snake").value = typo.name; solve(); });
    box.appendChild(a);
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
      a.textContent = n.name ? `${n.name}: ${n.text}` : n.text;
      a.title = n.edit + (n.distinct ? `; ${n.complete ? "" : "at least "}${n.distinct} distinct solutions` : "");
      a.addEventListener("click", (e) => { e.preventDefault(); $("snake").value = n.text; solve(); });
      box.appendChild(a);
      const note = document.createElement("span");
      note.className = "muted";
      note.textContent = ` ${n.edit} `;
      box.appendChild(note);
    }
    box.hidden = false;
  }

  async function pick(index, mine, withPlan = true, at = 0) {
    const s = answer.solutions[index];
    backend.cancelPlan();  // the plan of the solution shown before is not wanted any more
    clearPlan();
    picked = s.cells;
    pickedIndex = index;
    $("solutions").value = String(index);
    showPicked();
    const body = { ...asked, cells: picked };
    const d = await backend.call("details", body);
    mark("details", mine);
    if (mine !== run) return;
    scene = d.viewer;
    showWords(d.words);
    $("words-box").hidden = false;
    $("right").hidden = false;
    $("slider").max = String(scene.steps.length - 1);
    go(at);
    mark("drawn", mine);
    if (withPlan) loadPlan(body, mine);
  }

  // The words as a list: the start, then one item per step (its check under it), the step
  // shown marked; a click on a step shows it. ``said``: {start, steps: [{words, check}]}.
  function showWords(said) {
    const box = $("words");
    box.replaceChildren();
    const p = document.createElement("p");
    p.textContent = said.start;
    box.appendChild(p);
    const list = document.createElement("ol");
    list.className = "steps";
    said.steps.forEach((s, k) => {
      const item = document.createElement("li");
      item.dataset.step = String(k);
      item.textContent = s.words;
      if (s.check) {
        const check = document.createElement("span");
        check.className = "check";
        check.textContent = s.check;
        item.appendChild(check);
      }
      item.addEventListener("click", () => go(k));
      list.appendChild(item);
    });
    box.appendChild(list);
  }

  function markWords() {
    for (const li of document.querySelectorAll("#words li")) {
      const here = Number(li.dataset.step) === step;
      li.classList.toggle("current", here);
      if (here) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
      if (here) {  // keep it in view inside the list's own box (never scroll the page)
        const box = $("words");
        if (box.scrollHeight > box.clientHeight + 1) {
          const top = li.offsetTop;  // #words is positioned: offsets are within it
          if (top < box.scrollTop || top + li.offsetHeight > box.scrollTop + box.clientHeight) {
            box.scrollTop = Math.max(0, top - box.clientHeight / 3);
          }
        }
      }
    }
  }

  // ---- drawing -------------------------------------------------------------------------
  // A picture is drawn as SVG by the lines below, from the scene's own camera and numbers
  // (worked out in Python: each number on a face of its own cube that the camera sees): no
  // plotting library, so the first drawing costs milliseconds. Cubes are painted far to
  // near, each with its number right after it, so a nearer cube covers a number it hides.
  // Drag turns the view; a double click turns it back.
  const SVG = "http://www.w3.org/2000/svg";
  const SHADE_DEFAULT = [0.78, 0.64, 1.0]; // light on faces across x, y, z (the top is brightest)
  const ARROW = "#111", HATCH = "#0b3558", POINTER = "#0d3b8c";  // scene.PLAN_ARROW, drawing.HATCH, drawing.POINTER

  // The camera's basis, the shading, the painter's order and the arrow: scene.js, which the
  // offline viewer embeds too.
  const S = window.snakecubeScene;

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  const dot = S.dot;

  // A point turned by `angle` about the line through `o` along the unit axis `d`.
  function rotate(p, o, d, angle) {
    const v = [p[0] - o[0], p[1] - o[1], p[2] - o[2]];
    const c = Math.cos(angle), s = Math.sin(angle), k = dot(d, v) * (1 - c);
    const x = [d[1] * v[2] - d[2] * v[1], d[2] * v[0] - d[0] * v[2], d[0] * v[1] - d[1] * v[0]];
    return [0, 1, 2].map((a) => o[a] + v[a] * c + x[a] * s + d[a] * k);
  }

  // The six faces of a cube: [axis, sign, corner indices round it]; corner i = bits x, y, z.
  const FACES = [];
  for (let a = 0; a < 3; a++) {
    const u = (a + 1) % 3, v = (a + 2) % 3;
    for (const b of [0, 1]) {
      FACES.push([a, b ? 1 : -1, [[0, 0], [1, 0], [1, 1], [0, 1]].map(([i, j]) => (b << a) | (i << u) | (j << v))]);
    }
  }

  // A picture: {eye, window (left, bottom, right, top) or fit (a box's low and high corners
  // to show whole) or neither (the cubes drawn), cubes: [{i, cell, colour,
  // cut, mark, seam, turn: {o, d, angle} or absent}], labels: [[cube, x, y, z, bold]], arc,
  // seam: [axis, where]}. Cubes turned part of the way (an animation) are drawn turned.
  function drawPicture(box, pic) {
    const t = box.turn || [0, 0];
    const turned = t[0] !== 0 || t[1] !== 0;
    const eye0 = pic.eye;
    const az = Math.atan2(eye0[1], eye0[0]) + t[0];
    const el0 = Math.max(-1.45, Math.min(1.45, Math.atan2(eye0[2], Math.hypot(eye0[0], eye0[1])) + t[1]));
    const { f, r, u } = S.basis(S.eyeAt(el0, az));
    const P = (p) => [dot(p, r), -dot(p, u)];
    const shadeOf = pic.shade || SHADE_DEFAULT;
    const labels = new Map(pic.labels.map((l) => [l[0], l]));
    const items = S.paintOrder(pic.cubes.map((c) => {
      const k = S.corners(c.cell);
      return { c, corners: c.turn ? k.map((p) => rotate(p, c.turn.o, c.turn.d, c.turn.angle)) : k };
    }), f, (it) => [0, 1, 2].map((a) => it.corners.reduce((s, p) => s + p[a], 0) / 8),
    (it) => (it.c.cut ? 0 : 1));  // cut away: under all
    const svg = el("svg", { width: "100%", height: "100%", preserveAspectRatio: "xMidYMid meet",
      class: "cubes", role: "img" });
    const seeThrough = pic.cubes.some((c) => c.ghost), over = [];
    const xs = [], ys = [];
    for (const { c, corners } of items) {
      const g = el("g", { "data-cube": c.i }, svg);
      for (const p of corners) { const q = P(p); xs.push(q[0]); ys.push(q[1]); }
      if (c.cut) {
        for (const [, , idx] of FACES) {
          el("polygon", { points: idx.map((i) => P(corners[i]).map((v) => v.toFixed(4)).join(",")).join(" "),
            fill: "none", stroke: "#888", "stroke-width": 0.02, "stroke-dasharray": "0.08 0.06" }, g);
        }
        continue;
      }
      const normalOf = (a, s) => {
        const n = [0, 0, 0]; n[a] = s;
        return c.turn ? rotate(n, [0, 0, 0], c.turn.d, c.turn.angle) : n;
      };
      for (const [a, s, idx] of FACES) {
        const n = normalOf(a, s);
        if (dot(n, f) <= 1e-9) continue;
        const pts = idx.map((i) => P(corners[i]));
        el("polygon", { points: pts.map((q) => q.map((v) => v.toFixed(4)).join(",")).join(" "),
          fill: S.shade(c.colour, S.light(shadeOf, n)), stroke: "#222", "stroke-width": 0.025, "stroke-linejoin": "round",
          "data-face": `${a},${s}`, ...(c.ghost ? { "fill-opacity": 0.3, class: "ghost" } : {}) }, g);
        if (c.pattern === "hatch" && !c.ghost) {  // lines across the face: the cubes that turn read in grey too
          const [a0, a1, , a3] = pts, H = 4;
          for (let k = 1; k < 2 * H; k++) {
            const w = k / H, e = [w <= 1 ? [w, 0] : [1, w - 1], w <= 1 ? [0, w] : [w - 1, 1]].map(([x, y]) =>
              [a0[0] + (a1[0] - a0[0]) * x + (a3[0] - a0[0]) * y, a0[1] + (a1[1] - a0[1]) * x + (a3[1] - a0[1]) * y]);
            el("line", { x1: e[0][0], y1: e[0][1], x2: e[1][0], y2: e[1][1], stroke: HATCH, "stroke-width": 0.02,
              class: "hatch", ...(c.ghost ? { "stroke-opacity": 0.3 } : {}) }, g);
          }
        }
        if (c.mark) {  // inside the face's edges, so the next cubes' edges leave it whole
          const mx = pts.reduce((v, q) => v + q[0], 0) / 4, my = pts.reduce((v, q) => v + q[1], 0) / 4;
          for (const k of c.pattern === "ring" ? [0.88, 0.66] : [0.88]) {  // "ring": two, one inside the other
            el("polygon", { points: pts.map((q) => `${(mx + (q[0] - mx) * k).toFixed(4)},${(my + (q[1] - my) * k).toFixed(4)}`).join(" "),
              fill: "none", stroke: c.mark, "stroke-width": 0.07 }, g);
          }
        }
        if (c.seam && pic.seam && a !== pic.seam[0] && !c.turn) {  // the joint: this face's edge on it
          const on = S.onPlane(idx.map((i) => corners[i]), pic.seam);
          if (on.length === 2) {
            const [p0, p1] = on.map(P);
            el("line", { x1: p0[0], y1: p0[1], x2: p1[0], y2: p1[1], stroke: "#111", "stroke-width": 0.1,
              "stroke-linecap": "round" }, g);
          }
        }
      }
      const label = labels.get(c.i);
      if (label) {
        let at = [label[1], label[2], label[3]];
        let show = true;
        if (c.turn) at = rotate(at, c.turn.o, c.turn.d, c.turn.angle);
        if (turned || c.turn) {  // the face it is on must still look towards the eye
          const face = [0, 1, 2].find((a) => Math.abs(label[a + 1] - c.cell[a]) < 1e-6 || Math.abs(label[a + 1] - c.cell[a] - 1) < 1e-6);
          const s = Math.abs(label[face + 1] - c.cell[face] - 1) < 1e-6 ? 1 : -1;
          show = dot(normalOf(face, s), f) > 0.05;
        }
        if (show) {
          const [x, y] = P(at);
          const txt = el("text", { x: x.toFixed(4), y: (y + 0.13).toFixed(4), "text-anchor": "middle",
            "font-size": 0.38, class: label[4] ? "label bold" : "label", "data-cube": c.i }, g);
          txt.textContent = String(c.i + 1);
          if (seeThrough && !turned && !c.turn) over.push(txt);
        }
      }
    }
    if (pic.arc) {  // the turn's arrow, on top
      const pts = pic.arc.map(P);
      const arrow = S.arrow(pts, 0.42);
      const head = arrow.head.map((q) => q.join(",")).join(" ");
      const path = arrow.line.map((q) => q.map((v) => v.toFixed(4)).join(",")).join(" ");
      // black in a white halo: it reads over any cube, in grey and in any colour vision
      el("polyline", { points: path, fill: "none", stroke: "#fff", "stroke-width": 0.2, "stroke-linecap": "round",
        "stroke-linejoin": "round", class: "halo" }, svg);
      el("polygon", { points: head, fill: "#fff", stroke: "#fff", "stroke-width": 0.1, "stroke-linejoin": "round",
        class: "halo" }, svg);
      el("polyline", { points: path, fill: "none", stroke: ARROW, "stroke-width": 0.09, "stroke-linecap": "round",
        "stroke-linejoin": "round", class: "arrow" }, svg);
      el("polygon", { points: head, fill: ARROW, class: "arrow" }, svg);
      for (const q of pts) { xs.push(q[0]); ys.push(q[1]); }
    }
    if (pic.pointers && !turned) {  // blue arrows to the cube to count from and to the end held
      for (const [tail, tip, words, align] of pic.pointers) {
        const pts = [[tail[0], -tail[1]], [tip[0], -tip[1]]];
        const arrow = S.arrow(pts, 0.3);
        const head = arrow.head.map((q) => q.join(",")).join(" ");
        const path = arrow.line.map((q) => q.map((v) => v.toFixed(4)).join(",")).join(" ");
        el("polyline", { points: path, fill: "none", stroke: "#fff", "stroke-width": 0.12, "stroke-linecap": "round", class: "halo" }, svg);
        el("polyline", { points: path, fill: "none", stroke: POINTER, "stroke-width": 0.05, "stroke-linecap": "round", class: "pointer" }, svg);
        el("polygon", { points: head, fill: POINTER, class: "pointer" }, svg);
        const t = el("text", { x: (tail[0] + (align === "left" ? 0.08 : -0.08)).toFixed(4), y: (-tail[1] + 0.1).toFixed(4),
          "text-anchor": align === "left" ? "start" : "end", "font-size": 0.3, class: "pointer-words" }, svg);
        t.textContent = words;
        xs.push(tail[0], tip[0]); ys.push(-tail[1], -tip[1]);
      }
    }
    // A number a see-through cube stands in front of (it hides none) is written again on top,
    // as the scene placed it: it reads whole, not through the tinted faces.
    for (const txt of over) svg.appendChild(txt.cloneNode(true)).classList.add("over");
    if (pic.inset) {  // an overview: the close-up's frame, dashed
      const [x0, y0, x1, y1] = pic.inset;
      el("rect", { x: x0, y: -y1, width: x1 - x0, height: y1 - y0, fill: "none", stroke: "#222",
        "stroke-width": 0.12, "stroke-dasharray": "0.35 0.25", class: "inset" }, svg);
      xs.push(x0, x1); ys.push(-y0, -y1);
    }
    let view;
    if (pic.window && !turned) {  // the frame the scene chose: the same before and after
      const [x0, y0, x1, y1] = pic.window;
      view = [x0, -y1, x1 - x0, y1 - y0];
    } else if (pic.fit) {  // the whole box, so that it stays put from step to step
      const [lo, hi] = pic.fit, pts = [];
      for (const x of [lo[0], hi[0]]) for (const y of [lo[1], hi[1]]) for (const z of [lo[2], hi[2]]) pts.push(P([x, y, z]));
      const pad = 0.6, x0 = Math.min(...pts.map((q) => q[0])) - pad, y0 = Math.min(...pts.map((q) => q[1])) - pad;
      view = [x0, y0, Math.max(...pts.map((q) => q[0])) + pad - x0, Math.max(...pts.map((q) => q[1])) + pad - y0];
    } else {
      const pad = 0.3, x0 = Math.min(...xs) - pad, y0 = Math.min(...ys) - pad;
      view = [x0, y0, Math.max(...xs) + pad - x0, Math.max(...ys) + pad - y0];
    }
    svg.setAttribute("viewBox", view.map((v) => v.toFixed(4)).join(" "));
    box.replaceChildren(svg);
    placeWords(svg, view, pic.pointers || []);
    return svg;
  }

  // A pointer's words stay in the picture and off the numbers: as placed, else running the
  // other way, else a line higher or lower (as the sheets place them).
  function placeWords(svg, view, pointers) {
    const words = [...svg.querySelectorAll("text.pointer-words")];
    if (!words.length) return;
    const taken = [...svg.querySelectorAll("text.label")].map((t) => t.getBBox());
    // the pointers' arrows, as points along them: words are kept off them too
    const along = pointers.flatMap(([tail, tip]) => [...Array(9).keys()].map((k) =>
      ({ x: tail[0] + (tip[0] - tail[0]) * k / 8, y: -(tail[1] + (tip[1] - tail[1]) * k / 8), width: 0, height: 0 })));
    taken.push(...along);
    const meets = (a, b) => a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height;
    for (const t of words) {
      const x = Number(t.getAttribute("x")), y = Number(t.getAttribute("y"));
      const anchor = t.getAttribute("text-anchor");
      let best = null;
      for (const a of [anchor, anchor === "start" ? "end" : "start"]) {
        for (const dy of [0, 0.36, -0.36, 0.72, -0.72]) {
          t.setAttribute("text-anchor", a);
          t.setAttribute("y", (y + dy).toFixed(4));
          let b = t.getBBox();
          const dx = Math.max(0, view[0] - b.x) - Math.max(0, b.x + b.width - (view[0] + view[2]));
          t.setAttribute("x", (x + dx).toFixed(4));
          b = t.getBBox();
          if (!best) best = [a, y + dy, x + dx];
          if (!taken.some((o) => meets(b, o))) { best = null; taken.push(b); break; }
        }
        if (!best) break;
      }
      if (best) {
        t.setAttribute("text-anchor", best[0]); t.setAttribute("y", best[1].toFixed(4)); t.setAttribute("x", best[2].toFixed(4));
        taken.push(t.getBBox());
      }
    }
  }

  // Turning a picture's view is deliberate: a mouse drag, a drag with two fingers, or the
  // turn button held down and dragged. One finger scrolls the page, as everywhere else (the
  // CSS lets the browser pan vertically). When let go, the view goes back to the scene's own
  // camera, so the caption and the numbers always fit what is drawn; while it is turned,
  // `onTurn(true)` lets the caption say so.
  const SNAP_MS = 350;
  function turnable(box, redraw, onTurn = () => {}, handle = null) {
    const touches = new Map();  // pointers down on the picture
    let from = null, snap = null;
    const start = (e) => {
      if (snap) { cancelAnimationFrame(snap); snap = null; }
      from = [e.clientX, e.clientY];
      onTurn(true);
    };
    const move = (x, y) => {
      const t = box.turn || [0, 0];
      box.turn = [t[0] - (x - from[0]) * 0.01, t[1] + (y - from[1]) * 0.01];
      from = [x, y];
      redraw();
    };
    const back = () => {  // the view eases back to its own camera
      from = null;
      const t0 = box.turn || [0, 0], began = performance.now();
      const frame = (now) => {
        const x = Math.min(1, (now - began) / SNAP_MS), k = 1 - x * (2 - x);
        box.turn = x < 1 ? [t0[0] * k, t0[1] * k] : [0, 0];
        redraw();
        if (x < 1) snap = requestAnimationFrame(frame);
        else { snap = null; onTurn(false); }
      };
      if (t0[0] || t0[1]) snap = requestAnimationFrame(frame); else onTurn(false);
    };
    box.addEventListener("pointerdown", (e) => {
      if (e.pointerType === "mouse") { start(e); box.setPointerCapture(e.pointerId); return; }
      touches.set(e.pointerId, [e.clientX, e.clientY]);
      if (touches.size === 2) {  // two fingers: their middle turns the view
        const [a, b] = [...touches.values()];
        start({ clientX: (a[0] + b[0]) / 2, clientY: (a[1] + b[1]) / 2 });
      }
    });
    box.addEventListener("pointermove", (e) => {
      if (e.pointerType === "mouse") { if (from) move(e.clientX, e.clientY); return; }
      if (!touches.has(e.pointerId)) return;
      touches.set(e.pointerId, [e.clientX, e.clientY]);
      if (touches.size === 2 && from) {
        const [a, b] = [...touches.values()];
        move((a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
        e.preventDefault();
      }
    });
    const up = (e) => {
      const was = e.pointerType === "mouse" ? !!from : touches.size === 2 && !!from;
      touches.delete(e.pointerId);
      if (was) back();
    };
    for (const kind of ["pointerup", "pointercancel"]) box.addEventListener(kind, up);
    if (handle) {  // a button to hold down and drag: the same turn, with one finger
      handle.addEventListener("pointerdown", (e) => { start(e); handle.setPointerCapture(e.pointerId); });
      handle.addEventListener("pointermove", (e) => { if (from) move(e.clientX, e.clientY); });
      for (const kind of ["pointerup", "pointercancel"]) handle.addEventListener(kind, () => { if (from) back(); });
    }
  }

  // Step k's picture: its cubes (new ones blue, the cube it turns at red), the cubes in the
  // way of a key cube cut away, and the numbers the scene gives.
  function stepPicture(k) {
    const s = scene.steps[k];
    const cutSet = new Set(s.cut);
    const cubes = [];
    for (let i = 0; i <= s.last; i++) {
      const colour = i >= s.first ? scene.new : i === s.pivot ? scene.pivot : scene.colours[i];
      cubes.push({ i, cell: scene.cells[i], colour, cut: cutSet.has(i) });
    }
    const labels = s.labels.map((l) => [...l, l[0] >= s.first ? 1 : 0]);
    return { eye: scene.eye, shade: scene.shade, window: null, fit: [[0, 0, 0], scene.dims], cubes, labels,
             arc: null, seam: null };
  }

  function go(k) {
    if (!scene) return;
    step = Math.max(0, Math.min(scene.steps.length - 1, k));
    const s = scene.steps[step];
    drawPicture($("viewer"), stepPicture(step));
    $("step-title").textContent = s.title;
    $("slider").value = String(step);
    $("prev").disabled = step === 0;
    $("next").disabled = step === scene.steps.length - 1;
    markWords();
    if (asked) setHash(asked);
  }

  // ---- the fold plan -------------------------------------------------------------------
  function clearPlan() {
    stopPlay();
    closeWrong();
    plan = null;
    planWanted = null;
    $("plan-box").hidden = false;
    for (const id of ["plan", "plan-overview", "plan-turn", "plan-controls", "plan-picked"]) $(id).hidden = true;
    $("plan-words").textContent = "";
    $("plan-more").textContent = "";
    $("plan-caption").textContent = "";
    $("plan-status").hidden = false;
    $("plan-status").textContent = "the fold plan comes when the count is complete…";
  }

  // The plan's step a link names, in words: "step 7 (after its turn)".
  function linkedWords(k) {
    if (!k) return "";
    return k.step === 0 ? "the start" : `step ${k.step}${k.after ? " (after its turn)" : ""}`;
  }

  async function loadPlan(body, mine, asked_ = false, offer = false) {
    clearPlan();
    planWanted = body;
    showPicked();
    if ((slowTarget || offer) && !asked_ && !planLinked) {
      // In the browser a big target's plan takes a while and holds the one solver; after
      // Stop no new work starts: on request.
      $("plan-status").textContent = "";
      const b = document.createElement("button");
      b.type = "button";
      b.id = "plan-ask";
      b.textContent = slowTarget ? "Work out a fold plan (slow in the browser: it may take a minute)"
        : "Work out a fold plan";
      b.addEventListener("click", () => loadPlan(body, run, true));
      $("plan-status").appendChild(b);
      return;
    }
    // A link that names a plan step: worked out at once, and said so, in the browser too.
    $("plan-status").textContent = planLinked
      ? `working out the fold plan, to open ${linkedWords(planLinked)} as the link asks` +
        (CONFIG.mode === "static" ? " (in your browser: it may take a minute)…" : "…")
      : "working out a fold plan…";
    try {
      const p = await backend.call("plan", body);
      if (mine !== run || planWanted !== body) return;
      if (p.error) { $("plan-status").textContent = p.error; return; }
      plan = p;
      wordsWidth = 0;
      const walk = (p.hand_distance / Math.max(1, p.span)).toFixed(1);
      $("plan-status").textContent = `${p.turns.length} steps, ${p.quarter_turns} quarter turns ` +
        `(the fewest found: ${p.fewest_turns}), holding the ${p.held} end; your hand moves ` +
        `${walk} times the stretch of chain the joints cover.`;
      const note = pickedNote();
      if (note) updateOption(pickedIndex, p.quarter_turns);
      $("plan").hidden = false;
      $("plan-overview").hidden = false;
      $("plan-turn").hidden = false;
      $("plan-controls").hidden = false;
      planWordsHeight();
      const linkedStep = planLinked;
      planLinked = null;
      planGo(linkedStep ? linkedStep.step : 0, linkedStep ? linkedStep.after : false);
      if (linkedStep) planIntoView(true);
      mark("plan", mine);
    } catch (err) {
      if (mine === run && planWanted === body && err.name !== "AbortError" && err.message !== "stopped") {
        $("plan-status").textContent = err.message;
      }
    }
  }

  // The plan's frames: 0 the start from above; k the state before step k, framed on its
  // joint, with the turn's arrow (or after it: planAfter); the last the finished shape.
  function planFrames() { return plan ? plan.turns.length + 2 : 0; }

  function cubesOf(pic) {
    return pic.cubes.map(([i, x, y, z, colour, cut, mark, seam, pattern]) =>
      ({ i, cell: [x, y, z], colour, cut: cut === 1, ghost: cut === 2, mark, seam: !!seam, pattern: pattern || "" }));
  }

  function framePicture(k, after = false) {
    if (k === 0) return { ...plan.start, cubes: cubesOf(plan.start) };
    const t = plan.turns[Math.min(k, plan.turns.length) - 1];
    const pic = k <= plan.turns.length && !after ? t.before : t.after;
    return { ...pic, cubes: cubesOf(pic), arc: pic === t.before ? pic.arc : null };
  }

  // The whole snake, small, in the picture's corner (none on the start: it is the whole snake).
  function overviewPicture(k, after = false) {
    if (k === 0 || !plan.turns.length) return null;
    const t = plan.turns[Math.min(k, plan.turns.length) - 1];
    const pic = t.overview[k <= plan.turns.length && !after ? 0 : 1];
    return { ...pic, cubes: cubesOf(pic), arc: null, labels: [] };
  }

  function para(box, text, cls) {
    if (!text) return null;
    const e = document.createElement("p");
    if (cls) e.className = cls;
    e.textContent = text;
    box.appendChild(e);
    return e;
  }

  // A frame's words, part by part as Python said them (fold.words): the start's opening and
  // the end to hold (the rest of the start under the picture, in #plan-more); a step's title
  // and how to find its corner and turn it, then what to check and what to do if it fails.
  function fillFrameWords(box, k) {
    box.replaceChildren();
    if (k === 0) {
      para(box, plan.start.lead);
      para(box, plan.start.rest[0]);
      return;
    }
    if (k > plan.turns.length) { para(box, plan.done); return; }
    const w = plan.turns[k - 1].words;
    const head = document.createElement("p");
    box.appendChild(head);
    const title = document.createElement("strong");
    title.textContent = `${w.title}: `;
    head.append(title, `${w.lift}${w.find}. ${w.hands}`);
    para(box, w.check, "check");
    para(box, w.if_not, "if-not");
    para(box, w.careful, "warn");
    para(box, [w.jump, w.close, w.brackets].filter(Boolean).join(" "), "muted");
  }

  function frameWords(k) { fillFrameWords($("plan-words"), k); }

  // Under the picture: the start's whole list and notes, or a step's notes; the key.
  function frameMore(k) {
    const box = $("plan-more");
    box.replaceChildren();
    if (k === 0) {
      const list = document.createElement("ul");
      list.className = "runs";
      for (const r of plan.start.runs) {
        const li = document.createElement("li");
        li.textContent = r;
        list.appendChild(li);
      }
      box.appendChild(list);
      for (const line of plan.start.rest.slice(1)) para(box, line);
      para(box, plan.order);
    } else if (k <= plan.turns.length) {
      for (const n of plan.turns[k - 1].notes) para(box, n, "muted");
    }
    para(box, plan.key, "muted");
  }

  // Every step's words get the height of the longest step's, so the picture and its ▶ stay
  // in one place from step to step (the start's list is longer: it moves them down once).
  let wordsWidth = 0;
  function planWordsHeight() {
    const e = $("plan-words");
    if (!plan || e.clientWidth === wordsWidth) return;
    wordsWidth = e.clientWidth;
    e.style.minHeight = "";
    let most = 0;
    for (let k = 1; k < planFrames(); k++) {
      fillFrameWords(e, k);
      most = Math.max(most, e.getBoundingClientRect().height);
    }
    fillFrameWords(e, planStep);
    wordsMost = Math.ceil(most);
    fitWords();
  }
  // The start's words are shorter than a step's: they keep their own height (▶ moves down
  // once, at step 1, then stays in place).
  let wordsMost = 0;
  function fitWords() { $("plan-words").style.minHeight = planStep === 0 ? "" : `${wordsMost}px`; }
  addEventListener("resize", () => { if (plan) planWordsHeight(); });

  // The plan's words, picture and buttons in view (``top``: its words at the top; else only
  // when part of them is out of view), so that a step's caption does not slip away.
  function planIntoView(top = false) {
    const words = $("plan-words").getBoundingClientRect();
    const bottom = $("plan-controls").getBoundingClientRect().bottom;
    let by = 0;
    if (top || words.top < 0) by = words.top - 8;
    else if (bottom > window.innerHeight) by = Math.min(words.top - 8, bottom - window.innerHeight + 8);
    if (by) window.scrollBy({ top: by, behavior: "instant" });
  }

  // The picture of the state shown (planStep, before or after its turn), its overview and
  // caption; the view turned by hand while it is held, said so in the caption.
  function planDraw() {
    const pic = framePicture(planStep, planAfter);
    const svg = drawPicture($("plan"), pic);
    const turn = planStep >= 1 && planStep <= plan.turns.length ? plan.turns[planStep - 1] : null;
    if (turn) { svg.dataset.hold = turn.hold; svg.dataset.turn = turn.turn; }
    svg.dataset.state = `${planStep}${planAfter ? "-after" : ""}`;
    const small = overviewPicture(planStep, planAfter);
    $("plan-overview").hidden = !small;
    if (small) { drawPicture($("plan-overview"), small); placeOverview(svg); }
    const t = $("plan").turn || [0, 0];
    $("plan-caption").textContent = t[0] || t[1] ? "(the view turned by you: it goes back when you let go)"
      : pic.camera || pic.caption ? `(${pic.caption || pic.camera})` : "";
  }

  // The whole snake goes in the corner of the close-up where it covers least of what is
  // drawn there (the cubes' and numbers' boxes on the screen).
  const CORNERS = ["tl", "tr", "bl", "br"];
  function placeOverview(svg) {
    const box = $("plan").getBoundingClientRect(), o = $("plan-overview");
    const w = Math.max(96, box.width * 0.27), h = Math.max(80, box.height * 0.30);
    const drawn = [...svg.querySelectorAll("g[data-cube], text")].map((e) => e.getBoundingClientRect());
    const covered = (x, y) => drawn.reduce((sum, r) =>
      sum + Math.max(0, Math.min(r.right, x + w) - Math.max(r.left, x)) *
            Math.max(0, Math.min(r.bottom, y + h) - Math.max(r.top, y)), 0);
    const at = { tl: [box.left, box.top], tr: [box.right - w, box.top],
                 bl: [box.left, box.bottom - h], br: [box.right - w, box.bottom - h] };
    const best = CORNERS.reduce((a, b) => (covered(...at[b]) < covered(...at[a]) ? b : a));
    for (const c of CORNERS) o.classList.toggle(`corner-${c}`, c === best);
  }

  function planGo(k, after = false) {
    if (!plan) return;
    cancelAnimation();
    planStep = Math.max(0, Math.min(planFrames() - 1, k));
    planAfter = after && planStep >= 1 && planStep <= plan.turns.length;
    planDraw();
    frameWords(planStep);
    fitWords();
    frameMore(planStep);
    $("plan-wrong").hidden = planStep === 0;
    $("plan-count").textContent = planStep === 0 ? "start" :
      planStep > plan.turns.length ? "done" : `step ${planStep} of ${plan.turns.length}${planAfter ? ": done" : ""}`;
    $("plan-prev").disabled = planStep === 0;
    $("plan-next").disabled = planStep === planFrames() - 1;
    if (asked && scene) setHash(asked);
  }

  // Step k played: the cubes that turn go a quarter (or half) turn about the joint, from the
  // state before to the state after, in the step's frame; then the state after stays, and
  // the link says so. `then` runs after.
  const TURN_MS = 900, AFTER_MS = 2000;
  function cancelAnimation() { if (planAnimation) cancelAnimationFrame(planAnimation); planAnimation = null; }
  function playTurn(k, then) {
    cancelAnimation();
    const t = plan.turns[k - 1];
    const before = new Map(t.before.cubes.map((c) => [c[0], c]));
    const after = new Map(t.after.cubes.map((c) => [c[0], c]));
    const moving = new Set(t.moving);
    const cells = new Map(plan.states[k - 1].map((c, i) => [i, c]));
    const shown = [...new Set([...before.keys(), ...after.keys()])].filter((i) => (before.get(i) || after.get(i))[5] !== 1);
    const began = performance.now(), ms = TURN_MS * (t.quarters || 1);
    const frame = (now) => {
      const x = Math.min(1, (now - began) / ms);
      const eased = x < 0.5 ? 2 * x * x : 1 - 2 * (1 - x) * (1 - x);
      const angle = t.sign * eased * (t.quarters || 1) * Math.PI / 2;
      const cubes = shown.map((i) => {
        const c = before.get(i) || after.get(i);
        const cube = { i, cell: cells.get(i), colour: c[4], cut: false, ghost: c[5] === 2, mark: "", seam: !!c[7],
          pattern: c[8] || "" };
        if (moving.has(i)) cube.turn = { o: t.origin, d: t.direction, angle };
        return cube;
      });
      const labels = t.before.labels.filter((l) => l[0] === t.hold || l[0] === t.turn);
      drawPicture($("plan"), { ...t.before, cubes, labels, arc: null });
      if (x < 1) planAnimation = requestAnimationFrame(frame);
      else {
        planAnimation = null;
        planAfter = true;
        planDraw();
        $("plan-count").textContent = `step ${k} of ${plan.turns.length}: done`;
        if (asked && scene) setHash(asked);
        then();
      }
    };
    planAnimation = requestAnimationFrame(frame);
  }

  // ▶ plays the step's turn and stays on the state after it; the next ▶ shows the next step.
  function planNext() {
    if (!plan || planStep >= planFrames() - 1) return;
    stopPlay();
    const k = planStep;
    if (k >= 1 && k <= plan.turns.length && !planAfter) {
      $("plan-next").disabled = true;
      playTurn(k, () => { $("plan-next").disabled = false; });
    } else { planGo(k + 1); planIntoView(); }
  }

  function stopPlay() {
    if (planTimer) clearTimeout(planTimer);
    planTimer = null;
    cancelAnimation();
    if ($("plan-play")) $("plan-play").textContent = "Play";
  }

  function planPlay() {
    if (planTimer) { stopPlay(); planGo(planStep, planAfter); return; }
    if (!plan) return;
    if (planStep >= planFrames() - 1) planGo(0);
    $("plan-play").textContent = "Pause";
    const next = () => {
      if (!plan || planStep >= planFrames() - 1) { stopPlay(); return; }
      const k = planStep;
      if (k >= 1 && k <= plan.turns.length && !planAfter) {
        // the state after the turn stays AFTER_MS before the next step
        playTurn(k, () => { planTimer = setTimeout(() => { planGo(k + 1); planTimer = setTimeout(next, 1400); }, AFTER_MS); });
      } else { planGo(k + 1); planTimer = setTimeout(next, 1400); }
    };
    planTimer = setTimeout(next, 300);
  }

  // ---- something doesn't match ---------------------------------------------------------
  // At any step of the plan: yes/no questions about the snake in hand (each with its
  // picture: the snake when the answer is yes), worked out in Python (fold.dialog), then
  // the step that went wrong and the turns that undo it, each counted from an end.
  let wrong = null, wrongAt = null;
  async function openWrong() {
    if (!plan || planStep === 0) return;
    stopPlay();
    const k = Math.min(planStep, plan.turns.length);
    const mine = run;
    $("wrong").hidden = false;
    $("wrong-title").textContent = plan.turns[k - 1].wrong_title;
    $("wrong-words").textContent = "working out the questions…";
    for (const id of ["wrong-yes", "wrong-no", "wrong-go", "wrong-again", "wrong-picture", "wrong-key"]) $(id).hidden = true;
    $("wrong").scrollIntoView({ block: "nearest" });
    try {
      const d = await backend.call("wrong", { ...asked, cells: picked, step: k });
      if (mine !== run || !plan) return;
      if (d.error) { $("wrong-words").textContent = d.error; return; }
      wrong = d;
      showWrong(d.dialog);
    } catch (err) {
      if (err.message !== "stopped") $("wrong-words").textContent = err.message;
    }
  }

  function showWrong(node) {
    wrongAt = node;
    const ask = !!node.ask;
    $("wrong-yes").hidden = !ask;
    $("wrong-no").hidden = !ask;
    $("wrong-picture").hidden = !ask;
    $("wrong-key").hidden = !ask;
    $("wrong-again").hidden = ask;
    $("wrong-go").hidden = ask || !node.verdict.go;
    if (ask) {
      $("wrong-words").textContent = `${wrong.intro} ${node.words}`;
      drawPicture($("wrong-picture"), { ...node.picture, cubes: cubesOf(node.picture) });
      $("wrong-key").textContent = wrong.key;
    } else {
      $("wrong-words").textContent = node.verdict.words.join("\n");
      $("wrong-go").textContent = node.verdict.go || "";
    }
    $("wrong").scrollIntoView({ block: "nearest" });
  }

  function closeWrong() { wrong = null; wrongAt = null; $("wrong").hidden = true; }

  // ---- which solution ------------------------------------------------------------------
  // The default solution is the one `snakecube fold` and the sheets plan (the answer's
  // fold.default, chosen by fold.EASIEST_RULE in Python); the menu shows the fewest quarter
  // turns each of the solutions compared needs, and a plan's own count once it is made.
  function defaultIndex() { return answer && answer.fold ? answer.fold.default : 0; }

  function optionText(i, planned = null) {
    const s = answer.solutions[i];
    const total = answer.complete ? `${answer.distinct}` : `at least ${answer.distinct}`;
    const start = s.start_class ? ` (starts at ${/^[aeiou]/.test(s.start_class) ? "an" : "a"} ${s.start_class})` : "";
    const fewest = answer.fold && i < answer.fold.fewest_turns.length ? answer.fold.fewest_turns[i] : null;
    const turns = planned !== null ? ` · ${planned} quarter turns` :
      fewest !== null ? ` · at least ${fewest} quarter turns` : "";
    const easiest = answer.fold && i === answer.fold.default ? " · the default, easiest to fold" : "";
    return `${i + 1} of ${total}${start}${turns}${easiest}`;
  }

  function updateOption(i, turns) {
    const o = $("solutions").options[i];
    if (o) o.textContent = optionText(i, turns);
  }

  // Said when the solution shown is not the default: the page and the sheets say it.
  function pickedNote() {
    if (!answer || !answer.fold || pickedIndex === defaultIndex()) return "";
    const d = defaultIndex();
    return `You picked solution ${pickedIndex + 1}; the default, which snakecube fold and the ` +
      `sheets plan, is solution ${d + 1} (${answer.fold.rule}).`;
  }

  function showPicked() {
    const note = pickedNote();
    $("plan-picked").textContent = note;
    $("plan-picked").hidden = !note;
  }

  // ---- printing ------------------------------------------------------------------------
  // A sheet to print (or to save as PDF from the print dialog): every step as a picture with
  // its words, then the fold plan, each turn before and after. It works in the static site
  // too, where matplotlib's PDF sheet cannot be made. Lists stay lists; when the plan is not
  // here, the sheet says so, and why, in its first lines.
  function printSteps() {
    if (!scene) return;
    const sheet = $("print-sheet");
    sheet.replaceChildren();
    const head = document.createElement("h1");
    head.textContent = `${$("snake").value.trim() || "snake"}: ${answer ? answer.target.description : ""}`;
    sheet.appendChild(head);
    const note = pickedNote();
    if (note) {
      const picked = document.createElement("p");
      picked.className = "picked";
      picked.textContent = note;
      sheet.appendChild(picked);
    }
    if (!plan) {
      const missing = document.createElement("p");
      missing.className = "missing";
      const why = $("plan-status").textContent.trim();
      missing.textContent = "The fold plan is not in this sheet: " + (
        $("plan-ask") ? "it is worked out on request in this browser, and was not asked for." :
        why.startsWith("working out") ? "it was still being worked out when you printed; print again when the plan shows." :
        why ? `${why}.` : "there is none for this solution.");
      sheet.appendChild(missing);
    }
    sheet.appendChild($("words").cloneNode(true)).removeAttribute("id");
    const figure = (title, pics, cls) => {
      const fig = document.createElement("figure");
      if (cls) fig.className = cls;
      const cap = document.createElement("figcaption");
      cap.textContent = title;
      fig.appendChild(cap);
      const row = document.createElement("div");
      row.className = "print-row";
      for (const [caption, pic, small] of pics) {
        const one = document.createElement("div");
        one.className = small ? "print-one small" : "print-one";
        if (caption) { const c = document.createElement("div"); c.className = "print-caption"; c.textContent = caption; one.appendChild(c); }
        const box = document.createElement("div");
        box.className = "print-cubes";
        one.appendChild(box);
        row.appendChild(one);
        drawPicture(box, pic);
      }
      fig.appendChild(row);
      sheet.appendChild(fig);
    };
    scene.steps.forEach((s, k) => figure(s.title, [["", stepPicture(k)]]));
    if (plan) {
      const h = document.createElement("h2");
      h.textContent = `Fold it from a flat snake (solution ${pickedIndex + 1}): ${plan.turns.length} steps, ` +
        `${plan.quarter_turns} quarter turns, holding the ${plan.held} end`;
      sheet.appendChild(h);
      const intro = document.createElement("div");
      intro.className = "print-start";
      para(intro, plan.start.intro);
      const list = document.createElement("ul");
      for (const r of plan.start.runs) {
        const li = document.createElement("li");
        li.textContent = r;
        list.appendChild(li);
      }
      intro.appendChild(list);
      for (const line of plan.start.rest) para(intro, line);
      const order = document.createElement("p");
      order.textContent = plan.order;
      intro.appendChild(order);
      sheet.appendChild(intro);
      figure("The start, seen from above", [["", { ...plan.start, cubes: cubesOf(plan.start) }]], "print-start-picture");
      plan.turns.forEach((t, k) => figure([t.text, ...t.notes].join(" "), [
        ["the whole snake", overviewPicture(k + 1), true],
        [t.before.caption, { ...t.before, cubes: cubesOf(t.before) }],
        [t.after.caption, { ...t.after, cubes: cubesOf(t.after), arc: null }],
      ], "print-turn"));
    }
    window.print();
  }

  // The command line that does ``name`` for this snake and target (a typed region: its layers
  // saved as region.txt), with ``options`` after them.
  function cliCommand(name, req, options) {
    const quote = (t) => /^[A-Za-z0-9_.,:\/x-]+$/.test(t) ? t : `'${t.replace(/'/g, "'\\''")}'`;
    const target = !req.target ? "" : drawn(req) ? " --region region.txt" : ` --box ${quote(req.target)}`;
    return `snakecube ${name} ${quote(req.snake.trim())}${target}${options}`;
  }

  // The command that makes the pieces on a person's own machine (the static page's panel).
  function makeCommand(req) {
    const size = Number($("make-size").value) || 20, cord = Number($("make-cord").value) || 2.5;
    const colours = $("make-colours").value;
    // checker colours follow the fold: the one shown here
    const options = (size !== 20 ? ` --size ${size}` : "") + (cord !== 2.5 ? ` --cord ${cord}` : "") +
      (colours !== "alternate" ? ` --colours ${colours}` : "") +
      (colours === "checker" ? ` --solution ${pickedIndex + 1}` : "");
    return cliCommand("make", req, `${options} --out pieces.3mf`);
  }

  async function makeIt(form) {
    if (!picked || !backend.make) return;
    const button = $(`make-${form}`);
    button.disabled = true;
    try {
      const got = await backend.make({ ...asked, cells: picked, form, size: Number($("make-size").value),
        cord: Number($("make-cord").value), colours: $("make-colours").value });
      saveBlob(got.blob, got.name);
    } catch (err) {
      showError(err.message);
    } finally {
      button.disabled = false;
    }
  }

  // A file the page made, saved as a download named `name`.
  function saveBlob(blob, name) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 10000);
  }

  async function download(form) {
    if (!picked) return;
    const button = $(`dl-${form}`);
    button.disabled = true;
    try {
      saveBlob(await backend.download({ ...asked, cells: picked, form }), `snakecube.${form}`);
    } catch (err) {
      showError(err.message);
    } finally {
      button.disabled = false;
    }
  }

  // ---- wiring --------------------------------------------------------------------------
  turnable($("viewer"), () => go(step));
  turnable($("plan"), () => { if (plan) planDraw(); }, () => { if (plan) planDraw(); }, $("plan-turn"));
  $("ask").addEventListener("submit", (e) => { e.preventDefault(); linked = null; solve(); });
  $("stop").addEventListener("click", stop);
  $("prev").addEventListener("click", () => go(step - 1));
  $("next").addEventListener("click", () => go(step + 1));
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  $("solutions").addEventListener("change", () => {
    const mine = ++run;
    pickedByHand = true;
    pick(Number($("solutions").value), mine).then(() => setHash(asked)).catch((e) => {
      if (e.message !== "stopped") showError(e.message);
    });
  });
  $("plan-prev").addEventListener("click", () => { stopPlay(); planGo(planAfter ? planStep : planStep - 1); planIntoView(); });
  $("plan-next").addEventListener("click", planNext);
  $("plan-play").addEventListener("click", planPlay);
  $("plan-wrong").addEventListener("click", openWrong);
  $("wrong-yes").addEventListener("click", () => wrongAt && wrongAt.ask && showWrong(wrongAt.yes));
  $("wrong-no").addEventListener("click", () => wrongAt && wrongAt.ask && showWrong(wrongAt.no));
  $("wrong-again").addEventListener("click", () => wrong && showWrong(wrong.dialog));
  $("wrong-close").addEventListener("click", closeWrong);
  $("wrong-go").addEventListener("click", () => {
    const then = wrongAt && wrongAt.verdict ? wrongAt.verdict.then.step : null;
    closeWrong();
    if (then) { planGo(Math.min(then, plan.turns.length + 1)); planIntoView(true); }
  });
  $("to-layers").addEventListener("click", () => $("step-title").scrollIntoView({ block: "start" }));
  for (const form of FORMS) $(`dl-${form}`).addEventListener("click", () => download(form));
  for (const form of ["3mf", "sheet.pdf"]) $(`make-${form}`).addEventListener("click", () => makeIt(form));
  for (const id of ["make-size", "make-cord", "make-colours"]) {
    $(id).addEventListener("change", () => { if (asked) $("make-command").textContent = makeCommand(asked); });
  }
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
  // A link opened in this tab: the same snake and target reopen the solution and step it
  // names; another snake is solved.
  window.addEventListener("hashchange", () => {
    if (!readHash() || FRAMED) return;
    const req = request();
    const same = asked && answer && scene && req.snake === asked.snake && req.target === asked.target &&
      document.body.dataset.state === "done";
    if (!same) { solve(); return; }
    const want = linked.solution ? linked.solution - 1 : pickedIndex;
    const at = linked.step ? linked.step - 1 : step;
    layersWanted = !!linked.step;
    linked = null;
    if (want !== pickedIndex && want < answer.solutions.length) {
      const mine = ++run;
      pick(want, mine, true, at).catch((e) => showError(e.message));
    } else {
      go(at);
      if (planLinked && plan) { const k = planLinked; planLinked = null; planGo(k.step, k.after); planIntoView(true); }
      else if (planLinked && (!planWanted || $("plan-ask"))) loadPlan({ ...asked, cells: picked }, run);  // the link asks
      else if (!planLinked) bringIntoView();
    }
  });
  window.snakecubeStep = () => step;
  window.snakecubeGo = (k) => go(k);
  window.snakecubePlanGo = (k) => planGo(k);
  window.snakecubeSolution = () => pickedIndex;
  window.snakecubeWrong = () => wrongAt;  // the dialog's question or verdict shown (for tests)

  // The catalog's names, for the snake box's suggestions.
  // (the static site has them in its configuration: at once, while the solver loads)
  (CONFIG.catalog ? Promise.resolve(CONFIG.catalog) :
    CONFIG.mode === "static" ? backend.ready.then(() => backend.call("catalog", {})) :
    fetch("api/catalog").then((r) => r.json())).then((list) => {
    for (const e of list) {
      const o = document.createElement("option");
      o.value = e.name;
      o.label = `${e.name} (${e.box})`;
      $("catalog").appendChild(o);
    }
  }).catch(() => {});

  // The static site as an app: its service worker keeps the site for use offline; a new
  // build's worker waits until the page asks it to take over (the Reload button).
  // Registered once the solver is ready and the first answer is drawn (or 5 s after ready
  // with nothing asked), so that caching the site slows neither the first start nor the
  // first answer (a link to the king: 12.1 s against 11.0 s before, when it cached at ready).
  if (CONFIG.mode === "static" && "serviceWorker" in navigator && !FRAMED) {
    const idle = () => new Promise((resolve) => setTimeout(resolve, 5000));
    backend.ready.then(() => Promise.race([atRest, idle()]))
      .then(() => navigator.serviceWorker.register("sw.js")).then((reg) => {
      const offer = (w) => { if (w && navigator.serviceWorker.controller) { $("update").hidden = false; $("update-now").onclick = () => w.postMessage("take over"); } };
      offer(reg.waiting);
      reg.addEventListener("updatefound", () => {
        const w = reg.installing;
        if (w) w.addEventListener("statechange", () => { if (w.state === "installed") offer(w); });
      });
      mark("service worker", 0);
    }).catch(() => {});
    let reloading = false;
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (reloading || $("update").hidden) return;
      reloading = true;
      location.reload();
    });
  }

  setEngine(CONFIG.mode === "static" ? "loading the solver in your browser…" : CONFIG.engine);
  backend.ready.then((engine) => {
    setEngine(engine);
    mark("ready", 0);
    if (document.body.dataset.state === "loading") setState("ready");
    if (readHash() && !FRAMED) solve();
  }).catch((err) => { showError(err.message); setState("error"); });
})();
