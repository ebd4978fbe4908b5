// The static site's solver: Pyodide in a Web Worker, so the page stays responsive. The
// runtime comes from ./pyodide/ (copied from the npm package at build time) and snakecube's
// pure-Python package from ./snakecube.zip (unpacked into Pyodide's file system): nothing
// is fetched from a CDN or a package index.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const BOOT = `
import json, os, sys, time, warnings
os.environ["SNAKECUBE_PUREPYTHON"] = "1"
sys.path.insert(0, "/home/pyodide/site")
warnings.simplefilter("ignore")
import js
from snakecube.errors import InputError
from snakecube.web import answers

def snakecube_call(ident, kind, args_json):
    args = json.loads(args_json)
    fields = (args.get("snake", ""), args.get("box", ""), args.get("region", ""))
    try:
        if kind == "solve":
            last = [0.0]
            def progress(done, total, found):
                now = time.monotonic()
                if now - last[0] >= 0.25 or done == total:
                    last[0] = now
                    js.postMessage(json.dumps({"type": "progress", "id": ident, "done": done,
                                               "total": total, "found": found}))
            out = answers.solve_answer(*fields, limit=args.get("limit"), progress=progress,
                                       strategy="depth-first")
        elif kind == "details":
            out = answers.details(*fields, args["cells"])
        elif kind == "plan":
            out = answers.plan_answer(*fields, args["cells"])
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
`;

let pyodide = null;
const booted = (async () => {
  try {
    pyodide = await loadPyodide({ indexURL: "pyodide/" });
    const zip = await (await fetch("snakecube.zip")).arrayBuffer();
    pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/site" });
    pyodide.runPython(BOOT);
    const version = pyodide.runPython("import sys; '.'.join(map(str, sys.version_info[:3]))");
    postMessage({ type: "ready", engine: `pure Python in your browser (Pyodide ${pyodide.version}, Python ${version})` });
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
