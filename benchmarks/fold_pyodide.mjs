// The static page's fold plans, timed in Pyodide under node (benchmarks/fold.py runs it):
//   node benchmarks/fold_pyodide.mjs NODE_MODULES SNAKECUBE_ZIP SNAKE
// loads Pyodide from NODE_MODULES/pyodide, unpacks the pure-Python package (snakecube.zip as
// the static site ships it) and, as the page's worker does, solves SNAKE and asks
// answers.plan_answer for each solution it shows. Prints one JSON line per solution:
// {"solution": k, "seconds": s, "quarter_turns": q, "held": end}.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [nm, zipPath, snake] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${nm}/pyodide/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${nm}/pyodide/` });
pyodide.unpackArchive(new Uint8Array(readFileSync(zipPath)), "zip", { extractDir: "/home/pyodide/site" });
pyodide.globals.set("SNAKE", snake);
pyodide.runPython(`
import json, os, sys, time, warnings
os.environ["SNAKECUBE_PUREPYTHON"] = "1"
sys.path.insert(0, "/home/pyodide/site")
warnings.simplefilter("ignore")
from snakecube.web import answers
shown = answers.solve_answer(SNAKE, strategy="depth-first")
for k, s in enumerate(shown["solutions"], 1):
    t = time.perf_counter()
    out = answers.plan_answer(SNAKE, shown["box"], "", s["cells"])
    print(json.dumps({"solution": k, "seconds": time.perf_counter() - t,
                      "quarter_turns": out.get("quarter_turns"), "held": out.get("held"),
                      "error": out.get("error")}), flush=True)
`);
