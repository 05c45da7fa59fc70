// The sandbox's worker: Pyodide with the files the page handed over (it can fetch nothing of
// the site: its origin is opaque), running py/sandbox.py. It answers each call with the JSON
// text sandbox.py returns; what the user's code does here can reach nothing but this worker.
"use strict";
let handle = null;

self.onmessage = async (event) => {
  const message = event.data || {};
  if (message.kind === "boot" && handle === null) {
    const started = performance.now();
    try {
      handle = await boot(message);
      self.postMessage({ kind: "ready", ms: performance.now() - started });
    } catch (error) {
      self.postMessage({ kind: "failed", text: lastLine(error) });
    }
  } else if (message.kind === "call" && handle !== null) {
    let text;
    try {
      text = handle(String(message.method), String(message.args));
    } catch (error) {  // a bug of ours, or the user's code broke the handler: one line either way
      text = JSON.stringify({ ok: false, error: lastLine(error) });
    }
    self.postMessage({ kind: "answer", id: message.id, text: String(text) });
  }
};

// A Python traceback's last line says what went wrong
function lastLine(error) {
  const lines = String((error && error.message) || error).split("\n").filter((line) => line.trim());
  return lines.length ? lines[lines.length - 1].trim() : "unknown error";
}

async function boot({ files, python }) {
  const url = (name, type) => URL.createObjectURL(new Blob([files[name]], { type }));
  const { loadPyodide } = await import(url("pyodide.mjs", "text/javascript"));
  const { default: createPyodideModule } = await import(url("pyodide.asm.mjs", "text/javascript"));
  const wasm = files["pyodide.asm.wasm"];
  const fetchBefore = self.fetch;
  // Pyodide fetches its WebAssembly by name from indexURL: answer with the handed bytes
  self.fetch = (resource, init) => String(resource).endsWith("/pyodide.asm.wasm")
    ? Promise.resolve(new Response(wasm, { headers: { "Content-Type": "application/wasm" } }))
    : fetchBefore(resource, init);
  let pyodide;
  try {
    pyodide = await loadPyodide({
      indexURL: "https://sandbox.invalid/",
      createPyodideModule,
      lockFileContents: new TextDecoder().decode(files["pyodide-lock.json"]),
      stdLibURL: url("python_stdlib.zip", "application/zip"),
    });
  } finally {
    self.fetch = fetchBefore;
  }
  const home = "/home/pyodide/sandbox/";
  for (const [path, text] of Object.entries(python)) {
    pyodide.FS.mkdirTree(home + path.split("/").slice(0, -1).join("/"));
    pyodide.FS.writeFile(home + path, text);
  }
  pyodide.runPython(`import sys; sys.path.insert(0, "${home}")`);
  return pyodide.pyimport("sandbox").handle;
}
