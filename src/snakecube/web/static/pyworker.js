// The static site's solver: Pyodide in a Web Worker, so the page stays responsive. The
// runtime comes from ./pyodide/ (copied from the npm package at build time), snakecube's
// pure-Python package from ./snakecube.zip (unpacked into Pyodide's file system) and the
// compiled loops from ./kernel.wasm (built by `snakecube web` from the C sources the native
// package wraps; kernel.json says whether the site has it): nothing is fetched from a CDN or
// a package index. Python calls the module's functions through Pyodide's bridge
// (snakecube.wasm, snakecube.search.loops); without it, everything runs in pure Python.
import { loadPyodide } from "./pyodide/pyodide.mjs";

async function loadKernel() {
  try {
    const manifest = await (await fetch("kernel.json")).json();
    if (!manifest.module) return { why: manifest.why_not };
    const bytes = await (await fetch(manifest.module)).arrayBuffer();
    const { instance } = await WebAssembly.instantiate(bytes, {});
    return { instance };
  } catch (err) {
    return { why: `the compiled kernel could not be loaded: ${err.message}` };
  }
}

const BOOT = `
import json, os, sys, time, warnings
sys.path.insert(0, "/home/pyodide/site")
warnings.simplefilter("ignore")
import js
from snakecube.errors import InputError
from snakecube.web import answers

def snakecube_call(ident, kind, args_json):
    args = json.loads(args_json)
    fields = (args.get("snake", ""), args.get("target", ""))
    try:
        if kind == "solve":
            # Say the target's size first: the page warns before a slow count starts.
            size = answers.cells(*fields)
            slow = size > answers.SMALL_IN_BROWSER
            js.postMessage(json.dumps({"type": "target", "id": ident, "cells": size,
                                       "slow": slow}))
            limit = args.get("limit")
            if args.get("first_if_big") and slow:
                limit = 1  # a first solution to draw, then the page asks for the count
            last = [0.0]
            def progress(done, total, found):
                now = time.monotonic()
                if now - last[0] >= 0.25 or done == total:
                    last[0] = now
                    js.postMessage(json.dumps({"type": "progress", "id": ident, "done": done,
                                               "total": total, "found": found}))
            out = answers.solve_answer(*fields, limit=limit, progress=progress)
        elif kind == "details":
            out = answers.details(*fields, args["cells"])
        elif kind == "plan":
            out = answers.plan_answer(*fields, args["cells"])
        elif kind == "wrong":
            out = answers.wrong_answer(*fields, args["cells"], args["step"])
        elif kind == "viewer":
            out = answers.viewer_file(*fields, args["cells"])
        elif kind == "catalog":
            out = answers.catalog()
        else:
            raise InputError(f"unknown request {kind!r}")
        return json.dumps({"type": "result", "id": ident, "answer": out})
    except InputError as err:
        return json.dumps({"type": "error", "id": ident, "error": str(err)})
    except Exception as err:
        return json.dumps({"type": "error", "id": ident,
                           "error": f"internal error: {type(err).__name__}: {err}"})

def snakecube_compiled():
    from snakecube import wasm
    return wasm.runtime() is not None

def snakecube_warm():
    # What the first solve would import (and compile) otherwise: done while the person types.
    import snakecube.search, snakecube.fold, snakecube.explain.scene, snakecube.explain.prose
`;

let pyodide = null;
const t0 = performance.now();
const booted = (async () => {
  try {
    const zip = fetch("snakecube.zip").then((r) => r.arrayBuffer());
    const kernel = loadKernel();
    pyodide = await loadPyodide({ indexURL: "pyodide/" });
    const t1 = performance.now();
    pyodide.unpackArchive(await zip, "zip", { extractDir: "/home/pyodide/site" });
    const { instance, why } = await kernel;
    if (instance) {
      pyodide.registerJsModule("snakecube_wasm", { exports: instance.exports, memory: instance.exports.memory });
    }
    pyodide.runPython(BOOT);
    const version = pyodide.runPython("import sys; '.'.join(map(str, sys.version_info[:3]))");
    const compiled = pyodide.runPython("snakecube_compiled()");
    const t2 = performance.now();
    const runtime = `Pyodide ${pyodide.version}, Python ${version}`;
    const engine = compiled ? `compiled kernel in your browser (WebAssembly; ${runtime})`
      : `pure Python in your browser (${runtime}); no compiled kernel: ${why || "it did not load"}`;
    postMessage({ type: "ready", engine, times: { pyodide: t1 - t0, snakecube: t2 - t1 } });
    pyodide.runPython("snakecube_warm()");
    postMessage({ type: "warm", times: { warm: performance.now() - t2 } });
  } catch (err) {
    postMessage({ type: "boot-error", error: `the solver could not start: ${err.message}` });
    throw err;
  }
})();

onmessage = async (e) => {
  await booted;
  const { id, kind, args } = e.data;
  const call = pyodide.globals.get("snakecube_call");
  try {
    postMessage(call(id, kind, JSON.stringify(args || {})));
  } finally {
    call.destroy();
  }
};
