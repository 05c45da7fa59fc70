// The page's side of the sandbox where users' shuffles run (README, "Your own shuffle").
//
// An <iframe sandbox="allow-scripts"> (never allow-same-origin) made from srcdoc: its origin
// is opaque, so the browser itself denies it Cache Storage, IndexedDB, cookies and the service
// worker, and it can't touch this page. Being srcdoc, it needs no network: the page fetches
// Pyodide's files and the Python sources (through its service worker, so offline too) and
// hands them over. Its one inline script is allowed by its hash in the page's CSP.
//
// Python (py/page/workers.py) drives it through globalThis.shufflelabSandbox: start() once,
// call(method, argsJson) -> the answer's text, stop() to end the frame and everything in it
// (the page's time limit). What comes back is checked here for shape and size, and then
// read as untrusted data by trusted Python; a frame that sends what nobody asked for is ended.
const PYODIDE = "./static/vendor/pyodide/";
const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
const FRAME_SCRIPT = "./static/js/sandbox-frame.js";
const WORKER_SCRIPT = "./static/js/sandbox-worker.js";
const PYTHON_LIST = "./sandbox.toml";
const MAX_ANSWER_CHARACTERS = 4_000_000;  // as shufflelab.lab.sandbox: 128 × 128 counts with room to spare
const MAX_UNASKED = 50;  // messages nobody asked for before the frame is ended as misbehaving

const state = { phase: "idle", loaded: 0, total: 0, error: "", unasked: 0 };
let frame = null;
let nextId = 1;
const pending = new Map();

async function fetchBytes(url) {
  const answer = await fetch(url);
  if (!answer.ok) throw new Error(`${url.split("/").pop()} answered ${answer.status}`);
  const reader = answer.body.getReader();
  const parts = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    state.loaded += value.length;
  }
  return new Blob(parts).arrayBuffer();
}

async function fetchText(url) {
  return new TextDecoder().decode(await fetchBytes(url));
}

// "./py/shufflelab/rng.py" = "./shufflelab/rng.py": the same [files] format as pyscript.toml
async function pythonSources() {
  const list = await fetchText(PYTHON_LIST);
  const entries = [...list.matchAll(/^"(\.\/py\/[\w./]+\.py)" = "\.\/([\w./]+\.py)"$/gm)];
  const texts = await Promise.all(entries.map(([, source]) => fetchText(source)));
  return Object.fromEntries(entries.map(([, , target], k) => [target, texts[k]]));
}

function settle(id, outcome) {
  const call = pending.get(id);
  if (call === undefined) return false;
  pending.delete(id);
  outcome.error === undefined ? call.resolve(outcome.text) : call.reject(new Error(outcome.error));
  return true;
}

function heard(event) {
  if (frame === null || event.source !== frame.contentWindow) return;
  const data = event.data;
  const ok = data !== null && typeof data === "object" && typeof data.kind === "string";
  if (ok && data.kind === "answer" && typeof data.text === "string" && data.text.length <= MAX_ANSWER_CHARACTERS
      && settle(data.id, { text: data.text })) return;
  const waiter = ok && state.phase === "starting" ? waiters.findIndex((w) => w.kinds.includes(data.kind)) : -1;
  if (waiter >= 0) {
    waiters.splice(waiter, 1)[0].resolve(data);
    return;
  }
  if (ok && data.kind === "crashed") {
    stop("the sandbox's worker crashed");
    return;
  }
  state.unasked += 1;
  if (state.unasked > MAX_UNASKED) stop("the sandbox sent messages nobody asked for");
}

// The frame inherits the page's CSP; this one is enforced beside it, so the frame and its worker
// get the stricter of the two: their own script, blob: URLs of the files handed over, and no
// fetch of anything else at all (not even this site's public files).
async function framePolicy(frameScript) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(frameScript));
  const hash = btoa(String.fromCharCode(...new Uint8Array(digest)));
  const policy = `default-src 'none'; script-src 'wasm-unsafe-eval' blob: 'sha256-${hash}'; worker-src blob:; `
    + "connect-src blob:; base-uri 'none'; form-action 'none'";
  return `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
}

let waiters = [];  // while starting: {kinds, resolve} for the frame's and the worker's first messages

function waitFor(kinds) {
  return new Promise((resolve) => waiters.push({ kinds, resolve }));
}

let generation = 0;  // bumped by stop(): a start under way when the sandbox is stopped gives up

function stillWanted(mine) {
  if (mine !== generation) throw new Error("the sandbox was stopped while it started");
}

async function boot() {
  const mine = generation;
  state.phase = "fetching";
  state.loaded = 0;
  state.total = 0;
  state.error = "";
  const sizes = await Promise.all(PYODIDE_FILES.map((name) => fetch(PYODIDE + name, { method: "HEAD" })
    .then((answer) => Number(answer.headers.get("Content-Length")) || 0).catch(() => 0)));
  state.total = sizes.reduce((a, b) => a + b, 0);
  const [frameScript, workerScript, python, ...buffers] = await Promise.all([
    fetchText(FRAME_SCRIPT), fetchText(WORKER_SCRIPT), pythonSources(),
    ...PYODIDE_FILES.map((name) => fetchBytes(PYODIDE + name))]);
  stillWanted(mine);
  state.phase = "starting";
  waiters = [];
  const files = Object.fromEntries(PYODIDE_FILES.map((name, k) => [name, buffers[k]]));
  const policy = await framePolicy(frameScript);
  stillWanted(mine);
  frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.hidden = true;
  frame.title = "Sandbox for your shuffle";
  frame.srcdoc = `<!doctype html><meta charset="utf-8">${policy}<title>sandbox</title><script>${frameScript}</script>`;
  const frameReady = waitFor(["frame-ready"]);
  document.body.appendChild(frame);
  await frameReady;
  stillWanted(mine);
  const started = waitFor(["ready", "failed", "crashed"]);
  frame.contentWindow.postMessage({ kind: "boot", source: workerScript, boot: { kind: "boot", files, python } }, "*",
    Object.values(files));
  const outcome = await started;
  if (outcome.kind !== "ready") throw new Error(String(outcome.text || "the sandbox could not start").slice(0, 200));
  state.phase = "ready";
}

let starting = null;

// Start the sandbox once (again after stop()); resolves when its Python is ready.
function start() {
  if (starting === null) {
    const mine = generation;
    starting = boot().catch((error) => {
      if (mine === generation) {  // not a start that stop() already gave up
        const reason = String((error && error.message) || error).slice(0, 200);
        stop(reason);
        state.phase = "failed";
        state.error = reason;
      }
      throw error;
    });
  }
  return starting;
}

// Ask the sandbox's Python: resolves to the JSON text it answered, rejects if the frame is ended meanwhile.
function call(method, argsJson) {
  if (frame === null || state.phase !== "ready") return Promise.reject(new Error("the sandbox is not running"));
  const id = nextId++;
  const answer = new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  frame.contentWindow.postMessage({ kind: "call", id, method: String(method), args: String(argsJson) }, "*");
  return answer;
}

// End the frame, and with it the worker and everything the user's code started.
function stop(reason = "the sandbox was stopped") {
  generation += 1;
  if (frame !== null) frame.remove();
  frame = null;
  starting = null;
  for (const waiter of waiters) waiter.resolve({ kind: "stopped" });  // a start under way gives up at once
  waiters = [];
  state.phase = "idle";
  state.unasked = 0;
  for (const id of [...pending.keys()]) settle(id, { error: reason });
}

addEventListener("message", heard);
globalThis.shufflelabSandbox = { start, call, stop, state };
