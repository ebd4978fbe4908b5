// Runs snakecube's WebAssembly module (kernel.wasm) for tests/wasmnode.py: one JSON request a
// line on stdin, one JSON answer a line on stdout. Requests: {call, args} calls an exported
// function; {write, data} copies base64 bytes into memory; {read, size} answers them back.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const { instance } = await WebAssembly.instantiate(readFileSync(process.argv[2]), {});
const exports = instance.exports;
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  let answer;
  try {
    const m = JSON.parse(line);
    if (m.call !== undefined) {
      // The bridge's calls are checked against the module's own functions: a name the C
      // does not export, or a call with another number of arguments, is an error here.
      const f = exports[m.call];
      if (typeof f !== "function") throw new Error(`the module exports no ${m.call}`);
      if (f.length !== m.args.length)
        throw new Error(`${m.call} takes ${f.length} arguments, not ${m.args.length}`);
      answer = { ok: f(...m.args) ?? null };
    } else if (m.write !== undefined) {
      const data = Buffer.from(m.data, "base64");
      new Uint8Array(exports.memory.buffer, m.write, data.length).set(data);
      answer = { ok: null };
    } else {
      answer = { ok: Buffer.from(exports.memory.buffer, m.read, m.size).toString("base64") };
    }
  } catch (err) {
    answer = { error: String(err) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
